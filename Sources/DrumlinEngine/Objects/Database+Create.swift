import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// Creating objects: from a JSON object, from property values, and many at once from a JSON array;
/// in the update modes an object whose primary key exists is updated instead (an upsert). Every
/// value is decoded and checked before the first SQL statement runs; a create that takes several
/// statements runs in a savepoint, so a failed call changes nothing. The bulk paths are in
/// Database+Bulk.swift.
extension Database {
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
                try withPendingRows(mode: mode, connection) { (afterElement) throws(DrumlinError) -> Int in
                    for (position, element) in elements.enumerated() {
                        do throws(DrumlinError) {
                            let given = try decodePayload(info, element)
                            _ = try create(info, given, mode: mode, connection)
                        } catch {
                            throw elementError(error, position, connection)
                        }
                        try afterElement(position + 1)
                    }
                    return elements.count
                }
            }
        }
    }

    @discardableResult
    public func createMany(_ className: String, json text: String, update mode: UpdateMode = .never) throws(DrumlinError) -> Int {
        try createMany(className, json: try Self.parsePayload(text), update: mode)
    }

    // MARK: Writes

    /// Creates (or, in the update modes, upserts) one object.
    func create(_ info: ClassInfo, _ given: [(Int, Input)], mode: UpdateMode, _ connection: Connection) throws(DrumlinError) -> Int64 {
        let traits = info.traits
        // The input of a property, if given. Inputs usually come in property order, which is
        // the order they are asked for: each search starts after the last found (no array of
        // inputs by index is built per object).
        var cursor = 0
        func inputs(_ index: Int) -> Input? {
            var position = cursor
            for _ in 0..<given.count {
                if position == given.count { position = 0 }
                if given[position].0 == index {
                    cursor = position + 1
                    return given[position].1
                }
                position += 1
            }
            return nil
        }

        if mode != .never, !info.isEmbedded {
            guard let pkIndex = info.primaryKeyIndex else {
                throw DrumlinError(.invalidArgument, "'\(info.name)' does not have a primary key defined")
            }
            guard case .value(let pk)? = inputs(pkIndex) ?? defaultInput(info, pkIndex) else {
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
        // The columns in order, then the type code of each mixed one (`mixedCode`): one array.
        var row: [BorrowedValue] = []
        row.reserveCapacity(info.columnIndexes.count + 4)
        var hasMixed = false
        for index in info.columnIndexes {
            let trait = traits[index]
            if trait.type == .mixed { hasMixed = true }
            switch inputs(index) {
            case .column(let item)?:
                row.append(item)
                continue
            case .value(let value)? where trait.type != .object:
                row.append(.value(value))
                continue
            case .some(let input):
                row.append(.value(try resolveColumn(input, info, index, mode: mode, connection)))
                continue
            case nil:
                break
            }
            if let fallback = info.defaults[index] {
                row.append(.value(fallback))
            } else if trait.isOptional || trait.type == .mixed {
                row.append(.null)
            } else if let input = defaultInput(info, index) {
                row.append(.value(try resolveColumn(input, info, index, mode: mode, connection)))
            } else {
                throw DrumlinError(.missingValue, "Missing value for property '\(info.name).\(info.property(index).name)'")
            }
        }
        if hasMixed {
            for (position, index) in info.columnIndexes.enumerated() where traits[index].type == .mixed {
                let (stored, code) = try storeMixed(try row[position].value(), connection)
                row[position] = .value(stored)
                row.append(.int(code))
            }
        }

        // A bulk create writes the row later, with others (Objects/PendingRows.swift).
        if mode == .never, pendingRows != nil, let key = try deferRow(info, row, connection) {
            if info.hasCollections {
                for index in traits.indices where traits[index].collection != .single {
                    if let input = inputs(index) { try writeCollection(info, key, index, input, mode: mode, isEmpty: true, connection) }
                }
            }
            return key
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
        var code = info.columnIndexes.count
        for (position, index) in info.columnIndexes.enumerated() {
            try ValueCodec.bind(row[position], to: statement, at: parameter)
            parameter += 1
            if hasMixed, traits[index].type == .mixed {
                try ValueCodec.bind(row[code], to: statement, at: parameter)
                code += 1
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
            if let pkIndex = info.primaryKeyIndex, let slot = info.columnPosition(pkIndex) { pk = (try? row[slot].value()) ?? .null }
            throw DrumlinError(.duplicatePrimaryKey,
                             "Attempting to create an object of type '\(info.name)' with an existing primary key value '\(pk)'.")
        }
        // For a class keyed by its int primary key the row key is that key, so this covers both.
        let key = connection.lastInsertRowID
        statement.reset()
        if info.hasSequenceColumn { try noteCreated(info, keys: CollectionOfOne(key), connection) }
        if info.hasCollections {
            for index in traits.indices where traits[index].collection != .single {
                if let input = inputs(index) { try writeCollection(info, key, index, input, mode: mode, isEmpty: true, connection) }
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
}

extension ClassInfo {

    /// The position of a column property among the column properties.
    func columnPosition(_ index: Int) -> Int? {
        columnIndexes.firstIndex(of: index)
    }
}
