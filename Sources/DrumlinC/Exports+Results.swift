import DrumlinEngine
import CDrumlinHeader

// The exports of drumlin.h's section "Results".

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

@_cdecl("drumlin_results_is_empty")
public func drumlin_results_is_empty(_ results: OpaquePointer?, _ outEmpty: UnsafeMutablePointer<Int32>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let handle = try resultsHandle(results)
        guard let outEmpty else { throw misuse("out_empty must not be NULL.") }
        outEmpty.pointee = try handle.results.isEmpty ? 1 : 0
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

@_cdecl("drumlin_results_get_last")
public func drumlin_results_get_last(_ results: OpaquePointer?, _ outObject: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outObject?.pointee = nil
        let handle = try resultsHandle(results)
        guard let outObject else { throw misuse("out_object must not be NULL.") }
        guard let last = try handle.results.last() else { return DRUMLIN_NOT_FOUND }
        outObject.pointee = newObjectHandle(last)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_results_index_of_key")
public func drumlin_results_index_of_key(_ results: OpaquePointer?, _ key: Int64, _ outIndex: UnsafeMutablePointer<Int64>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outIndex?.pointee = -1
        let handle = try resultsHandle(results)
        guard let outIndex else { throw misuse("out_index must not be NULL.") }
        outIndex.pointee = try handle.results.index(ofKey: key).map { Int64($0) } ?? -1
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
