import DrumlinEngine
import CDrumlinHeader

// The exports of drumlin.h's section "Links".

@_cdecl("drumlin_object_get_linked")
public func drumlin_object_get_linked(_ object: OpaquePointer?, _ propertyName: UnsafePointer<CChar>?,
                                    _ outObject: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outObject?.pointee = nil
        let handle = try objectHandle(object)
        guard let outObject else { throw misuse("out_object must not be NULL.") }
        guard let linked = try handle.object.linkedObject(try string(propertyName, "property_name")) else { return DRUMLIN_NOT_FOUND }
        outObject.pointee = newObjectHandle(linked)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_object_set_link")
public func drumlin_object_set_link(_ object: OpaquePointer?, _ propertyName: UnsafePointer<CChar>?, _ target: OpaquePointer?) -> Int32 {
    capi { () throws(DrumlinError) in
        let handle = try objectHandle(object)
        let name = try string(propertyName, "property_name")
        var value = Value.null
        if let target {
            let targetObject = try objectHandle(target).object
            value = .link(ObjectLink(classIndex: targetObject.classIndex, key: targetObject.key))
        }
        try handle.object.set(name, to: value)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_object_to_json_depth")
public func drumlin_object_to_json_depth(_ object: OpaquePointer?, _ depth: Int32,
                                       _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outJSON?.pointee = nil
        let handle = try objectHandle(object)
        guard let outJSON else { throw misuse("out_json must not be NULL.") }
        guard depth >= 0 else { throw DrumlinError(.invalidArgument, "depth must not be negative, got \(depth).") }
        outJSON.pointee = try mallocString(try handle.object.jsonText(depth: Int(depth)))
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_object_get_backlinks")
public func drumlin_object_get_backlinks(_ object: OpaquePointer?, _ propertyName: UnsafePointer<CChar>?,
                                       _ outResults: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outResults?.pointee = nil
        let handle = try objectHandle(object)
        guard let outResults else { throw misuse("out_results must not be NULL.") }
        let results = try handle.object.backlinks(try string(propertyName, "property_name"))
        outResults.pointee = retained(ResultsHandle(results))
        return DRUMLIN_OK
    }
}
