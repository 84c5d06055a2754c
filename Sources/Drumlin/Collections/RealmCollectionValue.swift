internal import DrumlinEngine

/// A type that can be an element of `List`, `MutableSet`, `Map` and `Results`.
public protocol RealmCollectionValue: _Persistable, Hashable {}

extension Bool: RealmCollectionValue {}
extension Int: RealmCollectionValue {}
extension Int8: RealmCollectionValue {}
extension Int16: RealmCollectionValue {}
extension Int32: RealmCollectionValue {}
extension Int64: RealmCollectionValue {}
extension Float: RealmCollectionValue {}
extension Double: RealmCollectionValue {}
extension String: RealmCollectionValue {}
extension Data: RealmCollectionValue {}
extension Date: RealmCollectionValue {}
extension UUID: RealmCollectionValue {}
extension ObjectId: RealmCollectionValue {}
extension Decimal128: RealmCollectionValue {}
extension Optional: RealmCollectionValue where Wrapped: RealmCollectionValue {}
extension ObjectBase: RealmCollectionValue {}

extension ObjectBase: Hashable {
    /// Managed objects are equal when they are the same stored object; unmanaged ones when they
    /// are the same instance.
    public static func == (lhs: ObjectBase, rhs: ObjectBase) -> Bool { lhs.isSameObject(as: rhs) }

    public func hash(into hasher: inout Hasher) {
        if let state = _managedState {
            hasher.combine(state.object.classIndex)
            hasher.combine(state.object.key)
        } else {
            hasher.combine(ObjectIdentifier(self))
        }
    }
}

/// Collections of a managed object become unmanaged copies in `init(value:)`.
protocol _ManagedCopyable {
    func _unmanagedCopy() -> Any
}

/// Writes one element into a managed collection: embedded objects are created in place,
/// unmanaged objects are added, everything else is converted.
enum ElementWriter {
    static func raw<Element: _Persistable>(_ element: Element, _ context: _RealmContext) throws -> EValue {
        try element._rlmToRaw(context).value
    }

    static func isEmbedded<Element: _Persistable>(_ element: Element) -> ObjectBase? {
        if let object = element as? ObjectBase, object._meta.kind == .embedded { return object }
        return nil
    }
}

/// The elements of a collection given as `Any` (`create(_:value:)`, `init(value:)`): an array, or
/// a Swift set (in its own order), as Realm takes any collection there.
func _anyElements(_ value: Any?) -> [Any?]? {
    if let items = value as? [Any?] { return items }
    if let set = value as? Set<AnyHashable> { return set.map { $0.base } }
    return nil
}
