import DrumlinEngine
import CDrumlinHeader

// MARK: Links and backlinks

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

// MARK: Results

@_cdecl("drumlin_results_release")
public func drumlin_results_release(_ results: OpaquePointer?) { release(results) }

@_cdecl("drumlin_results_count")
public func drumlin_results_count(_ results: OpaquePointer?, _ outCount: UnsafeMutablePointer<Int>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let handle = try resultsHandle(results)
        guard let outCount else { throw misuse("out_count must not be NULL.") }
        outCount.pointee = try handle.results.count
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_results_get_object")
public func drumlin_results_get_object(_ results: OpaquePointer?, _ index: Int,
                                     _ outObject: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outObject?.pointee = nil
        let handle = try resultsHandle(results)
        guard let outObject else { throw misuse("out_object must not be NULL.") }
        outObject.pointee = newObjectHandle(try handle.results.object(at: index))
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_results_to_json")
public func drumlin_results_to_json(_ results: OpaquePointer?, _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outJSON?.pointee = nil
        let handle = try resultsHandle(results)
        guard let outJSON else { throw misuse("out_json must not be NULL.") }
        outJSON.pointee = try mallocString(try handle.results.jsonText())
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_results_get_values")
public func drumlin_results_get_values(_ results: OpaquePointer?, _ start: Int, _ maxRows: Int, _ count: Int,
                                     _ propertyIndices: UnsafePointer<Int32>?, _ outValues: UnsafeMutablePointer<drumlin_value>?,
                                     _ outRows: UnsafeMutablePointer<Int>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outRows else { throw misuse("out_rows must not be NULL.") }
        outRows.pointee = 0
        let handle = try resultsHandle(results)
        guard start >= 0, maxRows >= 0, count >= 0 else {
            throw DrumlinError(.invalidArgument, "start, max_rows and count must not be negative.")
        }
        guard maxRows == 0 || count == 0 || outValues != nil else {
            throw misuse("out_values must not be NULL when max_rows and count are not 0.")
        }
        guard count == 0 || maxRows <= Int.max / count else {
            throw DrumlinError(.invalidArgument, "max_rows * count does not fit in memory.")
        }
        let indices = try indices(propertyIndices, count)
        var rows = 0
        let read = try handle.results.forEachRow(from: start, maxRows: maxRows, indices) { (row) throws(DrumlinError) in
            if let outValues {
                let first = outValues + rows * count
                try row.forEach { (i, value) throws(DrumlinError) in try store(value, into: first + i, borrowing: handle) }
            }
            rows += 1
        }
        outRows.pointee = read
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_results_get_marshal")
public func drumlin_results_get_marshal(_ results: OpaquePointer?, _ count: Int, _ propertyIndices: UnsafePointer<Int32>?,
                                      _ buffer: UnsafeMutableRawPointer?, _ capacity: Int, _ outSize: UnsafeMutablePointer<Int>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let handle = try resultsHandle(results)
        let outSize = try packedOutput(count, buffer, capacity, outSize)
        let results = handle.results
        let indices = try indices(propertyIndices, count)
        var writer = MarshalWriter(into: buffer, capacity: capacity)
        try packRows(results, indices, into: &writer)
        finishPacked(writer, outSize)
        return DRUMLIN_OK
    }
}

// MARK: Shared helpers

private func openCollection<T: CollectionAccessor>(_ object: OpaquePointer?, _ propertyName: UnsafePointer<CChar>?,
                                                   _ out: UnsafeMutablePointer<OpaquePointer?>?,
                                                   _ make: (Object, String) throws(DrumlinError) -> T) -> Int32 {
    capi { () throws(DrumlinError) in
        out?.pointee = nil
        let handle = try objectHandle(object)
        guard let out else { throw misuse("The out handle must not be NULL.") }
        out.pointee = retained(CollectionHandle(try make(handle.object, try string(propertyName, "property_name"))))
        return DRUMLIN_OK
    }
}

private func required<T>(_ pointer: UnsafePointer<T>?, _ name: String) throws(DrumlinError) -> T {
    guard let pointer else { throw misuse("\(name) must not be NULL.") }
    return pointer.pointee
}

private func jsonText(_ accessor: CollectionAccessor) throws(DrumlinError) -> String {
    var writer = JSONWriter()
    if let map = accessor as? Map {
        writer.writeByte(UInt8(ascii: "{"))
        for (i, entry) in try map.entries.enumerated() {
            if i > 0 { writer.writeByte(UInt8(ascii: ",")) }
            writer.writeString(entry.key)
            writer.writeByte(UInt8(ascii: ":"))
            writer.writeRaw(try elementJSON(entry.value, accessor))
        }
        writer.writeByte(UInt8(ascii: "}"))
    } else {
        writer.writeByte(UInt8(ascii: "["))
        for (i, value) in try accessor.values.enumerated() {
            if i > 0 { writer.writeByte(UInt8(ascii: ",")) }
            writer.writeRaw(try elementJSON(value, accessor))
        }
        writer.writeByte(UInt8(ascii: "]"))
    }
    return writer.string
}

/// Elements print like object properties: links as the target object's JSON when embedded,
/// else the target's primary key (object key without one).
private func elementJSON(_ value: Value, _ accessor: CollectionAccessor) throws(DrumlinError) -> String {
    // A mixed element holding a link prints as {"$link": {"class": ..., "key": ...}}.
    if accessor.property.type == .mixed { return accessor.object.database.mixedJSON(value) }
    guard case .link(let link) = value, let target = try accessor.object.database.object(link) else { return value.extendedJSON }
    if target.objectSchema.kind == .embedded { return try target.jsonText() }
    return try target.primaryKey.map { $0.extendedJSON } ?? String(target.key)
}

// MARK: Lists

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

// MARK: Sets

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

// MARK: Dictionaries

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

// MARK: Nested mixed values

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
