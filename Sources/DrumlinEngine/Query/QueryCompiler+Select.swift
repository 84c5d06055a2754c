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
        // While the steps so far read every object of the class through filters and SORTs (a
        // filter after a SORT keeps its order; a SORT after one breaks its ties by it): t0 read
        // itself, each filter in its WHERE, each SORT in one ORDER BY over t0's columns (see
        // `Direct`). A SORT, a DISTINCT or a LIMIT then reads t0's own rows, where joining the
        // rows back to the table would look each one up again (`objects.sort("age").limit(10)`
        // over 100k objects: 31.6 -> 7.7 ms; `distinct("age")`: 101 -> 39 ms).
        var direct: Direct?
        if case .all = base {
            direct = Direct(key: "t0.\(root.keyColumn)", tail: everyObject.tail, order: everyObject.order, filtered: keyOrder)
        }
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
                    sql = filtered.select
                    if filtered.sorted == nil { plainCondition = plainCondition.map { "(\($0)) AND (\(condition))" } ?? condition }
                    if last { plainRows = "\(filtered.tail) ORDER BY \(filtered.orderBy)" }
                } else {
                    sql = "SELECT s.k AS k, s.o AS o FROM (\(sql)) AS s \(join) WHERE \(condition)"
                }
                continue
            case .postfix(let clause, let queryText, let stepArguments):
                (arguments, text) = (stepArguments, queryText)
                plainCondition = nil
                switch clause.kind {
                case .sort(let keys):
                    // A key path sorted on again never changes the order: only its first use counts
                    // (so any number of keys stays within SQLite's ORDER BY limit, in linear time).
                    let reversed = position == reversedSort
                    var terms: [Direct.Term] = []
                    var seen: Set<String> = []
                    for key in keys {
                        let expression = try sortExpression(key.path)
                        if seen.insert(expression).inserted { terms.append((expression, key.ascending)) }
                    }
                    if terms.count > Self.maximumSortKeys {
                        throw DrumlinError(.limit, "A sort may use at most \(Self.maximumSortKeys) different key paths (this one uses \(terms.count)).")
                    }
                    // Reversed (`Results.last()`), ties too: every term of the order flipped.
                    let order = Direct.orderBy(terms + [("s.o", true)], reversed: reversed)
                    if var sorted = direct {
                        // Over t0's own rows: the sort keys, then the order before them.
                        let chain = terms + sorted.chain.filter { !seen.contains($0.expression) }
                        guard chain.count <= 2 * Self.maximumSortKeys else {
                            throw DrumlinError(.limit, "Sorts may use at most \(2 * Self.maximumSortKeys) different key paths in all.")
                        }
                        sorted.sorted = reversed ? chain.map { ($0.expression, !$0.ascending) } : chain
                        direct = sorted
                    } else {
                        direct = nil
                    }
                    if position + 1 < steps.count, case .postfix(let next, _, _) = steps[position + 1], case .limit(let n) = next.kind {
                        // SORT then LIMIT (the first n by a sort): the n rows first, in SQLite's
                        // top-n sort or an index's order, then numbered. Numbering every row and
                        // keeping n sorted the whole class first: 77 ms against 0.03 ms for
                        // `SORT(name ASC) LIMIT(10)` over 100k objects with `name` indexed.
                        let limit = bind(.int(Int64(n)))
                        if let sorted = direct {
                            let limited = "SELECT t0.\(root.keyColumn) AS k, \(sorted.order) AS o\(sorted.tail) ORDER BY \(sorted.orderBy) LIMIT \(limit)"
                            sql = "SELECT s.k AS k, row_number() OVER (ORDER BY \(sorted.orderBy)) AS o FROM (\(limited)) AS s \(join)"
                            if position + 1 == steps.count - 1 { plainRows = "\(sorted.tail) ORDER BY \(sorted.orderBy) LIMIT \(limit)" }
                        } else {
                            let limited = "SELECT s.k AS k, s.o AS o FROM (\(sql)) AS s \(join) ORDER BY \(order) LIMIT \(limit)"
                            sql = "SELECT s.k AS k, row_number() OVER (ORDER BY \(order)) AS o FROM (\(limited)) AS s \(join)"
                        }
                        limitTaken = true
                        direct = nil
                    } else if let sorted = direct {
                        sql = sorted.select
                        if last { plainRows = "\(sorted.tail) ORDER BY \(sorted.orderBy)" }
                    } else {
                        sql = "SELECT s.k AS k, row_number() OVER (ORDER BY \(order)) AS o FROM (\(sql)) AS s \(join)"
                    }
                    continue
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
                    let groups = terms.joined(separator: ", ")
                    if let kept = direct, kept.sorted == nil {
                        // The first object of each group in creation (or key) order: SQLite takes
                        // a bare column from the row where min() found its value.
                        sql = "SELECT t0.\(root.keyColumn) AS k, min(\(kept.order)) AS o\(kept.tail) GROUP BY \(groups)"
                    } else if let kept = direct {
                        sql = "SELECT k, o FROM (SELECT t0.\(root.keyColumn) AS k, row_number() OVER (ORDER BY \(kept.orderBy)) AS o, row_number() OVER (PARTITION BY \(groups) ORDER BY \(kept.orderBy)) AS d\(kept.tail)) WHERE d = 1"
                    } else {
                        sql = "SELECT k, o FROM (SELECT s.k AS k, s.o AS o, row_number() OVER (PARTITION BY \(groups) ORDER BY s.o) AS d FROM (\(sql)) AS s \(join)) WHERE d = 1"
                    }
                case .limit(let n):
                    sql = "SELECT k, o FROM (\(sql)) ORDER BY o LIMIT \(bind(.int(Int64(n))))"
                }
                direct = nil  // the order is now the step's numbering
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

/// Every object of the root class read as t0 itself, through filters and SORTs (`QueryCompiler.rows`).
struct Direct {
    typealias Term = (expression: String, ascending: Bool)
    /// The object key's column.
    let key: String
    /// The text after the select list: t0, and the filters' WHERE.
    var tail: String
    /// `o` of the rows read unsorted: the creation order, or the key in key order.
    let order: String
    /// Whether `tail` has a WHERE already.
    var filtered: Bool
    /// The order of the SORTs so far, ties last (nil: unsorted).
    var sorted: [Term]?

    init(key: String, tail: String, order: String, filtered: Bool) {
        self.key = key
        self.tail = tail
        self.order = order
        self.filtered = filtered
    }

    /// The order the rows are in: the SORTs', or `o`.
    var chain: [Term] { sorted ?? [(order, true)] }
    var orderBy: String { Self.orderBy(chain, reversed: false) }

    /// The `(k, o)` rows.
    var select: String {
        if sorted == nil { return "SELECT \(key) AS k, \(order) AS o\(tail)" }
        return "SELECT \(key) AS k, row_number() OVER (ORDER BY \(orderBy)) AS o\(tail)"
    }

    static func orderBy(_ terms: [Term], reversed: Bool) -> String {
        terms.map { "\($0.expression) \($0.ascending != reversed ? "ASC" : "DESC")" }.joined(separator: ", ")
    }
}
