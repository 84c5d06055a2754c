/// Compiled queries shared by every `Results` of one class, query text and argument types.
///
/// Compiling `name == $0` builds its SQL (parse, resolve, generate), yet the SQL depends only on the
/// text and on the *types* of the arguments: their values become bound parameters. A template
/// records which parameters are the arguments themselves, so a query text seen before is bound
/// to new arguments without compiling it again (`drumlin_query` in a loop, Python's `db.query`).
///
/// A template is certified, not assumed: the query is compiled again with two sets of probe
/// arguments of the same types (other numbers; strings with wildcard, quote, case and control
/// characters added). It is kept only when the SQL is identical for all three and every
/// parameter is either the same constant in all three or exactly the argument passed. Whatever
/// the compiler derives from an argument's value (a TEXT search phrase, a geo shape, an `@type`
/// name, a key path, rounding to float) fails that test, and such a text is compiled on every
/// use, as before. Only null, int, double and string arguments take part.
final class QueryTemplate {
    enum Parameter {
        case fixed(Value)
        case argument(Int)
    }

    struct Key: Hashable {
        let classIndex: Int
        let text: String
        let signature: UInt64
    }

    /// What the cache holds for a key.
    enum Entry {
        case template(QueryTemplate)
        /// The compiled form depends on argument values: compile every time.
        case uncacheable
    }

    /// The `(k, o)` rows SQL.
    let sql: String
    let parameters: [Parameter]
    /// The WHERE condition when the query is one filter over every object of the class: its rows
    /// are then read straight from the table (`Results.rowsSQL`).
    let condition: String?
    /// The read SQL (every column, in order), built on first use, and its prepared statement
    /// (the connection's cached one for that text).
    var rowsSQL: String?
    var rowsStatement: Statement?

    private init(sql: String, parameters: [Parameter], condition: String?) {
        self.sql = sql
        self.parameters = parameters
        self.condition = condition
    }

    /// The argument types, two bits each under a leading 1 (so counts differ too), or nil when an
    /// argument is of a type that does not take part or there are more than 31 arguments.
    static func signature(_ arguments: [Value]) -> UInt64? {
        guard arguments.count <= 31 else { return nil }
        var signature: UInt64 = 1
        for argument in arguments {
            let code: UInt64
            switch argument {
            case .null: code = 0
            case .int: code = 1
            case .double: code = 2
            case .string: code = 3
            default: return nil
            }
            signature = signature << 2 | code
        }
        return signature
    }

    /// Binds the parameters for `arguments` (of the template's signature) to `statement`, from 1,
    /// without building the array `bind(_:)` returns.
    func bind(_ arguments: [Value], to statement: Statement) throws(DrumlinError) {
        for (position, parameter) in parameters.enumerated() {
            switch parameter {
            case .fixed(let value): try ValueCodec.bind(value, to: statement, at: Int32(position + 1))
            case .argument(let index): try ValueCodec.bind(arguments[index], to: statement, at: Int32(position + 1))
            }
        }
    }

    /// The parameters for `arguments` (of the template's signature).
    func bind(_ arguments: [Value]) -> [Value] {
        var values: [Value] = []
        values.reserveCapacity(parameters.count)
        for parameter in parameters {
            switch parameter {
            case .fixed(let value): values.append(value)
            case .argument(let index): values.append(arguments[index])
            }
        }
        return values
    }

    /// A compiled result: the rows SQL, its parameters, and the plain-filter condition if any.
    typealias Compiled = (sql: String, parameters: [Value], condition: String?)

    /// The template of `compiled` (compiled from `arguments`), or nil when `compile` shows that
    /// the SQL or a parameter depends on more than the arguments' types.
    static func certify(_ compiled: Compiled, arguments: [Value],
                        compile: ([Value]) throws(DrumlinError) -> Compiled) -> QueryTemplate? {
        let first = arguments.map { probe($0, 1) }
        let second = arguments.map { probe($0, 2) }
        guard let a = try? compile(first), let b = try? compile(second),
              a.sql == compiled.sql, b.sql == compiled.sql, a.condition == compiled.condition,
              a.parameters.count == compiled.parameters.count, b.parameters.count == compiled.parameters.count
        else { return nil }
        var parameters: [Parameter] = []
        parameters.reserveCapacity(compiled.parameters.count)
        for (p, value) in compiled.parameters.enumerated() {
            if same(value, a.parameters[p]), same(value, b.parameters[p]) {
                parameters.append(.fixed(value))
                continue
            }
            let source = arguments.indices.first {
                same(arguments[$0], value) && same(first[$0], a.parameters[p]) && same(second[$0], b.parameters[p])
            }
            guard let source else { return nil }
            parameters.append(.argument(source))
        }
        return QueryTemplate(sql: compiled.sql, parameters: parameters, condition: compiled.condition)
    }

    /// A value of the same type as `value`, different from it and from the other probe.
    static func probe(_ value: Value, _ which: Int) -> Value {
        switch value {
        case .int(let i): return .int(which == 1 ? i &+ 7919 : i &- 104_729)
        case .double(let d):
            // Neither probe is exactly representable as a float, so rounding to float shows.
            if which == 1 { return .double(d == 0.3 ? 0.7 : 0.3) }
            return .double(d == -1.1e-7 ? 2.5e-7 : -1.1e-7)
        case .string(let s): return .string(which == 1 ? s + "\u{1}*?%_\\'\"Ab" : "Zß\u{2}[c]" + s)
        default: return value
        }
    }

    /// Same type and same payload (doubles bit for bit).
    static func same(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.int(let x), .int(let y)): return x == y
        case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern
        case (.string(let x), .string(let y)): return x == y
        case (.int, _), (.double, _), (.string, _), (.null, _): return false
        default: return a == b && sameCase(a, b)
        }
    }

    private static func sameCase(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.bool, .bool), (.float, .float), (.decimal, .decimal), (.date, .date), (.objectId, .objectId),
             (.uuid, .uuid), (.data, .data), (.link, .link), (.list, .list), (.dictionary, .dictionary):
            return true
        default:
            return false
        }
    }
}
