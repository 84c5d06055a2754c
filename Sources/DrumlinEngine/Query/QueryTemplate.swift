import DrumlinStorage
import DrumlinValues

/// Compiled queries shared by every `Results` of one class, query text and argument types.
///
/// Compiling `name == $0` builds its SQL (parse, resolve, generate), yet the SQL mostly depends
/// only on the text and on the *types* of the arguments: their values become bound parameters.
/// The compiler records, as it binds each parameter, where its value comes from (`Parameter`), so
/// its first compile of a text is the template: a later call with arguments of the same types
/// takes the SQL and computes the parameters from its own arguments, without compiling.
///
/// Where the compiler decides on an argument's value rather than its type (a string read as a
/// number, a TEXT search phrase, a geo shape, an `@type` name, a key path, a list of constants
/// bound as one JSON array), it says so (`QueryCompiler.isValueDependent`) and the text is compiled
/// on every use, as before. Only null, int, double and string arguments take part; null is a type
/// of its own, so `note == $0` with null (`IS NULL`) and with a string are two templates.
final class QueryTemplate {
    /// Where a bound parameter's value comes from.
    enum Parameter: Equatable {
        /// A value of the query's own: a literal, or one the compiler made (a type code, a key).
        case value(Value)
        /// Argument `n`, as passed.
        case argument(Int)
        /// Argument `n`, an int or a double, rounded to single precision: the value a float
        /// property would hold, so comparing with one compares like with like.
        case argumentAsFloat(Int)
        /// The end of the strings that begin with argument `n`, a string (`Query.prefixEnd`):
        /// the upper bound of `BEGINSWITH`'s range; with `like`, of the strings that begin with
        /// the argument's literal beginning (`QueryCompiler.likePrefix`), the upper bound of
        /// `LIKE`'s.
        case argumentPrefixEnd(Int, like: Bool)
        /// The literal beginning of argument `n`, a `LIKE` pattern: the lower bound of its range.
        case argumentLikePrefix(Int)

        /// The parameter's value for `arguments`.
        @inline(__always) func value(_ arguments: [Value]) -> Value {
            switch self {
            case .value(let value): value
            case .argument(let index): arguments[index]
            case .argumentAsFloat(let index): Self.roundedToFloat(arguments[index])
            case .argumentPrefixEnd(let index, let like):
                if case .string(let text) = arguments[index],
                   let end = QueryCompiler.prefixEnd(like ? QueryCompiler.likePrefix(text) : text) { .string(end) } else { arguments[index] }
            case .argumentLikePrefix(let index):
                if case .string(let pattern) = arguments[index] { .string(QueryCompiler.likePrefix(pattern)) } else { arguments[index] }
            }
        }

        /// A number as a float property stores it (other values unchanged).
        static func roundedToFloat(_ value: Value) -> Value {
            switch value {
            case .int(let i): .double(Double(Float(i)))
            case .double(let d): .double(Double(Float(d)))
            default: value
            }
        }
    }

    /// What reusing a compile needs of new arguments besides their types.
    enum Requirement {
        /// Argument `n` is a finite number: compared with an int property, NaN and infinity are
        /// errors, which only compiling reports.
        case finite(Int)
        /// Argument `n` is a string with an end (`QueryCompiler.prefixEnd`), of its literal
        /// beginning with `like`: the compile read its `BEGINSWITH` or `LIKE` as a range.
        case prefixEnds(Int, like: Bool)

        func holds(_ arguments: [Value]) -> Bool {
            switch self {
            case .finite(let index):
                if case .double(let d) = arguments[index] { return d.isFinite }
                return true
            case .prefixEnds(let index, let like):
                guard case .string(let text) = arguments[index] else { return false }
                return QueryCompiler.prefixEnd(like ? QueryCompiler.likePrefix(text) : text) != nil
            }
        }
    }

    struct Key: Hashable {
        let classIndex: Int
        /// The query text byte for byte (a name in another Unicode normalization is another name).
        let text: ExactName
        let signature: UInt64
        /// Compiled to read in key order (`QueryCompiler.keyOrder`).
        var byKey = false
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
    let requirements: [Requirement]
    /// How its rows are read straight from the table, when they can be (`QueryCompiler.plainRows`).
    let plainRows: String?
    /// The read SQL (every column, in order), built on first use, and its prepared statement
    /// (the connection's cached one for that text).
    var rowsSQL: String?
    var rowsStatement: Statement?

    init(sql: String, parameters: [Parameter], requirements: [Requirement], plainRows: String?) {
        self.sql = sql
        self.parameters = parameters
        self.requirements = requirements
        self.plainRows = plainRows
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

    /// Whether `arguments` (of the template's signature) may use the template.
    func accepts(_ arguments: [Value]) -> Bool {
        requirements.allSatisfy { $0.holds(arguments) }
    }

    /// The parameters' values for `arguments` (of the template's signature), as the array a
    /// results' compiled plan keeps with its SQL. A query read in one call binds them with
    /// `bind(_:to:)` instead, without the array.
    func values(_ arguments: [Value]) -> [Value] {
        parameters.map { $0.value(arguments) }
    }

    /// Binds the parameters' values for `arguments` to `statement` (positions from 1): what
    /// `statement.bind(values(arguments))` does, without the array or a generic sequence (a lazy
    /// map's metadata the runtime looked up on every call: 3.5% of a lookup by name).
    func bind(_ arguments: [Value], to statement: Statement) throws(DrumlinError) {
        var index: Int32 = 1
        for parameter in parameters {
            try ValueCodec.bind(parameter.value(arguments), to: statement, at: index)
            index += 1
        }
    }
}
