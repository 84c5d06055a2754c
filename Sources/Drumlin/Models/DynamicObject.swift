internal import DrumlinEngine

/// An object of a class known only by name (`realm.dynamicObjects("Dog")`,
/// `realm.dynamicCreate("Dog", value: [...])`): its properties are read and written by name,
/// `dog["name"]` or `dog.name`, as Realm Swift's `DynamicObject`.
@dynamicMemberLookup
public final class DynamicObject: Object {
    public required init() { super.init() }

    /// The value of a property by name: `String`, `Int`, `Double`, `Date`, ..., nil for null;
    /// links are `DynamicObject`s; lists, sets and dictionaries are live `List`, `MutableSet` and
    /// `Map` (of `DynamicObject` for links, `AnyRealmValue` for mixed values).
    public override subscript(key: String) -> Any? {
        get { dynamicGet(key) }
        set { dynamicSet(key, newValue) }
    }

    /// `dog.name`: the same as `dog["name"]`.
    public subscript(dynamicMember member: String) -> Any? {
        get { self[member] }
        set { self[member] = newValue }
    }
}

extension ObjectBase {
    /// The objects of a list property, as `DynamicObject`s (live, writable in a write transaction).
    public func dynamicList(_ propertyName: String) -> List<DynamicObject> {
        let (owner, position) = dynamicCollection(propertyName, .list)
        return List(owner: owner, position: position)
    }

    /// The objects of a set property, as `DynamicObject`s.
    public func dynamicMutableSet(_ propertyName: String) -> MutableSet<DynamicObject> {
        let (owner, position) = dynamicCollection(propertyName, .set)
        return MutableSet(owner: owner, position: position)
    }

    /// The objects of a dictionary property, as `DynamicObject`s.
    public func dynamicMap<Key: _MapKey>(_ propertyName: String) -> Map<Key, DynamicObject?> {
        let (owner, position) = dynamicCollection(propertyName, .dictionary)
        return Map(owner: owner, position: position)
    }

    /// The owner and position a collection of links named `name` is addressed by: a model
    /// object's own position, or the engine's property index for a `DynamicObject`.
    private func dynamicCollection(_ name: String, _ kind: CollectionKind) -> (ObjectBase, Int) {
        guard let state = _managedState else {
            _fatal(Realm.Error(.invalidArgument, "dynamic\(kind.typeWord!.capitalized) needs a managed object: '\(name)' of an unmanaged \(type(of: self).className())."))
        }
        let className = state.object.className
        let index: Int
        do {
            index = try state.context.database.propertyIndex(className, name)
        } catch {
            _fatal(Realm.Error(error))
        }
        let property = state.object.objectSchema.properties[index]
        guard property.type == .object, property.collection == kind else {
            let word = kind == .set ? "set" : kind == .list ? "list" : "dictionary"
            _fatal(Realm.Error(.typeMismatch, "Property '\(className).\(property.name)' is not a \(word) of objects."))
        }
        if self is DynamicObject { return (self, index) }
        return (self, _position(named: name))
    }

    /// The engine's property index of the collection at `position` of this managed object: the
    /// class's position for a model object; the index itself for a `DynamicObject` (whose
    /// collections are made with the engine's index).
    final func _collectionEngineIndex(_ position: Int, _ state: ManagedState) -> Int {
        self is DynamicObject ? position : state.handleClass.engineIndices[position]
    }
}

extension DynamicObject {
    func dynamicGet(_ key: String) -> Any? {
        guard let state = _managedState else { return nil }
        do {
            let index = try state.context.database.propertyIndex(state.object.className, key)
            let property = state.object.objectSchema.properties[index]
            if property.collection != .single, let collection = DynamicCollections.make(self, index, property) { return collection }
            return AnyConversion.swiftValue(try state.object.value(at: index), state.context)
        } catch {
            _fatal(Realm.Error(error))
        }
    }

    func dynamicSet(_ key: String, _ value: Any?) {
        guard let state = _managedState else {
            _fatal(Realm.Error(.invalidArgument, "A DynamicObject is always managed: create it with realm.dynamicCreate or read it from realm.dynamicObjects."))
        }
        do {
            try state.object.set(key, to: AnyConversion.engineValue(Self.plain(value), state.context))
        } catch {
            _fatal(Realm.Error(error))
        }
        state.context.didWrite()
    }

    /// A collection given as a value (another object's `List`, `MutableSet` or `Map`) as its elements.
    static func plain(_ value: Any?) -> Any? {
        if let collection = value as? _KeyValueCollection { return collection._kvcElements }
        if let map = value as? _DynamicMapValue { return map._dynamicEntries }
        return value
    }
}

/// A `Map`'s entries as a dictionary, for assigning a map to a dynamic object's property.
protocol _DynamicMapValue {
    var _dynamicEntries: [String: Any?] { get }
}

extension Map: _DynamicMapValue {
    var _dynamicEntries: [String: Any?] {
        var result: [String: Any?] = [:]
        for (key, value) in self { result[key.mapKey] = value }
        return result
    }
}

/// The live collection a `DynamicObject` gives for a collection property, typed by the stored
/// element type, as Realm Swift's `DynamicObject` does.
enum DynamicCollections {
    static func make(_ owner: DynamicObject, _ index: Int, _ property: DrumlinEngine.Property) -> Any? {
        switch (property.type, property.isOptional) {
        case (.object, _): return of(DynamicObject.self, optionalForMap: true, owner, index, property.collection)
        case (.mixed, _): return of(AnyRealmValue.self, owner, index, property.collection)
        case (.bool, false): return of(Bool.self, owner, index, property.collection)
        case (.bool, true): return of(Bool?.self, owner, index, property.collection)
        case (.int, false): return of(Int.self, owner, index, property.collection)
        case (.int, true): return of(Int?.self, owner, index, property.collection)
        case (.float, false): return of(Float.self, owner, index, property.collection)
        case (.float, true): return of(Float?.self, owner, index, property.collection)
        case (.double, false): return of(Double.self, owner, index, property.collection)
        case (.double, true): return of(Double?.self, owner, index, property.collection)
        case (.decimal128, false): return of(Decimal128.self, owner, index, property.collection)
        case (.decimal128, true): return of(Decimal128?.self, owner, index, property.collection)
        case (.string, false): return of(String.self, owner, index, property.collection)
        case (.string, true): return of(String?.self, owner, index, property.collection)
        case (.data, false): return of(Data.self, owner, index, property.collection)
        case (.data, true): return of(Data?.self, owner, index, property.collection)
        case (.date, false): return of(Date.self, owner, index, property.collection)
        case (.date, true): return of(Date?.self, owner, index, property.collection)
        case (.objectId, false): return of(ObjectId.self, owner, index, property.collection)
        case (.objectId, true): return of(ObjectId?.self, owner, index, property.collection)
        case (.uuid, false): return of(UUID.self, owner, index, property.collection)
        case (.uuid, true): return of(UUID?.self, owner, index, property.collection)
        case (.linkingObjects, _): return nil
        }
    }

    private static func of<T: RealmCollectionValue>(_ type: T.Type, optionalForMap: Bool = false, _ owner: DynamicObject, _ index: Int,
                                                    _ kind: CollectionKind) -> Any? {
        switch kind {
        case .list: return List<T>(owner: owner, position: index)
        case .set: return MutableSet<T>(owner: owner, position: index)
        case .dictionary: return optionalForMap ? Map<String, T?>(owner: owner, position: index) : Map<String, T>(owner: owner, position: index)
        case .single: return nil
        }
    }
}
