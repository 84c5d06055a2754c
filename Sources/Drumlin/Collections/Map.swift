internal import DrumlinEngine

/// A dictionary property with string keys, as Realm Swift's `Map`: `@Persisted var scores: Map<String, Int>`.
public final class Map<Key: _MapKey, Value: RealmCollectionValue>: Collection, _ManagedCopyable, CustomStringConvertible {
    public typealias Element = (key: Key, value: Value)
    public typealias Index = Int

    enum Storage {
        case unmanaged([(key: Key, value: Value)])
        case managed(ObjectBase, Int)
    }
    var storage: Storage

    public init() { storage = .unmanaged([]) }
    init(owner: ObjectBase, position: Int) { storage = .managed(owner, position) }

    var managed: (map: EMap, context: _RealmContext)? {
        guard case .managed(let owner, let position) = storage, let state = owner._managedState else { return nil }
        do {
            return (try EMap(state.object, propertyIndex: owner._collectionEngineIndex(position, state)), state.context)
        } catch {
            _fatal(Realm.Error(error))
        }
    }

    public var realm: Realm? { managed.map { Realm(context: $0.context) } }

    var entries: [(key: Key, value: Value)] {
        switch storage {
        case .unmanaged(let entries): return entries
        case .managed:
            let (map, context) = managed!
            return _counted { () throws(EError) in try map.entries }.map { (Key(mapKey: $0.key), Value._rlmFromRaw(_RawValue($0.value), context)) }
        }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }
    public func index(after i: Int) -> Int { i + 1 }
    public subscript(position: Int) -> (key: Key, value: Value) { entries[position] }

    public var count: Int {
        switch storage {
        case .unmanaged(let entries): return entries.count
        case .managed: return _counted { () throws(EError) in try managed!.map.count }
        }
    }

    public var keys: [Key] { entries.map(\.key) }
    public var values: [Value] { entries.map(\.value) }
    public var description: String { "Map<\(Key.self), \(Value.self)> {" + entries.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}" }

    /// The value for a key, nil when there is none; assigning nil removes the key.
    public subscript(key: Key) -> Value? {
        get {
            switch storage {
            case .unmanaged(let entries): return entries.first { $0.key == key }?.value
            case .managed:
                let (map, context) = managed!
                do {
                    return try map.value(forKey: key.mapKey).map { Value._rlmFromRaw(_RawValue($0), context) }
                } catch {
                    _fatal(Realm.Error(error))
                }
            }
        }
        set {
            if let newValue { updateValue(newValue, forKey: key) } else { removeObject(for: key) }
        }
    }

    public func updateValue(_ value: Value, forKey key: Key) {
        mutate { entries in
            if let index = entries.firstIndex(where: { $0.key == key }) { entries[index].value = value } else { entries.append((key, value)) }
        } managed: { map, context in
            if let embedded = ElementWriter.isEmbedded(value) {
                try context.fillEmbedded(embedded) { members throws in
                    try map.set(json: .object(members), forKey: key.mapKey)
                    guard case .link(let link)? = try map.value(forKey: key.mapKey), let created = try context.database.object(link) else {
                        throw Realm.Error(.internal, "The embedded object was not created.")
                    }
                    return created
                }
            } else {
                try map.set(try ElementWriter.raw(value, context), forKey: key.mapKey)
            }
        }
    }

    public func removeObject(for key: Key) {
        mutate { entries in entries.removeAll { $0.key == key } } managed: { map, _ in _ = try map.removeValue(forKey: key.mapKey) }
    }

    public func removeAll() {
        mutate { entries in entries.removeAll() } managed: { map, _ in try map.removeAll() }
    }

    /// Adds or replaces the entries of a dictionary or a sequence of pairs.
    public func merge<S: Sequence>(_ sequence: S, uniquingKeysWith combine: (Value, Value) throws -> Value) rethrows
        where S.Element == (key: Key, value: Value) {
        for (key, value) in sequence {
            if let existing = self[key] { updateValue(try combine(existing, value), forKey: key) } else { updateValue(value, forKey: key) }
        }
    }

    func mutate(unmanaged: (inout [(key: Key, value: Value)]) -> Void, managed body: (EMap, _RealmContext) throws -> Void) {
        switch storage {
        case .unmanaged(var entries):
            unmanaged(&entries)
            storage = .unmanaged(entries)
        case .managed:
            let (map, context) = managed!
            do {
                try body(map, context)
            } catch {
                _fatal(Realm.Error(error))
            }
            context.didWrite()
        }
    }

    func _unmanagedCopy() -> Any {
        let copy = Map<Key, Value>()
        copy.storage = .unmanaged(entries)
        return copy
    }
}

/// Map keys: strings.
public protocol _MapKey: Hashable {
    init(mapKey: String)
    var mapKey: String { get }
}

extension String: _MapKey {
    public init(mapKey: String) { self = mapKey }
    public var mapKey: String { self }
}

extension Map: _Persistable {
    public static var _rlmShape: _PropertyShape {
        var shape = Value._rlmShape
        shape.collection = "dictionary"
        return shape
    }
    public static func _rlmDefaultValue() -> Map<Key, Value> { Map() }
    public static func _rlmFromRaw(_ raw: _RawValue, _ realm: _RealmContext?) -> Map<Key, Value> { Map() }
    public func _rlmToRaw(_ realm: _RealmContext?) throws -> _RawValue {
        _RawValue(.dictionary(try entries.map { ($0.key.mapKey, try $0.value._rlmToRaw(realm).value) }))
    }
    public static func _rlmFromAny(_ value: Any?) -> Map<Key, Value>? {
        if let map = value as? Map<Key, Value> { return map }
        guard let dictionary = value as? [String: Any?] else { return nil }
        let map = Map()
        for (key, item) in dictionary.sorted(by: { $0.key < $1.key }) {
            guard let element = Value._rlmFromAny(item) else { return nil }
            map.updateValue(element, forKey: Key(mapKey: key))
        }
        return map
    }
    public static func _rlmGet(_ object: ObjectBase, _ position: Int) -> Map<Key, Value> { Map(owner: object, position: position) }
    public static func _rlmSet(_ object: ObjectBase, _ position: Int, _ value: Map<Key, Value>) throws {
        if case .managed(let owner, let p) = value.storage, owner.isSameObject(as: object), p == position { return }
        let items = value.entries
        let target = Map(owner: object, position: position)
        target.removeAll()
        for (key, item) in items { target.updateValue(item, forKey: key) }
    }
}

extension Map: Hashable {
    public static func == (lhs: Map<Key, Value>, rhs: Map<Key, Value>) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
