import DrumlinEngine
import CDrumlinHeader

// The exports of drumlin.h's section "Nested mixed values".

private func mixedPath(_ pathJSON: UnsafePointer<CChar>?) throws(DrumlinError) -> [MixedPathComponent] {
    guard case .array(let steps) = try jsonArgument(pathJSON, "path_json") else {
        throw DrumlinError(.invalidArgument, "path_json must be a JSON array of list indexes and dictionary keys.")
    }
    var path: [MixedPathComponent] = []
    for step in steps {
        switch step {
        case .int(let index): path.append(.index(Int(index)))
        case .string(let key): path.append(.key(key))
        default: throw DrumlinError(.invalidArgument, "path_json steps must be integers or strings, got \(step.text).")
        }
    }
    return path
}

@_cdecl("drumlin_object_get_mixed_json")
public func drumlin_object_get_mixed_json(_ object: OpaquePointer?, _ propertyName: UnsafePointer<CChar>?, _ pathJSON: UnsafePointer<CChar>?,
                                        _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outJSON?.pointee = nil
        let handle = try objectHandle(object)
        guard let outJSON else { throw misuse("out_json must not be NULL.") }
        let value = try handle.object.mixedValue(try string(propertyName, "property_name"), at: try mixedPath(pathJSON))
        outJSON.pointee = try mallocString(handle.object.database.mixedJSON(value))
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_object_set_mixed_json")
public func drumlin_object_set_mixed_json(_ object: OpaquePointer?, _ propertyName: UnsafePointer<CChar>?, _ pathJSON: UnsafePointer<CChar>?,
                                        _ valueJSON: UnsafePointer<CChar>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let handle = try objectHandle(object)
        let value = try handle.object.database.mixedValue(extendedJSON: try jsonArgument(valueJSON, "value_json"))
        try handle.object.setMixed(try string(propertyName, "property_name"), at: try mixedPath(pathJSON), to: value)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_object_append_mixed_json")
public func drumlin_object_append_mixed_json(_ object: OpaquePointer?, _ propertyName: UnsafePointer<CChar>?,
                                           _ pathJSON: UnsafePointer<CChar>?, _ valueJSON: UnsafePointer<CChar>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let handle = try objectHandle(object)
        let value = try handle.object.database.mixedValue(extendedJSON: try jsonArgument(valueJSON, "value_json"))
        try handle.object.appendMixed(try string(propertyName, "property_name"), at: try mixedPath(pathJSON), value)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_object_remove_mixed")
public func drumlin_object_remove_mixed(_ object: OpaquePointer?, _ propertyName: UnsafePointer<CChar>?,
                                      _ pathJSON: UnsafePointer<CChar>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let handle = try objectHandle(object)
        try handle.object.removeMixed(try string(propertyName, "property_name"), at: try mixedPath(pathJSON))
        return DRUMLIN_OK
    }
}
