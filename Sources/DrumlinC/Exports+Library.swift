import DrumlinEngine
import CDrumlinHeader
#if canImport(Glibc)
import Glibc
#endif

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

// MARK: Options

@_cdecl("drumlin_options_new")
public func drumlin_options_new() -> OpaquePointer? {
    OpaquePointer(Unmanaged.passRetained(OptionsHandle()).toOpaque())
}

@_cdecl("drumlin_options_free")
public func drumlin_options_free(_ options: OpaquePointer?) {
    guard let options else { return }
    Unmanaged<OptionsHandle>.fromOpaque(UnsafeRawPointer(options)).release()
}

@_cdecl("drumlin_options_set_schema_version")
public func drumlin_options_set_schema_version(_ options: OpaquePointer?, _ version: UInt64) -> Int32 {
    capi { () throws(DrumlinError) in
        try optionsHandle(options).options.schemaVersion = version
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_options_set_read_only")
public func drumlin_options_set_read_only(_ options: OpaquePointer?, _ flag: Int32) -> Int32 {
    capi { () throws(DrumlinError) in
        try optionsHandle(options).options.readOnly = flag != 0
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_options_set_in_memory")
public func drumlin_options_set_in_memory(_ options: OpaquePointer?, _ flag: Int32) -> Int32 {
    capi { () throws(DrumlinError) in
        try optionsHandle(options).options.inMemory = flag != 0
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_options_set_delete_if_migration_needed")
public func drumlin_options_set_delete_if_migration_needed(_ options: OpaquePointer?, _ flag: Int32) -> Int32 {
    capi { () throws(DrumlinError) in
        try optionsHandle(options).options.deleteIfMigrationNeeded = flag != 0
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_options_set_busy_timeout")
public func drumlin_options_set_busy_timeout(_ options: OpaquePointer?, _ milliseconds: Int64) -> Int32 {
    capi { () throws(DrumlinError) in
        let handle = try optionsHandle(options)
        guard milliseconds >= 0 else {
            throw DrumlinError(.invalidArgument, "The busy timeout must not be negative, got \(milliseconds) ms.")
        }
        handle.options.busyTimeout = .milliseconds(milliseconds)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_options_set_synchronous")
public func drumlin_options_set_synchronous(_ options: OpaquePointer?, _ mode: Int32) -> Int32 {
    capi { () throws(DrumlinError) in
        let handle = try optionsHandle(options)
        guard let synchronous = Synchronous(rawValue: mode) else {
            throw DrumlinError(.invalidArgument, "synchronous must be DRUMLIN_SYNCHRONOUS_NORMAL or DRUMLIN_SYNCHRONOUS_FULL, got \(mode).")
        }
        handle.options.synchronous = synchronous
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_options_set_quick_check")
public func drumlin_options_set_quick_check(_ options: OpaquePointer?, _ quickCheck: Int32) -> Int32 {
    capi { () throws(DrumlinError) in
        try optionsHandle(options).options.quickCheck = quickCheck != 0
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_options_set_slow_query_threshold")
public func drumlin_options_set_slow_query_threshold(_ options: OpaquePointer?, _ milliseconds: Int64) -> Int32 {
    capi { () throws(DrumlinError) in
        try optionsHandle(options).options.slowQueryThreshold = milliseconds < 0 ? nil : .milliseconds(milliseconds)
        return DRUMLIN_OK
    }
}

/// A C logger and its userdata: the userdata is freed when the last options or database holding
/// the logger lets go of it.
final class LogSink: @unchecked Sendable {
    let function: drumlin_log_fn
    let userdata: UnsafeMutableRawPointer?
    let freeUserdata: drumlin_free_fn?

    init(_ function: drumlin_log_fn, _ userdata: UnsafeMutableRawPointer?, _ freeUserdata: drumlin_free_fn?) {
        self.function = function
        self.userdata = userdata
        self.freeUserdata = freeUserdata
    }

    deinit { freeUserdata?(userdata) }

    func log(_ level: LogLevel, _ message: String) {
        message.withCString { function(userdata, level.rawValue, $0) }
    }
}

@_cdecl("drumlin_options_set_logger")
public func drumlin_options_set_logger(_ options: OpaquePointer?, _ function: drumlin_log_fn?, _ userdata: UnsafeMutableRawPointer?,
                                       _ freeUserdata: drumlin_free_fn?) -> Int32 {
    capi { () throws(DrumlinError) in
        try setCallbackOption(options, userdata, freeUserdata) { handle in
            guard let function else {
                handle.options.logger = nil
                return false
            }
            let sink = LogSink(function, userdata, freeUserdata)
            handle.options.logger = { level, message in sink.log(level, message) }
            return true
        }
    }
}

/// Sets a callback option. `install` returns whether a sink now owns the userdata (it frees it
/// when released); otherwise, or when the options handle is bad, `free_userdata` runs now:
/// exactly once either way.
func setCallbackOption(_ options: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ freeUserdata: drumlin_free_fn?,
                       install: (OptionsHandle) -> Bool) throws(DrumlinError) -> Int32 {
    let handle: OptionsHandle
    do throws(DrumlinError) {
        handle = try optionsHandle(options)
    } catch {
        freeUserdata?(userdata)
        throw error
    }
    if !install(handle) { freeUserdata?(userdata) }
    return DRUMLIN_OK
}
