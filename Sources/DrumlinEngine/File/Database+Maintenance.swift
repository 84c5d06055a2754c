import DrumlinStorage
import DrumlinValues

/// Checking a file's consistency and compacting it.
extension Database {
    /// Checks the file: SQLite's own integrity check, then the engine's invariants: every table
    /// the schema needs exists (and every class in the catalogue has its table), every link, list,
    /// set and dictionary entry points at a live object (so every backlink does too, as backlinks
    /// are the links read in reverse), every collection entry belongs to a live object, every
    /// embedded object has exactly one owner, creation-order numbers are below the class's next
    /// one, every nested mixed collection's entries belong to a stored collection, every stored
    /// value is one its property's type can hold, and the file holds no view, table, index or
    /// trigger Drumlin did not make (docs/storage.md). Returns
    /// every problem found, each as one sentence; empty when the file is sound. A check that
    /// cannot run on a damaged file is reported as a problem too, and the others still run.
    /// Reads only. The corresponding C function is `drumlin_check`.
    public func check() throws(DrumlinError) -> [String] {
        try serialized { (connection) throws(DrumlinError) -> [String] in
            var problems: [String] = []
            do throws(DrumlinError) {
                let integrity = try connection.statement("PRAGMA integrity_check")
                defer { integrity.reset() }
                while try integrity.step() {
                    let line = integrity.string(0)
                    if line != "ok" { problems.append("SQLite integrity check: \(line)") }
                }
            } catch where error.code == .corrupt || error.code == .internal {
                problems.append("SQLite integrity check: \(error.message)")
            }
            let missing = try Storage.missingTables(connection, classes: classes)
            problems += missing
            let broken = Set(classes.filter { info in missing.contains { $0.contains("of class '\(info.name)'") || $0.contains("of '\(info.name).") } }.map(\.index))
            func count(_ sql: String) throws(DrumlinError) -> Int64? {
                do throws(DrumlinError) {
                    let statement = try connection.statement(sql)
                    defer { statement.reset() }
                    return try statement.step() ? statement.int64(0) : 0
                } catch where error.code == .corrupt || error.code == .internal {
                    problems.append("A check could not read the file: \(error.message)")
                    return nil
                }
            }
            func plural(_ n: Int64, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
            // The catalogue: each stored class has its table.
            if let uncatalogued = try count("SELECT count(*) FROM _drumlin_classes WHERE table_name NOT IN (SELECT name FROM sqlite_master WHERE type = 'table')"),
               uncatalogued > 0 {
                problems.append("\(plural(uncatalogued, "class")) in Drumlin's catalogue (_drumlin_classes) \(uncatalogued == 1 ? "has" : "have") no table.")
            }
            for info in classes where !broken.contains(info.index) {
                // (A write transaction's numbers reach the catalogue when it commits.)
                if info.hasSequenceColumn, pendingSequences[info.index] == nil, let ahead = try count("""
                    SELECT count(*) FROM \(info.table) WHERE \(quoted(ClassInfo.sequenceColumnName)) >= \
                    coalesce((SELECT next_seq FROM _drumlin_classes WHERE table_name = '\(info.schema.storedName.replacing("'", with: "''"))'), 1)
                    """), ahead > 0 {
                    problems.append("\(plural(ahead, "'\(info.name)' object")) \(ahead == 1 ? "has a creation-order number" : "have creation-order numbers") not below the class's next one (_drumlin_classes.next_seq).")
                }
                // A class marked as created in key order (Objects/Database+KeyOrder.swift) is.
                let seq = quoted(ClassInfo.sequenceColumnName)
                if info.hasSequenceColumn, let behind = try count("""
                    SELECT count(*) FROM (SELECT \(seq) < lag(\(seq)) OVER (ORDER BY \(info.keyColumn)) AS back FROM \(info.table)) \
                    WHERE back AND \(info.keyOrderGuard)
                    """), behind > 0 {
                    problems.append("'\(info.name)' is marked as created in key order (_drumlin_meta '\(info.keyOrderMetaKey)'), but \(plural(behind, "object")) \(behind == 1 ? "was" : "were") created before an object of a smaller key.")
                }
                for (index, property) in info.schema.properties.enumerated() where !property.isComputed {
                    let label = "'\(info.name).\(property.name)'"
                    let table = info.collectionTables[index] ?? nil
                    if let table, let orphans = try count("SELECT count(*) FROM \(table.name) AS c WHERE NOT EXISTS (SELECT 1 FROM \(info.table) AS o WHERE o.\(info.keyColumn) = c.owner)"),
                       orphans > 0 {
                        problems.append("\(plural(orphans, "entry")) of \(label) belong to no live '\(info.name)' object.")
                    }
                    guard property.type == .object, let target = info.targets[index], !broken.contains(target.index) else { continue }
                    let source = table.map { "SELECT value AS k FROM \($0.name) WHERE value IS NOT NULL" }
                        ?? "SELECT \(quoted(property.storedName)) AS k FROM \(info.table) WHERE \(quoted(property.storedName)) IS NOT NULL"
                    if let dangling = try count("SELECT count(*) FROM (\(source)) AS l WHERE NOT EXISTS (SELECT 1 FROM \(target.table) AS t WHERE t.\(target.keyColumn) = l.k)"),
                       dangling > 0 {
                        problems.append("\(plural(dangling, table == nil ? "link" : "entry")) of \(label) point at no live '\(target.name)' object.")
                    }
                }
            }
            for info in classes where info.isEmbedded && !broken.contains(info.index) {
                let origins = info.incoming.filter { !broken.contains($0.0.index) }
                let sources = origins.map { (origin, index) -> String in
                    if let table = origin.collectionTables[index] ?? nil {
                        return "SELECT value AS k FROM \(table.name) WHERE value IS NOT NULL"
                    }
                    let column = quoted(origin.property(index).storedName)
                    return "SELECT \(column) AS k FROM \(origin.table) WHERE \(column) IS NOT NULL"
                }
                let owners = sources.isEmpty ? "SELECT NULL AS k, 0 AS n WHERE 0"
                    : "SELECT k, count(*) AS n FROM (\(sources.joined(separator: " UNION ALL "))) GROUP BY k"
                let base = "FROM \(info.table) AS e LEFT JOIN (\(owners)) AS r ON r.k = e.\(info.keyColumn)"
                if origins.count == info.incoming.count, let unowned = try count("SELECT count(*) \(base) WHERE r.n IS NULL"), unowned > 0 {
                    problems.append("\(plural(unowned, "embedded '\(info.name)' object")) \(unowned == 1 ? "has" : "have") no owner.")
                }
                if let shared = try count("SELECT count(*) \(base) WHERE r.n > 1"), shared > 0 {
                    problems.append("\(plural(shared, "embedded '\(info.name)' object")) \(shared == 1 ? "has" : "have") more than one owner.")
                }
            }
            do throws(DrumlinError) {
                problems += try structureProblems(connection)
            } catch where error.code == .corrupt || error.code == .internal {
                problems.append("A check could not read the file's schema: \(error.message)")
            }
            do throws(DrumlinError) {
                problems += try misfitProblems(connection, skipping: broken)
            } catch where error.code == .corrupt || error.code == .internal {
                problems.append("A check could not read the stored values: \(error.message)")
            }
            if !missing.contains(where: { $0.contains("_drumlin_mixed") }),
               let strays = try count("SELECT count(*) FROM \(MixedStore.table) AS m WHERE NOT EXISTS (SELECT 1 FROM _drumlin_mixed_collections AS c WHERE c.id = m.collection)"),
               strays > 0 {
                problems.append("\(plural(strays, "entry")) of nested mixed collections belong to no stored collection.")
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
            if isDeliveringOnThisThread {
                throw DrumlinError(.wrongTransactionState, "Cannot compact from inside a notification callback: compact after the callback returns.")
            }
            if path == ":memory:" { return }
            try connection.execute("VACUUM")
            try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            log(.info, "Compacted '\(path)'.")
        }
    }
}
