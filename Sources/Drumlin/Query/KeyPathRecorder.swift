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
    let recorder = _KeyPathRecorder()
    let root = Root()
    root._recorder = recorder
    _ = root[keyPath: keyPath]
    return recorder.names.joined(separator: ".")
}
