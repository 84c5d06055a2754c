import DrumlinSchema
import DrumlinSyncProtocol
import DrumlinValues

/// One column of a synced class's table (docs/sync.md, "The table mapping").
struct Column: Equatable, Sendable {
    var name: String
    /// The type as PostgreSQL's `format_type` prints it, so it compares with the catalog.
    var sqlType: String
    var notNull: Bool
    var isPrimaryKey = false
    var defaultSQL: String?
    var check: String?
}

/// How a Drumlin class maps to its PostgreSQL table.
struct ClassMapping: Sendable {
    let objectSchema: ObjectSchema
    let tableSchema: String
    let columns: [Column]

    var className: String { objectSchema.name }
    var tableName: String { objectSchema.storedName }
    var qualifiedTable: String { "\(SQL.identifier(tableSchema)).\(SQL.identifier(tableName))" }

    /// PostgreSQL silently truncates longer identifiers; the mapping refuses them instead.
    static let maximumIdentifierBytes = 63

    /// The mapping of a class of `schema`, or `invalid_schema_change` when it cannot be synced.
    init(_ objectSchema: ObjectSchema, in schema: Schema, tableSchema: String) throws(SyncError) {
        self.objectSchema = objectSchema
        self.tableSchema = tableSchema
        func refuse(_ why: String) -> SyncError {
            SyncError(.invalidSchemaChange, "class '\(objectSchema.name)': \(why)")
        }
        guard objectSchema.primaryKey == "_id", objectSchema.primaryKeyProperty != nil else {
            throw refuse("synced classes need a primary key named '_id', as Realm's sync requires")
        }
        guard objectSchema.storedName.utf8.count <= Self.maximumIdentifierBytes else {
            throw refuse("the table name '\(objectSchema.storedName)' is longer than PostgreSQL's \(Self.maximumIdentifierBytes) bytes")
        }
        var columns: [Column] = []
        for property in objectSchema.properties where !property.isComputed {
            let notNull = property.isPrimaryKey
                || (!property.isOptional && !property.isCollection && property.type != .object && property.type != .mixed)
            var column = Column(name: property.storedName, sqlType: try Self.sqlType(of: property, in: schema),
                                notNull: notNull || property.isCollection, isPrimaryKey: property.isPrimaryKey)
            if property.isCollection { column.defaultSQL = property.collection == .dictionary ? "'{}'::jsonb" : "'[]'::jsonb" }
            if property.collection == .single, property.type == .objectId || (property.type == .object && Self.targetKeyType(property, schema) == .objectId) {
                column.check = "octet_length(\(SQL.identifier(property.storedName))) = 12"
            }
            columns.append(column)
            if property.collection == .single, property.type == .date {
                columns.append(Column(name: property.storedName + "__ns", sqlType: "integer", notNull: true, defaultSQL: "0",
                                      check: "\(SQL.identifier(property.storedName + "__ns")) BETWEEN 0 AND 999"))
            }
        }
        var seen: Set<String> = []
        for column in columns {
            guard column.name.utf8.count <= Self.maximumIdentifierBytes else {
                throw refuse("the column name '\(column.name)' is longer than PostgreSQL's \(Self.maximumIdentifierBytes) bytes")
            }
            guard seen.insert(column.name).inserted else {
                throw refuse("two properties map to the column '\(column.name)' (a date property '\(column.name.dropLast(4))' keeps its nanoseconds in '<name>__ns')")
            }
        }
        self.columns = columns
    }

    static func sqlType(of property: Property, in schema: Schema) throws(SyncError) -> String {
        if property.isCollection { return "jsonb" }
        switch property.type {
        case .bool: return "boolean"
        case .int: return "bigint"
        case .float: return "real"
        case .double: return "double precision"
        case .string: return "text"
        case .data, .objectId: return "bytea"
        case .date: return "timestamp with time zone"
        case .decimal128: return "numeric"
        case .uuid: return "uuid"
        case .mixed: return "jsonb"
        case .object:
            guard let keyType = targetKeyType(property, schema) else { return "jsonb" }   // embedded
            var key = property
            key.type = keyType
            return try sqlType(of: key, in: schema)
        case .linkingObjects:
            return ""
        }
    }

    /// The primary key type of a link's target, or nil for an embedded target (stored inline).
    static func targetKeyType(_ property: Property, _ schema: Schema) -> PropertyType? {
        guard let target = property.objectType.flatMap({ schema[$0] }), target.kind != .embedded else { return nil }
        return target.primaryKeyProperty?.type
    }

    /// `CREATE TABLE` for a table that does not exist yet.
    var createStatement: String {
        var parts = columns.map { column in
            var part = "\(SQL.identifier(column.name)) \(column.sqlType)"
            if column.isPrimaryKey { part += " PRIMARY KEY" } else if column.notNull { part += " NOT NULL" }
            if let defaultSQL = column.defaultSQL { part += " DEFAULT \(defaultSQL)" }
            if let check = column.check { part += " CHECK (\(check))" }
            return part
        }
        parts = parts.map { "  " + $0 }
        return "CREATE TABLE \(qualifiedTable) (\n\(parts.joined(separator: ",\n"))\n)"
    }

    /// `ALTER TABLE … ADD COLUMN` for a property a later schema added: nullable, since the rows
    /// already there have no value (a default, where the column has one, fills them).
    func addColumnStatement(_ column: Column) -> String {
        var sql = "ALTER TABLE \(qualifiedTable) ADD COLUMN \(SQL.identifier(column.name)) \(column.sqlType)"
        if let defaultSQL = column.defaultSQL { sql += " NOT NULL DEFAULT \(defaultSQL)" }
        if let check = column.check { sql += " CHECK (\(check))" }
        return sql
    }
}

enum SQL {
    /// A quoted identifier: `"name"`, inner quotes doubled.
    static func identifier(_ name: String) -> String {
        "\"" + name.replacingAll("\"", with: "\"\"") + "\""
    }

    /// A quoted string literal, for the few statements (DDL) that cannot take parameters.
    static func literal(_ text: String) -> String {
        "'" + text.replacingAll("'", with: "''") + "'"
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
