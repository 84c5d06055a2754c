import Dispatch
import Drumlin
import Synchronization
import Testing

/// The Swift face of the sync client (`Realm.Configuration.syncConfiguration`, `Realm.syncSession`)
/// where no service is needed: configuration checks, errors, the state before a connection,
/// suspend and resume. Against a real service: Tests/sync/test_client_swift.py.
@Suite struct SyncSessionTests {
    final class Probe: AsymmetricObject {
        @Persisted(primaryKey: true) var _id: ObjectId
        @Persisted var value: Int
    }

    final class Plain: Object {
        @Persisted(primaryKey: true) var id: Int
    }

    /// Nothing listens on port 1: the session tries to connect and backs off.
    static let unreachable = "ws://127.0.0.1:1/sync"

    func configuration(_ name: String, url: String = unreachable, types: [ObjectBase.Type] = [Probe.self],
                       errorHandler: (@Sendable (SyncError, SyncSession?) -> Void)? = nil,
                       token: @escaping @Sendable () -> String? = { "token" }) -> Realm.Configuration {
        let path = "/tmp/drumlin-sync-\(name)-\(UInt64.random(in: 0 ... .max)).drumlin"
        var configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: types)
        configuration.syncConfiguration = SyncConfiguration(url: url, errorHandler: errorHandler, token: token)
        return configuration
    }

    func cleanUp(_ configuration: Realm.Configuration) {
        _ = try? Realm.deleteFiles(for: configuration)
        try? FileManager.default.removeItem(atPath: configuration.fileURL!.path + "-sync.lock")
    }

    /// Whether `condition` holds within 30 s (checked every 10 ms).
    func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = DispatchTime.now() + 30
        while !condition() {
            if DispatchTime.now() >= deadline { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }

    func addProbes(_ realm: Realm, _ values: ClosedRange<Int>) throws {
        try realm.write {
            for value in values { realm.add(Probe(value: ["_id": ObjectId.generate(), "value": value])) }
        }
    }

    @Test func aRealmWithoutSyncHasNoSession() throws {
        var plain = configuration("plain")
        plain.syncConfiguration = nil
        defer { cleanUp(plain) }
        #expect(try Realm(configuration: plain).syncSession == nil)
    }

    @Test func theSessionBeforeAnyConnectionCountsQueuedObjects() throws {
        let config = configuration("before")
        defer { cleanUp(config) }
        let realm = try Realm(configuration: config)
        let session = try #require(realm.syncSession)
        #expect(session.state == .active)
        #expect(session.configuration.url == Self.unreachable)
        #expect(session.connectionState != .connected)
        #expect(session.uploadProgress == SyncSession.Progress(transferredBytes: 0, transferrableBytes: 0))
        #expect(session.uploadProgress.progressEstimate == 1)
        try addProbes(realm, 1 ... 3)
        #expect(session.uploadProgress == SyncSession.Progress(transferredBytes: 0, transferrableBytes: 3))
        #expect(!session.uploadProgress.isTransferComplete)
        let error = #expect(throws: Realm.Error.self) { try session.waitForUpload(timeout: 0.2) }
        #expect(error?.codeName == "TIMEOUT")
        #expect(error?.message.hasPrefix("The upload did not finish within 200 ms: 3 objects still wait (state ") == true)
        // The objects stay queued in the file.
        #expect(session.uploadProgress.transferrableBytes == 3)
    }

    @Test func suspendAndResumeWithoutAService() throws {
        let config = configuration("suspend")
        defer { cleanUp(config) }
        let realm = try Realm(configuration: config)
        let session = try #require(realm.syncSession)
        let reports = Mutex<[SyncSession.Progress]>([])
        let token = session.addProgressNotification(for: .upload, mode: .reportIndefinitely) { progress in
            reports.withLock { $0.append(progress) }
        }
        // Called at once with the progress now.
        #expect(reports.withLock { $0 } == [SyncSession.Progress(transferredBytes: 0, transferrableBytes: 0)])
        session.suspend()
        #expect(session.state == .inactive)
        // The session's thread drops its connection attempt when it wakes, not inside suspend().
        #expect(eventually { session.connectionState == .disconnected })
        try addProbes(realm, 1 ... 2)
        let error = #expect(throws: Realm.Error.self) { try session.waitForUpload(timeout: 0.1) }
        #expect(error?.message == "The upload did not finish within 100 ms: 2 objects still wait (state disconnected, paused).")
        session.resume()
        #expect(session.state == .active)
        // suspend() and resume() each reported (on this thread), the second with the queued objects.
        let seen = reports.withLock { $0 }
        #expect(seen.count >= 3)
        #expect(seen.last == SyncSession.Progress(transferredBytes: 0, transferrableBytes: 2))
        token?.invalidate()
        let count = reports.withLock { $0.count }
        session.suspend()
        #expect(reports.withLock { $0.count } == count)
    }

    @Test func outstandingWorkIsWhatWaitedWhenTheNotificationWasAdded() throws {
        let config = configuration("outstanding")
        defer { cleanUp(config) }
        let realm = try Realm(configuration: config)
        let session = try #require(realm.syncSession)
        session.suspend()
        try addProbes(realm, 1 ... 4)
        let reports = Mutex<[SyncSession.Progress]>([])
        let token = session.addProgressNotification(for: .upload, mode: .forCurrentlyOutstandingWork) { progress in
            reports.withLock { $0.append(progress) }
        }
        try addProbes(realm, 5 ... 5)
        session.resume()
        #expect(token != nil)
        #expect(reports.withLock { $0 }.allSatisfy { $0.transferrableBytes == 4 && $0.transferredBytes == 0 })
        #expect(session.uploadProgress.transferrableBytes == 5)
        // Nothing is outstanding: reported complete once, at once.
        let idle = try Realm(configuration: configuration("idle"))
        defer { cleanUp(idle.configuration) }
        let done = Mutex<[SyncSession.Progress]>([])
        _ = try #require(idle.syncSession).addProgressNotification(for: .upload, mode: .forCurrentlyOutstandingWork) { progress in
            done.withLock { $0.append(progress) }
        }
        idle.syncSession?.suspend()
        #expect(done.withLock { $0 } == [SyncSession.Progress(transferredBytes: 0, transferrableBytes: 0)])
    }

    @Test func downloadIsRefusedWithAClearError() async throws {
        let config = configuration("download")
        defer { cleanUp(config) }
        let session = try #require(try Realm(configuration: config).syncSession)
        #expect(session.addProgressNotification(for: .download, mode: .reportIndefinitely) { _ in } == nil)
        await #expect(throws: Realm.Error.self) { try await session.wait(for: .download) }
        do {
            try await session.wait(for: .download)
        } catch let error as Realm.Error {
            #expect(error.codeName == "INVALID_ARGUMENT")
            #expect(error.message == "A Data Ingest session only uploads: there is no download to wait for.")
        }
        let answer = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        session.wait(for: .download) { error in
            answer.withLock { $0 = error.map { "\($0)" } ?? "nil" }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(answer.withLock { $0 } == "INVALID_ARGUMENT: A Data Ingest session only uploads: there is no download to wait for.")
        let timeout = #expect(throws: Realm.Error.self) { try session.waitForUpload(timeout: -1) }
        #expect(timeout?.message == "The timeout must be a finite number of seconds >= 0, got -1.0.")
    }

    @Test func anEmptyQueueIsUploadedAtOnceAsyncAndWithACompletion() async throws {
        let config = configuration("empty")
        defer { cleanUp(config) }
        let session = try #require(try Realm(configuration: config).syncSession)
        try await session.wait(for: .upload)
        let answer = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        session.wait(for: .upload) { error in
            answer.withLock { $0 = error.map { "\($0)" } ?? "nil" }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(answer.withLock { $0 } == "nil")
    }

    @Test func configurationsThatCannotSyncAreRefusedBeforeAnythingIsWritten() throws {
        let badScheme = configuration("scheme", url: "http://example.com/sync")
        defer { cleanUp(badScheme) }
        let scheme = #expect(throws: Realm.Error.self) { try Realm(configuration: badScheme) }
        #expect(scheme?.codeName == "INVALID_ARGUMENT")
        #expect(scheme?.message == "The sync URL must start with ws:// or wss://, got 'http://example.com/sync'.")

        var memory = Realm.Configuration(inMemoryIdentifier: "sync-\(UInt64.random(in: 0 ... .max))", objectTypes: [Probe.self])
        memory.syncConfiguration = SyncConfiguration(url: Self.unreachable) { "token" }
        let inMemory = #expect(throws: Realm.Error.self) { try Realm(configuration: memory) }
        #expect(inMemory?.message == "Sync needs a database file opened for writing (its upload queue lives in the file): it cannot be used in memory.")

        var plain = configuration("readonly")
        defer { cleanUp(plain) }
        let sync = plain.syncConfiguration
        plain.syncConfiguration = nil
        try addProbes(try Realm(configuration: plain), 1 ... 1)
        plain.readOnly = true
        plain.syncConfiguration = sync
        let readOnly = #expect(throws: Realm.Error.self) { try Realm(configuration: plain) }
        #expect(readOnly?.message == "Sync needs a database file opened for writing (its upload queue lives in the file): it cannot be used read-only.")

        let noAsymmetric = configuration("plain", types: [Plain.self])
        defer { cleanUp(noAsymmetric) }
        let none = #expect(throws: Realm.Error.self) { try Realm(configuration: noAsymmetric) }
        #expect(none?.message == "Sync uploads asymmetric classes (Data Ingest), and the schema has none.")
    }

    @Test func oneSessionPerFileSharedByThreadsAndOneURL() throws {
        let config = configuration("shared")
        defer { cleanUp(config) }
        let realm = try Realm(configuration: config)
        let session = try #require(realm.syncSession)
        let other = Mutex<SyncSession?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            other.withLock { $0 = try? Realm(configuration: config).syncSession }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(other.withLock { $0 } === session)
        var elsewhere = config
        elsewhere.syncConfiguration = SyncConfiguration(url: "ws://127.0.0.1:2/sync") { "token" }
        let error = #expect(throws: Realm.Error.self) { try Realm(configuration: elsewhere) }
        #expect(error?.message == "'\(config.fileURL!.path)' is already synced with \(Self.unreachable) in this process; it cannot sync with ws://127.0.0.1:2/sync too.")
    }

    @Test func aMissingTokenIsReportedAndRetried() throws {
        let errors = Mutex<[SyncError]>([])
        let withSession = Mutex<[Bool]>([])
        let reported = DispatchSemaphore(value: 0)
        let config = configuration("token", errorHandler: { error, session in
            errors.withLock { $0.append(error) }
            withSession.withLock { $0.append(session != nil) }
            reported.signal()
        }, token: { nil })
        defer { cleanUp(config) }
        let realm = try Realm(configuration: config)
        #expect(reported.wait(timeout: .now() + 30) == .success)
        let first = try #require(errors.withLock { $0.first })
        #expect(first == SyncError(code: 0, name: "no_token", message: "The token provider gave no token; retrying with backoff.",
                                   action: "Transient", isFatal: false))
        #expect(withSession.withLock { $0.first } == true)
        #expect(realm.syncSession?.state == .active)
    }

    @Test func aURLTheTransportCannotUseStopsTheSessionUntilResume() throws {
        let errors = Mutex<[SyncError]>([])
        let url = "ws://127.0.0.1:99999/sync"
        let config = configuration("badurl", url: url, errorHandler: { error, _ in errors.withLock { $0.append(error) } })
        defer { cleanUp(config) }
        let realm = try Realm(configuration: config)
        let session = try #require(realm.syncSession)
        try addProbes(realm, 1 ... 1)
        let error = #expect(throws: Realm.Error.self) { try session.waitForUpload(timeout: 30) }
        let reason = "The sync URL '\(url)' cannot be used: \(url): the port must be a number from 1 to 65535"
        #expect(error?.codeName == "SYNC")
        #expect(error?.message == "The sync session stopped on an error and waits for resume(): invalid_url (0): \(reason)")
        // The error handler runs on the session's thread, which may call it after the wait saw the stop.
        #expect(eventually { !errors.withLock { $0 }.isEmpty })
        #expect(errors.withLock { $0 } == [SyncError(code: 0, name: "invalid_url", message: reason, action: "ApplicationBug", isFatal: true)])
        #expect(session.state == .inactive)
        #expect(session.uploadProgress.transferrableBytes == 1)
    }
}
