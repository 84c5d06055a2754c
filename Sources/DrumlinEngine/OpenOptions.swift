#if canImport(Glibc)
import Glibc
#endif
import DrumlinValues

// The options for opening a database (`OpenOptions`, taken by `Database.init`) and the types of
// two of its fields: `LogLevel`, which the logger is called with, and `Synchronous`.

/// How much a log message matters. The numbers are Python's `logging` levels, so bindings can
/// pass them through. The corresponding C constants are `DRUMLIN_LOG_*`.
public enum LogLevel: Int32, Sendable, Comparable {
    case debug = 10
    case info = 20
    case warning = 30
    case error = 40

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// How commits reach the disk; the raw values are the C constants `DRUMLIN_SYNCHRONOUS_*`.
public enum Synchronous: Int32, Sendable {
    case normal = 1
    case full = 2

    var pragma: String { self == .full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL" }
}

/// Options for opening a database. The corresponding C type is `drumlin_options`.
public struct OpenOptions: Sendable {
    /// The schema version stored in the file. Opening with a schema and a lower version than
    /// stored fails; opening by the stored schema (`Database(path:options:)`) takes the stored
    /// version when it is higher.
    public var schemaVersion: UInt64 = 0
    /// Set by `Database(path:options:)` (the stored schema): a stored version higher than
    /// `schemaVersion` is taken instead of refused, read-only or not.
    var adoptsStoredVersion = false
    /// Open read-only: every write is `DrumlinError.readOnly`. The file must exist.
    public var readOnly = false
    /// Keep the database in memory; the path is ignored.
    public var inMemory = false
    /// When the stored schema needs a migration, delete the file and start afresh.
    public var deleteIfMigrationNeeded = false
    /// How long a call waits for another connection's lock (a write transaction elsewhere) before
    /// failing with `DrumlinError.busy`. The corresponding C function is
    /// `drumlin_options_set_busy_timeout`.
    public var busyTimeout: Duration = .seconds(5)
    /// How commits reach the disk (SQLite's `synchronous`): `.normal` (the default) survives a
    /// crash of the process, and a power loss may roll back the last commits (never half of
    /// one); `.full` makes every commit durable against power loss too, at the cost of an fsync
    /// per commit. The corresponding C function is `drumlin_options_set_synchronous`.
    public var synchronous: Synchronous = .normal
    /// Runs SQLite's `PRAGMA quick_check` when opening an existing file and refuses a damaged one
    /// with `DrumlinError.corrupt` (its message lists what SQLite found). Reads the whole file:
    /// the open takes time in proportion to its size. Off by default. The corresponding C
    /// function is `drumlin_options_set_quick_check`.
    public var quickCheck = false
    /// Receives what the database reports: opens and schema changes (`.info`), queries slower
    /// than `slowQueryThreshold` (`.warning`) and failed calls (`.error`). Called on the thread
    /// that made the call, while the database is busy with it: it must not call back into the
    /// same database. The corresponding C function is `drumlin_options_set_logger`.
    public var logger: (@Sendable (LogLevel, String) -> Void)?
    /// Queries that take longer than this are reported to `logger` as warnings; nil: never.
    /// The corresponding C function is `drumlin_options_set_slow_query_threshold`.
    public var slowQueryThreshold: Duration?
    /// Runs once when the file's stored schema version is lower than `schemaVersion`, inside the
    /// transaction that changes the schema: it reads the old objects and writes the new ones (see
    /// `Migration`). Throwing rolls everything back and the open fails with
    /// `DrumlinError.migrationFailed`. The corresponding C function is `drumlin_options_set_migration`.
    public var migration: (@Sendable (Migration) throws -> Void)?
    /// The 64-byte key that encrypts the file (Realm's `encryptionKey`; docs/encryption.md): every
    /// page of the file, its write-ahead log and journal is encrypted and authenticated. A file
    /// made with a key opens only with it (`DrumlinError.decryptionFailed` otherwise), a file made
    /// without one only without. The corresponding C function is `drumlin_options_set_encryption_key`.
    public var encryptionKey: EncryptionKey?

    public init(schemaVersion: UInt64 = 0, readOnly: Bool = false, inMemory: Bool = false,
                deleteIfMigrationNeeded: Bool = false, busyTimeout: Duration = .seconds(5),
                logger: (@Sendable (LogLevel, String) -> Void)? = nil, slowQueryThreshold: Duration? = nil,
                migration: (@Sendable (Migration) throws -> Void)? = nil) {
        self.migration = migration
        self.schemaVersion = schemaVersion
        self.readOnly = readOnly
        self.inMemory = inMemory
        self.deleteIfMigrationNeeded = deleteIfMigrationNeeded
        self.busyTimeout = busyTimeout
        self.logger = logger
        self.slowQueryThreshold = slowQueryThreshold
    }

    /// The busy timeout in whole milliseconds, as SQLite takes it (clamped to its range).
    var busyTimeoutMilliseconds: Int32 {
        let (seconds, attoseconds) = busyTimeout.components
        if seconds < 0 { return 0 }
        let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
        if milliseconds.overflow || milliseconds.partialValue > Int64(Int32.max) { return Int32.max }
        return Int32(Swift.min(Int64(Int32.max), milliseconds.partialValue + attoseconds / 1_000_000_000_000_000))
    }

    func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        logger?(level, message())
    }
}

/// A 64-byte encryption key (Realm's `encryptionKey`: AES-256 key, then HMAC-SHA-224 key), held in
/// memory of its own that is wiped when the last reference to it goes (a Swift array's bytes may
/// be copied anywhere and cannot be wiped).
public final class EncryptionKey: @unchecked Sendable {
    /// How long a key is.
    public static let size = 64
    private let bytes: UnsafeMutableRawBufferPointer

    /// A key from its bytes (copied into the key's own memory). A key that is not 64 bytes long
    /// is `DrumlinError.invalidArgument`.
    public init<Bytes: Collection>(bytes key: Bytes) throws(DrumlinError) where Bytes.Element == UInt8 {
        guard key.count == Self.size else {
            throw DrumlinError(.invalidArgument, "An encryption key must be \(Self.size) bytes long, got \(key.count).")
        }
        bytes = .allocate(byteCount: Self.size, alignment: 16)
        for (index, byte) in key.enumerated() { bytes[index] = byte }
    }

    deinit {
        explicit_bzero(bytes.baseAddress!, bytes.count)
        bytes.deallocate()
    }

    /// Runs `body` with the key's bytes (which must not escape it).
    package func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws(DrumlinError) -> R) throws(DrumlinError) -> R {
        try body(UnsafeRawBufferPointer(bytes))
    }
}
