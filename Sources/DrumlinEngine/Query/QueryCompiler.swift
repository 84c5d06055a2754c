import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// Compiles a parsed query against one class into SQL. Every value is a bound parameter and every
/// identifier is quoted; the only text spliced into SQL is Drumlin's own (aliases, type codes).
/// Each parameter is recorded with where its value comes from (`QueryTemplate.Parameter`), so a
/// compile that looked at its arguments' types only is a template for other arguments.
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
    /// The arguments of the step being compiled (each filter of a chain has its own).
    var arguments: [Value] {
        didSet { argumentsSet += 1 }
    }
    /// Counts changes of `arguments`, so `$0` of one step never shares the parameter of another's.
    private var argumentsSet = 0
    /// The parameters bound so far (`?1`, `?2`, …) for these arguments, and where each comes from.
    var parameters: [Value] = []
    var sources: [QueryTemplate.Parameter] = []
    /// Set when the SQL or a parameter depends on an argument's value, not only its type, in a
    /// way `sources` does not record: the compile is then no template.
    var isValueDependent = false
    /// What a template of this compile needs of other arguments (`QueryTemplate.Requirement`).
    var requirements: [QueryTemplate.Requirement] = []
    /// Per argument: reads of its value not yet bound as a recorded parameter. A read that never
    /// ends in one went into the SQL some other way, so the compile is no template.
    private var unboundReads: [Int] = []
    /// Set by `rows` when the result is filters over every object of the root class: their WHERE
    /// condition, so aggregates read the table itself.
    var plainCondition: String?
    /// Set by `rows` when the result is filters over every object of the root class, then at most
    /// a SORT (and a LIMIT after it): the text after a select list of t0's columns that reads the
    /// rows straight from the table, in the results' order (`Results.rowsSQL`).
    var plainRows: String?
    /// Read every object of the root class in key order, under its key-order guard (see
    /// Objects/Database+KeyOrder.swift), rather than in creation order.
    var keyOrder = false
    /// Reverse the last SORT of the steps, its ties too (so the last object is the first of the
    /// reversed order: `Results.last()`).
    var reversesLastSort = false
    private var aliasCounter = 0
    /// Placeholders of the numbers and strings bound so far, so each is bound once.
    private var boundIndex: [String: Int] = [:]
    /// Set while the values of a chain of equalities are gathered (`equalityChain`): every
    /// value gets its own parameter, which the chain then replaces by one.
    var collecting = false
    /// SUBQUERY variables in scope: name -> the object they stand for.
    var variables: [String: ObjectRef] = [:]
    /// What an element of a constant list of mixed types that cannot be compared with the other
    /// side yields (Realm compares such a list as mixed values: the element just does not match).
    var listMismatch: String?

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
        /// How a to-one link path reached this object: its columns are read with one subquery
        /// joining the hops, not one nested subquery per hop (SQLite's parser stack allows ~10).
        var chain: LinkChain? = nil
    }

    /// A run of to-one links from `base` (the key SQL of an object of `first`): each step follows
    /// a link column to the next class.
    struct LinkChain {
        var base: String
        var first: ClassInfo
        var steps: [(column: String, info: ClassInfo)]
    }

    /// Where the elements of a to-many operand come from: joins plus the condition tying the
    /// first one to the enclosing row.
    struct Source {
        var from: String
        var condition: String
        /// The elements' order, as Realm lists them (list positions, dictionary keys, set values):
        /// what a whole-list comparison (`{1, 2} == list`) walks in step with the constants.
        var order: [String] = []
        /// Set when the last collection joined hangs off an earlier to-many step (`list.integers`,
        /// `link.dict.@keys`, `value[*][*]`): Realm compares each such collection (a group) on its
        /// own, so ALL, NONE and a whole-list comparison hold when they hold for one group.
        var groups: Groups? = nil
    }

    /// The groups of a `Source`: the rows before the last collection (one per group) and the join
    /// of a group's elements tied to its row, with their order; no `elements` when each group is
    /// one value (`link.dict.key1`).
    struct Groups {
        var from: String
        var condition: String
        var elements: (from: String, condition: String, order: [String])?
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
        /// Set when the constant is the argument `$n` or one of its elements (for messages).
        var argumentIndex: Int? = nil
        /// Set when the constant's value is argument `$n` itself, as passed: binding it records
        /// the argument as the parameter's source.
        var origin: Int? = nil
        /// For a constant list holding `obj(…)` elements: one operand per element (the objects
        /// are looked up when the query runs), walked instead of the values.
        var elements: [Operand]? = nil
        /// Set for `obj(…)`: a lookup that is null when no object has the key, which then
        /// matches nothing (not even a null link).
        var isLookup = false
        /// Set for the `@type` of a typed property: a constant, this type name.
        var constantType: String? = nil

        /// A constant list holding `obj(…)` lookups.
        var hasLookups: Bool { elements?.contains(where: \.isLookup) ?? false }
    }

    mutating func alias(_ prefix: String = "a") -> String {
        aliasCounter += 1
        return "\(prefix)\(aliasCounter)"
    }

    /// Adds a bound parameter of the query's own value and returns its placeholder.
    mutating func bind(_ value: Value) -> String {
        bind(value, .value(value))
    }

    /// Adds a bound parameter taken from an argument and returns its placeholder: the argument
    /// as passed or converted as `source` records it.
    mutating func bind(_ source: QueryTemplate.Parameter) -> String {
        bind(source.value(arguments), source)
    }

    /// Adds `value`, which comes from `source`, as a bound parameter and returns its placeholder.
    /// Past SQLite's limit on parameters (a query of 50,000 OR'ed terms), numbers, strings and
    /// bytes are written into the SQL as literals instead (quoted, so no text of the query ever
    /// becomes SQL).
    private mutating func bind(_ value: Value, _ source: QueryTemplate.Parameter) -> String {
        let argument: Int?
        switch source {
        case .value, .argumentPrefixEnd, .argumentLikePrefix: argument = nil  // computed from the argument, not it
        case .argument(let index), .argumentAsFloat(let index): argument = index
        }
        if let argument, argument < unboundReads.count { unboundReads[argument] -= 1 }
        if collecting {
            parameters.append(value)
            sources.append(source)
            return "?\(parameters.count)"
        }
        // One parameter per distinct number or string, or per argument: SQLite's cost grows with
        // their count. (An argument never shares a literal's parameter: another call's differs.)
        let key: String?
        switch source {
        case .argument(let index): key = "a\(argumentsSet):\(index)"
        case .argumentAsFloat(let index): key = "f\(argumentsSet):\(index)"
        case .argumentPrefixEnd(let index, let like): key = "\(like ? "E" : "e")\(argumentsSet):\(index)"
        case .argumentLikePrefix(let index): key = "p\(argumentsSet):\(index)"
        case .value(.int(let i)): key = "i\(i)"
        case .value(.string(let s)): key = "s" + s
        case .value(.double(let d)): key = "d\(d.bitPattern)"
        case .value: key = nil
        }
        if let key, let index = boundIndex[key] { return "?\(index)" }
        // Past a thousand parameters integers are written as literals (SQLite's cost per
        // numbered parameter grows with their count); past its limit, strings and bytes too.
        if parameters.count >= 1000, case .int(let i) = value {
            if argument != nil { isValueDependent = true }
            return "\(i)"
        }
        if parameters.count >= parameterLimit, let literal = Self.sqlLiteral(value) {
            if argument != nil { isValueDependent = true }
            return literal
        }
        parameters.append(value)
        sources.append(source)
        if let key { boundIndex[key] = parameters.count }
        return "?\(parameters.count)"
    }

    /// The template of this compile, whose rows SQL is `sql`, or nil when it depends on more than
    /// its arguments' types.
    func template(_ sql: String) -> QueryTemplate? {
        guard !isValueDependent, unboundReads.allSatisfy({ $0 == 0 }) else { return nil }
        return QueryTemplate(sql: sql, parameters: sources, requirements: requirements, plainRows: plainRows)
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

    /// The value of argument `index`. Every read of a value other than null is expected to end
    /// in a parameter bound from the argument (`bind(_:)` with its source); one that does not
    /// makes the compile no template.
    mutating func argument(_ index: Int, at range: Query.SourceRange) throws(DrumlinError) -> Value {
        guard index >= 0, index < arguments.count else {
            throw error("Request for argument at index \(index) but only \(arguments.count) argument\(arguments.count == 1 ? " is" : "s are") provided: $\(index) is missing", at: range)
        }
        let value = arguments[index]
        if !value.isNull {
            if unboundReads.count < arguments.count { unboundReads += repeatElement(0, count: arguments.count - unboundReads.count) }
            unboundReads[index] += 1
        }
        return value
    }

    /// Records that the SQL about to be made depends on the value of `operand`, when that is an
    /// argument: the compile is then no template.
    mutating func dependsOnValue(of operand: Operand) {
        if operand.origin != nil || operand.argumentIndex != nil { isValueDependent = true }
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
            return Self.balanced(try compileChain(parts, .notEqual, object), "AND")
        case .or(let parts):
            return Self.balanced(try compileChain(parts, .equal, object), "OR")
        case .comparison(let comparison):
            return try compile(comparison, object)
        }
    }

    /// The parts of an AND (`op` `!=`) or OR (`op` `==`) chain. Many comparisons of one property
    /// with constants (`age == 1 OR age == 2 OR …`) become one IN over a JSON array parameter.
    mutating func compileChain(_ parts: [Query.Predicate], _ op: Query.ComparisonOperator, _ object: ObjectRef) throws(DrumlinError) -> [String] {
        var groups: [String: [Int]] = [:]
        if parts.count >= 16 {
            for (i, part) in parts.enumerated() {
                guard case .comparison(let c) = part.kind, c.op == op, !c.caseInsensitive,
                      case .keyPath(let path, nil) = c.lhs.kind else { continue }
                switch c.rhs.kind {
                case .constant(let value, _) where !value.isNull: groups[path.description, default: []].append(i)
                default: continue
                }
            }
        }
        var sql = [String?](repeating: nil, count: parts.count)
        for (_, members) in groups where members.count >= 16 {
            guard case .comparison(let first) = parts[members[0]].kind,
                  let chain = try equalityChain(first.lhs, members.map { parts[$0] }, op, object) else { continue }
            sql[members[0]] = chain
            for i in members.dropFirst() { sql[i] = "" }
        }
        var result: [String] = []
        result.reserveCapacity(parts.count)
        for (i, part) in parts.enumerated() {
            if let done = sql[i] {
                if !done.isEmpty { result.append(done) }
                continue
            }
            result.append("(\(try compile(part, object)))")
        }
        return result
    }

    /// `lhs IN (the constants)` (or `NOT IN` for `!=`) when every comparison in `parts` is a plain
    /// `=` of one single-valued property with a number or string; nil otherwise.
    mutating func equalityChain(_ lhsExpression: Query.Expression, _ parts: [Query.Predicate], _ op: Query.ComparisonOperator,
                                _ object: ObjectRef) throws(DrumlinError) -> String? {
        let lhs = try operand(lhsExpression, object)
        var constants: [Operand] = []
        constants.reserveCapacity(parts.count)
        for part in parts {
            guard case .comparison(let c) = part.kind, case .constant(let value, let literal) = c.rhs.kind else { return nil }
            var constant = constantOperand(value, c.rhs.range)
            constant.literal = literal
            constants.append(constant)
        }
        guard let test = try equalityList(lhs, constants) else { return nil }
        return op == .equal ? "(\(test))" : "(NOT coalesce(\(test), 0))"
    }

    /// `lhs IN (SELECT value FROM json_each(?))` with one JSON array parameter (fewer than 16
    /// constants: `lhs IN (?1, ?2, …)`), when `lhs` is one single-valued property and `lhs = c` is
    /// a plain `=` for every constant `c` (numbers and strings); nil otherwise. SQLite compiles an OR of many comparisons in time quadratic in
    /// their count (it compares each constant with every one before it), one IN over an array in
    /// linear time: `x IN $0` with a list argument of 100,000 values and OR chains take this path.
    /// In a list of values of several types (`mixedTypes`), a constant that cannot be compared
    /// with `lhs` matches nothing, as on the general path (`over`); a few constants that compare
    /// otherwise than by a plain `=` are OR'ed beside the IN.
    mutating func equalityList(_ lhs: Operand, _ constants: [Operand], mixedTypes: Bool = false) throws(DrumlinError) -> String? {
        guard lhs.source == nil, case .scalar(let type) = lhs.kind,
              [.int, .bool, .string, .date, .double, .float].contains(type) else { return nil }
        let saved = parameters.count
        let savedReads = unboundReads
        collecting = true
        // An error is the general path's to report (or to treat as a mismatch of a mixed list).
        let split = try? constantValues(lhs, constants, mixedTypes: mixedTypes)
        collecting = false
        parameters.removeLast(parameters.count - saved)
        unboundReads = savedReads
        sources.removeLast(sources.count - saved)
        guard let (values, others) = split, others.count <= 16 else { return nil }
        if constants.count < 16, values.count == constants.count {
            // A few: `lhs IN (?1, ?2, …)`, each constant with its own parameter, as the OR of the
            // comparisons has them (so a template reuses them), and as quick to compile.
            var elements: [String] = []
            var rest: [String] = []
            let prefix = "\(lhs.sql) = "
            for constant in constants {
                let compared = try scalarComparison(lhs, .equal, constant, false)
                if compared.hasPrefix(prefix) { elements.append(String(compared.dropFirst(prefix.count))) } else { rest.append("coalesce((\(compared)), 0)") }
            }
            return (["\(lhs.sql) IN (\(elements.joined(separator: ", ")))"] + rest).joined(separator: " OR ")
        }
        // The constants' values are bound as one JSON array, not one parameter each.
        for constant in constants { dependsOnValue(of: constant) }
        let list = bind(.string(Self.jsonText(values)))
        var parts = ["\(lhs.sql) IN (SELECT value FROM json_each(\(list)))"]
        for index in others { parts.append("coalesce((\(try scalarComparison(lhs, .equal, constants[index], false))), 0)") }
        return parts.joined(separator: " OR ")
    }

    /// The bound value of each `lhs = constant` that compiles to a plain `=`, and the positions of
    /// the other constants (those that cannot be compared, in a list of several types, left out).
    private mutating func constantValues(_ lhs: Operand, _ constants: [Operand], mixedTypes: Bool) throws(DrumlinError) -> ([JSON], [Int]) {
        let saved = parameters.count
        var values: [JSON] = []
        var others: [Int] = []
        values.reserveCapacity(constants.count)
        for (position, constant) in constants.enumerated() {
            let compared: String
            do throws(DrumlinError) {
                compared = try scalarComparison(lhs, .equal, constant, false)
            } catch {
                guard mixedTypes, error.code == .query else { throw error }
                continue
            }
            let prefix = "\(lhs.sql) = ?"
            guard compared.hasPrefix(prefix), let index = Int(compared.dropFirst(prefix.count)), index > saved,
                  index <= parameters.count else {
                others.append(position)
                continue
            }
            switch parameters[index - 1] {
            case .int(let i): values.append(.int(i))
            case .string(let s): values.append(.string(s))
            case .double(let d) where d == d.rounded() && abs(d) < 1e15: values.append(.double(d))
            default: others.append(position)
            }
        }
        return (values, others)
    }

    static func jsonText(_ values: [JSON]) -> String {
        var writer = JSONWriter(reservingCapacity: values.count * 8)
        writer.write(.array(values))
        return writer.string
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
