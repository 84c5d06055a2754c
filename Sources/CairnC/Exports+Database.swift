import Cairn
import CCairnHeader
#if canImport(Glibc)
import Glibc
#endif

@_cdecl("cairn_open")
public func cairn_open(_ path: UnsafePointer<CChar>?, _ schemaJSON: UnsafePointer<CChar>?, _ options: OpaquePointer?,
                       _ outDB: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    capi { () throws(CairnError) in
        guard let outDB else { throw misuse("out_db must not be NULL.") }
        outDB.pointee = nil
        let path = try string(path, "path")
        let schema = try string(schemaJSON, "schema_json")
        let openOptions = try options.map { (pointer) throws(CairnError) in try optionsHandle(pointer).options } ?? OpenOptions()
        let db = try Database(path: path, schemaJSON: schema, options: openOptions)
        outDB.pointee = registerDatabase(DatabaseHandle(db))
        return CAIRN_OK_
    }
}

@_cdecl("cairn_close")
public func cairn_close(_ db: OpaquePointer?) -> Int32 {
    capi { () throws(CairnError) in
        guard let db else { return CAIRN_OK_ }
        guard let handle = unregisterDatabase(db) else { throw misuse("The database handle is closed or invalid.") }
        handle.takeUnretainedValue().database.close()
        handle.release()
        return CAIRN_OK_
    }
}

@_cdecl("cairn_schema_json")
public func cairn_schema_json(_ db: OpaquePointer?, _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    capi { () throws(CairnError) in
        guard let outJSON else { throw misuse("out_json must not be NULL.") }
        outJSON.pointee = nil
        outJSON.pointee = try mallocString(try database(db).schemaJSON.text)
        return CAIRN_OK_
    }
}

@_cdecl("cairn_schema_version")
public func cairn_schema_version(_ db: OpaquePointer?, _ outVersion: UnsafeMutablePointer<UInt64>?) -> Int32 {
    capi { () throws(CairnError) in
        guard let outVersion else { throw misuse("out_version must not be NULL.") }
        outVersion.pointee = try database(db).schemaVersion
        return CAIRN_OK_
    }
}

@_cdecl("cairn_begin_write")
public func cairn_begin_write(_ db: OpaquePointer?) -> Int32 {
    capi { () throws(CairnError) in
        try database(db).beginWrite()
        return CAIRN_OK_
    }
}

@_cdecl("cairn_commit")
public func cairn_commit(_ db: OpaquePointer?) -> Int32 {
    capi { () throws(CairnError) in
        try database(db).commit()
        return CAIRN_OK_
    }
}

@_cdecl("cairn_rollback")
public func cairn_rollback(_ db: OpaquePointer?) -> Int32 {
    capi { () throws(CairnError) in
        try database(db).rollback()
        return CAIRN_OK_
    }
}

@_cdecl("cairn_is_in_write")
public func cairn_is_in_write(_ db: OpaquePointer?, _ outInWrite: UnsafeMutablePointer<Int32>?) -> Int32 {
    capi { () throws(CairnError) in
        guard let outInWrite else { throw misuse("out_in_write must not be NULL.") }
        outInWrite.pointee = try database(db).isInWriteTransaction ? 1 : 0
        return CAIRN_OK_
    }
}

func updateMode(_ raw: Int32) throws(CairnError) -> UpdateMode {
    guard let mode = UpdateMode(rawValue: raw) else {
        throw CairnError(.invalidArgument, "update_mode must be CAIRN_UPDATE_NEVER, _MODIFIED or _ALL, got \(raw).")
    }
    return mode
}

/// Parses a JSON argument straight from the caller's bytes.
func jsonArgument(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(CairnError) -> JSON {
    guard let pointer else { throw misuse("\(name) must not be NULL.") }
    do {
        return try JSON.parse(cString: pointer)
    } catch {
        throw CairnError(.invalidArgument, "\(name): \(error.description)")
    }
}

@_cdecl("cairn_create_json")
public func cairn_create_json(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?, _ objectJSON: UnsafePointer<CChar>?,
                              _ mode: Int32, _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    capi { () throws(CairnError) in
        outJSON?.pointee = nil
        let db = try database(db)
        let name = try string(className, "class_name")
        let payload = try jsonArgument(objectJSON, "object_json")
        let object = try db.create(name, json: payload, update: try updateMode(mode))
        if let outJSON { outJSON.pointee = try mallocString(try object.jsonText()) }
        return CAIRN_OK_
    }
}

@_cdecl("cairn_create_many_json")
public func cairn_create_many_json(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?, _ arrayJSON: UnsafePointer<CChar>?,
                                   _ mode: Int32, _ outCount: UnsafeMutablePointer<Int64>?) -> Int32 {
    capi { () throws(CairnError) in
        outCount?.pointee = 0
        let db = try database(db)
        let name = try string(className, "class_name")
        guard let arrayJSON else { throw misuse("array_json must not be NULL.") }
        let count = try db.createMany(name, jsonBytes: UnsafeRawBufferPointer(start: arrayJSON, count: strlen(arrayJSON)),
                                      update: try updateMode(mode))
        outCount?.pointee = Int64(count)
        return CAIRN_OK_
    }
}

@_cdecl("cairn_get_json")
public func cairn_get_json(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?, _ primaryKeyJSON: UnsafePointer<CChar>?,
                           _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    capi { () throws(CairnError) in
        guard let outJSON else { throw misuse("out_json must not be NULL.") }
        outJSON.pointee = nil
        let db = try database(db)
        let name = try string(className, "class_name")
        let key = try jsonArgument(primaryKeyJSON, "primary_key_json")
        guard let text = try db.getJSON(name, primaryKey: try Value(extendedJSON: key)) else { return CAIRN_NOT_FOUND_ }
        outJSON.pointee = try mallocString(text)
        return CAIRN_OK_
    }
}

@_cdecl("cairn_create_many_values")
public func cairn_create_many_values(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?, _ propertyCount: Int,
                                     _ propertyIndices: UnsafePointer<Int32>?, _ rowCount: Int, _ values: UnsafePointer<cairn_value>?,
                                     _ mode: Int32, _ outCount: UnsafeMutablePointer<Int64>?) -> Int32 {
    capi { () throws(CairnError) in
        outCount?.pointee = 0
        let db = try database(db)
        guard let className else { throw misuse("class_name must not be NULL.") }
        guard propertyCount >= 0, rowCount >= 0 else {
            throw CairnError(.invalidArgument, "property_count and row_count must not be negative.")
        }
        let (total, overflow) = propertyCount.multipliedReportingOverflow(by: rowCount)
        guard !overflow else { throw CairnError(.invalidArgument, "property_count * row_count overflows.") }
        guard total == 0 || values != nil else { throw misuse("values must not be NULL when there are values to read.") }
        let classIndex = try db.classIndex(cString: className)
        let count = try db.createMany(classIndex: classIndex, propertyIndices: try indices(propertyIndices, propertyCount),
                                      rows: rowCount, update: try updateMode(mode)) { (row, out) throws(CairnError) in
            guard let values else { return }
            let first = values + row * propertyCount
            for position in 0..<propertyCount { out[position] = try borrowed(from: first[position]) }
        }
        outCount?.pointee = Int64(count)
        return CAIRN_OK_
    }
}

@_cdecl("cairn_create_many_marshal")
public func cairn_create_many_marshal(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?, _ propertyCount: Int,
                                      _ propertyIndices: UnsafePointer<Int32>?, _ data: UnsafeRawPointer?, _ size: Int,
                                      _ mode: Int32, _ outCount: UnsafeMutablePointer<Int64>?) -> Int32 {
    capi { () throws(CairnError) in
        outCount?.pointee = 0
        let db = try database(db)
        guard let className else { throw misuse("class_name must not be NULL.") }
        guard let data else { throw misuse("data must not be NULL.") }
        guard propertyCount >= 0, size >= 0 else { throw CairnError(.invalidArgument, "property_count and size must not be negative.") }
        let classIndex = try db.classIndex(cString: className)
        let count = try db.createMany(classIndex: classIndex, propertyIndices: try indices(propertyIndices, propertyCount),
                                      marshal: UnsafeRawBufferPointer(start: data, count: size), update: try updateMode(mode))
        outCount?.pointee = Int64(count)
        return CAIRN_OK_
    }
}
