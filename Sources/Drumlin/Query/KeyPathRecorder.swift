import Synchronization

/// Records the property names a key path passes through, by evaluating it on an object whose
/// `@Persisted` getters report instead of reading (Linux has no `_kvcKeyPathString`).
/// Implementation detail of key-path APIs.
public final class _KeyPathRecorder {
    var names: [String] = []

    func record<Value: _Persistable>(_ object: ObjectBase, _ position: Int, as type: Value.Type) -> Value {
        names.append(object._meta.properties[position].name)
        return Value._rlmRecordingValue(self)
    }
}

/// The property path a key path names (`\Dog.owner.name` → `"owner.name"`), as Realm's `_name(for:)`.
public func _name<Root: ObjectBase, Value>(for keyPath: KeyPath<Root, Value>) -> String {
    _name(for: keyPath as PartialKeyPath<Root>)
}

public func _name<Root: ObjectBase>(for keyPath: PartialKeyPath<Root>) -> String {
    if let known = keyPathNames.withLock({ $0[keyPath] }) { return known }
    let recorder = _KeyPathRecorder()
    let root = Root()
    root._recorder = recorder
    _ = root[keyPath: keyPath]
    let name = recorder.names.joined(separator: ".")
    keyPathNames.withLock { names in
        if names.count >= keyPathNameLimit { names.removeAll(keepingCapacity: true) }
        names[keyPath] = name
    }
    return name
}

/// The names found for key paths: a key path names the same properties every time, and the typed
/// queries (`where { $0.name == x }`) ask on every call, so each is recorded once (on a new
/// instance of its root class). Emptied when it holds `keyPathNameLimit` names.
private let keyPathNames = Mutex<[AnyKeyPath: String]>([:])
private let keyPathNameLimit = 4096
