import DrumlinSchema
import DrumlinStorage
import DrumlinValues

// The database's side of queries: the state token that results cache under, the entry points
// that make `Results` (objects, query) and the parsed-query cache, the query plan of a query, and
// the read of a query's rows through its shared template without building `Results`
// (Query/QueryTemplate.swift). `Results` itself is in Query/Results.swift.

/// Identifies a database state: results cached under a token stay valid until it changes.
struct DatabaseStateToken: Equatable {
    let dataVersion: Int64
    let commits: Int
    /// Rows this connection changed: inside a write transaction, every write moves it.
    let changes: Int64
}

extension Database {
    /// The current state token: it changes when another connection commits (data_version), when
    /// this one commits or rolls back, and when this one writes a row (total changes).
    func stateToken(_ connection: Connection) throws(DrumlinError) -> DatabaseStateToken? {
        let statement = try connection.statement("PRAGMA data_version")
        defer { statement.reset() }
        _ = try statement.step()
        return DatabaseStateToken(dataVersion: statement.int64(0), commits: commitCount, changes: connection.totalChanges)
    }

    /// SQLite's `EXPLAIN QUERY PLAN` for a query: one line per plan step (e.g. `SEARCH t0 USING
    /// INDEX ...`), to check that a query uses an index.
    public func explainQueryPlan(_ className: String, _ query: String, _ arguments: [Value] = []) throws(DrumlinError) -> [String] {
        let results = try self.query(className, query, arguments)
        return try serialized { (connection) throws(DrumlinError) -> [String] in
            // The plan of the read the results would run (in key order when the class allows).
            let (rows, parameters, _) = try results.compile(connection, byKey: results.triesKeyOrder)
            let statement = try connection.statement("EXPLAIN QUERY PLAN SELECT k FROM (\(rows)) ORDER BY o")
            defer { statement.reset() }
            try statement.bind(parameters)
            var lines: [String] = []
            while try statement.step() { lines.append(statement.string(3)) }
            return lines
        }
    }

    /// Every object of a class, live. The corresponding C function is `drumlin_query` with a NULL query.
    public func objects(_ className: String) throws(DrumlinError) -> Results {
        let info = try readableClass(className)
        if info.isEmbedded {
            throw DrumlinError(.invalidArgument, "Embedded objects of type '\(info.name)' cannot be queried on their own: query their parent's property instead.")
        }
        return Results(database: self, info: info, base: .all)
    }

    /// The parse of a query text, from the cache when it was seen before (inside `serialized`).
    func parsed(_ text: String) throws(DrumlinError) -> Query {
        if let cached = parsedQueries[ExactName(text)] { return cached }
        let query: Query
        do throws(DrumlinError) {
            query = try QueryParser.parse(text)
        } catch {
            log(.error, error.message)
            throw error
        }
        if parsedQueries.count >= Self.parsedQueryLimit { parsedQueries.removeAll(keepingCapacity: true) }
        parsedQueries[ExactName(text)] = query
        return query
    }

    /// Objects matching a Realm Query Language query. The corresponding C function is `drumlin_query`.
    public func query(_ className: String, _ query: String, _ arguments: [Value] = []) throws(DrumlinError) -> Results {
        try objects(className).filter(query, arguments)
    }

    /// The rows of a query over every object of a class, in order (the first `maxRows`), read
    /// through the statement its shared template holds, with no `Results` built: what
    /// `query(...).forEachRow(...)` visits,
    /// for a query text run before with arguments of the same types (the lookup loop of
    /// `drumlin_query_marshal`, Python's `db.query_dicts`). Returns false, visiting nothing, when
    /// there is no such template yet or a property asked for is stored outside the row; the
    /// general path then runs the query (and reports its errors).
    public func visitTemplateRows(classIndex: Int, text: String, arguments: [Value], propertyIndices: [Int],
                                  maxRows: Int = .max,
                                  _ body: (ObjectRow) throws(DrumlinError) -> Void) throws(DrumlinError) -> Bool {
        try serializedRead { (connection) throws(DrumlinError) -> Bool in
            let info = try classInfo(index: classIndex)
            let byKey = readsInKeyOrder(info)
            guard let signature = QueryTemplate.signature(arguments),
                  case .template(let template)? = queryTemplates[QueryTemplate.Key(classIndex: classIndex, text: ExactName(text),
                                                                                   signature: signature, byKey: byKey)],
                  let statement = template.rowsStatement else { return false }
            for index in propertyIndices { try checkIndex(info, index) }
            guard info.inRow(propertyIndices) else { return false }
            guard template.accepts(arguments) else { return false }
            statement.reset()
            defer { statement.reset() }
            try template.bind(arguments, to: statement)
            var hasRow = try statement.step()
            // Nothing in key order may be a class out of key order: the general path reads it
            // in creation order (nothing was visited yet).
            if !hasRow, byKey, !(try storedKeyOrder(info, connection)) { return false }
            var rows = 0
            let row = ObjectRow(database: self, info: info, statement: statement, indices: propertyIndices)
            while hasRow, rows < maxRows {
                try body(row)
                rows += 1
                if rows < maxRows { hasRow = try statement.step() }
            }
            return true
        }
    }
}
