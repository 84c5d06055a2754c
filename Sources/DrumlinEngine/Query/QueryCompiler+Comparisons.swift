/// Operands and comparisons.
extension QueryCompiler {
    mutating func operand(_ expression: Query.Expression, _ object: ObjectRef) throws(DrumlinError) -> Operand {
        let range = expression.range
        func constant(_ value: Value, _ literal: String? = nil) -> Operand {
            Operand(sql: "", kind: .constant(value), source: nil, quantifier: nil, range: range, owner: nil, property: nil, literal: literal)
        }
        switch expression.kind {
        case .constant(let value, let literal):
            return constant(value, literal)
        case .argument(let index):
            let value = try argument(index, at: range)
            var result: Operand
            if case .list(let items) = value {
                result = Operand(sql: "", kind: .constantList(items, nil), source: nil, quantifier: nil, range: range, owner: nil, property: nil)
            } else {
                result = constant(value)
            }
            result.argumentIndex = index
            return result
        case .keyPath(let keyPath, let quantifier):
            return try path(keyPath, object, quantifier: quantifier)
        case .list(let elements, let quantifier):
            var values: [Value] = []
            for element in elements {
                let item = try operand(element, object)
                guard case .constant(let value) = item.kind else { throw error("A list may only hold constants and arguments", at: element.range) }
                values.append(value)
            }
            return Operand(sql: "", kind: .constantList(values, quantifier), source: nil, quantifier: nil, range: range, owner: nil, property: nil)
        case .aggregate(let keyPath, let op, let property, let quantifier):
            return try aggregate(keyPath, op, property, quantifier, object, range)
        case .typeOf(let keyPath, let quantifier):
            let target = try path(keyPath, object, quantifier: quantifier)
            guard case .mixed(let type) = target.kind else {
                throw error("@type can only be applied to a mixed property, not '\(typeWord(target.kind))'", at: range)
            }
            return Operand(sql: type, kind: .typeName(type), source: target.source, quantifier: target.quantifier, range: range, owner: nil, property: nil)
        case .subquery(let collection, let variable, let predicate):
            return try subquery(collection, variable, predicate, object, range)
        case .arithmetic(let lhs, let op, let rhs):
            let left = try numericSingle(try operand(lhs, object))
            let right = try numericSingle(try operand(rhs, object))
            let sql = op == .divide ? "drumlin_div(\(left), \(right))" : "(\(left) \(op.rawValue) \(right))"
            return Operand(sql: sql, kind: .scalar(.double), source: nil, quantifier: nil, range: range, owner: nil, property: nil)
        case .objectKey(let key):
            return constant(.link(ObjectLink(classIndex: -1, key: key)))
        case .objectReference(let className, let primaryKey):
            guard let info = try? database.classInfo(className) else { throw error("No object type '\(className)'", at: range) }
            guard let pkIndex = info.primaryKeyIndex else { throw error("'\(className)' has no primary key, so obj('\(className)', ...) cannot find an object", at: range) }
            let property = info.property(pkIndex)
            let converted: Value
            do throws(DrumlinError) {
                converted = try Database.coerceScalar(primaryKey, property.type, optional: property.isOptional, nested: false,
                                                      Label(className: info.name, propertyName: property.name))
            } catch {
                throw self.error("obj('\(className)', \(primaryKey.extendedJSON)): \(error.message)", at: range)
            }
            let lookup = "(SELECT x.\(info.keyColumn) FROM \(info.table) AS x WHERE x.\(quoted(property.storedName)) = \(bind(converted)))"
            return Operand(sql: lookup, kind: .link(info), source: nil, quantifier: nil, range: range, owner: nil, property: nil)
        case .geoBox, .geoCircle, .geoPolygon:
            throw error("A geo shape can only be used with GEOWITHIN", at: range)
        }
    }

    /// The SQL of a single numeric operand (for arithmetic).
    mutating func numericSingle(_ operand: Operand) throws(DrumlinError) -> String {
        guard operand.source == nil else { throw error("Arithmetic needs single values, not a list", at: operand.range) }
        switch operand.kind {
        case .scalar(let type) where [.int, .float, .double, .decimal128].contains(type): return operand.sql
        case .count: return operand.sql
        case .mixed(let type): return "(CASE WHEN \(type) IN (1, 6, 7) THEN \(operand.sql) WHEN \(type) = 8 THEN CAST(\(operand.sql) AS REAL) END)"
        case .constant(let value):
            switch value {
            case .int, .double, .float: return try literal(value, for: .double)
            case .decimal(let d): return bind(.double(d.doubleValue))
            default: break
            }
        default: break
        }
        throw error("Cannot do arithmetic on '\(typeWord(operand.kind))'", at: operand.range)
    }

    // MARK: Comparisons

    /// Whether an operand stands for several values: a to-many path or a constant list.
    func isMany(_ operand: Operand) -> Bool {
        if case .constantList = operand.kind { return true }
        return operand.source != nil
    }

    /// The quantifier written for a many-valued operand (nil when none was written).
    func writtenQuantifier(_ operand: Operand) -> Query.Quantifier? {
        if case .constantList(_, let quantifier) = operand.kind { return quantifier }
        return operand.quantifier
    }

    func constantOperand(_ value: Value, _ range: Query.SourceRange) -> Operand {
        Operand(sql: "", kind: .constant(value), source: nil, quantifier: nil, range: range, owner: nil, property: nil)
    }

    mutating func compile(_ comparison: Query.Comparison, _ object: ObjectRef) throws(DrumlinError) -> String {
        if comparison.op == .text { return try fullText(comparison, object) }
        if comparison.op == .geoWithin { return try geoWithin(comparison, object) }
        let lhs = try operand(comparison.lhs, object)
        let rhs = try operand(comparison.rhs, object)
        var op = comparison.op
        let ci = comparison.caseInsensitive

        if op == .between {
            guard case .constantList(let bounds, _) = rhs.kind, bounds.count == 2 else {
                throw error("BETWEEN needs a list of two values", at: comparison.rhs.range)
            }
            if lhs.source != nil, lhs.quantifier != .allElements {
                throw error("Only 'ALL' supported for operator 'BETWEEN' when applied to lists.", at: comparison.range)
            }
            let low = constantOperand(bounds[0], rhs.range)
            let high = constantOperand(bounds[1], rhs.range)
            return try quantified(lhs) { (compiler, element) throws(DrumlinError) in
                "(\(try compiler.scalarComparison(element, .greaterOrEqual, low, false))) AND (\(try compiler.scalarComparison(element, .lessOrEqual, high, false)))"
            }
        }

        if op == .in {
            // `x IN {..}`, `x IN $0`, `'v' IN list`: equality with ANY element of the right side
            // (or the quantifier written there); `list IN {..}`: some element is in the list.
            guard isMany(rhs) else {
                throw error("The keypath following 'IN' must contain a list. Found '\(text.utf8Slice(comparison.rhs.range))'", at: comparison.rhs.range)
            }
            op = .equal
        }
        try checkLinkListAgainstNull(lhs, rhs)
        try checkLinkListAgainstNull(rhs, lhs)

        if comparison.op != .in, isMany(lhs) && isMany(rhs) && writtenQuantifier(lhs) == nil && writtenQuantifier(rhs) == nil {
            // Neither side quantified: the lists are compared whole, element by element, as in Realm.
            switch (lhs.kind, rhs.kind) {
            case (.constantList, .constantList):
                throw error("Cannot compare two constants", at: comparison.range)
            case (_, .constantList(let items, _)):
                return try wholeList(lhs, op, items, ci, constantOnLeft: false)
            case (.constantList(let items, _), _):
                return try wholeList(rhs, op, items, ci, constantOnLeft: true)
            default:
                throw error("Comparison between two lists is not supported ('\(text.utf8Slice(lhs.range))' and '\(text.utf8Slice(rhs.range))'): write ANY, ALL or NONE before one of them", at: comparison.range)
            }
        }
        // Each many-valued side by its quantifier (ANY when none is written), the left side outermost.
        return try over(lhs) { (compiler, left) throws(DrumlinError) in
            try compiler.over(rhs) { (compiler, right) throws(DrumlinError) in
                try compiler.scalarComparison(left, op, right, ci)
            }
        }
    }

    /// `dogs == NULL`: Realm refuses comparing a list of links with null.
    func checkLinkListAgainstNull(_ list: Operand, _ other: Operand) throws(DrumlinError) {
        guard case .link = list.kind, list.source != nil, case .constant(.null) = other.kind else { return }
        throw error("Cannot compare linklist ('\(text.utf8Slice(list.range))') with NULL", at: list.range)
    }

    /// The condition `body` builds for one value, combined over every value of a many-valued
    /// operand by its quantifier (ANY when none is written); a single value is passed through.
    mutating func over(_ operand: Operand, _ body: (inout QueryCompiler, Operand) throws(DrumlinError) -> String) throws(DrumlinError) -> String {
        if case .constantList(let items, let quantifier) = operand.kind {
            var parts: [String] = []
            for item in items {
                var element = constantOperand(item, operand.range)
                element.argumentIndex = operand.argumentIndex
                parts.append("coalesce((\(try body(&self, element))), 0)")
            }
            switch quantifier ?? .anyElement {
            case .anyElement: return parts.isEmpty ? "0" : Self.balanced(parts, "OR")
            case .allElements: return parts.isEmpty ? "1" : Self.balanced(parts, "AND")
            case .noElement: return parts.isEmpty ? "1" : "NOT (\(Self.balanced(parts, "OR")))"
            }
        }
        return try quantified(operand, body)
    }

    /// Wraps a per-element condition for a to-many operand in EXISTS according to its quantifier.
    mutating func quantified(_ operand: Operand, _ body: (inout QueryCompiler, Operand) throws(DrumlinError) -> String) throws(DrumlinError) -> String {
        guard let source = operand.source else { return try body(&self, operand) }
        var element = operand
        element.source = nil
        element.quantifier = nil
        let condition = try body(&self, element)
        let from = "SELECT 1 FROM \(source.from) WHERE \(source.condition)"
        switch operand.quantifier ?? .anyElement {
        case .anyElement: return "EXISTS (\(from) AND (\(condition)))"
        case .allElements: return "NOT EXISTS (\(from) AND (\(condition)) IS NOT 1)"
        case .noElement: return "NOT EXISTS (\(from) AND (\(condition)) IS 1)"
        }
    }

    /// A to-many operand compared with a constant list, neither quantified: Realm compares the
    /// lists whole. `==` (and `<`, `BEGINSWITH`, …) holds when the sizes are equal and every
    /// element compares with the constant at its position; `!=` holds when the sizes differ or
    /// every element differs from the constant at its position. A set is compared as a set
    /// (`==` when both hold the same values, `!=` otherwise).
    mutating func wholeList(_ list: Operand, _ op: Query.ComparisonOperator, _ items: [Value], _ ci: Bool,
                            constantOnLeft: Bool) throws(DrumlinError) -> String {
        guard let source = list.source else { return "0" }
        var element = list
        element.source = nil
        element.quantifier = nil
        func compare(_ compiler: inout QueryCompiler, _ item: Value, _ op: Query.ComparisonOperator) throws(DrumlinError) -> String {
            let constant = compiler.constantOperand(item, list.range)
            let sql = constantOnLeft ? try compiler.scalarComparison(constant, op, element, ci)
                                     : try compiler.scalarComparison(element, op, constant, ci)
            return "coalesce((\(sql)), 0)"
        }
        let from = "FROM \(source.from) WHERE \(source.condition)"
        if source.isSet && (op == .equal || op == .notEqual) {
            var anyItem: [String] = []
            var parts: [String] = []
            for item in items {
                let matches = try compare(&self, item, .equal)
                anyItem.append(matches)
                parts.append("EXISTS (SELECT 1 \(from) AND \(matches))")
            }
            parts.insert("NOT EXISTS (SELECT 1 \(from) AND NOT (\(anyItem.isEmpty ? "0" : Self.balanced(anyItem, "OR"))))", at: 0)
            let equal = Self.balanced(parts, "AND")
            return op == .equal ? "(\(equal))" : "NOT (\(equal))"
        }
        let sameSize = "(SELECT count(*) \(from)) = \(items.count)"
        var cases = ""
        for (position, item) in items.enumerated() {
            cases += " WHEN \(position + 1) THEN \(try compare(&self, item, op))"
        }
        let order = source.order.isEmpty ? "" : "ORDER BY " + source.order.joined(separator: ", ")
        let everyPosition = items.isEmpty ? "1"
            : "NOT EXISTS (SELECT 1 FROM (SELECT CASE row_number() OVER (\(order))\(cases) ELSE 0 END AS ok \(from)) WHERE ok = 0)"
        if op == .notEqual { return "(NOT (\(sameSize)) OR \(everyPosition))" }
        return "(\(sameSize) AND \(everyPosition))"
    }
}

extension Query.ComparisonOperator {
    /// The operator with its sides swapped (`a < b` is `b > a`).
    var mirrored: Query.ComparisonOperator {
        switch self {
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        default: self
        }
    }
}

extension String {
    func utf8Slice(_ range: Query.SourceRange) -> String {
        let bytes = Array(utf8)
        let start = max(0, min(range.start, bytes.count))
        let end = max(start, min(range.end, bytes.count))
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
