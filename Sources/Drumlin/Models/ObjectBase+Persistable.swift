internal import DrumlinEngine

/// Model classes are persistable as links: `@Persisted var owner: Person?` (a to-one link, always
/// optional) and elements of `List<Person>`, `MutableSet<Person>`, `Map<String, Person?>`.
extension ObjectBase: _Persistable {
    public static var _rlmShape: _PropertyShape { _PropertyShape("object", objectType: self) }

    public static func _rlmDefaultValue() -> Self { Self() }

    public static func _rlmRecordingValue(_ recorder: _KeyPathRecorder) -> Self {
        let object = Self()
        object._recorder = recorder
        return object
    }

    public static func _rlmFromRaw(_ raw: _RawValue, _ realm: _RealmContext?) -> Self {
        guard case .link(let link) = raw.value, let realm else { return Self() }
        return realm.object(link, as: self)
    }

    public static func _rlmFromAny(_ value: Any?) -> Self? {
        guard let value else { return nil }
        if let typed = value as? Self { return typed }
        if value is [String: Any] || value is [Any] {
            let object = Self()
            do {
                try object._assign(from: value)
            } catch {
                return nil
            }
            object._givenByName = value is [String: Any]
            return object
        }
        return nil
    }

    public func _rlmToRaw(_ realm: _RealmContext?) throws -> _RawValue {
        guard let realm else {
            throw Realm.Error(.invalidArgument, "An object can be linked only from a managed object.")
        }
        return _RawValue(try realm.linkValue(to: self))
    }

    public static func _rlmSet(_ object: ObjectBase, _ position: Int, _ value: ObjectBase) throws {
        let context = object._context!
        if value._meta.kind == .embedded {
            try context.setEmbedded(value, in: object, position: position)
        } else {
            try object._setRowValue(position, _RawValue(try context.linkValue(to: value)))
        }
    }
}
