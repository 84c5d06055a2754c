import DrumlinEngine
import CDrumlinHeader

// The exports of drumlin.h's section "Lists".

@_cdecl("drumlin_object_get_list")
public func drumlin_object_get_list(_ object: OpaquePointer?, _ propertyName: UnsafePointer<CChar>?,
                                  _ outList: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    openCollection(object, propertyName, outList) { (object, name) throws(DrumlinError) in try List(object, name) }
}

@_cdecl("drumlin_list_release")
public func drumlin_list_release(_ list: OpaquePointer?) { release(list) }

@_cdecl("drumlin_list_size")
public func drumlin_list_size(_ list: OpaquePointer?, _ outSize: UnsafeMutablePointer<Int>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let (_, accessor) = try collectionHandle(list, List.self, "list")
        guard let outSize else { throw misuse("out_size must not be NULL.") }
        outSize.pointee = try accessor.count
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_list_get")
public func drumlin_list_get(_ list: OpaquePointer?, _ index: Int, _ outValue: UnsafeMutablePointer<drumlin_value>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let (handle, accessor) = try collectionHandle(list, List.self, "list")
        guard let outValue else { throw misuse("out_value must not be NULL.") }
        try store(try accessor.value(at: index), into: outValue, borrowing: handle)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_list_get_object")
public func drumlin_list_get_object(_ list: OpaquePointer?, _ index: Int, _ outObject: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outObject?.pointee = nil
        let (_, accessor) = try collectionHandle(list, List.self, "list")
        guard let outObject else { throw misuse("out_object must not be NULL.") }
        guard case .link(let link) = try accessor.value(at: index) else {
            throw DrumlinError(.typeMismatch, "List '\(accessor.object.className).\(accessor.property.name)' does not hold objects.")
        }
        guard let target = try accessor.object.database.object(link) else { throw DrumlinError(.invalidatedObject, "The linked object was deleted.") }
        outObject.pointee = newObjectHandle(target)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_list_insert")
public func drumlin_list_insert(_ list: OpaquePointer?, _ index: Int, _ value: UnsafePointer<drumlin_value>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let (_, accessor) = try collectionHandle(list, List.self, "list")
        try accessor.insert(try DrumlinC.value(from: try required(value, "value")), at: index)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_list_insert_json")
public func drumlin_list_insert_json(_ list: OpaquePointer?, _ index: Int, _ valueJSON: UnsafePointer<CChar>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let (_, accessor) = try collectionHandle(list, List.self, "list")
        try accessor.insert(json: try jsonArgument(valueJSON, "value_json"), at: index)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_list_set")
public func drumlin_list_set(_ list: OpaquePointer?, _ index: Int, _ value: UnsafePointer<drumlin_value>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let (_, accessor) = try collectionHandle(list, List.self, "list")
        try accessor.set(try DrumlinC.value(from: try required(value, "value")), at: index)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_list_insert_many_json")
public func drumlin_list_insert_many_json(_ list: OpaquePointer?, _ index: Int, _ arrayJSON: UnsafePointer<CChar>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let (_, accessor) = try collectionHandle(list, List.self, "list")
        guard case .array(let items) = try jsonArgument(arrayJSON, "array_json") else {
            throw DrumlinError(.invalidArgument, "array_json must be a JSON array.")
        }
        try accessor.insert(json: items, at: index)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_list_set_json")
public func drumlin_list_set_json(_ list: OpaquePointer?, _ index: Int, _ valueJSON: UnsafePointer<CChar>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let (_, accessor) = try collectionHandle(list, List.self, "list")
        try accessor.set(json: try jsonArgument(valueJSON, "value_json"), at: index)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_list_move")
public func drumlin_list_move(_ list: OpaquePointer?, _ from: Int, _ to: Int) -> Int32 {
    capi { () throws(DrumlinError) in
        let (_, accessor) = try collectionHandle(list, List.self, "list")
        try accessor.move(from: from, to: to)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_list_erase")
public func drumlin_list_erase(_ list: OpaquePointer?, _ index: Int) -> Int32 {
    capi { () throws(DrumlinError) in
        let (_, accessor) = try collectionHandle(list, List.self, "list")
        try accessor.remove(at: index)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_list_clear")
public func drumlin_list_clear(_ list: OpaquePointer?) -> Int32 {
    capi { () throws(DrumlinError) in
        let (_, accessor) = try collectionHandle(list, List.self, "list")
        try accessor.removeAll()
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_list_find")
public func drumlin_list_find(_ list: OpaquePointer?, _ value: UnsafePointer<drumlin_value>?, _ outIndex: UnsafeMutablePointer<Int>?,
                            _ outFound: UnsafeMutablePointer<Int32>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let (_, accessor) = try collectionHandle(list, List.self, "list")
        guard let outIndex, let outFound else { throw misuse("out_index and out_found must not be NULL.") }
        outFound.pointee = 0
        if let index = try accessor.firstIndex(of: try DrumlinC.value(from: try required(value, "value"))) {
            outIndex.pointee = index
            outFound.pointee = 1
        }
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_list_to_json")
public func drumlin_list_to_json(_ list: OpaquePointer?, _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outJSON?.pointee = nil
        let (_, accessor) = try collectionHandle(list, List.self, "list")
        guard let outJSON else { throw misuse("out_json must not be NULL.") }
        outJSON.pointee = try mallocString(try jsonText(accessor))
        return DRUMLIN_OK
    }
}
