import DrumlinStorage
import DrumlinValues

/// Nested lists and dictionaries inside mixed values, kept as rows of `_drumlin_mixed` (see
/// `MixedStore`), so one element can change without rewriting the whole value.
enum MixedStorage {
    static let listCode: Int64 = 12
    static let dictionaryCode: Int64 = 13
}

/// One step into a nested mixed value: a list position or a dictionary key.
public enum MixedPathComponent: Sendable, Equatable {
    case index(Int)
    case key(String)
}

extension Database {
    /// Stores a mixed value: scalars as they are, nested collections as a new collection whose id
    /// goes in the slot. Returns what to bind in the slot and its type code.
    func storeMixed(_ value: Value, _ connection: Connection) throws(DrumlinError) -> (Value, Int64) {
        switch value {
        case .list(let items):
            let id = try newMixedCollection(MixedStorage.listCode, connection)
            for (position, item) in items.enumerated() { try insertMixedItem(id, position: position, key: nil, item, connection) }
            return (.int(id), MixedStorage.listCode)
        case .dictionary(let entries):
            let id = try newMixedCollection(MixedStorage.dictionaryCode, connection)
            for (position, entry) in entries.enumerated() {
                try insertMixedItem(id, position: position, key: entry.key, entry.value, connection)
            }
            return (.int(id), MixedStorage.dictionaryCode)
        case .link(let link):
            return (.string(try storedMixedLink(link, connection)), Self.mixedLinkCode)
        default:
            return (value, ValueCodec.typeCode(value))
        }
    }

    private func newMixedCollection(_ kind: Int64, _ connection: Connection) throws(DrumlinError) -> Int64 {
        let statement = try connection.statement("INSERT INTO _drumlin_mixed_collections (kind) VALUES (?1)")
        defer { statement.reset() }
        statement.bind(kind, at: 1)
        _ = try statement.step()
        return connection.lastInsertRowID
    }

    private func insertMixedItem(_ collection: Int64, position: Int, key: String?, _ value: Value,
                                 _ connection: Connection) throws(DrumlinError) {
        let (stored, code) = try storeMixed(value, connection)
        if let pending = pendingRows {
            // A bulk create: the rows go in multi-row INSERTs.
            pending.append(PendingRows.mixedTableID,
                           prefix: "INSERT INTO _drumlin_mixed (collection, position, key, value, value_type)", width: 5,
                           .int(collection), .int(Int64(position)), key.map { .string($0) } ?? .null, stored, .int(code))
            return
        }
        let statement = try connection.statement(
            "INSERT INTO _drumlin_mixed (collection, position, key, value, value_type) VALUES (?1, ?2, ?3, ?4, ?5)")
        defer { statement.reset() }
        statement.bind(collection, at: 1)
        statement.bind(Int64(position), at: 2)
        if let key { statement.bind(key, at: 3) } else { statement.bindNull(3) }
        try ValueCodec.bind(stored, to: statement, at: 4)
        statement.bind(code, at: 5)
        _ = try statement.step()
    }

    /// Reads a nested collection back (rows first, then children, so the cached statement is not
    /// reused while it is iterating). Stored data is not trusted: a collection deeper than any
    /// write allows, or one reached twice (a cycle, or shared by two parents), is `CORRUPT`.
    func loadMixed(_ id: Int64, code: Int64, _ connection: Connection) throws(DrumlinError) -> Value {
        var seen: Set<Int64> = []
        return try loadMixed(id, code: code, depth: 1, seen: &seen, connection)
    }

    private func loadMixed(_ id: Int64, code: Int64, depth: Int, seen: inout Set<Int64>,
                           _ connection: Connection) throws(DrumlinError) -> Value {
        guard depth <= ExtendedJSON.maximumMixedDepth else { throw mixedTreeCorrupt(id, "nests deeper than \(ExtendedJSON.maximumMixedDepth) levels") }
        guard seen.insert(id).inserted else { throw mixedTreeCorrupt(id, "is reached twice (it contains itself or has two parents)") }
        // The collection a value names must be stored, as a list or a dictionary as its tag says.
        let kind = try connection.statement("SELECT kind FROM _drumlin_mixed_collections WHERE id = ?1")
        kind.bind(id, at: 1)
        let stored = try kind.step() ? kind.int64(0) : nil
        kind.reset()
        guard stored == code else {
            throw mixedTreeCorrupt(id, stored == nil ? "is named by a value but not stored" : "is stored as another kind (\(stored!)) than the value's tag (\(code))")
        }
        let statement = try connection.statement(
            "SELECT key, value, value_type FROM _drumlin_mixed WHERE collection = ?1 ORDER BY position")
        statement.bind(id, at: 1)
        var items: [(key: String, value: Value)] = []
        var children: [(Int, Int64, Int64)] = []
        while try statement.step() {
            let itemCode = statement.int64(2)
            let key = statement.isNull(0) ? "" : statement.string(0)
            if itemCode == MixedStorage.listCode || itemCode == MixedStorage.dictionaryCode {
                children.append((items.count, statement.int64(1), itemCode))
                items.append((key, .null))
            } else {
                items.append((key, try checkedMixedValue(statement, value: 1, type: 2, "an element of the nested mixed collection \(id)")))
            }
        }
        statement.reset()
        for (position, child, childCode) in children {
            items[position].value = try loadMixed(child, code: childCode, depth: depth + 1, seen: &seen, connection)
        }
        return code == MixedStorage.listCode ? .list(items.map(\.value)) : .dictionary(items)
    }

    func mixedTreeCorrupt(_ id: Int64, _ what: String) -> DrumlinError {
        DrumlinError(.corrupt, "The file '\(path)' is damaged: the nested mixed collection \(id) \(what); nothing was changed.")
    }

    /// Deletes a nested collection and everything inside it. The walk is bounded like a read: a
    /// damaged tree (too deep, a cycle, a collection with two parents) is `CORRUPT` and nothing is
    /// deleted.
    func deleteMixedTree(_ id: Int64, _ connection: Connection) throws(DrumlinError) {
        let statement = try connection.statement("""
            WITH RECURSIVE tree(id, depth) AS (SELECT ?1, 1 UNION \
            SELECT m.value, tree.depth + 1 FROM _drumlin_mixed AS m JOIN tree ON m.collection = tree.id \
            WHERE m.value_type IN (12, 13) AND tree.depth <= ?2) \
            SELECT id, depth FROM tree
            """)
        statement.bind(id, at: 1)
        statement.bind(Int64(ExtendedJSON.maximumMixedDepth), at: 2)
        var ids: [Int64] = []
        var seen: Set<Int64> = []
        var damage: String?
        while try statement.step() {
            let collection = statement.int64(0)
            if statement.int64(1) > Int64(ExtendedJSON.maximumMixedDepth) {
                damage = "nests deeper than \(ExtendedJSON.maximumMixedDepth) levels"
            } else if !seen.insert(collection).inserted {
                damage = "is reached twice (it contains itself or has two parents)"
            }
            if damage != nil { break }
            ids.append(collection)
        }
        statement.reset()
        if let damage { throw mixedTreeCorrupt(id, damage) }
        for collection in ids {
            let items = try connection.statement("DELETE FROM _drumlin_mixed WHERE collection = ?1")
            items.bind(collection, at: 1)
            try items.run()
            let header = try connection.statement("DELETE FROM _drumlin_mixed_collections WHERE id = ?1")
            header.bind(collection, at: 1)
            try header.run()
        }
    }

    /// Deletes the nested collections held by mixed columns of one object.
    func deleteMixedTrees(_ info: ClassInfo, _ key: Int64, _ indices: [Int], _ connection: Connection) throws(DrumlinError) {
        guard !indices.isEmpty else { return }
        let statement = try connection.statement(slot: info.slot(.selectRow), info.selectRowSQL)
        statement.bind(key, at: 1)
        var trees: [Int64] = []
        if try statement.step() {
            for index in indices {
                guard let slot = info.slots[index] else { continue }
                let column = Int32(slot + 1)
                let code = statement.int64(column + 1)
                if code == MixedStorage.listCode || code == MixedStorage.dictionaryCode { trees.append(statement.int64(column)) }
            }
        }
        statement.reset()
        for tree in trees { try deleteMixedTree(tree, connection) }
    }
}
