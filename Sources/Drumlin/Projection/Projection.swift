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
    /// Every object of the projection's root class, as projections.
    public func objects<Root: Object, P: Projection<Root>>(_ type: P.Type) -> [P] {
        objects(Root.self).map { P(projecting: $0) }
    }
}

extension Results where Element: ObjectBase {
    /// The results as projections.
    public func projected<P: Projection<Element>>(_ type: P.Type) -> [P] { map { P(projecting: $0) } }
}
