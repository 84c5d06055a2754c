import DrumlinEngine
import CDrumlinHeader
#if canImport(Glibc)
import Glibc
#endif

// The exports of drumlin.h's section "Export, import and maintenance".

/// A C progress callback as the engine's closure: non-zero from C cancels.
private func progressClosure(_ progress: drumlin_progress_fn?, _ userdata: UnsafeMutableRawPointer?) -> Database.TransferProgress? {
    guard let progress else { return nil }
    return { done, total in progress(userdata, done, total) == 0 }
}

@_cdecl("drumlin_export_ndjson")
public func drumlin_export_ndjson(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?, _ path: UnsafePointer<CChar>?,
                                  _ progress: drumlin_progress_fn?, _ userdata: UnsafeMutableRawPointer?,
                                  _ outCount: UnsafeMutablePointer<Int64>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outCount?.pointee = 0
        let db = try database(db)
        let name = try className.map { (pointer) throws(DrumlinError) in try string(pointer, "class_name") }
        let path = try string(path, "path")
        let count = try db.exportNDJSON(to: path, className: name, progress: progressClosure(progress, userdata))
        outCount?.pointee = count
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_import_ndjson")
public func drumlin_import_ndjson(_ db: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ className: UnsafePointer<CChar>?,
                                  _ mode: Int32, _ batchSize: Int64, _ progress: drumlin_progress_fn?,
                                  _ userdata: UnsafeMutableRawPointer?, _ outCount: UnsafeMutablePointer<Int64>?) -> Int32 {
    capi { () throws(DrumlinError) in
        outCount?.pointee = 0
        let db = try database(db)
        let path = try string(path, "path")
        let name = try className.map { (pointer) throws(DrumlinError) in try string(pointer, "class_name") }
        guard batchSize >= 0, batchSize <= Int64(Int.max) else {
            throw DrumlinError(.invalidArgument, "batch_size must not be negative, got \(batchSize).")
        }
        let count = try db.importNDJSON(from: path, className: name, update: try updateMode(mode), batchSize: Int(batchSize),
                                        progress: progressClosure(progress, userdata))
        outCount?.pointee = count
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_check")
public func drumlin_check(_ db: OpaquePointer?, _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outJSON else { throw misuse("out_json must not be NULL.") }
        outJSON.pointee = nil
        let problems = try database(db).check()
        outJSON.pointee = try mallocString(JSON.array(problems.map { .string($0) }).text)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_compact")
public func drumlin_compact(_ db: OpaquePointer?) -> Int32 {
    capi { () throws(DrumlinError) in
        try database(db).compact()
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_write_copy")
public func drumlin_write_copy(_ db: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ key: UnsafePointer<UInt8>?, _ length: Int) -> Int32 {
    capi { () throws(DrumlinError) in
        let db = try database(db)
        let path = try string(path, "path")
        let encryptionKey: EncryptionKey?
        if let key {
            guard length == EncryptionKey.size else {
                throw DrumlinError(.invalidArgument, "An encryption key must be \(EncryptionKey.size) bytes long, got \(UInt(bitPattern: length)).")
            }
            encryptionKey = try EncryptionKey(bytes: UnsafeBufferPointer(start: key, count: length))
        } else if length != 0 {
            throw DrumlinError(.invalidArgument, "The encryption key is NULL but its length is \(UInt(bitPattern: length)): give NULL and 0 for a plain copy.")
        } else {
            encryptionKey = nil
        }
        try db.writeCopy(to: path, encryptionKey: encryptionKey)
        return DRUMLIN_OK
    }
}
