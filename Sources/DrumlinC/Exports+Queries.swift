import DrumlinEngine
import CDrumlinHeader

// The exports of drumlin.h's section "Queries".

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
