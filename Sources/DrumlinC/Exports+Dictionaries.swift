import DrumlinEngine
import CDrumlinHeader

// The exports of drumlin.h's section "Dictionaries".

@_cdecl("drumlin_object_get_dict")
public func drumlin_object_get_dict(_ object: OpaquePointer?, _ propertyName: UnsafePointer<CChar>?,
                                  _ outDict: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    openCollection(object, propertyName, outDict) { (object, name) throws(DrumlinError) in try Map(object, name) }
}

@_cdecl("drumlin_dict_release")
public func drumlin_dict_release(_ dict: OpaquePointer?) { release(dict) }

@_cdecl("drumlin_dict_size")
public func drumlin_dict_size(_ dict: OpaquePointer?, _ outSize: UnsafeMutablePointer<Int>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let (_, accessor) = try collectionHandle(dict, Map.self, "dictionary")
        guard let outSize else { throw misuse("out_size must not be NULL.") }
        outSize.pointee = try accessor.count
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_dict_get")
public func drumlin_dict_get(_ dict: OpaquePointer?, _ index: Int, _ outKey: UnsafeMutablePointer<drumlin_value>?,
                           _ outValue: UnsafeMutablePointer<drumlin_value>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let (handle, accessor) = try collectionHandle(dict, Map.self, "dictionary")
        guard let outKey, let outValue else { throw misuse("out_key and out_value must not be NULL.") }
        let entries = try accessor.entries
        guard index >= 0, index < entries.count else {
            throw DrumlinError(.invalidArgument, "Index \(index) is out of bounds for a dictionary of size \(entries.count).")
        }
        try store(.string(entries[index].key), into: outKey, borrowing: handle)
        try store(entries[index].value, into: outValue, borrowing: handle)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_dict_find")
public func drumlin_dict_find(_ dict: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ outValue: UnsafeMutablePointer<drumlin_value>?,
                            _ outFound: UnsafeMutablePointer<Int32>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let (handle, accessor) = try collectionHandle(dict, Map.self, "dictionary")
        guard let outValue, let outFound else { throw misuse("out_value and out_found must not be NULL.") }
        outFound.pointee = 0
        if let value = try accessor.value(forKey: try string(key, "key")) {
            try store(value, into: outValue, borrowing: handle)
            outFound.pointee = 1
        }
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_dict_insert")
public func drumlin_dict_insert(_ dict: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: UnsafePointer<drumlin_value>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let (_, accessor) = try collectionHandle(dict, Map.self, "dictionary")
        try accessor.set(try DrumlinC.value(from: try required(value, "value")), forKey: try string(key, "key"))
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_dict_insert_json")
public func drumlin_dict_insert_json(_ dict: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ valueJSON: UnsafePointer<CChar>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let (_, accessor) = try collectionHandle(dict, Map.self, "dictionary")
        try accessor.set(json: try jsonArgument(valueJSON, "value_json"), forKey: try string(key, "key"))
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_dict_insert_many_json")
public func drumlin_dict_insert_many_json(_ dict: OpaquePointer?, _ objectJSON: UnsafePointer<CChar>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let (_, accessor) = try collectionHandle(dict, Map.self, "dictionary")
        guard case .object(let members) = try jsonArgument(objectJSON, "object_json") else {
            throw DrumlinError(.invalidArgument, "object_json must be a JSON object.")
        }
        try accessor.set(json: members.map { (key: $0.key, value: $0.value) })
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_dict_erase")
public func drumlin_dict_erase(_ dict: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ outErased: UnsafeMutablePointer<Int32>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let (_, accessor) = try collectionHandle(dict, Map.self, "dictionary")
        let erased = try accessor.removeValue(forKey: try string(key, "key"))
        outErased?.pointee = erased ? 1 : 0
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_dict_clear")
public func drumlin_dict_clear(_ dict: OpaquePointer?) -> Int32 {
    capi { () throws(DrumlinError) in
        let (_, accessor) = try collectionHandle(dict, Map.self, "dictionary")
        try accessor.removeAll()
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_dict_to_json")
public func drumlin_dict_to_json(_ dict: OpaquePointer?, _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outJSON?.pointee = nil
        let (_, accessor) = try collectionHandle(dict, Map.self, "dictionary")
        guard let outJSON else { throw misuse("out_json must not be NULL.") }
        outJSON.pointee = try mallocString(try jsonText(accessor))
        return DRUMLIN_OK
    }
}
