internal import DrumlinEngine

/// The objects linking to an object through a property (an inverse relationship), as Realm
/// Swift's `LinkingObjects`: `@Persisted(originProperty: "dogs") var owners: LinkingObjects<Person>`.
/// Computed by the database; empty while the object is unmanaged.
public struct LinkingObjects<Element: ObjectBase>: RandomAccessCollection, CustomStringConvertible {
    let owner: ObjectBase?
    let position: Int

    init(owner: ObjectBase?, position: Int) {
        self.owner = owner
        self.position = position
    }

    /// The results of the inverse relationship (empty while unmanaged).
    var results: Results<Element>? {
        guard let owner, let state = owner._managedState else { return nil }
        do {
            let name = state.handleClass.meta.properties[position].name
            return Results(context: state.context, source: .engine(try state.object.backlinks(name), Element.self))
        } catch {
            _fatal(Realm.Error(error))
        }
    }

    public var realm: Realm? { owner?.realm }
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }
    public var count: Int { results?.count ?? 0 }
    public subscript(position: Int) -> Element { results![position] }
    public var description: String { "LinkingObjects<\(Element.self)> (\(count) objects)" }

    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> {
        guard let results else { _fatal(Realm.Error(.invalidArgument, "Unmanaged linking objects cannot be queried.")) }
        return results.filter(predicateFormat, arguments: args)
    }

    public func `where`(_ isIncluded: (Query<Element>) -> Query<Bool>) -> Results<Element> {
        guard let results else { _fatal(Realm.Error(.invalidArgument, "Unmanaged linking objects cannot be queried.")) }
        return results.where(isIncluded)
    }

    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Element> {
        guard let results else { _fatal(Realm.Error(.invalidArgument, "Unmanaged linking objects cannot be sorted.")) }
        return results.sorted(byKeyPath: keyPath, ascending: ascending)
    }

    public func index(of object: Element) -> Int? { firstIndex { $0 == object } }
}

extension LinkingObjects: _Persistable {
    public static var _rlmShape: _PropertyShape {
        var shape = _PropertyShape("linkingObjects", objectType: Element.self)
        shape.isComputed = true
        return shape
    }
    public static func _rlmDefaultValue() -> LinkingObjects<Element> { LinkingObjects(owner: nil, position: -1) }
    public static func _rlmFromRaw(_ raw: _RawValue, _ realm: _RealmContext?) -> LinkingObjects<Element> { _rlmDefaultValue() }
    public func _rlmToRaw(_ realm: _RealmContext?) throws -> _RawValue { _RawValue(.null) }
    public static func _rlmGet(_ object: ObjectBase, _ position: Int) -> LinkingObjects<Element> {
        LinkingObjects(owner: object, position: position)
    }
    public static func _rlmSet(_ object: ObjectBase, _ position: Int, _ value: LinkingObjects<Element>) throws {
        throw Realm.Error(.invalidArgument, "Cannot modify read-only property '\(object._meta.name).\(object._meta.properties[position].name)'.")
    }
}

extension LinkingObjects: Hashable {
    public static func == (lhs: LinkingObjects<Element>, rhs: LinkingObjects<Element>) -> Bool {
        lhs.owner === rhs.owner && lhs.position == rhs.position
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(position) }
}
