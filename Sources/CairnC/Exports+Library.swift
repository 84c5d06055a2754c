import Cairn
import CCairnHeader
#if canImport(Glibc)
import Glibc
#endif

@_cdecl("cairn_version")
public func cairn_version() -> UnsafePointer<CChar>? {
    UnsafeRawPointer(("0.1.0" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
}

@_cdecl("cairn_abi_version")
public func cairn_abi_version() -> Int32 { 1 }

@_cdecl("cairn_last_error_code")
public func cairn_last_error_code() -> Int32 { lastErrorCode() }

@_cdecl("cairn_last_error_message")
public func cairn_last_error_message() -> UnsafePointer<CChar>? {
    lastErrorMessage() ?? UnsafeRawPointer(("" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
}

private let statusNames: [StaticString] = [
    "CAIRN_OK", "CAIRN_NOT_FOUND", "CAIRN_ERR_MISUSE", "CAIRN_ERR_INVALID_ARGUMENT", "CAIRN_ERR_SCHEMA",
    "CAIRN_ERR_MIGRATION_REQUIRED", "CAIRN_ERR_MIGRATION_FAILED", "CAIRN_ERR_NO_SUCH_CLASS",
    "CAIRN_ERR_NO_SUCH_PROPERTY", "CAIRN_ERR_TYPE_MISMATCH", "CAIRN_ERR_NOT_NULLABLE", "CAIRN_ERR_MISSING_VALUE",
    "CAIRN_ERR_DUPLICATE_PRIMARY_KEY", "CAIRN_ERR_PRIMARY_KEY_IMMUTABLE", "CAIRN_ERR_WRONG_TRANSACTION_STATE",
    "CAIRN_ERR_INVALIDATED_OBJECT", "CAIRN_ERR_QUERY", "CAIRN_ERR_NOT_SUPPORTED", "CAIRN_ERR_READ_ONLY",
    "CAIRN_ERR_FILE", "CAIRN_ERR_CORRUPT", "CAIRN_ERR_BUSY", "CAIRN_ERR_LIMIT", "CAIRN_ERR_CALLBACK",
    "CAIRN_ERR_INTERNAL",
]

@_cdecl("cairn_status_name")
public func cairn_status_name(_ status: Int32) -> UnsafePointer<CChar>? {
    let name: StaticString = status >= 0 && Int(status) < statusNames.count ? statusNames[Int(status)] : "CAIRN_UNKNOWN"
    return UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)
}

@_cdecl("cairn_free")
public func cairn_free(_ pointer: UnsafeMutableRawPointer?) { free(pointer) }

// MARK: Options

@_cdecl("cairn_options_new")
public func cairn_options_new() -> OpaquePointer? {
    OpaquePointer(Unmanaged.passRetained(OptionsHandle()).toOpaque())
}

@_cdecl("cairn_options_free")
public func cairn_options_free(_ options: OpaquePointer?) {
    guard let options else { return }
    Unmanaged<OptionsHandle>.fromOpaque(UnsafeRawPointer(options)).release()
}

@_cdecl("cairn_options_set_schema_version")
public func cairn_options_set_schema_version(_ options: OpaquePointer?, _ version: UInt64) -> Int32 {
    capi { () throws(CairnError) in
        try optionsHandle(options).options.schemaVersion = version
        return CAIRN_OK_
    }
}

@_cdecl("cairn_options_set_read_only")
public func cairn_options_set_read_only(_ options: OpaquePointer?, _ flag: Int32) -> Int32 {
    capi { () throws(CairnError) in
        try optionsHandle(options).options.readOnly = flag != 0
        return CAIRN_OK_
    }
}

@_cdecl("cairn_options_set_in_memory")
public func cairn_options_set_in_memory(_ options: OpaquePointer?, _ flag: Int32) -> Int32 {
    capi { () throws(CairnError) in
        try optionsHandle(options).options.inMemory = flag != 0
        return CAIRN_OK_
    }
}

@_cdecl("cairn_options_set_delete_if_migration_needed")
public func cairn_options_set_delete_if_migration_needed(_ options: OpaquePointer?, _ flag: Int32) -> Int32 {
    capi { () throws(CairnError) in
        try optionsHandle(options).options.deleteIfMigrationNeeded = flag != 0
        return CAIRN_OK_
    }
}
