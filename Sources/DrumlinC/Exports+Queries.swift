import DrumlinEngine
import CDrumlinHeader

/// Query arguments: a JSON array (NULL for none).
func queryArguments(_ db: Database, _ argsJSON: UnsafePointer<CChar>?) throws(DrumlinError) -> [Value] {
    guard argsJSON != nil else { return [] }
    guard case .array(let items) = try jsonArgument(argsJSON, "args_json") else {
        throw DrumlinError(.invalidArgument, "args_json must be a JSON array of the query's arguments.")
    }
    return try db.queryArguments(extendedJSON: items)
}

func results(_ db: Database, _ className: UnsafePointer<CChar>?, _ query: UnsafePointer<CChar>?,
             _ argsJSON: UnsafePointer<CChar>?) throws(DrumlinError) -> Results {
    let all = try db.objects(try string(className, "class_name"))
    guard query != nil else {
        if argsJSON != nil { _ = try queryArguments(db, argsJSON) }
        return all
    }
    return try all.filter(try string(query, "query"), try queryArguments(db, argsJSON))
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

@_cdecl("drumlin_query_marshal")
public func drumlin_query_marshal(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?, _ query: UnsafePointer<CChar>?,
                                _ argsJSON: UnsafePointer<CChar>?, _ count: Int, _ propertyIndices: UnsafePointer<Int32>?,
                                _ buffer: UnsafeMutableRawPointer?, _ capacity: Int, _ outSize: UnsafeMutablePointer<Int>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let outSize = try packedOutput(count, buffer, capacity, outSize)
        let db = try database(db)
        let indices = try indices(propertyIndices, count)
        var writer = MarshalWriter(into: buffer, capacity: capacity)
        // A query run before with arguments of the same types: its rows straight from the shared
        // statement. Anything else (and every error) takes the general path.
        if let className, let query, let classIndex = try? db.classIndex(cString: className),
           let text = try? string(query, "query"), let arguments = try? queryArguments(db, argsJSON) {
            let read = try packRows(into: &writer, indices) { (visit) throws(DrumlinError) -> Bool in
                try db.visitTemplateRows(classIndex: classIndex, text: text, arguments: arguments,
                                         propertyIndices: indices, visit)
            }
            if read {
                finishPacked(writer, outSize)
                return DRUMLIN_OK
            }
            writer = MarshalWriter(into: buffer, capacity: capacity)
        }
        try packRows(try results(db, className, query, argsJSON), indices, into: &writer)
        finishPacked(writer, outSize)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_query")
public func drumlin_query(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?, _ query: UnsafePointer<CChar>?,
                        _ argsJSON: UnsafePointer<CChar>?, _ outResults: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outResults?.pointee = nil
        guard let outResults else { throw misuse("out_results must not be NULL.") }
        let db = try database(db)
        outResults.pointee = retained(ResultsHandle(try results(db, className, query, argsJSON)))
        return DRUMLIN_OK
    }
}

private func derive(_ results: OpaquePointer?, _ outResults: UnsafeMutablePointer<OpaquePointer?>?,
                    _ make: (Results) throws(DrumlinError) -> Results) -> Int32 {
    capi { () throws(DrumlinError) in
        outResults?.pointee = nil
        let handle = try resultsHandle(results)
        guard let outResults else { throw misuse("out_results must not be NULL.") }
        outResults.pointee = retained(ResultsHandle(try make(handle.results)))
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_results_filter")
public func drumlin_results_filter(_ results: OpaquePointer?, _ query: UnsafePointer<CChar>?, _ argsJSON: UnsafePointer<CChar>?,
                                 _ outResults: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    derive(results, outResults) { (base) throws(DrumlinError) in
        try base.filter(try string(query, "query"), try queryArguments(base.database, argsJSON))
    }
}

@_cdecl("drumlin_results_sort")
public func drumlin_results_sort(_ results: OpaquePointer?, _ descriptor: UnsafePointer<CChar>?,
                               _ outResults: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    derive(results, outResults) { (base) throws(DrumlinError) in try base.sorted(by: try string(descriptor, "sort_descriptor")) }
}

@_cdecl("drumlin_results_distinct")
public func drumlin_results_distinct(_ results: OpaquePointer?, _ keyPaths: UnsafePointer<CChar>?,
                                   _ outResults: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    derive(results, outResults) { (base) throws(DrumlinError) in
        let paths = try string(keyPaths, "key_paths").split(separator: ",").map { $0.trimmingSpaces }
        return try base.distinct(paths)
    }
}

@_cdecl("drumlin_results_limit")
public func drumlin_results_limit(_ results: OpaquePointer?, _ limit: Int, _ outResults: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    // The C argument is a size_t: a value past Int.max (SIZE_MAX among them) arrives negative
    // here, and is a limit larger than any result, not an error.
    derive(results, outResults) { (base) throws(DrumlinError) in try base.limit(limit < 0 ? Int.max : limit) }
}

@_cdecl("drumlin_results_snapshot")
public func drumlin_results_snapshot(_ results: OpaquePointer?, _ outResults: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    derive(results, outResults) { (base) throws(DrumlinError) in try base.snapshot() }
}

private func aggregate(_ results: OpaquePointer?, _ property: UnsafePointer<CChar>?, _ outValue: UnsafeMutablePointer<drumlin_value>?,
                       _ op: Results.Aggregate) -> Int32 {
    capi { () throws(DrumlinError) in
        let handle = try resultsHandle(results)
        guard let outValue else { throw misuse("out_value must not be NULL.") }
        try store(try handle.results.aggregate(op, try string(property, "property_name")), into: outValue, borrowing: handle)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_results_min")
public func drumlin_results_min(_ results: OpaquePointer?, _ property: UnsafePointer<CChar>?, _ outValue: UnsafeMutablePointer<drumlin_value>?) -> Int32 {
    aggregate(results, property, outValue, .min)
}

@_cdecl("drumlin_results_max")
public func drumlin_results_max(_ results: OpaquePointer?, _ property: UnsafePointer<CChar>?, _ outValue: UnsafeMutablePointer<drumlin_value>?) -> Int32 {
    aggregate(results, property, outValue, .max)
}

@_cdecl("drumlin_results_sum")
public func drumlin_results_sum(_ results: OpaquePointer?, _ property: UnsafePointer<CChar>?, _ outValue: UnsafeMutablePointer<drumlin_value>?) -> Int32 {
    aggregate(results, property, outValue, .sum)
}

@_cdecl("drumlin_results_average")
public func drumlin_results_average(_ results: OpaquePointer?, _ property: UnsafePointer<CChar>?, _ outValue: UnsafeMutablePointer<drumlin_value>?) -> Int32 {
    aggregate(results, property, outValue, .avg)
}

@_cdecl("drumlin_results_delete_all")
public func drumlin_results_delete_all(_ results: OpaquePointer?, _ outDeleted: UnsafeMutablePointer<Int64>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outDeleted?.pointee = 0
        let handle = try resultsHandle(results)
        outDeleted?.pointee = Int64(try handle.results.deleteAll())
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_list_query")
public func drumlin_list_query(_ list: OpaquePointer?, _ query: UnsafePointer<CChar>?, _ argsJSON: UnsafePointer<CChar>?,
                             _ outResults: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outResults?.pointee = nil
        let (_, accessor) = try collectionHandle(list, List.self, "list")
        guard let outResults else { throw misuse("out_results must not be NULL.") }
        var results = try accessor.results()
        if query != nil { results = try results.filter(try string(query, "query"), try queryArguments(results.database, argsJSON)) }
        outResults.pointee = retained(ResultsHandle(results))
        return DRUMLIN_OK
    }
}

extension Substring {
    var trimmingSpaces: String {
        var s = self
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
