/// Creating, reading, updating and deleting objects. Every write checks and converts all values
/// before the first SQL statement runs, so a failed call changes nothing.
extension Database {
    // MARK: Public API

    /// Creates an object from a JSON object (inside a write transaction). Missing properties take
    /// their default, else null when optional; unknown keys are an error.
    /// The corresponding C function is `cairn_create_json`.
    @discardableResult
    public func create(_ className: String, json: JSON, update mode: UpdateMode = .never) throws(CairnError) -> Object {
        try serialized { (connection) throws(CairnError) in
            let info = try writableClass(className)
            let given = try decodePayload(info, json)
            let key = try create(info, given, mode: mode, connection)
            return Object(database: self, info: info, key: key)
        }
    }

    @discardableResult
    public func create(_ className: String, json text: String, update mode: UpdateMode = .never) throws(CairnError) -> Object {
        try create(className, json: try Self.parsePayload(text), update: mode)
    }

    /// Creates an object from property values (public names). The corresponding C function is
    /// `cairn_object_create`.
    @discardableResult
    public func create(_ className: String, values: [(name: String, value: Value)],
                       update mode: UpdateMode = .never) throws(CairnError) -> Object {
        try serialized { (connection) throws(CairnError) in
            let info = try writableClass(className)
            var given: [(Int, Value)] = []
            for (name, value) in values {
                guard let index = info.propertyIndex(name) else { throw noSuchProperty(info, name) }
                given.append((index, value))
            }
            return Object(database: self, info: info, key: try createChecked(info, given, mode: mode, connection))
        }
    }

    /// Creates an object from values addressed by property index. The corresponding C function
    /// is `cairn_object_create`.
    @discardableResult
    public func create(classIndex: Int, values: [(index: Int, value: Value)],
                       update mode: UpdateMode = .never) throws(CairnError) -> Object {
        try serialized { (connection) throws(CairnError) in
            let info = try classInfo(index: classIndex)
            try checkWritable(info)
            return Object(database: self, info: info, key: try createChecked(info, values, mode: mode, connection))
        }
    }

    /// Creates objects from a JSON array of objects, all or nothing; returns how many were created
    /// or updated. The corresponding C function is `cairn_create_many_json`.
    @discardableResult
    public func createMany(_ className: String, json: JSON, update mode: UpdateMode = .never) throws(CairnError) -> Int {
        try serialized { (connection) throws(CairnError) in
            let info = try writableClass(className)
            guard case .array(let elements) = json else {
                throw CairnError(.invalidArgument, "Expected a JSON array of '\(info.name)' objects, got \(json.kindName).")
            }
            return try atomically(connection) { () throws(CairnError) -> Int in
                for (position, element) in elements.enumerated() {
                    do throws(CairnError) {
                        let given = try decodePayload(info, element)
                        _ = try create(info, given, mode: mode, connection)
                    } catch {
                        throw CairnError(error.code, "Element \(position): \(error.message)", sqliteCode: error.sqliteCode)
                    }
                }
                return elements.count
            }
        }
    }

    @discardableResult
    public func createMany(_ className: String, json text: String, update mode: UpdateMode = .never) throws(CairnError) -> Int {
        try createMany(className, json: try Self.parsePayload(text), update: mode)
    }

    /// The object with a primary key, or nil. The corresponding C function is `cairn_object_find`.
    public func object(_ className: String, primaryKey: Value) throws(CairnError) -> Object? {
        try serialized { (connection) throws(CairnError) in
            let info = try readableClass(className)
            return try findKey(info, primaryKey, connection).map { Object(database: self, info: info, key: $0) }
        }
    }

    /// The object with an object key, or nil. The corresponding C function is `cairn_object_find_by_key`.
    public func object(_ className: String, key: Int64) throws(CairnError) -> Object? {
        try serialized { (connection) throws(CairnError) in
            let info = try readableClass(className)
            return try exists(info, key, connection) ? Object(database: self, info: info, key: key) : nil
        }
    }

    /// The object with a primary key as Extended JSON text, or nil. The corresponding C function
    /// is `cairn_get_json`.
    public func getJSON(_ className: String, primaryKey pk: Value) throws(CairnError) -> String? {
        try serialized { (connection) throws(CairnError) in
            let info = try readableClass(className)
            guard let key = try findKey(info, pk, connection) else { return nil }
            var writer = JSONWriter()
            try writeJSON(info, key, connection, to: &writer)
            return writer.string
        }
    }

    /// The number of objects of a class. The corresponding C function is `cairn_count`.
    public func count(_ className: String) throws(CairnError) -> Int {
        try serialized { (connection) throws(CairnError) in
            let info = try readableClass(className)
            let statement = try connection.statement(info.countSQL)
            defer { statement.reset() }
            _ = try statement.step()
            return Int(statement.int64(0))
        }
    }

    /// Deletes an object (inside a write transaction).
    public func delete(_ object: Object) throws(CairnError) {
        guard object.database === self else {
            throw CairnError(.invalidArgument, "The object belongs to another database handle.")
        }
        try object.delete()
    }

    // MARK: Class checks

    private func writableClass(_ className: String) throws(CairnError) -> ClassInfo {
        let info = try classInfo(className)
        try checkWritable(info)
        return info
    }

    private func checkWritable(_ info: ClassInfo) throws(CairnError) {
        try requireWriteTransaction()
        if info.schema.kind == .embedded {
            throw CairnError(.invalidArgument,
                             "Cannot create an object of embedded type '\(info.name)' on its own: assign it to a property of its parent.")
        }
    }

    /// Asymmetric objects are insert-only: they are never read back.
    func readableClass(_ className: String) throws(CairnError) -> ClassInfo {
        let info = try classInfo(className)
        if info.schema.kind == .asymmetric {
            throw CairnError(.notSupported, "Objects of asymmetric type '\(info.name)' are insert-only and cannot be read, queried, updated or deleted.")
        }
        return info
    }

    // MARK: Payloads

    static func parsePayload(_ text: String) throws(CairnError) -> JSON {
        do throws(JSONParseError) {
            return try JSON.parse(text)
        } catch {
            throw CairnError(.invalidArgument, error.description)
        }
    }

    func checkIndex(_ info: ClassInfo, _ index: Int) throws(CairnError) {
        guard index >= 0, index < info.schema.properties.count else {
            throw CairnError(.invalidArgument,
                             "Property index \(index) is out of range for '\(info.name)' (\(info.schema.properties.count) properties).")
        }
    }

    /// Decodes a JSON object into checked values by property index.
    func decodePayload(_ info: ClassInfo, _ json: JSON) throws(CairnError) -> [(Int, Value)] {
        guard case .object(let members) = json else {
            throw CairnError(.invalidArgument, "Expected a JSON object for '\(info.name)', got \(json.kindName).")
        }
        var given: [(Int, Value)] = []
        given.reserveCapacity(members.count)
        var seen = Set<Int>()
        for (name, valueJSON) in members {
            guard let index = info.propertyIndex(name), info.property(index).name == name else {
                throw noSuchProperty(info, name)
            }
            guard seen.insert(index).inserted else {
                throw CairnError(.invalidArgument, "Property '\(info.name).\(name)' is given more than once.")
            }
            let value: Value
            do throws(CairnError) {
                value = try ExtendedJSON.mixedValue(valueJSON)
            } catch {
                throw CairnError(error.code, "Property '\(info.name).\(name)': \(error.message)")
            }
            given.append((index, try coerce(value, info, index)))
        }
        return given
    }

    /// Converts a value to what a property stores, or explains why it cannot.
    func coerce(_ value: Value, _ info: ClassInfo, _ index: Int) throws(CairnError) -> Value {
        try Self.coerceValue(value, info, index)
    }

    static func coerceValue(_ value: Value, _ info: ClassInfo, _ index: Int) throws(CairnError) -> Value {
        let property = info.property(index)
        let label = "'\(info.name).\(property.name)'"
        if property.isComputed {
            throw CairnError(.invalidArgument, "Cannot modify read-only property \(label).")
        }
        if property.isCollection || property.type == .object {
            throw CairnError(.notSupported, "Property \(label) is a link or collection; these arrive with relationships support.")
        }
        if case .null = value {
            if property.isOptional { return .null }
            throw CairnError(.notNullable, "Invalid null value for non-nullable property \(label).")
        }
        func mismatch() -> CairnError {
            CairnError(.typeMismatch, "Type mismatch for property \(label): expected \(property.type.realmName), got \(value.typeName).")
        }
        switch (property.type, value) {
        case (.mixed, .link): throw mismatch()
        case (.mixed, .list), (.mixed, .dictionary):
            throw CairnError(.notSupported, "Property \(label): nested lists and dictionaries in mixed values arrive with relationships support.")
        case (.mixed, _): return value
        case (.bool, .bool), (.int, .int), (.double, .double), (.float, .float), (.decimal128, .decimal),
             (.string, .string), (.data, .data), (.date, .date), (.objectId, .objectId), (.uuid, .uuid):
            return value
        case (.float, .double(let d)): return .float(Float(d))
        case (.float, .int(let i)): return .float(Float(i))
        case (.double, .float(let f)): return .double(Double(f))
        case (.double, .int(let i)): return .double(Double(i))
        case (.decimal128, .int(let i)): return .decimal(Decimal128(i))
        case (.decimal128, .double(let d)):
            guard let decimal = Decimal128(exactly: d) else { throw mismatch() }
            return .decimal(decimal)
        default:
            throw mismatch()
        }
    }

    // MARK: Rows

    func exists(_ info: ClassInfo, _ key: Int64, _ connection: Connection) throws(CairnError) -> Bool {
        let statement = try connection.statement(info.existsSQL)
        defer { statement.reset() }
        statement.bind(key, at: 1)
        return try statement.step()
    }

    func findKey(_ info: ClassInfo, _ primaryKey: Value, _ connection: Connection) throws(CairnError) -> Int64? {
        guard let pkIndex = info.primaryKeyIndex else {
            throw CairnError(.invalidArgument, "'\(info.name)' does not have a primary key defined")
        }
        let pk: Value
        do throws(CairnError) {
            pk = try coerce(primaryKey, info, pkIndex)
        } catch where error.code == .notNullable {
            return nil
        }
        let statement = try connection.statement(info.keyByPrimaryKeySQL)
        defer { statement.reset() }
        try ValueCodec.bind(pk, to: statement, at: 1)
        return try statement.step() ? statement.int64(0) : nil
    }

    /// Reads the given properties of one object.
    func readRow(_ info: ClassInfo, _ key: Int64, _ connection: Connection, indices: [Int]) throws(CairnError) -> [Value] {
        for index in indices { try checkIndex(info, index) }
        let statement = try connection.statement(info.selectRowSQL)
        defer { statement.reset() }
        statement.bind(key, at: 1)
        guard try statement.step() else { throw invalidated(info) }
        return indices.map { readColumn(info, statement, $0) }
    }

    func invalidated(_ info: ClassInfo) -> CairnError {
        CairnError(.invalidatedObject, "Accessing object of type \(info.name) which has been invalidated or deleted")
    }

    /// One property from a row of `selectRowSQL` (column 0 is the key).
    func readColumn(_ info: ClassInfo, _ statement: Statement, _ index: Int) -> Value {
        let property = info.property(index)
        guard let slot = info.slots[index] else {
            switch property.collection {
            case .list, .set: return .list([])
            case .dictionary: return .dictionary([])
            case .single: return .list([])
            }
        }
        let column = Int32(slot + 1)
        if property.type == .mixed { return ValueCodec.readMixed(statement, value: column, type: column + 1) }
        return ValueCodec.read(statement, column, as: property.type)
    }

    func writeJSON(_ info: ClassInfo, _ key: Int64, _ connection: Connection, to writer: inout JSONWriter) throws(CairnError) {
        let statement = try connection.statement(info.selectRowSQL)
        defer { statement.reset() }
        statement.bind(key, at: 1)
        guard try statement.step() else { throw invalidated(info) }
        writer.writeByte(UInt8(ascii: "{"))
        var first = true
        for (index, property) in info.schema.properties.enumerated() where !property.isComputed {
            if !first { writer.writeByte(UInt8(ascii: ",")) }
            first = false
            writer.writeString(property.name)
            writer.writeByte(UInt8(ascii: ":"))
            ExtendedJSON.write(readColumn(info, statement, index), to: &writer)
        }
        writer.writeByte(UInt8(ascii: "}"))
    }

    // MARK: Writes

    private func createChecked(_ info: ClassInfo, _ raw: [(index: Int, value: Value)], mode: UpdateMode,
                               _ connection: Connection) throws(CairnError) -> Int64 {
        var given: [(Int, Value)] = []
        var seen = Set<Int>()
        for (index, value) in raw {
            try checkIndex(info, index)
            guard seen.insert(index).inserted else {
                throw CairnError(.invalidArgument, "Property '\(info.name).\(info.property(index).name)' is given more than once.")
            }
            given.append((index, try coerce(value, info, index)))
        }
        return try create(info, given, mode: mode, connection)
    }

    /// Creates (or, in the update modes, upserts) one object from checked values.
    func create(_ info: ClassInfo, _ given: [(Int, Value)], mode: UpdateMode, _ connection: Connection) throws(CairnError) -> Int64 {
        let properties = info.schema.properties
        var row = [Value?](repeating: nil, count: properties.count)
        for (index, value) in given { row[index] = value }

        if mode != .never {
            guard let pkIndex = info.primaryKeyIndex else {
                throw CairnError(.invalidArgument, "'\(info.name)' does not have a primary key defined")
            }
            guard let pk = row[pkIndex] ?? defaultValue(info, pkIndex) else {
                throw CairnError(.missingValue, "Missing value for property '\(info.name).\(properties[pkIndex].name)'")
            }
            if let key = try findKey(info, pk, connection) {
                let updates = given.filter { $0.0 != pkIndex }
                try update(info, key, updates, mode: mode, connection)
                return key
            }
        }

        // Fill what was not given: the default, else null if optional, else an error.
        for (index, property) in properties.enumerated() where property.isColumn && row[index] == nil {
            if let value = defaultValue(info, index) {
                row[index] = value
            } else if property.isOptional {
                row[index] = .null
            } else {
                throw CairnError(.missingValue, "Missing value for property '\(info.name).\(property.name)'")
            }
        }

        let statement = try connection.statement(info.insertSQL)
        defer { statement.reset() }
        var parameter: Int32 = 1
        for (index, property) in properties.enumerated() where property.isColumn {
            let value = row[index] ?? .null
            try ValueCodec.bind(value, to: statement, at: parameter)
            parameter += 1
            if property.type == .mixed {
                statement.bind(ValueCodec.typeCode(value), at: parameter)
                parameter += 1
            }
        }
        if info.hasSequenceColumn {
            statement.bind(try nextSequence(info, connection), at: parameter)
        }
        do throws(CairnError) {
            _ = try statement.step()
        } catch where error.sqliteCode == 1555 || error.sqliteCode == 2067 {
            // SQLITE_CONSTRAINT_PRIMARYKEY / _UNIQUE: the only unique constraint is the primary key.
            let pk = info.primaryKeyIndex.flatMap { row[$0] } ?? .null
            throw CairnError(.duplicatePrimaryKey,
                             "Attempting to create an object of type '\(info.name)' with an existing primary key value '\(pk)'.")
        }
        // For a class keyed by its int primary key the row key is that key, so this covers both.
        return connection.lastInsertRowID
    }

    /// The default of a property, decoded and checked (defaults were validated at open).
    func defaultValue(_ info: ClassInfo, _ index: Int) -> Value? {
        guard let json = info.property(index).defaultValue,
              let value = try? ExtendedJSON.mixedValue(json) else { return nil }
        return try? coerce(value, info, index)
    }

    /// Writes checked values to an existing object. `.modified` writes only values that differ.
    func update(_ info: ClassInfo, _ key: Int64, _ given: [(Int, Value)], mode: UpdateMode,
                _ connection: Connection) throws(CairnError) {
        var current: [Value]?
        if mode == .modified || given.contains(where: { info.property($0.0).isPrimaryKey }) {
            current = try readRow(info, key, connection, indices: given.map(\.0))
        } else if !(try exists(info, key, connection)) {
            throw invalidated(info)
        }
        var changes: [(Int, Value)] = []
        for (position, (index, value)) in given.enumerated() {
            let property = info.property(index)
            if property.isPrimaryKey {
                if current?[position] != value {
                    throw CairnError(.primaryKeyImmutable,
                                     "Cannot modify primary key after creation: '\(info.name).\(property.name)'")
                }
                continue
            }
            if mode == .modified, current?[position] == value { continue }
            changes.append((index, value))
        }
        guard !changes.isEmpty else { return }
        var assignments: [String] = []
        for (index, _) in changes {
            let property = info.property(index)
            assignments.append("\(quoted(property.storedName)) = ?")
            if property.type == .mixed { assignments.append("\(quoted(ClassInfo.mixedTypeColumn(property))) = ?") }
        }
        let sql = "UPDATE \(info.table) SET \(assignments.joined(separator: ", ")) WHERE \(info.keyColumn) = ?"
        let statement = try connection.statement(sql)
        defer { statement.reset() }
        var parameter: Int32 = 1
        for (index, value) in changes {
            try ValueCodec.bind(value, to: statement, at: parameter)
            parameter += 1
            if info.property(index).type == .mixed {
                statement.bind(ValueCodec.typeCode(value), at: parameter)
                parameter += 1
            }
        }
        statement.bind(key, at: parameter)
        _ = try statement.step()
    }

    func delete(_ info: ClassInfo, _ key: Int64, _ connection: Connection) throws(CairnError) {
        let statement = try connection.statement(info.deleteSQL)
        defer { statement.reset() }
        statement.bind(key, at: 1)
        _ = try statement.step()
        if connection.changes == 0 { throw invalidated(info) }
    }
}
