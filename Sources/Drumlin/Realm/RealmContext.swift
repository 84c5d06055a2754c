import Synchronization
internal import DrumlinEngine
#if canImport(Glibc)
import Glibc
#endif

/// How each value of a class's row goes into an object's storages, by slot: the common
/// conversions (`loads`) and the general loader of each storage (`loaders`). One object, so a
/// read takes one reference to it.
final class RowFill {
    let loads: [SlotLoad]
    let loaders: [(ObjectBase, _RawItem, _RealmContext?, UInt64) throws -> Void]

    init(loads: [SlotLoad], loaders: [(ObjectBase, _RawItem, _RealmContext?, UInt64) throws -> Void]) {
        self.loads = loads
        self.loaders = loaders
    }
}

/// A model class as one open database sees it: the engine's class index, the engine's index of
/// each property (by the class's position), and which properties live in the row.
final class HandleClass: @unchecked Sendable {
    let meta: ClassMeta
    let engineClassIndex: Int
    let engineIndices: [Int]
    /// Engine indexes of the row values (scalars, links, mixed), read together.
    let rowEngineIndices: [Int]
    /// For each position, its slot in the row (-1 for collections and backlinks).
    let rowSlot: [Int]
    /// (slot, load) of the row values kept in storages, once the class knows every storage.
    private var loadersCache: [(slot: Int, load: (ObjectBase, _RawItem, _RealmContext?, UInt64) throws -> Void)]?
    private var loadersMissedAt = -1

    /// How a wrapped object's row values go into its storages (nil while some storage of the
    /// class was never accessed).
    var loaders: [(slot: Int, load: (ObjectBase, _RawItem, _RealmContext?, UInt64) throws -> Void)]? {
        if let loadersCache { return loadersCache }
        // Not worked out again until the class learns another storage.
        let known = meta.knownStorageCount
        if known == loadersMissedAt { return nil }
        let accesses = meta.accesses
        var result: [(slot: Int, load: (ObjectBase, _RawItem, _RealmContext?, UInt64) throws -> Void)] = []
        for (position, slot) in rowSlot.enumerated() where slot >= 0 {
            guard let access = accesses[position] else {
                loadersMissedAt = known
                return nil
            }
            if let load = access.load { result.append((slot, load)) }
        }
        loadersCache = result
        return result
    }

    /// How a row read by `rowEngineIndices` goes straight into a new object's storages, in one
    /// pass over the row, when every row value goes into a storage (nil otherwise).
    var rowFill: RowFill? {
        if let rowFillCache { return rowFillCache }
        if hasRowValuesNotKept { return nil }
        guard loaders != nil else { return nil }
        let accesses = meta.accesses
        var loads = [SlotLoad?](repeating: nil, count: rowEngineIndices.count)
        var bySlot = [((ObjectBase, _RawItem, _RealmContext?, UInt64) throws -> Void)?](repeating: nil, count: rowEngineIndices.count)
        for (position, slot) in rowSlot.enumerated() where slot >= 0 {
            // Every storage is known here (`loaders` is not nil); a storage without a loader
            // holds a value that is not kept.
            guard let access = accesses[position], let load = access.load else {
                hasRowValuesNotKept = true
                return nil
            }
            bySlot[slot] = load
            loads[slot] = SlotLoad(access)
        }
        let result = RowFill(loads: loads.map { $0! }, loaders: bySlot.map { $0! })
        rowFillCache = result
        return result
    }
    @exclusivity(unchecked) private var rowFillCache: RowFill?
    /// Set once the class is known to have a row value that no storage keeps (a link, a mixed
    /// value): the answer is then nil for good, and is not worked out again on every read.
    @exclusivity(unchecked) private var hasRowValuesNotKept = false

    init(meta: ClassMeta, database: EDatabase) throws {
        self.meta = meta
        do {
            engineClassIndex = try database.classIndex(meta.name)
            engineIndices = try meta.properties.map { property throws(EError) in
                try database.propertyIndex(meta.name, property.name)
            }
        } catch {
            throw Realm.Error(error)
        }
        var rowIndices: [Int] = []
        var slots: [Int] = []
        for (position, property) in meta.properties.enumerated() {
            if property.shape.isRowValue && property.shape.type != "linkingObjects" {
                slots.append(rowIndices.count)
                rowIndices.append(engineIndices[position])
            } else {
                slots.append(-1)
            }
        }
        rowEngineIndices = rowIndices
        rowSlot = slots
    }
}

/// The version of a handle's state (see `_RealmContext.counter`). Implementation detail of
/// `@Persisted`.
public final class _VersionCounter {
    @usableFromInline @exclusivity(unchecked) var value: UInt64 = 0
    init() {}
}

/// One open database as the Swift face uses it; shared by the `Realm` values of one thread and
/// configuration, and kept alive by them and by their managed objects. Implementation detail of
/// `Realm`.
public final class _RealmContext: @unchecked Sendable {
    let configuration: Realm.Configuration
    private(set) var database: EDatabase
    /// Moves on every write through this handle, commit, rollback and refresh: values that
    /// managed objects read (rows, storages) are valid while it stays.
    let counter = _VersionCounter()
    var version: UInt64 { counter.value }
    private var classes: [ObjectIdentifier: HandleClass] = [:] {
        didSet { classList = classes.map { ($0.key, $0.value) } }
    }
    /// `classes` as a list: a short scan by identity, cheaper than hashing for the few classes of
    /// a schema, on every object read.
    @exclusivity(unchecked) private var classList: [(ObjectIdentifier, HandleClass)] = []
    /// By the engine's class index (small and dense): an array read, on every object made.
    private var classesByEngineIndex: [HandleClass?] = []
    private var schemaTypes: [ObjectBase.Type]

    init(configuration: Realm.Configuration, types: [ObjectBase.Type]) throws {
        self.configuration = configuration
        schemaTypes = Self.closure(of: types)
        database = try Self.open(configuration, schemaTypes)
        isFrozen = false
        try bindClasses()
        if let sync = configuration.syncConfiguration {
            syncSession = try SyncSession.attach(database, sync, logger: configuration.logger)
        }
    }

    /// The file's sync session (shared by the contexts of every thread), kept running by them.
    private(set) var syncSession: SyncSession?

    /// A frozen context: the committed state of `source`'s database as it is now, read-only, for
    /// use from any thread (Realm_Threads.swift).
    private init(frozenFrom source: _RealmContext) throws {
        configuration = source.configuration
        schemaTypes = source.schemaTypes
        do {
            database = try source.database.frozenSnapshot()
        } catch {
            throw Realm.Error(error)
        }
        isFrozen = true
        activeVersion = ActiveVersion(source.configuration.identity)
        try bindClasses()
    }

    /// Whether this is a frozen context (`Realm.freeze()`).
    let isFrozen: Bool
    /// Counts this frozen version among the file's active versions while it lives.
    private var activeVersion: ActiveVersion?
    /// Realm's `autorefresh` setting of this handle (see docs/swift.md).
    var autorefresh = true
    /// The frozen context of the state last frozen, reused while nothing changed since and
    /// something still holds it (weak: a frozen version lives as long as its users).
    private var frozenCache: (version: UInt64, readVersion: UInt64)?
    private weak var frozenCached: _RealmContext?

    /// The frozen context of this handle's current state (itself when frozen already).
    func frozen() throws -> _RealmContext {
        if isFrozen { return self }
        if database.isInWriteTransaction {
            throw Realm.Error(.wrongTransactionState, "Cannot freeze a Realm, object or collection inside a write transaction.")
        }
        if let cache = frozenCache, let cached = frozenCached, cache.version == version,
           cache.readVersion == database.readVersion, !((try? database.hasExternalChanges) ?? true) {
            return cached
        }
        let context = try _RealmContext(frozenFrom: self)
        frozenCache = (version, database.readVersion)
        frozenCached = context
        return context
    }

    func didWrite() { counter.value &+= 1 }

    /// The classes reachable from `types` through links, collections and backlinks.
    static func closure(of types: [ObjectBase.Type]) -> [ObjectBase.Type] {
        var seen: Set<ObjectIdentifier> = []
        var result: [ObjectBase.Type] = []
        var pending = types
        while let type = pending.popLast() {
            guard seen.insert(ObjectIdentifier(type)).inserted else { continue }
            result.append(type)
            pending.append(contentsOf: ClassMeta.of(type).linkedTypes)
        }
        return result.sorted { $0.className() < $1.className() }
    }

    static func schemaJSON(_ types: [ObjectBase.Type]) -> EJSON {
        .array(types.map { ClassMeta.of($0).schemaJSON })
    }

    private static func open(_ configuration: Realm.Configuration, _ types: [ObjectBase.Type]) throws -> EDatabase {
        do {
            let schema = try ESchema(json: schemaJSON(types))
            var options = OpenOptions(schemaVersion: configuration.schemaVersion, readOnly: configuration.readOnly,
                                      deleteIfMigrationNeeded: configuration.deleteRealmIfMigrationNeeded)
            options.inMemory = configuration.inMemoryIdentifier != nil
            options.migration = configuration.migrationBlock.map(Realm.Configuration.engineMigration)
            options.busyTimeout = .milliseconds(Int64((max(configuration.busyTimeout, 0) * 1000).rounded()))
            options.synchronous = configuration.durableAgainstPowerLoss ? .full : .normal
            options.quickCheck = configuration.quickCheckOnOpen
            if let key = configuration.encryptionKey, configuration.inMemoryIdentifier == nil {
                options.encryptionKey = try EncryptionKey(bytes: key)
            }
            options.slowQueryThreshold = configuration.slowQueryThreshold.map { .milliseconds(Int64((max($0, 0) * 1000).rounded())) }
            if let logger = configuration.logger {
                options.logger = { level, message in logger(Realm.LogLevel(level), message) }
            }
            let path = configuration.inMemoryIdentifier != nil ? ":memory:" : (configuration.fileURL?.path ?? Realm.Configuration.defaultFileURL.path)
            if configuration.syncConfiguration != nil { try SyncSession.checkOpen(path: path, options: options) }
            // No model class at all (a tool reading any file with `dynamicObjects`): the file's
            // own schema, as the C and Python faces open without one.
            if types.isEmpty, configuration.inMemoryIdentifier == nil, access(path, F_OK) == 0 {
                return try EDatabase(path: path, options: options)
            }
            return try EDatabase(path: path, schema: schema, options: options)
        } catch {
            throw Realm.Error(error)
        }
    }

    private func bindClasses() throws {
        classes = [:]
        classesByEngineIndex = []
        dynamicClasses = [:]
        for type in schemaTypes {
            let handleClass = try HandleClass(meta: ClassMeta.of(type), database: database)
            classes[ObjectIdentifier(type)] = handleClass
            setClass(handleClass)
        }
        // Classes of the file that no model class describes are reachable by name, as DynamicObjects.
        for objectSchema in database.schema.objectSchemas where !classes.values.contains(where: { $0.meta.name == objectSchema.name }) {
            let kind: ClassMeta.Kind = objectSchema.kind == .embedded ? .embedded : objectSchema.kind == .asymmetric ? .asymmetric : .topLevel
            let handleClass = try HandleClass(meta: ClassMeta(storedClass: objectSchema.name, kind: kind), database: database)
            dynamicClasses[objectSchema.name] = handleClass
            setClass(handleClass)
        }
    }

    private func setClass(_ handleClass: HandleClass) {
        let index = handleClass.engineClassIndex
        if classesByEngineIndex.count <= index { classesByEngineIndex += Array(repeating: nil, count: index + 1 - classesByEngineIndex.count) }
        classesByEngineIndex[index] = handleClass
    }

    /// Stored classes without a model class, by name.
    private var dynamicClasses: [String: HandleClass] = [:]

    /// The class as this database sees it. Without `objectTypes`, a class first used after the
    /// database was opened is added to it then (with the classes it links to), inside the write
    /// transaction if one is open: its tables commit or roll back with it (`EDatabase.addClasses`).
    /// A model class that differs from the class of that name open on this handle (a class opened
    /// by the file's stored schema, since given a property) needs the database opened again with
    /// it: that is done outside a write transaction; inside one it is an error.
    func handleClass(_ type: ObjectBase.Type) throws -> HandleClass {
        let identity = ObjectIdentifier(type)
        for (known, handleClass) in classList where known == identity { return handleClass }
        let name = type.className()
        if configuration.objectTypes != nil {
            throw Realm.Error(.noSuchClass, "Object type '\(name)' is not managed by the Realm. Add it to Realm.Configuration.objectTypes.")
        }
        let reached = Self.closure(of: [type])
        do {
            _ = try database.addClasses(try ESchema(json: Self.schemaJSON(reached)))
        } catch where error.code == .migrationRequired && error.message.hasPrefix("Cannot change classes")
                        && !database.isInWriteTransaction {
            let types = Self.closure(of: schemaTypes + [type] + ClassMeta.registeredTypes)
            let reopened = try Self.open(configuration, types)
            database = reopened
            schemaTypes = types
            try bindClasses()
            counter.value &+= 1
            return classes[ObjectIdentifier(type)]!
        } catch {
            throw Realm.Error(error)
        }
        for added in reached where classes[ObjectIdentifier(added)] == nil {
            let handleClass = try HandleClass(meta: ClassMeta.of(added), database: database)
            classes[ObjectIdentifier(added)] = handleClass
            dynamicClasses[handleClass.meta.name] = nil
            setClass(handleClass)
            schemaTypes.append(added)
        }
        counter.value &+= 1
        return classes[identity]!
    }

    /// Drops the classes the engine removed from the handle: a write transaction that added them
    /// rolled back (their tables went with it).
    func forgetRemovedClasses() {
        let count = database.schema.objectSchemas.count
        guard classesByEngineIndex.count > count else { return }
        classes = classes.filter { $0.value.engineClassIndex < count }
        dynamicClasses = dynamicClasses.filter { $0.value.engineClassIndex < count }
        classesByEngineIndex.removeSubrange(count...)
        schemaTypes = schemaTypes.filter { classes[ObjectIdentifier($0)] != nil }
    }

    func handleClass(engineIndex: Int) -> HandleClass? {
        engineIndex >= 0 && engineIndex < classesByEngineIndex.count ? classesByEngineIndex[engineIndex] : nil
    }

    func handleClass(named name: String) throws -> HandleClass {
        if let found = classes.values.first(where: { $0.meta.name == name }) { return found }
        if let found = dynamicClasses[name] { return found }
        throw Realm.Error(.noSuchClass, "Object type '\(name)' is not managed by the Realm.")
    }

    var managedTypes: [ObjectBase.Type] { schemaTypes }

    // MARK: Objects

    /// A managed Swift object for an engine object, of `type` or, for a subclass's row, of the
    /// class the row belongs to.
    func wrap<T: ObjectBase>(_ object: EObject, as type: T.Type, row: [EValue]? = nil) -> T {
        wrap(object, of: handleClass(engineIndex: object.classIndex)!, as: type, row: row)
    }

    /// `wrap` for a caller that has the object's class at hand.
    func wrap<T: ObjectBase>(_ object: EObject, of handleClass: HandleClass, as type: T.Type, row: [EValue]? = nil) -> T {
        let state = ManagedState(context: self, handleClass: handleClass, object: object)
        if let row {
            state.row = row
            state.rowVersion = version
        }
        let instance = managedInstance(of: handleClass, as: type, state)
        // Values read with the row go into the storages, so that the first reads are field reads.
        if let row, let loaders = handleClass.loaders {
            let version = version
            do {
                for loader in loaders { try loader.load(instance, _RawItem(row[loader.slot]), self, version) }
            } catch {
                _fatal(Realm.Error(error))
            }
        }
        return instance
    }

    /// A new instance of `type` (or, for a subclass's row, of the row's class) made managed by
    /// `state`.
    func managedInstance<T: ObjectBase>(of handleClass: HandleClass, as type: T.Type, _ state: ManagedState) -> T {
        let instance = newInstance(of: handleClass, as: type)
        instance._managedState = state
        return instance
    }

    /// A new instance of `type` (or, for a subclass's row, of the row's class), managed as the
    /// object with key `key`, read just now.
    func readInstance<T: ObjectBase>(of handleClass: HandleClass, as type: T.Type, key: Int64) -> T {
        let instance = newInstance(of: handleClass, as: type)
        instance._setRead(context: self, handleClass: handleClass, key: key)
        return instance
    }

    /// Puts the values of a row read by `handleClass.rowEngineIndices` into `instance`'s storages,
    /// in one pass over the row (`HandleClass.rowFill`); returns the first error of a
    /// conversion, if any (the row is read to its end either way).
    @inline(__always)
    func fill(_ instance: ObjectBase, from row: ObjectRow, _ plan: RowFill) throws(EError) -> (any Swift.Error)? {
        let version = self.version
        var failure: (any Swift.Error)?
        try row.forEach { (slot, value) throws(EError) in
            guard failure == nil else { return }
            do {
                if try !plan.loads[slot].store(value, into: instance, version: version) {
                    try plan.loaders[slot](instance, _RawItem(value), self, version)
                }
            } catch {
                failure = error
            }
        }
        return failure
    }

    private func newInstance<T: ObjectBase>(of handleClass: HandleClass, as type: T.Type) -> T {
        let instance: T
        if handleClass.meta.type == type {
            instance = type.init()
        } else if let exact = handleClass.meta.type.init() as? T {
            instance = exact
        } else {
            instance = type.init()
        }
        if instance._metaCache !== handleClass.meta { instance._metaCache = handleClass.meta }
        return instance
    }

    func object<T: ObjectBase>(_ link: ObjectLink, as type: T.Type) -> T {
        do {
            // A link to an object of the model class asked for: its row is read now, in one
            // statement, into a new instance (as a read by primary key does), so reading its
            // properties next takes no call. A link read from a current row points at an object
            // that exists; a deleted one is the engine's error.
            if let handleClass = handleClass(engineIndex: link.classIndex), handleClass.meta.type == type {
                var found: T?
                var failure: (any Swift.Error)?
                try database.visitValues(classIndex: link.classIndex, key: link.key,
                                         propertyIndices: handleClass.rowEngineIndices) { (row) throws(EError) in
                    if let plan = handleClass.rowFill {
                        let instance = readInstance(of: handleClass, as: type, key: row.key)
                        failure = try fill(instance, from: row, plan)
                        found = instance
                    } else {
                        var values: [EValue] = []
                        values.reserveCapacity(row.count)
                        try row.forEach { (_, value) throws(EError) in values.append(try value.value()) }
                        found = wrap(row.object, of: handleClass, as: type, row: values)
                    }
                }
                if let failure { throw failure }
                if let found { return found }
            }
            guard let object = try database.object(link) else {
                _fatal(Realm.Error(.invalidatedObject, "The linked object no longer exists."))
            }
            return wrap(object, as: type)
        } catch {
            _fatal(Realm.Error(error))
        }
    }

    /// The engine object of a managed object (of this database), rebinding objects read before
    /// the database was reopened.
    func engineObject(_ object: ObjectBase) throws -> EObject {
        guard let state = object._managedState else {
            throw Realm.Error(.invalidArgument, "Object is unmanaged: add it to a Realm first.")
        }
        guard state.context === self else {
            throw Realm.Error(.invalidArgument, "Object is already managed by another Realm. Use create instead to copy it into this Realm.")
        }
        return state.object
    }

    /// The update policy of the `add` or `create` in progress, which the unmanaged objects it links
    /// to are added with too (as in Realm Swift: an upsert updates linked objects with existing
    /// primary keys); `.error` outside one.
    private var linkUpdatePolicy: Realm.UpdatePolicy = .error

    /// Adds an unmanaged object (and the unmanaged objects it links to, with the same update
    /// policy); a managed object of this database is returned as it is.
    @discardableResult
    func add(_ object: ObjectBase, update: Realm.UpdatePolicy) throws -> EObject {
        let outer = linkUpdatePolicy
        linkUpdatePolicy = update
        defer { linkUpdatePolicy = outer }
        if let state = object._managedState {
            guard state.context === self else {
                throw Realm.Error(.invalidArgument, "Object is already managed by another Realm. Use create instead to copy it into this Realm.")
            }
            return state.object
        }
        let handleClass = try handleClass(type(of: object))
        let meta = handleClass.meta
        if meta.kind == .embedded {
            throw Realm.Error(.invalidArgument, "Cannot add an object of embedded type '\(meta.name)' on its own: assign it to a property of its parent.")
        }
        if update != .error, object._givenByName, let existing = try updateGivenKeys(object, handleClass) { return existing }
        let readers = meta.accesses
        let current = Self.unmanagedValues(of: object, meta)
        var values: [(index: Int, value: EValue)] = []
        var deferred: [(Int, Any)] = []
        var embedded: [(Int, ObjectBase)] = []
        values.reserveCapacity(meta.properties.count)
        for (position, property) in meta.properties.enumerated() {
            if property.shape.type == "linkingObjects" { continue }
            if property.shape.isRowValue && property.shape.type != "object" {
                let raw: EValue
                if object._overrides?[position] == nil, let reader = readers[position] {
                    raw = try reader.raw(object).value
                } else {
                    raw = try property.accessor.raw(current(position))
                }
                values.append((handleClass.engineIndices[position], raw))
            } else {
                let value = current(position)
                if let raw = try createdWith(property, value) {
                    values.append((handleClass.engineIndices[position], raw))
                    if case .dictionary = raw, let target = value as? ObjectBase { embedded.append((position, target)) }
                } else {
                    deferred.append((position, value))
                }
            }
        }
        let created: EObject
        do {
            created = try database.create(classIndex: handleClass.engineClassIndex, values: values, update: update.engineMode)
        } catch {
            throw Realm.Error(error)
        }
        didWrite()
        object._managedState = ManagedState(context: self, handleClass: handleClass, object: created)
        object._metaCache = meta
        object._overrides = nil
        // Embedded objects created with the row are managed now, as the objects they were read from.
        for (position, value) in embedded {
            guard case .link(let link) = try created.value(at: handleClass.engineIndices[position]) else {
                throw Realm.Error(.internal, "The embedded object was not created.")
            }
            let embeddedClass = try self.handleClass(type(of: value))
            value._managedState = ManagedState(context: self, handleClass: embeddedClass, key: link.key)
            value._metaCache = embeddedClass.meta
            value._overrides = nil
        }
        for (position, value) in deferred {
            if update == .modified, meta.properties[position].shape.collection == nil, value is _OptionalProtocol,
               (value as! any _OptionalProtocol)._isNil, meta.properties[position].shape.type == "object" {
                // .modified leaves an existing link alone when the new object has none to give.
                continue
            }
            try meta.properties[position].accessor.apply(object, position, value)
        }
        return created
    }

    /// An upsert of an object made from a dictionary (a link's value in `create(_:value:)`) whose
    /// primary key is stored: only the keys the dictionary gave are written, and the object
    /// becomes that stored object. Nil when no object has its primary key (it is then created).
    private func updateGivenKeys(_ object: ObjectBase, _ handleClass: HandleClass) throws -> EObject? {
        let meta = handleClass.meta
        guard let pk = meta.primaryKeyPosition, let given = object._overrides, let key = given[pk] else { return nil }
        let found: (EObject, [EValue])?
        do {
            found = try database.objectValues(classIndex: handleClass.engineClassIndex,
                                              primaryKey: try meta.properties[pk].accessor.primaryKeyRaw(key), propertyIndices: [])
        } catch {
            throw Realm.Error(error)
        }
        guard let (existing, _) = found else { return nil }
        let managed = wrap(existing, of: handleClass, as: ObjectBase.self)
        for (position, item) in given.sorted(by: { $0.key < $1.key }) where position != pk {
            try meta.properties[position].anySet(managed, position, item)
        }
        object._managedState = ManagedState(context: self, handleClass: handleClass, object: existing)
        object._metaCache = meta
        object._overrides = nil
        object._givenByName = false
        didWrite()
        return existing
    }

    /// The current value of each property of an unmanaged object, by position: a value set by
    /// name, else its storage through the reader the class knows, else by reflection (done once,
    /// and only when some storage of the class was never accessed).
    private static func unmanagedValues(of object: ObjectBase, _ meta: ClassMeta) -> (Int) -> Any {
        let readers = meta.accesses
        var reflected: [(String, any _AnyPersisted)]?
        return { position in
            if let value = object._overrides?[position] { return value }
            if let reader = readers[position] { return reader.value(object) }
            if reflected == nil { reflected = ClassMeta.storages(of: object) }
            return reflected![position].1.anyCurrent
        }
    }

    /// The stored form of a link or collection value that `create` can take with the row, in the
    /// same engine call: a collection of values (not of objects or mixed values, which may hold
    /// unmanaged objects), or a link to an object already managed here whose key is known. Nil for
    /// the others, which are applied after the object exists (a link to an unmanaged object adds
    /// it then, so objects linking to each other are added once each).
    private func createdWith(_ property: PropertyMeta, _ value: Any) throws -> EValue? {
        let shape = property.shape
        if shape.collection != nil {
            guard shape.type != "object", shape.type != "mixed" else { return nil }
            return try property.accessor.raw(value)
        }
        guard shape.type == "object", let target = value as? ObjectBase else { return nil }
        if let link = target._knownLink(in: self) { return .link(link) }
        return try embeddedValues(target)
    }

    /// An unmanaged embedded object as the values `create` makes it from (a dictionary by
    /// property name), when they are all values and collections of values; nil when it holds
    /// links or mixed values (it is then written after its parent, by `setEmbedded`).
    private func embeddedValues(_ value: ObjectBase) throws -> EValue? {
        guard value._managedState == nil else { return nil }
        let meta = try handleClass(type(of: value)).meta
        guard meta.kind == .embedded else { return nil }
        let current = Self.unmanagedValues(of: value, meta)
        var members: [(key: String, value: EValue)] = []
        members.reserveCapacity(meta.properties.count)
        for (position, property) in meta.properties.enumerated() {
            let shape = property.shape
            if shape.type == "linkingObjects" { continue }
            guard shape.type != "object", shape.type != "mixed" else { return nil }
            members.append((property.name, try property.accessor.raw(current(position))))
        }
        return .dictionary(members)
    }

    /// Adds a sequence of objects. Runs of unmanaged objects of one class whose properties are
    /// all stored in the row (and which has a primary key) go to the engine's bulk insert, one
    /// call per run; everything else is added one by one.
    func addMany(_ objects: [ObjectBase], update: Realm.UpdatePolicy) throws {
        var start = 0
        while start < objects.count {
            let first = objects[start]
            let type = Swift.type(of: first)
            // A run of unmanaged objects of one class goes in one bulk insert when the class
            // allows it; the class is asked first, so objects of other classes are added one by
            // one without scanning the rest of the array for each (which was quadratic).
            if !first._isManaged, first._overrides == nil, start + 1 < objects.count,
               Swift.type(of: objects[start + 1]) == type, let handleClass = try bulkClass(type) {
                var end = start
                while end < objects.count, Swift.type(of: objects[end]) == type, !objects[end]._isManaged,
                      objects[end]._overrides == nil {
                    end += 1
                }
                if end - start >= 2 {
                    try addBulk(objects[start ..< end], handleClass, update: update)
                    start = end
                    continue
                }
            }
            try add(first, update: update)
            start += 1
        }
    }

    /// The class, when its objects can be bulk-added: top-level, with a primary key, every
    /// property a row value other than a link, and every storage's key path known.
    private func bulkClass(_ type: ObjectBase.Type) throws -> HandleClass? {
        let handleClass = try handleClass(type)
        let meta = handleClass.meta
        guard meta.kind == .topLevel, meta.primaryKeyPosition != nil,
              meta.properties.allSatisfy({ $0.shape.type == "linkingObjects" || ($0.shape.isRowValue && $0.shape.type != "object") }),
              !meta.accesses.contains(where: { $0 == nil }) else {
            return nil
        }
        return handleClass
    }

    private func addBulk(_ objects: ArraySlice<ObjectBase>, _ handleClass: HandleClass, update: Realm.UpdatePolicy) throws {
        let meta = handleClass.meta
        let accesses = meta.accesses.map { $0! }
        let positions = meta.properties.indices.filter { meta.properties[$0].shape.type != "linkingObjects" }
        let loads = positions.map { SlotLoad(accesses[$0]) }
        let pkColumn = positions.firstIndex(of: meta.primaryKeyPosition!)!
        let objects = Array(objects)
        var primaryKeys: [EValue] = []
        primaryKeys.reserveCapacity(objects.count)
        do {
            // Values go from each object's storages straight into the insert.
            try database.createMany(classIndex: handleClass.engineClassIndex, propertyIndices: positions.map { handleClass.engineIndices[$0] },
                                    rows: objects.count, update: update.engineMode) { (row, out) throws(EError) in
                let object = objects[row]
                for (column, position) in positions.enumerated() {
                    let item: BorrowedValue
                    if let typed = loads[column].item(of: object) {
                        item = typed
                    } else {
                        do {
                            item = .value(try accesses[position].raw(object).value)
                        } catch {
                            throw EError(.typeMismatch, Realm.Error(error).message)
                        }
                    }
                    out[column] = item
                    if column == pkColumn { primaryKeys.append(try item.value()) }
                }
            }
        } catch {
            throw Realm.Error(error)
        }
        didWrite()
        // Managed from now on; each finds its engine object by primary key and reads its row when
        // first used (an int primary key that is the object key is the object's key already).
        let keyed = (try? database.primaryKeyIsObjectKey(classIndex: handleClass.engineClassIndex)) ?? false
        for (object, primaryKey) in zip(objects, primaryKeys) {
            if keyed, case .int(let key) = primaryKey {
                object._setRead(context: self, handleClass: handleClass, key: key)
            } else {
                object._managedState = ManagedState(context: self, handleClass: handleClass, primaryKey: primaryKey)
            }
            object._metaCache = meta
        }
    }

    /// Creates a new embedded object in a link property of a managed parent and makes `value`
    /// that object.
    func setEmbedded(_ value: ObjectBase, in parent: ObjectBase, position: Int) throws {
        if value._managedState != nil {
            throw Realm.Error(.invalidArgument, "Cannot set a link to an existing managed embedded object.")
        }
        let state = parent._managedState!
        let name = state.handleClass.meta.properties[position].name
        try fillEmbedded(value) { members throws in
            try state.object.update(json: .object([(name, .object(members))]))
            guard case .link(let link) = try state.object.value(at: state.handleClass.engineIndices[position]),
                  let created = try database.object(link) else {
                throw Realm.Error(.internal, "The embedded object was not created.")
            }
            return created
        }
    }

    /// Writes an unmanaged embedded object: `create` makes its engine object from its values and
    /// collections of values (Extended JSON members); then links and mixed values are applied.
    func fillEmbedded(_ value: ObjectBase, _ create: ([(key: String, value: EJSON)]) throws -> EObject) throws {
        let handleClass = try handleClass(type(of: value))
        let meta = handleClass.meta
        let current = Self.unmanagedValues(of: value, meta)
        var members: [(key: String, value: EJSON)] = []
        var deferred: [(Int, Any)] = []
        for (position, property) in meta.properties.enumerated() {
            if property.shape.type == "linkingObjects" { continue }
            let item = current(position)
            // Values and collections of values go in the object as it is created (its checks, such
            // as a GeoJSON point's coordinates, see them together); links follow.
            if property.shape.type != "object" && property.shape.type != "mixed" {
                members.append((property.name, ExtendedJSON.json(try property.accessor.raw(item))))
            } else {
                deferred.append((position, item))
            }
        }
        let created: EObject
        do {
            created = try create(members)
        } catch {
            throw Realm.Error(error)
        }
        didWrite()
        value._managedState = ManagedState(context: self, handleClass: handleClass, object: created)
        value._metaCache = meta
        value._overrides = nil
        for (position, item) in deferred { try meta.properties[position].accessor.apply(value, position, item) }
    }

    /// The stored value of a link to `target`: a managed object of this database, or an
    /// unmanaged one, which is added.
    func linkValue(to target: ObjectBase) throws -> EValue {
        if target._meta.kind == .embedded {
            throw Realm.Error(.invalidArgument, "Embedded objects are set through a property of their parent, not linked.")
        }
        let object = try add(target, update: linkUpdatePolicy)
        return .link(ObjectLink(classIndex: object.classIndex, key: object.key))
    }

    // MARK: Cache of open databases

    private static let open = Mutex<[String: WeakContext]>([:])

    private struct WeakContext: @unchecked Sendable {
        weak var context: _RealmContext?
    }

    /// The context of this thread (or of `confinement`, an actor) for a configuration: Realm
    /// instances of one thread and file share it, as in Realm Swift.
    static func shared(for configuration: Realm.Configuration, confinement: String? = nil) throws -> _RealmContext {
        let key = (confinement ?? "\(UInt(pthread_self()))") + "|" + configuration.identity
        // The open handle is shared when the settings that decide how a file opens agree; a
        // configuration with another schema version or read-only setting opens (and is checked)
        // on its own, so a lower version than the file's is the engine's error.
        if let context = open.withLock({ $0[key]?.context }),
           context.configuration.schemaVersion == configuration.schemaVersion,
           context.configuration.readOnly == configuration.readOnly,
           context.configuration.durableAgainstPowerLoss == configuration.durableAgainstPowerLoss,
           context.configuration.encryptionKey == configuration.encryptionKey,
           context.configuration.syncConfiguration?.url == configuration.syncConfiguration?.url {
            return context
        }
        let types = configuration.objectTypes ?? ClassMeta.registeredTypes
        try Realm.prepareFile(for: configuration)
        // The file's first open in the process (no handle of any thread has it open).
        let firstOpen = open.withLock { table in
            !table.contains { $0.value.context?.configuration.identity == configuration.identity }
        }
        let context = try _RealmContext(configuration: configuration, types: types)
        if firstOpen { try context.compactIfAsked() }
        open.withLock { table in
            table = table.filter { $0.value.context != nil }
            table[key] = WeakContext(context: context)
        }
        return context
    }
}

/// One frozen version of a file, alive: counted against `maximumNumberOfActiveVersions`.
final class ActiveVersion: @unchecked Sendable {
    private static let counts = Mutex<[String: Int]>([:])
    private let identity: String

    init(_ identity: String) {
        self.identity = identity
        Self.counts.withLock { $0[identity, default: 0] += 1 }
    }

    deinit {
        Self.counts.withLock { counts in
            counts[identity, default: 1] -= 1
            if counts[identity] == 0 { counts[identity] = nil }
        }
    }

    /// The frozen versions of a file alive now.
    static func count(_ identity: String) -> Int { counts.withLock { $0[identity] ?? 0 } }
}
