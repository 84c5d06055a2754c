import DrumlinEngine
import CDrumlinHeader
#if canImport(Glibc)
import Glibc
#endif

// The exports of drumlin.h's section "Migrations".

/// A C migration callback and its userdata: the userdata is freed when the last options or
/// database holding the callback lets go of it.
final class MigrationSink: @unchecked Sendable {
    let function: drumlin_migration_fn
    let userdata: UnsafeMutableRawPointer?
    let freeUserdata: drumlin_free_fn?

    init(_ function: drumlin_migration_fn, _ userdata: UnsafeMutableRawPointer?, _ freeUserdata: drumlin_free_fn?) {
        self.function = function
        self.userdata = userdata
        self.freeUserdata = freeUserdata
    }

    deinit { freeUserdata?(userdata) }

    /// Runs the C callback with a handle valid for the call; a nonzero result aborts the migration.
    func migrate(_ migration: Migration) throws(DrumlinError) {
        let handle = MigrationHandle(migration)
        defer { handle.end() }
        let status = function(userdata, OpaquePointer(Unmanaged.passUnretained(handle).toOpaque()))
        if status != 0 {
            throw DrumlinError(.callback, handle.message ?? "The migration callback returned \(status).")
        }
    }
}

/// What a `drumlin_migration *` points at, during the callback only.
final class MigrationHandle {
    let migration: Migration
    var message: String?
    private var newDB: OpaquePointer?
    private var oldDB: OpaquePointer?

    init(_ migration: Migration) { self.migration = migration }

    func newDatabase() -> OpaquePointer {
        if let newDB { return newDB }
        let pointer = registerDatabase(DatabaseHandle(migration.newDatabase))
        newDB = pointer
        return pointer
    }

    func oldDatabase() -> OpaquePointer {
        if let oldDB { return oldDB }
        let pointer = registerDatabase(DatabaseHandle(migration.oldDatabase))
        oldDB = pointer
        return pointer
    }

    /// The borrowed database handles stop working when the callback returns.
    func end() {
        for pointer in [newDB, oldDB].compactMap({ $0 }) { unregisterDatabase(pointer)?.release() }
        newDB = nil
        oldDB = nil
    }
}

func migrationHandle(_ pointer: OpaquePointer?) throws(DrumlinError) -> MigrationHandle {
    guard let pointer else { throw misuse("The migration handle is NULL.") }
    return Unmanaged<MigrationHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
}

@_cdecl("drumlin_options_set_migration")
public func drumlin_options_set_migration(_ options: OpaquePointer?, _ function: drumlin_migration_fn?,
                                          _ userdata: UnsafeMutableRawPointer?, _ freeUserdata: drumlin_free_fn?) -> Int32 {
    capi { () throws(DrumlinError) in
        try setCallbackOption(options, userdata, freeUserdata) { handle in
            guard let function else {
                handle.options.migration = nil
                return false
            }
            let sink = MigrationSink(function, userdata, freeUserdata)
            handle.options.migration = { migration in try sink.migrate(migration) }
            return true
        }
    }
}

@_cdecl("drumlin_migration_old_schema_version")
public func drumlin_migration_old_schema_version(_ migration: OpaquePointer?, _ outVersion: UnsafeMutablePointer<UInt64>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outVersion else { throw misuse("out_version must not be NULL.") }
        outVersion.pointee = try migrationHandle(migration).migration.oldSchemaVersion
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_migration_new_schema_version")
public func drumlin_migration_new_schema_version(_ migration: OpaquePointer?, _ outVersion: UnsafeMutablePointer<UInt64>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outVersion else { throw misuse("out_version must not be NULL.") }
        outVersion.pointee = try migrationHandle(migration).migration.newSchemaVersion
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_migration_old_schema_json")
public func drumlin_migration_old_schema_json(_ migration: OpaquePointer?,
                                              _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outJSON else { throw misuse("out_json must not be NULL.") }
        outJSON.pointee = nil
        outJSON.pointee = try mallocString(try migrationHandle(migration).migration.oldSchema.normalizedJSON.text)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_migration_new_db")
public func drumlin_migration_new_db(_ migration: OpaquePointer?, _ outDB: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outDB else { throw misuse("out_db must not be NULL.") }
        outDB.pointee = try migrationHandle(migration).newDatabase()
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_migration_old_db")
public func drumlin_migration_old_db(_ migration: OpaquePointer?, _ outDB: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outDB else { throw misuse("out_db must not be NULL.") }
        outDB.pointee = try migrationHandle(migration).oldDatabase()
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_migration_enumerate_objects")
public func drumlin_migration_enumerate_objects(_ migration: OpaquePointer?, _ className: UnsafePointer<CChar>?,
                                                _ function: drumlin_migration_object_fn?, _ userdata: UnsafeMutableRawPointer?) -> Int32 {
    capi { () throws(DrumlinError) in
        let handle = try migrationHandle(migration)
        let name = try string(className, "class_name")
        guard let function else { throw misuse("fn must not be NULL.") }
        do {
            try handle.migration.enumerateObjects(name) { old, new in
                let status = function(userdata, newObjectHandle(old), new.map(newObjectHandle))
                if status != 0 { throw DrumlinError(.callback, "The enumeration callback returned \(status).") }
            }
        } catch let error as DrumlinError {
            throw error
        } catch {
            throw DrumlinError(.internal, "\(error)")
        }
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_migration_rename_property")
public func drumlin_migration_rename_property(_ migration: OpaquePointer?, _ className: UnsafePointer<CChar>?,
                                              _ oldName: UnsafePointer<CChar>?, _ newName: UnsafePointer<CChar>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let handle = try migrationHandle(migration)
        try handle.migration.renameProperty(onType: try string(className, "class_name"), from: try string(oldName, "old_name"),
                                            to: try string(newName, "new_name"))
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_migration_delete_data")
public func drumlin_migration_delete_data(_ migration: OpaquePointer?, _ className: UnsafePointer<CChar>?,
                                          _ outDeleted: UnsafeMutablePointer<Int32>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let deleted = try migrationHandle(migration).migration.deleteData(forType: try string(className, "class_name"))
        outDeleted?.pointee = deleted ? 1 : 0
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_migration_create_json")
public func drumlin_migration_create_json(_ migration: OpaquePointer?, _ className: UnsafePointer<CChar>?,
                                          _ objectJSON: UnsafePointer<CChar>?,
                                          _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outJSON?.pointee = nil
        let handle = try migrationHandle(migration)
        let json = try jsonArgument(objectJSON, "object_json")
        let object = try handle.migration.create(try string(className, "class_name"), json: json)
        if let outJSON { outJSON.pointee = try mallocString(try object.jsonText()) }
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_migration_set_error")
public func drumlin_migration_set_error(_ migration: OpaquePointer?, _ message: UnsafePointer<CChar>?) -> Int32 {
    capi { () throws(DrumlinError) in
        try migrationHandle(migration).message = try string(message, "message")
        return DRUMLIN_OK
    }
}
