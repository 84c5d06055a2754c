import DrumlinEngine
import CDrumlinHeader
#if canImport(Glibc)
import Glibc
#endif

// The exports of drumlin.h's section "JSON layer".

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

@_cdecl("drumlin_query_json")
public func drumlin_query_json(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?, _ query: UnsafePointer<CChar>?,
                             _ argsJSON: UnsafePointer<CChar>?, _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outJSON?.pointee = nil
        guard let outJSON else { throw misuse("out_json must not be NULL.") }
        let db = try database(db)
        guard query != nil else { throw misuse("query must not be NULL (use \"TRUEPREDICATE\" for all objects).") }
        outJSON.pointee = try mallocString(try results(db, className, query, argsJSON).jsonText())
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_count")
public func drumlin_count(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?, _ query: UnsafePointer<CChar>?,
                        _ argsJSON: UnsafePointer<CChar>?, _ outCount: UnsafeMutablePointer<Int64>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outCount?.pointee = 0
        guard let outCount else { throw misuse("out_count must not be NULL.") }
        let db = try database(db)
        if query == nil {
            if argsJSON != nil { _ = try queryArguments(db, argsJSON) }
            outCount.pointee = Int64(try db.count(try string(className, "class_name")))
        } else {
            outCount.pointee = Int64(try results(db, className, query, argsJSON).count)
        }
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_delete_where")
public func drumlin_delete_where(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?, _ query: UnsafePointer<CChar>?,
                               _ argsJSON: UnsafePointer<CChar>?, _ outDeleted: UnsafeMutablePointer<Int64>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outDeleted?.pointee = 0
        let db = try database(db)
        guard query != nil else { throw misuse("query must not be NULL (use \"TRUEPREDICATE\" to delete every object).") }
        let deleted = try results(db, className, query, argsJSON).deleteAll()
        outDeleted?.pointee = Int64(deleted)
        return DRUMLIN_OK
    }
}
