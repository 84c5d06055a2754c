/// A typed query over the properties of `T`, built in `where { }` and compiled to the engine's
/// query language: `realm.objects(Dog.self).where { $0.age > 2 && $0.name.starts(with: "R") }`.
@dynamicMemberLookup
public struct Query<T> {
    /// The expression, with `%@` for each argument in order.
    let text: String
    let arguments: [Any]

    init(text: String = "", arguments: [Any] = []) {
        self.text = text
        self.arguments = arguments
    }

    func predicate() -> (String, [Any]) { (text, arguments) }

    func appending<V>(_ name: String) -> Query<V> {
        Query<V>(text: text.isEmpty ? name : text + "." + name, arguments: arguments)
    }

    func binary(_ op: String, _ value: Any) -> Query<Bool> {
        Query<Bool>(text: "\(text) \(op) %@", arguments: arguments + [value])
    }
}

extension Query where T: ObjectBase {
    public subscript<V>(dynamicMember keyPath: KeyPath<T, V>) -> Query<V> { appending(_name(for: keyPath)) }
}

extension Query {
    /// Through an optional link: `$0.owner.name`.
    public subscript<O: ObjectBase, V>(dynamicMember keyPath: KeyPath<O, V>) -> Query<V> where T == O? {
        appending(_name(for: keyPath))
    }
    /// Through a list of links (matches when any element matches): `$0.dogs.name`.
    public subscript<O: ObjectBase, V>(dynamicMember keyPath: KeyPath<O, V>) -> Query<V> where T == List<O> {
        appending(_name(for: keyPath))
    }
    public subscript<O: ObjectBase, V>(dynamicMember keyPath: KeyPath<O, V>) -> Query<V> where T == MutableSet<O> {
        appending(_name(for: keyPath))
    }
    public subscript<O: ObjectBase, V>(dynamicMember keyPath: KeyPath<O, V>) -> Query<V> where T == LinkingObjects<O> {
        appending(_name(for: keyPath))
    }
}

// MARK: Comparisons

extension Query where T: _Persistable {
    public static func == (lhs: Query<T>, rhs: T) -> Query<Bool> { lhs.binary("==", rhs) }
    public static func != (lhs: Query<T>, rhs: T) -> Query<Bool> { lhs.binary("!=", rhs) }
    public static func == (lhs: Query<T>, rhs: Query<T>) -> Query<Bool> {
        Query<Bool>(text: "\(lhs.text) == \(rhs.text)", arguments: lhs.arguments + rhs.arguments)
    }

    /// Matches when the value is one of `values`.
    public func `in`<S: Sequence>(_ values: S) -> Query<Bool> where S.Element == T { binary("IN", Array(values) as [Any]) }
}

extension Query where T: _Persistable & Comparable {
    public static func > (lhs: Query<T>, rhs: T) -> Query<Bool> { lhs.binary(">", rhs) }
    public static func >= (lhs: Query<T>, rhs: T) -> Query<Bool> { lhs.binary(">=", rhs) }
    public static func < (lhs: Query<T>, rhs: T) -> Query<Bool> { lhs.binary("<", rhs) }
    public static func <= (lhs: Query<T>, rhs: T) -> Query<Bool> { lhs.binary("<=", rhs) }

    /// `lower ... upper`, both included.
    public func contains(_ range: ClosedRange<T>) -> Query<Bool> {
        Query<Bool>(text: "\(text) BETWEEN {%@, %@}", arguments: arguments + [range.lowerBound, range.upperBound])
    }
}

extension Query {
    public static func == <W: _Persistable>(lhs: Query<T>, rhs: W?) -> Query<Bool> where T == W? {
        lhs.binary("==", rhs as Any)
    }
    public static func != <W: _Persistable>(lhs: Query<T>, rhs: W?) -> Query<Bool> where T == W? {
        lhs.binary("!=", rhs as Any)
    }
    public static func > <W: _Persistable & Comparable>(lhs: Query<T>, rhs: W) -> Query<Bool> where T == W? { lhs.binary(">", rhs) }
    public static func >= <W: _Persistable & Comparable>(lhs: Query<T>, rhs: W) -> Query<Bool> where T == W? { lhs.binary(">=", rhs) }
    public static func < <W: _Persistable & Comparable>(lhs: Query<T>, rhs: W) -> Query<Bool> where T == W? { lhs.binary("<", rhs) }
    public static func <= <W: _Persistable & Comparable>(lhs: Query<T>, rhs: W) -> Query<Bool> where T == W? { lhs.binary("<=", rhs) }
}

// MARK: Logic

extension Query where T == Bool {
    public static func && (lhs: Query<Bool>, rhs: Query<Bool>) -> Query<Bool> {
        Query(text: "(\(lhs.text)) AND (\(rhs.text))", arguments: lhs.arguments + rhs.arguments)
    }
    public static func || (lhs: Query<Bool>, rhs: Query<Bool>) -> Query<Bool> {
        Query(text: "(\(lhs.text)) OR (\(rhs.text))", arguments: lhs.arguments + rhs.arguments)
    }
    public static prefix func ! (query: Query<Bool>) -> Query<Bool> {
        Query(text: "NOT (\(query.text))", arguments: query.arguments)
    }
}

// MARK: Strings

/// Options of string comparisons in typed queries.
public struct StringOptions: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let caseInsensitive = StringOptions(rawValue: 1)
    public static let diacriticInsensitive = StringOptions(rawValue: 2)

    var modifier: String {
        var letters = ""
        if contains(.caseInsensitive) { letters += "c" }
        if contains(.diacriticInsensitive) { letters += "d" }
        return letters.isEmpty ? "" : "[\(letters)]"
    }
}

/// Strings and optional strings.
public protocol _QueryString {}
extension String: _QueryString {}
extension Optional: _QueryString where Wrapped == String {}

extension Query where T: _QueryString {
    public func contains(_ value: String, options: StringOptions = []) -> Query<Bool> { binary("CONTAINS\(options.modifier)", value) }
    public func starts(with value: String, options: StringOptions = []) -> Query<Bool> { binary("BEGINSWITH\(options.modifier)", value) }
    public func ends(with value: String, options: StringOptions = []) -> Query<Bool> { binary("ENDSWITH\(options.modifier)", value) }
    public func equals(_ value: String, options: StringOptions = []) -> Query<Bool> { binary("==\(options.modifier)", value) }
    public func notEquals(_ value: String, options: StringOptions = []) -> Query<Bool> { binary("!=\(options.modifier)", value) }
    /// `*` matches any run of characters, `?` one character.
    public func like(_ value: String, caseInsensitive: Bool = false) -> Query<Bool> { binary(caseInsensitive ? "LIKE[c]" : "LIKE", value) }
}

// MARK: Collections

/// Collections usable in typed queries.
public protocol _QueryCollection { associatedtype _QueryElement }
extension List: _QueryCollection { public typealias _QueryElement = Element }
extension MutableSet: _QueryCollection { public typealias _QueryElement = Element }
extension LinkingObjects: _QueryCollection { public typealias _QueryElement = Element }
extension Map: _QueryCollection { public typealias _QueryElement = Value }

extension Query where T: _QueryCollection {
    /// The number of elements.
    public var count: Query<Int> { appending("@count") }
    /// Matches when the collection holds `value`.
    public func contains(_ value: T._QueryElement) -> Query<Bool> {
        Query<Bool>(text: "%@ IN \(text)", arguments: [value] + arguments)
    }
    /// Matches when the collection holds any of `values`.
    public func containsAny<S: Sequence>(in values: S) -> Query<Bool> where S.Element == T._QueryElement {
        Query<Bool>(text: "ANY \(text) IN %@", arguments: arguments + [Array(values) as [Any]])
    }
    public var min: Query<T._QueryElement> { appending("@min") }
    public var max: Query<T._QueryElement> { appending("@max") }
    public var sum: Query<T._QueryElement> { appending("@sum") }
    public var avg: Query<T._QueryElement> { appending("@avg") }
}

extension Query where T: _QueryCollection, T._QueryElement: _Persistable {
    /// The elements themselves, compared with ANY semantics: `$0.scores.elements > 5`... as
    /// Realm's `$0.list > 5`.
    public static func > (lhs: Query<T>, rhs: T._QueryElement) -> Query<Bool> { lhs.binary(">", rhs) }
    public static func < (lhs: Query<T>, rhs: T._QueryElement) -> Query<Bool> { lhs.binary("<", rhs) }
    public static func == (lhs: Query<T>, rhs: T._QueryElement) -> Query<Bool> { lhs.binary("==", rhs) }
}

extension Query {
    /// A map's value for a key: `$0.scores["math"] > 5`.
    public subscript<K: _MapKey, V>(key: K) -> Query<V> where T == Map<K, V> {
        Query<V>(text: "\(text)['\(key.mapKey.replacingOccurrences(of: "'", with: "\\'"))']", arguments: arguments)
    }
    public var keys: Query<String> { appending("@keys") }
    public var values: Query<T> { appending("@values") }
}
