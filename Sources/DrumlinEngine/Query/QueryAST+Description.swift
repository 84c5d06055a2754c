import DrumlinStorage
import DrumlinValues

// Canonical text for query trees. Every operand of `&&`, `||` and `!` and every arithmetic
// operation is parenthesized, constants are printed from their decoded value (so `0x10` prints
// as `16` and `"a"` as `'a'`), and synonyms print one way (`SOME` as `ANY`, `@size` as `@count`).
// The output parses back to the same tree, which the fuzz tests check.

extension Query: CustomStringConvertible {
    public var description: String {
        ([predicate.description] + postfix.map(\.description)).joined(separator: " ")
    }
}

extension Query.Predicate: CustomStringConvertible {
    public var description: String {
        switch kind {
        case .and(let parts): parts.map { "(\($0))" }.joined(separator: " && ")
        case .or(let parts): parts.map { "(\($0))" }.joined(separator: " || ")
        case .not(let inner): "!(\(inner))"
        case .truePredicate: "TRUEPREDICATE"
        case .falsePredicate: "FALSEPREDICATE"
        case .comparison(let comparison): comparison.description
        }
    }
}

extension Query.Comparison: CustomStringConvertible {
    public var description: String {
        "\(lhs) \(op.rawValue)\(caseInsensitive ? "[c]" : "") \(rhs)"
    }
}

extension Query.Expression: CustomStringConvertible {
    public var description: String {
        switch kind {
        case .constant(let value, _):
            return Query.constantDescription(value)
        case .argument(let index):
            return "$\(index)"
        case .keyPath(let path, let quantifier):
            return Query.prefix(quantifier) + path.description
        case .list(let elements, let quantifier):
            return Query.prefix(quantifier) + "{" + elements.map(\.description).joined(separator: ", ") + "}"
        case .aggregate(let path, let op, let property, let quantifier):
            var text = Query.prefix(quantifier) + path.description + "." + op.rawValue
            if let property { text += "." + Query.escapedName(property) }
            return text
        case .typeOf(let path, let quantifier):
            return Query.prefix(quantifier) + path.description + ".@type"
        case .subquery(let collection, let variable, let predicate):
            return "SUBQUERY(\(collection), $\(variable), \(predicate)).@count"
        case .arithmetic(let lhs, let op, let rhs):
            return "(\(lhs) \(op.rawValue) \(rhs))"
        case .objectKey(let key):
            return "O\(key)"
        case .objectReference(let className, let primaryKey):
            return "obj(\(Query.quoted(className)), \(Query.constantDescription(primaryKey)))"
        case .objectArgumentReference(let className, let argument):
            return "obj(\(Query.quoted(className)), $\(argument))"
        case .geoBox(let southWest, let northEast):
            return "geoBox(\(southWest), \(northEast))"
        case .geoCircle(let center, let radius):
            return "geoCircle(\(center), \(radius))"
        case .geoPolygon(let rings):
            let text = rings.map { ring in "{" + ring.map(\.description).joined(separator: ", ") + "}" }
            return "geoPolygon(" + text.joined(separator: ", ") + ")"
        }
    }
}

extension Query.GeoPoint: CustomStringConvertible {
    public var description: String {
        let parts = [longitude, latitude] + (altitude.map { [$0] } ?? [])
        return "[" + parts.map(\.description).joined(separator: ", ") + "]"
    }
}

extension Query.GeoCoordinate: CustomStringConvertible {
    public var description: String {
        switch kind {
        case .number(let number): number.description
        case .argument(let index): "$\(index)"
        }
    }
}

extension Query.KeyPath: CustomStringConvertible {
    public var description: String {
        var text = ""
        for (index, component) in components.enumerated() {
            let isSubscript: Bool
            switch component.kind {
            case .index, .first, .last, .all, .key, .argument: isSubscript = true
            default: isSubscript = false
            }
            if index > 0 && !isSubscript { text += "." }
            text += component.description
        }
        return text
    }
}

extension Query.PathComponent: CustomStringConvertible {
    public var description: String {
        switch kind {
        case .property(let name): Query.escapedName(name)
        case .backlinks(let className, let property):
            "@links.\(Query.escapedName(className)).\(Query.escapedName(property))"
        case .allBacklinks: "@links"
        case .keys: "@keys"
        case .values: "@values"
        case .index(let index): "[\(index)]"
        case .first: "[FIRST]"
        case .last: "[LAST]"
        case .all: "[*]"
        case .key(let key): "[\(Query.quoted(key))]"
        case .argument(let index): "[$\(index)]"
        case .variable(let name): "$" + name
        case .keyPathArgument(let index): "$K\(index)"
        }
    }
}

extension Query.SortKey: CustomStringConvertible {
    public var description: String { "\(path) \(ascending ? "ASC" : "DESC")" }
}

extension Query.PostfixClause: CustomStringConvertible {
    public var description: String {
        switch kind {
        case .sort(let keys): "SORT(" + keys.map(\.description).joined(separator: ", ") + ")"
        case .distinct(let paths): "DISTINCT(" + paths.map(\.description).joined(separator: ", ") + ")"
        case .limit(let count): "LIMIT(\(count))"
        }
    }
}

extension Query {
    fileprivate static func prefix(_ quantifier: Quantifier?) -> String {
        quantifier.map { $0.rawValue + " " } ?? ""
    }

    /// A property name as it must be written: space, newline, return and tab escaped as
    /// `\ `, `\n`, `\r`, `\t`.
    static func escapedName(_ name: String) -> String {
        var text = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case " ": text += "\\ "
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    /// A single-quoted string literal using the escapes the lexer understands.
    static func quoted(_ string: String) -> String {
        var text = "'"
        for scalar in string.unicodeScalars {
            switch scalar {
            case "'": text += "\\'"
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{8}": text += "\\b"
            case "\u{C}": text += "\\f"
            case "\0": text += "\\0"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                text += "\\u" + String(repeating: "0", count: 4 - hex.utf8.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "'"
    }

    /// A constant in query syntax, chosen so that it lexes back to the same `Value`.
    static func constantDescription(_ value: Value) -> String {
        switch value {
        case .null: "NULL"
        case .bool(let flag): flag ? "true" : "false"
        case .int(let integer): String(integer)
        case .float(let number): number.description + "f"
        case .double(let number): number.description
        case .decimal(let number): number.description
        case .string(let string): quoted(string)
        case .data(let bytes): "B64\"" + Base64.encode(bytes) + "\""
        case .date(let timestamp): timestampDescription(timestamp)
        case .objectId(let id): "oid(\(id.hex))"
        case .uuid(let uuid): "uuid(\(uuid.string))"
        case .link(let link): "L\(link.classIndex):\(link.key)"
        case .list(let values): "{" + values.map(constantDescription).joined(separator: ", ") + "}"
        case .dictionary(let entries):
            "{" + entries.map { "\(quoted($0.key)): \(constantDescription($0.value))" }
                .joined(separator: ", ") + "}"
        }
    }

    /// `T<seconds>:<nanoseconds>` with Realm's convention that both parts carry the sign, so
    /// 1.5 s before the epoch is `T-1:-500000000`.
    static func timestampDescription(_ timestamp: Timestamp) -> String {
        var seconds = timestamp.seconds
        var nanoseconds = Int64(timestamp.nanoseconds)
        if seconds < 0 && nanoseconds > 0 {
            seconds += 1
            nanoseconds -= Timestamp.nanosPerSecond
        }
        return "T\(seconds):\(nanoseconds)"
    }
}
