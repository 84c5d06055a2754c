import DrumlinEngine
import CDrumlinHeader
#if canImport(Glibc)
import Glibc
#endif

// The exports of drumlin.h's section "Options".

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

@_cdecl("drumlin_options_set_encryption_key")
public func drumlin_options_set_encryption_key(_ options: OpaquePointer?, _ key: UnsafePointer<UInt8>?, _ length: Int) -> Int32 {
    capi { () throws(DrumlinError) in
        let handle = try optionsHandle(options)
        guard let key else {
            handle.options.encryptionKey = nil
            return DRUMLIN_OK
        }
        guard length == EncryptionKey.size else {
            throw DrumlinError(.invalidArgument, "An encryption key must be \(EncryptionKey.size) bytes long, got \(UInt(bitPattern: length)).")
        }
        handle.options.encryptionKey = try EncryptionKey(bytes: UnsafeBufferPointer(start: key, count: length))
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

@_cdecl("drumlin_options_set_slow_query_threshold")
public func drumlin_options_set_slow_query_threshold(_ options: OpaquePointer?, _ milliseconds: Int64) -> Int32 {
    capi { () throws(DrumlinError) in
        try optionsHandle(options).options.slowQueryThreshold = milliseconds < 0 ? nil : .milliseconds(milliseconds)
        return DRUMLIN_OK
    }
}
