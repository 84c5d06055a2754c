/// A link to a stored object: its class (index into the database's schema) and object key.
public struct ObjectLink: Hashable, Sendable {
    public var classIndex: Int
    public var key: Int64
    public init(classIndex: Int, key: Int64) {
        self.classIndex = classIndex
        self.key = key
    }
}

/// One value of any Drumlin type: what flows between JSON, the C API, Python and storage.
///
/// Numbers keep their exact type: `.int(3)` and `.double(3)` are different values, as in a mixed
/// property. Equality is exact (bitwise for doubles, so NaN equals NaN); numeric comparison across
/// types belongs to the query engine.
public enum Value: Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case float(Float)
    case double(Double)
    case decimal(Decimal128)
    case string(String)
    case data([UInt8])
    case date(Timestamp)
    case objectId(ObjectId)
    case uuid(UUIDValue)
    case link(ObjectLink)
    /// A nested list inside a mixed value.
    case list([Value])
    /// A nested dictionary inside a mixed value, in key order as given.
    case dictionary([(key: String, value: Value)])

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value's type word, as used in error messages: the schema's type names ("int",
    /// "string", "objectId", "decimal128", ...).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .int: "int"
        case .float: "float"
        case .double: "double"
        case .decimal: "decimal128"
        case .string: "string"
        case .data: "data"
        case .date: "date"
        case .objectId: "objectId"
        case .uuid: "uuid"
        case .link: "link"
        case .list: "list"
        case .dictionary: "dictionary"
        }
    }
}

extension Value: Equatable {
    public static func == (lhs: Value, rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.float(a), .float(b)): return a.bitPattern == b.bitPattern || a == b
        case let (.double(a), .double(b)): return a.bitPattern == b.bitPattern || a == b
        case let (.decimal(a), .decimal(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.data(a), .data(b)): return a == b
        case let (.date(a), .date(b)): return a == b
        case let (.objectId(a), .objectId(b)): return a == b
        case let (.uuid(a), .uuid(b)): return a == b
        case let (.link(a), .link(b)): return a == b
        case let (.list(a), .list(b)): return a == b
        case let (.dictionary(a), .dictionary(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }
}

extension Value: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
}

extension Value: CustomStringConvertible {
    /// The value as it reads in messages: `5`, `abc`, an ObjectId's hex. Used for
    /// "existing primary key value '5'" and similar.
    public var description: String {
        switch self {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .int(let i): String(i)
        case .float(let f): f.description
        case .double(let d): d.description
        case .decimal(let d): d.description
        case .string(let s): s
        case .data(let d): Base64.encode(d)
        case .date(let t): t.iso8601
        case .objectId(let o): o.hex
        case .uuid(let u): u.string
        case .link(let l): "link(\(l.classIndex):\(l.key))"
        case .list(let l): "[" + l.map(\.description).joined(separator: ", ") + "]"
        case .dictionary(let d): "{" + d.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        }
    }
}

extension Value {
    /// Whether the value is a link or a nested list or dictionary that holds one.
    package var containsLink: Bool {
        switch self {
        case .link: return true
        case .list(let items): return items.contains { $0.containsLink }
        case .dictionary(let entries): return entries.contains { $0.value.containsLink }
        default: return false
        }
    }
}
