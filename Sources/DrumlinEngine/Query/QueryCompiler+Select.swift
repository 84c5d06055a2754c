import DrumlinStorage
import DrumlinValues

/// Turning a result's base and steps into one SELECT that yields object keys in order.
///
/// Each stage yields rows `(k, o)`: an object key and its position. Filters keep `o`; SORT
/// renumbers by the sort keys (ties keep the previous order); DISTINCT keeps the first row of each
/// group; LIMIT keeps the first n (a SORT right before it keeps them as it sorts). Stages nest in
/// the order written, as in Realm.
extension QueryCompiler {
    /// Key paths one SORT or DISTINCT may use (SQLite allows 2000 ORDER BY terms, with room here
    /// for the tie-breaking ones).
    static let maximumSortKeys = 1000

    /// The creation-order expression of the root class's rows.
    var creationOrder: String { root.creationOrderT0 }

    /// Every object of the root class as `(k, o)` rows: the text after the select list (the root
    /// table as t0), and `o`.
    var everyObject: (tail: String, order: String) {
        if keyOrder {
            let (from, guarded) = root.keyOrderTableT0
            return (" FROM \(from) WHERE \(guarded)", "t0.\(root.keyColumn)")
        }
        return (" FROM \(root.table) AS t0", creationOrder)
    }

    mutating func baseSQL(_ base: Results.Base) -> String {
        switch base {
        case .all:
            let (tail, order) = everyObject
            return "SELECT t0.\(root.keyColumn) AS k, \(order) AS o\(tail)"
        case .list(let owner, let table):
            return "SELECT l.value AS k, l.position AS o FROM \(table.name) AS l WHERE l.owner = \(bind(.int(owner)))"
        case .backlinks(let origin, let index, let key):
            if let table = origin.collectionTables[index] {
                return "SELECT l.owner AS k, l.rowid AS o FROM \(table.name) AS l WHERE l.value = \(bind(.int(key)))"
            }
            let column = quoted(origin.property(index).storedName)
            return "SELECT t0.\(origin.keyColumn) AS k, \(creationOrder) AS o FROM \(origin.table) AS t0 WHERE t0.\(column) = \(bind(.int(key)))"
        case .snapshot(let keys):
            let list = "[" + keys.map(String.init).joined(separator: ",") + "]"
            return "SELECT value AS k, key AS o FROM json_each(\(bind(.string(list))))"
        }
    }

    /// The SELECT of `(k, o)` rows for a base and its steps. Sets `plainRows` when the rows
    /// can be read straight from the table.
    mutating func rows(_ base: Results.Base, _ steps: [Results.Step]) throws(DrumlinError) -> String {
        var sql = baseSQL(base)
        // While the steps so far are filters over every object of the class: the text after the
        // select list that reads t0 itself, each filter in its WHERE, and `o`. A SORT then orders
        // t0's own rows, where joining the rows back to the table would look each one up again
        // (`objects.sort("age").limit(10)` over 100k objects: 31.6 -> 7.7 ms).
        var direct: (tail: String, order: String, filtered: Bool)?
        if case .all = base { direct = (everyObject.tail, everyObject.order, keyOrder) }
        let join = "JOIN \(root.table) AS t0 ON t0.\(root.keyColumn) = s.k"
        var limitTaken = false
        let reversedSort = reversesLastSort ? steps.lastIndex { step in
            if case .postfix(let clause, _, _) = step, case .sort = clause.kind { true } else { false }
        } : nil
        for (position, step) in steps.enumerated() {
            if limitTaken {  // the LIMIT its SORT took (see below)
                limitTaken = false
                continue
            }
            let saved = (arguments, text)
            defer { (arguments, text) = saved }
            let last = position == steps.count - 1
            switch step {
            case .filter(let predicate, let queryText, let stepArguments):
                (arguments, text) = (stepArguments, queryText)
                let condition = try self.condition(predicate)
                if var filtered = direct {
                    // keyOrder's tail already has a WHERE (its guard).
                    filtered.tail += filtered.filtered ? " AND (\(condition))" : " WHERE (\(condition))"
                    filtered.filtered = true
                    direct = filtered
                    sql = "SELECT t0.\(root.keyColumn) AS k, \(filtered.order) AS o\(filtered.tail)"
                    plainCondition = plainCondition.map { "(\($0)) AND (\(condition))" } ?? condition
                    if last { plainRows = "\(filtered.tail) ORDER BY \(filtered.order)" }
                } else {
                    sql = "SELECT s.k AS k, s.o AS o FROM (\(sql)) AS s \(join) WHERE \(condition)"
                }
            case .postfix(let clause, let queryText, let stepArguments):
                (arguments, text) = (stepArguments, queryText)
                switch clause.kind {
                case .sort(let keys):
                    // A key path sorted on again never changes the order: only its first use counts
                    // (so any number of keys stays within SQLite's ORDER BY limit, in linear time).
                    var terms: [String] = []
                    var seen: Set<String> = []
                    let reversed = position == reversedSort
                    for key in keys {
                        let expression = try sortExpression(key.path)
                        if seen.insert(expression).inserted { terms.append("\(expression) \(key.ascending != reversed ? "ASC" : "DESC")") }
                    }
                    if terms.count > Self.maximumSortKeys {
                        throw DrumlinError(.limit, "A sort may use at most \(Self.maximumSortKeys) different key paths (this one uses \(terms.count)).")
                    }
                    let ties = reversed ? " DESC" : ""
                    let order = terms.joined(separator: ", ") + ", s.o" + ties
                    // Over t0's own rows, the same order: the sort keys, then `o`.
                    let directOrder = direct.map { terms.joined(separator: ", ") + ", " + $0.order + ties }
                    if position + 1 < steps.count, case .postfix(let next, _, _) = steps[position + 1], case .limit(let n) = next.kind {
                        // SORT then LIMIT (the first n by a sort): the n rows first, in SQLite's
                        // top-n sort or an index's order, then numbered. Numbering every row and
                        // keeping n sorted the whole class first: 77 ms against 0.03 ms for
                        // `SORT(name ASC) LIMIT(10)` over 100k objects with `name` indexed.
                        let limit = bind(.int(Int64(n)))
                        let limited: String
                        if let direct, let directOrder {
                            limited = "\(sql) ORDER BY \(directOrder) LIMIT \(limit)"
                            if position + 1 == steps.count - 1 { plainRows = "\(direct.tail) ORDER BY \(directOrder) LIMIT \(limit)" }
                        } else {
                            limited = "SELECT s.k AS k, s.o AS o FROM (\(sql)) AS s \(join) ORDER BY \(order) LIMIT \(limit)"
                        }
                        sql = "SELECT s.k AS k, row_number() OVER (ORDER BY \(order)) AS o FROM (\(limited)) AS s \(join)"
                        limitTaken = true
                    } else if let direct, let directOrder {
                        sql = "SELECT t0.\(root.keyColumn) AS k, row_number() OVER (ORDER BY \(directOrder)) AS o\(direct.tail)"
                        if last { plainRows = "\(direct.tail) ORDER BY \(directOrder)" }
                    } else {
                        sql = "SELECT s.k AS k, row_number() OVER (ORDER BY \(order)) AS o FROM (\(sql)) AS s \(join)"
                    }
                case .distinct(let paths):
                    var terms: [String] = []
                    var seen: Set<String> = []
                    for path in paths {
                        let expression = try sortExpression(path)
                        if seen.insert(expression).inserted { terms.append(expression) }
                    }
                    if terms.count > Self.maximumSortKeys {
                        throw DrumlinError(.limit, "DISTINCT may use at most \(Self.maximumSortKeys) different key paths (this one uses \(terms.count)).")
                    }
                    sql = "SELECT k, o FROM (SELECT s.k AS k, s.o AS o, row_number() OVER (PARTITION BY \(terms.joined(separator: ", ")) ORDER BY s.o) AS d FROM (\(sql)) AS s \(join)) WHERE d = 1"
                case .limit(let n):
                    sql = "SELECT k, o FROM (\(sql)) ORDER BY o LIMIT \(bind(.int(Int64(n))))"
                }
                direct = nil  // the order is now the step's numbering
                plainCondition = nil
            }
        }
        return sql
    }

    /// A single value per object to sort or group by.
    mutating func sortExpression(_ keyPath: Query.KeyPath) throws(DrumlinError) -> String {
        let operand = try path(keyPath, ObjectRef(info: root, key: "t0.\(root.keyColumn)", alias: "t0"), quantifier: nil)
        let name = text.utf8Slice(keyPath.range)
        guard operand.source == nil else {
            throw error("Cannot sort or group on key path '\(name)': it goes through a list", at: keyPath.range)
        }
        switch operand.kind {
        case .scalar(.decimal128): return "\(operand.sql) COLLATE drumlin_decimal"
        case .scalar, .link, .count: return operand.sql
        // A held object ('<key>:<class>' text, type 10) never groups with a string of the same text.
        case .mixed(let type): return "\(type) IN (1, 6, 7, 8), \(type) = 10, (CASE WHEN \(type) = 8 THEN CAST(\(operand.sql) AS REAL) ELSE \(operand.sql) END)"
        default: throw error("Cannot sort or group on '\(name)'", at: keyPath.range)
        }
    }
}
