// Drumlin — SPDX-License-Identifier: Apache-2.0 (see LICENSE)
import DrumlinWebSocket

#if canImport(Glibc)
import Glibc
#endif

/// How to reach the sync service (docs/sync.md, "The client's transport").
package struct WebSocketOptions: Sendable {
    /// `ws://` or `wss://host[:port]/path` (an IPv6 host in brackets).
    package var url: String
    /// The `Sec-WebSocket-Protocol` asked for, e.g. "drumlin-sync.1".
    package var subprotocol: String
    /// Extra request headers (names are tokens; values have no CR, LF or NUL).
    package var headers: [(name: String, value: String)]
    /// A PEM bundle of the CAs trusted for `wss`; nil: the system's roots.
    package var caFile: String?
    /// DNS, TCP, TLS and the upgrade together.
    package var connectTimeoutMilliseconds: Int
    /// A bigger incoming message fails `receive` with `messageTooLarge` without being buffered.
    package var maxMessageBytes: Int
    /// Keepalive: a ping after this long without a frame from the peer...
    package var pingIntervalMilliseconds: Int
    /// ...and `connectionLost` when the ping gets no pong (nor any frame) this long after it.
    package var pongTimeoutMilliseconds: Int

    package init(url: String, subprotocol: String, headers: [(name: String, value: String)] = [],
                 caFile: String? = nil, connectTimeoutMilliseconds: Int = 15_000,
                 maxMessageBytes: Int = 16 << 20, pingIntervalMilliseconds: Int = 30_000,
                 pongTimeoutMilliseconds: Int = 30_000) {
        self.url = url
        self.subprotocol = subprotocol
        self.headers = headers
        self.caFile = caFile
        self.connectTimeoutMilliseconds = connectTimeoutMilliseconds
        self.maxMessageBytes = maxMessageBytes
        self.pingIntervalMilliseconds = pingIntervalMilliseconds
        self.pongTimeoutMilliseconds = pongTimeoutMilliseconds
    }
}

package enum WebSocketError: Error, Equatable, Sendable {
    case invalidURL(String)
    /// Options other than the URL that cannot be used (a header with a line break, a zero timeout).
    case invalidOptions(String)
    /// With the reason (refused, DNS, TLS verification failed...).
    case connectFailed(String)
    /// The upgrade was answered with another HTTP status; the response body (up to 511 bytes).
    case handshakeRejected(status: Int, body: String)
    /// The peer's close frame (the service closes with 4000 + its error code).
    case closed(code: Int, reason: String)
    /// EOF, reset, a ping without pong, or a connection this side closed.
    case connectionLost(String)
    /// An incoming message of this many bytes (at least) is over `maxMessageBytes`.
    case messageTooLarge(Int)
    /// The connect and upgrade took longer than `connectTimeoutMilliseconds`.
    case timedOut(String)
}

/// One WebSocket client connection, blocking and owned by one thread (the sync client's): that
/// thread calls `send` and `receive`; `wake()` and `close` may come from any thread. Each
/// connection has its own libwebsockets context, so connections share nothing.
package final class WebSocketConnection: @unchecked Sendable {
    private let handle: OpaquePointer

    /// Resolves, connects, runs TLS for `wss` and the upgrade; blocks at most the connect timeout.
    package init(_ options: WebSocketOptions) throws(WebSocketError) {
        let target = try WebSocketURL(options.url)
        try Self.validate(options)
        var error = dws_error()
        var connection: OpaquePointer?
        let names = options.headers.map { strdup($0.name) }
        let values = options.headers.map { strdup($0.value) }
        defer {
            names.forEach { free($0) }
            values.forEach { free($0) }
        }
        let status: dws_status = names.map { UnsafePointer($0) }.withUnsafeBufferPointer { namePointers in
            values.map { UnsafePointer($0) }.withUnsafeBufferPointer { valuePointers in
                target.host.withCString { host in
                    target.path.withCString { path in
                        options.subprotocol.withCString { subprotocol in
                            withOptionalCString(options.caFile) { caFile in
                                var o = dws_options()
                                o.host = host
                                o.port = Int32(target.port)
                                o.path = path
                                o.tls = target.tls ? 1 : 0
                                o.subprotocol = subprotocol
                                o.header_names = namePointers.baseAddress
                                o.header_values = valuePointers.baseAddress
                                o.header_count = options.headers.count
                                o.ca_file = caFile
                                o.connect_timeout_ms = Int32(clamping: options.connectTimeoutMilliseconds)
                                o.max_message_bytes = options.maxMessageBytes
                                o.ping_interval_ms = Int32(clamping: options.pingIntervalMilliseconds)
                                o.pong_timeout_ms = Int32(clamping: options.pongTimeoutMilliseconds)
                                return dws_connect(&o, &connection, &error)
                            }
                        }
                    }
                }
            }
        }
        guard status == DWS_OK, let connection else { throw Self.translate(error) }
        handle = connection
    }

    deinit {
        dws_free(handle)
    }

    /// Sends one text message; returns when it is handed to the socket.
    package func send(text: [UInt8]) throws(WebSocketError) {
        var error = dws_error()
        let status = text.withUnsafeBufferPointer { dws_send_text(handle, $0.baseAddress, $0.count, &error) }
        guard status == DWS_OK else { throw Self.translate(error) }
    }

    /// One whole text message, or nil after the timeout or a `wake()` (a wake that comes while no
    /// receive is blocked makes the next receive return nil at once: none is lost).
    package func receive(timeoutMilliseconds: Int) throws(WebSocketError) -> [UInt8]? {
        var error = dws_error()
        var data: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = dws_receive(handle, Int32(clamping: timeoutMilliseconds), &data, &length, &error)
        switch status {
        case DWS_OK:
            defer { free(data) }
            guard let data else { return [] }
            return Array(UnsafeBufferPointer(start: data, count: length))
        case DWS_NOTHING:
            return nil
        default:
            throw Self.translate(error)
        }
    }

    /// From any thread: a blocked `receive` returns nil now.
    package func wake() {
        dws_wake(handle)
    }

    /// Idempotent, from any thread: sends a close frame (code 1000 or 3000...4999; the reason cut to
    /// 123 bytes), waits briefly for the peer's, and frees the socket and its context. Later calls
    /// fail with `connectionLost`.
    package func close(code: UInt16 = 1000, reason: String = "") {
        var bytes = Array(reason.utf8.prefix(123))
        while !bytes.isEmpty, String(validating: bytes, as: UTF8.self) == nil { bytes.removeLast() }
        bytes.append(0)
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { dws_close(handle, code, $0.baseAddress) }
        }
    }

    private static func validate(_ options: WebSocketOptions) throws(WebSocketError) {
        if options.connectTimeoutMilliseconds <= 0 || options.pingIntervalMilliseconds <= 0
            || options.pongTimeoutMilliseconds <= 0 {
            throw .invalidOptions("connectTimeoutMilliseconds, pingIntervalMilliseconds and pongTimeoutMilliseconds must be positive")
        }
        if options.maxMessageBytes <= 0 {
            throw .invalidOptions("maxMessageBytes must be positive, not \(options.maxMessageBytes)")
        }
        if options.subprotocol.isEmpty || !options.subprotocol.utf8.allSatisfy(isTokenByte) {
            throw .invalidOptions("the subprotocol \"\(options.subprotocol)\" is not an HTTP token")
        }
        for (name, value) in options.headers {
            if name.isEmpty || !name.utf8.allSatisfy(isTokenByte) {
                throw .invalidOptions("the header name \"\(name)\" is not an HTTP token")
            }
            if value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) {
                throw .invalidOptions("the value of header \(name) contains a line break or NUL")
            }
        }
        if let caFile = options.caFile, caFile.utf8.contains(0) {
            throw .invalidOptions("caFile contains NUL")
        }
    }

    private static func translate(_ error: dws_error) -> WebSocketError {
        let message = withUnsafeBytes(of: error.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        switch error.status {
        case DWS_ERR_CONNECT_FAILED: return .connectFailed(message)
        case DWS_ERR_HANDSHAKE_REJECTED: return .handshakeRejected(status: Int(error.code), body: message)
        case DWS_ERR_CLOSED: return .closed(code: Int(error.code), reason: message)
        case DWS_ERR_MESSAGE_TOO_LARGE: return .messageTooLarge(error.size)
        case DWS_ERR_TIMED_OUT: return .timedOut(message)
        case DWS_ERR_INVALID: return .invalidOptions(message)
        default: return .connectionLost(message)
        }
    }
}

/// RFC 7230's token characters (header names, subprotocols).
private func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        return true
    default:
        return "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
}

private func withOptionalCString<R>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}

/// A `ws://` or `wss://` URL taken apart.
struct WebSocketURL: Equatable {
    var tls: Bool
    var host: String
    var port: Int
    var path: String

    init(tls: Bool, host: String, port: Int, path: String) {
        self.tls = tls
        self.host = host
        self.port = port
        self.path = path
    }

    init(_ url: String) throws(WebSocketError) {
        let bytes = Array(url.utf8)
        let rest: ArraySlice<UInt8>
        if bytes.starts(with: "ws://".utf8) {
            tls = false
            rest = bytes[5...]
        } else if bytes.starts(with: "wss://".utf8) {
            tls = true
            rest = bytes[6...]
        } else {
            throw .invalidURL("\(url): the scheme must be ws:// or wss://")
        }
        if bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
            throw .invalidURL("\(url): spaces and control characters are not allowed")
        }
        let authorityEnd = rest.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") })
            ?? rest.endIndex
        let authority = rest[rest.startIndex..<authorityEnd]
        var pathPart = rest[authorityEnd...]
        if let fragment = pathPart.firstIndex(of: UInt8(ascii: "#")) {
            pathPart = pathPart[pathPart.startIndex..<fragment]
        }
        path = pathPart.isEmpty ? "/" : (pathPart.first == UInt8(ascii: "?") ? "/" : "") + String(decoding: pathPart, as: UTF8.self)
        if authority.contains(UInt8(ascii: "@")) {
            throw .invalidURL("\(url): user information is not allowed (send credentials in a header)")
        }
        var hostPart = authority
        var portPart: ArraySlice<UInt8>?
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else {
                throw .invalidURL("\(url): an IPv6 host needs its closing ]")
            }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.first == UInt8(ascii: ":") else { throw .invalidURL("\(url): unexpected text after the IPv6 host") }
                portPart = after.dropFirst()
            }
        } else if let colon = authority.firstIndex(of: UInt8(ascii: ":")) {
            hostPart = authority[authority.startIndex..<colon]
            portPart = authority[authority.index(after: colon)...]
        }
        if hostPart.isEmpty { throw .invalidURL("\(url): the host is missing") }
        host = String(decoding: hostPart, as: UTF8.self)
        if let portPart {
            guard !portPart.isEmpty, portPart.count <= 5, portPart.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let value = Int(String(decoding: portPart, as: UTF8.self)), (1...65535).contains(value)
            else {
                throw .invalidURL("\(url): the port must be a number from 1 to 65535")
            }
            port = value
        } else {
            port = tls ? 443 : 80
        }
    }
}
