/// Checking a file's consistency and compacting it.
extension Database {
    /// Checks the file: SQLite's own integrity check, then the engine's invariants: every link,
    /// list, set and dictionary entry points at a live object (so every backlink does too, as
    /// backlinks are the links read in reverse), every collection entry belongs to a live object,
    /// and every embedded object has exactly one owner. Returns the problems found, each as one
    /// sentence; empty when the file is sound. Reads only. The corresponding C function is
    /// `drumlin_check`.
    public func check() throws(DrumlinError) -> [String] {
        try serialized { (connection) throws(DrumlinError) -> [String] in
            var problems: [String] = []
            let integrity = try connection.statement("PRAGMA integrity_check")
            while try integrity.step() {
                let line = integrity.string(0)
                if line != "ok" { problems.append("SQLite integrity check: \(line)") }
            }
            integrity.reset()
            func count(_ sql: String) throws(DrumlinError) -> Int64 {
                let statement = try connection.statement(sql)
                defer { statement.reset() }
                return try statement.step() ? statement.int64(0) : 0
            }
            func plural(_ n: Int64, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
            for info in classes {
                for (index, property) in info.schema.properties.enumerated() where !property.isComputed {
                    let label = "'\(info.name).\(property.name)'"
                    let table = info.collectionTables[index] ?? nil
                    if let table {
                        let orphans = try count("SELECT count(*) FROM \(table.name) AS c WHERE NOT EXISTS (SELECT 1 FROM \(info.table) AS o WHERE o.\(info.keyColumn) = c.owner)")
                        if orphans > 0 { problems.append("\(plural(orphans, "entry")) of \(label) belong to no live '\(info.name)' object.") }
                    }
                    guard property.type == .object, let target = info.targets[index] else { continue }
                    let source = table.map { "SELECT value AS k FROM \($0.name) WHERE value IS NOT NULL" }
                        ?? "SELECT \(quoted(property.storedName)) AS k FROM \(info.table) WHERE \(quoted(property.storedName)) IS NOT NULL"
                    let dangling = try count("SELECT count(*) FROM (\(source)) AS l WHERE NOT EXISTS (SELECT 1 FROM \(target.table) AS t WHERE t.\(target.keyColumn) = l.k)")
                    if dangling > 0 {
                        problems.append("\(plural(dangling, table == nil ? "link" : "entry")) of \(label) point at no live '\(target.name)' object.")
                    }
                }
            }
            for info in classes where info.isEmbedded {
                let sources = info.incoming.map { (origin, index) -> String in
                    if let table = origin.collectionTables[index] ?? nil {
                        return "SELECT value AS k FROM \(table.name) WHERE value IS NOT NULL"
                    }
                    let column = quoted(origin.property(index).storedName)
                    return "SELECT \(column) AS k FROM \(origin.table) WHERE \(column) IS NOT NULL"
                }
                let owners = sources.isEmpty ? "SELECT NULL AS k, 0 AS n WHERE 0"
                    : "SELECT k, count(*) AS n FROM (\(sources.joined(separator: " UNION ALL "))) GROUP BY k"
                let base = "FROM \(info.table) AS e LEFT JOIN (\(owners)) AS r ON r.k = e.\(info.keyColumn)"
                let unowned = try count("SELECT count(*) \(base) WHERE r.n IS NULL")
                if unowned > 0 { problems.append("\(plural(unowned, "embedded '\(info.name)' object")) \(unowned == 1 ? "has" : "have") no owner.") }
                let shared = try count("SELECT count(*) \(base) WHERE r.n > 1")
                if shared > 0 { problems.append("\(plural(shared, "embedded '\(info.name)' object")) \(shared == 1 ? "has" : "have") more than one owner.") }
            }
            return problems
        }
    }

    /// Rewrites the file without its free pages (SQLite's VACUUM) and truncates the write-ahead
    /// log. Not inside a write transaction; other connections must not be reading or writing.
    /// The corresponding C function is `drumlin_compact`.
    public func compact() throws(DrumlinError) {
        try serialized { (connection) throws(DrumlinError) in
            if options.readOnly { throw DrumlinError(.readOnly, "The database was opened read-only.") }
            if inWriteTransaction {
                throw DrumlinError(.wrongTransactionState, "Cannot compact inside a write transaction.")
            }
            if path == ":memory:" { return }
            try connection.execute("VACUUM")
            try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            log(.info, "Compacted '\(path)'.")
        }
    }
}
