import DrumlinSchema
import DrumlinStorage
import DrumlinValues

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
                result.origin = index
            }
            result.argumentIndex = index
            return result
        case .keyPath(let keyPath, let quantifier):
            return try path(keyPath, object, quantifier: quantifier)
        case .list(let elements, let quantifier):
            if quantifier != nil, elements.count == 1, case .argument(let index) = elements[0].kind,
               !text.utf8Slice(range).contains("{") {
                // `IN ANY $0` walks the list the argument holds: any other value is refused (Realm).
                if index >= 0, index < arguments.count, !{ if case .list = arguments[index] { return true }; return false }() {
                    throw error("ANY/ALL/NONE are only allowed on arguments which contain a list but '$\(index)' is not a list.", at: range)
                }
            }
            var values: [Value] = []
            var operands: [Operand] = []
            var hasLookups = false
            for element in elements {
                let item = try operand(element, object)
                switch item.kind {
                case .constant(let value):
                    values.append(value)
                    operands.append(item)
                case .constantList(let items, nil) where item.argumentIndex != nil:
                    // `ANY {$0}` (written `ANY $0`) with a list argument: its elements.
                    values += items
                    for value in items {
                        var element = constantOperand(value, item.range)
                        element.argumentIndex = item.argumentIndex
                        operands.append(element)
                    }
                case .link where item.isLookup:
                    hasLookups = true
                    values.append(.null)
                    operands.append(item)
                default:
                    throw error("A list may only hold constants, arguments and obj(…)", at: element.range)
                }
            }
            var list = Operand(sql: "", kind: .constantList(values, quantifier), source: nil, quantifier: nil, range: range, owner: nil, property: nil)
            // Elements that are lookups or arguments are walked as they are (an argument's
            // parameter records it).
            if hasLookups || operands.contains(where: { $0.origin != nil }) { list.elements = operands }
            return list
        case .aggregate(let keyPath, let op, let property, let quantifier):
            return try aggregate(keyPath, op, property, quantifier, object, range)
        case .typeOf(let keyPath, let quantifier):
            let target = try path(keyPath, object, quantifier: quantifier)
            let code: Int
            switch target.kind {
            case .mixed(let mixedType):
                return Operand(sql: mixedType, kind: .typeName(mixedType), source: target.source, quantifier: target.quantifier, range: range, owner: nil, property: nil)
            case .scalar(let propertyType): code = Int(ValueCodec.typeCode(propertyType))
            case .link: code = 10
            default:
                throw error("@type cannot be applied to '\(written(target))' ('\(typeWord(target.kind))')", at: range)
            }
            // A typed property's @type is a constant, its type, as in Realm (one value, also for a
            // list): it compares with a mixed value's @type, not with a type name.
            var type = Operand(sql: "\(code)", kind: .typeName("\(code)"), source: nil, quantifier: nil, range: range, owner: nil, property: nil)
            type.constantType = Self.typeNames[code]
            return type
        case .subquery(let collection, let variable, let predicate):
            return try subquery(collection, variable, predicate, object, range)
        case .arithmetic(let lhs, let op, let rhs):
            // One side may be a list (`ANY scores * 2 > 10`): the arithmetic is done per element
            // and the result keeps the list's elements and quantifier.
            var leftOperand = try operand(lhs, object)
            var rightOperand = try operand(rhs, object)
            if isMany(leftOperand) && isMany(rightOperand) && !(leftOperand.source != nil && rightOperand.source != nil) {
                throw error("Operations involving two lists are not supported", at: range)
            }
            for (list, other, listOnLeft) in [(leftOperand, rightOperand, true), (rightOperand, leftOperand, false)] {
                // A constant list (`ALL {8, 10} / 2 >= ANY items.price`): the arithmetic is done per
                // element; the result is a list of the same quantifier.
                guard case .constantList(let items, let listQuantifier) = list.kind else { continue }
                var elements: [Operand] = []
                for element in listElements(list, items) {
                    let x = try numericSingle(listOnLeft ? element : other)
                    let y = try numericSingle(listOnLeft ? other : element)
                    let sql = op == .divide ? "drumlin_div(\(x), \(y))" : "(\(x) \(op.rawValue) \(y))"
                    elements.append(Operand(sql: sql, kind: .scalar(.double), source: nil, quantifier: nil, range: range, owner: nil, property: nil))
                }
                var result = Operand(sql: "", kind: .constantList(items, listQuantifier), source: nil, quantifier: nil, range: range, owner: nil, property: nil)
                result.elements = elements
                return result
            }
            if leftOperand.source != nil && rightOperand.source != nil {
                throw error("Arithmetic needs at most one list ('\(written(leftOperand))' and '\(written(rightOperand))' are both lists)", at: range)
            }
            let many = leftOperand.source != nil ? leftOperand : rightOperand
            leftOperand.source = nil
            rightOperand.source = nil
            let left = try numericSingle(leftOperand)
            let right = try numericSingle(rightOperand)
            let sql = op == .divide ? "drumlin_div(\(left), \(right))" : "(\(left) \(op.rawValue) \(right))"
            return Operand(sql: sql, kind: .scalar(.double), source: many.source, quantifier: many.source == nil ? nil : many.quantifier,
                           range: range, owner: nil, property: nil)
        case .objectKey(let key):
            return constant(.link(ObjectLink(classIndex: -1, key: key)))
        case .objectArgumentReference(let className, let index):
            let primaryKey = try argument(index, at: range)
            return try objectReference(className, primaryKey, origin: index, range)
        case .objectReference(let className, let primaryKey):
            return try objectReference(className, primaryKey, origin: nil, range)
        case .geoBox, .geoCircle, .geoPolygon:
            throw error("A geo shape can only be used with GEOWITHIN", at: range)
        }
    }

    /// `obj('Class', key)`: the object with that primary key, looked up when the query runs.
    /// `origin` is the argument the key is, if any.
    mutating func objectReference(_ className: String, _ primaryKey: Value, origin: Int?,
                                  _ range: Query.SourceRange) throws(DrumlinError) -> Operand {
        guard let info = try? database.classInfo(className) else { throw error("No object type '\(className)'", at: range) }
        guard let pkIndex = info.primaryKeyIndex else { throw error("'\(className)' has no primary key, so obj('\(className)', ...) cannot find an object", at: range) }
        let property = info.property(pkIndex)
        let converted: Value
        do throws(DrumlinError) {
            converted = try Coercion.scalar(primaryKey, property.type, optional: property.isOptional, nested: false,
                                            Label(className: info.name, propertyName: property.name))
        } catch {
            throw self.error("obj('\(className)', \(primaryKey.extendedJSON)): \(error.message)", at: range)
        }
        let lookup = "(SELECT x.\(info.keyColumn) FROM \(info.table) AS x WHERE x.\(quoted(property.storedName)) = \(bindPrimaryKey(converted, property, origin: origin)))"
        var reference = Operand(sql: lookup, kind: .link(info), source: nil, quantifier: nil, range: range, owner: nil, property: nil)
        reference.isLookup = true
        return reference
    }

    /// Binds a primary key converted for `property` (`Database.coerceScalar`): as its argument
    /// `origin` when the conversion keeps every value of the argument's type as it is (an int for
    /// an int key, a string for a string key), else as the converted value.
    mutating func bindPrimaryKey(_ converted: Value, _ property: Property, origin: Int?) -> String {
        if let origin {
            switch (arguments[origin], property.type) {
            case (.int, .int), (.string, .string): return bind(.argument(origin))
            default: break
            }
        }
        return bind(converted)
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
            case .int, .double, .float: return try literal(value, for: .double, origin: operand.origin)
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

    /// `x BETWEEN ?1 AND ?2` for the comparisons `x >= ?1` and `x <= ?2` of a plain operand against
    /// two parameters (SQLite defines BETWEEN as that pair, but reads `x` once: a range read of a
    /// column scans one column read fewer per row); nil when they are anything else.
    static func between(_ operand: String, _ lower: String, _ upper: String) -> String? {
        // Only a column (`alias."name"`, an atom whatever the operators around it).
        guard let dot = operand.firstIndex(of: "."), dot > operand.startIndex,
              operand[..<dot].allSatisfy({ $0 == "_" || $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
        let name = operand[operand.index(after: dot)...]
        guard name.count >= 2, name.first == "\"", name.last == "\"",
              !name.dropFirst().dropLast().replacing("\"\"", with: "").contains("\"") else { return nil }
        func parameter(_ comparison: String, _ op: String) -> Substring? {
            guard comparison.hasPrefix(operand + op) else { return nil }
            let rest = comparison.dropFirst(operand.count + op.count)
            guard rest.first == "?", rest.count > 1, rest.dropFirst().allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
            return rest
        }
        guard let low = parameter(lower, " >= "), let high = parameter(upper, " <= ") else { return nil }
        return "\(operand) BETWEEN \(low) AND \(high)"
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
            let ends = listElements(rhs, bounds)
            let low = ends[0], high = ends[1]
            return try quantified(lhs) { (compiler, element) throws(DrumlinError) in
                let lower = try compiler.scalarComparison(element, .greaterOrEqual, low, false)
                let upper = try compiler.scalarComparison(element, .lessOrEqual, high, false)
                return Self.between(element.sql, lower, upper) ?? "(\(lower)) AND (\(upper))"
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
        listMismatch = op == .notEqual ? "1" : "0"

        // `{5.5, 4.0} IN items.price`, `items.price IN items.price`: IN between a constant list and
        // a to-many path, or two paths, compares whole as `==` does (Realm); `list IN {…}` and two
        // constant lists keep "some element is in the list".
        let constantOnLeft = { if case .constantList = lhs.kind { return true }; return false }()
        if comparison.op != .in || rhs.source != nil && (constantOnLeft || lhs.source != nil),
           isMany(lhs) && isMany(rhs) && writtenQuantifier(lhs) == nil && writtenQuantifier(rhs) == nil {
            // Neither side quantified: the lists are compared whole, element by element, as in Realm.
            switch (lhs.kind, rhs.kind) {
            case (.constantList, .constantList):
                throw error("Cannot compare two constants", at: comparison.range)
            case (_, .constantList(let items, _)):
                return try wholeList(lhs, op, listElements(rhs, items), ci, constantOnLeft: false)
            case (.constantList(let items, _), _):
                return try wholeList(rhs, op, listElements(lhs, items), ci, constantOnLeft: true)
            default:
                return try wholeLists(lhs, op, rhs, ci)
            }
        }
        // `x IN $0` (`x == ANY {…}`, `x == NONE {…}`) with numbers or strings: one IN over a JSON
        // array, which SQLite compiles in linear time (an OR of the comparisons in quadratic) and
        // answers from an index on `x` (the OR's terms, each wrapped for NULL, read every row:
        // `name IN {'a', 'b', 'c'}` over 100k objects 12 -> 0.05 ms).
        if op == .equal, !ci, lhs.source == nil, !isMany(lhs), case .constantList(let items, let quantifier) = rhs.kind,
           !items.isEmpty, !rhs.hasLookups, quantifier != .allElements,
           let test = try equalityList(lhs, listElements(rhs, items), mixedTypes: Set(items.compactMap(Self.group)).count > 1) {
            return quantifier == .noElement ? "(NOT coalesce(\(test), 0))" : "(\(test))"
        }
        // Two grouped sides (`ALL value[*][*] == dict[*][*]`): Realm pairs the groups, and the
        // comparison holds when it holds for one pair (an empty group included).
        var left = lhs, right = rhs
        var outer: [String] = []
        if left.source != nil, right.source != nil {
            for side in [0, 1] {
                guard let groups = (side == 0 ? left : right).source?.groups, let elements = groups.elements else { continue }
                outer.append("SELECT 1 FROM \(groups.from) WHERE \(groups.condition)")
                let inner = Source(from: elements.from, condition: elements.condition, order: elements.order)
                if side == 0 { left.source = inner } else { right.source = inner }
            }
        }
        // Each many-valued side by its quantifier (ANY when none is written), the left side outermost.
        var compared = try over(left) { (compiler, left) throws(DrumlinError) in
            try compiler.over(right) { (compiler, right) throws(DrumlinError) in
                try compiler.scalarComparison(left, op, right, ci)
            }
        }
        for select in outer.reversed() { compared = "EXISTS (\(select) AND \(compared))" }
        return compared
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
            let mixedTypes = Set(items.compactMap(Self.group)).count > 1
            for element in listElements(operand, items) {
                do throws(DrumlinError) {
                    parts.append("coalesce((\(try body(&self, element))), 0)")
                } catch {
                    guard mixedTypes, error.code == .query, let listMismatch else { throw error }
                    parts.append(listMismatch)
                }
            }
            switch quantifier ?? .anyElement {
            case .anyElement: return parts.isEmpty ? "0" : Self.balanced(parts, "OR")
            case .allElements: return parts.isEmpty ? "1" : Self.balanced(parts, "AND")
            case .noElement: return parts.isEmpty ? "1" : "NOT (\(Self.balanced(parts, "OR")))"
            }
        }
        return try quantified(operand, body)
    }

    /// The elements of a constant list as operands (constants, or the `obj(…)` lookups).
    func listElements(_ list: Operand, _ items: [Value]) -> [Operand] {
        if let elements = list.elements { return elements }
        return items.map { item in
            var element = constantOperand(item, list.range)
            element.argumentIndex = list.argumentIndex
            return element
        }
    }

    /// Wraps a per-element condition for a to-many operand in EXISTS according to its quantifier.
    mutating func quantified(_ operand: Operand, _ body: (inout QueryCompiler, Operand) throws(DrumlinError) -> String) throws(DrumlinError) -> String {
        guard let source = operand.source else { return try body(&self, operand) }
        var element = operand
        element.source = nil
        element.quantifier = nil
        let condition = try body(&self, element)
        if let groups = source.groups, operand.quantifier == .allElements || operand.quantifier == .noElement {
            // Realm: ALL and NONE hold when they hold for one group (also an empty one), or when
            // there is no group at all.
            let failing = operand.quantifier == .allElements ? "IS NOT 1" : "IS 1"
            let holds: String
            if let elements = groups.elements {
                holds = "NOT EXISTS (SELECT 1 FROM \(elements.from) WHERE \(elements.condition) AND (\(condition)) \(failing))"
            } else {
                holds = "NOT ((\(condition)) \(failing))"
            }
            return "(NOT EXISTS (SELECT 1 FROM \(groups.from) WHERE \(groups.condition)) OR EXISTS (SELECT 1 FROM \(groups.from) WHERE \(groups.condition) AND \(holds)))"
        }
        let from = "SELECT 1 FROM \(source.from) WHERE \(source.condition)"
        switch operand.quantifier ?? .anyElement {
        case .anyElement: return "EXISTS (\(from) AND (\(condition)))"
        case .allElements: return "NOT EXISTS (\(from) AND (\(condition)) IS NOT 1)"
        case .noElement: return "NOT EXISTS (\(from) AND (\(condition)) IS 1)"
        }
    }

    /// Two to-many operands, neither quantified (`items.price != items.price`): compared whole, as
    /// Realm does, element by element in their order. `==` (and `<`, …) holds when the sizes are
    /// equal and every element compares with the other's at its position; `!=` when the sizes
    /// differ or every element differs from the other's at its position.
    mutating func wholeLists(_ lhs: Operand, _ op: Query.ComparisonOperator, _ rhs: Operand, _ ci: Bool) throws(DrumlinError) -> String {
        guard var left = lhs.source, var right = rhs.source else { return "0" }
        // Grouped sides (`value[*][*] == dict[*][*]`): some group of one equals some group of the other.
        var outer: [String] = []
        for side in [0, 1] {
            guard let groups = (side == 0 ? left : right).groups, let elements = groups.elements else { continue }
            outer.append("SELECT 1 FROM \(groups.from) WHERE \(groups.condition)")
            let inner = Source(from: elements.from, condition: elements.condition, order: elements.order)
            if side == 0 { left = inner } else { right = inner }
        }
        func numbered(_ operand: Operand, _ source: Source, _ name: String) -> (sql: String, element: Operand) {
            var element = operand
            element.source = nil
            element.quantifier = nil
            element.sql = "\(name).v"
            var columns = "\(operand.sql) AS v"
            switch operand.kind {
            case .mixed(let type):
                columns += ", \(type) AS t"
                element.kind = .mixed(type: "\(name).t")
            case .typeName: element.kind = .typeName("\(name).v")
            default: break
            }
            let order = source.order.isEmpty ? "" : "ORDER BY " + source.order.joined(separator: ", ")
            return ("(SELECT row_number() OVER (\(order)) AS n, \(columns) FROM \(source.from) WHERE \(source.condition)) AS \(name)", element)
        }
        let (leftSQL, leftElement) = numbered(lhs, left, alias("w"))
        let (rightSQL, rightElement) = numbered(rhs, right, alias("w"))
        let compared = try scalarComparison(leftElement, op, rightElement, ci)
        let sameSize = "(SELECT count(*) FROM \(left.from) WHERE \(left.condition)) = (SELECT count(*) FROM \(right.from) WHERE \(right.condition))"
        let everyPosition = "NOT EXISTS (SELECT 1 FROM \(leftSQL) JOIN \(rightSQL) ON \(leftElement.sql.dropLast(2)).n = \(rightElement.sql.dropLast(2)).n WHERE NOT coalesce((\(compared)), 0))"
        var whole = op == .notEqual ? "(NOT (\(sameSize)) OR \(everyPosition))" : "(\(sameSize) AND \(everyPosition))"
        for select in outer.reversed() { whole = "EXISTS (\(select) AND \(whole))" }
        return whole
    }

    /// A to-many operand compared with a constant list, neither quantified: Realm compares the
    /// lists whole. `==` (and `<`, `BEGINSWITH`, …) holds when the sizes are equal and every
    /// element compares with the constant at its position; `!=` holds when the sizes differ or
    /// every element differs from the constant at its position. A set is walked in its order
    /// (Realm's: by value), so `{3, 300}` equals the set of 300 and 3, `{300, 3}` does not.
    mutating func wholeList(_ list: Operand, _ op: Query.ComparisonOperator, _ items: [Operand], _ ci: Bool,
                            constantOnLeft: Bool) throws(DrumlinError) -> String {
        guard let source = list.source else { return "0" }
        if let groups = source.groups {
            // Realm compares each group whole (`link.list == {4, 5, 6}`): one that matches is enough.
            var group = list
            let each: String
            if let elements = groups.elements {
                group.source = Source(from: elements.from, condition: elements.condition, order: elements.order)
                each = try wholeList(group, op, items, ci, constantOnLeft: constantOnLeft)
            } else {
                // One value per group: a list of one.
                group.source = Source(from: "(SELECT 1)", condition: "1")
                each = try wholeList(group, op, items, ci, constantOnLeft: constantOnLeft)
            }
            return "EXISTS (SELECT 1 FROM \(groups.from) WHERE \(groups.condition) AND \(each))"
        }
        var element = list
        element.source = nil
        element.quantifier = nil
        let mixedTypes = Set(items.compactMap { item -> Group? in
            if case .constant(let value) = item.kind { return Self.group(value) }
            return .link
        }).count > 1
        func compare(_ compiler: inout QueryCompiler, _ constant: Operand, _ op: Query.ComparisonOperator) throws(DrumlinError) -> String {
            do throws(DrumlinError) {
                let sql = constantOnLeft ? try compiler.scalarComparison(constant, op, element, ci)
                                         : try compiler.scalarComparison(element, op, constant, ci)
                return "coalesce((\(sql)), 0)"
            } catch {
                // A constant of another type than the list's elements equals none of them.
                guard mixedTypes, error.code == .query else { throw error }
                return op == .notEqual ? "1" : "0"
            }
        }
        let from = "FROM \(source.from) WHERE \(source.condition)"
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
