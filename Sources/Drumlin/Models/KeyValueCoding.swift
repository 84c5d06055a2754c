internal import DrumlinEngine

// Realm Swift's key-value coding (NSObject's `value(forKey:)` there; Drumlin's own here, as
// swift-corelibs-foundation has none): on an object it reads or writes one property by name; on a
// collection it maps over the elements, or sets the property on each.

/// A collection whose elements key-value coding maps over.
protocol _KeyValueCollection {
    var _kvcElements: [Any?] { get }
}

extension Results: _KeyValueCollection { var _kvcElements: [Any?] { map { $0 } } }
extension List: _KeyValueCollection { var _kvcElements: [Any?] { map { $0 } } }
extension MutableSet: _KeyValueCollection { var _kvcElements: [Any?] { map { $0 } } }
extension LinkingObjects: _KeyValueCollection { var _kvcElements: [Any?] { map { $0 } } }
extension AnyRealmCollection: _KeyValueCollection { var _kvcElements: [Any?] { map { $0 } } }

enum KeyValueCoding {
    /// `key` of one element: a property of an object (`self` is the element itself).
    static func value(of element: Any?, forKey key: String) -> Any? {
        if key == "self" { return element }
        guard let element = flattened(element) else { return nil }
        if let object = element as? ObjectBase { return object[key] }
        if let collection = element as? _KeyValueCollection { return collection._kvcElements.map { value(of: $0, forKey: key) } }
        _fatal(Realm.Error(.invalidArgument, "Key-value coding: '\(key)' is not a property of a value of type \(type(of: element))."))
    }

    /// A dotted path: each key of an object in turn; over a collection, the path of each element.
    static func value(of element: Any?, forKeyPath keyPath: String) -> Any? {
        var keys = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let first = keys.first, !first.isEmpty, !keys.contains("") else {
            _fatal(Realm.Error(.invalidArgument, "Key-value coding: invalid key path '\(keyPath)'."))
        }
        keys.removeFirst()
        if let collection = flattened(element) as? _KeyValueCollection {
            return collection._kvcElements.map { self.value(of: $0, forKeyPath: keyPath) }
        }
        let next = value(of: element, forKey: first)
        return keys.isEmpty ? next : (flattened(next) == nil ? nil : value(of: next, forKeyPath: keys.joined(separator: ".")))
    }

    static func setValue(_ value: Any?, of element: Any?, forKey key: String) {
        guard let element = flattened(element) else { return }
        if let object = element as? ObjectBase {
            object[key] = value
        } else if let collection = element as? _KeyValueCollection {
            for item in collection._kvcElements { setValue(value, of: item, forKey: key) }
        } else {
            _fatal(Realm.Error(.invalidArgument, "Key-value coding: cannot set '\(key)' on a value of type \(type(of: element))."))
        }
    }

    /// nil for nil and for an optional holding nil; the value itself otherwise.
    private static func flattened(_ value: Any?) -> Any? {
        guard let value else { return nil }
        if let optional = value as? any _OptionalProtocol { return optional._isNil ? nil : flattened(optional._unwrapped) }
        return value
    }
}

extension ObjectBase {
    /// The value of a property by name (as `self[key]`).
    public func value(forKey key: String) -> Any? { self[key] }

    /// The value at a dotted key path: `"owner.name"`; through a collection, the values of its
    /// elements (`"dogs.name"` is an array of names).
    public func value(forKeyPath keyPath: String) -> Any? { KeyValueCoding.value(of: self, forKeyPath: keyPath) }

    /// Writes a property by name (as `self[key] = value`; managed objects in a write transaction).
    public func setValue(_ value: Any?, forKey key: String) { self[key] = value }

    /// Writes the property at the end of a dotted key path (on each element through a collection).
    public func setValue(_ value: Any?, forKeyPath keyPath: String) {
        guard let dot = keyPath.lastIndex(of: ".") else { return setValue(value, forKey: keyPath) }
        KeyValueCoding.setValue(value, of: self.value(forKeyPath: String(keyPath[..<dot])), forKey: String(keyPath[keyPath.index(after: dot)...]))
    }
}

extension RealmCollection {
    /// The value of `key` for each element, in order (`results.value(forKey: "name") as! [String]`).
    public func value(forKey key: String) -> Any? { map { KeyValueCoding.value(of: $0, forKey: key) } }

    /// The value at a dotted key path for each element, in order.
    public func value(forKeyPath keyPath: String) -> Any? { map { KeyValueCoding.value(of: $0, forKeyPath: keyPath) } }

    /// Sets `key` to `value` on every element (in a write transaction when managed).
    public func setValue(_ value: Any?, forKey key: String) {
        for element in Array(self) { KeyValueCoding.setValue(value, of: element, forKey: key) }
    }
}

extension Map {
    /// The value for a key (key-value coding on a map is a lookup, as in Realm Swift).
    public func value(forKey key: String) -> Any? {
        self[Key(mapKey: key)].map { $0 as Any }
    }

    /// The first key of the path looks up the value; the rest reads into it.
    public func value(forKeyPath keyPath: String) -> Any? {
        guard let dot = keyPath.firstIndex(of: ".") else { return value(forKey: keyPath) }
        return KeyValueCoding.value(of: value(forKey: String(keyPath[..<dot])), forKeyPath: String(keyPath[keyPath.index(after: dot)...]))
    }

    /// Sets the value for a key; nil removes it (in a write transaction when managed).
    public func setValue(_ value: Any?, forKey key: String) {
        let mapKey = Key(mapKey: key)
        guard let value else {
            self[mapKey] = nil
            return
        }
        guard let typed = Value._rlmFromAny(value) else {
            _fatal(Realm.Error(.typeMismatch, "Map<\(Key.self), \(Value.self)>: '\(value)' is not a \(Value.self)."))
        }
        self[mapKey] = typed
    }
}
