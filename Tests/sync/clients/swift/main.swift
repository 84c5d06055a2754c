// A Swift client of Data Ingest for Tests/sync/test_client_swift.py (the Swift face's sync session):
//   SwiftIngestClient <file> <url> <token> <first> <count> <sensor>
// opens <file> with the Reading model and sync to <url>, adds Readings first..first+count-1, waits
// for the upload (async, then with a completion), and prints what the session reports: errors as
// they come, then its state, progress and connection states, and its answers to bad calls.
import Dispatch
import Drumlin
import Synchronization

final class Reading: AsymmetricObject {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var sensor: String
    @Persisted var celsius: Double
    @Persisted var at: Date
    @Persisted var note: String?
}

let arguments = CommandLine.arguments
guard arguments.count == 7, let first = Int(arguments[4]), let count = Int(arguments[5]) else {
    FileHandle.standardError.write("usage: SwiftIngestClient <file> <url> <token> <first> <count> <sensor>\n".data(using: .utf8)!)
    exit(2)
}
let token = arguments[3]
let sensor = arguments[6]

func hex(_ n: Int) -> String {
    let digits = String(n, radix: 16)
    return "65f1c0ffee" + String(repeating: "0", count: 14 - digits.count) + digits
}

let connectionStates = Mutex<[SyncSession.ConnectionState]>([])
let lastProgress = Mutex<SyncSession.Progress?>(nil)
var configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: arguments[1]), objectTypes: [Reading.self])
configuration.syncConfiguration = SyncConfiguration(url: arguments[2], errorHandler: { error, session in
    print("error \(error.code) \(error.name) \(error.action) \(error.isFatal) \(session != nil): \(error.message)")
}, token: { token })

do {
    let realm = try Realm(configuration: configuration)
    guard let session = realm.syncSession else {
        print("no sync session")
        exit(1)
    }
    // Suspended while the objects are added: the progress notification's outstanding work is all of them.
    session.suspend()
    let connection = session.observeConnectionState { state in connectionStates.withLock { $0.append(state) } }
    try realm.write {
        for n in first..<(first + count) {
            let reading = Reading()
            reading._id = try! ObjectId(string: hex(n))
            reading.sensor = sensor
            reading.celsius = 20 + Double(n) / 100
            reading.at = Date(timeIntervalSince1970: 1_796_648_400 + Double(n))   // 2026-12-07 13:00:00 UTC + n s
            realm.add(reading)
        }
    }
    // wait(for:) returns once the file's queue is empty; the session reports the acknowledgement
    // (and counts it as uploaded) just after: the last report is waited for too.
    let complete = DispatchSemaphore(value: 0)
    let progress = session.addProgressNotification(for: .upload, mode: .forCurrentlyOutstandingWork) { progress in
        lastProgress.withLock { $0 = progress }
        if progress.isTransferComplete { complete.signal() }
    }
    session.resume()
    try await session.wait(for: .upload)
    if complete.wait(timeout: .now() + 60) == .timedOut { print("no complete progress report within 60 s") }
    let seen = lastProgress.withLock { $0 }
    print("state \(session.state) connection \(session.connectionState) outstanding \(seen.map { "\($0.transferredBytes) of \($0.transferrableBytes) complete \($0.isTransferComplete)" } ?? "none")")
    let total = session.uploadProgress
    print("uploaded \(total.transferredBytes) of \(total.transferrableBytes) estimate \(total.progressEstimate)")
    print("connection states include connected: \(connectionStates.withLock { $0.contains(.connected) })")
    connection.invalidate()
    progress?.invalidate()

    session.suspend()
    print("suspended: \(session.state)")
    session.resume()
    print("resumed: \(session.state)")
    do {
        try await session.wait(for: .download)
        print("download: no error")
    } catch {
        print("download: \(error)")
    }
    print("download progress token: \(session.addProgressNotification(for: .download, mode: .reportIndefinitely) { _ in } == nil ? "nil" : "given")")
    let done = DispatchSemaphore(value: 0)
    let outcome = Mutex<String>("")
    session.wait(for: .upload) { error in
        outcome.withLock { $0 = error.map { "\($0)" } ?? "nil" }
        done.signal()
    }
    done.wait()
    print("completion: \(outcome.withLock { $0 })")
    do {
        try session.waitForUpload(timeout: -1)
    } catch {
        print("negative timeout: \(error)")
    }
} catch {
    print("failed: \(error)")
    exit(1)
}
