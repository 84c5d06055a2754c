import CSQLite
import DrumlinSchema
import DrumlinStorage
import DrumlinValues
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Serializes calls on one database and turns a re-entrant call (from a callback on the same
/// thread) into an error instead of a deadlock.
final class CallLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let owner = Atomic<UInt>(0)

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<R>(_ body: () throws(DrumlinError) -> R) throws(DrumlinError) -> R {
        let me = UInt(pthread_self())
        if owner.load(ordering: .acquiring) == me {
            throw DrumlinError(.misuse, "Re-entrant call on the same database handle (from a callback?).")
        }
        pthread_mutex_lock(mutex)
        owner.store(me, ordering: .releasing)
        defer {
            owner.store(0, ordering: .releasing)
            pthread_mutex_unlock(mutex)
        }
        return try body()
    }

    /// Runs `body` under the lock if it is free at once; nil (without waiting) when it is not.
    func tryWithLock<R>(_ body: () -> R) -> R? {
        if pthread_mutex_trylock(mutex) != 0 { return nil }
        owner.store(UInt(pthread_self()), ordering: .releasing)
        defer {
            owner.store(0, ordering: .releasing)
            pthread_mutex_unlock(mutex)
        }
        return body()
    }
}

/// An open Drumlin database: one SQLite file (WAL mode) holding the objects of a schema.
///
/// A `Database` may be used from any thread; calls are serialized. Several `Database` values may
/// open the same file (in threads or processes): readers never block the writer.
///
/// ```swift
/// let db = try Database(path: "app.drumlin", schemaJSON: #"[{"name": "Person", "primaryKey": "id", "properties": {"id": "int", "name": "string"}}]"#)
/// try db.write {
///     _ = try db.create("Person", json: #"{"id": 1, "name": "Ann"}"#)
/// }
/// ```
/// The corresponding C function is `drumlin_open`.
public final class Database: @unchecked Sendable {
    let lock = CallLock()
    /// nil once closed.
    var connection: Connection?
    /// The classes open on this handle, by class index. Classes are only appended to it while
    /// the handle is open (`addClasses`, File/Database+AddClasses.swift), under the call lock; a
    /// write transaction that added some and rolls back removes them again.
    @exclusivity(unchecked) var classes: [ClassInfo]
    @exclusivity(unchecked) var classByName: [ExactName: ClassInfo]
    /// The schema open on this handle: the one opened with, and the classes added since.
    public internal(set) var schema: Schema
    /// The class count before the current write transaction added classes (nil: it added none):
    /// a rollback removes the classes from there on.
    var classCountBeforeWrite: Int?
    public let path: String
    /// A file this handle made and removes when deinitialized (a frozen snapshot's).
    var ownedFile: String?
    public private(set) var schemaVersion: UInt64
    let options: OpenOptions
    var inWriteTransaction = false
    /// Commits (and rollbacks) through this handle: with SQLite's data_version (which counts other
    /// connections' commits) it tells cached query results when to re-evaluate.
    var commitCount = 0
    /// Creation-order counters of classes written in the current transaction (by class index).
    @exclusivity(unchecked) var pendingSequences = ClassTable<Int64>()
    /// Classes created into in the current transaction: whether their creation order is still
    /// their key order, and their greatest key (Objects/Database+KeyOrder.swift).
    @exclusivity(unchecked) var keyOrders = ClassTable<KeyOrderState>()
    /// Per class: whether reads try key order first (a hint: each read checks it in its own
    /// snapshot, and a wrong hint costs one more statement).
    lazy var keyOrderHints = [Bool](repeating: true, count: classes.count)
    /// Prepared upsert statements by (property indexes, mode, class): see `upsertInPlace`.
    var upsertStatements: [[Int]: Statement] = [:]
    /// A bulk create's deferred rows and found link targets, during the call (Objects/PendingRows.swift).
    @exclusivity(unchecked) var pendingRows: PendingRows?
    /// Parsed queries by text (the parse depends on nothing else): a program runs the same few
    /// query texts with different arguments. Emptied when it reaches `parsedQueryLimit`.
    /// By the query's text byte for byte (a name in another Unicode normalization is another name).
    var parsedQueries: [ExactName: Query] = [:]
    public static let parsedQueryLimit = 256
    /// Compiled queries by class, text and argument types (`QueryTemplate`); emptied when it
    /// reaches `parsedQueryLimit`.
    var queryTemplates: [QueryTemplate.Key: QueryTemplate.Entry] = [:]

    // Notifications (Notifications/): what this connection writes, who observes, where they stand.
    var recorder: ChangeRecorder?
    let observers = ObserverRegistry()
    var notificationState = NotificationState()
    /// The thread running notification callbacks, if any (0: none).
    let deliveringThread = Atomic<UInt>(0)
    /// Told of every commit through this handle: the sync session (Sync/Database+UploadQueue.swift).
    let commitObserver = Mutex<(@Sendable () -> Void)?>(nil)

    /// The read version: a counter that moves whenever values read through this handle may have
    /// changed. It is bumped on every commit and rollback, after every call that wrote a row
    /// (SQLite's total changes), and after every call that noticed another connection's commit
    /// (SQLite's data version, which moves when a read of this connection sees the new file).
    /// Bindings keep values read earlier while it is unchanged. The word stays at this address
    /// until the database is deinitialized, so C reads it in place, without a call. The
    /// corresponding C function is `drumlin_db_read_version`.
    public let readVersionAddress: UnsafeMutablePointer<UInt64> = {
        let word = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
        word.initialize(to: 1)
        return word
    }()
    public var readVersion: UInt64 { readVersionAddress.pointee }
    /// What `noteChanges` saw last: SQLite's data version and this connection's total changes
    /// (guarded by `lock`).
    @exclusivity(unchecked) private var seenDataVersion: UInt32 = 0
    @exclusivity(unchecked) private var seenTotalChanges: Int64 = 0

    /// Moves the read version (commits, rollbacks, writes, and `refresh()`).
    func bumpReadVersion() { readVersionAddress.pointee &+= 1 }

    /// Bumps the read version when this connection wrote rows or saw another connection's commit
    /// since the last call: runs after every call, so the next call's readers see it.
    private func noteChanges(_ connection: Connection) {
        var dataVersion: UInt32 = 0
        // A NULL database name is "main" without SQLite's name lookup (sqlite3DbNameToBtree).
        _ = sqlite3_file_control(connection.handle, nil, SQLITE_FCNTL_DATA_VERSION, &dataVersion)
        let total = connection.totalChanges
        if dataVersion != seenDataVersion || total != seenTotalChanges {
            seenDataVersion = dataVersion
            seenTotalChanges = total
            bumpReadVersion()
        }
    }

    /// Opens an existing database with the schema stored in it, read-write or (with
    /// `options.readOnly`) read-only, at the stored schema version: `options.schemaVersion` is a
    /// floor here (a higher one is an upgrade, as with a schema), and a file migrated to a higher
    /// version opens at that version. Opening it later with a schema works as always: the stored
    /// one is compared with it and additive changes apply. The file must exist and be a Drumlin
    /// database. The corresponding C call is `drumlin_open` with a NULL schema.
    public convenience init(path: String, options: OpenOptions = OpenOptions()) throws(DrumlinError) {
        var options = options
        options.adoptsStoredVersion = true
        let schema: Schema
        do throws(DrumlinError) {
            schema = try Storage.storedSchema(path: path, options: options)
            // The stored schema was valid when it was written: one that is not (a link to a class
            // the file lacks) was changed behind Drumlin's back.
            do throws(DrumlinError) {
                try schema.validate()
            } catch where error.code == .schema {
                throw DrumlinError(.corrupt, "The schema stored in '\(path)' is invalid: \(error.message)")
            }
        } catch {
            options.log(.error, error.message)
            throw error
        }
        try self.init(path: path, schema: schema, options: options)
    }

    /// Opens (or creates) a database with a schema given as JSON text in Realm JS's format.
    public convenience init(path: String, schemaJSON: String, options: OpenOptions = OpenOptions()) throws(DrumlinError) {
        try self.init(path: path, schema: try Schema(jsonText: schemaJSON), options: options)
    }

    /// Opens (or creates) a database. The schema is validated (all problems reported at once), and
    /// compared with the one stored in the file: additive changes are applied, others need a
    /// migration (`DrumlinError.migrationRequired`).
    public init(path: String, schema: Schema, options: OpenOptions = OpenOptions()) throws(DrumlinError) {
        do throws(DrumlinError) {
            try schema.validate()
        } catch {
            options.log(.error, error.message)
            throw error
        }
        self.schema = schema
        self.options = options
        if path.isEmpty && !options.inMemory { throw Storage.emptyPath(options) }
        let inMemory = options.inMemory || path == ":memory:"
        self.path = inMemory ? ":memory:" : path
        (classes, classByName) = Self.classInfos(schema)
        self.schemaVersion = options.schemaVersion
        do throws(DrumlinError) {
            let opened = try Storage.open(path: self.path, inMemory: inMemory, schema: schema, classes: classes,
                                          options: options, storedVersion: &schemaVersion)
            connection = opened
            if !options.readOnly {
                // Installed per write transaction, only when the file is observed (see `beginWriteLocked`).
                self.recorder = try ChangeRecorder(classes: classes, connection: opened)
            }
            notificationState.dataVersion = try dataVersion(opened)
            holdsReads = Self.canHoldReads(opened, inMemory: inMemory)
        } catch {
            options.log(.error, error.message)
            throw error
        }
        options.log(.info, "Opened '\(self.path)'\(options.readOnly ? " read-only" : "") with \(classes.count) object type\(classes.count == 1 ? "" : "s") at schema version \(schemaVersion).")
    }

    /// A database over a connection a migration holds (inside its transaction): the new schema's
    /// objects (`allowsIntegerRowKey` false: primary keys are plain columns until checked) or,
    /// read-only, the old schema's. `slotBase` keeps its statement slots apart from the other's.
    /// It never closes the connection: `detachConnection()` lets go of it.
    init(migrating connection: Connection, path: String, schema: Schema, options: OpenOptions, version: UInt64,
         allowsIntegerRowKey: Bool, slotBase: Int) {
        self.schema = schema
        self.options = options
        self.path = path
        (classes, classByName) = Self.classInfos(schema, allowsIntegerRowKey: allowsIntegerRowKey, slotBase: slotBase)
        schemaVersion = version
        self.connection = connection
        isMigrating = true
    }

    /// Ends a migration's database without closing the connection it borrowed.
    func detachConnection() {
        try? lock.withLock { () throws(DrumlinError) in
            parkedRows?.statement.reset()
            parkedRows = nil
            if let connection { endHeldRead(connection) }
            connection = nil
            inWriteTransaction = false
            closedFlag.store(true, ordering: .releasing)
        }
    }

    /// Whether this is a migration's database, where primary keys may change (they are checked
    /// for duplicates when the migration ends).
    private(set) var isMigrating = false

    /// The classes of a schema with their links resolved and their statement slots assigned.
    static func classInfos(_ schema: Schema, allowsIntegerRowKey: Bool = true,
                           slotBase start: Int = 0) -> ([ClassInfo], [ExactName: ClassInfo]) {
        var classes: [ClassInfo] = []
        var byName: [ExactName: ClassInfo] = [:]
        for (i, objectSchema) in schema.objectSchemas.enumerated() {
            let info = ClassInfo(index: i, schema: objectSchema, allowsIntegerRowKey: allowsIntegerRowKey)
            classes.append(info)
            byName[ExactName(objectSchema.name)] = info
        }
        for info in classes where byName[ExactName(info.schema.storedName)] == nil { byName[ExactName(info.schema.storedName)] = info }
        ClassInfo.resolve(classes)
        var slotBase = start
        for info in classes {
            info.slotBase = slotBase
            slotBase += info.slotCount
        }
        return (classes, byName)
    }

    /// The statement slots this database's classes use.
    var slotCount: Int { classes.reduce(0) { $0 + $1.slotCount } }

    deinit {
        if let connection { ChangeRecorder.uninstall(from: connection) }
        connection?.close()
        for info in classes { info.unlinkClasses() }
        readVersionAddress.deallocate()
        if let ownedFile { for suffix in ["", "-wal", "-shm", "-journal"] { unlink(ownedFile + suffix) } }
    }

    /// Closes the database. An open write transaction is rolled back. Objects from it stay
    /// allocated but every call on them is `DrumlinError.misuse`. Closing twice does nothing.
    /// The corresponding C function is `drumlin_close`.
    public func close() {
        try? lock.withLock { () throws(DrumlinError) in
            guard let connection else { return }
            parkedRows?.statement.reset()
            parkedRows = nil
            endHeldRead(connection)
            endDeliveryRead(connection)
            if inWriteTransaction { try? connection.execute("ROLLBACK") }
            inWriteTransaction = false
            ChangeRecorder.uninstall(from: connection)
            recorder?.reset()
            observers.removeAll()
            upsertStatements.removeAll()
            queryTemplates.removeAll()
            connection.close()
            self.connection = nil
            bumpReadVersion()
            closedFlag.store(true, ordering: .releasing)
        }
    }

    /// A results read that stopped before its last row, its statement left open where it stopped,
    /// so that a read of the next rows continues it: results are read in pages (iteration in
    /// Swift and Python, paged reads in C), and each page then costs its rows only. A read call
    /// in the same held read transaction (no commit since) leaves it parked (`serializedRead`);
    /// any other call resets it first, so the open read never outlives that call: writes,
    /// refreshes and reads after a commit see the file as usual; left idle, the reaper of held
    /// reads resets it (File/HeldRead.swift). Guarded by `lock`.
    @exclusivity(unchecked) var parkedRows: ParkedRows?

    /// The read transaction held open between read calls, with the write-ahead log's index
    /// header it began at (File/HeldRead.swift); nil when none. Guarded by `lock`.
    @exclusivity(unchecked) var heldRead: WALHeader?
    /// The thread delivering notifications in the read transaction their change sets describe
    /// (Notifications/Database+Notifications.swift, `beginDeliveryRead`); 0 when none. Every read
    /// through the handle stays in that transaction until the delivery ends. Guarded by `lock`.
    @exclusivity(unchecked) var deliveryReadThread: UInt = 0
    /// Whether read calls may hold their read transaction (a file in WAL mode; set when opened).
    var holdsReads = false
    /// Calls made on this handle (guarded by `lock`): the reaper of held reads ends one only after
    /// a period without calls.
    @exclusivity(unchecked) var callCount: UInt64 = 0

    /// Set once the database is closed; read without the lock by handles checking their parent.
    private let closedFlag = Atomic<Bool>(false)

    public var isClosed: Bool { closedFlag.load(ordering: .acquiring) }

    /// Runs `body` with the open connection, serialized with every other call on this database.
    /// A parked read (see `ParkedRows`) is reset first, and a held read transaction ended
    /// (File/HeldRead.swift).
    func serialized<R>(_ body: (Connection) throws(DrumlinError) -> R) throws(DrumlinError) -> R {
        try serializedResuming { (connection, parked) throws(DrumlinError) -> R in
            parked?.statement.reset()
            return try body(connection)
        }
    }

    /// `serialized` for a call that only reads: it runs in the read transaction held since an
    /// earlier read when no connection committed since, else in a new one, which it then holds
    /// (File/HeldRead.swift). Outside a write transaction only; inside one it is `serialized`.
    ///
    /// A parked read stays parked across such a call when the call runs in the read transaction
    /// the parked read is in (no connection committed since) and does not use its statement: a
    /// loop that reads other objects between its pages still continues its statement.
    func serializedRead<R>(_ body: (Connection) throws(DrumlinError) -> R) throws(DrumlinError) -> R {
        try serializedResuming(reading: true) { (connection, parked) throws(DrumlinError) -> R in
            guard let parked, heldRead != nil else {
                parked?.statement.reset()
                return try body(connection)
            }
            let resets = parked.statement.resets
            let result: R
            do throws(DrumlinError) {
                result = try body(connection)
            } catch {
                parked.statement.reset()
                throw error
            }
            if parkedRows == nil, parked.statement.resets == resets {
                parkedRows = parked
            } else {
                parked.statement.reset()
            }
            return result
        }
    }

    /// `serialized`, handing `body` the parked read, if any, taken from the database: `body`
    /// continues it (and may park it again) or resets it.
    func serializedResuming<R>(reading: Bool = false,
                               _ body: (Connection, ParkedRows?) throws(DrumlinError) -> R) throws(DrumlinError) -> R {
        try lock.withLock { () throws(DrumlinError) -> R in
            callCount &+= 1
            let parked = parkedRows
            parkedRows = nil
            guard let connection else {
                parked?.statement.reset()
                throw DrumlinError(.misuse, "The database is closed.")
            }
            let began = prepareRead(connection, reading: reading, parked: parked)
            defer {
                if let began { finishRead(connection, began: began) }
                noteChanges(connection)
                // A read parked by this call is of the state this call ends on.
                parkedRows?.version = readVersion
            }
            do throws(DrumlinError) {
                return try body(connection, parked)
            } catch {
                options.log(.error, error.message)
                throw error
            }
        }
    }

    /// Reports a log message to `OpenOptions.logger`, if any.
    func log(_ level: LogLevel, _ message: @autoclosure () -> String) { options.log(level, message()) }

    /// Runs a query's read, reporting it when it takes longer than `OpenOptions.slowQueryThreshold`.
    func timedQuery<R>(_ description: @autoclosure () -> String, _ body: () throws(DrumlinError) -> R) throws(DrumlinError) -> R {
        guard let threshold = options.slowQueryThreshold, options.logger != nil else { return try body() }
        let clock = ContinuousClock()
        let start = clock.now
        let result = try body()
        let elapsed = clock.now - start
        if elapsed > threshold {
            func milliseconds(_ duration: Duration) -> Int {
                Int((Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15).rounded())
            }
            log(.warning, "Slow query (\(milliseconds(elapsed)) ms, over the \(milliseconds(threshold)) ms threshold) on \(description())")
        }
        return result
    }

    /// The schema in normalized long form. The corresponding C function is `drumlin_schema_json`.
    public var schemaJSON: JSON { schema.normalizedJSON }

    // MARK: Classes

    func classInfo(_ name: String) throws(DrumlinError) -> ClassInfo {
        guard let info = classByName[ExactName(name)] else {
            throw DrumlinError(.noSuchClass, "Object type '\(name)' is not in the schema.")
        }
        return info
    }

    /// Finds a class by a C string name (public, then stored) without allocating a Swift string.
    func classInfo(cString name: UnsafePointer<CChar>) throws(DrumlinError) -> ClassInfo {
        let length = strlen(name)
        func matches(_ candidate: [UInt8]) -> Bool {
            candidate.count == length && (length == 0 || candidate.withUnsafeBytes { memcmp($0.baseAddress!, name, length) == 0 })
        }
        for info in classes where matches(info.nameBytes) { return info }
        for info in classes where matches(info.storedNameBytes) { return info }
        guard let text = String(validatingCString: name) else {
            throw DrumlinError(.invalidArgument, "class_name is not valid UTF-8.")
        }
        return try classInfo(text)
    }

    func classInfo(index: Int) throws(DrumlinError) -> ClassInfo {
        guard index >= 0, index < classes.count else {
            throw DrumlinError(.invalidArgument, "Class index \(index) is out of range (the schema has \(classes.count) classes).")
        }
        return classes[index]
    }

    /// The index of a class (public or stored name) in `schema.objectSchemas`.
    public func classIndex(_ name: String) throws(DrumlinError) -> Int { try classInfo(name).index }

    /// The index of a class named by a C string (public or stored name), without allocating.
    public func classIndex(cString name: UnsafePointer<CChar>) throws(DrumlinError) -> Int {
        try classInfo(cString: name).index
    }

    /// Whether the objects of a class are keyed by their primary key: a required int primary key
    /// is the object key (docs/storage.md), so an object's key is known from its primary key.
    public func primaryKeyIsObjectKey(classIndex: Int) throws(DrumlinError) -> Bool {
        try classInfo(index: classIndex).hasSequenceColumn
    }

    /// The index of a property (public or stored name) in its class's `properties`.
    public func propertyIndex(_ className: String, _ propertyName: String) throws(DrumlinError) -> Int {
        let info = try classInfo(className)
        guard let index = info.propertyIndex(propertyName) else { throw noSuchProperty(info, propertyName) }
        return index
    }

    func noSuchProperty(_ info: ClassInfo, _ name: String) -> DrumlinError {
        DrumlinError(.noSuchProperty, "Property '\(info.name).\(name)' does not exist.")
    }

    // MARK: Transactions

    public var isInWriteTransaction: Bool {
        (try? lock.withLock { () throws(DrumlinError) in inWriteTransaction }) ?? false
    }

    /// Begins a write transaction. The corresponding C function is `drumlin_begin_write`.
    public func beginWrite() throws(DrumlinError) {
        try serialized { (connection) throws(DrumlinError) in try beginWriteLocked(connection) }
    }

    /// Commits the write transaction, then delivers its changes to this handle's observers (on
    /// the calling thread, after the commit is durable). The corresponding C function is `drumlin_commit`.
    public func commit() throws(DrumlinError) {
        try commit(withoutNotifying: [])
    }

    /// Discards everything written since `beginWrite()`. The corresponding C function is `drumlin_rollback`.
    public func rollback() throws(DrumlinError) {
        try serialized { (connection) throws(DrumlinError) in
            guard inWriteTransaction else {
                throw DrumlinError(.wrongTransactionState, "Cannot roll back: the database is not in a write transaction.")
            }
            try rollbackLocked(connection)
        }
    }

    /// `beginWrite()` for callers already inside `serialized`.
    func beginWriteLocked(_ connection: Connection) throws(DrumlinError) {
        if options.readOnly { throw DrumlinError(.readOnly, "The database was opened read-only.") }
        if inWriteTransaction {
            throw DrumlinError(.wrongTransactionState, "The database is already in a write transaction.")
        }
        if isDeliveringOnThisThread {
            throw DrumlinError(.wrongTransactionState, "Cannot begin a write transaction from inside a notification callback: write after the callback returns.")
        }
        do throws(DrumlinError) {
            try connection.execute("BEGIN IMMEDIATE")
        } catch where error.code == .busy {
            throw DrumlinError(.busy, "Could not begin a write transaction on '\(path)': another connection held the write lock for the whole busy timeout (\(options.busyTimeoutMilliseconds) ms). Set a longer busy timeout when opening to wait longer.", sqliteCode: error.sqliteCode)
        }
        inWriteTransaction = true
        pendingSequences.removeAll()
        keyOrders.removeAll()
        recorder?.reset()
        try captureChangesIfObserved(connection)
    }

    /// `commit()` for callers already inside `serialized`.
    func commitLocked(_ connection: Connection) throws(DrumlinError) {
        guard inWriteTransaction else {
            throw DrumlinError(.wrongTransactionState, "Cannot commit: the database is not in a write transaction.")
        }
        try flushSequences(connection)
        try writeChangeLog(connection)
        try connection.execute("COMMIT")
        inWriteTransaction = false
        classCountBeforeWrite = nil
        commitCount += 1
        bumpReadVersion()
        pendingSequences.removeAll()
        keyOrders.removeAll()
        recorder?.reset()
        notifyCommitObserver()
    }

    /// `rollback()` for callers already inside `serialized`.
    func rollbackLocked(_ connection: Connection) throws(DrumlinError) {
        inWriteTransaction = false
        commitCount += 1
        bumpReadVersion()
        pendingSequences.removeAll()
        keyOrders.removeAll()
        recorder?.reset()
        // The classes this transaction added go with their tables, even when ROLLBACK fails.
        defer { removeClassesAddedInWrite(connection) }
        try connection.execute("ROLLBACK")
    }

    /// Runs `body` in a write transaction: commits when it returns, rolls back when it throws.
    @discardableResult
    public func write<R>(_ body: () throws -> R) throws -> R {
        try beginWrite()
        do {
            let result = try body()
            try commit()
            return result
        } catch {
            if isInWriteTransaction { try? rollback() }
            throw error
        }
    }

    func requireWriteTransaction() throws(DrumlinError) {
        if options.readOnly { throw DrumlinError(.readOnly, "The database was opened read-only.") }
        guard inWriteTransaction else {
            throw DrumlinError(.wrongTransactionState, "Cannot modify managed objects outside of a write transaction.")
        }
    }

    /// Runs a multi-statement write so that it applies entirely or not at all, leaving the
    /// surrounding transaction usable (statement-level atomicity).
    func atomically<R>(_ connection: Connection, _ body: () throws(DrumlinError) -> R) throws(DrumlinError) -> R {
        let sequences = pendingSequences
        let orders = keyOrders
        let mark = recorder?.mark ?? 0
        try connection.statement("SAVEPOINT drumlin_call").run()
        do throws(DrumlinError) {
            let result = try body()
            try connection.statement("RELEASE drumlin_call").run()
            return result
        } catch {
            try? connection.statement("ROLLBACK TO drumlin_call").run()
            try? connection.statement("RELEASE drumlin_call").run()
            pendingSequences = sequences
            keyOrders = orders
            recorder?.rollBack(to: mark)
            throw error
        }
    }

    // MARK: Creation order

    func nextSequence(_ info: ClassInfo, _ connection: Connection) throws(DrumlinError) -> Int64 {
        let next: Int64
        if let pending = pendingSequences[info.index] {
            next = pending
        } else {
            let statement = try connection.statement(slot: info.slot(.readSequence), "SELECT next_seq FROM _drumlin_classes WHERE table_name = ?1")
            defer { statement.reset() }
            statement.bind(info.schema.storedName, at: 1)
            next = try statement.step() ? statement.int64(0) : 1
        }
        pendingSequences[info.index] = next + 1
        return next
    }

    /// Reserves `count` consecutive creation-order numbers; returns the first.
    func reserveSequences(_ info: ClassInfo, _ count: Int, _ connection: Connection) throws(DrumlinError) -> Int64 {
        let first = try nextSequence(info, connection)
        pendingSequences[info.index] = first + Int64(count)
        return first
    }

    private func flushSequences(_ connection: Connection) throws(DrumlinError) {
        for (classIndex, next) in pendingSequences.entries {
            let statement = try connection.statement(slot: classes[classIndex].slot(.writeSequence), "UPDATE _drumlin_classes SET next_seq = ?1 WHERE table_name = ?2")
            statement.bind(next, at: 1)
            statement.bind(classes[classIndex].schema.storedName, at: 2)
            try statement.run()
        }
    }
}
