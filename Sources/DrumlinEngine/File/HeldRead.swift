import CSQLite
import DrumlinStorage
#if canImport(Glibc)
import Glibc
#endif

// MARK: Read transactions held between calls
//
// In WAL mode every read transaction takes and drops a shared lock on the `-shm` file: two `fcntl`
// calls, which cost a by-key read of one object most of its time (raw SQLite C: 2.4 µs per read in
// autocommit, 0.5 µs inside an open read transaction). So a read call does not end its read
// transaction: it stays open, with the write-ahead log's index header as it was when it began,
// and the next read call reuses it when the header in shared memory is still that one (no
// connection committed since: every commit rewrites the header), without a lock. A changed header
// ends it, and the call begins a new one: each read still sees every commit made before it, as in
// autocommit. Every call that is not a read (writes, transactions, refresh, maintenance,
// notifications, close) ends it first. A held read left idle is ended by `HeldReadReaper` within
// about 20 ms, so an idle handle does not keep other connections' checkpoints from finishing; so is
// a paged read's parked statement (`ParkedRows`), which holds its read open the same way.

/// The write-ahead log's index header (48 bytes) as six words, compared whole.
struct WALHeader: Equatable {
    var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)

    static func == (lhs: WALHeader, rhs: WALHeader) -> Bool {
        lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
            && lhs.words.3 == rhs.words.3 && lhs.words.4 == rhs.words.4 && lhs.words.5 == rhs.words.5
    }

    /// Frames in the log (mxFrame) and how many a checkpoint copied into the database (nBackfill).
    var frames: UInt32 = 0
    var copied: UInt32 = 0

    /// The header now in shared memory, or nil when it cannot be read consistently.
    static func current(_ connection: Connection) -> WALHeader? {
        var header = WALHeader()
        var frames: UInt32 = 0
        var copied: UInt32 = 0
        let ok = withUnsafeMutableBytes(of: &header.words) { bytes in
            csqlite_wal_index_header(connection.handle, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                     &frames, &copied)
        }
        header.frames = frames
        header.copied = copied
        return ok == 1 ? header : nil
    }

    /// Frames past which a read is not held while a checkpoint has not copied them all: SQLite's
    /// automatic checkpoint starts at 1000 frames, and a reader then holding the log keeps it
    /// from being copied whole, and so from starting over (it would grow without end under a
    /// steady writer). Below it, or with every frame copied, holding costs the log nothing.
    static let holdLimit: UInt32 = 1000

    /// Whether a read beginning now may be held (see `holdLimit`).
    var allowsHolding: Bool { frames < Self.holdLimit || copied >= frames }
}

extension Database {
    /// Whether read calls may hold their read transaction: a file in WAL mode with its shared
    /// memory (not in memory, not opened immutable).
    static func canHoldReads(_ connection: Connection, inMemory: Bool) -> Bool {
        guard !inMemory, !connection.isImmutable,
              (try? connection.scalarText("PRAGMA journal_mode"))?.lowercased() == "wal" else { return false }
        return WALHeader.current(connection) != nil
    }

    /// Before a call: a held read stays for a read call when no connection committed since it
    /// began; anything else ends it. A read call with none then begins one, returning the header it
    /// begins at (see `finishRead`).
    func prepareRead(_ connection: Connection, reading: Bool, parked: ParkedRows?) -> WALHeader? {
        if deliveryReadThread != 0 {
            // Notifications are being delivered in their version: reads, and every call from the
            // delivering thread (callbacks), stay in it; another thread's write or refresh ends it.
            if reading || deliveryReadThread == UInt(pthread_self()) { return nil }
            endDeliveryRead(connection)
        }
        if let held = heldRead {
            if reading && !inWriteTransaction && WALHeader.current(connection) == held { return nil }
            endHeldRead(connection)
        }
        guard reading, holdsReads, parked == nil, !inWriteTransaction, connection.isAutocommit,
              let before = WALHeader.current(connection), before.allowsHolding
        else { return nil }
        do {
            try connection.statement("BEGIN").run()
        } catch {
            return nil
        }
        return before
    }

    /// After a read call that began a read transaction at `before`: it is held when the header
    /// is still `before` (so the snapshot its statements read is that one), else ended.
    func finishRead(_ connection: Connection, began before: WALHeader) {
        guard !connection.isAutocommit, !inWriteTransaction else { return }
        if WALHeader.current(connection) == before {
            heldRead = before
            HeldReadReaper.shared.watch(self)
        } else {
            Self.endReadTransaction(connection)
        }
    }

    /// Ends the open read transaction: `COMMIT`, or `ROLLBACK` should that fail, so that no later
    /// call runs inside it.
    static func endReadTransaction(_ connection: Connection) {
        do {
            try connection.statement("COMMIT").run()
        } catch {
            try? connection.execute("ROLLBACK")
        }
    }

    /// Ends the held read transaction, if any (under the call lock).
    func endHeldRead(_ connection: Connection) {
        guard heldRead != nil else { return }
        heldRead = nil
        if !inWriteTransaction && !connection.isAutocommit { Self.endReadTransaction(connection) }
    }

    /// Ends the held read transaction, and resets a parked paged read (`ParkedRows`), when no
    /// call came since `calls` (the reaper's last look); true when there is none left to watch.
    /// A page read after that reads its rows by key instead of continuing the statement. Never
    /// waits for the call lock.
    func endIdleHeldRead(since calls: inout UInt64) -> Bool {
        lock.tryWithLock { () -> Bool in
            guard heldRead != nil || parkedRows != nil, let connection else { return true }
            if callCount != calls {
                calls = callCount
                return false
            }
            parkedRows?.statement.reset()
            parkedRows = nil
            endHeldRead(connection)
            return true
        } ?? false
    }
}

/// Ends read transactions that databases hold between calls once they have been idle for one
/// period (10 ms): one thread for the process, started with the first held read, waiting on a
/// condition (no wake-ups) while no database holds one.
final class HeldReadReaper: @unchecked Sendable {
    static let shared = HeldReadReaper()

    private struct Entry {
        weak var database: Database?
        var calls: UInt64
    }

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var started = false
    private var paused = false
    static let periodMicroseconds: UInt32 = 10_000

    /// Stops (or resumes) ending idle reads: for tests that look at a held read.
    func setPaused(_ value: Bool) {
        pthread_mutex_lock(mutex)
        paused = value
        pthread_mutex_unlock(mutex)
    }

    private init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
        // A child process of fork() has no reaper thread (only the forking thread survives) and
        // must not inherit the mutex locked: it starts afresh, with nothing watched.
        pthread_atfork({ pthread_mutex_lock(HeldReadReaper.shared.mutex) },
                       { pthread_mutex_unlock(HeldReadReaper.shared.mutex) },
                       { HeldReadReaper.shared.restartInChild() })
    }

    private func restartInChild() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
        entries = [:]
        started = false
    }

    /// Watches `database`, which now holds a read (called under its call lock).
    func watch(_ database: Database) {
        let id = ObjectIdentifier(database)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if let entry = entries[id], entry.database === database { return }
        entries[id] = Entry(database: database, calls: database.callCount &- 1)
        if !started {
            started = true
            var thread = pthread_t()
            let rc = pthread_create(&thread, nil, { _ in
                HeldReadReaper.shared.run()
                return nil
            }, nil)
            if rc == 0 { pthread_detach(thread) } else { started = false }
        }
        pthread_cond_signal(condition)
    }

    private func run() {
        pthread_mutex_lock(mutex)
        while true {
            while entries.isEmpty { pthread_cond_wait(condition, mutex) }
            pthread_mutex_unlock(mutex)
            usleep(Self.periodMicroseconds)
            pthread_mutex_lock(mutex)
            if paused { continue }
            for (id, entry) in entries {
                var calls = entry.calls
                // tryWithLock never waits, so holding `mutex` here cannot deadlock with `watch`.
                if let database = entry.database, !database.endIdleHeldRead(since: &calls) {
                    entries[id]?.calls = calls
                } else {
                    entries[id] = nil
                }
            }
        }
    }
}
