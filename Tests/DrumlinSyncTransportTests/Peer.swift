// Drumlin — SPDX-License-Identifier: Apache-2.0 (see LICENSE)
import Foundation

/// A peer process from Tests/sync/websocket_peer.py (its modes are described there), on a free
/// port of 127.0.0.1, killed when the test drops it. Its Python is $DRUMLIN_TEST_PYTHON, else the
/// checkout's .venv, else python3 (it needs the `websockets` and `cryptography` packages).
final class Peer {
    let port: Int
    let folder: URL
    private let process: Process

    init(_ mode: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("drumlin-ws-peer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let environment = ProcessInfo.processInfo.environment
        let venv = root.appendingPathComponent(".venv/bin/python3").path
        let python = environment["DRUMLIN_TEST_PYTHON"]
            ?? (FileManager.default.isExecutableFile(atPath: venv) ? venv : "/usr/bin/env")
        process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        let script = root.appendingPathComponent("Tests/sync/websocket_peer.py").path
        process.arguments = (python == "/usr/bin/env" ? ["python3"] : []) + [script, mode, folder.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data([0x0A]) { break }
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            kill(process.processIdentifier, SIGKILL)
            throw PeerError.noPort(mode)
        }
        self.port = port
    }

    var caFile: String { folder.appendingPathComponent("ca.pem").path }
    var otherCAFile: String { folder.appendingPathComponent("other-ca.pem").path }

    deinit {
        // SIGKILL: the peer inherits the test runner thread's signal mask, which can block SIGTERM.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }
}

enum PeerError: Error {
    case noPort(String)
}

/// A port on 127.0.0.1 that nothing listens on (bound, then closed).
func closedPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
            _ = bind(fd, raw, length)
            _ = getsockname(fd, raw, &length)
        }
    }
    close(fd)
    return Int(UInt16(bigEndian: address.sin_port))
}

/// The number of open file descriptors of this process.
func openDescriptors() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
}

/// How many of this process's descriptors are TCP sockets whose remote end is one of `ports`:
/// the sockets' inodes from /proc/net/tcp and tcp6, matched against /proc/self/fd's links.
func socketsConnected(toPorts ports: Set<Int>) -> Int {
    var inodes = Set<Substring>()
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
        // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 9, let remote = fields[2].split(separator: ":").last,
                  let port = Int(remote, radix: 16), ports.contains(port) else { continue }
            inodes.insert(fields[9])
        }
    }
    let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return descriptors.filter { descriptor in
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)"),
              target.hasPrefix("socket:[") else { return false }
        return inodes.contains(target.dropFirst(8).dropLast())
    }.count
}
