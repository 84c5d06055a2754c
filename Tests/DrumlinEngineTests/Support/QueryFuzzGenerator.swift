/// Random queries that follow the grammar, so the fuzz tests also reach deep, valid trees: each
/// one must parse, and its canonical description must parse back to itself.
struct QueryFuzzGenerator {
    private var random: QueryFuzzRandom
    /// Subquery variables in scope.
    private var variables: [String] = []

    init(seed: UInt64) {
        random = QueryFuzzRandom(seed: seed)
    }

    mutating func query() -> String {
        var text = predicate(depth: 0)
        let clauses = random.below(4) == 0 ? 1 + random.below(3) : 0
        for _ in 0..<clauses { text += " " + postfixClause() }
        return text
    }

    // MARK: - Predicates

    private mutating func predicate(depth: Int) -> String {
        switch random.below(depth > 2 ? 3 : 9) {
        case 0, 1, 2: return comparison(depth: depth)
        case 3: return "(" + predicate(depth: depth + 1) + ")"
        case 4: return predicate(depth: depth + 1) + pick([" && ", " AND ", " and ", " && "]) + predicate(depth: depth + 1)
        case 5: return predicate(depth: depth + 1) + pick([" || ", " OR ", " or "]) + predicate(depth: depth + 1)
        case 6: return pick(["!", "! ", "NOT ", "not "]) + atomicPredicate(depth: depth + 1)
        case 7: return pick(["TRUEPREDICATE", "FALSEPREDICATE", "truepredicate", "FalsePredicate"])
        default: return "(" + predicate(depth: depth + 1) + ")" + pick([" && ", " || "]) + comparison(depth: depth + 1)
        }
    }

    private mutating func atomicPredicate(depth: Int) -> String {
        random.below(2) == 0 ? comparison(depth: depth) : "(" + predicate(depth: depth) + ")"
    }

    private mutating func comparison(depth: Int) -> String {
        switch random.below(9) {
        case 0, 1:
            let op = pick(["==", "=", "!=", "<>"])
            return expression(depth: depth) + " " + op + pick(["", "", "[c]"]) + " " + expression(depth: depth)
        case 2:
            return expression(depth: depth) + " " + pick(["<", "<=", "=<", ">", ">=", "=>"]) + " " + expression(depth: depth)
        case 3:
            let op = pick(["BEGINSWITH", "endswith", "Contains", "LIKE", "like"])
            return value(depth: depth) + " " + op + pick(["", "[c]"]) + " " + pick([stringLiteral(), value(depth: depth)])
        case 4:
            let rhs = pick([list(), "$\(random.below(5))", path(quantified: true)])
            return value(depth: depth) + pick([" IN ", " in ", " IN[c] "]) + rhs
        case 5:
            return pick(["", "ALL "]) + path(quantified: false) + pick([" BETWEEN ", " between "])
                + "{" + constant() + ", " + constant() + "}"
        case 6:
            return path(quantified: false) + pick([" GEOWITHIN ", " geoWithin "]) + geoShape()
        case 7:
            return path(quantified: false) + pick([" TEXT ", " text "]) + stringLiteral()
        default:
            return pick(["", "ANY ", "SOME ", "ALL ", "NONE ", "any ", "none "]) + path(quantified: false)
                + " == " + constant()
        }
    }

    // MARK: - Expressions

    private mutating func expression(depth: Int) -> String {
        switch random.below(depth > 3 ? 1 : 5) {
        case 0, 1: return value(depth: depth)
        case 2: return expression(depth: depth + 1) + pick([" + ", " - ", " * ", " / "]) + expression(depth: depth + 1)
        case 3: return "(" + expression(depth: depth + 1) + ")"
        default: return value(depth: depth) + pick([" * ", " / "]) + "(" + expression(depth: depth + 1) + " - 1)"
        }
    }

    private mutating func value(depth: Int) -> String {
        switch random.below(depth > 2 ? 5 : 7) {
        case 0, 1: return constant()
        case 2, 3: return path(quantified: true)
        case 4: return pick(["", "ANY ", "ALL ", "NONE "]) + list()
        case 5: return subquery(depth: depth)
        default: return aggregate()
        }
    }

    private mutating func subquery(depth: Int) -> String {
        let variable = "$v\(variables.count)"
        let collection = path(quantified: false, allowVariable: true)
        variables.append(variable)
        let inner = predicate(depth: depth + 2)
        variables.removeLast()
        return pick(["SUBQUERY", "subquery"]) + "(" + collection + ", " + variable + ", " + inner + ")."
            + pick(["@count", "@size"])
    }

    private mutating func aggregate() -> String {
        let base = path(quantified: false)
        switch random.below(5) {
        case 0: return base + pick([".@count", ".@size", "[SIZE]", "[size]"])
        case 1: return base + pick([".@sum", ".@avg", ".@min", ".@max"])
        case 2: return base + pick([".@sum", ".@avg", ".@min", ".@max"]) + "." + name()
        case 3: return pick(["@links.@count", "@links.@size", "x.@links.@count", "@links.Person.dogs.@count"])
        default: return pick(["", "ANY "]) + base + ".@type"
        }
    }

    // MARK: - Paths

    private mutating func path(quantified: Bool, allowVariable: Bool = true) -> String {
        var text: String
        if allowVariable, let variable = variables.last, random.below(2) == 0 {
            text = random.below(4) == 0 && variables.count > 1 ? variables[random.below(variables.count)] : variable
        } else {
            switch random.below(12) {
            case 0: text = "$K\(random.below(3))"
            case 1: text = "@links." + pick(["Person.dogs", "Class.prop", "A.b"])
            default: text = firstName()
            }
        }
        for _ in 0..<random.below(4) {
            switch random.below(10) {
            case 0: text += "[\(random.below(10))]"
            case 1: text += pick(["[FIRST]", "[first]", "[LAST]", "[last]", "[*]"])
            case 2: text += "[" + stringLiteral() + "]"
            case 3: text += "[$\(random.below(4))]"
            case 4: text += pick([".@keys", ".@values"])
            case 5: text += ".@links." + pick(["Person.dogs", "X.y"])
            default: text += "." + name()
            }
        }
        if quantified && random.below(5) == 0 { text = pick(["ANY ", "SOME ", "ALL ", "NONE ", "all "]) + text }
        return text
    }

    /// Names that can start a path; keywords are avoided here since several are constants or
    /// operators when they stand alone.
    private mutating func firstName() -> String {
        pick(["age", "name", "items", "dogs", "fav\\ item", "名前", "é", "_x", "a-b", "price2", "Tx", "L", "O",
              "dict", "list", "mixed", "loc"])
    }

    /// Names after a dot, where keywords are just names.
    private mutating func name() -> String {
        pick(["age", "name", "price", "sort", "in", "text", "any", "null", "true", "O5", "T1", "inf", "not",
              "fav\\ item", "k", "$x", "subquery", "beginswith"])
    }

    // MARK: - Constants

    private mutating func constant() -> String {
        switch random.below(20) {
        case 0: return String(Int64(bitPattern: random.next()) >> random.below(64))
        case 1: return "-" + String(random.below(1000))
        case 2: return "0x" + String(random.next() >> (4 + random.below(60)), radix: 16)
        case 3: return pick(["1.5", "10.", ".5", "-.034", "1e5", "1E-5", "2.5f", "-3e+2F", "0.1", "123456789012345678901"])
        case 4: return pick(["inf", "-inf", "+Infinity", "nan", "-NaN"])
        case 5, 6: return stringLiteral()
        case 7: return pick(["true", "TRUE", "false", "FALSE", "null", "NULL", "nil", "Nil"])
        case 8: return "T\(random.below(100_000)):\(random.below(1_000_000_000))"
        case 9: return "T-\(1 + random.below(100_000)):-\(random.below(1_000_000_000))"
        case 10:
            return "\(1900 + random.below(200))-\(1 + random.below(12))-\(1 + random.below(28))"
                + pick(["@", "T"]) + "\(random.below(24)):\(random.below(50) + 10):\(random.below(50) + 10)"
                + pick(["", ":\(random.below(1_000_000_000))"])
        case 11: return "oid(" + hex(24) + ")"
        case 12: return "uuid(" + hex(8) + "-" + hex(4) + "-" + hex(4) + "-" + hex(4) + "-" + hex(12) + ")"
        case 13: return pick(["B64\"aGVsbG8=\"", "B64\"\"", "B64\"AAEC\"", "bin('x\\ny')", "binary(B64\"aGk=\")"])
        case 14: return pick(["O\(random.below(100))", "L\(random.below(9)):\(random.below(100))"])
        case 15: return "obj(" + stringLiteral() + ", " + pick(["5", "-5", "'k'", "oid(" + hex(24) + ")", "null"]) + ")"
        default: return "$\(random.below(10))"
        }
    }

    private mutating func stringLiteral() -> String {
        let pieces = ["a", "B", " ", "é", "名", "\\n", "\\t", "\\\\", "\\/", "\\u00e9", "\\uD83D\\uDE00", "\\0", "*", "?"]
        var body = ""
        for _ in 0..<random.below(6) { body += pick(pieces) }
        if random.below(2) == 0 {
            return "'" + body + pick(["", "\\'", "\""]) + "'"
        }
        return "\"" + body + pick(["", "\\\"", "'"]) + "\""
    }

    private mutating func list() -> String {
        "{" + (0..<random.below(4)).map { _ in constant() }.joined(separator: ", ") + "}"
    }

    private mutating func geoShape() -> String {
        switch random.below(4) {
        case 0: return pick(["geoBox", "GEOBOX"]) + "(" + geoPoint() + ", " + geoPoint() + ")"
        case 1: return pick(["geoCircle", "geocircle"]) + "(" + geoPoint() + ", " + coordinate() + ")"
        case 2:
            let rings = (0..<(1 + random.below(3))).map { _ in
                "{" + (0..<(1 + random.below(4))).map { _ in geoPoint() }.joined(separator: ", ") + "}"
            }
            return "geoPolygon(" + rings.joined(separator: ", ") + ")"
        default: return "$\(random.below(5))"
        }
    }

    private mutating func geoPoint() -> String {
        "[" + coordinate() + ", " + coordinate() + (random.below(4) == 0 ? ", " + coordinate() : "") + "]"
    }

    private mutating func coordinate() -> String {
        pick(["0", "1", "-1.5", "180", "-90", "0.25", "$0", "$1", "1e-3", "-inf"])
    }

    // MARK: - Postfix

    private mutating func postfixClause() -> String {
        switch random.below(3) {
        case 0:
            let keys = (0..<(1 + random.below(3))).map { _ in
                path(quantified: false, allowVariable: false) + " " + pick(["ASC", "asc", "DESC", "Descending", "ascending"])
            }
            return pick(["SORT", "sort"]) + "(" + keys.joined(separator: ", ") + ")"
        case 1:
            let paths = (0..<(1 + random.below(3))).map { _ in path(quantified: false, allowVariable: false) }
            return pick(["DISTINCT", "distinct"]) + "(" + paths.joined(separator: ", ") + ")"
        default:
            return pick(["LIMIT", "limit"]) + "(\(random.below(100)))"
        }
    }

    // MARK: - Helpers

    private mutating func pick(_ choices: [String]) -> String {
        choices[random.below(choices.count)]
    }

    private mutating func hex(_ count: Int) -> String {
        let digits = Array("0123456789abcdefABCDEF")
        return String((0..<count).map { _ in digits[random.below(digits.count)] })
    }
}
