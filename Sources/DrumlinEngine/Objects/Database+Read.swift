import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// Reading objects: finding one by primary key, object key or link, counting a class, reading
/// property values by index, and writing objects as Extended JSON. Asymmetric classes cannot be
/// read (Database+ObjectSupport.swift).
extension Database {
    /// The object with a primary key, or nil. The corresponding C function is `drumlin_object_find`.
    public func object(_ className: String, primaryKey: Value) throws(DrumlinError) -> Object? {
        try serializedRead { (connection) throws(DrumlinError) in
            let info = try readableClass(className)
            return try findKey(info, primaryKey, connection).map { Object(database: self, info: info, key: $0) }
        }
    }

    /// The object of class `classIndex` with a primary key, or nil.
    public func object(classIndex: Int, primaryKey: Value) throws(DrumlinError) -> Object? {
        try serializedRead { (connection) throws(DrumlinError) in
            let info = try readable(try classInfo(index: classIndex))
            return try findKey(info, primaryKey, connection).map { Object(database: self, info: info, key: $0) }
        }
    }

    /// The object with an object key, or nil. The corresponding C function is `drumlin_object_find_by_key`.
    public func object(_ className: String, key: Int64) throws(DrumlinError) -> Object? {
        try serializedRead { (connection) throws(DrumlinError) in
            let info = try readableClass(className)
            return try exists(info, key, connection) ? Object(database: self, info: info, key: key) : nil
        }
    }

    /// A handle to the object with `key`, made without reading it (for a key just read, as by
    /// `visitObjectRow`): if the object is deleted, the handle says so when used.
    public func object(classIndex: Int, readKey key: Int64) throws(DrumlinError) -> Object {
        Object(database: self, info: try serializedRead { (_) throws(DrumlinError) in try classInfo(index: classIndex) }, key: key)
    }

    /// The object a link points at, or nil when it no longer exists.
    public func object(_ link: ObjectLink) throws(DrumlinError) -> Object? {
        try serializedRead { (connection) throws(DrumlinError) in
            let info = try classInfo(index: link.classIndex)
            return try exists(info, link.key, connection) ? Object(database: self, info: info, key: link.key) : nil
        }
    }

    /// The object with a primary key as Extended JSON text, or nil; `depth` expands links into
    /// nested objects that many levels deep. The corresponding C function is `drumlin_get_json`.
    public func getJSON(_ className: String, primaryKey pk: Value, depth: Int = 0) throws(DrumlinError) -> String? {
        try serializedRead { (connection) throws(DrumlinError) in
            let info = try readableClass(className)
            if !info.hasRelationships {
                // One statement: the row by primary key, written as it is read.
                guard let pkIndex = info.primaryKeyIndex else {
                    throw DrumlinError(.invalidArgument, "'\(info.name)' does not have a primary key defined")
                }
                let trait = info.traits[pkIndex]
                let converted = try Coercion.scalar(pk, trait.type, optional: trait.isOptional, nested: false,
                                                    Label(className: info.name, propertyName: info.propertyNames[pkIndex]))
                let statement = try connection.statement(slot: info.slot(.selectRowByPrimaryKey), info.selectRowByPrimaryKeySQL)
                defer { statement.reset() }
                try ValueCodec.bind(converted, to: statement, at: 1)
                guard try statement.step() else { return nil }
                var writer = JSONWriter()
                try writeRowJSON(info, statement, to: &writer)
                return writer.string
            }
            guard let key = try findKey(info, pk, connection) else { return nil }
            var writer = JSONWriter()
            try writeJSON(info, key, depth: depth, connection, to: &writer)
            return writer.string
        }
    }

    /// The number of objects of a class. The corresponding C function is `drumlin_count`.
    public func count(_ className: String) throws(DrumlinError) -> Int {
        try serializedRead { (connection) throws(DrumlinError) in try storedCount(try readableClass(className), connection) }
    }

    /// `SELECT count(*)` of a class's table, which SQLite answers from its smallest index.
    func storedCount(_ info: ClassInfo, _ connection: Connection) throws(DrumlinError) -> Int {
        let statement = try connection.statement(slot: info.slot(.count), info.countSQL)
        defer { statement.reset() }
        _ = try statement.step()
        return Int(statement.int64(0))
    }

    /// A read of every object of a class, begun in the state `token`, found `read` rows: when
    /// the class's count (from an index) says otherwise and nothing was committed since, the file
    /// is damaged (an index and the table disagree), and the read would return a wrong number of
    /// objects: CORRUPT instead.
    func checkWholeClassRead(_ info: ClassInfo, _ read: Int, since token: DatabaseStateToken?,
                             _ connection: Connection) throws(DrumlinError) {
        guard let token else { return }
        let counted = try storedCount(info, connection)
        guard counted != read, try stateToken(connection) == token else { return }
        throw DrumlinError(.corrupt, "The file is damaged: '\(info.name)' has \(counted) objects by the count of the file and \(read) rows in its table (an index and the table disagree). Run check() for the details, and restore the file from a backup.")
    }

    // MARK: Rows

    func exists(_ info: ClassInfo, _ key: Int64, _ connection: Connection) throws(DrumlinError) -> Bool {
        if let pending = pendingRows, pending.hasRows(of: info) { try pending.flush(info, connection) }
        let statement = try connection.statement(slot: info.slot(.exists), info.existsSQL)
        defer { statement.reset() }
        statement.bind(key, at: 1)
        return try statement.step()
    }

    func findKey(_ info: ClassInfo, _ primaryKey: Value, _ connection: Connection) throws(DrumlinError) -> Int64? {
        if let pending = pendingRows, pending.hasRows(of: info) { try pending.flush(info, connection) }
        guard let pkIndex = info.primaryKeyIndex else {
            throw DrumlinError(.invalidArgument, "'\(info.name)' does not have a primary key defined")
        }
        let trait = info.traits[pkIndex]
        let pk: Value
        switch (trait.type, primaryKey) {
        case (.int, .int), (.string, .string), (.objectId, .objectId), (.uuid, .uuid):
            pk = primaryKey
        case (_, .null):
            if !trait.isOptional { return nil }
            pk = .null
        default:
            pk = try Coercion.scalar(primaryKey, trait.type, optional: trait.isOptional, nested: false,
                                     Self.label(info, info.property(pkIndex)))
        }
        let statement = try connection.statement(slot: info.slot(.keyByPrimaryKey), info.keyByPrimaryKeySQL)
        defer { statement.reset() }
        try ValueCodec.bind(pk, to: statement, at: 1)
        return try statement.step() ? statement.int64(0) : nil
    }

    /// Reads the given properties of one object: columns in one SELECT, then collections and
    /// nested mixed values (after the row statement is done, so reading may recurse).
    func readRow(_ info: ClassInfo, _ key: Int64, _ connection: Connection, indices: [Int],
                 slot: ClassInfo.Slot = .selectRow) throws(DrumlinError) -> [Value] {
        for index in indices { try checkIndex(info, index) }
        if indices.count == 1, let index = indices.first, info.slots[index] == nil, !info.traits[index].isComputed,
           info.traits[index].type != .mixed {
            // One collection of values or links (what a binding's view reads): its items in one
            // statement, and whether the object exists only when it has none.
            let value = try readCollection(info, key, index, connection)
            let isEmpty = switch value {
            case .list(let items): items.isEmpty
            case .dictionary(let entries): entries.isEmpty
            default: true
            }
            if isEmpty, !(try exists(info, key, connection)) { throw invalidated(info) }
            return [value]
        }
        let statement = try connection.statement(slot: info.slot(slot), info.selectRowSQL)
        statement.bind(key, at: 1)
        guard try statement.step() else {
            statement.reset()
            throw invalidated(info)
        }
        var (values, pending) = try rowValues(info, statement, indices: indices)
        if pending.isEmpty {
            statement.reset()
            return values
        }
        // The collections and nested values are read in the row's read transaction.
        return try connection.continuingRead { () throws(DrumlinError) -> [Value] in
            statement.reset()
            try loadOutOfRow(info, key, &values, pending, connection, indices: indices)
            return values
        }
    }

    /// The properties stored outside an object's row that `rowValues` left for a second read:
    /// by position, a mixed value's nested collection (its id and kind) or nil for a collection
    /// or a backlink property.
    typealias OutOfRow = [(position: Int, mixedCollection: (id: Int64, code: Int64)?)]

    /// The values of `indices` of the object `statement` is on (a statement reading the key, then
    /// `info.selectColumns`, as `selectRowSQL` and `Results.rowsSQL` do): those stored in the row,
    /// read from it, and nulls where `loadOutOfRow` puts the others. Reads nothing else, so the
    /// statement can stay on its row (a streamed read of many rows).
    func rowValues(_ info: ClassInfo, _ statement: Statement, indices: [Int]) throws(DrumlinError) -> ([Value], OutOfRow) {
        var values: [Value] = []
        values.reserveCapacity(indices.count)
        var pending: OutOfRow = []
        for (position, index) in indices.enumerated() {
            let trait = info.traits[index]
            guard let slot = info.slots[index] else {
                values.append(.null)
                pending.append((position, nil))
                continue
            }
            let column = Int32(slot + 1)
            if trait.type == .mixed {
                let code = statement.int64(column + 1)
                if code == MixedStorage.listCode || code == MixedStorage.dictionaryCode {
                    values.append(.null)
                    pending.append((position, (statement.int64(column), code)))
                } else {
                    values.append(try checkedMixedValue(statement, value: column, type: column + 1,
                                                        place(info, index, statement.int64(0))))
                }
            } else {
                values.append(try readColumn(statement, column, info, index, key: statement.int64(0)))
            }
        }
        return (values, pending)
    }

    /// Mixed property `index` of the row `statement` is on (the key, then `info.selectColumns`)
    /// as a whole row holds it, with no further read (`ObjectRow.mixedCell`).
    func mixedCell(_ info: ClassInfo, _ statement: Statement, _ index: Int) throws(DrumlinError) -> ObjectRow.MixedCell {
        let column = Int32((info.slots[index] ?? 0) + 1)
        switch statement.int64(column + 1) {
        case MixedStorage.listCode: return .nestedList
        case MixedStorage.dictionaryCode: return .nestedDictionary
        default: return .scalar(try checkedMixedValue(statement, value: column, type: column + 1, place(info, index, statement.int64(0))))
        }
    }

    /// Fills in what `rowValues` left out of object `key`'s values: collections, backlinks and
    /// mixed values' nested collections, each its own read.
    func loadOutOfRow(_ info: ClassInfo, _ key: Int64, _ values: inout [Value], _ pending: OutOfRow,
                      _ connection: Connection, indices: [Int]) throws(DrumlinError) {
        for (position, mixed) in pending {
            if let mixed {
                values[position] = try loadMixed(mixed.id, code: mixed.code, connection)
            } else if info.traits[indices[position]].isComputed {
                let (origin, originIndex) = try backlinkOrigin(info, indices[position])
                values[position] = .list(try linkingKeys(origin, originIndex, to: key, connection).map {
                    .link(ObjectLink(classIndex: origin.index, key: $0))
                })
            } else {
                values[position] = try readCollection(info, key, indices[position], connection)
            }
        }
    }

    // MARK: JSON

    /// Writes the row a statement is on (the key, then `info.selectColumns`) as a JSON object, for
    /// classes without relationships: every property is a scalar column.
    func writeRowJSON(_ info: ClassInfo, _ statement: Statement, to writer: inout JSONWriter) throws(DrumlinError) {
        writer.writeByte(UInt8(ascii: "{"))
        for (position, index) in info.columnIndexes.enumerated() {
            if position > 0 { writer.writeByte(UInt8(ascii: ",")) }
            writer.writeString(info.propertyNames[index])
            writer.writeByte(UInt8(ascii: ":"))
            let column = Int32((info.slots[index] ?? 0) + 1)
            let trait = info.traits[index]
            let type = trait.type
            if let what = ValueCodec.misfit(statement.handle, column, as: type, optional: trait.isOptional) {
                throw misfitError(info, index, key: statement.int64(0), what)
            }
            if type == .string, !statement.isNull(column) {
                statement.withBytes(column) { writer.writeString(utf8: $0) }
            } else if type == .int || type == .bool, !statement.isNull(column) {
                if type == .int { writer.writeInt(statement.int64(column)) } else { writer.writeRaw(statement.int64(column) != 0 ? "true" : "false") }
            } else {
                ExtendedJSON.write(ValueCodec.read(statement, column, as: type), to: &writer)
            }
        }
        writer.writeByte(UInt8(ascii: "}"))
    }

    /// The whole object as Extended JSON. Links print as the target's primary key (object key
    /// without one) or, while `depth` > 0, as the nested object; embedded objects always nest.
    /// An object already being printed further up prints as its key, so cycles end.
    /// `exporting`: a link held by a mixed value names a target with a primary key by that key
    /// (`{"$link": {"class": ..., "primaryKey": ...}}`), which an import finds in the new file.
    func writeJSON(_ info: ClassInfo, _ key: Int64, depth: Int, _ connection: Connection,
                   to writer: inout JSONWriter, path: Set<Int64> = [], exporting: Bool = false) throws(DrumlinError) {
        let indices = info.schema.properties.indices.filter { !info.property($0).isComputed }
        let values = try readRow(info, key, connection, indices: indices)
        var path = path
        path.insert(Int64(info.index) << 48 ^ key)
        writer.writeByte(UInt8(ascii: "{"))
        for (position, index) in indices.enumerated() {
            if position > 0 { writer.writeByte(UInt8(ascii: ",")) }
            writer.writeString(info.property(index).name)
            writer.writeByte(UInt8(ascii: ":"))
            try writeJSONValue(values[position], target: info.targets[index], depth: depth, connection, &writer, path, exporting)
        }
        writer.writeByte(UInt8(ascii: "}"))
    }

    private func writeJSONValue(_ value: Value, target: ClassInfo?, depth: Int, _ connection: Connection,
                                _ writer: inout JSONWriter, _ path: Set<Int64>, _ exporting: Bool) throws(DrumlinError) {
        switch value {
        case .link(let link) where target == nil:
            // A link held by a mixed value: its class and object key (primary key when exporting).
            if exporting, classes.indices.contains(link.classIndex), let pk = classes[link.classIndex].primaryKeyIndex {
                try writeExportedMixedLink(classes[link.classIndex], link.key, pk, connection, to: &writer)
            } else {
                writeMixedLinkJSON(link, to: &writer)
            }
        case .link(let link):
            guard let target = classes.indices.contains(link.classIndex) ? classes[link.classIndex] : target else {
                writer.writeInt(link.key)
                return
            }
            let onPath = path.contains(Int64(target.index) << 48 ^ link.key)
            if target.isEmbedded && (onPath || path.count > Self.maximumEmbeddedDepth) {
                throw embeddedChainCorrupt(target, link.key)
            }
            if target.isEmbedded || (depth > 0 && !onPath) {
                try writeJSON(target, link.key, depth: target.isEmbedded ? depth : depth - 1, connection, to: &writer, path: path,
                              exporting: exporting)
            } else if let pk = target.primaryKeyIndex {
                ExtendedJSON.write(try readRow(target, link.key, connection, indices: [pk])[0], to: &writer)
            } else {
                writer.writeInt(link.key)
            }
        case .list(let items) where target != nil || value.containsLink:
            writer.writeByte(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { writer.writeByte(UInt8(ascii: ",")) }
                try writeJSONValue(item, target: target, depth: depth, connection, &writer, path, exporting)
            }
            writer.writeByte(UInt8(ascii: "]"))
        case .dictionary(let entries) where target != nil || value.containsLink:
            writer.writeByte(UInt8(ascii: "{"))
            for (i, entry) in entries.enumerated() {
                if i > 0 { writer.writeByte(UInt8(ascii: ",")) }
                writer.writeString(entry.key)
                writer.writeByte(UInt8(ascii: ":"))
                try writeJSONValue(entry.value, target: target, depth: depth, connection, &writer, path, exporting)
            }
            writer.writeByte(UInt8(ascii: "}"))
        default:
            ExtendedJSON.write(value, to: &writer)
        }
    }
}
