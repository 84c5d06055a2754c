import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// Deleting objects: what an object owns goes with it (embedded objects, nested mixed values, the
/// contents of its collections), and every link to it is removed.
extension Database {
    /// Deletes an object (inside a write transaction).
    public func delete(_ object: Object) throws(DrumlinError) {
        guard object.database === self else {
            throw DrumlinError(.invalidArgument, "The object belongs to another database handle.")
        }
        try object.delete()
    }

    // MARK: Cascading

    /// Deletes an object and everything it owns, and removes every link to it: to-one links and
    /// dictionary values become null, list and set entries disappear.
    /// `depth` counts the embedded owners above: stored data is not trusted, and a chain deeper
    /// than `maximumEmbeddedDepth` (or one that owns itself) is `CORRUPT`, not a stack overflow.
    /// `heldByMixedValues: false` when the caller just found that no mixed value holds it.
    func deleteObject(_ info: ClassInfo, _ key: Int64, _ connection: Connection, depth: Int = 0,
                      heldByMixedValues: Bool = true) throws(DrumlinError) {
        if depth > Self.maximumEmbeddedDepth { throw embeddedChainCorrupt(info, key) }
        if heldByMixedValues { try clearMixedLinks(to: info, key, connection) }
        guard info.hasRelationships else {
            let statement = try connection.statement(slot: info.slot(.delete), info.deleteSQL)
            defer { statement.reset() }
            statement.bind(key, at: 1)
            _ = try statement.step()
            if connection.changes == 0 { throw invalidated(info) }
            return
        }
        guard try exists(info, key, connection) else { throw invalidated(info) }
        // What the object owns: embedded objects in its link columns, nested mixed values, and
        // the contents of its collections.
        let ownedColumns = info.schema.properties.indices.filter {
            let property = info.property($0)
            return property.isColumn && ((info.targets[$0]?.isEmbedded ?? false) || property.type == .mixed)
        }
        if !ownedColumns.isEmpty {
            let values = try readRow(info, key, connection, indices: ownedColumns)
            try deleteMixedTrees(info, key, ownedColumns.filter { info.property($0).type == .mixed }, connection)
            for (position, index) in ownedColumns.enumerated() {
                if let target = info.targets[index], target.isEmbedded, case .link(let link) = values[position] {
                    try deleteObject(target, link.key, connection, depth: depth + 1)
                }
            }
        }
        for index in info.schema.properties.indices where info.property(index).isCollection {
            try clearCollection(info, key, index, connection, depth: depth)
        }
        for (origin, index) in info.incoming { try unlink(origin, index, from: key, connection) }
        let statement = try connection.statement(slot: info.slot(.delete), info.deleteSQL)
        defer { statement.reset() }
        statement.bind(key, at: 1)
        _ = try statement.step()
    }

    /// How deep embedded objects may nest when they are read as JSON or deleted (a JSON document
    /// nests at most `JSON.maximumDepth` levels, so no input makes a deeper chain in one write).
    static let maximumEmbeddedDepth = JSON.maximumDepth

    func embeddedChainCorrupt(_ info: ClassInfo, _ key: Int64) -> DrumlinError {
        DrumlinError(.corrupt, "The file '\(path)' is damaged: the embedded objects above '\(info.name)' \(key) nest deeper than \(Self.maximumEmbeddedDepth) levels or own themselves; nothing was changed.")
    }

    /// Removes links from `origin.property(index)` to an object that is being deleted.
    private func unlink(_ origin: ClassInfo, _ index: Int, from key: Int64, _ connection: Connection) throws(DrumlinError) {
        let property = origin.property(index)
        switch property.collection {
        case .single:
            let statement = try connection.statement(
                "UPDATE \(origin.table) SET \(quoted(property.storedName)) = NULL WHERE \(quoted(property.storedName)) = ?1")
            defer { statement.reset() }
            statement.bind(key, at: 1)
            _ = try statement.step()
        case .list:
            let table = try collectionTable(origin, index)
            var owners: [Int64] = []
            let select = try connection.statement("SELECT DISTINCT owner FROM \(table.name) WHERE value = ?1")
            select.bind(key, at: 1)
            while try select.step() { owners.append(select.int64(0)) }
            select.reset()
            let delete = try connection.statement("DELETE FROM \(table.name) WHERE value = ?1")
            delete.bind(key, at: 1)
            _ = try delete.step()
            delete.reset()
            for owner in owners { try renumber(table, owner, connection) }
        case .set:
            let table = try collectionTable(origin, index)
            let statement = try connection.statement("DELETE FROM \(table.name) WHERE value = ?1")
            defer { statement.reset() }
            statement.bind(key, at: 1)
            _ = try statement.step()
        case .dictionary:
            let table = try collectionTable(origin, index)
            let statement = try connection.statement("UPDATE \(table.name) SET value = NULL WHERE value = ?1")
            defer { statement.reset() }
            statement.bind(key, at: 1)
            _ = try statement.step()
        }
    }

    /// Makes a list's positions 0...n-1 again after entries were removed: a list with a rowid
    /// (of links or of mixed values, the lists a deleted object leaves; see `CollectionTable.isKeyedByPosition`).
    func renumber(_ table: CollectionTable, _ owner: Int64, _ connection: Connection) throws(DrumlinError) {
        let statement = try connection.statement("""
            UPDATE \(table.name) SET position = r.n FROM \
            (SELECT rowid AS id, row_number() OVER (ORDER BY position) - 1 AS n FROM \(table.name) WHERE owner = ?1) AS r \
            WHERE \(table.name).rowid = r.id AND \(table.name).position != r.n
            """)
        defer { statement.reset() }
        statement.bind(owner, at: 1)
        _ = try statement.step()
    }
}
