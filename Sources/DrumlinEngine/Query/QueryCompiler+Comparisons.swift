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
            if case .list(let items) = value {
                return Operand(sql: "", kind: .constantList(items, nil), source: nil, quantifier: nil, range: range, owner: nil, property: nil)
            }
            return constant(value)
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
            let sql = "(\(left) \(op.rawValue) \(right))"
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

    mutating func compile(_ comparison: Query.Comparison, _ object: ObjectRef) throws(DrumlinError) -> String {
        if comparison.op == .text { return try fullText(comparison, object) }
        if comparison.op == .geoWithin { return try geoWithin(comparison, object) }
        var lhs = try operand(comparison.lhs, object)
        var rhs = try operand(comparison.rhs, object)
        var op = comparison.op
        let ci = comparison.caseInsensitive

        if op == .between {
            guard case .constantList(let bounds, _) = rhs.kind, bounds.count == 2 else {
                throw error("BETWEEN needs a list of two values", at: comparison.rhs.range)
            }
            if lhs.source != nil, lhs.quantifier != .allElements {
                throw error("Only 'ALL' supported for operator 'BETWEEN' when applied to lists.", at: comparison.range)
            }
            let low = Operand(sql: "", kind: .constant(bounds[0]), source: nil, quantifier: nil, range: rhs.range, owner: nil, property: nil)
            let high = Operand(sql: "", kind: .constant(bounds[1]), source: nil, quantifier: nil, range: rhs.range, owner: nil, property: nil)
            return try quantified(lhs) { (compiler, element) throws(DrumlinError) in
                "(\(try compiler.scalarComparison(element, .greaterOrEqual, low, false))) AND (\(try compiler.scalarComparison(element, .lessOrEqual, high, false)))"
            }
        }

        if op == .in {
            // `x IN {..}` / `x IN $0` is ANY element of the list; `'v' IN listProperty` is ANY element
            // of the property equal to 'v'.
            if case .constantList = rhs.kind {
                op = .equal
            } else if rhs.source != nil {
                swap(&lhs, &rhs)
                op = .equal
            } else {
                throw error("The right side of IN must be a list or a to-many property", at: comparison.rhs.range)
            }
        }

        // A constant list on either side: ANY (or the list's own quantifier) of its elements.
        if case .constantList(let items, let listQuantifier) = rhs.kind {
            return try listComparison(lhs, op, items, listQuantifier ?? .anyElement, ci)
        }
        if case .constantList(let items, let listQuantifier) = lhs.kind {
            return try listComparison(rhs, op.mirrored, items, listQuantifier ?? .anyElement, ci)
        }
        if lhs.source != nil && rhs.source != nil {
            throw error("Ordered comparison between two lists is not supported ('\(text.utf8Slice(lhs.range))' and '\(text.utf8Slice(rhs.range))')", at: comparison.range)
        }
        if rhs.source != nil {
            swap(&lhs, &rhs)
            op = op.mirrored
        }
        if lhs.source != nil {
            let other = rhs
            return try quantified(lhs) { (compiler, element) throws(DrumlinError) in
                try compiler.scalarComparison(element, op, other, ci)
            }
        }
        return try scalarComparison(lhs, op, rhs, ci)
    }

    /// Wraps a per-element condition for a to-many operand in EXISTS according to its quantifier.
    mutating func quantified(_ operand: Operand, _ body: (inout QueryCompiler, Operand) throws(DrumlinError) -> String) throws(DrumlinError) -> String {
        guard let source = operand.source else { return try body(&self, operand) }
        var element = operand
        element.source = nil
        let condition = try body(&self, element)
        let from = "SELECT 1 FROM \(source.from) WHERE \(source.condition)"
        switch operand.quantifier ?? .anyElement {
        case .anyElement: return "EXISTS (\(from) AND (\(condition)))"
        case .allElements: return "NOT EXISTS (\(from) AND (\(condition)) IS NOT 1)"
        case .noElement: return "NOT EXISTS (\(from) AND (\(condition)) IS 1)"
        }
    }

    mutating func listComparison(_ operand: Operand, _ op: Query.ComparisonOperator, _ items: [Value],
                                 _ listQuantifier: Query.Quantifier, _ ci: Bool) throws(DrumlinError) -> String {
        if operand.source != nil, operand.quantifier != nil, listQuantifier != .anyElement {
            throw error("Comparing a quantified list with a quantified constant list is not supported", at: operand.range)
        }
        return try quantified(operand) { (compiler, element) throws(DrumlinError) in
            var parts: [String] = []
            for item in items {
                let constant = Operand(sql: "", kind: .constant(item), source: nil, quantifier: nil, range: element.range, owner: nil, property: nil)
                parts.append("coalesce((\(try compiler.scalarComparison(element, op, constant, ci))), 0)")
            }
            switch listQuantifier {
            case .anyElement: return parts.isEmpty ? "0" : parts.joined(separator: " OR ")
            case .allElements: return parts.isEmpty ? "1" : parts.joined(separator: " AND ")
            case .noElement: return parts.isEmpty ? "1" : "NOT (\(parts.joined(separator: " OR ")))"
            }
        }
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
