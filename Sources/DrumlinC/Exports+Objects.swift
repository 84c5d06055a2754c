import DrumlinEngine
import CDrumlinHeader

// The exports of drumlin.h's section "Objects (typed layer)".

@_cdecl("drumlin_object_create")
public func drumlin_object_create(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?, _ count: Int,
                                _ propertyIndices: UnsafePointer<Int32>?, _ values: UnsafePointer<drumlin_value>?,
                                _ mode: Int32, _ outObject: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outObject?.pointee = nil
        let db = try database(db)
        guard let className else { throw misuse("class_name must not be NULL.") }
        let classIndex = try db.classIndex(cString: className)
        guard count >= 0 else { throw DrumlinError(.invalidArgument, "count must not be negative.") }
        let given = zip(try indices(propertyIndices, count), try DrumlinC.values(values, count)).map { (index: $0, value: $1) }
        let object = try db.create(classIndex: classIndex, values: given, update: try updateMode(mode))
        outObject?.pointee = newObjectHandle(object)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_object_create_json")
public func drumlin_object_create_json(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?, _ objectJSON: UnsafePointer<CChar>?,
                                     _ mode: Int32, _ outObject: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outObject?.pointee = nil
        guard let outObject else { throw misuse("out_object must not be NULL.") }
        let db = try database(db)
        let name = try string(className, "class_name")
        let payload = try jsonArgument(objectJSON, "object_json")
        outObject.pointee = newObjectHandle(try db.create(name, json: payload, update: try updateMode(mode)))
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_object_find")
public func drumlin_object_find(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?,
                              _ primaryKey: UnsafePointer<drumlin_value>?, _ outObject: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outObject else { throw misuse("out_object must not be NULL.") }
        outObject.pointee = nil
        let db = try database(db)
        guard let className else { throw misuse("class_name must not be NULL.") }
        guard let primaryKey else { throw misuse("primary_key must not be NULL.") }
        let classIndex = try db.classIndex(cString: className)
        guard let object = try db.object(classIndex: classIndex, primaryKey: try value(from: primaryKey.pointee)) else { return DRUMLIN_NOT_FOUND }
        outObject.pointee = newObjectHandle(object)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_object_find_values")
public func drumlin_object_find_values(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?, _ primaryKey: UnsafePointer<drumlin_value>?,
                                     _ count: Int, _ propertyIndices: UnsafePointer<Int32>?, _ outValues: UnsafeMutablePointer<drumlin_value>?,
                                     _ outObject: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outObject?.pointee = nil
        let handle = try databaseHandle(db)
        let db = handle.database
        if db.isClosed { throw misuse("The database is closed.") }
        guard let className else { throw misuse("class_name must not be NULL.") }
        guard let primaryKey else { throw misuse("primary_key must not be NULL.") }
        guard count >= 0 else { throw DrumlinError(.invalidArgument, "count must not be negative.") }
        guard count == 0 || outValues != nil else { throw misuse("out_values must not be NULL when count is not 0.") }
        let classIndex = try db.classIndex(cString: className)
        let found = try db.visitObjectRow(classIndex: classIndex, primaryKey: try value(from: primaryKey.pointee),
                                          propertyIndices: try indices(propertyIndices, count)) { (row) throws(DrumlinError) in
            if let outObject {
                let objectHandle = ObjectHandle(row.object)
                if let outValues {
                    try row.forEach { (i, value) throws(DrumlinError) in try store(value, into: outValues + i, borrowing: objectHandle) }
                }
                outObject.pointee = retained(objectHandle)
            } else if let outValues {
                try handle.borrowGuard.withLock { (_: inout Int) throws(DrumlinError) in
                    handle.releaseBorrowed()
                    try row.forEach { (i, value) throws(DrumlinError) in try store(value, into: outValues + i, borrowing: handle) }
                }
            }
        }
        return found ? DRUMLIN_OK : DRUMLIN_NOT_FOUND
    }
}

@_cdecl("drumlin_object_find_marshal")
public func drumlin_object_find_marshal(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?, _ primaryKey: UnsafePointer<drumlin_value>?,
                                      _ count: Int, _ propertyIndices: UnsafePointer<Int32>?, _ buffer: UnsafeMutableRawPointer?,
                                      _ capacity: Int, _ outSize: UnsafeMutablePointer<Int>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let outSize = try packedOutput(count, buffer, capacity, outSize)
        let db = try database(db)
        guard let className else { throw misuse("class_name must not be NULL.") }
        guard let primaryKey else { throw misuse("primary_key must not be NULL.") }
        let classIndex = try db.classIndex(cString: className)
        let indices = try indices(propertyIndices, count)
        var writer = MarshalWriter(into: buffer, capacity: capacity)
        let found = try db.visitObjectRow(classIndex: classIndex, primaryKey: try value(from: primaryKey.pointee),
                                          propertyIndices: indices) { (row) throws(DrumlinError) in
            var names = PackedNames()
            try packValues(row, names: &names, into: &writer)
        }
        guard found else { return DRUMLIN_NOT_FOUND }
        finishPacked(writer, outSize)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_object_update_values")
public func drumlin_object_update_values(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?, _ primaryKey: UnsafePointer<drumlin_value>?,
                                       _ count: Int, _ propertyIndices: UnsafePointer<Int32>?, _ values: UnsafePointer<drumlin_value>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let db = try database(db)
        guard let className else { throw misuse("class_name must not be NULL.") }
        guard let primaryKey else { throw misuse("primary_key must not be NULL.") }
        guard count >= 0 else { throw DrumlinError(.invalidArgument, "count must not be negative.") }
        guard count == 0 || values != nil else { throw misuse("values must not be NULL when count is not 0.") }
        let classIndex = try db.classIndex(cString: className)
        let found = try db.updateValues(classIndex: classIndex, primaryKey: try value(from: primaryKey.pointee),
                                        propertyIndices: try indices(propertyIndices, count)) { (position) throws(DrumlinError) in
            guard let values else { return .null }
            return try borrowed(from: values[position])
        }
        return found ? DRUMLIN_OK : DRUMLIN_NOT_FOUND
    }
}

@_cdecl("drumlin_object_find_by_key")
public func drumlin_object_find_by_key(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?, _ key: Int64,
                                     _ outObject: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outObject else { throw misuse("out_object must not be NULL.") }
        outObject.pointee = nil
        let db = try database(db)
        guard let object = try db.object(try string(className, "class_name"), key: key) else { return DRUMLIN_NOT_FOUND }
        outObject.pointee = newObjectHandle(object)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_object_release")
public func drumlin_object_release(_ object: OpaquePointer?) {
    guard let object else { return }
    Unmanaged<ObjectHandle>.fromOpaque(UnsafeRawPointer(object)).release()
}

@_cdecl("drumlin_object_key")
public func drumlin_object_key(_ object: OpaquePointer?, _ outKey: UnsafeMutablePointer<Int64>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outKey else { throw misuse("out_key must not be NULL.") }
        outKey.pointee = try objectHandle(object).object.key
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_object_class_index")
public func drumlin_object_class_index(_ object: OpaquePointer?, _ outIndex: UnsafeMutablePointer<Int32>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outIndex else { throw misuse("out_class_index must not be NULL.") }
        outIndex.pointee = Int32(try objectHandle(object).object.classIndex)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_object_is_valid")
public func drumlin_object_is_valid(_ object: OpaquePointer?, _ outValid: UnsafeMutablePointer<Int32>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outValid else { throw misuse("out_valid must not be NULL.") }
        outValid.pointee = try objectHandle(object).object.isValid ? 1 : 0
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_object_get")
public func drumlin_object_get(_ object: OpaquePointer?, _ propertyName: UnsafePointer<CChar>?,
                             _ outValue: UnsafeMutablePointer<drumlin_value>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let handle = try objectHandle(object)
        guard let outValue else { throw misuse("out_value must not be NULL.") }
        try store(try handle.object.value(try string(propertyName, "property_name")), into: outValue, borrowing: handle)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_object_get_at")
public func drumlin_object_get_at(_ object: OpaquePointer?, _ propertyIndex: Int32,
                                _ outValue: UnsafeMutablePointer<drumlin_value>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let handle = try objectHandle(object)
        guard let outValue else { throw misuse("out_value must not be NULL.") }
        try store(try handle.object.value(at: Int(propertyIndex)), into: outValue, borrowing: handle)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_object_get_values")
public func drumlin_object_get_values(_ object: OpaquePointer?, _ count: Int, _ propertyIndices: UnsafePointer<Int32>?,
                                    _ outValues: UnsafeMutablePointer<drumlin_value>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let handle = try objectHandle(object)
        guard count >= 0 else { throw DrumlinError(.invalidArgument, "count must not be negative.") }
        if count == 0 { return DRUMLIN_OK }
        guard let outValues else { throw misuse("out_values must not be NULL when count is not 0.") }
        let read = try handle.object.values(at: try indices(propertyIndices, count))
        for (i, value) in read.enumerated() { try store(value, into: outValues + i, borrowing: handle) }
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_object_get_marshal")
public func drumlin_object_get_marshal(_ object: OpaquePointer?, _ count: Int, _ propertyIndices: UnsafePointer<Int32>?,
                                     _ buffer: UnsafeMutableRawPointer?, _ capacity: Int, _ outSize: UnsafeMutablePointer<Int>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let handle = try objectHandle(object)
        let outSize = try packedOutput(count, buffer, capacity, outSize)
        let object = handle.object
        let indices = try indices(propertyIndices, count)
        var writer = MarshalWriter(into: buffer, capacity: capacity)
        try object.visitRow(indices) { (row) throws(DrumlinError) in
            var names = PackedNames()
            try packValues(row, names: &names, into: &writer)
        }
        finishPacked(writer, outSize)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_object_read_marshal")
public func drumlin_object_read_marshal(_ db: OpaquePointer?, _ classIndex: Int32, _ key: Int64, _ count: Int,
                                       _ propertyIndices: UnsafePointer<Int32>?, _ buffer: UnsafeMutableRawPointer?,
                                       _ capacity: Int, _ outSize: UnsafeMutablePointer<Int>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let outSize = try packedOutput(count, buffer, capacity, outSize)
        let db = try database(db)
        let indices = try indices(propertyIndices, count)
        var writer = MarshalWriter(into: buffer, capacity: capacity)
        try db.visitValues(classIndex: Int(classIndex), key: key, propertyIndices: indices) { (row) throws(DrumlinError) in
            var names = PackedNames()
            try packValues(row, names: &names, into: &writer)
        }
        finishPacked(writer, outSize)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_object_set")
public func drumlin_object_set(_ object: OpaquePointer?, _ propertyName: UnsafePointer<CChar>?,
                             _ value: UnsafePointer<drumlin_value>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let handle = try objectHandle(object)
        guard let value else { throw misuse("value must not be NULL.") }
        try handle.object.set(try string(propertyName, "property_name"), to: try DrumlinC.value(from: value.pointee))
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_object_set_at")
public func drumlin_object_set_at(_ object: OpaquePointer?, _ propertyIndex: Int32, _ value: UnsafePointer<drumlin_value>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let handle = try objectHandle(object)
        guard let value else { throw misuse("value must not be NULL.") }
        try handle.object.set(at: Int(propertyIndex), to: try DrumlinC.value(from: value.pointee))
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_object_set_values")
public func drumlin_object_set_values(_ object: OpaquePointer?, _ count: Int, _ propertyIndices: UnsafePointer<Int32>?,
                                    _ values: UnsafePointer<drumlin_value>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let handle = try objectHandle(object)
        guard count >= 0 else { throw DrumlinError(.invalidArgument, "count must not be negative.") }
        let given = zip(try indices(propertyIndices, count), try DrumlinC.values(values, count)).map { (index: $0, value: $1) }
        try handle.object.setValues(given)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_object_update_json")
public func drumlin_object_update_json(_ object: OpaquePointer?, _ objectJSON: UnsafePointer<CChar>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let handle = try objectHandle(object)
        try handle.object.update(json: try jsonArgument(objectJSON, "object_json"))
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_object_to_json")
public func drumlin_object_to_json(_ object: OpaquePointer?, _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outJSON?.pointee = nil
        let handle = try objectHandle(object)
        guard let outJSON else { throw misuse("out_json must not be NULL.") }
        outJSON.pointee = try mallocString(try handle.object.jsonText())
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_object_delete")
public func drumlin_object_delete(_ object: OpaquePointer?) -> Int32 {
    capi { () throws(DrumlinError) in
        try objectHandle(object).object.delete()
        return DRUMLIN_OK
    }
}
