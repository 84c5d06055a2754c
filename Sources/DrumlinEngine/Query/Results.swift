import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// A live, ordered collection of objects of one class: every object, a query over them, a link
/// list, or backlinks, refined by filters, SORT, DISTINCT and LIMIT in the order applied. Reads
/// re-evaluate it when the database changed, so it always reflects the latest committed (or own
/// uncommitted) state; `snapshot()` freezes the current objects. The C handle is `drumlin_results`.
public final class Results: @unchecked Sendable {
    public let database: Database
    let info: ClassInfo

    enum Base {
        case all
        /// The elements of a link list, in list order.
        case list(owner: Int64, table: CollectionTable)
        /// The objects of `origin` linking to `key` through `origin.property(index)`.
        case backlinks(origin: ClassInfo, property: Int, key: Int64)
        /// Fixed object keys, in order.
        case snapshot([Int64])
    }

    enum Step {
        case filter(Query.Predicate, text: String, arguments: [Value])
        case postfix(Query.PostfixClause, text: String, arguments: [Value])
    }

    let base: Base
    let steps: [Step]
    /// What the base depends on: the owner object for lists and backlinks.
    let owner: (ClassInfo, Int64)?
    private var cache: (token: DatabaseStateToken, keys: [Int64])?
    /// What reads in one order use (`plans[0]`: creation order; `plans[1]`: key order, see
    /// Objects/Database+KeyOrder.swift): the compiled SQL (it depends only on the query and the
    /// schema, so it is compiled once), the text of the read of whole rows, and the compiled form
    /// shared with other results of the same query text and argument types.
    private struct Plan {
        var compiled: Compiled?
        var rowsText: String?
        var template: QueryTemplate?
    }
    private var plans = [Plan(), Plan()]
    /// The query text and arguments of results compiled through the database's templates.
    private var sharedQuery: (text: String, arguments: [Value])?

    init(database: Database, info: ClassInfo, base: Base, steps: [Step] = [], owner: (ClassInfo, Int64)? = nil) {
        self.database = database
        self.info = info
        self.base = base
        self.steps = steps
        self.owner = owner
    }

    public var className: String { info.name }

    /// Every object of the class, with nothing filtered out (reads of it are checked against the
    /// class's count: see `Database.checkWholeClassRead`).
    var isWholeClass: Bool {
        guard case .all = base, owner == nil else { return false }
        return steps.isEmpty
    }

    func adding(_ newSteps: [Step]) -> Results {
        Results(database: database, info: info, base: base, steps: steps + newSteps, owner: owner)
    }

    // MARK: Refining

    /// Objects matching a Realm Query Language predicate (which may end in SORT, DISTINCT, LIMIT).
    /// Parsed and compiled at once, in one call on the database: errors are reported now, not at
    /// the first read.
    public func filter(_ query: String, _ arguments: [Value] = []) throws(DrumlinError) -> Results {
        try checkedRead { (connection) throws(DrumlinError) -> Results in
            let parsed = try database.parsed(query)
            var newSteps: [Step] = [.filter(parsed.predicate, text: query, arguments: arguments)]
            for clause in parsed.postfix { newSteps.append(.postfix(clause, text: query, arguments: arguments)) }
            let refined = adding(newSteps)
            if case .all = base, steps.isEmpty, owner == nil {
                refined.sharedQuery = (query, arguments)
                // Compiled for the order its reads will take (the errors are the same in both).
                try refined.compileShared(query, arguments, connection, byKey: refined.triesKeyOrder)
            } else {
                _ = try refined.compile(connection, byKey: refined.triesKeyOrder)
            }
            return refined
        }
    }

    /// Compiles a query over every object of the class through the database's templates: a text
    /// seen before with arguments of the same types is bound without compiling (`QueryTemplate`).
    private func compileShared(_ text: String, _ arguments: [Value], _ connection: Connection, byKey: Bool) throws(DrumlinError) {
        let plan = byKey ? 1 : 0
        guard let signature = QueryTemplate.signature(arguments) else {
            _ = try compileAlone(connection, byKey: byKey)
            return
        }
        let key = QueryTemplate.Key(classIndex: info.index, text: ExactName(text), signature: signature, byKey: byKey)
        switch database.queryTemplates[key] {
        case .template(let shared)? where shared.accepts(arguments):
            plans[plan].template = shared
            plans[plan].compiled = (shared.sql, shared.values(arguments), shared.plainRows)
        case .template?, .uncacheable?:
            _ = try compileAlone(connection, byKey: byKey)
        case nil:
            var compiler = QueryCompiler(database: database, connection: connection, root: info, text: "", arguments: [])
            compiler.keyOrder = byKey
            let rows = try compiler.rows(base, steps)
            plans[plan].compiled = (rows, compiler.parameters, compiler.plainRows)
            let made = compiler.template(rows)
            if database.queryTemplates.count >= Database.parsedQueryLimit { database.queryTemplates.removeAll(keepingCapacity: true) }
            database.queryTemplates[key] = made.map { .template($0) } ?? .uncacheable
            plans[plan].template = made
        }
    }

    /// Sorted by key paths, e.g. `sorted(by: [("age", false), ("name", true)])`.
    public func sorted(by keys: [(keyPath: String, ascending: Bool)]) throws(DrumlinError) -> Results {
        var sortKeys: [Query.SortKey] = []
        var text: [String] = []
        for (keyPath, ascending) in keys {
            guard let parsed = try QueryParser.parseSortDescriptor(keyPath).first else {
                throw DrumlinError(.query, "Empty sort key path.")
            }
            sortKeys.append(Query.SortKey(path: parsed.path, ascending: ascending))
            text.append(keyPath)
        }
        return try checked(.postfix(Query.PostfixClause(.sort(sortKeys), range: .init(start: 0, end: 0)), text: text.joined(separator: ", "), arguments: []))
    }

    /// Sorted by a descriptor such as `"age DESC, name"`.
    public func sorted(by descriptor: String) throws(DrumlinError) -> Results {
        let keys = try QueryParser.parseSortDescriptor(descriptor)
        return try checked(.postfix(Query.PostfixClause(.sort(keys), range: .init(start: 0, end: 0)), text: descriptor, arguments: []))
    }

    /// The first object of each distinct combination of the key paths.
    public func distinct(_ keyPaths: [String]) throws(DrumlinError) -> Results {
        guard !keyPaths.isEmpty else {
            throw DrumlinError(.invalidArgument, "DISTINCT takes at least one key path, such as 'age' or 'dog.name'.")
        }
        var paths: [Query.KeyPath] = []
        for keyPath in keyPaths {
            guard let parsed = try QueryParser.parseSortDescriptor(keyPath).first else { throw DrumlinError(.query, "Empty key path.") }
            paths.append(parsed.path)
        }
        return try checked(.postfix(Query.PostfixClause(.distinct(paths), range: .init(start: 0, end: 0)), text: keyPaths.joined(separator: ", "), arguments: []))
    }

    /// At most the first `count` objects.
    public func limit(_ count: Int) throws(DrumlinError) -> Results {
        guard count >= 0 else { throw DrumlinError(.query, "LIMIT needs a natural number, got \(count).") }
        return adding([.postfix(Query.PostfixClause(.limit(count), range: .init(start: 0, end: 0)), text: "", arguments: [])])
    }

    private func checked(_ step: Step) throws(DrumlinError) -> Results {
        let refined = adding([step])
        try refined.validate()
        return refined
    }

    private func validate() throws(DrumlinError) {
        try checkedRead { (connection) throws(DrumlinError) in _ = try compile(connection, byKey: triesKeyOrder) }
    }

    /// The current objects, frozen: later changes do not add or reorder them (deleted objects
    /// are left out when read).
    public func snapshot() throws(DrumlinError) -> Results {
        let keys = try checkedRead { (connection) throws(DrumlinError) -> [Int64] in try self.keys(connection) }
        return Results(database: database, info: info, base: .snapshot(keys))
    }

    // MARK: Reading

    /// Every column of every object, in order (for classes without relationships); built once.
    /// Filters over the class, then at most a SORT (and a LIMIT after it), read their rows straight
    /// from the table (`QueryCompiler.plainRows`); anything else joins its `(k, o)` rows back to
    /// the table.
    func rowsSQL(_ connection: Connection, byKey: Bool = false) throws(DrumlinError) -> (sql: String, parameters: [Value]) {
        let plan = byKey ? 1 : 0
        let (rows, parameters, plainRows) = try compile(connection, byKey: byKey)
        if let rowsText = plans[plan].rowsText { return (rowsText, parameters) }
        if let shared = plans[plan].template?.rowsSQL {
            plans[plan].rowsText = shared
            return (shared, parameters)
        }
        let sql: String
        if let plainRows {
            // In key order, only while the class is (the compiler's key-order tail guards it: see
            // Database+KeyOrder.swift).
            sql = "SELECT \(info.rowColumnsT0)\(plainRows)"
        } else {
            sql = "SELECT \(info.aliasedRowColumns) FROM (\(rows)) AS r JOIN \(info.table) AS e ON e.\(info.keyColumn) = r.k ORDER BY r.o"
        }
        plans[plan].rowsText = sql
        plans[plan].template?.rowsSQL = sql
        return (sql, parameters)
    }

    /// The prepared read of `rowsSQL`; shared through the template, so a repeated query text
    /// does not look its statement up by SQL text again.
    private func rowsStatement(_ connection: Connection, byKey: Bool = false) throws(DrumlinError) -> (Statement, [Value]) {
        let plan = byKey ? 1 : 0
        let (sql, parameters) = try rowsSQL(connection, byKey: byKey)
        if let shared = plans[plan].template?.rowsStatement {
            shared.reset()
            return (shared, parameters)
        }
        let statement = try connection.statement(sql)
        plans[plan].template?.rowsStatement = statement
        return (statement, parameters)
    }

    /// The read of every row, bound, stepped to its first row: in key order when the class
    /// allows it, else (or when the key-order read finds the class out of key order) in creation
    /// order. Returns the statement to read on and whether it is on a row.
    private func firstRows(_ connection: Connection) throws(DrumlinError) -> (Statement, Bool) {
        let byKey = triesKeyOrder
        let (statement, parameters) = try rowsStatement(connection, byKey: byKey)
        try statement.bind(parameters)
        return try database.firstRow(statement, byKey: byKey, info, connection) { () throws(DrumlinError) -> Statement in
            let (fallback, parameters) = try rowsStatement(connection)
            try fallback.bind(parameters)
            return fallback
        }
    }

    /// Whether reads may try key order: every object of a class keyed by its int primary key,
    /// filtered or not, while the database's hint says the class is in key order.
    var triesKeyOrder: Bool {
        guard case .all = base, owner == nil else { return false }
        return database.readsInKeyOrder(info)
    }

    /// A compiled result: the rows SQL, its parameters, and its straight read of the table if any
    /// (`QueryCompiler.plainRows`).
    typealias Compiled = (sql: String, parameters: [Value], plainRows: String?)

    func compile(_ connection: Connection, byKey: Bool = false) throws(DrumlinError) -> Compiled {
        if let compiled = plans[byKey ? 1 : 0].compiled { return compiled }
        if byKey, let (text, arguments) = sharedQuery {
            try compileShared(text, arguments, connection, byKey: true)
            if let compiled = plans[1].compiled { return compiled }
        }
        return try compileAlone(connection, byKey: byKey)
    }

    private func compileAlone(_ connection: Connection, byKey: Bool) throws(DrumlinError) -> Compiled {
        var compiler = QueryCompiler(database: database, connection: connection, root: info, text: "", arguments: [])
        compiler.keyOrder = byKey
        let rows = try compiler.rows(base, steps)
        let result = (rows, compiler.parameters, compiler.plainRows)
        plans[byKey ? 1 : 0].compiled = result
        return result
    }

    func keys(_ connection: Connection) throws(DrumlinError) -> [Int64] {
        if let (ownerInfo, ownerKey) = owner, !(try database.exists(ownerInfo, ownerKey, connection)) {
            throw database.invalidated(ownerInfo)
        }
        let token = try database.stateToken(connection)
        if let token, let cache, cache.token == token { return cache.keys }
        func read(byKey: Bool) throws(DrumlinError) -> Statement {
            let (rows, parameters, _) = try compile(connection, byKey: byKey)
            var sql = "SELECT k FROM (\(rows)) ORDER BY o"
            if case .snapshot = base {
                sql = "SELECT r.k FROM (\(rows)) AS r JOIN \(info.table) AS e ON e.\(info.keyColumn) = r.k ORDER BY r.o"
            }
            let statement = try connection.statement(sql)
            try statement.bind(parameters)
            return statement
        }
        var keys: [Int64] = []
        try database.timedQuery(queryDescription) { () throws(DrumlinError) in
            let byKey = triesKeyOrder
            var (statement, hasRow) = try database.firstRow(try read(byKey: byKey), byKey: byKey, info, connection) {
                () throws(DrumlinError) -> Statement in try read(byKey: false)
            }
            defer { statement.reset() }
            while hasRow {
                keys.append(statement.int64(0))
                hasRow = try statement.step()
            }
        }
        if isWholeClass { try database.checkWholeClassRead(info, keys.count, since: token, connection) }
        if let token { cache = (token, keys) }
        return keys
    }

    /// Whether the keys kept from the last read are those of the database's state now.
    private func keysAreCurrent(_ connection: Connection) throws(DrumlinError) -> Bool {
        guard let cache, let token = try database.stateToken(connection) else { return false }
        return cache.token == token
    }

    /// "'Person' where age > $0 SORT(name ASC)", for the log.
    var queryDescription: String {
        let texts = steps.map { step -> String in
            switch step {
            case .filter(_, let text, _), .postfix(_, let text, _): text
            }
        }
        return "'\(info.name)'" + (texts.isEmpty ? " (all objects)" : ": " + texts.joined(separator: " | "))
    }

    public var count: Int {
        get throws(DrumlinError) {
            try checkedRead { (connection) throws(DrumlinError) in
                if isFilteredClass { return try countedRows(connection) }
                if let unsorted, try !keysAreCurrent(connection) { return try unsorted.countedRows(connection) }
                return try keys(connection).count
            }
        }
    }

    /// Whether the results hold no object. Of a class or its filters (and sorts), SQLite stops at
    /// the first object it finds (`EXISTS`); others are counted.
    public var isEmpty: Bool {
        get throws(DrumlinError) {
            try checkedRead { (connection) throws(DrumlinError) in
                guard let counted = isFilteredClass ? self : unsorted, try !keysAreCurrent(connection) else {
                    return try keys(connection).isEmpty
                }
                let (rows, parameters, _) = try counted.compile(connection)
                let statement = try connection.statement("SELECT EXISTS (SELECT 1 FROM (\(rows)))")
                defer { statement.reset() }
                try statement.bind(parameters)
                return try database.timedQuery(queryDescription) { () throws(DrumlinError) -> Bool in
                    _ = try statement.step()
                    return statement.int64(0) == 0
                }
            }
        }
    }

    /// These results without their SORTs, when the other steps are filters over every object of
    /// the class: the same objects, so the same count, emptiness and aggregates, which SQLite then
    /// finds without sorting (`len()` of 100k objects sorted by an unindexed key: 76 -> 1.9 ms).
    /// Made on first use; nil for any other results.
    private lazy var unsorted: Results? = {
        guard case .all = base, owner == nil, !isFilteredClass else { return nil }
        var kept: [Step] = []
        for step in steps {
            switch step {
            case .filter: kept.append(step)
            case .postfix(let clause, _, _):
                guard case .sort = clause.kind else { return nil }
            }
        }
        return Results(database: database, info: info, base: base, steps: kept, owner: nil)
    }()

    /// Every object of the class, or those some filters keep: no SORT, DISTINCT or LIMIT, no
    /// list or backlinks.
    private var isFilteredClass: Bool {
        guard case .all = base, owner == nil else { return false }
        return steps.allSatisfy { if case .filter = $0 { true } else { false } }
    }

    /// How many objects results of `isFilteredClass` hold, counted by SQLite unless their keys
    /// were read in this state: a count needs no list of keys in order, which only a read by
    /// position keeps. The whole class is counted in its table, not from an index, so that the
    /// count is checked against the class's count as every read of the whole class is. 100k
    /// objects: 7.4 ms for the keys, 1.8 ms for the table's rows, 4.6 ms for `age > 30`'s.
    private func countedRows(_ connection: Connection) throws(DrumlinError) -> Int {
        let token = try database.stateToken(connection)
        if let token, let cache, cache.token == token { return cache.keys.count }
        // The whole class needs no compiled query.
        let (sql, parameters) = isWholeClass ? ("SELECT count(*) FROM \(info.table) NOT INDEXED", [])
            : try { () throws(DrumlinError) -> (String, [Value]) in
                let (rows, parameters, _) = try compile(connection)
                return ("SELECT count(*) FROM (\(rows))", parameters)
            }()
        let statement = try connection.statement(sql)
        defer { statement.reset() }
        try statement.bind(parameters)
        let counted = try database.timedQuery(queryDescription) { () throws(DrumlinError) -> Int in
            _ = try statement.step()
            return Int(statement.int64(0))
        }
        if isWholeClass { try database.checkWholeClassRead(info, counted, since: token, connection) }
        return counted
    }

    public var objects: [Object] {
        get throws(DrumlinError) {
            try checkedRead { (connection) throws(DrumlinError) in
                try keys(connection).map { Object(database: database, info: info, key: $0) }
            }
        }
    }

    public subscript(index: Int) -> Object {
        get throws(DrumlinError) { try object(at: index) }
    }

    public func object(at index: Int) throws(DrumlinError) -> Object {
        try checkedRead { (connection) throws(DrumlinError) in
            // The first object of results whose keys were not read in this state: a read of it
            // alone (a sort before keeps only it as it sorts), not of every key in order.
            if index == 0, try !keysAreCurrent(connection), let key = try limit(1).keys(connection).first {
                return Object(database: database, info: info, key: key)
            }
            let keys = try keys(connection)
            guard index >= 0, index < keys.count else {
                throw DrumlinError(.invalidArgument, "Index \(index) is out of bounds for results of size \(keys.count).")
            }
            return Object(database: database, info: info, key: keys[index])
        }
    }

    /// The last object, or nil when there is none. Results of a class, filtered or ending in a
    /// SORT, whose keys were not read in this state read that object alone: the first of their
    /// order reversed (SQLite walks the key or an index backwards, or keeps one row as it sorts).
    /// The rest read their keys in order (kept for reads by position).
    public func last() throws(DrumlinError) -> Object? {
        try checkedRead { (connection) throws(DrumlinError) -> Object? in
            let endsInSort = if case .postfix(let clause, _, _)? = steps.last, case .sort = clause.kind { true } else { false }
            guard case .all = base, owner == nil, isFilteredClass || endsInSort, try !keysAreCurrent(connection) else {
                return try keys(connection).last.map { Object(database: database, info: info, key: $0) }
            }
            func lastKey(byKey: Bool) throws(DrumlinError) -> Int64? {
                var compiler = QueryCompiler(database: database, connection: connection, root: info, text: "", arguments: [])
                compiler.keyOrder = byKey
                let sql: String
                if endsInSort {
                    compiler.reversesLastSort = true
                    let first = Step.postfix(Query.PostfixClause(.limit(1), range: .init(start: 0, end: 0)), text: "", arguments: [])
                    sql = "SELECT k FROM (\(try compiler.rows(base, steps + [first])))"
                } else {
                    sql = "SELECT k FROM (\(try compiler.rows(base, steps))) ORDER BY o DESC LIMIT 1"
                }
                let statement = try connection.statement(sql)
                defer { statement.reset() }
                try statement.bind(compiler.parameters)
                return try database.timedQuery(queryDescription) { () throws(DrumlinError) -> Int64? in
                    try statement.step() ? statement.int64(0) : nil
                }
            }
            // In key order while the class is (its guard finds nothing otherwise), as reads are.
            var key = try lastKey(byKey: triesKeyOrder)
            if key == nil, triesKeyOrder, !(try database.storedKeyOrder(info, connection)) { key = try lastKey(byKey: false) }
            return key.map { Object(database: database, info: info, key: $0) }
        }
    }

    /// The position of the object with object key `key` in the results (the first, when a list
    /// holds it more than once), or nil when it is not in them. One read of the keys in order
    /// (kept for later reads by position), no object made per element.
    public func index(ofKey key: Int64) throws(DrumlinError) -> Int? {
        try checkedRead { (connection) throws(DrumlinError) in try keys(connection).firstIndex(of: key) }
    }

    /// The objects as a JSON array (links as keys, or nested `depth` levels).
    public func jsonText(depth: Int = 0) throws(DrumlinError) -> String {
        try checkedRead { (connection) throws(DrumlinError) in
            var writer = JSONWriter()
            writer.writeByte(UInt8(ascii: "["))
            if !info.hasRelationships, owner == nil {
                // Every property is a column: read all rows in the query itself.
                var (statement, hasRow) = try firstRows(connection)
                defer { statement.reset() }
                var first = true
                while hasRow {
                    if !first { writer.writeByte(UInt8(ascii: ",")) }
                    first = false
                    try database.writeRowJSON(info, statement, to: &writer)
                    hasRow = try statement.step()
                }
                writer.writeByte(UInt8(ascii: "]"))
                return writer.string
            }
            for (i, key) in try keys(connection).enumerated() {
                if i > 0 { writer.writeByte(UInt8(ascii: ",")) }
                try database.writeJSON(info, key, depth: Swift.max(depth, 0), connection, to: &writer)
            }
            writer.writeByte(UInt8(ascii: "]"))
            return writer.string
        }
    }

    /// Hands `body` the row of each object in order, read in place (see `ObjectRow`), as
    /// `forEachRow(from: 0, maxRows: .max, ...)` does.
    public func forEachRow(_ indices: [Int], _ body: (ObjectRow) throws(DrumlinError) -> Void) throws(DrumlinError) {
        _ = try forEachRow(from: 0, maxRows: .max, indices, body)
    }

    /// Hands `body` the rows at positions `start ..< start + maxRows` (fewer at the end), in
    /// order, read in place; returns how many. Results of a class (filtered or not, of any class:
    /// links, embedded objects, collections and mixed values too) stream from one statement: a
    /// read that stops before the last row parks its statement (`Database.parkedRows`), and a
    /// read of the following rows that comes next continues it, so reading results page by page
    /// costs what reading them at once does. Properties stored outside the row are read for each
    /// row as it is reached, as `Database.readRow` reads them. Elsewhere (a list's or backlinks'
    /// results, a page after a call other than a read in the same snapshot) each row is read by
    /// its key. `body` reads; a write
    /// from inside it (to the class being read) would change the rows under the statement. The C
    /// functions are `drumlin_results_get_values` and `drumlin_results_get_rows`.
    ///
    /// With `parking` false a read that stops before the last row resets its statement instead
    /// (a read of the first rows only, such as `drumlin_query_first_rows`), so no read snapshot
    /// stays open after the call.
    public func forEachRow(from start: Int, maxRows: Int, _ indices: [Int], parking: Bool = true,
                           _ body: (ObjectRow) throws(DrumlinError) -> Void) throws(DrumlinError) -> Int {
        guard start >= 0, maxRows >= 0 else {
            throw DrumlinError(.invalidArgument, "start and max_rows must not be negative.")
        }
        return try checkedResuming(reading: true) { (connection, parked) throws(DrumlinError) -> Int in
            let current = parked.flatMap { $0.results === self && $0.version == database.readVersion ? $0 : nil }
            // A parked statement not taken up below is reset, so that no read stays open.
            do throws(DrumlinError) {
                for index in indices { try database.checkIndex(info, index) }
                if let current, let page = current.page, page.start == start, page.keys.count == maxRows {
                    // The page read last, asked for again (a caller whose buffer was too small):
                    // its rows by key, in the snapshot the parked statement holds, which stays
                    // parked for the next page.
                    for key in page.keys {
                        let values = try database.readRow(info, key, connection, indices: indices)
                        try body(ObjectRow(database: database, info: info, key: key, values: values, indices: indices))
                    }
                    database.parkedRows = current
                    if database.holdsReads { HeldReadReaper.shared.watch(database) }
                    return maxRows
                }
            } catch {
                parked?.statement.reset()
                throw error
            }
            let continued = current?.position == start ? current : nil
            if continued == nil { parked?.statement.reset() }
            if maxRows == 0 {
                continued?.statement.reset()
                return 0
            }
            if owner == nil, start == 0 || continued != nil {
                // Properties stored outside the row (collections, backlinks, a mixed value's
                // nested collection) are read per row while the statement stays on it.
                let inRow = info.inRow(indices)
                var statement: Statement
                // The state a read of every object began in, to check its rows against the count.
                let begun = isWholeClass ? (continued != nil ? continued?.begun : try database.stateToken(connection)) : nil
                var started: Bool?
                if let continued {
                    statement = continued.statement
                } else {
                    (statement, started) = try firstRows(connection)
                }
                var rows = 0
                // A page's keys, kept with the parked statement for a read of the same page again.
                let paged = parking && maxRows <= ParkedRows.pageKeysLimit
                var keys: [Int64] = []
                if paged { keys.reserveCapacity(maxRows) }
                do throws(DrumlinError) {
                    var hasRow: Bool
                    if let started { hasRow = started } else { hasRow = try statement.step() }
                    // One row value for every row the statement is on (ObjectRow.init(statement:)).
                    let row = ObjectRow(database: database, info: info, statement: statement, indices: indices)
                    while hasRow {
                        if paged { keys.append(statement.int64(0)) }
                        if inRow {
                            try body(row)
                        } else {
                            let key = statement.int64(0)
                            var (values, pending) = try database.rowValues(info, statement, indices: indices)
                            try database.loadOutOfRow(info, key, &values, pending, connection, indices: indices)
                            try body(ObjectRow(database: database, info: info, key: key, values: values, indices: indices))
                        }
                        rows += 1
                        if rows == maxRows { break }
                        hasRow = try statement.step()
                    }
                } catch {
                    statement.reset()
                    throw error
                }
                if rows == maxRows, !parking {
                    statement.reset()
                } else if rows == maxRows {
                    database.parkedRows = ParkedRows(results: self, statement: statement, position: start + rows,
                                                     version: database.readVersion, begun: begun,
                                                     page: paged ? (start, keys) : nil)
                    if database.holdsReads { HeldReadReaper.shared.watch(database) }
                } else {
                    statement.reset()
                    if isWholeClass { try database.checkWholeClassRead(info, start + rows, since: begun, connection) }
                }
                return rows
            }
            let keys = try keys(connection)
            guard start < keys.count else { return 0 }
            let end = start + Swift.min(maxRows, keys.count - start)
            for key in keys[start..<end] {
                let values = try database.readRow(info, key, connection, indices: indices)
                try body(ObjectRow(database: database, info: info, key: key, values: values, indices: indices))
            }
            return end - start
        }
    }

    // MARK: Aggregates

    public typealias Aggregate = DrumlinValues.Aggregate

    /// Realm's aggregates over a numeric (or, for min/max, date) property: sum of nothing is 0;
    /// min, max and avg of nothing are null.
    public func aggregate(_ op: Aggregate, _ property: String) throws(DrumlinError) -> Value {
        // Sorted results hold what their filters do: aggregated without the sort.
        if let unsorted = try checkedRead({ (_) throws(DrumlinError) in unsorted }) {
            return try unsorted.aggregate(op, property)
        }
        return try checkedRead { (connection) throws(DrumlinError) in
            var compiler = QueryCompiler(database: database, connection: connection, root: info, text: property, arguments: [])
            let rows = try compiler.rows(base, steps)
            guard let index = info.propertyIndex(property) else { throw database.noSuchProperty(info, property) }
            let prop = info.property(index)
            let allowed: [PropertyType] = op == .sum || op == .avg ? [.int, .float, .double, .decimal128] : [.int, .float, .double, .decimal128, .date]
            guard prop.isColumn, allowed.contains(prop.type) else {
                throw DrumlinError(.query, "Cannot \(op.rawValue) property '\(info.name).\(prop.name)' of type '\(prop.realmTypeName == "array" ? "array" : prop.type.rawValue)'.")
            }
            let column = "t0.\(quoted(prop.storedName))"
            // The class, or filters over it, straight from the table; anything else joins its
            // `(k, o)` rows back to the table (a self-join: twice the time over the whole class).
            let from: String
            if isFilteredClass, steps.isEmpty {
                from = "\(info.table) AS t0"
            } else if isFilteredClass, let condition = compiler.plainCondition {
                from = "\(info.table) AS t0 WHERE \(condition)"
            } else {
                from = "(\(rows)) AS r JOIN \(info.table) AS t0 ON t0.\(info.keyColumn) = r.k"
            }
            if prop.type == .decimal128 {
                // Decimals are added and compared exactly in Swift, not through doubles.
                let statement = try connection.statement("SELECT \(column) FROM \(from)")
                defer { statement.reset() }
                try statement.bind(compiler.parameters)
                var values: [Decimal128] = []
                while try statement.step() {
                    if !statement.isNull(0), let d = Decimal128(string: statement.string(0)) { values.append(d) }
                }
                return DecimalArithmetic.aggregate(op, values)
            }
            var value = column
            if prop.type == .float || prop.type == .double { value = "drumlin_num(\(value))" }
            let function = op == .sum ? "coalesce(sum(\(value)), 0)" : "\(op.rawValue)(\(value))"
            let sql = "SELECT \(function) FROM \(from)"
            let statement = try connection.statement(sql)
            defer { statement.reset() }
            try statement.bind(compiler.parameters)
            let hasRow: Bool
            do throws(DrumlinError) {
                hasRow = try statement.step()
            } catch where error.sqliteCode == 1 && error.message.contains("overflow") {
                throw DrumlinError(.limit, "The \(op.rawValue) of '\(info.name).\(prop.name)' overflows 64-bit integers.")
            }
            guard hasRow, !statement.isNull(0) else { return .null }
            switch (op, prop.type) {
            case (.avg, _): return .double(statement.double(0))
            case (_, .int): return .int(statement.int64(0))
            case (_, .date): return .date(Timestamp(nanosecondsSinceEpoch: statement.int64(0)))
            case (_, .float): return .float(Float(statement.double(0)))
            default: return .double(statement.double(0))
            }
        }
    }

    public func min(_ property: String) throws(DrumlinError) -> Value { try aggregate(.min, property) }
    public func max(_ property: String) throws(DrumlinError) -> Value { try aggregate(.max, property) }
    public func sum(_ property: String) throws(DrumlinError) -> Value { try aggregate(.sum, property) }
    public func average(_ property: String) throws(DrumlinError) -> Value { try aggregate(.avg, property) }

    // MARK: Deleting

    /// Deletes every object in the results (inside a write transaction); returns how many.
    @discardableResult
    public func deleteAll() throws(DrumlinError) -> Int {
        try checkedWrite { (connection) throws(DrumlinError) -> Int in
            try database.requireWriteTransaction()
            _ = try database.readable(info)
            if !info.hasRelationships {
                // Nothing else to clean up but mixed values linking here: set-based statements.
                let (rows, parameters, _) = try compile(connection)
                var deleted = 0
                func delete() throws(DrumlinError) {
                    let statement = try connection.statement(
                        "DELETE FROM \(info.table) WHERE \(info.keyColumn) IN (SELECT k FROM (\(rows)))")
                    defer { statement.reset() }
                    try statement.bind(parameters)
                    _ = try statement.step()
                    deleted = connection.changes
                }
                if info.mixedLinkHolders.isEmpty {
                    try delete()
                } else {
                    try database.atomically(connection) { () throws(DrumlinError) in
                        try database.clearMixedLinks(to: info, keysSQL: "SELECT k FROM (\(rows))", parameters, connection)
                        try delete()
                    }
                }
                cache = nil
                return deleted
            }
            let keys = try keys(connection)
            var deleted = 0
            try database.atomically(connection) { () throws(DrumlinError) in
                // A cascade may already have removed a later key (an embedded object, say).
                for key in keys where try database.exists(info, key, connection) {
                    try database.deleteObject(info, key, connection)
                    deleted += 1
                }
            }
            cache = nil
            return deleted
        }
    }
}

/// A results read parked where it stopped (see `Database.parkedRows`): the results, the statement
/// stepped up to `position` rows, and the database's read version when it was parked.
final class ParkedRows {
    let results: Results
    let statement: Statement
    let position: Int
    var version: UInt64
    /// The state the read began in, for a read of every object (see `Database.checkWholeClassRead`).
    let begun: DatabaseStateToken?
    /// The page that parked the statement: where it began and its rows' keys. A caller that asks
    /// for it again (its buffer was too small for the packed rows) gets the same rows, read by
    /// key, and the statement stays parked for the page after.
    let page: (start: Int, keys: [Int64])?
    /// Pages of more rows keep no keys.
    static let pageKeysLimit = 1 << 16

    init(results: Results, statement: Statement, position: Int, version: UInt64, begun: DatabaseStateToken?,
         page: (start: Int, keys: [Int64])?) {
        self.results = results
        self.statement = statement
        self.position = position
        self.version = version
        self.begun = begun
        self.page = page
    }
}

extension Results {
    /// `Database.serializedRead`, refusing the results of a class removed from the handle (added
    /// in a write transaction that rolled back): its table is gone.
    func checkedRead<R>(_ body: (Connection) throws(DrumlinError) -> R) throws(DrumlinError) -> R {
        try database.serializedRead { (connection) throws(DrumlinError) -> R in
            if info.isRemoved { throw Database.removedClass(info) }
            return try body(connection)
        }
    }

    /// `Database.serialized`, with `checkedRead`'s check.
    func checkedWrite<R>(_ body: (Connection) throws(DrumlinError) -> R) throws(DrumlinError) -> R {
        try database.serialized { (connection) throws(DrumlinError) -> R in
            if info.isRemoved { throw Database.removedClass(info) }
            return try body(connection)
        }
    }

    /// `Database.serializedResuming`, with `checkedRead`'s check.
    func checkedResuming<R>(reading: Bool, _ body: (Connection, ParkedRows?) throws(DrumlinError) -> R) throws(DrumlinError) -> R {
        try database.serializedResuming(reading: reading) { (connection, parked) throws(DrumlinError) -> R in
            if info.isRemoved {
                parked?.statement.reset()
                throw Database.removedClass(info)
            }
            return try body(connection, parked)
        }
    }
}
