import Synchronization
internal import DrumlinEngine

/// One persisted property of a model class, as schema discovery found it.
struct PropertyMeta {
    /// The Swift name (the schema's public name).
    let name: String
    /// The stored name (`propertiesMapping()`), nil when it is the Swift name.
    let storedName: String?
    let shape: _PropertyShape
    let options: _PersistedOptions
    let accessor: any PropertyAccessor

    func anyGet(_ object: ObjectBase, _ position: Int) -> Any { accessor.get(object, position) }
    func anySet(_ object: ObjectBase, _ position: Int, _ value: Any?) throws { try accessor.set(object, position, value) }
}

/// A model class as schema discovery reads it: a prototype instance (`init()`) walked with
/// `Mirror`, base class first; every `@Persisted` storage is a property in declaration order.
/// Anything else (plain stored properties, computed properties) is ignored, as in Realm Swift.
final class ClassMeta: @unchecked Sendable {
    enum Kind { case topLevel, embedded, asymmetric }

    let type: ObjectBase.Type
    let name: String
    let kind: Kind
    let properties: [PropertyMeta]
    let positionByName: [String: Int]
    let primaryKeyPosition: Int?
    /// Offsets of `Persisted` storages in instances to positions, and an access to each storage
    /// by position, filled on first use of each.
    private let storageTable = Mutex<StorageTable>(StorageTable())

    struct StorageTable {
        var positions: [Int: Int] = [:]
        var accesses: [_StorageAccess?] = []
    }
    /// Known storage offsets, readable without a lock: entries are written once, under
    /// `storageTable`'s lock, before `offsetCount` publishes them.
    private let offsets: UnsafeMutablePointer<(offset: Int, position: Int)>
    private let offsetCapacity: Int
    private let offsetCount = Atomic<Int>(0)

    private static let all = Mutex<[ObjectIdentifier: ClassMeta]>([:])
    /// Discovered classes by identity, readable without a lock (every object's `init()` asks):
    /// entries are written once, under `all`'s lock, before `discoveredCount` publishes them; `all`
    /// keeps each ClassMeta alive. Classes beyond the capacity are found under the lock.
    private nonisolated(unsafe) static let discovered = UnsafeMutablePointer<(ObjectIdentifier, Unmanaged<ClassMeta>)>
        .allocate(capacity: discoveredCapacity)
    private static let discoveredCapacity = 512
    private static let discoveredCount = Atomic<Int>(0)

    private static func discoveredMeta(_ identity: ObjectIdentifier) -> ClassMeta? {
        let count = discoveredCount.load(ordering: .acquiring)
        for index in 0 ..< count where discovered[index].0 == identity { return discovered[index].1.takeUnretainedValue() }
        return count < discoveredCapacity ? nil : all.withLock { $0[identity] }
    }
    /// Every model class whose instances were created or whose type was used, for a configuration
    /// without `objectTypes` (Linux has no class enumeration).
    private static let registered = Mutex<[ObjectIdentifier: ObjectBase.Type]>([:])

    /// Records a class whose instance is being created; returns its metadata once discovered.
    static func register(_ type: ObjectBase.Type) -> ClassMeta? {
        // A discovered class first: that is every instance made after the first few.
        let key = ObjectIdentifier(type)
        if let meta = discoveredMeta(key) { return meta }
        // The base classes and dynamic objects are not model classes.
        if type == DynamicObject.self || type == Object.self || type == EmbeddedObject.self || type == AsymmetricObject.self {
            return nil
        }
        _ = registered.withLock { $0.updateValue(type, forKey: key) }
        return nil
    }

    static var registeredTypes: [ObjectBase.Type] {
        registered.withLock { Array($0.values) }
    }

    /// The discovered metadata of a class (computed once).
    static func of(_ type: ObjectBase.Type) -> ClassMeta {
        let identity = ObjectIdentifier(type)
        if let meta = discoveredMeta(identity) { return meta }
        let meta = ClassMeta(discovering: type)
        return all.withLock { table in
            if let existing = table[identity] { return existing }
            table[identity] = meta
            let count = discoveredCount.load(ordering: .relaxed)
            if count < discoveredCapacity {
                discovered[count] = (identity, Unmanaged.passUnretained(meta))
                discoveredCount.store(count + 1, ordering: .releasing)
            }
            return meta
        }
    }

    deinit { offsets.deallocate() }

    /// A class stored in the file that no Swift type describes (a database opened without model
    /// classes): its objects are `DynamicObject`s, read and written by name.
    init(storedClass name: String, kind: Kind) {
        type = DynamicObject.self
        self.name = name
        self.kind = kind
        properties = []
        positionByName = [:]
        primaryKeyPosition = nil
        offsetCapacity = 0
        offsets = .allocate(capacity: 1)
    }

    private init(discovering type: ObjectBase.Type) {
        self.type = type
        name = type.className()
        if type is EmbeddedObject.Type {
            kind = .embedded
        } else if type is AsymmetricObject.Type {
            kind = .asymmetric
        } else {
            kind = .topLevel
        }
        let prototype = type.init()
        prototype._isPrototype = true
        let mapping = type.propertiesMapping()
        var properties: [PropertyMeta] = []
        for (label, storage) in Self.storages(of: prototype) {
            let name = String(label.dropFirst())
            properties.append(PropertyMeta(name: name, storedName: mapping[name], shape: storage.shape, options: storage.options,
                                           accessor: storage.makeAccessor()))
        }
        let legacyKey = type.primaryKey()
        if let legacyKey, let index = properties.firstIndex(where: { $0.name == legacyKey }) {
            properties[index] = PropertyMeta(name: properties[index].name, storedName: properties[index].storedName,
                                             shape: properties[index].shape,
                                             options: _PersistedOptions(primaryKey: true, indexed: properties[index].options.indexed,
                                                                        originProperty: properties[index].options.originProperty),
                                             accessor: properties[index].accessor)
        }
        self.properties = properties
        var byName: [String: Int] = [:]
        for (position, property) in properties.enumerated() { byName[property.name] = position }
        positionByName = byName
        primaryKeyPosition = properties.firstIndex { $0.options.primaryKey }
        offsetCapacity = properties.count
        offsets = .allocate(capacity: Swift.max(offsetCapacity, 1))
    }

    /// Grows whenever the class learns a storage's offset: what was worked out from the known
    /// storages stays right while it stays.
    var knownStorageCount: Int { offsetCount.load(ordering: .acquiring) }

    func knownPosition(offset: Int) -> Int {
        let count = offsetCount.load(ordering: .acquiring)
        for index in 0 ..< count where offsets[index].offset == offset { return offsets[index].position }
        return -1
    }

    /// The `@Persisted` storages of an instance, base class first, with their labels (`_name`).
    static func storages(of object: ObjectBase) -> [(String, any _AnyPersisted)] {
        var mirrors: [Mirror] = []
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            mirrors.append(current)
            mirror = current.superclassMirror
        }
        var result: [(String, any _AnyPersisted)] = []
        for mirror in mirrors.reversed() {
            for child in mirror.children {
                guard let label = child.label, label.hasPrefix("_"), let storage = child.value as? any _AnyPersisted else { continue }
                result.append((label, storage))
            }
        }
        return result
    }

    /// The position of the property whose storage lies at `offset` in instances of the class.
    /// The first time, a prototype with the storage there tagged is walked to find it (which also
    /// proves the offset: a storage found nowhere is a fatal error), and `access` is kept for the
    /// position.
    func position(ofStorageAt offset: Int, taggedPrototype: () -> ObjectBase, access: () -> _StorageAccess) -> Int {
        if let known = storageTable.withLock({ $0.positions[offset] }) { return known }
        let prototype = taggedPrototype()
        prototype._isPrototype = true
        guard let position = Self.storages(of: prototype).firstIndex(where: { $0.1.tagged }) else {
            fatalError("\(name): a @Persisted storage was not found by reflection")
        }
        learn(offset: offset, position: position, access: access())
        return position
    }

    /// Records that the storage of the property at `position` lies at `offset`, with its access.
    func learn(offset: Int, position: Int, access newAccess: _StorageAccess) {
        storageTable.withLock { table in
            guard table.positions[offset] == nil else { return }
            table.positions[offset] = position
            let count = offsetCount.load(ordering: .relaxed)
            if count < offsetCapacity {
                offsets[count] = (offset, position)
                offsetCount.store(count + 1, ordering: .releasing)
            }
            if table.accesses.isEmpty { table.accesses = Array(repeating: nil, count: properties.count) }
            table.accesses[position] = newAccess
        }
    }

    /// The storage accesses known so far, by position (nil where a property was never accessed).
    var accesses: [_StorageAccess?] {
        storageTable.withLock { $0.accesses.isEmpty ? Array(repeating: nil, count: properties.count) : $0.accesses }
    }

    /// The class's object schema as JSON (Realm JS's format, the one every language uses).
    var schemaJSON: EJSON {
        var members: [(key: String, value: EJSON)] = [("name", .string(name))]
        if let primaryKeyPosition { members.append(("primaryKey", .string(properties[primaryKeyPosition].name))) }
        if kind == .embedded { members.append(("embedded", .bool(true))) }
        if kind == .asymmetric { members.append(("asymmetric", .bool(true))) }
        var declarations: [(key: String, value: EJSON)] = []
        for property in properties {
            let shape = property.shape
            var declaration: [(key: String, value: EJSON)] = []
            if let collection = shape.collection {
                declaration.append(("type", .string(collection)))
                declaration.append(("objectType", .string(shape.objectType.map { $0.className() } ?? shape.type)))
            } else if shape.type == "linkingObjects" {
                declaration.append(("type", .string("linkingObjects")))
                declaration.append(("objectType", .string(shape.objectType?.className() ?? "")))
                declaration.append(("property", .string(property.options.originProperty ?? "")))
            } else {
                declaration.append(("type", .string(shape.type)))
                if let objectType = shape.objectType { declaration.append(("objectType", .string(objectType.className()))) }
            }
            // Mixed values are always optional and backlinks never are: the schema takes no flag.
            if shape.type != "linkingObjects" && shape.type != "mixed" {
                declaration.append(("optional", .bool(shape.isOptional)))
            }
            if property.options.indexed { declaration.append(("indexed", .bool(true))) }
            if let stored = property.storedName, stored != property.name { declaration.append(("mapTo", .string(stored))) }
            declarations.append((property.name, .object(declaration)))
        }
        members.append(("properties", .object(declarations)))
        return .object(members)
    }

    /// The classes this one links to (links, collections, backlinks).
    var linkedTypes: [ObjectBase.Type] { properties.compactMap { $0.shape.objectType } }
}
