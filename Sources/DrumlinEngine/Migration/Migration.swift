import DrumlinSchema
import DrumlinValues

/// What a migration callback works with (`OpenOptions.migration`): the objects as they were
/// before the schema changed (`oldDatabase`, read-only, with the old schema) and the database
/// being migrated (`newDatabase`, with the new schema, in the migration's write transaction).
///
/// The callback runs once, when a file is opened with a higher schema version than it stores,
/// after the schema change was applied and before it is committed: existing objects are already
/// in the new schema, with Realm's conversions (a property whose type changed holds its zero
/// value, a property made required holds its zero value where it was null; see
/// docs/migrations.md). Everything, the schema change included, commits when the callback
/// returns; when it throws, nothing is written.
///
/// ```swift
/// options.migration = { migration in
///     try migration.enumerateObjects("Person") { old, new in
///         try new?.set("fullName", to: .string("\(try old["firstName"]) \(try old["lastName"])"))
///     }
/// }
/// ```
///
/// Valid only during the callback. The corresponding C type is `drumlin_migration`.
public final class Migration {
    /// The version stored in the file before the migration.
    public let oldSchemaVersion: UInt64
    /// The version the file was opened with.
    public let newSchemaVersion: UInt64
    /// The schema stored in the file before the migration.
    public let oldSchema: Schema
    /// The schema the file is opened with.
    public var newSchema: Schema { newDatabase.schema }
    /// The objects as they were, read-only: every class and property of the old schema, those
    /// the new schema dropped included.
    public let oldDatabase: Database
    /// The database being migrated, in a write transaction that the migration commits.
    public let newDatabase: Database
    let run: MigrationRun

    init(run: MigrationRun, oldDatabase: Database, newDatabase: Database) {
        self.run = run
        oldSchemaVersion = run.oldVersion
        newSchemaVersion = run.options.schemaVersion
        oldSchema = run.stored
        self.oldDatabase = oldDatabase
        self.newDatabase = newDatabase
    }

    /// Calls `body` for each object of a class that existed before the migration, in creation
    /// order: `old` is the object as it was (read-only), `new` the same object in the new schema
    /// (writable), or nil when the new schema has no such class or the object was deleted during
    /// the migration. A class the old schema lacks has no objects to enumerate.
    /// The corresponding C function is `drumlin_migration_enumerate_objects`.
    public func enumerateObjects(_ className: String, _ body: (_ old: Object, _ new: Object?) throws -> Void) throws {
        guard let oldInfo = try? oldDatabase.classInfo(className) else { return }
        let keys = try run.oldKeys(oldInfo)
        let newInfo = try? newDatabase.classInfo(oldInfo.name)
        for key in keys {
            let old = Object(database: oldDatabase, info: oldInfo, key: key)
            var new: Object?
            if let newInfo, try newDatabase.serialized({ (connection) throws(DrumlinError) in
                try newDatabase.exists(newInfo, key, connection)
            }) {
                new = Object(database: newDatabase, info: newInfo, key: key)
            }
            try body(old, new)
        }
    }

    /// Moves a property's values to a property of another name: `oldName` must exist in the old
    /// schema and `newName` in the new one, with the same type; `newName` then holds what
    /// `oldName` held. Realm's `renameProperty(onType:from:to:)`. The corresponding C function is
    /// `drumlin_migration_rename_property`.
    public func renameProperty(onType className: String, from oldName: String, to newName: String) throws(DrumlinError) {
        try run.renameProperty(className, from: oldName, to: newName, migration: self)
    }

    /// Deletes every object of a class. For a class the new schema no longer has, its table and
    /// its stored definition are removed too (without this a removed class's objects stay in the
    /// file, as in Realm). Returns whether the class existed. The corresponding C function is
    /// `drumlin_migration_delete_data`.
    @discardableResult
    public func deleteData(forType className: String) throws(DrumlinError) -> Bool {
        try run.deleteData(className, migration: self)
    }

    /// Creates an object in the new schema from a JSON object (as `Database.create`). The
    /// corresponding C function is `drumlin_migration_create_json`.
    @discardableResult
    public func create(_ className: String, json: JSON) throws(DrumlinError) -> Object {
        try newDatabase.create(className, json: json)
    }

    /// Creates an object in the new schema from values by property name.
    @discardableResult
    public func create(_ className: String, values: [(name: String, value: Value)]) throws(DrumlinError) -> Object {
        try newDatabase.create(className, values: values)
    }

    /// Deletes an object of the new schema (a `new` object of `enumerateObjects`, or one found
    /// in `newDatabase`). The corresponding C function is `drumlin_object_delete`.
    public func delete(_ object: Object) throws(DrumlinError) {
        guard object.database === newDatabase else {
            throw DrumlinError(.readOnly, "Objects of the old schema are read-only: delete the new object instead.")
        }
        try newDatabase.delete(object)
    }
}
