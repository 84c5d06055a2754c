import DrumlinEngine
import CDrumlinHeader
#if canImport(Glibc)
import Glibc
#endif

// The exports of drumlin.h's section "Library".

@_cdecl("drumlin_version")
public func drumlin_version() -> UnsafePointer<CChar>? { UnsafePointer(versionCString) }

/// DRUMLIN_VERSION as a C string that lives as long as the process (the header's macro imports as a
/// Swift String, which has no stable address).
/// Written once, at first use (a global let), and never changed: safe to share.
nonisolated(unsafe) private let versionCString: UnsafeMutablePointer<CChar>? = strdup(DRUMLIN_VERSION)

@_cdecl("drumlin_abi_version")
public func drumlin_abi_version() -> Int32 { Int32(DRUMLIN_ABI_VERSION) }

@_cdecl("drumlin_last_error_code")
public func drumlin_last_error_code() -> Int32 { lastErrorCode() }

@_cdecl("drumlin_last_error_message")
public func drumlin_last_error_message() -> UnsafePointer<CChar>? {
    lastErrorMessage() ?? UnsafeRawPointer(("" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
}

/// The C name of each status code, made once: DRUMLIN_OK and DRUMLIN_NOT_FOUND, then every engine
/// error as "DRUMLIN_ERR_" + its name. Tests/DrumlinCTests/StatusCodeTests.swift checks that these
/// are exactly the header's status codes, number for number and name for name.
/// Written once, at first use (a global let), and never changed: safe to share.
nonisolated(unsafe) private let statusNames: [Int32: UnsafeMutablePointer<CChar>] = {
    var names: [Int32: UnsafeMutablePointer<CChar>] = [:]
    for (status, name) in [(DRUMLIN_OK, "DRUMLIN_OK"), (DRUMLIN_NOT_FOUND, "DRUMLIN_NOT_FOUND")]
        + DrumlinError.Code.allCases.map({ ($0.rawValue, "DRUMLIN_ERR_" + $0.name) }) {
        names[status] = strdup(name)
    }
    return names
}()

@_cdecl("drumlin_status_name")
public func drumlin_status_name(_ status: Int32) -> UnsafePointer<CChar>? {
    if let name = statusNames[status] { return UnsafePointer(name) }
    return UnsafeRawPointer(("DRUMLIN_UNKNOWN" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
}

@_cdecl("drumlin_free")
public func drumlin_free(_ pointer: UnsafeMutableRawPointer?) { free(pointer) }
