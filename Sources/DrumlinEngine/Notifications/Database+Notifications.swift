import DrumlinStorage
import DrumlinValues
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where a handle stands in the change log: what it delivered to its observers last.
struct NotificationState {
    /// Whether `deliveredSeq` and `dataVersion` are set (they are once an observer registered).
    var positioned = false
    var deliveredSeq: Int64 = 0
    /// `PRAGMA data_version` when the handle last looked: it moves when another connection commits.
    var dataVersion: Int64 = 0
    /// Log entries this handle wrote and has not delivered yet.
    var ownSeqs: Set<Int64> = []
    /// Whether `_drumlin_changes` is known to exist in the file.
    var logExists = false
    /// Whether the file is known to be observed (`Database.observedKey`): it never goes back.
    var fileObserved = false
}

extension Database {
    // MARK: Registering

    /// Registers an observer built under the lock. Realm's rule applies: not inside a write
    /// transaction (the observer would start from uncommitted state).
    func register(_ make: (Connection) throws(DrumlinError) -> any ChangeObserver) throws(DrumlinError) -> NotificationToken {
        try serialized { (connection) throws(DrumlinError) -> NotificationToken in
            if inWriteTransaction {
                throw DrumlinError(.wrongTransactionState, "Cannot register notification blocks from within write transactions.")
            }
            try markObserved(connection)
            if observers.isEmpty || !notificationState.positioned { try position(connection) }
            return observers.add(try make(connection))
        }
    }

    /// Starts delivering from the log's current end.
    private func position(_ connection: Connection) throws(DrumlinError) {
        notificationState.logExists = try logExists(connection)
        notificationState.deliveredSeq = notificationState.logExists ? try newestSeq(connection) : 0
        notificationState.dataVersion = try dataVersion(connection)
        notificationState.ownSeqs = []
        notificationState.positioned = true
    }

    private func logExists(_ connection: Connection) throws(DrumlinError) -> Bool {
        try connection.scalarText("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?1", [ChangeLog.table]) != nil
    }

    private func newestSeq(_ connection: Connection) throws(DrumlinError) -> Int64 {
        let statement = try connection.statement("SELECT coalesce(max(seq), 0) FROM _drumlin_changes")
        defer { statement.reset() }
        return try statement.step() ? statement.int64(0) : 0
    }

    func dataVersion(_ connection: Connection) throws(DrumlinError) -> Int64 {
        let statement = try connection.statement("PRAGMA data_version")
        defer { statement.reset() }
        return try statement.step() ? statement.int64(0) : 0
    }

    // MARK: Whether to log

    /// `_drumlin_meta` key set once any handle, in any process, registers an observer on the
    /// file: from then on every writer logs its commits. A file never observed costs its
    /// writers nothing.
    static let observedKey = "observed"

    /// At the start of a write transaction (the write lock held): capture this transaction's
    /// changes when this handle has observers or the file was ever observed.
    func captureChangesIfObserved(_ connection: Connection) throws(DrumlinError) {
        guard let recorder else { return }
        var observed = !observers.isEmpty || notificationState.fileObserved
        if !observed {
            let statement = try connection.statement("SELECT 1 FROM _drumlin_meta WHERE key = ?1")
            statement.bind(Self.observedKey, at: 1)
            observed = try statement.step()
            statement.reset()
            notificationState.fileObserved = observed
        }
        if observed { recorder.install(on: connection) } else { recorder.uninstall(from: connection) }
    }

    /// Marks the file observed (a small write of its own), so that other handles and processes
    /// start logging. A read-only handle cannot: its observers see other writers' commits as
    /// unknown changes (re-read, every remaining object reported modified) until a writable
    /// handle observes the file.
    private func markObserved(_ connection: Connection) throws(DrumlinError) {
        guard !notificationState.fileObserved, !options.readOnly else { return }
        if try connection.scalarText("SELECT value FROM _drumlin_meta WHERE key = ?1", [Self.observedKey]) == nil {
            do throws(DrumlinError) {
                try connection.execute("BEGIN IMMEDIATE")
            } catch where error.code == .busy {
                throw DrumlinError(.busy, "Could not register the observer on '\(path)': another connection held the write lock for the whole busy timeout (\(options.busyTimeoutMilliseconds) ms).", sqliteCode: error.sqliteCode)
            }
            do throws(DrumlinError) {
                let insert = try connection.statement("INSERT OR IGNORE INTO _drumlin_meta (key, value) VALUES (?1, 1)")
                insert.bind(Self.observedKey, at: 1)
                try insert.run()
                try connection.execute("COMMIT")
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        }
        notificationState.fileObserved = true
    }

    // MARK: Writing the log

    /// Runs one of the engine's property `UPDATE`s, telling the change recorder which properties
    /// it assigns (see `ChangeRecorder.assigning`).
    @inline(__always)
    func assigning<R>(_ indices: some Sequence<Int>, _ body: () throws(DrumlinError) -> R) throws(DrumlinError) -> R {
        guard let recorder else { return try body() }
        var mask = PropertyMask()
        for index in indices { mask.formUnion(PropertyMask(property: index)) }
        recorder.assigning = mask
        defer { recorder.assigning = nil }
        return try body()
    }

    /// Called inside the write transaction, just before COMMIT: appends this transaction's
    /// changes to the log (nothing when it changed no object).
    func writeChangeLog(_ connection: Connection) throws(DrumlinError) {
        guard let recorder, !recorder.events.isEmpty else { return }
        let changes = try recorder.changeSet(classes, connection)
        guard !changes.isEmpty else { return }
        if !notificationState.logExists {
            try connection.execute(ChangeLog.createSQL)
            notificationState.logExists = true
        }
        let bytes = ChangeLog.encode(changes, classes: classes)
        let insert = try connection.statement("INSERT INTO _drumlin_changes (data) VALUES (?1)")
        insert.bind(bytes, at: 1)
        try insert.run()
        let seq = connection.lastInsertRowID
        if notificationState.positioned { notificationState.ownSeqs.insert(seq) }
        if seq % 128 == 0 {
            let prune = try connection.statement("DELETE FROM _drumlin_changes WHERE seq <= ?1")
            prune.bind(seq - ChangeLog.retained, at: 1)
            try prune.run()
        }
    }

    // MARK: Delivering

    /// Computes every observer's change since the last delivery (under the lock). Errors stop
    /// nothing: a commit that succeeded stays a success; the observer that failed is skipped.
    func prepareDeliveries(_ connection: Connection, skipping: Set<Int> = []) -> [() -> Void] {
        let registered = observers.all
        guard !registered.isEmpty else {
            notificationState.positioned = false
            return []
        }
        let changes: ChangeSet
        do throws(DrumlinError) {
            changes = try pendingChanges(connection)
        } catch {
            log(.error, "Could not read the change log: \(error.message)")
            var unknown = ChangeSet()
            unknown.unknown = true
            changes = unknown
        }
        guard !changes.isEmpty else { return [] }
        var deliveries: [() -> Void] = []
        for (id, observer) in registered {
            do throws(DrumlinError) {
                if let delivery = try observer.prepare(changes, self, connection), !skipping.contains(id) {
                    deliveries.append(delivery)
                }
            } catch {
                log(.error, "A change observer failed: \(error.message)")
            }
        }
        return deliveries
    }

    /// The changes since `deliveredSeq`, read from the log, and the new position.
    private func pendingChanges(_ connection: Connection) throws(DrumlinError) -> ChangeSet {
        let version = try dataVersion(connection)
        let externalCommits = version != notificationState.dataVersion
        notificationState.dataVersion = version
        if !notificationState.logExists { notificationState.logExists = try logExists(connection) }
        var changes = ChangeSet()
        guard notificationState.logExists else {
            changes.unknown = externalCommits
            return changes
        }
        let statement = try connection.statement("SELECT seq, data FROM _drumlin_changes WHERE seq > ?1 ORDER BY seq")
        defer { statement.reset() }
        statement.bind(notificationState.deliveredSeq, at: 1)
        var expected = notificationState.deliveredSeq + 1
        var sawForeign = false
        let byStoredName = classesByStoredName
        while try statement.step() {
            let seq = statement.int64(0)
            if seq != expected { changes.unknown = true }     // pruned before this handle read it
            expected = seq + 1
            if !notificationState.ownSeqs.contains(seq) { sawForeign = true }
            guard let entry = statement.withBytes(1, { ChangeLog.decode($0, classes: byStoredName) }) else {
                changes.unknown = true
                continue
            }
            changes.merge(entry)
            notificationState.deliveredSeq = seq
        }
        // Another connection committed but logged nothing (a writer without the log): re-read.
        if externalCommits && !sawForeign { changes.unknown = true }
        notificationState.ownSeqs = []
        return changes
    }

    private var classesByStoredName: [String: ClassInfo] {
        var byName: [String: ClassInfo] = [:]
        for info in classes { byName[info.schema.storedName] = info }
        return byName
    }

    // MARK: The version a delivery describes
    //
    // A change set is delivered with the version it describes, as Realm does: under the lock, a
    // read transaction begins, and the change log, the observers' new contents and so the change
    // sets are all read in it; it stays open while the callbacks run, and every read through the
    // handle (from the callbacks, or from another thread meanwhile) reads that version, however
    // many commits other connections make meanwhile. It ends when the callbacks return (or when
    // another thread writes, refreshes or compacts through the handle: that call needs the file
    // as it is). Reads after the delivery see the latest commits again.

    /// Begins the read transaction a delivery is computed in and read in (under the lock, outside
    /// a write transaction). Not possible (an error beginning it): the delivery is computed and
    /// read without one, as before.
    func beginDeliveryRead(_ connection: Connection) {
        guard !inWriteTransaction else { return }
        parkedRows?.statement.reset()
        parkedRows = nil
        endHeldRead(connection)
        endDeliveryRead(connection)
        guard connection.isAutocommit else { return }
        do throws(DrumlinError) {
            try connection.statement("BEGIN").run()
            // BEGIN defers the snapshot to the first read: take it now, before the log is read.
            let statement = try connection.statement("SELECT 1 FROM _drumlin_meta LIMIT 1")
            defer { statement.reset() }
            _ = try statement.step()
        } catch {
            log(.warning, "Could not begin the read transaction for notifications: \(error.message)")
            if !connection.isAutocommit { Self.endReadTransaction(connection) }
            return
        }
        deliveryReadThread = UInt(pthread_self())
    }

    /// Ends the delivery's read transaction, if any (under the lock). Values read in it may be
    /// older than the file now: the read version moves, so bindings read them again.
    func endDeliveryRead(_ connection: Connection) {
        guard deliveryReadThread != 0 else { return }
        deliveryReadThread = 0
        parkedRows?.statement.reset()
        parkedRows = nil
        if !inWriteTransaction && !connection.isAutocommit { Self.endReadTransaction(connection) }
        bumpReadVersion()
    }

    /// Computes the deliveries of the changes up to the version this handle now reads, in a read
    /// transaction that `deliver` keeps open while the callbacks run (under the lock).
    func prepareDeliveriesInVersion(_ connection: Connection, skipping: Set<Int> = []) -> [() -> Void] {
        guard !observers.isEmpty else { return prepareDeliveries(connection, skipping: skipping) }
        beginDeliveryRead(connection)
        let deliveries = prepareDeliveries(connection, skipping: skipping)
        if deliveries.isEmpty { endDeliveryRead(connection) }
        return deliveries
    }

    /// Runs deliveries outside the lock, marking this thread as delivering so that a write from
    /// inside a callback is refused instead of deadlocking or recursing; then ends the read
    /// transaction they were delivered in (`prepareDeliveriesInVersion`).
    func deliver(_ deliveries: [() -> Void]) {
        guard !deliveries.isEmpty else { return }
        let me = UInt(pthread_self())
        let outer = deliveringThread.exchange(me, ordering: .acquiringAndReleasing)
        defer {
            deliveringThread.store(outer, ordering: .releasing)
            try? lock.withLock { () throws(DrumlinError) in
                if deliveryReadThread == me, let connection { endDeliveryRead(connection) }
            }
        }
        for delivery in deliveries { delivery() }
    }

    var isDeliveringOnThisThread: Bool { deliveringThread.load(ordering: .acquiring) == UInt(pthread_self()) }

    // MARK: Public

    /// Delivers changes committed by other handles, threads and processes since the last
    /// delivery to this handle's observers, on the calling thread. Returns whether the file
    /// changed. Inside a write transaction, or inside a notification callback, it does nothing
    /// and returns false. The corresponding C function is `drumlin_refresh`.
    @discardableResult
    public func refresh() throws(DrumlinError) -> Bool {
        if isDeliveringOnThisThread { return false }
        let (changed, deliveries) = try serialized { (connection) throws(DrumlinError) -> (Bool, [() -> Void]) in
            if inWriteTransaction { return (false, []) }
            let version = try dataVersion(connection)
            guard !observers.isEmpty, notificationState.positioned else {
                let changed = version != notificationState.dataVersion
                notificationState.dataVersion = version
                return (changed, [])
            }
            let changed = version != notificationState.dataVersion
            return (changed, changed ? prepareDeliveriesInVersion(connection) : [])
        }
        deliver(deliveries)
        return changed
    }

    /// Whether another connection committed since this handle last refreshed or delivered
    /// notifications: one cheap check, for an event loop that polls before calling `refresh()`.
    /// The corresponding C function is `drumlin_has_changes`.
    public var hasExternalChanges: Bool {
        get throws(DrumlinError) {
            try serialized { (connection) throws(DrumlinError) -> Bool in
                try dataVersion(connection) != notificationState.dataVersion
            }
        }
    }

    /// Commits, delivering this commit's changes to every observer except those of `tokens`
    /// (whose state still moves past it), as Realm's `write(withoutNotifying:)`.
    public func commit(withoutNotifying tokens: [NotificationToken]) throws(DrumlinError) {
        let skipping = Set(tokens.map(\.id))
        let deliveries = try serialized { (connection) throws(DrumlinError) -> [() -> Void] in
            try commitLocked(connection)
            return prepareDeliveriesInVersion(connection, skipping: skipping)
        }
        deliver(deliveries)
    }

    /// `write` that does not notify `tokens` of its own changes.
    @discardableResult
    public func write<R>(withoutNotifying tokens: [NotificationToken], _ body: () throws -> R) throws -> R {
        try beginWrite()
        do {
            let result = try body()
            try commit(withoutNotifying: tokens)
            return result
        } catch {
            if isInWriteTransaction { try? rollback() }
            throw error
        }
    }
}

// MARK: Observing

extension Results {
    /// Calls `callback` after each commit (and each `refresh()` that brings other handles'
    /// commits) that changes these results: which objects left, arrived or changed. With
    /// `keyPaths`, only changes to those properties count as modifications. The corresponding C
    /// function is `drumlin_results_observe`.
    public func observe(keyPaths: [String]? = nil, _ callback: @escaping (CollectionChange) -> Void) throws(DrumlinError) -> NotificationToken {
        try database.register { (connection) throws(DrumlinError) in
            try ResultsObserver(self, keyPaths: keyPaths, connection, callback: callback)
        }
    }
}

extension Object {
    /// Calls `callback` when the object's properties change (names, old and new values) or when
    /// it is deleted. The corresponding C function is `drumlin_object_observe`.
    public func observe(keyPaths: [String]? = nil, _ callback: @escaping (ObjectChange) -> Void) throws(DrumlinError) -> NotificationToken {
        let filter = try propertyFilter(keyPaths, info, database)
        return try database.register { (connection) throws(DrumlinError) in
            guard try database.exists(info, key, connection) else { throw database.invalidated(info) }
            return try ObjectObserver(self, filter: filter, connection, callback: callback)
        }
    }
}

extension CollectionAccessor {
    /// Calls `callback` when the list or set changes: indexes deleted, inserted, and modified
    /// (for links, also when a linked object changes; `keyPaths` names its properties that
    /// count). The corresponding C functions are `drumlin_list_observe` and `drumlin_set_observe`.
    public func observe(keyPaths: [String]? = nil, _ callback: @escaping (CollectionChange) -> Void) throws(DrumlinError) -> NotificationToken {
        try database.register { (connection) throws(DrumlinError) in
            guard try database.exists(info, object.key, connection) else { throw database.invalidated(info) }
            return try CollectionObserver(self, keyPaths: keyPaths, connection, callback: callback)
        }
    }
}

extension Map {
    /// Calls `callback` when the dictionary changes: keys removed, added, and whose value changed.
    /// The corresponding C function is `drumlin_dict_observe`.
    public func observeDictionary(_ callback: @escaping (DictionaryChange) -> Void) throws(DrumlinError) -> NotificationToken {
        try database.register { (connection) throws(DrumlinError) in
            guard try database.exists(info, object.key, connection) else { throw database.invalidated(info) }
            return try DictionaryObserver(self, connection, callback: callback)
        }
    }
}
