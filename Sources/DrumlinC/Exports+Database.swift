import DrumlinEngine
import DrumlinSync
import CDrumlinHeader
#if canImport(Glibc)
import Glibc
#endif

// The exports of drumlin.h's section "Database".

@_cdecl("drumlin_open")
public func drumlin_open(_ path: UnsafePointer<CChar>?, _ schemaJSON: UnsafePointer<CChar>?, _ options: OpaquePointer?,
                       _ outDB: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outDB else { throw misuse("out_db must not be NULL.") }
        outDB.pointee = nil
        let path = try string(path, "path")
        let schema = try schemaJSON.map { (pointer) throws(DrumlinError) in try string(pointer, "schema_json") }
        let given: OptionsHandle? = try options.map { (pointer) throws(DrumlinError) -> OptionsHandle in try optionsHandle(pointer) }
        let openOptions = given?.options ?? OpenOptions()
        let sync = given?.sync
        if sync != nil { try SyncSession.checkOpen(path: path, options: openOptions) }
        let db: Database
        if let schema {
            db = try Database(path: path, schemaJSON: schema, options: openOptions)
        } else {
            db = try Database(path: path, options: openOptions)
        }
        let handle = DatabaseHandle(db)
        if let sync { handle.syncSession = try startSession(db, sync, logger: openOptions.logger) }
        outDB.pointee = registerDatabase(handle)
        return DRUMLIN_OK
    }
}

/// The sync session of a database just opened; the database is closed when it cannot start.
private func startSession(_ db: Database, _ sync: SyncOptions,
                          logger: (@Sendable (LogLevel, String) -> Void)?) throws(DrumlinError) -> SyncSession {
    do throws(DrumlinError) {
        return try SyncSession(database: db, settings: sync.settings(logger: logger))
    } catch {
        db.close()
        throw error
    }
}

@_cdecl("drumlin_close")
public func drumlin_close(_ db: OpaquePointer?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let db else { return DRUMLIN_OK }
        guard let handle = unregisterDatabase(db) else { throw misuse("The database handle is closed or invalid.") }
        handle.takeUnretainedValue().syncSession?.stop()
        handle.takeUnretainedValue().database.close()
        handle.release()
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_schema_json")
public func drumlin_schema_json(_ db: OpaquePointer?, _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outJSON else { throw misuse("out_json must not be NULL.") }
        outJSON.pointee = nil
        outJSON.pointee = try mallocString(try database(db).schemaJSON.text)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_schema_version")
public func drumlin_schema_version(_ db: OpaquePointer?, _ outVersion: UnsafeMutablePointer<UInt64>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outVersion else { throw misuse("out_version must not be NULL.") }
        outVersion.pointee = try database(db).schemaVersion
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_add_classes")
public func drumlin_add_classes(_ db: OpaquePointer?, _ schemaJSON: UnsafePointer<CChar>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let db = try database(db)
        _ = try db.addClasses(try Schema(jsonText: try string(schemaJSON, "schema_json")))
        return DRUMLIN_OK
    }
}
