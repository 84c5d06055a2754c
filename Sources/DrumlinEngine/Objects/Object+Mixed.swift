import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// Reading and changing one element inside a nested mixed value, without rewriting the rest.
///
/// A path walks into the value: `.index(i)` into a list, `.key(k)` into a dictionary. For a
/// `mixed[]` or `mixed{}` property the first step picks the property's own element.
///
/// ```swift
/// try person.setMixed("extra", at: [.key("k"), .index(0)], to: 42)
/// try person.appendMixed("anything", at: [], "new last element")
/// ```
extension Object {
    public func mixedValue(_ name: String, at path: [MixedPathComponent]) throws(DrumlinError) -> Value {
        try access(reading: true) { (connection) throws(DrumlinError) -> Value in
            if path.isEmpty, let (index, _) = try propertyCollection(name) {
                return try database.readCollection(info, key, index, connection)
            }
            let slot = try database.mixedSlot(info, key, name, path, connection)
            return try database.readMixedSlot(slot, connection)
        }
    }

    /// Replaces the element at `path` (a dictionary key that does not exist yet is added).
    public func setMixed(_ name: String, at path: [MixedPathComponent], to value: Value) throws(DrumlinError) {
        try mixedWrite(name) { (connection) throws(DrumlinError) in
            guard !path.isEmpty else { throw DrumlinError(.invalidArgument, "An empty path addresses the whole value: use set(_:to:).") }
            if path.count == 1, let (index, table) = try propertyCollection(name) {
                try database.checkMixedDepth(info, name, path, value)
                // Type-checks the value as an element (no links in mixed, nesting rules).
                _ = try database.input(from: table.kind == .dictionary ? .dictionary([("k", value)]) : .list([value]), info, index)
                switch (table.kind, path[0]) {
                case (.list, .index(let position)):
                    let count = try database.collectionCount(table, key, connection)
                    guard position >= 0, position < count else {
                        throw DrumlinError(.invalidArgument, "Index \(position) is out of bounds for list '\(info.name).\(name)' of size \(count).")
                    }
                    try database.removeListElement(info, index, table, key, position: position, renumber: false, connection)
                    try database.insertListElement(table, key, position: position, value, connection)
                case (.dictionary, .key(let dictionaryKey)):
                    try Database.checkDictionaryKey(dictionaryKey, Database.label(info, info.property(index)))
                    try database.setDictionaryValue(info, index, table, key, dictionaryKey, value, connection)
                default:
                    throw DrumlinError(.invalidArgument, "Path step \(path[0]) does not fit '\(info.name).\(name)'.")
                }
                return
            }
            let parent = try database.mixedSlot(info, key, name, Array(path.dropLast()), connection)
            try database.checkMixedDepth(info, name, path, value)
            try database.writeMixedChild(parent, path[path.count - 1], value, insert: false, connection)
        }
    }

    /// Appends `value` to the list at `path`.
    public func appendMixed(_ name: String, at path: [MixedPathComponent], _ value: Value) throws(DrumlinError) {
        try mixedWrite(name) { (connection) throws(DrumlinError) in
            if path.isEmpty, let (index, table) = try propertyCollection(name) {
                guard table.kind == .list else { throw DrumlinError(.invalidArgument, "Only lists can be appended to; '\(info.name).\(name)' is a dictionary.") }
                try database.checkMixedDepth(info, name, [.index(0)], value)
                _ = try database.input(from: .list([value]), info, index)
                try database.insertListElement(table, key, position: try database.collectionCount(table, key, connection), value, connection)
                return
            }
            let slot = try database.mixedSlot(info, key, name, path, connection)
            try database.checkMixedDepth(info, name, path + [.index(0)], value)
            try database.writeMixedChild(slot, nil, value, insert: true, connection)
        }
    }

    /// Removes the element at `path` from its list or dictionary.
    public func removeMixed(_ name: String, at path: [MixedPathComponent]) throws(DrumlinError) {
        try mixedWrite(name) { (connection) throws(DrumlinError) in
            guard let last = path.last else { throw DrumlinError(.invalidArgument, "An empty path addresses the whole value: set it to null instead.") }
            if path.count == 1, let (index, table) = try propertyCollection(name) {
                switch (table.kind, last) {
                case (.list, .index(let position)):
                    let count = try database.collectionCount(table, key, connection)
                    guard position >= 0, position < count else {
                        throw DrumlinError(.invalidArgument, "Index \(position) is out of bounds for list '\(info.name).\(name)' of size \(count).")
                    }
                    try database.removeListElement(info, index, table, key, position: position, renumber: true, connection)
                case (.dictionary, .key(let dictionaryKey)):
                    guard try database.removeDictionaryValue(info, index, table, key, dictionaryKey, connection) else {
                        throw DrumlinError(.invalidArgument, "No key '\(dictionaryKey)' in dictionary '\(info.name).\(name)'.")
                    }
                default:
                    throw DrumlinError(.invalidArgument, "Path step \(last) does not fit '\(info.name).\(name)'.")
                }
                return
            }
            let parent = try database.mixedSlot(info, key, name, Array(path.dropLast()), connection)
            try database.removeMixedChild(parent, last, connection)
        }
    }

    /// For a `mixed[]` or `mixed{}` property: its index and side table.
    private func propertyCollection(_ name: String) throws(DrumlinError) -> (Int, CollectionTable)? {
        guard let index = info.propertyIndex(name) else { throw database.noSuchProperty(info, name) }
        let property = info.property(index)
        guard property.type == .mixed, property.collection == .list || property.collection == .dictionary,
              let table = info.collectionTables[index] else { return nil }
        return (index, table)
    }

    private func mixedWrite(_ name: String, _ body: (Connection) throws(DrumlinError) -> Void) throws(DrumlinError) {
        try access { (connection) throws(DrumlinError) in
            try database.requireWriteTransaction()
            try database.atomically(connection) { () throws(DrumlinError) in try body(connection) }
        }
    }
}

/// Where a nested mixed value sits: a collection (by id and kind) or a scalar.
enum MixedSlot {
    case collection(id: Int64, code: Int64)
    case scalar(Value)
}

extension Database {
    func checkMixedDepth(_ info: ClassInfo, _ name: String, _ path: [MixedPathComponent], _ value: Value) throws(DrumlinError) {
        let property = info.propertyIndex(name).map(info.property)
        let levelsAbove = path.count - (property?.isCollection == true ? 1 : 0)
        if levelsAbove + Self.nestingDepth(value) > ExtendedJSON.maximumMixedDepth { throw ExtendedJSON.nestingLimit() }
    }

    /// Walks `path` from a mixed property to the value it addresses.
    func mixedSlot(_ info: ClassInfo, _ key: Int64, _ name: String, _ path: [MixedPathComponent],
                   _ connection: Connection) throws(DrumlinError) -> MixedSlot {
        guard let index = info.propertyIndex(name) else { throw noSuchProperty(info, name) }
        let property = info.property(index)
        guard property.type == .mixed, property.collection != .set else {
            throw DrumlinError(.typeMismatch, "Property '\(info.name).\(property.name)' is not a mixed value or a list or dictionary of them.")
        }
        var remaining = path[...]
        var slot: MixedSlot
        if let slotIndex = info.slots[index] {
            let statement = try connection.statement(slot: info.slot(.selectRow), info.selectRowSQL)
            statement.bind(key, at: 1)
            guard try statement.step() else { statement.reset(); throw invalidated(info) }
            let column = Int32(slotIndex + 1)
            let code = statement.int64(column + 1)
            slot = code == MixedStorage.listCode || code == MixedStorage.dictionaryCode
                ? .collection(id: statement.int64(column), code: code)
                : .scalar(try checkedMixedValue(statement, value: column, type: column + 1, place(info, index, key)))
            statement.reset()
        } else {
            guard try exists(info, key, connection) else { throw invalidated(info) }
            guard let first = remaining.popFirst() else {
                throw DrumlinError(.invalidArgument, "A path into '\(info.name).\(property.name)' must start with an element of the collection.")
            }
            let table = try collectionTable(info, index)
            let (condition, bindValue): (String, Value)
            switch (table.kind, first) {
            case (.list, .index(let i)): (condition, bindValue) = ("position = ?2", .int(Int64(i)))
            case (.dictionary, .key(let k)): (condition, bindValue) = ("key = ?2", .string(k))
            default: throw DrumlinError(.invalidArgument, "Path step \(first) does not fit '\(info.name).\(property.name)'.")
            }
            slot = try element(table.rawName, "owner = ?1 AND " + condition, key, bindValue, first, connection)
        }
        for step in remaining {
            guard case .collection(let id, let code) = slot else {
                throw DrumlinError(.invalidArgument, "Path step \(step) goes into a value that is not a list or dictionary.")
            }
            switch (code, step) {
            case (MixedStorage.listCode, .index(let i)):
                slot = try element(MixedStore.table, "collection = ?1 AND position = ?2", id, .int(Int64(i)), step, connection)
            case (MixedStorage.dictionaryCode, .key(let k)):
                slot = try element(MixedStore.table, "collection = ?1 AND key = ?2", id, .string(k), step, connection)
            default:
                throw DrumlinError(.invalidArgument, "Path step \(step) does not fit a \(code == MixedStorage.listCode ? "list" : "dictionary").")
            }
        }
        return slot
    }

    private func element(_ table: String, _ condition: String, _ owner: Int64, _ step: Value, _ component: MixedPathComponent,
                         _ connection: Connection) throws(DrumlinError) -> MixedSlot {
        let statement = try connection.statement("SELECT value, value_type FROM \(quoted(table)) WHERE \(condition)")
        defer { statement.reset() }
        statement.bind(owner, at: 1)
        try ValueCodec.bind(step, to: statement, at: 2)
        guard try statement.step() else { throw DrumlinError(.invalidArgument, "No element at path step \(component).") }
        let code = statement.int64(1)
        if code == MixedStorage.listCode || code == MixedStorage.dictionaryCode {
            return .collection(id: statement.int64(0), code: code)
        }
        return .scalar(try checkedMixedValue(statement, value: 0, type: 1, "an element of a mixed value at path step \(component)"))
    }

    func readMixedSlot(_ slot: MixedSlot, _ connection: Connection) throws(DrumlinError) -> Value {
        switch slot {
        case .scalar(let value): return value
        case .collection(let id, let code): return try loadMixed(id, code: code, connection)
        }
    }

    /// Sets (or, with `insert`, appends to a list) one child of a nested collection.
    func writeMixedChild(_ parent: MixedSlot, _ step: MixedPathComponent?, _ value: Value, insert: Bool,
                         _ connection: Connection) throws(DrumlinError) {
        guard case .collection(let id, let code) = parent else {
            throw DrumlinError(.invalidArgument, "The path does not lead to a list or dictionary.")
        }
        let count = try mixedCount(id, connection)
        var position = Int64(count)
        var key: String?
        switch (code, step, insert) {
        case (MixedStorage.listCode, nil, true): break
        case (MixedStorage.listCode, .index(let i)?, false):
            guard i >= 0, i < count else { throw DrumlinError(.invalidArgument, "Index \(i) is out of bounds for a nested list of size \(count).") }
            position = Int64(i)
        case (MixedStorage.dictionaryCode, .key(let k)?, false):
            key = k
            if let existing = try mixedPosition(id, key: k, connection) { position = existing }
        default:
            throw DrumlinError(.invalidArgument, "The path does not fit the nested collection.")
        }
        try deleteMixedItem(id, position: position, renumber: false, connection)
        let (stored, storedCode) = try storeMixed(value, connection)
        let statement = try connection.statement(
            "INSERT INTO _drumlin_mixed (collection, position, key, value, value_type) VALUES (?1, ?2, ?3, ?4, ?5)")
        defer { statement.reset() }
        statement.bind(id, at: 1)
        statement.bind(position, at: 2)
        if let key { statement.bind(key, at: 3) } else { statement.bindNull(3) }
        try ValueCodec.bind(stored, to: statement, at: 4)
        statement.bind(storedCode, at: 5)
        _ = try statement.step()
    }

    func removeMixedChild(_ parent: MixedSlot, _ step: MixedPathComponent, _ connection: Connection) throws(DrumlinError) {
        guard case .collection(let id, let code) = parent else {
            throw DrumlinError(.invalidArgument, "The path does not lead to a list or dictionary.")
        }
        switch (code, step) {
        case (MixedStorage.listCode, .index(let i)):
            let count = try mixedCount(id, connection)
            guard i >= 0, i < count else { throw DrumlinError(.invalidArgument, "Index \(i) is out of bounds for a nested list of size \(count).") }
            try deleteMixedItem(id, position: Int64(i), renumber: true, connection)
        case (MixedStorage.dictionaryCode, .key(let k)):
            guard let position = try mixedPosition(id, key: k, connection) else {
                throw DrumlinError(.invalidArgument, "No key '\(k)' in the nested dictionary.")
            }
            try deleteMixedItem(id, position: position, renumber: true, connection)
        default:
            throw DrumlinError(.invalidArgument, "The path does not fit the nested collection.")
        }
    }

    private func mixedCount(_ id: Int64, _ connection: Connection) throws(DrumlinError) -> Int {
        let statement = try connection.statement("SELECT count(*) FROM _drumlin_mixed WHERE collection = ?1")
        defer { statement.reset() }
        statement.bind(id, at: 1)
        _ = try statement.step()
        return Int(statement.int64(0))
    }

    private func mixedPosition(_ id: Int64, key: String, _ connection: Connection) throws(DrumlinError) -> Int64? {
        let statement = try connection.statement("SELECT position FROM _drumlin_mixed WHERE collection = ?1 AND key = ?2")
        defer { statement.reset() }
        statement.bind(id, at: 1)
        statement.bind(key, at: 2)
        return try statement.step() ? statement.int64(0) : nil
    }

    /// Deletes one item (and any collection it holds); with `renumber`, closes the gap.
    private func deleteMixedItem(_ id: Int64, position: Int64, renumber: Bool, _ connection: Connection) throws(DrumlinError) {
        let select = try connection.statement("SELECT value, value_type FROM _drumlin_mixed WHERE collection = ?1 AND position = ?2")
        select.bind(id, at: 1)
        select.bind(position, at: 2)
        var child: Int64?
        if try select.step() {
            let code = select.int64(1)
            if code == MixedStorage.listCode || code == MixedStorage.dictionaryCode { child = select.int64(0) }
        }
        select.reset()
        let delete = try connection.statement("DELETE FROM _drumlin_mixed WHERE collection = ?1 AND position = ?2")
        delete.bind(id, at: 1)
        delete.bind(position, at: 2)
        try delete.run()
        if renumber {
            let shift = try connection.statement("UPDATE _drumlin_mixed SET position = position - 1 WHERE collection = ?1 AND position > ?2")
            shift.bind(id, at: 1)
            shift.bind(position, at: 2)
            try shift.run()
        }
        if let child { try deleteMixedTree(child, connection) }
    }
}
