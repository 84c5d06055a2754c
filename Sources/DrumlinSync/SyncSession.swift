import DrumlinEngine
import DrumlinSyncProtocol
import DrumlinSyncTransport
import DrumlinValues
#if canImport(Glibc)
import Glibc
#endif

/// Where a session's connection stands (Realm's `SyncSession.ConnectionState`). The raw values
/// are the C constants `DRUMLIN_SYNC_DISCONNECTED`, `_CONNECTING`, `_CONNECTED`.
package enum SyncConnectionState: Int32, Sendable {
    case disconnected = 0
    case connecting = 1
    case connected = 2
}

/// An error the session reports: a service error frame (Realm's code, name and action), an
/// object the service already had (227 `object_already_exists`, action `Warning`), or the
/// client's own (a connection or token problem, code 0 and action `Transient`). `stopped`: the
/// session stopped on it and waits for `resume()`.
package struct SyncErrorReport: Sendable, Equatable {
    package var code: Int
    package var name: String
    package var message: String
    package var action: String
    package var stopped: Bool
}

/// The state and progress a session reports after every change: objects acknowledged since the
/// session started, and objects still waiting in the file (queued or in fixed batches).
package struct SyncProgress: Sendable, Equatable {
    package var state: SyncConnectionState
    package var paused: Bool
    package var uploaded: Int64
    package var pending: Int64
}

/// What a session needs besides the database: the service, the token provider, the callbacks.
package struct SyncSettings: Sendable {
    package var url: String
    package var caFile: String?
    /// Asked on the session's thread before each connection; nil: no token (reported, retried
    /// with backoff).
    package var token: @Sendable () -> String?
    package var onProgress: (@Sendable (SyncProgress) -> Void)?
    package var onError: (@Sendable (SyncErrorReport) -> Void)?
    package var logger: (@Sendable (LogLevel, String) -> Void)?
    /// Batch bounds, lowered further by the service's `welcome.limits`.
    package var maxObjectsPerBatch = 1000
    package var maxBytesPerBatch = 4 << 20
    /// Batches sent and not yet acknowledged.
    package var window = 3
    package var minimumBackoffMilliseconds = 1000
    package var maximumBackoffMilliseconds = 300_000
    /// How often an idle session looks at the file for objects other processes queued.
    package var pollMilliseconds = 1000

    package init(url: String, caFile: String? = nil, token: @escaping @Sendable () -> String?) {
        self.url = url
        self.caFile = caFile
        self.token = token
    }
}

/// The sync client of one open database (docs/sync.md, "The sync session"): a thread that
/// connects to the service, says `hello`, and uploads the file's queue (asymmetric objects)
/// in batches fixed in the file, a few in flight, deleting each batch once acknowledged. It
/// reconnects with backoff (1 s doubling to 5 min, with jitter; from 1 s again after a
/// connection the service welcomed) and wakes at once on a commit
/// through the application's handle or on `resume()`; it polls the file for other processes'
/// commits. It works through a connection of its own to the file, so the application's write
/// transactions and its batches never share one.
package final class SyncSession: @unchecked Sendable {
    private let settings: SyncSettings
    private let queue: Database
    private let application: Database
    private let monitor = Monitor()
    private var thread: Thread?
    // Guarded by `monitor`.
    private var stopping = false
    private var paused = false
    private var state = SyncConnectionState.disconnected
    private var stoppedError: SyncErrorReport?
    private var woken = false
    private var uploaded: Int64 = 0
    private var connection: WebSocketConnection?
    private var acknowledgements: UInt64 = 0
    /// The last connection got as far as `welcome` (the session thread's own): the backoff starts
    /// again from its minimum, so a service that dies often does not push its clients to minutes.
    private var welcomed = false

    /// Refuses sync for a database that will be opened with `options` at `path` before it is
    /// opened: the upload queue lives in the file, written by the application.
    package static func checkOpen(path: String, options: OpenOptions) throws(DrumlinError) {
        if options.readOnly || options.inMemory || path == ":memory:" {
            throw DrumlinError(.invalidArgument, "Sync needs a database file opened for writing (its upload queue lives in the file): it cannot be used \(options.readOnly ? "read-only" : "in memory").")
        }
    }

    /// Starts the session of `database` (opened on a file, read-write).
    package init(database: Database, settings: SyncSettings) throws(DrumlinError) {
        if database.path == ":memory:" {
            throw DrumlinError(.invalidArgument, "Sync needs a database file: an in-memory database's upload queue would not outlive the process.")
        }
        if settings.url.isEmpty || !(settings.url.hasPrefix("ws://") || settings.url.hasPrefix("wss://")) {
            throw DrumlinError(.invalidArgument, "The sync URL must start with ws:// or wss://, got '\(settings.url)'.")
        }
        if database.uploadedClasses.isEmpty {
            throw DrumlinError(.invalidArgument, "Sync uploads asymmetric classes (Data Ingest), and the schema has none.")
        }
        self.settings = settings
        self.application = database
        queue = try Database(path: database.path, schema: database.schema,
                             options: OpenOptions(schemaVersion: database.schemaVersion, busyTimeout: .seconds(60)))
        database.setCommitObserver { [weak self] in self?.wake() }
        thread = Thread { [self] in run() }
    }

    deinit { stop() }

    /// Stops the thread (closing its connection) and waits for it; idempotent.
    package func stop() {
        let running: Thread? = monitor.locked {
            stopping = true
            woken = true
            connection?.wake()
            monitor.broadcast()
            defer { thread = nil }
            return thread
        }
        guard let running else { return }
        application.setCommitObserver(nil)
        running.join()
        queue.close()
    }

    package func pause() {
        monitor.locked {
            paused = true
            woken = true
            connection?.wake()
            monitor.broadcast()
        }
        report()
    }

    /// Resumes a paused session, or one stopped on an error: it connects at once.
    package func resume() {
        monitor.locked {
            paused = false
            stoppedError = nil
            woken = true
            connection?.wake()
            monitor.broadcast()
        }
        report()
    }

    /// The session stopped on an error (reported with `stopped`) and waits for `resume()`.
    package var isStoppedOnError: Bool { monitor.locked { stoppedError != nil } }

    package var progress: SyncProgress {
        let pending = (try? queue.uploadQueueCounts()).map { Int64($0.queued + $0.batched) } ?? 0
        return monitor.locked { SyncProgress(state: state, paused: paused, uploaded: uploaded, pending: pending) }
    }

    /// Wakes the thread: something was queued, or the session's state changed.
    package func wake() {
        monitor.locked {
            woken = true
            connection?.wake()
            monitor.broadcast()
        }
    }

    /// Waits until nothing waits to be uploaded (every object queued before the call
    /// acknowledged). `.timeout` when `milliseconds` pass first (negative: no limit); the
    /// session's error when it stopped on one.
    package func waitForUpload(milliseconds: Int64) throws(DrumlinError) {
        let deadline: UInt64? = milliseconds < 0 ? nil : Monitor.now() + UInt64(milliseconds) * 1_000_000
        wake()
        while true {
            let counts = try queue.uploadQueueCounts()
            if counts.queued + counts.batched == 0 { return }
            let outcome: DrumlinError? = monitor.locked {
                if let stoppedError {
                    return DrumlinError(.sync, "The sync session stopped on an error and waits for resume(): \(stoppedError.name) (\(stoppedError.code)): \(stoppedError.message)")
                }
                if stopping { return DrumlinError(.sync, "The sync session was stopped (its database is closing).") }
                let now = Monitor.now()
                if let deadline, now >= deadline {
                    return DrumlinError(.timeout, "The upload did not finish within \(milliseconds) ms: \(counts.queued + counts.batched) object\(counts.queued + counts.batched == 1 ? "" : "s") still wait\(counts.queued + counts.batched == 1 ? "s" : "") (state \(state), \(paused ? "paused" : "not paused")).")
                }
                // Woken by each acknowledgement; the file is looked at again at least every 100 ms.
                let seen = acknowledgements
                let slice = now + 100_000_000
                while acknowledgements == seen && stoppedError == nil && !stopping && Monitor.now() < min(slice, deadline ?? .max) {
                    monitor.wait(until: min(slice, deadline ?? .max))
                }
                return nil
            }
            if let outcome { throw outcome }
        }
    }

    // MARK: The thread

    private func run() {
        // One session uploads a file at a time (two would number batches against each other): the
        // others, in this process or another, wait for its lock.
        guard let lock = takeUploadLock() else {
            setState(.disconnected)
            return
        }
        defer { Glibc.close(lock) }
        var backoff = settings.minimumBackoffMilliseconds
        while true {
            // Wait while paused or stopped on an error, and while there is nothing to do.
            let go: Bool = monitor.locked {
                while !stopping && (paused || stoppedError != nil) { monitor.wait(until: Monitor.now() + 3_600_000_000_000) }
                return !stopping
            }
            guard go else { break }
            welcomed = false
            let outcome = session()
            setState(.disconnected)
            if welcomed { backoff = settings.minimumBackoffMilliseconds }
            switch outcome {
            case .stop:
                break
            case .retry:
                // Exponential backoff with jitter (a random 50-100 % of the step), cut short by stop,
                // pause or resume.
                let delay = UInt64(backoff / 2 + Int.random(in: 0...max(1, backoff / 2)))
                backoff = min(backoff * 2, settings.maximumBackoffMilliseconds)
                let deadline = Monitor.now() + delay * 1_000_000
                monitor.locked {
                    woken = false
                    while !stopping && !paused && !woken && Monitor.now() < deadline { monitor.wait(until: deadline) }
                }
                continue
            }
        }
        setState(.disconnected)
    }

    private enum Outcome { case stop, retry }

    /// An exclusive `flock` on `<file>-sync.lock`, waited for (looked at every second) until it
    /// is free; nil when the session stops first or the lock file cannot be opened (reported).
    private func takeUploadLock() -> Int32? {
        let path = queue.path + "-sync.lock"
        let descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let report = SyncErrorReport(code: 0, name: "local_error", message: "Cannot open the upload lock '\(path)': \(String(cString: strerror(errno))).",
                                         action: "ApplicationBug", stopped: true)
            monitor.locked { stoppedError = report; monitor.broadcast() }
            reportError(report)
            return nil
        }
        var told = false
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if !told {
                log(.info, "sync: another session uploads '\(queue.path)'; this one waits for it to end")
                told = true
            }
            let stop: Bool = monitor.locked {
                if !stopping { monitor.wait(until: Monitor.now() + 1_000_000_000) }
                return stopping
            }
            if stop {
                Glibc.close(descriptor)
                return nil
            }
        }
        return descriptor
    }

    /// One connection: hello, welcome, uploads until an error, a pause or a stop.
    private func session() -> Outcome {
        setState(.connecting)
        guard let token = settings.token() else {
            reportError(SyncErrorReport(code: 0, name: "no_token", message: "The token provider gave no token; retrying with backoff.",
                                        action: "Transient", stopped: false))
            return .retry
        }
        let clientId: String
        do throws(DrumlinError) {
            clientId = try queue.uploadClientId()
        } catch {
            reportError(SyncErrorReport(code: 0, name: "local_error", message: error.message, action: "Transient", stopped: false))
            return .retry
        }
        let options = WebSocketOptions(url: settings.url, subprotocol: SyncProtocol.subprotocol, headers: [],
                                       caFile: settings.caFile, connectTimeoutMilliseconds: 20_000,
                                       maxMessageBytes: 1 << 20)
        let socket: WebSocketConnection
        do throws(WebSocketError) {
            socket = try WebSocketConnection(options)
        } catch {
            log(.warning, "sync: cannot connect to \(settings.url): \(error)")
            return transportOutcome(error)
        }
        let proceed: Bool = monitor.locked {
            guard !stopping && !paused else { return false }
            connection = socket
            return true
        }
        defer {
            monitor.locked { connection = nil }
            socket.close(code: 1000, reason: "done")
        }
        guard proceed else { return .stop }
        do throws(SessionFailure) {
            return try converse(socket, token: token, clientId: clientId)
        } catch {
            switch error {
            case .transport(let transportError):
                log(.warning, "sync: connection to \(settings.url) ended: \(transportError)")
                return transportOutcome(transportError)
            case .service(let syncError):
                return serviceError(syncError)
            case .local(let localError):
                reportError(SyncErrorReport(code: 0, name: "local_error", message: localError.message, action: "Transient", stopped: false))
                return .retry
            }
        }
    }

    private enum SessionFailure: Error {
        case transport(WebSocketError)
        case service(SyncError)
        case local(DrumlinError)
    }

    private func converse(_ socket: WebSocketConnection, token: String, clientId: String) throws(SessionFailure) -> Outcome {
        let hello = FrameCodec.encode(.hello(Hello(token: token, clientId: clientId, schema: queue.uploadSchemaJSON)))
        try send(socket, Array(hello.utf8))
        let answer = try receiveFrame(socket, timeout: 60_000, waitingFor: "welcome")
        if case .error(let error)? = answer { throw .service(error) }
        guard case .welcome(let welcome)? = answer else {
            throw .service(SyncError(.badMessageOrder, "the service answered hello with something other than welcome"))
        }
        setState(.connected)
        welcomed = true
        let maxObjects = max(1, min(settings.maxObjectsPerBatch, welcome.limits.maxObjectsPerBatch))
        let maxBytes = max(1024, min(settings.maxBytesPerBatch, welcome.limits.maxFrameBytes - 1024))
        try local { () throws(DrumlinError) in _ = try queue.dropUploadBatches(through: welcome.lastSeq) }
        var sentThrough = welcome.lastSeq
        var inFlight: [(seq: Int64, objects: Int)] = []
        var lastAckAt = Monitor.now()
        while true {
            let (stop, pause) = monitor.locked { (stopping, paused) }
            if stop || pause { return .stop }
            monitor.locked { woken = false }
            // Fill the window: fixed batches not yet sent on this connection, then new ones.
            while inFlight.count < settings.window {
                let (next, new) = try local { () throws(DrumlinError) -> (UploadBatch?, Bool) in
                    if let fixed = try queue.uploadBatches(after: sentThrough, limit: 1).first { return (fixed, false) }
                    guard try queue.uploadQueueCounts().queued > 0 else { return (nil, false) }
                    return (try queue.fixUploadBatch(maxObjects: maxObjects, maxBytes: maxBytes) { seq, groups in
                        Array(FrameCodec.encode(.upload(Upload(seq: seq, inserts: groups.map {
                            InsertGroup(className: $0.className, objects: $0.objects)
                        }))).utf8)
                    }, true)
                }
                guard let next else { break }
                // The debug records "upload N fixed" and "acknowledged through N" time a batch from
                // the moment it is fixed in the file to its acknowledgement (bench/sync.py).
                if new { log(.debug, "sync: upload \(next.seq) fixed (\(next.objects) objects)") }
                try send(socket, next.frame)
                if inFlight.isEmpty { lastAckAt = Monitor.now() }
                inFlight.append((next.seq, next.objects))
                sentThrough = next.seq
                report()
            }
            // An acknowledgement, or a wake (a commit, pause, stop), or the poll interval.
            guard let frame = try receiveFrame(socket, timeout: settings.pollMilliseconds, waitingFor: nil) else {
                if !inFlight.isEmpty && Monitor.now() - lastAckAt > 120_000_000_000 {
                    throw .transport(.connectionLost("no acknowledgement within 120 s"))
                }
                continue
            }
            switch frame {
            case .ack(let ack):
                lastAckAt = Monitor.now()
                let done = try local { () throws(DrumlinError) -> Int in try queue.dropUploadBatches(through: ack.seq) }
                log(.debug, "sync: acknowledged through \(ack.seq)")
                inFlight.removeAll { $0.seq <= ack.seq }
                for id in ack.existing {
                    var writer = JSONWriter()
                    writer.write(id)
                    reportError(SyncErrorReport(code: 227, name: "object_already_exists",
                                                message: "upload \(ack.seq): an object with the primary key \(writer.string) was already in the service's table; it was left as it was and this one dropped.",
                                                action: "Warning", stopped: false))
                }
                monitor.locked {
                    uploaded += Int64(done)
                    acknowledgements &+= 1
                    monitor.broadcast()
                }
                report()
            case .error(let error):
                throw .service(error)
            case .welcome:
                throw .service(SyncError(.badMessageOrder, "a second welcome"))
            }
        }
    }

    private func local<R>(_ body: () throws(DrumlinError) -> R) throws(SessionFailure) -> R {
        do throws(DrumlinError) {
            return try body()
        } catch {
            throw .local(error)
        }
    }

    private func send(_ socket: WebSocketConnection, _ bytes: [UInt8]) throws(SessionFailure) {
        do throws(WebSocketError) {
            try socket.send(text: bytes)
        } catch {
            throw .transport(error)
        }
    }

    /// The next frame; nil after `timeout` ms without one (or a wake) unless `waitingFor` names
    /// a frame that must come (then a timeout ends the connection).
    private func receiveFrame(_ socket: WebSocketConnection, timeout: Int, waitingFor: String?) throws(SessionFailure) -> ServerFrame? {
        let deadline = Monitor.now() + UInt64(timeout) * 1_000_000
        while true {
            let message: [UInt8]?
            do throws(WebSocketError) {
                message = try socket.receive(timeoutMilliseconds: timeout)
            } catch {
                if case .closed(let code, let reason) = error, code > 4000, let known = SyncErrorCode(rawValue: code - 4000) {
                    throw .service(SyncError(known, reason.isEmpty ? "the service closed the connection with \(code)" : reason))
                }
                throw .transport(error)
            }
            guard let message else {
                if waitingFor == nil { return nil }
                if monitor.locked({ stopping || paused }) { throw .transport(.connectionLost("stopped while waiting for \(waitingFor!)")) }
                if Monitor.now() >= deadline { throw .transport(.timedOut("no \(waitingFor!) within \(timeout / 1000) s")) }
                continue
            }
            do throws(SyncError) {
                return try FrameCodec.decodeServerFrame(String(decoding: message, as: UTF8.self))
            } catch {
                throw .service(SyncError(error.code, "the service sent a frame this client cannot read: \(error.message)"))
            }
        }
    }

    /// A connection that failed or ended: retried with backoff, except a URL the transport cannot
    /// use (reported; the session stops until `resume()`). A refused upgrade is reported too.
    private func transportOutcome(_ error: WebSocketError) -> Outcome {
        switch error {
        case .invalidURL(let message), .invalidOptions(let message):
            let report = SyncErrorReport(code: 0, name: "invalid_url", message: "The sync URL '\(settings.url)' cannot be used: \(message)",
                                         action: "ApplicationBug", stopped: true)
            monitor.locked {
                stoppedError = report
                monitor.broadcast()
            }
            reportError(report)
            return .stop
        case .handshakeRejected(let status, let body):
            reportError(SyncErrorReport(code: 0, name: "handshake_rejected",
                                        message: "The service refused the WebSocket upgrade with HTTP \(status): \(body)",
                                        action: "Transient", stopped: false))
        default:
            break
        }
        return monitor.locked { stopping || paused } ? .stop : .retry
    }

    /// Realm's actions: retry with backoff when the error says so, else stop and report.
    private func serviceError(_ error: SyncError) -> Outcome {
        let tryAgain = error.code.tryAgain
        let report = SyncErrorReport(code: error.code.rawValue, name: error.code.name, message: error.message,
                                     action: error.code.action, stopped: !tryAgain)
        if !tryAgain {
            monitor.locked {
                stoppedError = report
                monitor.broadcast()
            }
        }
        reportError(report)
        return tryAgain ? .retry : .stop
    }

    private func setState(_ new: SyncConnectionState) {
        let changed: Bool = monitor.locked {
            defer { state = new }
            return state != new
        }
        if changed { report() }
    }

    /// Calls the progress callback (never with the monitor held). A callback that fails cannot
    /// stop the session: the C and Python layers catch their callers' errors.
    private func report() {
        guard let onProgress = settings.onProgress else { return }
        onProgress(progress)
    }

    private func reportError(_ report: SyncErrorReport) {
        log(report.stopped ? .error : .warning, "sync: \(report.name) (\(report.code)): \(report.message)")
        settings.onError?(report)
    }

    private func log(_ level: LogLevel, _ message: String) { settings.logger?(level, message) }
}
