import Synchronization
internal import DrumlinEngine

/// An open database, as Realm Swift's `Realm`: objects, writes and queries.
///
/// ```swift
/// let realm = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: "demo", objectTypes: [Dog.self]))
/// try realm.write {
///     realm.add(Dog(value: ["name": "Rex"]))
/// }
/// let dogs = realm.objects(Dog.self).filter("name BEGINSWITH %@", "R")
/// ```
///
/// `Realm` values of one thread and configuration share one open handle.
public struct Realm: @unchecked Sendable, Equatable {
    let context: _RealmContext

    init(context: _RealmContext) { self.context = context }

    /// Opens the default configuration (`Realm.Configuration.defaultConfiguration`).
    public init() throws { try self.init(configuration: .defaultConfiguration) }

    /// Opens (or creates) the database a configuration describes.
    public init(configuration: Configuration) throws {
        context = try _RealmContext.shared(for: configuration)
    }

    /// Opens the file at `fileURL` with the default configuration's other settings.
    public init(fileURL: URL) throws {
        var configuration = Configuration.defaultConfiguration
        configuration.fileURL = fileURL
        try self.init(configuration: configuration)
    }

    public static func == (lhs: Realm, rhs: Realm) -> Bool { lhs.context === rhs.context }

    public var configuration: Configuration { context.configuration }

    /// The classes stored in this database.
    public var schema: Schema {
        let modelled = context.managedTypes.map { ObjectSchema(ClassMeta.of($0)) }
        let names = Set(modelled.map(\.className))
        let stored = context.database.schema.objectSchemas.filter { !names.contains($0.name) }.map(ObjectSchema.init(stored:))
        return Schema(modelled + stored)
    }

    // MARK: Transactions

    /// The file's sync session when it was opened with `Configuration.syncConfiguration`, else nil.
    public var syncSession: SyncSession? { context.syncSession }

    public var isInWriteTransaction: Bool { context.database.isInWriteTransaction }

    /// Runs `block` in a write transaction: committed when it returns, rolled back when it throws.
    /// The commit notifies every observer except those of `tokens` (whose observers still move
    /// past it), as Realm's `write(withoutNotifying:)`.
    @discardableResult
    public func write<Result>(withoutNotifying tokens: [NotificationToken] = [], _ block: () throws -> Result) throws -> Result {
        // Unlike `beginWrite()`, a write that cannot begin (another process writing past the
        // busy timeout, a transaction already open, a frozen Realm) is thrown.
        try checkWritable()
        do {
            try context.database.beginWrite()
        } catch {
            throw Realm.Error(error)
        }
        context.didWrite()
        let result: Result
        do {
            result = try block()
        } catch {
            if isInWriteTransaction { cancelWrite() }
            throw error
        }
        if isInWriteTransaction { try commitWrite(withoutNotifying: tokens) }
        return result
    }

    /// Begins a write transaction (waiting for other writers); stops the program when one is
    /// already open on this handle, as Realm raises there.
    public func beginWrite() {
        do {
            try checkWritable()
            try context.database.beginWrite()
        } catch {
            _fatal(Realm.Error(error))
        }
        context.didWrite()
    }

    /// Commits the write transaction, notifying every observer except those of `tokens`.
    public func commitWrite(withoutNotifying tokens: [NotificationToken] = []) throws {
        do {
            try context.database.commit(withoutNotifying: tokens.compactMap(\.engine))
        } catch {
            context.forgetRemovedClasses()
            throw Realm.Error(error)
        }
        context.didWrite()
    }

    /// Rolls back the write transaction: every change since `beginWrite()` is undone.
    public func cancelWrite() {
        do {
            try context.database.rollback()
        } catch {
            _fatal(Realm.Error(error))
        }
        context.forgetRemovedClasses()
        context.didWrite()
    }

    /// Delivers what other handles (threads, processes) committed since the last delivery to
    /// this handle's observers, on the calling thread. Returns whether anything changed. Reads
    /// always see the latest committed state; this also drops rows cached by managed objects.
    @discardableResult
    public func refresh() -> Bool {
        context.didWrite()
        do {
            return try context.database.refresh()
        } catch {
            _fatal(Realm.Error(error))
        }
    }

    // MARK: Adding and creating

    /// How `add` and `create` treat an object whose primary key exists.
    public enum UpdatePolicy: Int, Sendable {
        /// An existing primary key is an error.
        case error = 1
        /// Upsert, writing only the values that changed.
        case modified = 3
        /// Upsert, writing every value.
        case all = 2

        var engineMode: UpdateMode {
            switch self {
            case .error: .never
            case .modified: .modified
            case .all: .all
            }
        }
    }

    /// Adds an unmanaged object and every unmanaged object it links to; they become managed.
    /// Stops the program on an error (a duplicate primary key, no write transaction), as Realm does.
    public func add(_ object: ObjectBase, update: UpdatePolicy = .error) {
        do {
            try context.add(object, update: update)
        } catch {
            _fatal(error)
        }
    }

    /// Adds a sequence of objects (see `add(_:update:)`).
    public func add<S: Sequence>(_ objects: S, update: UpdatePolicy = .error) where S.Iterator.Element: ObjectBase {
        do {
            try context.addMany(objects.map { $0 as ObjectBase }, update: update)
        } catch {
            _fatal(error)
        }
    }

    /// Creates an object from a value (a dictionary, an array in property order, or an object)
    /// and returns it managed.
    @discardableResult
    public func create<T: Object>(_ type: T.Type, value: Any = [String: Any](), update: UpdatePolicy = .error) -> T {
        let object = type.init()
        do {
            // An upsert from a dictionary writes only the keys it gives, as in Realm Swift.
            if update != .error, let dictionary = value as? [String: Any], let pk = object._meta.primaryKeyPosition,
               let key = dictionary[object._meta.properties[pk].name],
               let existing = self.object(ofType: type, forPrimaryKey: key) {
                for (name, item) in dictionary where name != object._meta.properties[pk].name {
                    let position = existing._position(named: name)
                    try existing._meta.properties[position].anySet(existing, position, item)
                }
                return existing
            }
            if let other = value as? ObjectBase, other._managedState != nil {
                try object._assign(from: other)
            } else {
                try object._assign(from: value)
            }
            try context.add(object, update: update)
        } catch {
            _fatal(error)
        }
        return object
    }

    // MARK: Deleting

    /// Deletes a managed object (and the embedded objects it owns).
    public func delete(_ object: ObjectBase) {
        do {
            try context.engineObject(object).delete()
        } catch {
            _fatal(Realm.Error(error))
        }
        context.didWrite()
    }

    public func delete<S: Sequence>(_ objects: S) where S.Iterator.Element: ObjectBase {
        for object in Array(objects) { delete(object) }
    }

    public func delete<Element: ObjectBase>(_ objects: Results<Element>) {
        do {
            _ = try objects.engineResults().deleteAll()
        } catch {
            _fatal(Realm.Error(error))
        }
        context.didWrite()
    }

    /// Deletes every object of every class.
    public func deleteAll() {
        for type in context.managedTypes where ClassMeta.of(type).kind == .topLevel {
            do {
                _ = try context.database.objects(type.className()).deleteAll()
            } catch {
                _fatal(Realm.Error(error))
            }
        }
        context.didWrite()
    }

    // MARK: Reading

    /// Every object of a class, as live results.
    public func objects<Element: Object>(_ type: Element.Type) -> Results<Element> {
        Results(context: context, source: .all(type))
    }

    /// The object with a primary key, or nil. Its row is read with it (one statement).
    public func object<Element: Object, KeyType>(ofType type: Element.Type, forPrimaryKey key: KeyType) -> Element? {
        do {
            let handleClass = try context.handleClass(type)
            guard let pkPosition = handleClass.meta.primaryKeyPosition else {
                throw Realm.Error(.invalidArgument, "'\(handleClass.meta.name)' does not have a primary key defined")
            }
            // The common key types go straight to the engine, which checks them against the class.
            let keyValue: EValue
            if KeyType.self == Int.self {
                keyValue = .int(Int64(unsafeBitCast(key, to: Int.self)))
            } else {
                switch key {
                case let string as String: keyValue = .string(string)
                case let id as ObjectId: keyValue = .objectId(id.raw)
                default: keyValue = try handleClass.meta.properties[pkPosition].accessor.primaryKeyRaw(key)
                }
            }
            // A class whose row values all go into storages is read straight into them, in one
            // pass over the row.
            if let plan = handleClass.rowFill {
                var found: Element?
                let context = self.context
                var failure: (any Swift.Error)?
                _ = try context.database.visitObjectRow(classIndex: handleClass.engineClassIndex, primaryKey: keyValue,
                                                        propertyIndices: handleClass.rowEngineIndices) { (row) throws(EError) in
                    // The row is of this class: a primary key lookup does not look into subclasses.
                    let instance = context.readInstance(of: handleClass, as: type, key: row.key)
                    failure = try context.fill(instance, from: row, plan)
                    found = instance
                }
                if let failure { throw failure }
                return found
            }
            guard let (object, row) = try context.database.objectValues(classIndex: handleClass.engineClassIndex, primaryKey: keyValue,
                                                                        propertyIndices: handleClass.rowEngineIndices) else {
                return nil
            }
            return context.wrap(object, as: type, row: row)
        } catch {
            _fatal(Realm.Error(error))
        }
    }

    /// Every object of a class named at run time, with properties read by name.
    public func dynamicObjects(_ className: String) -> Results<DynamicObject> {
        do {
            let handleClass = try context.handleClass(named: className)
            return Results(context: context, source: .dynamic(handleClass))
        } catch {
            _fatal(error)
        }
    }

    /// True when no class has any object.
    public var isEmpty: Bool {
        context.managedTypes.allSatisfy { type in
            ClassMeta.of(type).kind != .topLevel || ((try? context.database.count(type.className())) ?? 0) == 0
        }
    }

    /// Deletes the file of a configuration (and its -wal and -shm companions); false when there
    /// was none.
    @discardableResult
    public static func deleteFiles(for configuration: Configuration) throws -> Bool {
        guard let url = configuration.fileURL, configuration.inMemoryIdentifier == nil else { return false }
        let manager = FileManager.default
        let existed = manager.fileExists(atPath: url.path)
        for suffix in ["", "-wal", "-shm"] where manager.fileExists(atPath: url.path + suffix) {
            try manager.removeItem(atPath: url.path + suffix)
        }
        return existed
    }
}

extension Realm {
    /// Where and how to open a database, as Realm Swift's `Realm.Configuration`.
    public struct Configuration: @unchecked Sendable {
        /// The file; `defaultFileURL` (default.realm in the current directory) unless set.
        public var fileURL: URL?
        /// An in-memory database, shared by the `Realm` values of one thread with this identifier.
        public var inMemoryIdentifier: String?
        public var readOnly: Bool
        /// The schema version stored in the file; opening with a lower one is an error.
        public var schemaVersion: UInt64
        /// Runs once when the file's stored schema version is lower than `schemaVersion`, after
        /// the schema change and before it commits (see docs/migrations.md). Without it, a higher
        /// version still applies the change with Realm's conversions.
        public var migrationBlock: MigrationBlock?
        /// When the stored schema needs a migration, delete the file and start afresh.
        public var deleteRealmIfMigrationNeeded: Bool
        /// The model classes (and, through their links, the classes they reach). Without it, the
        /// classes used so far in the process: Linux has no class enumeration (see docs/swift.md).
        public var objectTypes: [ObjectBase.Type]?
        /// How long a write waits for another process's write before failing with a busy error
        /// that says so (Drumlin's own setting; 5 seconds by default).
        public var busyTimeout: TimeInterval = 5
        /// Every commit durable against power loss too (an fsync per commit). Off (the default): a
        /// crash of the process loses nothing; a power loss may roll back the last commits.
        public var durableAgainstPowerLoss = false
        /// Check the file with SQLite's quick check when opening it, and refuse a damaged file
        /// with a corrupt-file error (Drumlin's own setting; it reads the whole file). Off by default.
        public var quickCheckOnOpen = false
        /// Receives what the database reports: opens and schema changes (`.info`), queries slower
        /// than `slowQueryThreshold` (`.warning`) and failed calls (`.error`). Called on the thread
        /// that made the call; it must not use the Realm.
        public var logger: (@Sendable (Realm.LogLevel, String) -> Void)?
        /// Queries slower than this are reported to `logger`; nil: never.
        public var slowQueryThreshold: TimeInterval?
        /// Asked when the file is first opened in the process, with its size and the bytes in
        /// use (`totalBytes`, `usedBytes`): true compacts it before use. Not with `readOnly`.
        public var shouldCompactOnLaunch: (@Sendable (_ totalBytes: Int, _ usedBytes: Int) -> Bool)?
        /// A file copied to `fileURL` when no file is there yet, before opening.
        public var seedFilePath: URL?
        /// The most frozen versions of the file alive at once (see `Realm.freeze()`): a write
        /// that begins while more are alive fails. Nil: no limit.
        public var maximumNumberOfActiveVersions: UInt?
        /// The 64-byte key that encrypts the file (docs/encryption.md); nil: not encrypted. A key
        /// of another length fails the open with an invalid-argument error; the wrong key, none for
        /// an encrypted file or one for a plain file with `DECRYPTION_FAILED` ("Realm file
        /// decryption failed"). Ignored for in-memory Realms, which are never on disk.
        public var encryptionKey: Data?
        /// Uploads the file's asymmetric objects to a drumlin-sync service (Data Ingest,
        /// docs/sync.md); see `SyncConfiguration` and `Realm.syncSession`. Not with `readOnly` or
        /// `inMemoryIdentifier` (the upload queue lives in the file).
        public var syncConfiguration: SyncConfiguration?

        public init(fileURL: URL? = Configuration.defaultFileURL, inMemoryIdentifier: String? = nil,
                    encryptionKey: Data? = nil, readOnly: Bool = false, schemaVersion: UInt64 = 0,
                    migrationBlock: MigrationBlock? = nil, deleteRealmIfMigrationNeeded: Bool = false,
                    shouldCompactOnLaunch: (@Sendable (Int, Int) -> Bool)? = nil, objectTypes: [ObjectBase.Type]? = nil,
                    seedFilePath: URL? = nil, syncConfiguration: SyncConfiguration? = nil) {
            self.migrationBlock = migrationBlock
            self.syncConfiguration = syncConfiguration
            self.shouldCompactOnLaunch = shouldCompactOnLaunch
            self.seedFilePath = seedFilePath
            self.fileURL = inMemoryIdentifier == nil ? fileURL : nil
            self.inMemoryIdentifier = inMemoryIdentifier
            self.encryptionKey = encryptionKey
            self.readOnly = readOnly
            self.schemaVersion = schemaVersion
            self.deleteRealmIfMigrationNeeded = deleteRealmIfMigrationNeeded
            self.objectTypes = objectTypes
        }

        /// default.realm in the current directory.
        public static var defaultFileURL: URL {
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("default.realm")
        }

        private static let defaultStorage = Mutex<Configuration>(Configuration())

        /// The configuration `Realm()` opens.
        public static var defaultConfiguration: Configuration {
            get { defaultStorage.withLock { $0 } }
            set { defaultStorage.withLock { $0 = newValue } }
        }

        /// Which open handle a configuration shares.
        var identity: String {
            if let inMemoryIdentifier { return "memory:" + inMemoryIdentifier }
            return "file:" + (fileURL ?? Self.defaultFileURL).standardizedFileURL.path
        }
    }
}
