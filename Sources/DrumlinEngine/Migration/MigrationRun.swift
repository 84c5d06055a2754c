import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// One migration, inside the transaction `SchemaMigration.reconcile` began (BEGIN IMMEDIATE):
///
/// 1. `prepare`: every class kept by the new schema is rebuilt (SQLite's create-copy-drop-rename
///    way of altering a table): its table and collection tables are renamed `_drumlin_old_<table>`,
///    the new ones are created and the old rows copied in with Realm's conversions. Object keys
///    are kept, so links and collection rows stay valid. Primary keys are plain columns for now.
/// 2. The callback runs with the old tables as a read-only database of the old schema and the new
///    ones as a writable database of the new schema.
/// 3. `finish`: primary keys are checked for duplicates, tables whose key is their int primary key
///    are rebuilt once more around it (links to them follow), indexes and full-text indexes are
///    created, the definitions stored and the old tables dropped.
///
/// Any failure throws; the caller rolls the transaction back, so the file is as it was.
final class MigrationRun {
    let connection: Connection
    let path: String
    /// The schema stored in the file.
    let stored: Schema
    let schema: Schema
    let options: OpenOptions
    let oldVersion: UInt64
    /// Table names of the stored classes the new schema keeps (they are rebuilt).
    var kept: Set<String> = []
    /// Removed classes whose data the callback deleted (their tables are gone).
    var dropped: Set<String> = []

    static let oldPrefix = "_drumlin_old_"

    init(connection: Connection, path: String, stored: Schema, schema: Schema, options: OpenOptions, oldVersion: UInt64) {
        self.connection = connection
        self.path = path
        self.stored = stored
        self.schema = schema
        self.options = options
        self.oldVersion = oldVersion
    }

    func run() throws(DrumlinError) {
        try prepare()
        var newOptions = options
        newOptions.migration = nil
        var oldOptions = newOptions
        oldOptions.readOnly = true
        let newDatabase = Database(migrating: connection, path: path, schema: schema, options: newOptions,
                                   version: options.schemaVersion, allowsIntegerRowKey: false, slotBase: 0)
        let oldDatabase = Database(migrating: connection, path: path, schema: oldSchemaAsRenamed, options: oldOptions,
                                   version: oldVersion, allowsIntegerRowKey: true, slotBase: newDatabase.slotCount)
        newDatabase.inWriteTransaction = true
        defer {
            newDatabase.detachConnection()
            oldDatabase.detachConnection()
            connection.clearStatementCache()
        }
        if let callback = options.migration {
            let migration = Migration(run: self, oldDatabase: oldDatabase, newDatabase: newDatabase)
            do {
                try callback(migration)
            } catch let error as DrumlinError {
                throw DrumlinError(.migrationFailed, "The migration from schema version \(oldVersion) to \(options.schemaVersion) failed: \(error.message)")
            } catch {
                throw DrumlinError(.migrationFailed, "The migration from schema version \(oldVersion) to \(options.schemaVersion) failed: \(error)")
            }
        }
        connection.clearStatementCache()
        try finish()
    }

    /// The stored schema with the kept classes pointing at their `_drumlin_old_` tables.
    private var oldSchemaAsRenamed: Schema {
        Schema(stored.objectSchemas.map { objectSchema in
            var renamed = objectSchema
            if kept.contains(objectSchema.storedName) { renamed.storedName = Self.oldPrefix + objectSchema.storedName }
            return renamed
        })
    }

    /// The object keys of an old class, in creation order.
    func oldKeys(_ info: ClassInfo) throws(DrumlinError) -> [Int64] {
        let statement = try connection.statement("SELECT t0.\(info.keyColumn) FROM \(info.table) t0 ORDER BY \(info.creationOrderT0)")
        defer { statement.reset() }
        var keys: [Int64] = []
        while try statement.step() { keys.append(statement.int64(0)) }
        return keys
    }

    func storedClass(_ name: String) -> ObjectSchema? {
        stored.objectSchemas.first { $0.name.isSameName(name) } ?? stored.objectSchemas.first { $0.storedName.isSameName(name) }
    }

    func newClass(_ name: String) -> ObjectSchema? {
        schema.objectSchemas.first { $0.name.isSameName(name) } ?? schema.objectSchemas.first { $0.storedName.isSameName(name) }
    }

    /// The names of a table's indexes (not SQLite's automatic ones).
    func indexes(on table: String) throws(DrumlinError) -> [String] {
        try indexDefinitions(on: table).map(\.name)
    }

    /// The indexes of `table` that have SQL (not a constraint's own), with their `CREATE` statements.
    func indexDefinitions(on table: String) throws(DrumlinError) -> [(name: String, sql: String)] {
        let statement = try connection.statement("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ?1 AND sql IS NOT NULL")
        defer { statement.reset() }
        statement.bind(table, at: 1)
        var definitions: [(name: String, sql: String)] = []
        while try statement.step() { definitions.append((statement.string(0), statement.string(1))) }
        return definitions
    }

    func tableExists(_ table: String) throws(DrumlinError) -> Bool {
        try connection.scalarText("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?1", [table]) != nil
    }
}
