import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// Creating, reading, updating and deleting objects. Every write decodes and checks all values
/// before the first SQL statement runs; writes that take several statements run in a savepoint,
/// so a failed call changes nothing.
extension Database {
    // MARK: Public API

    /// Creates an object from a JSON object (inside a write transaction). Missing properties take
    /// their default, else null when optional; unknown keys are an error. Nested objects in link
    /// positions are created (or upserted in the update modes); a bare scalar there is the primary
    /// key of an existing object. The corresponding C function is `drumlin_create_json`.
    @discardableResult
    public func create(_ className: String, json: JSON, update mode: UpdateMode = .never) throws(DrumlinError) -> Object {
        try serialized { (connection) throws(DrumlinError) in
            let info = try writableClass(className, mode: mode)
            let given = try decodePayload(info, json)
            let key = try atomicallyIfNeeded(info, given, connection) { () throws(DrumlinError) in
                try create(info, given, mode: mode, connection)
            }
            return Object(database: self, info: info, key: key)
        }
    }

    @discardableResult
    public func create(_ className: String, json text: String, update mode: UpdateMode = .never) throws(DrumlinError) -> Object {
        try create(className, json: try Self.parsePayload(text), update: mode)
    }

    /// Creates an object from property values (public names). Links are `.link` values.
    @discardableResult
    public func create(_ className: String, values: [(name: String, value: Value)],
                       update mode: UpdateMode = .never) throws(DrumlinError) -> Object {
        let info = try classInfo(className)
        var indexed: [(index: Int, value: Value)] = []
        for (name, value) in values {
            guard let index = info.propertyIndex(name) else { throw noSuchProperty(info, name) }
            indexed.append((index, value))
        }
        return try create(classIndex: info.index, values: indexed, update: mode)
    }

    /// Creates an object from values addressed by property index. The corresponding C function
    /// is `drumlin_object_create`.
    @discardableResult
    public func create(classIndex: Int, values: [(index: Int, value: Value)],
                       update mode: UpdateMode = .never) throws(DrumlinError) -> Object {
        try serialized { (connection) throws(DrumlinError) in
            let info = try classInfo(index: classIndex)
            try checkWritable(info, mode: mode)
            try checkWriteIndices(info, values.lazy.map(\.0))
            var given: [(Int, Input)] = []
            given.reserveCapacity(values.count)
            for (index, value) in values { given.append((index, try input(from: value, info, index))) }
            let key = try atomicallyIfNeeded(info, given, connection) { () throws(DrumlinError) in
                try create(info, given, mode: mode, connection)
            }
            return Object(database: self, info: info, key: key)
        }
    }

    /// Creates objects from a JSON array of objects, all or nothing; returns how many were created
    /// or updated. The corresponding C function is `drumlin_create_many_json`.
    @discardableResult
    public func createMany(_ className: String, json: JSON, update mode: UpdateMode = .never) throws(DrumlinError) -> Int {
        try serialized { (connection) throws(DrumlinError) in
            let info = try writableClass(className, mode: mode)
            guard case .array(let elements) = json else {
                throw DrumlinError(.invalidArgument, "Expected a JSON array of '\(info.name)' objects, got \(json.kindName).")
            }
            return try atomically(connection) { () throws(DrumlinError) -> Int in
                for (position, element) in elements.enumerated() {
                    do throws(DrumlinError) {
                        let given = try decodePayload(info, element)
                        _ = try create(info, given, mode: mode, connection)
                    } catch {
                        throw DrumlinError(error.code, "Element \(position): \(error.message)", sqliteCode: error.sqliteCode)
                    }
                }
                return elements.count
            }
        }
    }

    @discardableResult
    public func createMany(_ className: String, json text: String, update mode: UpdateMode = .never) throws(DrumlinError) -> Int {
        try createMany(className, json: try Self.parsePayload(text), update: mode)
    }

    /// The object with a primary key, or nil. The corresponding C function is `drumlin_object_find`.
    public func object(_ className: String, primaryKey: Value) throws(DrumlinError) -> Object? {
        try serialized { (connection) throws(DrumlinError) in
            let info = try readableClass(className)
            return try findKey(info, primaryKey, connection).map { Object(database: self, info: info, key: $0) }
        }
    }

    /// The object with an object key, or nil. The corresponding C function is `drumlin_object_find_by_key`.
    public func object(_ className: String, key: Int64) throws(DrumlinError) -> Object? {
        try serialized { (connection) throws(DrumlinError) in
            let info = try readableClass(className)
            return try exists(info, key, connection) ? Object(database: self, info: info, key: key) : nil
        }
    }

    /// A handle to the object with `key`, made without reading it (for a key just read, as by
    /// `visitObjectRow`): if the object is deleted, the handle says so when used.
    public func object(classIndex: Int, readKey key: Int64) throws(DrumlinError) -> Object {
        Object(database: self, info: try serialized { (_) throws(DrumlinError) in try classInfo(index: classIndex) }, key: key)
    }

    /// The object a link points at, or nil when it no longer exists.
    public func object(_ link: ObjectLink) throws(DrumlinError) -> Object? {
        try serialized { (connection) throws(DrumlinError) in
            let info = try classInfo(index: link.classIndex)
            return try exists(info, link.key, connection) ? Object(database: self, info: info, key: link.key) : nil
        }
    }

    /// The object with a primary key as Extended JSON text, or nil; `depth` expands links into
    /// nested objects that many levels deep. The corresponding C function is `drumlin_get_json`.
    public func getJSON(_ className: String, primaryKey pk: Value, depth: Int = 0) throws(DrumlinError) -> String? {
        try serialized { (connection) throws(DrumlinError) in
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
                writeRowJSON(info, statement, to: &writer)
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
        try serialized { (connection) throws(DrumlinError) in try storedCount(try readableClass(className), connection) }
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

    /// Deletes an object (inside a write transaction).
    public func delete(_ object: Object) throws(DrumlinError) {
        guard object.database === self else {
            throw DrumlinError(.invalidArgument, "The object belongs to another database handle.")
        }
        try object.delete()
    }

    // MARK: Class checks

    func writableClass(_ className: String, mode: UpdateMode = .never) throws(DrumlinError) -> ClassInfo {
        let info = try classInfo(className)
        try checkWritable(info, mode: mode)
        return info
    }

    func checkWritable(_ info: ClassInfo, mode: UpdateMode = .never) throws(DrumlinError) {
        try requireWriteTransaction()
        if info.schema.kind == .asymmetric && mode != .never {
            throw DrumlinError(.notSupported, "Objects of asymmetric type '\(info.name)' are insert-only: the update modes (modified, all) are not supported.")
        }
        if info.isEmbedded {
            throw DrumlinError(.invalidArgument,
                             "Cannot create an object of embedded type '\(info.name)' on its own: assign it to a property of its parent.")
        }
    }

    /// Asymmetric objects are insert-only: they are never read back.
    func readableClass(_ className: String) throws(DrumlinError) -> ClassInfo {
        try readable(try classInfo(className))
    }

    func readable(_ info: ClassInfo) throws(DrumlinError) -> ClassInfo {
        if info.schema.kind == .asymmetric {
            throw DrumlinError(.notSupported, "Objects of asymmetric type '\(info.name)' are insert-only and cannot be read, queried, updated or deleted.")
        }
        return info
    }

    /// Runs a write in a savepoint when it may take more than one statement.
    func atomicallyIfNeeded<R>(_ info: ClassInfo, _ given: [(Int, Input)], _ connection: Connection,
                               _ body: () throws(DrumlinError) -> R) throws(DrumlinError) -> R {
        if info.hasRelationships || given.contains(where: { $0.1.hasNestedWrites }) {
            return try atomically(connection, body)
        }
        return try body()
    }

    // MARK: Payloads

    static func parsePayload(_ text: String) throws(DrumlinError) -> JSON {
        do throws(JSONParseError) {
            return try JSON.parse(text)
        } catch {
            throw DrumlinError(.invalidArgument, error.description)
        }
    }

    func checkIndex(_ info: ClassInfo, _ index: Int) throws(DrumlinError) {
        guard index >= 0, index < info.schema.properties.count else {
            throw DrumlinError(.invalidArgument,
                             "Property index \(index) is out of range for '\(info.name)' (\(info.schema.properties.count) properties).")
        }
    }

    /// Checks the property indexes a write is given: each in range, none twice.
    func checkWriteIndices<S: Sequence<Int>>(_ info: ClassInfo, _ indices: S) throws(DrumlinError) {
        var first = -1
        var seen: [Bool] = []   // allocated from the second index on: one-property writes need none
        for index in indices {
            try checkIndex(info, index)
            if first < 0 {
                first = index
                continue
            }
            if seen.isEmpty {
                seen = [Bool](repeating: false, count: info.propertyNames.count)
                seen[first] = true
            }
            guard !seen[index] else {
                throw DrumlinError(.invalidArgument, "Property '\(info.name).\(info.propertyNames[index])' is given more than once.")
            }
            seen[index] = true
        }
    }

    // MARK: Rows

    func exists(_ info: ClassInfo, _ key: Int64, _ connection: Connection) throws(DrumlinError) -> Bool {
        let statement = try connection.statement(slot: info.slot(.exists), info.existsSQL)
        defer { statement.reset() }
        statement.bind(key, at: 1)
        return try statement.step()
    }

    func findKey(_ info: ClassInfo, _ primaryKey: Value, _ connection: Connection) throws(DrumlinError) -> Int64? {
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

    func invalidated(_ info: ClassInfo) -> DrumlinError {
        DrumlinError(.invalidatedObject, "Accessing object of type \(info.name) which has been invalidated or deleted")
    }

    /// Reads the given properties of one object: columns in one SELECT, then collections and
    /// nested mixed values (after the row statement is done, so reading may recurse).
    func readRow(_ info: ClassInfo, _ key: Int64, _ connection: Connection, indices: [Int]) throws(DrumlinError) -> [Value] {
        for index in indices { try checkIndex(info, index) }
        let statement = try connection.statement(slot: info.slot(.selectRow), info.selectRowSQL)
        statement.bind(key, at: 1)
        guard try statement.step() else {
            statement.reset()
            throw invalidated(info)
        }
        var values: [Value] = []
        values.reserveCapacity(indices.count)
        var pending: [(position: Int, mixedCollection: (id: Int64, code: Int64)?)] = []
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
                    values.append(readMixedValue(statement, value: column, type: column + 1))
                }
            } else if trait.type == .object {
                values.append(ValueCodec.read(statement, column, as: .object, classIndex: info.targets[index]?.index ?? -1))
            } else {
                values.append(ValueCodec.read(statement, column, as: trait.type))
            }
        }
        statement.reset()
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
        return values
    }

    /// The whole object as Extended JSON. Links print as the target's primary key (object key
    /// without one) or, while `depth` > 0, as the nested object; embedded objects always nest.
    /// An object already being printed further up prints as its key, so cycles end.
    /// Writes the row a statement is on (the key, then `info.selectColumns`) as a JSON object, for
    /// classes without relationships: every property is a scalar column.
    func writeRowJSON(_ info: ClassInfo, _ statement: Statement, to writer: inout JSONWriter) {
        writer.writeByte(UInt8(ascii: "{"))
        for (position, index) in info.columnIndexes.enumerated() {
            if position > 0 { writer.writeByte(UInt8(ascii: ",")) }
            writer.writeString(info.propertyNames[index])
            writer.writeByte(UInt8(ascii: ":"))
            let column = Int32((info.slots[index] ?? 0) + 1)
            let type = info.traits[index].type
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
        case .list(let items) where target != nil || items.contains(where: { if case .link = $0 { true } else { false } }):
            writer.writeByte(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { writer.writeByte(UInt8(ascii: ",")) }
                try writeJSONValue(item, target: target, depth: depth, connection, &writer, path, exporting)
            }
            writer.writeByte(UInt8(ascii: "]"))
        case .dictionary(let entries) where target != nil || entries.contains(where: { if case .link = $0.value { true } else { false } }):
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

    // MARK: Writes

    /// Creates (or, in the update modes, upserts) one object.
    func create(_ info: ClassInfo, _ given: [(Int, Input)], mode: UpdateMode, _ connection: Connection) throws(DrumlinError) -> Int64 {
        let traits = info.traits
        var inputs = [Input?](repeating: nil, count: traits.count)
        for (index, input) in given { inputs[index] = input }

        if mode != .never, !info.isEmbedded {
            guard let pkIndex = info.primaryKeyIndex else {
                throw DrumlinError(.invalidArgument, "'\(info.name)' does not have a primary key defined")
            }
            guard case .value(let pk)? = inputs[pkIndex] ?? defaultInput(info, pkIndex) else {
                throw DrumlinError(.missingValue, "Missing value for property '\(info.name).\(info.property(pkIndex).name)'")
            }
            if !info.hasRelationships, let key = try upsertInPlace(info, given, pkIndex, pk, mode: mode, connection) {
                return key
            }
            if let key = try findKey(info, pk, connection) {
                try update(info, key, given.filter { $0.0 != pkIndex }, mode: mode, connection)
                return key
            }
        }

        // Resolve every column first (creating linked objects), then bind: nested creates may
        // use this class's cached insert statement too.
        var row: [Value] = []
        row.reserveCapacity(info.columnIndexes.count)
        var hasMixed = false
        for index in info.columnIndexes {
            let trait = traits[index]
            if trait.type == .mixed { hasMixed = true }
            switch inputs[index] {
            case .value(let value)? where trait.type != .object:
                row.append(value)
                continue
            case .some(let input):
                row.append(try resolveColumn(input, info, index, mode: mode, connection))
                continue
            case nil:
                break
            }
            if let fallback = info.defaults[index] {
                row.append(fallback)
            } else if trait.isOptional || trait.type == .mixed {
                row.append(.null)
            } else if let input = defaultInput(info, index) {
                row.append(try resolveColumn(input, info, index, mode: mode, connection))
            } else {
                throw DrumlinError(.missingValue, "Missing value for property '\(info.name).\(info.property(index).name)'")
            }
        }
        var codes: [Int64] = []
        if hasMixed {
            codes = [Int64](repeating: 0, count: row.count)
            for (position, index) in info.columnIndexes.enumerated() where traits[index].type == .mixed {
                (row[position], codes[position]) = try storeMixed(row[position], connection)
            }
        }

        // SQLite's unique index lets any number of NULLs in: one object at most may have a null
        // primary key, so look for it first.
        if info.hasOptionalPrimaryKey, let pkIndex = info.primaryKeyIndex, let position = info.columnPosition(pkIndex),
           row[position].isNull, try findKey(info, .null, connection) != nil {
            throw DrumlinError(.duplicatePrimaryKey,
                             "Attempting to create an object of type '\(info.name)' with an existing primary key value 'null'.")
        }
        let statement = try connection.statement(slot: info.slot(.insert), info.insertSQL)
        defer { statement.reset() }
        var parameter: Int32 = 1
        for (position, index) in info.columnIndexes.enumerated() {
            try ValueCodec.bind(row[position], to: statement, at: parameter)
            parameter += 1
            if hasMixed, traits[index].type == .mixed {
                statement.bind(codes[position], at: parameter)
                parameter += 1
            }
        }
        if info.hasSequenceColumn {
            try prepareKeyOrder(info, connection)
            statement.bind(try nextSequence(info, connection), at: parameter)
        }
        do throws(DrumlinError) {
            _ = try statement.step()
        } catch where error.sqliteCode == 1555 || error.sqliteCode == 2067 {
            // SQLITE_CONSTRAINT_PRIMARYKEY / _UNIQUE: the only unique constraint is the primary key.
            var pk: Value = .null
            if let pkIndex = info.primaryKeyIndex, let slot = info.columnPosition(pkIndex) { pk = row[slot] }
            throw DrumlinError(.duplicatePrimaryKey,
                             "Attempting to create an object of type '\(info.name)' with an existing primary key value '\(pk)'.")
        }
        // For a class keyed by its int primary key the row key is that key, so this covers both.
        let key = connection.lastInsertRowID
        statement.reset()
        if info.hasSequenceColumn { try noteCreated(info, keys: CollectionOfOne(key), connection) }
        if info.hasCollections {
            for index in traits.indices where traits[index].collection != .single {
                if let input = inputs[index] { try writeCollection(info, key, index, input, mode: mode, isEmpty: true, connection) }
            }
        }
        if info.geoPointIndices != nil { try validateGeoPoint(info, key, connection) }
        return key
    }

    /// The update half of an upsert for a class without relationships, in one statement:
    /// `UPDATE ... WHERE pk = ? [AND any value differs] RETURNING key`. Returns the key when the
    /// object exists (updated, or unchanged in `.modified` mode), nil when it must be created.
    private func upsertInPlace(_ info: ClassInfo, _ given: [(Int, Input)], _ pkIndex: Int, _ pk: Value, mode: UpdateMode,
                               _ connection: Connection) throws(DrumlinError) -> Int64? {
        var values: [(Int, Value)] = []
        for (index, input) in given where index != pkIndex {
            guard case .value(let value) = input, info.traits[index].isColumn, info.traits[index].type != .mixed else { return nil }
            values.append((index, value))
        }
        let trait = info.traits[pkIndex]
        let key: Value = try Coercion.scalar(pk, trait.type, optional: trait.isOptional, nested: false,
                                             Label(className: info.name, propertyName: info.propertyNames[pkIndex]))
        if values.isEmpty { return try findKey(info, key, connection) }
        // When the primary key is the row key, the updated object's key is the value given: no
        // RETURNING (which has SQLite build a result), `changes` says whether a row matched.
        var rowKey: Int64?
        if info.hasSequenceColumn, case .int(let given) = key { rowKey = given }
        let statement = try upsertStatement(info, values.map(\.0), pkIndex, mode, returning: rowKey == nil, connection)
        defer { statement.reset() }
        try ValueCodec.bind(key, to: statement, at: 1)
        for (position, (_, value)) in values.enumerated() { try ValueCodec.bind(value, to: statement, at: Int32(position + 2)) }
        if let rowKey {
            _ = try statement.step()
            if connection.changes > 0 { return rowKey }
        } else if try statement.step() {
            return statement.int64(0)
        }
        statement.reset()
        // Not updated: absent (create it), or present and unchanged in `.modified` mode.
        return mode == .modified ? try findKey(info, key, connection) : nil
    }

    /// The prepared `UPDATE ... WHERE pk IS ?1 [AND any value differs] RETURNING key` writing the
    /// columns `indices` (from ?2 on), cached per class, columns and mode; reset, ready to bind.
    /// With `returning` false the statement has no `RETURNING` (the caller reads
    /// `connection.changes`), which spares SQLite materializing a result.
    func upsertStatement(_ info: ClassInfo, _ indices: [Int], _ pkIndex: Int, _ mode: UpdateMode,
                         returning: Bool = true, _ connection: Connection) throws(DrumlinError) -> Statement {
        let cacheKey = indices + [Int(mode.rawValue), returning ? 1 : 0, info.index]
        if let cached = upsertStatements[cacheKey] {
            cached.reset()
            return cached
        }
        let statement = try connection.statement(upsertSQL(info, indices, pkIndex, mode, returning: returning))
        upsertStatements[cacheKey] = statement
        return statement
    }

    private func upsertSQL(_ info: ClassInfo, _ indices: [Int], _ pkIndex: Int, _ mode: UpdateMode,
                           returning: Bool) -> String {
        let values = indices.map { ($0, Value.null) }
        var sql = "UPDATE \(info.table) SET "
        sql += values.enumerated().map { "\(quoted(info.property($0.element.0).storedName)) = ?\($0.offset + 2)" }.joined(separator: ", ")
        sql += " WHERE \(quoted(info.property(pkIndex).storedName)) IS ?1"
        if mode == .modified {
            sql += " AND (" + values.enumerated().map { "\(quoted(info.property($0.element.0).storedName)) IS NOT ?\($0.offset + 2)" }.joined(separator: " OR ") + ")"
        }
        if returning { sql += " RETURNING \(info.keyColumn)" }
        return sql
    }

    /// Writes inputs to an existing object. `.modified` writes only values that differ.
    func update(_ info: ClassInfo, _ key: Int64, _ given: [(Int, Input)], mode: UpdateMode,
                _ connection: Connection) throws(DrumlinError) {
        let traits = info.traits
        let columns = given.filter { traits[$0.0].isColumn }
        let currentIndices = columns.filter { mode == .modified || traits[$0.0].isPrimaryKey
            || traits[$0.0].type == .mixed || (info.targets[$0.0]?.isEmbedded ?? false) }.map(\.0)
        let current = currentIndices.isEmpty ? [] : try readRow(info, key, connection, indices: currentIndices)
        func currentValue(_ index: Int) -> Value? { currentIndices.firstIndex(of: index).map { current[$0] } }

        var changes: [(Int, Value)] = []
        var replacedEmbedded: [(ClassInfo, Int64)] = []
        for (index, input) in columns {
            let value = try resolveColumn(input, info, index, mode: mode, connection)
            let old = currentValue(index)
            if traits[index].isPrimaryKey && !isMigrating {
                if old != value {
                    throw DrumlinError(.primaryKeyImmutable, "Cannot modify primary key after creation: '\(info.name).\(info.propertyNames[index])'")
                }
                continue
            }
            if mode == .modified, let old, old == value { continue }
            if let target = info.targets[index], target.isEmbedded, case .link(let link)? = old {
                replacedEmbedded.append((target, link.key))
            }
            changes.append((index, value))
        }
        if !changes.isEmpty {
            // Nested mixed collections are replaced wholesale: drop the old trees first.
            let mixedIndices = changes.map(\.0).filter { traits[$0].type == .mixed }
            if !mixedIndices.isEmpty { try deleteMixedTrees(info, key, mixedIndices, connection) }
            var bindings: [(Value, Int64?)] = []
            bindings.reserveCapacity(changes.count)
            for (index, value) in changes {
                if traits[index].type == .mixed {
                    let (stored, code) = try storeMixed(value, connection)
                    bindings.append((stored, code))
                } else {
                    bindings.append((value, nil))
                }
            }
            func sql() -> String {
                var assignments: [String] = []
                for (index, _) in changes {
                    let property = info.property(index)
                    assignments.append("\(quoted(property.storedName)) = ?")
                    if property.type == .mixed { assignments.append("\(quoted(ClassInfo.mixedTypeColumn(property))) = ?") }
                }
                return "UPDATE \(info.table) SET \(assignments.joined(separator: ", ")) WHERE \(info.keyColumn) = ?"
            }
            let statement = changes.count == 1
                ? try connection.statement(slot: info.updateSlot(changes[0].0), sql())
                : try connection.statement(sql())
            defer { statement.reset() }
            var parameter: Int32 = 1
            for (value, code) in bindings {
                try ValueCodec.bind(value, to: statement, at: parameter)
                parameter += 1
                if let code {
                    statement.bind(code, at: parameter)
                    parameter += 1
                }
            }
            statement.bind(key, at: parameter)
            _ = try assigning(changes.lazy.map(\.0)) { () throws(DrumlinError) in try statement.step() }
            if connection.changes == 0 { throw invalidated(info) }
            statement.reset()
        } else if currentIndices.isEmpty, !(try exists(info, key, connection)) {
            throw invalidated(info)
        }
        for (target, old) in replacedEmbedded { try deleteObject(target, old, connection) }
        for (index, input) in given where traits[index].collection != .single {
            try clearCollection(info, key, index, connection)
            try writeCollection(info, key, index, input, mode: mode, connection)
        }
        if info.geoPointIndices != nil { try validateGeoPoint(info, key, connection) }
    }
}

extension ClassInfo {

    /// The position of a column property among the column properties.
    func columnPosition(_ index: Int) -> Int? {
        guard schema.properties[index].isColumn else { return nil }
        return schema.properties[..<index].filter(\.isColumn).count
    }
}
