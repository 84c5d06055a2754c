/// Compiles a parsed query against one class into SQL. Every value is a bound parameter and every
/// identifier is quoted; the only text spliced into SQL is Drumlin's own (aliases, type codes).
///
/// Semantics follow Realm: a to-many path compared with a value means ANY element unless `ALL` or
/// `NONE` is written; a constant list on the right means ANY of its elements; `ALL` over an empty
/// collection is true; numbers compare across int, float, double and decimal128 (also inside
/// mixed); a null link along a path yields null.
struct QueryCompiler {
    let database: Database
    /// The connection of the serialized call compiling the query (for primary key lookups).
    let connection: Connection
    let root: ClassInfo
    var text: String
    var arguments: [Value]
    var parameters: [Value] = []
    /// Set by `rows` when the result is a single filter over every object of the root class: the
    /// WHERE condition, so the rows can be read straight from the table.
    var plainCondition: String?
    private var aliasCounter = 0
    /// SUBQUERY variables in scope: name -> the object they stand for.
    var variables: [String: ObjectRef] = [:]

    init(database: Database, connection: Connection, root: ClassInfo, text: String, arguments: [Value]) {
        self.database = database
        self.connection = connection
        self.root = root
        self.text = text
        self.arguments = arguments
    }

    /// An object in SQL scope: its class and an expression for its key; `alias` when its row is
    /// joined under that alias (so columns read directly).
    struct ObjectRef {
        var info: ClassInfo
        var key: String
        var alias: String?
    }

    /// Where the elements of a to-many operand come from: joins plus the condition tying the
    /// first one to the enclosing row.
    struct Source {
        var from: String
        var condition: String
        /// The elements' order, as Realm lists them (list positions, dictionary keys, set values):
        /// what a whole-list comparison (`{1, 2} == list`) walks in step with the constants.
        var order: [String] = []
        /// The last collection joined is a set: compared with a constant list as a set.
        var isSet = false
    }

    /// What an operand holds, for type checks and for choosing the SQL comparison.
    enum Kind {
        case scalar(PropertyType)       // bool int float double decimal128 string data date objectId uuid
        case mixed(type: String)        // SQL expression of the value's DRUMLIN_TYPE code
        case link(ClassInfo)            // an object key of this class
        case typeName(String)           // `@type`: SQL expression of a mixed type code
        case constant(Value)            // a literal or argument; .null included
        case constantList([Value], Query.Quantifier?)
        case count                      // an integer result (count, size)
    }

    struct Operand {
        var sql: String
        var kind: Kind
        /// Set for to-many operands: `sql` is evaluated per element of this source.
        var source: Source?
        var quantifier: Query.Quantifier?
        var range: Query.SourceRange
        /// The object holding the final property, for TEXT and GEOWITHIN.
        var owner: ObjectRef?
        var property: Property?
        /// A constant's source text, so numbers compared with decimal128 convert exactly.
        var literal: String? = nil
        /// Set when the constant is the argument `$n`.
        var argumentIndex: Int? = nil
    }

    mutating func alias(_ prefix: String = "a") -> String {
        aliasCounter += 1
        return "\(prefix)\(aliasCounter)"
    }

    /// Adds a bound parameter and returns its placeholder. Past SQLite's limit on parameters (a
    /// query of 50,000 OR'ed terms), numbers, strings and bytes are written into the SQL as
    /// literals instead (quoted, so no text of the query ever becomes SQL).
    mutating func bind(_ value: Value) -> String {
        if parameters.count >= parameterLimit, let literal = Self.sqlLiteral(value) { return literal }
        parameters.append(value)
        return "?\(parameters.count)"
    }

    /// The most parameters a statement may have on this connection, less a margin for the
    /// parameters the result's SORT/LIMIT steps add.
    var parameterLimit: Int { max(100, Int(connection.variableLimit) - 100) }

    /// A value as an SQL literal, for the few types whose literal form is exact.
    static func sqlLiteral(_ value: Value) -> String? {
        switch value {
        case .int(let i): return "\(i)"
        case .double(let d) where d.isFinite && d == d.rounded() && abs(d) < 1e15: return "\(Int64(d)).0"
        case .double(let d) where d.isInfinite: return d > 0 ? "9e999" : "-9e999"
        case .string(let s) where !s.utf8.contains(0):
            return "'" + s.replacing("'", with: "''") + "'"
        case .data(let bytes):
            let digits = Array("0123456789ABCDEF".utf8)
            var hex: [UInt8] = []
            for byte in bytes { hex.append(digits[Int(byte >> 4)]); hex.append(digits[Int(byte & 15)]) }
            return "X'" + String(decoding: hex, as: UTF8.self) + "'"
        default: return nil
        }
    }

    // MARK: Errors

    func error(_ message: String, at range: Query.SourceRange? = nil) -> DrumlinError {
        var detail = message
        if let range {
            let column = String(decoding: text.utf8.prefix(range.start), as: UTF8.self).count + 1
            detail += " (at position \(column))"
        }
        return DrumlinError(.query, detail)
    }

    func typeWord(_ kind: Kind) -> String {
        switch kind {
        case .scalar(let type): type.rawValue
        case .mixed: "mixed"
        case .link(let info): "link to \(info.name)"
        case .typeName: "type name"
        case .constant(let value): value.isNull ? "null" : value.typeName
        case .constantList: "list"
        case .count: "int"
        }
    }

    func argument(_ index: Int, at range: Query.SourceRange) throws(DrumlinError) -> Value {
        guard index >= 0, index < arguments.count else {
            throw error("Request for argument at index \(index) but only \(arguments.count) argument\(arguments.count == 1 ? " is" : "s are") provided: $\(index) is missing", at: range)
        }
        return arguments[index]
    }

    // MARK: Entry points

    /// The WHERE condition for `predicate` over the root class aliased `t0`.
    mutating func condition(_ predicate: Query.Predicate) throws(DrumlinError) -> String {
        try compile(predicate, ObjectRef(info: root, key: "t0.\(root.keyColumn)", alias: "t0"))
    }

    mutating func compile(_ predicate: Query.Predicate, _ object: ObjectRef) throws(DrumlinError) -> String {
        switch predicate.kind {
        case .truePredicate: return "1"
        case .falsePredicate: return "0"
        case .not(let inner): return "NOT coalesce((\(try compile(inner, object))), 0)"
        case .and(let parts):
            var sql: [String] = []
            for part in parts { sql.append("(\(try compile(part, object)))") }
            return Self.balanced(sql, "AND")
        case .or(let parts):
            var sql: [String] = []
            for part in parts { sql.append("(\(try compile(part, object)))") }
            return Self.balanced(sql, "OR")
        case .comparison(let comparison):
            return try compile(comparison, object)
        }
    }

    /// `a OR b OR c …` grouped as a balanced tree: SQLite limits the depth of an expression
    /// (1000), and a chain written flat nests one level per term.
    static func balanced(_ parts: [String], _ op: String) -> String {
        if parts.count <= 64 { return parts.joined(separator: " \(op) ") }
        var level = parts
        while level.count > 1 {
            var next: [String] = []
            next.reserveCapacity(level.count / 8 + 1)
            var start = 0
            while start < level.count {
                let end = min(start + 8, level.count)
                next.append(end - start == 1 ? level[start] : "(" + level[start..<end].joined(separator: " \(op) ") + ")")
                start = end
            }
            level = next
        }
        return level[0]
    }
}
