import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// Comparing single values: type checks with Realm's messages, the storage form of constants, and
/// the SQL for each operator (numbers across int/float/double/decimal, strings with `[c]`, mixed
/// values by their stored type).
extension QueryCompiler {
    enum Group: Equatable {
        case numeric, string, data, bool, date, objectId, uuid, link
    }

    static func group(_ type: PropertyType) -> Group? {
        switch type {
        case .int, .float, .double, .decimal128: .numeric
        case .string: .string
        case .data: .data
        case .bool: .bool
        case .date: .date
        case .objectId: .objectId
        case .uuid: .uuid
        case .object: .link
        case .mixed, .linkingObjects: nil
        }
    }

    static func group(_ value: Value) -> Group? {
        switch value {
        case .int, .float, .double, .decimal: .numeric
        case .string: .string
        case .data: .data
        case .bool: .bool
        case .date: .date
        case .objectId: .objectId
        case .uuid: .uuid
        case .link: .link
        case .null, .list, .dictionary: nil
        }
    }

    /// The DRUMLIN_TYPE codes a mixed value of a group is stored with.
    static func typeCodes(_ group: Group) -> String {
        switch group {
        case .numeric: "1, 6, 7, 8"
        case .string: "3"
        case .data: "4"
        case .bool: "2"
        case .date: "5"
        case .objectId: "9"
        case .uuid: "11"
        case .link: "10"
        }
    }

    /// A constant as the value stored in a column (dates as nanoseconds, bools as 0/1, ...).
    /// `origin` is the argument `value` is, as passed, if any: the parameter then records it.
    mutating func literal(_ value: Value, for type: PropertyType?, origin: Int?) throws(DrumlinError) -> String {
        switch value {
        case .bool(let b): return bind(.int(b ? 1 : 0))
        case .date(let t):
            guard let ns = t.nanosecondsSinceEpoch else { return bind(.int(t.seconds < 0 ? .min : .max)) }
            return bind(.int(ns))
        case .decimal(let d): return bind(.string(d.description))
        case .float(let f): return bind(.double(Double(f)))
        // A float property holds single-precision values: compare with the constant rounded the same way.
        case .double where type == .float, .int where type == .float:
            if let origin { return bind(.argumentAsFloat(origin)) }
            return bind(QueryTemplate.Parameter.roundedToFloat(value))
        case .data(let bytes) where type == .string: return bind(.string(String(decoding: bytes, as: UTF8.self)))
        case .link(let link): return bind(.int(link.key))
        default:
            if let origin { return bind(.argument(origin)) }
            return bind(value)
        }
    }

    /// A property of the object one to-one link away compared with a constant that is not null
    /// (`owner.name == $0`), as the set of keys it holds: `t0.owner IN (SELECT x.key FROM User AS
    /// x WHERE x.name = ?1)`, which SQLite answers from the indexes on the target's property and
    /// on the link, where the value read through the link is a subquery for every row (50k tasks,
    /// `owner.name == 'user7'`: 15.4 -> 0.3 ms). Only for comparisons that are false for a null
    /// value (a null link matches none of them either); nil for anything else.
    ///
    /// A path of several to-one links (`project.owner.name == $0`) is the set of keys its first
    /// link holds whose objects reach a match, one join per further hop: `t0.project IN (SELECT
    /// h0.key FROM Project AS h0 JOIN User AS h1 ON h1.key = h0.owner WHERE h1.name = ?1)`.
    mutating func linkedComparison(_ a: Operand, _ op: Query.ComparisonOperator, _ b: Operand, _ ci: Bool) throws(DrumlinError) -> String? {
        guard [.equal, .less, .lessOrEqual, .greater, .greaterOrEqual, .beginsWith, .endsWith, .contains, .like].contains(op),
              case .scalar = a.kind, a.source == nil, let owner = a.owner, owner.alias == nil,
              owner.chain.map({ $0.steps.count <= Self.hopsPerSubquery }) ?? true,
              let property = a.property, property.isColumn, case .constant(let value) = b.kind, !value.isNull,
              b.elements == nil, !b.isLookup else { return nil }
        let through = column(owner, quoted(property.storedName))
        guard a.sql.contains(through) else { return nil }
        // The first object of the path (the first link's target), then one join per hop.
        let (base, first, steps) = owner.chain.map { ($0.base, $0.first, $0.steps) } ?? (owner.key, owner.info, [])
        var from = "\(first.table) AS h0"
        for (i, step) in steps.enumerated() {
            from += " JOIN \(step.info.table) AS h\(i + 1) ON h\(i + 1).\(step.info.keyColumn) = h\(i).\(step.column)"
        }
        let last = "h\(steps.count)"
        var direct = a
        direct.sql = a.sql.replacing(through, with: "\(last).\(quoted(property.storedName))")
        direct.owner = ObjectRef(info: owner.info, key: "\(last).\(owner.info.keyColumn)", alias: last)
        let condition = try scalarComparison(direct, op, b, ci)
        return "\(base) IN (SELECT h0.\(first.keyColumn) FROM \(from) WHERE \(condition))"
    }

    /// The least string above every string that begins with `prefix` (in SQLite's binary order,
    /// which is code point order): `prefix` with its last character replaced by the next code
    /// point, the ones at U+10FFFF dropped first. Nil when there is none (an empty prefix, or one
    /// of U+10FFFF only): every string from `prefix` on begins with it.
    static func prefixEnd(_ prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            var next = last.value + 1
            if next == 0xD800 { next = 0xE000 }  // past the surrogates, which no string holds
            if let scalar = Unicode.Scalar(next) {
                scalars.append(scalar)
                var end = String.UnicodeScalarView()
                end.append(contentsOf: scalars)
                return String(end)
            }
        }
        return nil
    }

    /// The beginning every string a `LIKE` pattern matches has: its characters before the first
    /// wildcard (`*` or `?`; Realm's patterns have no escape). All of it when there is none.
    static func likePrefix(_ pattern: String) -> String {
        var prefix = String.UnicodeScalarView()
        for scalar in pattern.unicodeScalars {
            if scalar == "*" || scalar == "?" { break }
            prefix.append(scalar)
        }
        return String(prefix)
    }

    func stringOpCode(_ op: Query.ComparisonOperator) -> Int? {
        switch op {
        case .beginsWith: 1
        case .endsWith: 2
        case .contains: 3
        case .like: 4
        default: nil
        }
    }

    func unsupported(_ a: Kind, _ b: Kind, _ range: Query.SourceRange) -> DrumlinError {
        error("Unsupported comparison between type '\(typeWord(a))' and type '\(typeWord(b))'", at: range)
    }

    /// SQL comparing two values already known to be comparable. With `nullsEqual` (both sides
    /// are expressions, not constants) two nulls are equal, so they also match `>=` and `<=`.
    func sqlComparison(_ a: String, _ op: Query.ComparisonOperator, _ b: String, exactNumbers: Bool, text: Bool, ci: Bool,
                       nullsEqual: Bool = false) -> String {
        if let code = stringOpCode(op) { return "drumlin_strop(\(code), \(a), \(b), \(ci ? 1 : 0)) = 1" }
        let bothNull = nullsEqual ? "((\(a)) IS NULL AND (\(b)) IS NULL) OR " : ""
        var equal: String
        if text && ci {
            equal = "drumlin_strop(5, \(a), \(b), 1) = 1"    // null equals null already
        } else if exactNumbers {
            equal = "\(bothNull)drumlin_deccmp(\(a), \(b)) = 0"
        } else {
            equal = nullsEqual ? "\(a) IS \(b)" : "\(a) = \(b)"
        }
        switch op {
        case .equal: return equal
        case .notEqual: return "NOT coalesce(\(equal), 0)"
        default:
            let symbol: String
            switch op {
            case .less: symbol = "<"
            case .lessOrEqual: symbol = "<="
            case .greater: symbol = ">"
            default: symbol = ">="
            }
            let ordered = exactNumbers ? "drumlin_deccmp(\(a), \(b)) \(symbol) 0" : "\(a) \(symbol) \(b)"
            return (op == .lessOrEqual || op == .greaterOrEqual) && nullsEqual ? "(\(bothNull)\(ordered))" : ordered
        }
    }

    /// The name of an operand as written, for messages.
    func written(_ operand: Operand) -> String { text.utf8Slice(operand.range) }

    /// Realm reads a string compared with a number property as a number when it starts like one
    /// (`age == '31'`, `score > ' 1.5'`, as C++ stream extraction does); nil when it does not.
    static func numericString(_ string: String, as type: PropertyType) -> Value? {
        let bytes = Array(string.utf8)
        var i = 0
        while i < bytes.count, bytes[i] == 32 || (9...13).contains(bytes[i]) { i += 1 }
        let start = i
        if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
        let digitsStart = i
        func isDigit(_ j: Int) -> Bool { j < bytes.count && (48...57).contains(bytes[j]) }
        while isDigit(i) { i += 1 }
        var integerEnd = i
        switch type {
        case .int:
            guard i > digitsStart else { return nil }
            return Int64(String(decoding: bytes[start..<integerEnd], as: UTF8.self).replacing("+", with: "")).map { .int($0) }
        case .float, .double:
            var fraction = false
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                i += 1
                while isDigit(i) { i += 1; fraction = true }
            }
            if i == digitsStart || (i == digitsStart + 1 && !fraction && integerEnd == digitsStart) {
                // No digits: only the special values, written alone.
                switch string.lowercased() {
                case "nan", "+nan", "-nan": return type == .float ? .float(.nan) : .double(.nan)
                case "inf", "+inf", "infinity", "+infinity": return type == .float ? .float(.infinity) : .double(.infinity)
                case "-inf", "-infinity": return type == .float ? .float(-.infinity) : .double(-.infinity)
                default: return nil
                }
            }
            integerEnd = i
            if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                var j = i + 1
                if j < bytes.count, bytes[j] == UInt8(ascii: "+") || bytes[j] == UInt8(ascii: "-") { j += 1 }
                if isDigit(j) {
                    while isDigit(j) { j += 1 }
                    integerEnd = j
                }
            }
            guard let d = Double(String(decoding: bytes[start..<integerEnd], as: UTF8.self)) else { return nil }
            return type == .float ? .float(Float(d)) : .double(d)
        case .decimal128:
            guard let d = Decimal128(string: string), !d.isNaN else { return nil }
            return .decimal(d)
        default:
            return nil
        }
    }

    mutating func scalarComparison(_ lhs: Operand, _ op: Query.ComparisonOperator, _ rhs: Operand, _ ci: Bool) throws(DrumlinError) -> String {
        var a = lhs, b = rhs, op = op
        if stringOpCode(op) != nil, case .constant(let value) = a.kind, !isConstant(b) {
            // `'abc' CONTAINS name`: the constant is the text searched, so the sides stay.
            return try constantStringOperation(value, origin: a.origin, op, b, ci, a.range.union(b.range))
        }
        if case .constant = a.kind, !isConstant(b) { swap(&a, &b); op = op.mirrored }
        let range = a.range.union(b.range)

        if case .constant(let left) = a.kind, case .constant(let right) = b.kind {
            // Two constants: compare them in SQL like anything else; a list or dictionary (an
            // argument) is not a value SQL compares.
            for value in [left, right] {
                if case .list = value { throw error("Unsupported comparison between type '\(left.typeName)' and type '\(right.typeName)'", at: range) }
                if case .dictionary = value { throw error("Unsupported comparison between type '\(left.typeName)' and type '\(right.typeName)'", at: range) }
            }
            if left.isNull || right.isNull, op == .beginsWith || op == .endsWith || op == .contains || op == .like { return "0" }
            return sqlComparison(try literal(left, for: nil, origin: a.origin), op, try literal(right, for: nil, origin: b.origin),
                                 exactNumbers: false, text: true, ci: ci,
                                 nullsEqual: true)
        }

        switch a.kind {
        case .typeName(let typeSQL):
            if ci {
                throw error("Unsupported comparison operator '\(op == .equal ? "=" : op.rawValue.lowercased())[c]' against type '@type', right side must be a string or binary type", at: range)
            }
            if let constant = a.constantType ?? b.constantType {
                // Realm: a typed property's @type is a constant, so compared with a type name (or
                // another such @type) two constants are compared.
                let other = a.constantType == nil ? a : b
                let otherName: String?
                if case .constant(.string(let name)) = other.kind { otherName = name } else { otherName = other.constantType }
                if let otherName {
                    let (left, right) = a.constantType != nil ? (constant, otherName) : (otherName, constant)
                    throw error("Comparison between two constants is not supported ('\"\(left)\"' and '\"\(right)\"')", at: range)
                }
            }
            if case .typeName(let otherSQL) = b.kind {
                // `a.@type == b.@type`: numbers are one type name each (int, double, ...).
                switch op {
                case .equal: return "coalesce(\(typeSQL), 0) = coalesce(\(otherSQL), 0)"
                case .notEqual: return "coalesce(\(typeSQL), 0) != coalesce(\(otherSQL), 0)"
                default: throw error("Unsupported operator \(op.rawValue) in query. Only equal (==) and not equal (!=) are supported for this type.", at: range)
                }
            }
            guard case .constant(.string(let name)) = b.kind else {
                throw error("@type must be compared with a type name such as 'int' or 'string'", at: range)
            }
            // The name's type codes are written into the SQL.
            dependsOnValue(of: b)
            guard let codes = Self.typeCodes(named: name) else { throw error("Unknown type name '\(name)' for @type", at: b.range) }
            switch op {
            case .equal, .in: return "coalesce(\(typeSQL), 0) IN (\(codes))"
            case .notEqual: return "coalesce(\(typeSQL), 0) NOT IN (\(codes))"
            default: throw error("Only == and != can compare @type", at: range)
            }
        case .link(let info):
            guard op == .equal || op == .notEqual else {
                throw error("Unsupported comparison operator '\(op.rawValue.lowercased())' against type 'link', only == and != are supported", at: range)
            }
            let other: String
            switch b.kind {
            case .constant(.null):
                return op == .equal ? "\(a.sql) IS NULL" : "\(a.sql) IS NOT NULL"
            case .constant(.link(let link)):
                if link.classIndex >= 0, link.classIndex != info.index {
                    let otherClass = link.classIndex < database.classes.count ? database.classes[link.classIndex].name : "?"
                    throw error("The relationship '\(written(a))' which links to type '\(info.name)' cannot be compared to an argument of type '\(otherClass)'", at: range)
                }
                other = bind(.int(link.key))
            case .constant(let pk):
                // A scalar stands for the target's primary key, looked up when the query runs (so
                // the compiled SQL stays right as objects come and go).
                guard let pkIndex = info.primaryKeyIndex,
                      Self.group(pk) == Self.group(info.property(pkIndex).type) else { throw unsupported(a.kind, b.kind, range) }
                let property = info.property(pkIndex)
                let converted: Value
                do throws(DrumlinError) {
                    converted = try Coercion.scalar(pk, property.type, optional: property.isOptional, nested: false,
                                                    Label(className: info.name, propertyName: property.name))
                } catch {
                    throw self.error("Cannot compare '\(info.name)' links with \(pk.extendedJSON): \(error.message)", at: range)
                }
                other = "(SELECT x.\(info.keyColumn) FROM \(info.table) AS x WHERE x.\(quoted(property.storedName)) = \(bindPrimaryKey(converted, property, origin: b.origin)))"
            case .link(let otherInfo) where otherInfo === info && (a.isLookup || b.isLookup):
                // obj(…) with no such object matches nothing (a null link included).
                other = b.sql
            case .link(let otherInfo) where otherInfo === info:
                // Two links: two null links are equal.
                return op == .equal ? "\(a.sql) IS \(b.sql)" : "\(a.sql) IS NOT \(b.sql)"
            case .link(let otherInfo):
                throw error("Unsupported comparison between '\(written(a))' (a link to '\(info.name)') and '\(written(b))' (a link to '\(otherInfo.name)')", at: range)
            case .mixed(let typeSQL):
                return try mixedComparison(b.sql, typeSQL, op.mirrored, a, ci, range)
            default:
                throw unsupported(a.kind, b.kind, range)
            }
            return op == .equal ? "\(a.sql) = \(other)" : "\(a.sql) IS NOT \(other)"
        case .mixed(let typeSQL):
            return try mixedComparison(a.sql, typeSQL, op, b, ci, range)
        case .scalar, .count:
            if let semiJoin = try linkedComparison(a, op, b, ci) { return semiJoin }
            let type: PropertyType
            if case .scalar(let t) = a.kind { type = t } else { type = .int }
            let group = Self.group(type)
            if stringOpCode(op) != nil, group != .string && group != .data {
                throw error("Unsupported comparison operator '\(op.rawValue.lowercased())' against type '\(type.rawValue)', right side must be a string or binary type", at: range)
            }
            if ci, group != .string && group != .data {
                throw error("Unsupported comparison operator '\(op == .notEqual ? "!=" : "==")[c]' against type '\(type.rawValue)' (property '\(written(a))'), right side must be a string or binary type", at: range)
            }
            switch b.kind {
            case .constant(.null):
                switch op {
                case .equal, .greaterOrEqual, .lessOrEqual: return "\(a.sql) IS NULL"
                case .notEqual: return "\(a.sql) IS NOT NULL"
                case .like: return "\(a.sql) IS NULL"
                // Realm: a binary that is not null contains null case-insensitively, a null one
                // does not (every value begins with, ends with and contains null otherwise).
                case .contains where ci && group == .data: return "\(a.sql) IS NOT NULL"
                case .beginsWith, .endsWith, .contains: return "1"
                default: return "0"
                }
            case .constant(var value):
                var literalText = b.literal
                var origin = b.origin
                if group == .numeric, case .string(let string) = value {
                    // Read as a number or refused, by what the string holds.
                    dependsOnValue(of: b)
                    if let number = Self.numericString(string, as: type == .int || type == .float || type == .double || type == .decimal128 ? type : .int) {
                        value = number
                        literalText = nil
                        origin = nil
                    }
                }
                if group == .string, case .data = value, b.argumentIndex != nil {
                    // An argument's type is its own: a binary is no string (a bin('…') literal is).
                    throw unsupported(a.kind, .constant(value), range)
                }
                if group == .data, case .string(let string) = value, let index = b.argumentIndex {
                    throw error("Cannot compare argument $\(index) with value '\(string)' to a binary (property '\(written(a))')", at: range)
                }
                if type == .int || type == .bool || { if case .count = a.kind { return true }; return false }() {
                    let d: Double?
                    switch value {
                    case .double(let x): d = x
                    case .float(let x): d = Double(x)
                    default: d = nil
                    }
                    if let d, !d.isFinite { dependsOnValue(of: b) }
                    if let d, d.isNaN { throw error("NaN not supported for int (property '\(written(a))')", at: range) }
                    if let d, d.isInfinite { throw error("Infinity not supported for int (property '\(written(a))')", at: range) }
                    if d != nil, let origin { requirements.append(.finite(origin)) }
                }
                let valueGroup: Group? = {
                    if case .data = value, group == .string { return .string }
                    if case .string = value, group == .data { return .data }
                    return Self.group(value)
                }()
                guard let valueGroup, valueGroup == group else { throw unsupported(a.kind, .constant(value), range) }
                let exact = type == .decimal128 || { if case .decimal = value { return true }; return false }()
                let bound: String
                if type == .decimal128, let text = literalText, let decimal = Decimal128(string: text) {
                    // A number compared with a decimal128 converts from its written text, exactly.
                    bound = bind(.string(decimal.description))
                } else if case .string(let string) = value, group == .data {
                    bound = bind(.data(Array(string.utf8)))
                } else {
                    bound = try literal(value, for: type, origin: origin)
                }
                let comparison = sqlComparison(a.sql, op, bound, exactNumbers: exact, text: group == .string, ci: ci)
                let like = op == .like
                if op == .beginsWith || like, !ci, type == .string, case .string(let text) = value,
                   let end = Self.prefixEnd(like ? Self.likePrefix(text) : text) {
                    // Also the range of the strings with that beginning (a pattern's literal one
                    // for LIKE), which SQLite answers from an index on the property (the function
                    // alone reads every row: a prefix over 100k objects 10 -> 0.05 ms).
                    let lower: String
                    let upper: String
                    if let origin {
                        requirements.append(.prefixEnds(origin, like: like))
                        lower = like ? bind(.argumentLikePrefix(origin)) : bound
                        upper = bind(.argumentPrefixEnd(origin, like: like))
                    } else {
                        lower = like ? bind(.string(Self.likePrefix(text))) : bound
                        upper = bind(.string(end))
                    }
                    return "(\(a.sql) >= \(lower) AND \(a.sql) < \(upper) AND \(comparison))"
                }
                return comparison
            case .scalar(let otherType):
                guard Self.group(otherType) == group else { throw unsupported(a.kind, b.kind, range) }
                return sqlComparison(a.sql, op, b.sql, exactNumbers: type == .decimal128 || otherType == .decimal128,
                                     text: group == .string, ci: ci, nullsEqual: true)
            case .count:
                guard group == .numeric else { throw unsupported(a.kind, b.kind, range) }
                return sqlComparison(a.sql, op, b.sql, exactNumbers: type == .decimal128, text: false, ci: false, nullsEqual: true)
            case .mixed(let typeSQL):
                return try mixedComparison(b.sql, typeSQL, op.mirrored, a, ci, range)
            default:
                throw unsupported(a.kind, b.kind, range)
            }
        case .constant, .constantList:
            throw unsupported(a.kind, b.kind, range)
        }
    }

    /// `<constant> BEGINSWITH|ENDSWITH|CONTAINS|LIKE <expression>`: the constant is searched for the
    /// expression's value. A null constant matches nothing.
    mutating func constantStringOperation(_ value: Value, origin: Int?, _ op: Query.ComparisonOperator, _ other: Operand, _ ci: Bool,
                                          _ range: Query.SourceRange) throws(DrumlinError) -> String {
        guard let code = stringOpCode(op) else { return "0" }
        if value.isNull {
            // `NULL LIKE name` matches a null value, as `name LIKE NULL` does (Realm); NULL
            // contains, begins or ends with nothing.
            guard op == .like else { return "0" }
            switch other.kind {
            case .scalar(let type) where type == .string || type == .data: return "\(other.sql) IS NULL"
            case .mixed(let typeSQL): return "coalesce(\(typeSQL), 0) = 0"
            default: return "0"
            }
        }
        let constantGroup = Self.group(value)
        guard constantGroup == .string || constantGroup == .data else {
            throw error("Unsupported comparison operator '\(op.rawValue.lowercased())' against type '\(value.typeName)', right side must be a string or binary type", at: range)
        }
        switch other.kind {
        case .scalar(let type) where type == .string || type == .data:
            var constant = value
            if type == .string, case .data(let bytes) = value { constant = .string(String(decoding: bytes, as: UTF8.self)) }
            if type == .data, case .string(let s) = value { constant = .data(Array(s.utf8)) }
            let bound = constant == value ? try literal(value, for: nil, origin: origin) : bind(constant)
            return "(\(other.sql) IS NOT NULL AND drumlin_strop(\(code), \(bound), \(other.sql), \(ci ? 1 : 0)) = 1)"
        case .mixed(let typeSQL):
            let code3or4 = constantGroup == .string ? 3 : 4
            return "(coalesce(\(typeSQL), 0) = \(code3or4) AND drumlin_strop(\(code), \(try literal(value, for: nil, origin: origin)), \(other.sql), \(ci ? 1 : 0)) = 1)"
        case .scalar(let type):
            throw error("Unsupported comparison operator '\(op.rawValue.lowercased())' against type '\(type.rawValue)', right side must be a string or binary type", at: range)
        default:
            throw unsupported(.constant(value), other.kind, range)
        }
    }

    func isConstant(_ operand: Operand) -> Bool {
        if case .constant = operand.kind { return true }
        return false
    }

    /// A mixed value compared with anything: it matches only when its stored type is comparable.
    mutating func mixedComparison(_ value: String, _ typeSQL: String, _ op: Query.ComparisonOperator, _ other: Operand,
                                  _ ci: Bool, _ range: Query.SourceRange) throws(DrumlinError) -> String {
        let type = "coalesce(\(typeSQL), 0)"
        switch other.kind {
        case .constant(.null):
            switch op {
            case .equal, .like: return "\(type) = 0"
            case .notEqual: return "\(type) != 0"
            case .beginsWith, .endsWith, .contains: return "1"
            default: return "0"
            }
        case .constant(.link(let link)):
            // A mixed value holding a link: stored as '<key>:<stored class name>' (type 10).
            try requireEquality(op, range)
            let matched: String
            if database.classes.indices.contains(link.classIndex) {
                matched = "(\(type) = 10 AND \(value) = \(bind(.string("\(link.key):\(database.classes[link.classIndex].schema.storedName)"))))"
            } else {
                matched = "(\(type) = 10 AND CAST(\(value) AS INTEGER) = \(bind(.int(link.key))))"
            }
            return op == .notEqual ? "NOT coalesce(\(matched), 0)" : matched
        case .link(let info):
            // A link property or obj(…): the same stored form, built from the target's key (an
            // obj(…) that finds no object matches nothing).
            try requireEquality(op, range)
            let storedName = info.schema.storedName.replacing("'", with: "''")
            let matched = "(\(type) = 10 AND \(value) = (\(other.sql) || ':\(storedName)'))"
            return op == .notEqual ? "NOT coalesce(\(matched), 0)" : matched
        case .constant(var constant):
            if case .data(let bytes) = constant, other.literal?.hasPrefix("B64\"") == true {
                // Realm reads a `B64"…"` literal compared with a mixed value as the string it
                // encodes (`bin(B64"…")` is bytes).
                constant = .string(String(decoding: bytes, as: UTF8.self))
            }
            guard let group = Self.group(constant) else { throw unsupported(.mixed(type: typeSQL), other.kind, range) }
            if stringOpCode(op) != nil {
                guard group == .string || group == .data else {
                    throw error("Unsupported comparison operator '\(op.rawValue.lowercased())' against type '\(constant.typeName)', right side must be a string or binary type", at: range)
                }
                // Strings match strings and bytes match bytes, as in Realm.
                return "(\(type) = \(group == .string ? 3 : 4) AND \(sqlComparison(value, op, try literal(constant, for: nil, origin: other.origin), exactNumbers: false, text: true, ci: ci)))"
            }
            let comparison: String
            if group == .numeric {
                let bound: String
                if case .decimal(let d) = constant { bound = bind(.string(d.description)) } else { bound = try literal(constant, for: nil, origin: other.origin) }
                comparison = sqlComparison("(CASE WHEN \(type) = 8 THEN \(value) ELSE drumlin_num(\(value)) END)", op, bound,
                                           exactNumbers: true, text: false, ci: false)
            } else {
                // Bytes compare case-insensitively as strings do (`mixed ==[c] bin('…')`).
                comparison = sqlComparison(value, op, try literal(constant, for: nil, origin: other.origin), exactNumbers: false,
                                           text: group == .string || (group == .data && ci), ci: ci)
            }
            if op == .notEqual { return "NOT coalesce((\(type) IN (\(Self.typeCodes(group))) AND \(comparison.dropNot)), 0)" }
            return "(\(type) IN (\(Self.typeCodes(group))) AND \(comparison))"
        case .scalar(let otherType):
            guard let group = Self.group(otherType) else { throw unsupported(.mixed(type: typeSQL), other.kind, range) }
            let exact = group == .numeric
            let left = exact ? "(CASE WHEN \(type) = 8 THEN \(value) ELSE drumlin_num(\(value)) END)" : value
            let comparison = sqlComparison(left, op == .notEqual ? .equal : op, other.sql, exactNumbers: exact, text: group == .string, ci: ci)
            let matched = "(\(type) IN (\(Self.typeCodes(group))) AND \(comparison))"
            return op == .notEqual ? "NOT coalesce(\(matched), 0)" : matched
        case .mixed(let otherTypeSQL):
            let otherType = "coalesce(\(otherTypeSQL), 0)"
            let numeric = "(\(type) IN (1, 6, 7, 8) AND \(otherType) IN (1, 6, 7, 8) AND \(sqlComparison("(CASE WHEN \(type) = 8 THEN \(value) ELSE drumlin_num(\(value)) END)", op == .notEqual ? .equal : op, "(CASE WHEN \(otherType) = 8 THEN \(other.sql) ELSE drumlin_num(\(other.sql)) END)", exactNumbers: true, text: false, ci: false)))"
            let same = "(\(type) = \(otherType) AND \(type) NOT IN (1, 6, 7, 8) AND \(sqlComparison(value, op == .notEqual ? .equal : op, other.sql, exactNumbers: false, text: true, ci: ci)))"
            let matched = "(\(numeric) OR \(same) OR (\(type) = 0 AND \(otherType) = 0 AND \(op == .equal || op == .notEqual ? "1" : "0")))"
            return op == .notEqual ? "NOT coalesce(\(matched), 0)" : matched
        default:
            throw unsupported(.mixed(type: typeSQL), other.kind, range)
        }
    }

    func requireEquality(_ op: Query.ComparisonOperator, _ range: Query.SourceRange) throws(DrumlinError) {
        guard op == .equal || op == .notEqual else {
            throw error("Unsupported comparison operator '\(op.rawValue.lowercased())' against type 'link', only == and != are supported", at: range)
        }
    }

    /// Realm's name of each DRUMLIN_TYPE code's type (what a typed property's `@type` is).
    static let typeNames: [Int: String] = [1: "int", 2: "bool", 3: "string", 4: "binary", 5: "date", 6: "float",
                                           7: "double", 8: "decimal128", 9: "objectid", 10: "objectlink", 11: "uuid"]

    /// Realm's `@type` names (case-insensitive) as DRUMLIN_TYPE codes.

    static func typeCodes(named name: String) -> String? {
        switch name.lowercased() {
        case "null": "0"
        case "int", "integer", "int16", "int32", "int64", "short", "long", "byte", "char": "1"
        case "bool", "boolean": "2"
        case "string": "3"
        case "binary", "data", "bytearray", "byte[]", "bindata": "4"
        case "date", "datetimeoffset", "timestamp": "5"
        case "float": "6"
        case "double": "7"
        case "decimal", "decimal128": "8"
        case "objectid": "9"
        case "objectlink", "link": "10"
        case "uuid", "guid": "11"
        case "numeric": "1, 6, 7, 8"
        case "array", "list": "12"
        case "object", "dictionary": "13"
        case "collection": "12, 13"
        default: nil
        }
    }
}

extension String {
    /// `NOT coalesce(x, 0)` -> `x`, for building a negated mixed comparison from its positive form.
    var dropNot: String {
        if hasPrefix("NOT coalesce("), hasSuffix(", 0)") { return String(dropFirst("NOT coalesce(".count).dropLast(", 0)".count)) }
        return self
    }
}
