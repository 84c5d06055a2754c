import DrumlinEngine
import CDrumlinHeader
#if canImport(Glibc)
import Glibc
#endif

// The exports of drumlin.h's section "Transactions".

@_cdecl("drumlin_begin_write")
public func drumlin_begin_write(_ db: OpaquePointer?) -> Int32 {
    capi { () throws(DrumlinError) in
        try database(db).beginWrite()
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_commit")
public func drumlin_commit(_ db: OpaquePointer?) -> Int32 {
    capi { () throws(DrumlinError) in
        try database(db).commit()
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_rollback")
public func drumlin_rollback(_ db: OpaquePointer?) -> Int32 {
    capi { () throws(DrumlinError) in
        try database(db).rollback()
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_is_in_write")
public func drumlin_is_in_write(_ db: OpaquePointer?, _ outInWrite: UnsafeMutablePointer<Int32>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outInWrite else { throw misuse("out_in_write must not be NULL.") }
        outInWrite.pointee = try database(db).isInWriteTransaction ? 1 : 0
        return DRUMLIN_OK
    }
}
