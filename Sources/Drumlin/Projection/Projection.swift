/// A view of an object with chosen, renamed and transformed properties, as Realm Swift's
/// `Projection`:
///
/// ```swift
/// class PersonProjection: Projection<Person> {
///     @Projected(\Person.firstName) var firstName
///     @Projected(\Person.address?.city) var homeCity
/// }
/// ```
///
/// Reads and writes go to the projected object (`rootObject`).
open class Projection<Root: ObjectBase>: CustomStringConvertible {
    /// The object this projection shows.
    public let rootObject: Root

    public required init(projecting object: Root) { rootObject = object }

    public var realm: Realm? { rootObject.realm }
    public var isInvalidated: Bool { rootObject.isInvalidated }

    open var description: String { "\(type(of: self))(\(rootObject._meta.name))" }
}

/// A projected property: a key path from the projection's root object.
@propertyWrapper
public struct Projected<T: ObjectBase, Value> {
    let keyPath: KeyPath<T, Value>

    @available(*, unavailable, message: "@Projected can only be used as a property on a Projection")
    public var wrappedValue: Value {
        get { fatalError("unavailable") }
        // swiftlint:disable:next unused_setter_value
        set { fatalError("unavailable") }
    }

    public init(_ projectedKeyPath: KeyPath<T, Value>) { keyPath = projectedKeyPath }

    public static subscript<EnclosingSelf: Projection<T>>(
        _enclosingInstance projection: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Projected<T, Value>>
    ) -> Value {
        get { projection.rootObject[keyPath: projection[keyPath: storageKeyPath].keyPath] }
        set {
            guard let writable = projection[keyPath: storageKeyPath].keyPath as? ReferenceWritableKeyPath<T, Value> else {
                _fatal(Realm.Error(.invalidArgument, "Projected property '\(_name(for: projection[keyPath: storageKeyPath].keyPath))' is read-only."))
            }
            projection.rootObject[keyPath: writable] = newValue
        }
    }
}

/// The elements of a collection property mapped through a key path (`\Person.friends.projectTo.firstName`).
public struct ProjectedCollection<Element>: RandomAccessCollection, CustomStringConvertible {
    let elements: () -> [Element]

    public var startIndex: Int { 0 }
    public var endIndex: Int { elements().count }
    public subscript(position: Int) -> Element { elements()[position] }
    public var description: String { "ProjectedCollection<\(Element.self)> \(elements())" }
}

/// Maps the elements of a list through key paths: `list.projectTo.firstName`.
@dynamicMemberLookup
public struct ElementMapper<Element: ObjectBase> {
    let list: List<Element>

    public subscript<V>(dynamicMember keyPath: KeyPath<Element, V>) -> ProjectedCollection<V> {
        if let recorder = list.recorder {
            recorder.names.append(_name(for: keyPath))
            return ProjectedCollection { [] }
        }
        let list = self.list
        return ProjectedCollection { list.map { $0[keyPath: keyPath] } }
    }
}

extension List where Element: ObjectBase {
    /// The list's elements mapped through a key path, for projections.
    public var projectTo: ElementMapper<Element> { ElementMapper(list: self) }
}

extension Realm {
    /// Every object of the projection's root class, as live results of projections: queries
    /// (`filter`, `sorted(byKeyPath:)`) name the root class's properties, as in Realm Swift.
    public func objects<Root: Object, P: Projection<Root>>(_ type: P.Type) -> Results<P> {
        Results(context: context, source: .all(Root.self))
    }
}

/// How results make projections of their objects (`Results<PersonProjection>`).
protocol _ProjectionMaking {
    static func _project(_ object: ObjectBase) -> Any
}

extension Projection: _ProjectionMaking {
    static func _project(_ object: ObjectBase) -> Any { Self(projecting: object as! Root) }
}

/// A projection is an element of `Results` and, as a value, stands for its root object: stored
/// as a link to it (`@Persisted var owner: PersonProjection?` links a `Person`) and read back as
/// a projection of it. Two projections are equal when they show the same object.
extension Projection: RealmCollectionValue {
    public static func == (lhs: Projection<Root>, rhs: Projection<Root>) -> Bool {
        lhs === rhs || lhs.rootObject.isSameObject(as: rhs.rootObject)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(rootObject) }

    public static var _rlmShape: _PropertyShape { Root._rlmShape }
    public static func _rlmDefaultValue() -> Self { Self(projecting: Root._rlmDefaultValue()) }
    public static func _rlmFromRaw(_ raw: _RawValue, _ realm: _RealmContext?) -> Self {
        Self(projecting: Root._rlmFromRaw(raw, realm))
    }
    public static func _rlmFromRawIfPossible(_ raw: _RawValue, _ realm: _RealmContext?) -> Self? {
        Root._rlmFromRawIfPossible(raw, realm).map { Self(projecting: $0) }
    }
    public static func _rlmFromAny(_ value: Any?) -> Self? {
        if let projection = value as? Self { return projection }
        return Root._rlmFromAny(value).map { Self(projecting: $0) }
    }
    public func _rlmToRaw(_ realm: _RealmContext?) throws -> _RawValue { try rootObject._rlmToRaw(realm) }
    public static func _rlmGet(_ object: ObjectBase, _ position: Int) -> Self { Self(projecting: Root._rlmGet(object, position)) }
    public static func _rlmSet(_ object: ObjectBase, _ position: Int, _ value: Projection<Root>) throws {
        try Root._rlmSet(object, position, value.rootObject)
    }
}

extension Results where Element: ObjectBase {
    /// The results as projections.
    public func projected<P: Projection<Element>>(_ type: P.Type) -> [P] { map { P(projecting: $0) } }
}
