import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// Links, collections and backlinks. Deleting an object, with what it owns and the links to it, is in
/// Database+Delete.swift.
extension Database {
    // MARK: Links

    /// The value a column stores for an input: scalars as they are, links as the target's key
    /// (creating or upserting nested objects, or finding existing ones).
    func resolveColumn(_ input: Input, _ info: ClassInfo, _ index: Int, mode: UpdateMode,
                       _ connection: Connection) throws(DrumlinError) -> Value {
        try resolve(input, info, index, mode: mode, connection)
    }

    private func resolve(_ input: Input, _ info: ClassInfo, _ index: Int, mode: UpdateMode,
                         _ connection: Connection) throws(DrumlinError) -> Value {
        // Named only in messages: no copy of the property per value.
        var label: Label { Label(className: info.name, propertyName: info.propertyNames[index]) }
        switch input {
        case .value(let value):
            guard info.traits[index].type == .object, case .link(let link) = value else { return value }
            guard let target = info.targets[index], link.classIndex == target.index else {
                let found = classes.indices.contains(link.classIndex) ? classes[link.classIndex].name : "unknown"
                throw DrumlinError(.typeMismatch, "Type mismatch for property \(label): expected an object of type '\(info.schema.properties[index].objectType ?? "")', got '\(found)'.")
            }
            if target.isEmbedded {
                throw DrumlinError(.invalidArgument, "Cannot link \(label) to an existing embedded object of type '\(target.name)': embedded objects have exactly one owner. Assign a new object (a copy of its properties) instead.")
            }
            if let pending = pendingRows, pending.existing[target.index]?.contains(link.key) == true { return value }
            guard try exists(target, link.key, connection) else {
                throw DrumlinError(.invalidatedObject, "The object of type '\(target.name)' assigned to \(label) has been deleted.")
            }
            pendingRows?.existing[target.index, default: []].insert(link.key)
            return value
        case .object(let json):
            guard let target = info.targets[index] else { throw DrumlinError(.internal, "No target class for \(label).") }
            let nested = try decodePayload(target, json)
            let key = try create(target, nested, mode: target.isEmbedded ? .never : mode, connection)
            return .link(ObjectLink(classIndex: target.index, key: key))
        case .column(let item):
            return try item.value()
        case .objectValues(let entries):
            guard let target = info.targets[index] else { throw DrumlinError(.internal, "No target class for \(label).") }
            let nested = try decodePayload(target, values: entries)
            let key = try create(target, nested, mode: target.isEmbedded ? .never : mode, connection)
            return .link(ObjectLink(classIndex: target.index, key: key))
        case .objectInputs(let nested):
            guard let target = info.targets[index] else { throw DrumlinError(.internal, "No target class for \(label).") }
            let key = try create(target, nested, mode: target.isEmbedded ? .never : mode, connection)
            return .link(ObjectLink(classIndex: target.index, key: key))
        case .primaryKey(let pk):
            guard let target = info.targets[index] else { throw DrumlinError(.internal, "No target class for \(label).") }
            if target.isEmbedded {
                throw DrumlinError(.invalidArgument, "Cannot link \(label) to an existing embedded object of type '\(target.name)': give its properties as a JSON object.")
            }
            let key: Int64?
            if target.primaryKeyIndex != nil {
                key = try findKey(target, pk, connection, remembering: pendingRows)
            } else if case .int(let objectKey) = pk {
                key = try exists(target, objectKey, connection) ? objectKey : nil
            } else {
                throw DrumlinError(.typeMismatch, "Type mismatch for property \(label): '\(target.name)' has no primary key, so a link is a nested object or an object key (int), got \(pk.typeName).")
            }
            guard let key else {
                throw DrumlinError(.invalidArgument, "Property \(label): no object of type '\(target.name)' with \(target.primaryKeyIndex != nil ? "primary key" : "object key") '\(pk)'.")
            }
            return .link(ObjectLink(classIndex: target.index, key: key))
        case .elements, .entries:
            throw DrumlinError(.typeMismatch, "Type mismatch for property \(label): a collection cannot be assigned to a single value.")
        }
    }

    // MARK: Collections

    func collectionTable(_ info: ClassInfo, _ index: Int) throws(DrumlinError) -> CollectionTable {
        guard let table = info.collectionTables[index] else {
            throw DrumlinError(.invalidArgument, "Property '\(info.name).\(info.property(index).name)' is not a collection.")
        }
        return table
    }

    /// Appends the elements of an input to a collection (which the caller has cleared if needed).
    /// `isEmpty`: the caller knows the collection is empty (its object was just created).
    func writeCollection(_ info: ClassInfo, _ owner: Int64, _ index: Int, _ input: Input, mode: UpdateMode,
                         isEmpty: Bool = false, _ connection: Connection) throws(DrumlinError) {
        let table = try collectionTable(info, index)
        if isEmpty, let pending = pendingRows, info.geoPointIndices == nil, table.kind != .set {
            // A bulk create: the rows go in multi-row INSERTs (a new object has no entries to replace).
            try deferCollection(info, owner, index, table, input, pending, connection)
            return
        }
        switch (table.kind, input) {
        case (.list, .elements(let elements)):
            let start = isEmpty ? 0 : try collectionCount(table, owner, connection)
            for (offset, element) in elements.enumerated() {
                let value = try resolve(element, info, index, mode: mode, connection)
                try insertListElement(table, owner, position: start + offset, value, connection)
            }
        case (.set, .elements(let elements)):
            for element in elements {
                let value = try resolve(element, info, index, mode: mode, connection)
                _ = try insertSetElement(table, owner, value, connection)
            }
        case (.dictionary, .entries(let entries)):
            for (key, element) in entries {
                let value = try resolve(element, info, index, mode: mode, connection)
                try setDictionaryValue(info, index, table, owner, key, value, connection)
            }
        default:
            throw DrumlinError(.typeMismatch, "Type mismatch for property '\(info.name).\(info.property(index).name)'.")
        }
    }

    /// `writeCollection` for a new object in a bulk create: the element rows are appended to `pending`.
    private func deferCollection(_ info: ClassInfo, _ owner: Int64, _ index: Int, _ table: CollectionTable, _ input: Input,
                                 _ pending: PendingRows, _ connection: Connection) throws(DrumlinError) {
        let id = PendingRows.tableID(info, index)
        let mixed = table.isMixed
        switch (table.kind, input) {
        case (.list, .elements(let elements)):
            for (offset, element) in elements.enumerated() {
                let stored: (BorrowedValue, Int64)
                if case .column(let item) = element {
                    stored = (item, 0)    // checked, and never mixed
                } else {
                    let value = try resolve(element, info, index, mode: .never, connection)
                    let (storedValue, code) = try storedElement(table, value, connection)
                    stored = (.value(storedValue), code)
                }
                pending.appendRow(id, prefix: "INSERT INTO \(table.name) (owner, position, value\(mixed ? ", value_type" : ""))",
                                  width: mixed ? 4 : 3) { values in
                    values.append(.int(owner))
                    values.append(.int(Int64(offset)))
                    values.append(stored.0)
                    if mixed { values.append(.int(stored.1)) }
                }
            }
        case (.dictionary, .entries(let entries)):
            for (key, element) in entries {
                let value = try resolve(element, info, index, mode: .never, connection)
                let stored = try storedElement(table, value, connection)
                pending.append(id, prefix: "INSERT INTO \(table.name) (owner, key, value\(mixed ? ", value_type" : ""))",
                               width: mixed ? 4 : 3, .int(owner), .string(key), stored.0, mixed ? .int(stored.1) : nil)
            }
        default:
            throw DrumlinError(.typeMismatch, "Type mismatch for property '\(info.name).\(info.property(index).name)'.")
        }
    }

    /// The number of `owner`'s elements: for a list one more than its last position (positions
    /// are 0 ... n-1), one step down the `(owner, position)` key or index instead of a count.
    func collectionCount(_ table: CollectionTable, _ owner: Int64, _ connection: Connection) throws(DrumlinError) -> Int {
        let sql = table.kind == .list
            ? "SELECT coalesce(max(position) + 1, 0) FROM \(table.name) WHERE owner = ?1"
            : "SELECT count(*) FROM \(table.name) WHERE owner = ?1"
        let statement = try connection.statement(sql)
        defer { statement.reset() }
        statement.bind(owner, at: 1)
        _ = try statement.step()
        return Int(statement.int64(0))
    }

    /// Binds `value` (and its type for mixed elements) at parameters `at`, `at + 1`.
    private func bindElement(_ table: CollectionTable, _ value: Value, _ statement: Statement, at parameter: Int32,
                             _ stored: (Value, Int64)) throws(DrumlinError) {
        try ValueCodec.bind(stored.0, to: statement, at: parameter)
        if table.isMixed { statement.bind(stored.1, at: parameter + 1) }
    }

    private func storedElement(_ table: CollectionTable, _ value: Value, _ connection: Connection) throws(DrumlinError) -> (Value, Int64) {
        table.isMixed ? try storeMixed(value, connection) : (value, 0)
    }

    func insertListElement(_ table: CollectionTable, _ owner: Int64, position: Int, _ value: Value,
                           _ connection: Connection) throws(DrumlinError) {
        let stored = try storedElement(table, value, connection)
        let sql = table.isMixed
            ? "INSERT INTO \(table.name) (owner, position, value, value_type) VALUES (?1, ?2, ?3, ?4)"
            : "INSERT INTO \(table.name) (owner, position, value) VALUES (?1, ?2, ?3)"
        let statement = try connection.statement(sql)
        defer { statement.reset() }
        statement.bind(owner, at: 1)
        statement.bind(Int64(position), at: 2)
        try bindElement(table, value, statement, at: 3, stored)
        _ = try statement.step()
    }

    /// Inserts at `position` of a list of `count` elements, moving the elements from there on up by one.
    func insertListElement(_ table: CollectionTable, _ owner: Int64, shiftingAt position: Int, count: Int, _ value: Value,
                           _ connection: Connection) throws(DrumlinError) {
        if table.isKeyedByPosition {
            // At the end, then rotated into place.
            try insertListElement(table, owner, position: count, value, connection)
            try rotateList(table, owner, position...count, by: 1, connection)
        } else {
            try shiftPositions(table, owner, from: position, by: 1, connection)
            try insertListElement(table, owner, position: position, value, connection)
        }
    }

    /// Adds `delta` to the positions of `owner`'s elements from `first` through `last` (or the
    /// end) of a list with a rowid, whose `(owner, position)` index is not unique.
    func shiftPositions(_ table: CollectionTable, _ owner: Int64, from first: Int, through last: Int = .max, by delta: Int,
                        _ connection: Connection) throws(DrumlinError) {
        let shift = try connection.statement(
            "UPDATE \(table.name) SET position = position + ?4 WHERE owner = ?1 AND position >= ?2 AND position <= ?3")
        shift.bind(owner, at: 1)
        shift.bind(Int64(first), at: 2)
        shift.bind(Int64(last), at: 3)
        shift.bind(Int64(delta), at: 4)
        try shift.run()
    }

    /// Rotates the values of `owner`'s elements at `range` of a list keyed by position by
    /// `places` toward its end (negative: toward its start), in one statement (`CollectionTable.rotateSQL`).
    func rotateList(_ table: CollectionTable, _ owner: Int64, _ range: ClosedRange<Int>, by places: Int,
                    _ connection: Connection) throws(DrumlinError) {
        let length = range.count
        let shift = (places % length + length) % length
        guard shift != 0 else { return }
        let rotate = try connection.statement(table.rotateSQL)
        rotate.bind(owner, at: 1)
        rotate.bind(Int64(range.lowerBound), at: 2)
        rotate.bind(Int64(range.upperBound), at: 3)
        rotate.bind(Int64(shift), at: 4)
        rotate.bind(Int64(length), at: 5)
        try rotate.run()
    }

    /// Moves the element at `from` so that it ends up at `to`, the ones between moving by one.
    func moveListElement(_ table: CollectionTable, _ owner: Int64, from: Int, to: Int, _ connection: Connection) throws(DrumlinError) {
        guard from != to else { return }
        if table.isKeyedByPosition {
            try rotateList(table, owner, Swift.min(from, to)...Swift.max(from, to), by: from < to ? -1 : 1, connection)
            return
        }
        // A list with a rowid: the element waits at -1 while the others move.
        let park = try connection.statement("UPDATE \(table.name) SET position = -1 WHERE owner = ?1 AND position = ?2")
        park.bind(owner, at: 1)
        park.bind(Int64(from), at: 2)
        try park.run()
        if from < to {
            try shiftPositions(table, owner, from: from + 1, through: to, by: -1, connection)
        } else {
            try shiftPositions(table, owner, from: to, through: from - 1, by: 1, connection)
        }
        let place = try connection.statement("UPDATE \(table.name) SET position = ?2 WHERE owner = ?1 AND position = -1")
        place.bind(owner, at: 1)
        place.bind(Int64(to), at: 2)
        try place.run()
    }

    /// Removes the element at `position` (deleting what it owns); with `renumber`, closes the gap
    /// (in a list keyed by position, the element is rotated to the end and removed there).
    func removeListElement(_ info: ClassInfo, _ index: Int, _ table: CollectionTable, _ owner: Int64, position: Int,
                           renumber: Bool, _ connection: Connection) throws(DrumlinError) {
        let owned = try ownedElements(info, index, table, "owner = ?1 AND position = ?2", connection) {
            $0.bind(owner, at: 1)
            $0.bind(Int64(position), at: 2)
        }
        var removed = position
        if renumber, table.isKeyedByPosition {
            removed = try collectionCount(table, owner, connection) - 1
            if position < removed { try rotateList(table, owner, position...removed, by: -1, connection) }
        }
        let delete = try connection.statement("DELETE FROM \(table.name) WHERE owner = ?1 AND position = ?2")
        delete.bind(owner, at: 1)
        delete.bind(Int64(removed), at: 2)
        try delete.run()
        if renumber, !table.isKeyedByPosition {
            try shiftPositions(table, owner, from: position + 1, by: -1, connection)
        }
        try deleteOwned(info, index, table, owned, connection)
    }

    /// The SQL condition matching one element value (mixed values match on their type too, so 1
    /// and 1.0 and true stay distinct).
    private func elementCondition(_ table: CollectionTable, first parameter: Int) -> String {
        table.isMixed ? "value IS ?\(parameter) AND value_type = ?\(parameter + 1)" : "value IS ?\(parameter)"
    }

    func setContains(_ table: CollectionTable, _ owner: Int64, _ value: Value, _ connection: Connection) throws(DrumlinError) -> Bool {
        let statement = try connection.statement("SELECT 1 FROM \(table.name) WHERE owner = ?1 AND \(elementCondition(table, first: 2))")
        defer { statement.reset() }
        statement.bind(owner, at: 1)
        try bindElement(table, value, statement, at: 2, comparable(table, value))
        return try statement.step()
    }

    /// Inserts a set element; returns false when it was already there.
    func insertSetElement(_ table: CollectionTable, _ owner: Int64, _ value: Value, _ connection: Connection) throws(DrumlinError) -> Bool {
        if try setContains(table, owner, value, connection) { return false }
        let sql = table.isMixed
            ? "INSERT INTO \(table.name) (owner, value, value_type) VALUES (?1, ?2, ?3)"
            : "INSERT INTO \(table.name) (owner, value) VALUES (?1, ?2)"
        let statement = try connection.statement(sql)
        defer { statement.reset() }
        statement.bind(owner, at: 1)
        try bindElement(table, value, statement, at: 2, try storedElement(table, value, connection))
        _ = try statement.step()
        return true
    }

    func removeSetElement(_ table: CollectionTable, _ owner: Int64, _ value: Value, _ connection: Connection) throws(DrumlinError) -> Bool {
        let statement = try connection.statement("DELETE FROM \(table.name) WHERE owner = ?1 AND \(elementCondition(table, first: 2))")
        defer { statement.reset() }
        statement.bind(owner, at: 1)
        try bindElement(table, value, statement, at: 2, comparable(table, value))
        _ = try statement.step()
        return connection.changes > 0
    }

    /// Sets a dictionary entry, deleting an embedded object or nested mixed value it replaces.
    func setDictionaryValue(_ info: ClassInfo, _ index: Int, _ table: CollectionTable, _ owner: Int64, _ key: String,
                            _ value: Value, _ connection: Connection) throws(DrumlinError) {
        try removeDictionaryValue(info, index, table, owner, key, connection)
        let stored = try storedElement(table, value, connection)
        let sql = table.isMixed
            ? "INSERT INTO \(table.name) (owner, key, value, value_type) VALUES (?1, ?2, ?3, ?4)"
            : "INSERT INTO \(table.name) (owner, key, value) VALUES (?1, ?2, ?3)"
        let statement = try connection.statement(sql)
        defer { statement.reset() }
        statement.bind(owner, at: 1)
        statement.bind(key, at: 2)
        try bindElement(table, value, statement, at: 3, stored)
        _ = try statement.step()
    }

    /// Removes a dictionary entry (and what it owns); returns whether it existed.
    @discardableResult
    func removeDictionaryValue(_ info: ClassInfo, _ index: Int, _ table: CollectionTable, _ owner: Int64, _ key: String,
                               _ connection: Connection) throws(DrumlinError) -> Bool {
        let owned = try ownedElements(info, index, table, "owner = ?1 AND key = ?2", connection) {
            $0.bind(owner, at: 1)
            $0.bind(key, at: 2)
        }
        let statement = try connection.statement("DELETE FROM \(table.name) WHERE owner = ?1 AND key = ?2")
        statement.bind(owner, at: 1)
        statement.bind(key, at: 2)
        _ = try statement.step()
        let removed = connection.changes > 0
        statement.reset()
        try deleteOwned(info, index, table, owned, connection)
        return removed
    }

    /// What the matching elements own: embedded objects (by key) and nested mixed collections.
    /// Callers delete the element rows first, then pass this to `deleteOwned`, so deleting an
    /// embedded object does not find (and renumber) rows that are going anyway.
    func ownedElements(_ info: ClassInfo, _ index: Int, _ table: CollectionTable, _ condition: String,
                       _ connection: Connection, bind: (Statement) -> Void) throws(DrumlinError) -> [Int64] {
        let target = info.targets[index]
        guard table.isMixed || (target?.isEmbedded ?? false) else { return [] }
        let statement = try connection.statement("SELECT value\(table.isMixed ? ", value_type" : "") FROM \(table.name) WHERE \(condition)")
        defer { statement.reset() }
        bind(statement)
        var owned: [Int64] = []
        while try statement.step() {
            if table.isMixed {
                let code = statement.int64(1)
                if code == MixedStorage.listCode || code == MixedStorage.dictionaryCode { owned.append(statement.int64(0)) }
            } else if !statement.isNull(0) {
                owned.append(statement.int64(0))
            }
        }
        return owned
    }

    func deleteOwned(_ info: ClassInfo, _ index: Int, _ table: CollectionTable, _ owned: [Int64],
                     _ connection: Connection, depth: Int = 0) throws(DrumlinError) {
        for key in owned {
            if table.isMixed {
                try deleteMixedTree(key, connection)
            } else if let target = info.targets[index] {
                try deleteObject(target, key, connection, depth: depth + 1)
            }
        }
    }

    /// Empties a collection, deleting the embedded objects and nested mixed values it owns.
    func clearCollection(_ info: ClassInfo, _ owner: Int64, _ index: Int, _ connection: Connection,
                         depth: Int = 0) throws(DrumlinError) {
        let table = try collectionTable(info, index)
        let owned = try ownedElements(info, index, table, "owner = ?1", connection) { $0.bind(owner, at: 1) }
        let statement = try connection.statement("DELETE FROM \(table.name) WHERE owner = ?1")
        statement.bind(owner, at: 1)
        try statement.run()
        try deleteOwned(info, index, table, owned, connection, depth: depth)
    }

    /// A collection's elements: lists in order, sets in insertion order, dictionaries by key.
    func readCollection(_ info: ClassInfo, _ owner: Int64, _ index: Int, _ connection: Connection) throws(DrumlinError) -> Value {
        try readCollection(info, owner, index, connection, limit: .max) ?? .list([])
    }

    /// A collection's elements as `readCollection` reads them, or nil when it has more than
    /// `limit` (the statement stops at the first element past it).
    func readCollection(_ info: ClassInfo, _ owner: Int64, _ index: Int, _ connection: Connection,
                        limit: Int) throws(DrumlinError) -> Value? {
        let table = try collectionTable(info, index)
        if limit < .max, table.kind == .set || table.kind == .single {
            // A set comes in insertion order (rowid), which its (owner, value) index does not
            // give: SQLite would sort every element before the first. Past `limit` elements
            // first, found on the index without a sort.
            let probe = try connection.statement("SELECT 1 FROM \(table.name) WHERE owner = ?1 LIMIT 1 OFFSET ?2")
            probe.bind(owner, at: 1)
            probe.bind(Int64(limit), at: 2)
            let longer = try probe.step()
            probe.reset()
            if longer { return nil }
        }
        let statement = try connection.statement(slot: info.elementsSlot(index), info.selectElementsSQL[index] ?? table.selectElementsSQL)
        statement.bind(owner, at: 1)
        var values: [Value] = []
        var keys: [String] = []
        var nested: [(Int, Int64, Int64)] = []
        while try statement.step() {
            if values.count == limit {
                statement.reset()
                return nil
            }
            if table.isMixed {
                let code = statement.int64(1)
                if code == MixedStorage.listCode || code == MixedStorage.dictionaryCode {
                    nested.append((values.count, statement.int64(0), code))
                    values.append(.null)
                } else {
                    values.append(try checkedMixedValue(statement, value: 0, type: 1, place(info, index, owner, element: true)))
                }
            } else {
                values.append(try readColumn(statement, 0, info, index, key: owner, element: true))
            }
            if table.kind == .dictionary { keys.append(statement.string(table.isMixed ? 2 : 1)) }
        }
        statement.reset()
        for (position, id, code) in nested { values[position] = try loadMixed(id, code: code, connection) }
        if table.kind == .dictionary { return .dictionary(Array(zip(keys, values).map { (key: $0, value: $1) })) }
        return .list(values)
    }

    /// One element of a collection without reading the others: a list position, the set's
    /// `position`-th element in insertion order, or a dictionary key (nil when absent).
    func readElement(_ info: ClassInfo, _ owner: Int64, _ index: Int, position: Int? = nil, key: String? = nil,
                     _ connection: Connection) throws(DrumlinError) -> Value? {
        let table = try collectionTable(info, index)
        let columns = "value" + (table.isMixed ? ", value_type" : "")
        let statement: Statement
        switch table.kind {
        case .list:
            statement = try connection.statement("SELECT \(columns) FROM \(table.name) WHERE owner = ?1 AND position = ?2")
            statement.bind(Int64(position ?? 0), at: 2)
        case .set, .single:
            statement = try connection.statement("SELECT \(columns) FROM \(table.name) WHERE owner = ?1 ORDER BY rowid LIMIT 1 OFFSET ?2")
            statement.bind(Int64(position ?? 0), at: 2)
        case .dictionary:
            statement = try connection.statement("SELECT \(columns) FROM \(table.name) WHERE owner = ?1 AND key = ?2")
            statement.bind(key ?? "", at: 2)
        }
        statement.bind(owner, at: 1)
        guard try statement.step() else { statement.reset(); return nil }
        var value: Value
        var nested: (Int64, Int64)?
        if table.isMixed {
            let code = statement.int64(1)
            if code == MixedStorage.listCode || code == MixedStorage.dictionaryCode {
                nested = (statement.int64(0), code)
                value = .null
            } else {
                value = try checkedMixedValue(statement, value: 0, type: 1, place(info, index, owner, element: true))
            }
        } else {
            value = try readColumn(statement, 0, info, index, key: owner, element: true)
        }
        statement.reset()
        if let (id, code) = nested { value = try loadMixed(id, code: code, connection) }
        return value
    }

    // MARK: Backlinks

    /// The objects linking to `key` through `origin.property(index)`, once per link: for a to-one
    /// origin in the origin's creation order, for a collection origin in the order the links were
    /// made (the same order `Results` uses for backlinks).
    func linkingKeys(_ origin: ClassInfo, _ index: Int, to key: Int64, _ connection: Connection) throws(DrumlinError) -> [Int64] {
        let property = origin.property(index)
        let sql: String
        if property.isCollection {
            let table = try collectionTable(origin, index)
            sql = "SELECT owner FROM \(table.name) WHERE value = ?1 ORDER BY rowid"
        } else {
            let order = origin.hasSequenceColumn ? quoted(ClassInfo.sequenceColumnName) : origin.keyColumn
            sql = "SELECT \(origin.keyColumn) FROM \(origin.table) WHERE \(quoted(property.storedName)) = ?1 ORDER BY \(order)"
        }
        let statement = try connection.statement(sql)
        defer { statement.reset() }
        statement.bind(key, at: 1)
        var keys: [Int64] = []
        while try statement.step() { keys.append(statement.int64(0)) }
        return keys
    }

    /// The origin class and property of a linkingObjects property.
    func backlinkOrigin(_ info: ClassInfo, _ index: Int) throws(DrumlinError) -> (ClassInfo, Int) {
        let property = info.property(index)
        guard property.type == .linkingObjects, let origin = info.targets[index],
              let originIndex = origin.propertyIndex(property.originProperty ?? "") else {
            throw DrumlinError(.invalidArgument, "Property '\(info.name).\(property.name)' is not a linkingObjects property.")
        }
        return (origin, originIndex)
    }
}
