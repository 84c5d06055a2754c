internal import DrumlinEngine
internal import DrumlinSync
import Dispatch
import Synchronization

/// The sync session of a file opened with `Realm.Configuration.syncConfiguration` (Realm Swift's
/// `SyncSession`): one per file in the process, shared by the Realms of every thread, running
/// while one of them or this object is alive. It uploads the file's asymmetric objects (Data
/// Ingest) from a thread of its own; the work is the engine's session (docs/sync.md), which the
/// C and Python faces use too.
public final class SyncSession: @unchecked Sendable {
    /// Realm's session states: `.active` while it connects or uploads, `.inactive` when suspended
    /// or stopped on a fatal error (until `resume()`). Drumlin never reports `.dying` or
    /// `.waitingForAccessToken` (a missing token is an error report, retried with backoff).
    public enum State: Int, Sendable {
        case active = 0
        case dying = 1
        case inactive = 2
        case waitingForAccessToken = 3
    }

    /// The connection to the service (Realm's `SyncSession.ConnectionState`).
    public enum ConnectionState: Int, Sendable {
        case disconnected = 0
        case connecting = 1
        case connected = 2
    }

    public enum ProgressDirection: Sendable {
        case upload
        /// Data Ingest downloads nothing: waiting for it is an error and it has no progress.
        case download
    }

    public enum ProgressMode: Sendable {
        /// Reports every change, for as long as the token is valid.
        case reportIndefinitely
        /// Reports the objects waiting when the notification was added, until they are uploaded.
        case forCurrentlyOutstandingWork
    }

    /// Upload progress in objects (Realm counts bytes; Drumlin's queue counts objects): those
    /// acknowledged by the service, of those acknowledged and still waiting.
    public struct Progress: Sendable, Equatable {
        public let transferredBytes: Int
        public let transferrableBytes: Int
        public init(transferredBytes: Int, transferrableBytes: Int) {
            self.transferredBytes = transferredBytes
            self.transferrableBytes = transferrableBytes
        }

        public var isTransferComplete: Bool { transferredBytes >= transferrableBytes }
        /// 0...1; 1 when nothing waits.
        public var progressEstimate: Double {
            transferrableBytes == 0 ? 1 : Double(transferredBytes) / Double(transferrableBytes)
        }
    }

    /// Stops the notification it was returned for (Realm's `ProgressNotificationToken`).
    public final class ProgressNotificationToken: @unchecked Sendable {
        private weak var relay: Relay?
        private let id: Int

        init(relay: Relay, id: Int) {
            self.relay = relay
            self.id = id
        }

        public func invalidate() { relay?.remove(id) }
    }

    /// The settings the session was started with.
    public let configuration: SyncConfiguration
    let engine: DrumlinSync.SyncSession
    private let relay: Relay
    private let path: String

    private init(configuration: SyncConfiguration, engine: DrumlinSync.SyncSession, relay: Relay, path: String) {
        self.configuration = configuration
        self.engine = engine
        self.relay = relay
        self.path = path
    }

    deinit {
        engine.stop()
        Self.live.withLock { table in
            if table[path]?.session == nil { table[path] = nil }
        }
    }

    /// Where the connection stands now.
    public var connectionState: ConnectionState { ConnectionState(engine.progress.state) }

    /// `.inactive` while suspended or stopped on a fatal error, else `.active`.
    public var state: State { engine.progress.paused || engine.isStoppedOnError ? .inactive : .active }

    /// The upload progress now (objects, see `Progress`).
    public var uploadProgress: Progress {
        let progress = engine.progress
        return Progress(transferredBytes: Int(progress.uploaded), transferrableBytes: Int(progress.uploaded + progress.pending))
    }

    /// Stops uploading (the connection closes) until `resume()`; objects keep being queued in the file.
    public func suspend() { engine.pause() }

    /// Resumes a suspended session, or one stopped on a fatal error: it connects at once.
    public func resume() { engine.resume() }

    /// Waits until every object queued before the call is uploaded and acknowledged; Drumlin's
    /// blocking form (the C API's `drumlin_sync_wait_for_upload`). `timeout` nil: no limit. Throws
    /// a `Realm.Error` with `codeName` `"TIMEOUT"` when the time passes first, `"SYNC"` when the
    /// session stopped on a fatal error (until `resume()`).
    public func waitForUpload(timeout: TimeInterval? = nil) throws {
        let milliseconds: Int64
        if let timeout {
            guard timeout.isFinite, timeout >= 0 else {
                throw Realm.Error(.invalidArgument, "The timeout must be a finite number of seconds >= 0, got \(timeout).")
            }
            milliseconds = Int64((timeout * 1000).rounded())
        } else {
            milliseconds = -1
        }
        do {
            try engine.waitForUpload(milliseconds: milliseconds)
        } catch {
            throw Realm.Error(error)
        }
    }

    /// Waits until everything queued so far is uploaded (Realm's `wait(for: .upload)`), on a
    /// thread outside Swift's cooperative pool.
    public func wait(for direction: ProgressDirection) async throws {
        try Self.checkUpload(direction)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Swift.Error>) in
            DispatchQueue.global().async {
                do {
                    try self.waitForUpload()
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Waits as `wait(for:)` does and calls `callback` on `queue` with nil or the error. Realm's
    /// default queue is the main queue; here it is a global one (a Linux program seldom runs the
    /// main queue).
    public func wait(for direction: ProgressDirection, queue: DispatchQueue = .global(),
                     callback: @escaping @Sendable (Swift.Error?) -> Void) {
        do {
            try Self.checkUpload(direction)
        } catch {
            queue.async { callback(error) }
            return
        }
        DispatchQueue.global().async {
            let outcome: Swift.Error?
            do {
                try self.waitForUpload()
                outcome = nil
            } catch {
                outcome = error
            }
            queue.async { callback(outcome) }
        }
    }

    /// Calls `block` with the upload progress now (on the caller's thread) and after every change
    /// (on the session's thread) until the token is invalidated or, for
    /// `.forCurrentlyOutstandingWork`, the objects waiting now are uploaded. nil for `.download`.
    public func addProgressNotification(for direction: ProgressDirection, mode: ProgressMode,
                                        block: @escaping @Sendable (Progress) -> Void) -> ProgressNotificationToken? {
        guard direction == .upload else { return nil }
        return relay.addProgress(mode: mode, now: engine.progress, block: block)
    }

    /// Calls `block` with each new connection state, on the session's thread, until the token is
    /// invalidated (Realm Swift observes `connectionState` with key-value observing, which Linux
    /// lacks).
    public func observeConnectionState(_ block: @escaping @Sendable (ConnectionState) -> Void) -> ProgressNotificationToken {
        relay.addConnection(now: ConnectionState(engine.progress.state), block: block)
    }

    private static func checkUpload(_ direction: ProgressDirection) throws {
        if direction == .download {
            throw Realm.Error(.invalidArgument, "A Data Ingest session only uploads: there is no download to wait for.")
        }
    }

    // MARK: One session per file

    private struct Weak: @unchecked Sendable { weak var session: SyncSession? }
    private static let live = Mutex<[String: Weak]>([:])

    /// Refuses sync for a Realm that cannot have it, before the file opens (the engine's check).
    static func checkOpen(path: String, options: OpenOptions) throws {
        try DrumlinSync.SyncSession.checkOpen(path: path, options: options)
    }

    /// The session of the file `database` is open on: the one running in the process, which
    /// `database`'s commits now wake, or a new one.
    static func attach(_ database: EDatabase, _ configuration: SyncConfiguration,
                       logger: (@Sendable (Realm.LogLevel, String) -> Void)?) throws -> SyncSession {
        try live.withLock { table throws -> SyncSession in
            if let running = table[database.path]?.session {
                guard running.configuration.url == configuration.url else {
                    throw Realm.Error(.invalidArgument, "'\(database.path)' is already synced with \(running.configuration.url) in this process; it cannot sync with \(configuration.url) too.")
                }
                database.setCommitObserver { [weak running] in running?.engine.wake() }
                return running
            }
            let relay = Relay()
            var settings = SyncSettings(url: configuration.url, caFile: configuration.caFile, token: configuration.token)
            settings.onProgress = { [relay] progress in
                relay.ready.wait()
                relay.report(progress)
            }
            if let handler = configuration.errorHandler {
                settings.onError = { [relay] report in
                    relay.ready.wait()
                    handler(SyncError(code: report.code, name: report.name, message: report.message, action: report.action,
                                      isFatal: report.stopped), relay.session)
                }
            }
            if let logger { settings.logger = { level, message in logger(Realm.LogLevel(level), message) } }
            let engine: DrumlinSync.SyncSession
            do {
                engine = try DrumlinSync.SyncSession(database: database, settings: settings)
            } catch {
                throw Realm.Error(error)
            }
            let session = SyncSession(configuration: configuration, engine: engine, relay: relay, path: database.path)
            relay.session = session
            relay.ready.leave()
            table[database.path] = Weak(session: session)
            return session
        }
    }
}

extension SyncSession.ConnectionState {
    init(_ state: SyncConnectionState) {
        switch state {
        case .disconnected: self = .disconnected
        case .connecting: self = .connecting
        case .connected: self = .connected
        }
    }
}

/// The session's notification blocks; the engine's progress callback reaches them through it.
final class Relay: @unchecked Sendable {
    private struct ProgressObserver {
        var block: @Sendable (SyncSession.Progress) -> Void
        /// For `.forCurrentlyOutstandingWork`: objects acknowledged when added, and those waiting.
        var outstanding: (uploaded: Int64, pending: Int64)?
    }

    private struct State {
        var nextId = 0
        var progress: [Int: ProgressObserver] = [:]
        var connection: [Int: @Sendable (SyncSession.ConnectionState) -> Void] = [:]
        var lastState = SyncSession.ConnectionState.disconnected
    }

    private let state = Mutex(State())
    weak var session: SyncSession?
    /// Left once `session` is set: the engine's thread may report before `attach` has finished,
    /// and its callbacks wait for it (they never see a session that is not there yet).
    let ready = DispatchGroup()

    init() { ready.enter() }

    func remove(_ id: Int) {
        state.withLock { state in
            state.progress[id] = nil
            state.connection[id] = nil
        }
    }

    func addProgress(mode: SyncSession.ProgressMode, now: SyncProgress,
                     block: @escaping @Sendable (SyncSession.Progress) -> Void) -> SyncSession.ProgressNotificationToken {
        let observer = ProgressObserver(block: block, outstanding: mode == .forCurrentlyOutstandingWork ? (now.uploaded, now.pending) : nil)
        let (id, first) = state.withLock { state in
            defer { state.nextId += 1 }
            let (first, done) = Self.progress(observer, now)
            if !done { state.progress[state.nextId] = observer }
            return (state.nextId, first)
        }
        block(first)
        return SyncSession.ProgressNotificationToken(relay: self, id: id)
    }

    func addConnection(now: SyncSession.ConnectionState,
                       block: @escaping @Sendable (SyncSession.ConnectionState) -> Void) -> SyncSession.ProgressNotificationToken {
        let id = state.withLock { state in
            defer { state.nextId += 1 }
            state.connection[state.nextId] = block
            state.lastState = now
            return state.nextId
        }
        return SyncSession.ProgressNotificationToken(relay: self, id: id)
    }

    /// The engine's report: each progress block, and the connection blocks when the state changed.
    func report(_ progress: SyncProgress) {
        let connectionState = SyncSession.ConnectionState(progress.state)
        let (calls, connectionBlocks) = state.withLock { state -> ([(@Sendable (SyncSession.Progress) -> Void, SyncSession.Progress)], [@Sendable (SyncSession.ConnectionState) -> Void]) in
            var calls: [(@Sendable (SyncSession.Progress) -> Void, SyncSession.Progress)] = []
            for (id, observer) in state.progress.sorted(by: { $0.key < $1.key }) {
                let (value, done) = Self.progress(observer, progress)
                calls.append((observer.block, value))
                if done { state.progress[id] = nil }
            }
            let changed = state.lastState != connectionState
            state.lastState = connectionState
            return (calls, changed ? state.connection.sorted { $0.key < $1.key }.map(\.value) : [])
        }
        for (block, value) in calls { block(value) }
        for block in connectionBlocks { block(connectionState) }
    }

    /// What an observer is told now, and whether it is done (its outstanding work uploaded).
    private static func progress(_ observer: ProgressObserver, _ now: SyncProgress) -> (SyncSession.Progress, Bool) {
        guard let outstanding = observer.outstanding else {
            return (SyncSession.Progress(transferredBytes: Int(now.uploaded), transferrableBytes: Int(now.uploaded + now.pending)), false)
        }
        let transferred = min(max(now.uploaded - outstanding.uploaded, 0), outstanding.pending)
        return (SyncSession.Progress(transferredBytes: Int(transferred), transferrableBytes: Int(outstanding.pending)),
                transferred >= outstanding.pending)
    }
}
