/// Declares a stored property of an `Object`, `EmbeddedObject` or `AsymmetricObject`, as in Realm
/// Swift:
///
/// ```swift
/// class Dog: Object {
///     @Persisted(primaryKey: true) var _id: ObjectId
///     @Persisted(indexed: true) var name = ""
///     @Persisted var age: Int?
/// }
/// ```
///
/// The initial value is the default of unmanaged objects; a property declared without one starts
/// at its type's zero value (`""`, `0`, `false`, the epoch, a new `ObjectId`, nil, an empty
/// collection). Once the object is managed, reads and writes go to the database.
@propertyWrapper
public struct Persisted<Value: _Persistable> {
    // The fields are ordered so that the small ones fill the padding after `value`: every model
    // instance holds one storage per property (an `Int` property's storage is 32 bytes).

    /// The unmanaged value; nil until first read when the property was declared without one.
    @usableFromInline var value: Value?
    /// `primaryKey:` and `indexed:` (see `_PersistedOptions`).
    @usableFromInline var flags: UInt8 = 0
    /// Marks this storage while schema discovery maps a key path to a property.
    @usableFromInline var tagged = false
    /// The property's position in its class (memoized on first access), -1 before.
    @usableFromInline var storedPosition: Int32 = -1
    /// `originProperty:` of a `LinkingObjects` property (nil for every other property).
    @usableFromInline var origin: _OriginProperty?
    /// For a managed object: the handle's version when `value` was read from the database (never
    /// a version for unmanaged values).
    @usableFromInline var cacheVersion = UInt64.max

    /// The property's position in its class (memoized on first access), -1 before.
    @usableFromInline var position: Int {
        @inline(__always) get { Int(storedPosition) }
        @inline(__always) set { storedPosition = Int32(truncatingIfNeeded: newValue) }
    }

    /// The flags given to `@Persisted(...)`.
    var options: _PersistedOptions {
        _PersistedOptions(primaryKey: flags & 1 != 0, indexed: flags & 2 != 0, originProperty: origin?.name)
    }

    @inlinable
    init(value: Value?, primaryKey: Bool = false, indexed: Bool = false, originProperty: String? = nil) {
        self.value = value
        flags = (primaryKey ? 1 : 0) | (indexed ? 2 : 0)
        origin = originProperty.map(_OriginProperty.init)
    }

    @available(*, unavailable, message: "@Persisted can only be used as a property on an Object, EmbeddedObject or AsymmetricObject")
    public var wrappedValue: Value {
        get { fatalError("unavailable") }
        // swiftlint:disable:next unused_setter_value
        set { fatalError("unavailable") }
    }

    /// A property whose value starts at its type's zero value.
    @inlinable public init() {}

    /// A property with an initial value (the default of unmanaged objects).
    @inlinable public init(wrappedValue value: Value) {
        self.value = value
    }

    // Inlinable, so that the model's module specializes it and reads the storage directly (the
    // storage key path is a literal there). A managed object keeps the values it read in its
    // storages, each marked with the handle's version at the time: while nothing was written
    // through the handle since, a read is a field read. An unmanaged object (plain: no overrides,
    // not recording) reads its storage.
    //
    // The key path is only ever projected, never passed on: everything past the field reads
    // takes the storage's offset in the instance instead (a constant once specialized). So the
    // compiler drops the key path object (no `swift_getKeyPath` per access), and, as nothing can
    // reach the storage through a key path from elsewhere, checks its exclusivity statically.
    @inlinable
    public static subscript<EnclosingSelf: ObjectBase>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Persisted<Value>>
    ) -> Value {
        @inline(__always) get {
            if object._isManaged {
                let version = object._counter.unsafelyUnwrapped.value
                if object[keyPath: storageKeyPath].cacheVersion == version, let value = object[keyPath: storageKeyPath].value {
                    return value
                }
            } else if object._isPlain, let value = object[keyPath: storageKeyPath].value {
                return value
            }
            return _slowGet(object, _offset(of: storageKeyPath, in: object))
        }
        @inline(__always) set {
            if object._isManaged {
                var position = object[keyPath: storageKeyPath].position
                if position < 0 { position = _position(of: object, at: _offset(of: storageKeyPath, in: object)) }
                _managedSet(object, position, newValue)
                if Value._rlmCacheable {
                    object[keyPath: storageKeyPath].value = newValue
                    object[keyPath: storageKeyPath].cacheVersion = object._counter.unsafelyUnwrapped.value
                }
            } else if object._isPlain {
                // The position is found (and the class taught the storage's offset) even here,
                // so that `add` reads this storage without reflection.
                if object[keyPath: storageKeyPath].position < 0 {
                    _ = _position(of: object, at: _offset(of: storageKeyPath, in: object))
                }
                object[keyPath: storageKeyPath].value = newValue
            } else {
                _unmanagedSet(object, _offset(of: storageKeyPath, in: object), newValue)
            }
        }
    }

    /// Where the storage lies in the object: the address the key path projects to, less the
    /// object's. A `@Persisted` storage is a stored property of the class, so the projection is
    /// the storage itself (schema discovery checks it: see `_discoverPosition`).
    @inlinable @inline(__always)
    static func _offset<EnclosingSelf: ObjectBase>(
        of storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Persisted<Value>>, in object: EnclosingSelf
    ) -> Int {
        let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
        return withUnsafeMutablePointer(to: &object[keyPath: storageKeyPath]) { UnsafeRawPointer($0) } - base
    }

    @inlinable @inline(__always)
    static func _storage(of object: ObjectBase, at offset: Int) -> UnsafeMutablePointer<Persisted<Value>> {
        (UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque()) + offset)
            .assumingMemoryBound(to: Persisted<Value>.self)
    }

    /// The getter's reads that are not a field read: a managed value not kept (or kept at an older
    /// version), read from the database (and kept); an unmanaged object's value by name, recorded,
    /// or its initial value. Out of line, so that the getter's field read is all that is inlined.
    @inlinable @inline(never)
    static func _slowGet(_ object: ObjectBase, _ offset: Int) -> Value {
        let storage = _storage(of: object, at: offset)
        if object._isManaged {
            let position = _position(of: object, at: offset)
            let value = Value._rlmGet(object, position)
            if Value._rlmCacheable {
                storage.pointee.value = value
                storage.pointee.cacheVersion = object._counter.unsafelyUnwrapped.value
            }
            return value
        }
        if object._isPlain, let value = storage.pointee.value { return value }
        return _unmanagedGet(object, offset)
    }

    /// Access to the storage at `offset` of any instance of the class: what the class keeps for
    /// `add`, for reading rows into new managed objects and for setting their positions.
    static func _access(at offset: Int) -> _StorageAccess {
        _StorageAccess(
            value: { _storage(of: $0, at: offset).pointee._current },
            raw: { try _storage(of: $0, at: offset).pointee._current._rlmToRaw(nil) },
            load: Value._rlmCacheable ? { object, item, context, version in
                let storage = _storage(of: object, at: offset)
                storage.pointee.value = try Value._rlmFromItem(item, context)
                storage.pointee.cacheVersion = version
            } : nil,
            offset: offset, valueType: Value.self
        )
    }

    @usableFromInline
    var _current: Value { value ?? Value._rlmDefaultValue() }

    @usableFromInline
    static func _unmanagedGet(_ object: ObjectBase, _ offset: Int) -> Value {
        let position = _position(of: object, at: offset)
        if let recorder = object._recorder {
            return recorder.record(object, position, as: Value.self)
        }
        if let value = object._unmanagedOverrides?[position] {
            return value as! Value
        }
        let storage = _storage(of: object, at: offset)
        if let value = storage.pointee.value { return value }
        let value = Value._rlmDefaultValue()
        storage.pointee.value = value
        return value
    }

    @usableFromInline
    static func _unmanagedSet(_ object: ObjectBase, _ offset: Int, _ newValue: Value) {
        // Finding the position also teaches the class this storage's offset (see `_position`).
        let position = _position(of: object, at: offset)
        if object._unmanagedOverrides != nil {
            object._unmanagedOverrides?[position] = nil
        }
        _storage(of: object, at: offset).pointee.value = newValue
    }

    @usableFromInline
    static func _managedSet(_ object: ObjectBase, _ position: Int, _ newValue: Value) {
        do {
            try Value._rlmSet(object, position, newValue)
        } catch {
            _fatal(error)
        }
    }

    /// The property's position in its class, found once per storage (then kept in it): from the
    /// class's table of known storage offsets (a short lock-free scan), or, the first time the
    /// class sees this offset, by tagging the storage there in a prototype.
    @usableFromInline
    static func _position(of object: ObjectBase, at offset: Int) -> Int {
        let storage = _storage(of: object, at: offset)
        let known = storage.pointee.position
        if known >= 0 { return known }
        var position = object._knownPosition(offset: offset)
        if position < 0 { position = _discoverPosition(of: object, at: offset) }
        storage.pointee.position = position
        return position
    }

    static func _discoverPosition(of object: ObjectBase, at offset: Int) -> Int {
        object._meta.position(ofStorageAt: offset, taggedPrototype: {
            let prototype = type(of: object).init()
            _storage(of: prototype, at: offset).pointee.tagged = true
            return prototype
        }, access: { _access(at: offset) })
    }
}

/// Reads and marks one `@Persisted` storage of an object (implementation detail of `@Persisted`).
struct _StorageAccess: @unchecked Sendable {
    /// The current unmanaged value (the initial value or the type's zero value).
    let value: (ObjectBase) -> Any
    /// The current unmanaged value in stored form (row values other than links).
    let raw: (ObjectBase) throws -> _RawValue
    /// Keeps a managed object's value read from its row in the storage, marked with the handle's
    /// version (nil for types whose values are not kept: links, collections, mixed values).
    let load: ((ObjectBase, _RawItem, _RealmContext?, UInt64) throws -> Void)?
    /// The storage's offset in the instance, and the property's Swift type: with both, the
    /// common types are loaded without a closure call.
    let offset: Int
    let valueType: Any.Type
}

extension Persisted: @unchecked Sendable where Value: Sendable {}

/// The name given as `@Persisted(originProperty:)`, out of line: only backlink properties have one.
@usableFromInline
final class _OriginProperty: @unchecked Sendable {
    let name: String
    @usableFromInline init(_ name: String) { self.name = name }
}

/// The flags given to `@Persisted(...)`.
public struct _PersistedOptions {
    var primaryKey = false
    var indexed = false
    var originProperty: String?
}

extension Persisted where Value: _PersistablePrimitive {
    /// `@Persisted(primaryKey: true) var _id: ObjectId`: the class's primary key (int, string,
    /// ObjectId or UUID, optional or not).
    @inlinable public init(primaryKey: Bool) {
        self.init(value: nil, primaryKey: primaryKey)
    }

    @inlinable public init(wrappedValue value: Value, primaryKey: Bool) {
        self.init(value: value, primaryKey: primaryKey)
    }

    /// `@Persisted(indexed: true) var name = ""`: a general index for faster equality queries.
    @inlinable public init(indexed: Bool) {
        self.init(value: nil, indexed: indexed)
    }

    @inlinable public init(wrappedValue value: Value, indexed: Bool) {
        self.init(value: value, indexed: indexed)
    }
}

extension Persisted {
    /// `@Persisted(originProperty: "dogs") var owners: LinkingObjects<Person>`: the objects whose
    /// `dogs` property links to this one (computed, read-only).
    @inlinable public init<Element: ObjectBase>(originProperty: String) where Value == LinkingObjects<Element> {
        self.init(value: nil, originProperty: originProperty)
    }
}

/// What schema discovery reads from a `Persisted` found by `Mirror`.
protocol _AnyPersisted {
    var options: _PersistedOptions { get }
    var tagged: Bool { get }
    var shape: _PropertyShape { get }
    /// The unmanaged value (the initial value, or the type's zero value).
    var anyCurrent: Any { get }
    func makeAccessor() -> any PropertyAccessor
}

extension Persisted: _AnyPersisted {
    var shape: _PropertyShape { Value._rlmShape }
    var anyCurrent: Any { _current }
    func makeAccessor() -> any PropertyAccessor { TypedAccessor<Value>() }
}

/// Reads and writes one property by position, with its static type recovered from the storage.
protocol PropertyAccessor: Sendable {
    func get(_ object: ObjectBase, _ position: Int) -> Any
    func set(_ object: ObjectBase, _ position: Int, _ value: Any?) throws
    /// The stored form of a value of this property (row values other than links).
    func raw(_ value: Any) throws -> EValue
    /// Writes a value into a managed object (links, embedded objects, collections).
    func apply(_ object: ObjectBase, _ position: Int, _ value: Any) throws
    /// A primary key given as `Any` in its stored form.
    func primaryKeyRaw(_ key: Any) throws -> EValue
}

struct TypedAccessor<Value: _Persistable>: PropertyAccessor {
    func get(_ object: ObjectBase, _ position: Int) -> Any {
        if object._managedState != nil { return Value._rlmGet(object, position) }
        return object._unmanagedValue(position)
    }

    func set(_ object: ObjectBase, _ position: Int, _ value: Any?) throws {
        guard let typed = Value._rlmFromAny(value) else {
            throw Realm.Error(.typeMismatch, "Invalid value '\(value.map { "\($0)" } ?? "nil")' of type '\(value.map { "\(type(of: $0))" } ?? "nil")' for '\(object._meta.name).\(object._meta.properties[position].name)' property of type '\(Value.self)'.")
        }
        if object._managedState != nil {
            try Value._rlmSet(object, position, typed)
            return
        }
        // Kept by position beside the storages (which says which values were given, for an
        // upsert that writes only those), and in the storage too, where Codable synthesis reads
        // it (the class learns every storage's place the first time).
        object._setUnmanagedValue(position, typed)
        let meta = object._meta
        if meta.accesses[position] == nil, object._recorder == nil { meta.learnAllStorages() }
        if object._recorder == nil, let access = meta.accesses[position] {
            Persisted<Value>._storage(of: object, at: access.offset).pointee.value = typed
        }
    }

    func raw(_ value: Any) throws -> EValue { try (value as! Value)._rlmToRaw(nil).value }

    func apply(_ object: ObjectBase, _ position: Int, _ value: Any) throws {
        try Value._rlmSet(object, position, value as! Value)
    }

    func primaryKeyRaw(_ key: Any) throws -> EValue {
        guard let typed = Value._rlmFromAny(key) else {
            throw Realm.Error(.typeMismatch, "Invalid primary key '\(key)' of type '\(type(of: key))': expected \(Value.self).")
        }
        return try typed._rlmToRaw(nil).value
    }
}

/// Stops the program on an error in a property accessor (a Swift setter cannot throw), with the
/// database's message — as Realm Swift raises an exception there.
func _fatal(_ error: any Error) -> Never {
    fatalError("\(error)")
}
