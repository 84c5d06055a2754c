import DrumlinEngine
import CDrumlinHeader
#if canImport(Glibc)
import Glibc
#endif

@_cdecl("drumlin_open")
public func drumlin_open(_ path: UnsafePointer<CChar>?, _ schemaJSON: UnsafePointer<CChar>?, _ options: OpaquePointer?,
                       _ outDB: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outDB else { throw misuse("out_db must not be NULL.") }
        outDB.pointee = nil
        let path = try string(path, "path")
        let schema = try schemaJSON.map { (pointer) throws(DrumlinError) in try string(pointer, "schema_json") }
        let openOptions = try options.map { (pointer) throws(DrumlinError) in try optionsHandle(pointer).options } ?? OpenOptions()
        let db: Database
        if let schema {
            db = try Database(path: path, schemaJSON: schema, options: openOptions)
        } else {
            db = try Database(path: path, options: openOptions)
        }
        outDB.pointee = registerDatabase(DatabaseHandle(db))
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_close")
public func drumlin_close(_ db: OpaquePointer?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let db else { return DRUMLIN_OK }
        guard let handle = unregisterDatabase(db) else { throw misuse("The database handle is closed or invalid.") }
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

@_cdecl("drumlin_begin_write")
public func drumlin_begin_write(_ db: OpaquePointer?) -> Int32 {
    capi { () throws(DrumlinError) in
        try database(db).beginWrite()
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_commit")
public func drumlin_commit(_ db: OpaquePointer?) -> Int32 {
    capi { () throws(DrumlinError) in
        try database(db).commit()
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_rollback")
public func drumlin_rollback(_ db: OpaquePointer?) -> Int32 {
    capi { () throws(DrumlinError) in
        try database(db).rollback()
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_is_in_write")
public func drumlin_is_in_write(_ db: OpaquePointer?, _ outInWrite: UnsafeMutablePointer<Int32>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outInWrite else { throw misuse("out_in_write must not be NULL.") }
        outInWrite.pointee = try database(db).isInWriteTransaction ? 1 : 0
        return DRUMLIN_OK
    }
}

func updateMode(_ raw: Int32) throws(DrumlinError) -> UpdateMode {
    guard let mode = UpdateMode(rawValue: raw) else {
        throw DrumlinError(.invalidArgument, "update_mode must be DRUMLIN_UPDATE_NEVER, _MODIFIED or _ALL, got \(raw).")
    }
    return mode
}

/// Parses a JSON argument straight from the caller's bytes.
func jsonArgument(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(DrumlinError) -> JSON {
    guard let pointer else { throw misuse("\(name) must not be NULL.") }
    do {
        return try JSON.parse(cString: pointer)
    } catch {
        throw DrumlinError(error.isNestingLimit ? .limit : .invalidArgument, "\(name): \(error.description)")
    }
}

@_cdecl("drumlin_create_json")
public func drumlin_create_json(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?, _ objectJSON: UnsafePointer<CChar>?,
                              _ mode: Int32, _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outJSON?.pointee = nil
        let db = try database(db)
        let name = try string(className, "class_name")
        let payload = try jsonArgument(objectJSON, "object_json")
        let object = try db.create(name, json: payload, update: try updateMode(mode))
        if let outJSON { outJSON.pointee = try mallocString(try object.jsonText()) }
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_create_many_json")
public func drumlin_create_many_json(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?, _ arrayJSON: UnsafePointer<CChar>?,
                                   _ mode: Int32, _ outCount: UnsafeMutablePointer<Int64>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outCount?.pointee = 0
        let db = try database(db)
        let name = try string(className, "class_name")
        guard let arrayJSON else { throw misuse("array_json must not be NULL.") }
        let count = try db.createMany(name, jsonBytes: UnsafeRawBufferPointer(start: arrayJSON, count: strlen(arrayJSON)),
                                      update: try updateMode(mode))
        outCount?.pointee = Int64(count)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_get_json")
public func drumlin_get_json(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?, _ primaryKeyJSON: UnsafePointer<CChar>?,
                           _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outJSON else { throw misuse("out_json must not be NULL.") }
        outJSON.pointee = nil
        let db = try database(db)
        let name = try string(className, "class_name")
        let key = try jsonArgument(primaryKeyJSON, "primary_key_json")
        guard let text = try db.getJSON(name, primaryKey: try Value(extendedJSON: key)) else { return DRUMLIN_NOT_FOUND }
        outJSON.pointee = try mallocString(text)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_create_many_values")
public func drumlin_create_many_values(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?, _ propertyCount: Int,
                                     _ propertyIndices: UnsafePointer<Int32>?, _ rowCount: Int, _ values: UnsafePointer<drumlin_value>?,
                                     _ mode: Int32, _ outCount: UnsafeMutablePointer<Int64>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outCount?.pointee = 0
        let db = try database(db)
        guard let className else { throw misuse("class_name must not be NULL.") }
        guard propertyCount >= 0, rowCount >= 0 else {
            throw DrumlinError(.invalidArgument, "property_count and row_count must not be negative.")
        }
        let (total, overflow) = propertyCount.multipliedReportingOverflow(by: rowCount)
        guard !overflow else { throw DrumlinError(.invalidArgument, "property_count * row_count overflows.") }
        guard total == 0 || values != nil else { throw misuse("values must not be NULL when there are values to read.") }
        let classIndex = try db.classIndex(cString: className)
        let count = try db.createMany(classIndex: classIndex, propertyIndices: try indices(propertyIndices, propertyCount),
                                      rows: rowCount, update: try updateMode(mode)) { (row, out) throws(DrumlinError) in
            guard let values else { return }
            let first = values + row * propertyCount
            for position in 0..<propertyCount { out[position] = try borrowed(from: first[position]) }
        }
        outCount?.pointee = Int64(count)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_create_many_marshal")
public func drumlin_create_many_marshal(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?, _ propertyCount: Int,
                                      _ propertyIndices: UnsafePointer<Int32>?, _ data: UnsafeRawPointer?, _ size: Int,
                                      _ mode: Int32, _ outCount: UnsafeMutablePointer<Int64>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outCount?.pointee = 0
        let db = try database(db)
        guard let className else { throw misuse("class_name must not be NULL.") }
        guard let data else { throw misuse("data must not be NULL.") }
        guard propertyCount >= 0, size >= 0 else { throw DrumlinError(.invalidArgument, "property_count and size must not be negative.") }
        let classIndex = try db.classIndex(cString: className)
        let count = try db.createMany(classIndex: classIndex, propertyIndices: try indices(propertyIndices, propertyCount),
                                      marshal: UnsafeRawBufferPointer(start: data, count: size), update: try updateMode(mode))
        outCount?.pointee = Int64(count)
        return DRUMLIN_OK
    }
}
