import DrumlinEngine
import CDrumlinHeader

// The exports of drumlin.h's section "Sets".

@_cdecl("drumlin_object_get_set")
public func drumlin_object_get_set(_ object: OpaquePointer?, _ propertyName: UnsafePointer<CChar>?,
                                 _ outSet: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    openCollection(object, propertyName, outSet) { (object, name) throws(DrumlinError) in try MutableSet(object, name) }
}

@_cdecl("drumlin_set_release")
public func drumlin_set_release(_ set: OpaquePointer?) { release(set) }

@_cdecl("drumlin_set_size")
public func drumlin_set_size(_ set: OpaquePointer?, _ outSize: UnsafeMutablePointer<Int>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let (_, accessor) = try collectionHandle(set, MutableSet.self, "set")
        guard let outSize else { throw misuse("out_size must not be NULL.") }
        outSize.pointee = try accessor.count
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_set_get")
public func drumlin_set_get(_ set: OpaquePointer?, _ index: Int, _ outValue: UnsafeMutablePointer<drumlin_value>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let (handle, accessor) = try collectionHandle(set, MutableSet.self, "set")
        guard let outValue else { throw misuse("out_value must not be NULL.") }
        try store(try accessor.value(at: index), into: outValue, borrowing: handle)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_set_find")
public func drumlin_set_find(_ set: OpaquePointer?, _ value: UnsafePointer<drumlin_value>?, _ outFound: UnsafeMutablePointer<Int32>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let (_, accessor) = try collectionHandle(set, MutableSet.self, "set")
        guard let outFound else { throw misuse("out_found must not be NULL.") }
        outFound.pointee = try accessor.contains(try DrumlinC.value(from: try required(value, "value"))) ? 1 : 0
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_set_insert")
public func drumlin_set_insert(_ set: OpaquePointer?, _ value: UnsafePointer<drumlin_value>?, _ outInserted: UnsafeMutablePointer<Int32>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let (_, accessor) = try collectionHandle(set, MutableSet.self, "set")
        let inserted = try accessor.insert(try DrumlinC.value(from: try required(value, "value")))
        outInserted?.pointee = inserted ? 1 : 0
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_set_insert_json")
public func drumlin_set_insert_json(_ set: OpaquePointer?, _ valueJSON: UnsafePointer<CChar>?, _ outInserted: UnsafeMutablePointer<Int32>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let (_, accessor) = try collectionHandle(set, MutableSet.self, "set")
        let inserted = try accessor.insert(json: try jsonArgument(valueJSON, "value_json"))
        outInserted?.pointee = inserted ? 1 : 0
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_set_insert_many_json")
public func drumlin_set_insert_many_json(_ set: OpaquePointer?, _ arrayJSON: UnsafePointer<CChar>?, _ outInserted: UnsafeMutablePointer<Int>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let (_, accessor) = try collectionHandle(set, MutableSet.self, "set")
        guard case .array(let items) = try jsonArgument(arrayJSON, "array_json") else {
            throw DrumlinError(.invalidArgument, "array_json must be a JSON array.")
        }
        let inserted = try accessor.insert(json: items)
        outInserted?.pointee = inserted
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_set_erase")
public func drumlin_set_erase(_ set: OpaquePointer?, _ value: UnsafePointer<drumlin_value>?, _ outErased: UnsafeMutablePointer<Int32>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let (_, accessor) = try collectionHandle(set, MutableSet.self, "set")
        let erased = try accessor.remove(try DrumlinC.value(from: try required(value, "value")))
        outErased?.pointee = erased ? 1 : 0
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_set_clear")
public func drumlin_set_clear(_ set: OpaquePointer?) -> Int32 {
    capi { () throws(DrumlinError) in
        let (_, accessor) = try collectionHandle(set, MutableSet.self, "set")
        try accessor.removeAll()
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_set_to_json")
public func drumlin_set_to_json(_ set: OpaquePointer?, _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outJSON?.pointee = nil
        let (_, accessor) = try collectionHandle(set, MutableSet.self, "set")
        guard let outJSON else { throw misuse("out_json must not be NULL.") }
        outJSON.pointee = try mallocString(try jsonText(accessor))
        return DRUMLIN_OK
    }
}
