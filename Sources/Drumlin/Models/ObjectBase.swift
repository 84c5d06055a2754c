internal import DrumlinEngine

/// The state of a managed object: its database handle, the engine object, and its row as last read
/// (valid while the handle's version has not moved: any write through the handle, a commit, a
/// rollback or a refresh moves it).
final class ManagedState {
    let context: _RealmContext
    let handleClass: HandleClass
    private var resolved: EObject?
    /// For objects written by a bulk add: the primary key, until the engine object is needed.
    private let primaryKey: EValue?
    /// For objects read by primary key: the object key, until the engine object is needed.
    private let key: Int64?
    var row: [EValue] = []
    var rowVersion: UInt64 = .max

    init(context: _RealmContext, handleClass: HandleClass, object: EObject) {
        self.context = context
        self.handleClass = handleClass
        resolved = object
        primaryKey = nil
        key = nil
    }

    /// An object whose row was just read, known by its object key until first used.
    init(context: _RealmContext, handleClass: HandleClass, key: Int64) {
        self.context = context
        self.handleClass = handleClass
        primaryKey = nil
        self.key = key
    }

    /// An object written by a bulk add, known by its primary key until first used.
    init(context: _RealmContext, handleClass: HandleClass, primaryKey: EValue) {
        self.context = context
        self.handleClass = handleClass
        self.primaryKey = primaryKey
        key = nil
    }

    /// The object key, when known without a call.
    var knownKey: Int64? { resolved?.key ?? key }

    /// The engine object (found by primary key the first time for objects of a bulk add).
    var object: EObject {
        if let resolved { return resolved }
        do {
            if let key {
                let found = try context.database.object(classIndex: handleClass.engineClassIndex, readKey: key)
                resolved = found
                return found
            }
            guard let primaryKey, let found = try context.database.object(handleClass.meta.name, primaryKey: primaryKey) else {
                _fatal(Realm.Error(.invalidatedObject, "Object has been deleted or invalidated."))
            }
            resolved = found
            return found
        } catch {
            _fatal(Realm.Error(error))
        }
    }

    func currentRow() -> [EValue] {
        if rowVersion != context.version {
            do {
                row = try object.values(at: handleClass.rowEngineIndices)
            } catch {
                _fatal(Realm.Error(error))
            }
            rowVersion = context.version
        }
        return row
    }
}

/// The base of `Object`, `EmbeddedObject` and `AsymmetricObject` (Realm's `RLMObjectBase`); model
/// classes derive from one of those three.
open class ObjectBase: CustomStringConvertible {
    /// The state of a managed object (nil for an unmanaged one). An object read by its key
    /// (`_setRead`) keeps its context, class and key in fields of its own, and makes the state
    /// the first time something asks for it: reading its properties does not.
    final var _managedState: ManagedState? {
        get {
            if let state = _stateStorage { return state }
            guard let context = _readContext, let handleClass = _readClass else { return nil }
            let state = ManagedState(context: context, handleClass: handleClass, key: _readKey)
            _stateStorage = state
            return state
        }
        set {
            _stateStorage = newValue
            if _readContext != nil {
                _readContext = nil
                _readClass = nil
            }
            _isManaged = newValue != nil
            _counter = newValue?.context.counter
        }
    }
    // An object's bookkeeping fields skip Swift's dynamic exclusivity checks: an object is
    // confined to its thread (as in Realm Swift), and no access to them overlaps another.
    @exclusivity(unchecked) private final var _stateStorage: ManagedState?
    @exclusivity(unchecked) private final var _readContext: _RealmContext?
    @exclusivity(unchecked) private final var _readClass: HandleClass?
    @exclusivity(unchecked) private final var _readKey: Int64 = 0

    /// Makes an object managed as the object of `handleClass` with object key `key` (read or
    /// added just now; its state is made when first needed).
    final func _setRead(context: _RealmContext, handleClass: HandleClass, key: Int64) {
        _readContext = context
        _readClass = handleClass
        _readKey = key
        _isManaged = true
        _counter = context.counter
    }

    /// The class and object key of a top-level object managed by `context`, when they are known
    /// without a call (what a link to it stores); nil otherwise.
    final func _knownLink(in context: _RealmContext) -> ObjectLink? {
        if let state = _stateStorage {
            guard state.context === context, state.handleClass.meta.kind != .embedded, let key = state.knownKey else { return nil }
            return ObjectLink(classIndex: state.handleClass.engineClassIndex, key: key)
        }
        guard let readContext = _readContext, readContext === context, let readClass = _readClass,
              readClass.meta.kind != .embedded else { return nil }
        return ObjectLink(classIndex: readClass.engineClassIndex, key: _readKey)
    }

    /// The handle's version counter, for `@Persisted`'s inlined reads. Not retained: it is a
    /// constant of the context, which a managed object holds (`_readContext` or `_stateStorage`),
    /// and it is nil whenever the object is unmanaged.
    @usableFromInline @exclusivity(unchecked) final unowned(unsafe) var _counter: _VersionCounter?
    /// Whether the object is managed (what `@Persisted`'s inlined accessors test first).
    @usableFromInline @exclusivity(unchecked) final var _isManaged = false
    @exclusivity(unchecked) final var _recorder: _KeyPathRecorder? {
        didSet { _isPlain = _recorder == nil && _overrides == nil }
    }
    @exclusivity(unchecked) final var _metaCache: ClassMeta?
    @exclusivity(unchecked) final var _isPrototype = false
    /// Made from a dictionary given as a link's value (`create(_:value:)`, `init(value:)`): an
    /// upsert of it writes only the keys the dictionary gave, as Realm Swift does.
    @exclusivity(unchecked) final var _givenByName = false
    @exclusivity(unchecked) final var _overrides: [Int: Any]? {
        didSet { _isPlain = _recorder == nil && _overrides == nil }
    }
    /// Unmanaged, not recording key paths, no values set by name: `@Persisted` reads and writes
    /// the storage itself.
    @usableFromInline @exclusivity(unchecked) final var _isPlain = true

    /// Creates an unmanaged object with every property at its initial value.
    public required init() {
        _metaCache = ClassMeta.register(type(of: self))
    }

    /// An unmanaged object whose properties are taken from `value`: a dictionary by property
    /// name, an array in property order, or another object of the same class (an unmanaged copy
    /// of a managed object, as in the seeds' "unmanaged copy").
    public convenience init(value: Any) {
        self.init()
        do {
            try _assign(from: value)
        } catch {
            _fatal(error)
        }
    }

    final var _meta: ClassMeta {
        if let meta = _metaCache { return meta }
        let meta = ClassMeta.of(type(of: self))
        _metaCache = meta
        return meta
    }

    final var _context: _RealmContext? { _stateStorage?.context ?? _readContext }

    /// The position of the property whose storage lies at `offset` in the instance, when the
    /// class knows it (-1 when not yet): a lock-free scan.
    final func _knownPosition(offset: Int) -> Int { _meta.knownPosition(offset: offset) }

    // MARK: Class-level declarations (overridable, as in Realm Swift)

    /// The name of the class in the schema (and in the file): the Swift class name by default.
    open class func className() -> String { String(describing: self) }

    /// Stored names of properties, by Swift name: `["firstName": "first_name"]`. Queries and
    /// key paths use the Swift names; the file (and C and Python) see the stored ones.
    open class func propertiesMapping() -> [String: String] { [:] }

    /// The primary key's property name, for classes that declare it this way instead of with
    /// `@Persisted(primaryKey: true)`.
    open class func primaryKey() -> String? { nil }

    // MARK: Managed state

    /// The database this object belongs to, nil while unmanaged.
    public var realm: Realm? { _managedState.map { Realm(context: $0.context) } }

    /// True once the object was deleted (or its database closed).
    public var isInvalidated: Bool {
        guard let state = _managedState else { return false }
        return !state.object.isValid
    }

    /// Whether two objects are the same stored object (unmanaged objects: the same instance).
    public func isSameObject(as object: ObjectBase?) -> Bool {
        guard let object else { return false }
        if object === self { return true }
        guard let mine = _managedState, let theirs = object._managedState else { return false }
        return mine.context === theirs.context && mine.object == theirs.object
    }

    /// The class's schema.
    public var objectSchema: ObjectSchema { ObjectSchema(_meta) }

    /// Reads or writes a property by name (Swift or stored name), as Realm's key-value coding.
    public subscript(key: String) -> Any? {
        get {
            let position = _position(named: key)
            return _meta.properties[position].anyGet(self, position)
        }
        set {
            let position = _position(named: key)
            do {
                try _meta.properties[position].anySet(self, position, newValue)
            } catch {
                _fatal(error)
            }
        }
    }

    final func _position(named key: String) -> Int {
        if let position = _meta.positionByName[key] ?? _meta.properties.firstIndex(where: { $0.storedName == key }) {
            return position
        }
        _fatal(Realm.Error(.noSuchProperty, "Invalid property name '\(key)' for class '\(_meta.name)'."))
    }

    open var description: String {
        let body = _meta.properties.enumerated().compactMap { position, property -> String? in
            if property.shape.type == "linkingObjects" && _managedState == nil { return nil }
            return "\t\(property.name) = \(describe(_meta.properties[position].anyGet(self, position)));"
        }
        return "\(_meta.name) {\n" + body.joined(separator: "\n") + "\n}"
    }

    private func describe(_ value: Any?) -> String {
        guard let value else { return "nil" }
        if let object = value as? ObjectBase { return object === self ? "<cycle>" : "\(type(of: object).className())" }
        if let optional = value as? any _OptionalProtocol { return optional._isNil ? "nil" : "\(optional._unwrapped)" }
        if let string = value as? String { return "\"\(string)\"" }
        return "\(value)"
    }

    // MARK: Row access for @Persisted

    /// The stored value at `position` (a row value) of this managed object.
    @usableFromInline
    final func _rowValue(_ position: Int) -> _RawValue {
        let state = _managedState!
        let slot = state.handleClass.rowSlot[position]
        return _RawValue(state.currentRow()[slot])
    }

    /// Writes a row value of this managed object (links and scalars).
    public final func _setRowValue(_ position: Int, _ raw: _RawValue) throws {
        // An object read or added by its key, whose state nothing has needed yet: one write by
        // object key (a plain column is one cached UPDATE), without making the state.
        if _stateStorage == nil, let context = _readContext, let handleClass = _readClass {
            do {
                try context.database.setValue(classIndex: handleClass.engineClassIndex, key: _readKey,
                                              propertyIndex: handleClass.engineIndices[position], .value(raw.value))
            } catch {
                throw Realm.Error(error)
            }
            context.didWrite()
            return
        }
        let state = _managedState!
        let wasCurrent = state.rowVersion == state.context.version
        do {
            try state.object.set(at: state.handleClass.engineIndices[position], to: raw.value)
        } catch {
            throw Realm.Error(error)
        }
        state.context.didWrite()
        if wasCurrent {
            state.row[state.handleClass.rowSlot[position]] = raw.value
            state.rowVersion = state.context.version
        }
    }
}

protocol _OptionalProtocol {
    var _isNil: Bool { get }
    var _unwrapped: Any { get }
}

extension Optional: _OptionalProtocol {
    var _isNil: Bool { self == nil }
    var _unwrapped: Any { self! }
}

/// A top-level model class: `class Dog: Object { @Persisted var name = "" }`.
open class Object: ObjectBase {
    public required init() { super.init() }
}

/// An object that lives inside one parent object (a property, list or dictionary of it) and is
/// deleted with it: `class Address: EmbeddedObject { @Persisted var city = "" }`.
open class EmbeddedObject: ObjectBase {
    public required init() { super.init() }
}

/// An insert-only object (Realm's asymmetric objects): added, never read back or queried.
open class AsymmetricObject: ObjectBase {
    public required init() { super.init() }
}

extension ObjectBase {
    /// Sets the unmanaged properties from a dictionary, an array or an object (see `init(value:)`).
    func _assign(from value: Any) throws {
        let properties = _meta.properties
        if let other = value as? ObjectBase {
            let source = other._managedState == nil ? ClassMeta.storages(of: other).map { $0.1.anyCurrent } : nil
            for (position, property) in properties.enumerated() where property.shape.type != "linkingObjects" {
                guard let sourcePosition = other._meta.positionByName[property.name] else { continue }
                let item = source?[sourcePosition] ?? other._meta.properties[sourcePosition].anyGet(other, sourcePosition)
                try property.anySet(self, position, copyValue(item))
            }
        } else if let dictionary = value as? [String: Any] {
            for (key, item) in dictionary {
                let position = _position(named: key)
                try properties[position].anySet(self, position, item)
            }
        } else if let array = value as? [Any] {
            let settable = properties.indices.filter { properties[$0].shape.type != "linkingObjects" }
            guard array.count <= settable.count else {
                throw Realm.Error(.invalidArgument, "Invalid array input: more values (\(array.count)) than properties (\(settable.count)) for '\(_meta.name)'.")
            }
            for (item, position) in zip(array, settable) { try properties[position].anySet(self, position, item) }
        } else {
            throw Realm.Error(.invalidArgument, "Invalid value '\(value)' to initialize object of type '\(_meta.name)': expected a dictionary, an array or an object.")
        }
    }

    /// Collections of a managed object are copied into unmanaged ones; everything else is kept.
    private func copyValue(_ value: Any?) -> Any? {
        if let collection = value as? any _ManagedCopyable { return collection._unmanagedCopy() }
        return value
    }
}

extension ObjectBase {
    /// Values set by name on an unmanaged object (`init(value:)`, subscripts), by position; the
    /// storage holds everything else.
    final var _unmanagedOverrides: [Int: Any]? {
        get { _overrides }
        set { _overrides = newValue }
    }

    /// The unmanaged value of the property at `position`: through the storage's known reader,
    /// or by reflection for a storage the class has not seen accessed yet.
    final func _unmanagedValue(_ position: Int) -> Any {
        if let value = _overrides?[position] { return value }
        let accesses = _meta.accesses
        if position < accesses.count, let reader = accesses[position] { return reader.value(self) }
        return ClassMeta.storages(of: self)[position].1.anyCurrent
    }

    final func _setUnmanagedValue(_ position: Int, _ value: Any) {
        if _overrides == nil { _overrides = [:] }
        _overrides![position] = value
    }
}
