import CDrumlinHeader
import DrumlinEngine
import DrumlinSync
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

// The exports of drumlin.h's section "Sync": the C face of DrumlinSync's session.

/// C callbacks and their userdata: `free_userdata` runs when the last options or session holding
/// them lets go.
final class SyncCallbacks: @unchecked Sendable {
    let token: drumlin_sync_token_fn?
    let progress: drumlin_sync_progress_fn?
    let error: drumlin_sync_error_fn?
    let userdata: UnsafeMutableRawPointer?
    let freeUserdata: drumlin_free_fn?

    init(token: drumlin_sync_token_fn? = nil, progress: drumlin_sync_progress_fn? = nil, error: drumlin_sync_error_fn? = nil,
         userdata: UnsafeMutableRawPointer?, freeUserdata: drumlin_free_fn?) {
        self.token = token
        self.progress = progress
        self.error = error
        self.userdata = userdata
        self.freeUserdata = freeUserdata
    }

    deinit { freeUserdata?(userdata) }
}

/// A token request, live only during the token callback (registered, so a stale pointer is refused).
final class TokenRequest {
    var token: String?
}

private let liveTokenRequests = Mutex<Set<UInt>>([])

/// The sync part of `drumlin_options`: the URL, CA file and callbacks.
struct SyncOptions {
    var url: String
    var caFile: String?
    var tokenCallbacks: SyncCallbacks
    var eventCallbacks: SyncCallbacks?

    func settings(logger: (@Sendable (LogLevel, String) -> Void)?) -> SyncSettings {
        let tokens = tokenCallbacks
        var settings = SyncSettings(url: url, caFile: caFile) { () -> String? in
            guard let function = tokens.token else { return nil }
            let request = TokenRequest()
            let pointer = Unmanaged.passRetained(request).toOpaque()
            liveTokenRequests.withLock { _ = $0.insert(UInt(bitPattern: pointer)) }
            function(tokens.userdata, OpaquePointer(pointer))
            liveTokenRequests.withLock { _ = $0.remove(UInt(bitPattern: pointer)) }
            Unmanaged<TokenRequest>.fromOpaque(pointer).release()
            return request.token
        }
        settings.logger = logger
        if let events = eventCallbacks {
            if let progress = events.progress {
                settings.onProgress = { value in
                    progress(events.userdata, value.state.rawValue, value.paused ? 1 : 0, value.uploaded, value.pending)
                }
            }
            if let error = events.error {
                settings.onError = { report in
                    report.name.withCString { name in
                        report.message.withCString { message in
                            report.action.withCString { action in
                                error(events.userdata, Int32(report.code), name, message, action, report.stopped ? 1 : 0)
                            }
                        }
                    }
                }
            }
        }
        return settings
    }
}

@_cdecl("drumlin_options_set_sync")
public func drumlin_options_set_sync(_ options: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ tokenFn: drumlin_sync_token_fn?,
                                     _ userdata: UnsafeMutableRawPointer?, _ freeUserdata: drumlin_free_fn?) -> Int32 {
    capi { () throws(DrumlinError) in
        let handle: OptionsHandle
        do throws(DrumlinError) {
            handle = try optionsHandle(options)
        } catch {
            freeUserdata?(userdata)
            throw error
        }
        guard let url else {
            handle.sync = nil
            freeUserdata?(userdata)
            return DRUMLIN_OK
        }
        let callbacks = SyncCallbacks(token: tokenFn, userdata: userdata, freeUserdata: freeUserdata)
        let text = try string(url, "url")
        guard tokenFn != nil else { throw misuse("token_fn must not be NULL.") }
        guard text.hasPrefix("ws://") || text.hasPrefix("wss://"), text.utf8.count > 6 else {
            throw DrumlinError(.invalidArgument, "The sync URL must start with ws:// or wss://, got '\(text)'.")
        }
        handle.sync = SyncOptions(url: text, caFile: handle.sync?.caFile, tokenCallbacks: callbacks, eventCallbacks: handle.sync?.eventCallbacks)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_options_set_sync_ca_file")
public func drumlin_options_set_sync_ca_file(_ options: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let handle = try optionsHandle(options)
        guard handle.sync != nil else { throw misuse("Set the sync URL (drumlin_options_set_sync) before its CA file.") }
        handle.sync?.caFile = try path.map { (pointer) throws(DrumlinError) in try string(pointer, "path") }
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_options_set_sync_callbacks")
public func drumlin_options_set_sync_callbacks(_ options: OpaquePointer?, _ progressFn: drumlin_sync_progress_fn?,
                                               _ errorFn: drumlin_sync_error_fn?, _ userdata: UnsafeMutableRawPointer?,
                                               _ freeUserdata: drumlin_free_fn?) -> Int32 {
    capi { () throws(DrumlinError) in
        let callbacks = SyncCallbacks(progress: progressFn, error: errorFn, userdata: userdata, freeUserdata: freeUserdata)
        let handle = try optionsHandle(options)
        guard handle.sync != nil else { throw misuse("Set the sync URL (drumlin_options_set_sync) before its callbacks.") }
        handle.sync?.eventCallbacks = callbacks
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_sync_token_set")
public func drumlin_sync_token_set(_ request: OpaquePointer?, _ token: UnsafePointer<CChar>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let request else { throw misuse("The token request is NULL.") }
        let text = try string(token, "token")
        let address = UInt(bitPattern: UnsafeRawPointer(request))
        // Checked and answered under the registry's lock: the request cannot end meanwhile.
        return try liveTokenRequests.withLock { (live) throws(DrumlinError) -> Int32 in
            guard live.contains(address) else {
                throw misuse("The token request is no longer valid: answer it during the token callback.")
            }
            Unmanaged<TokenRequest>.fromOpaque(UnsafeRawPointer(request)).takeUnretainedValue().token = text
            return DRUMLIN_OK
        }
    }
}

private func syncSession(_ db: OpaquePointer?) throws(DrumlinError) -> SyncSession {
    let handle = try databaseHandle(db)
    if handle.database.isClosed { throw misuse("The database is closed.") }
    guard let session = handle.syncSession else {
        throw misuse("The database has no sync session: open it with options given drumlin_options_set_sync().")
    }
    return session
}

@_cdecl("drumlin_sync_wait_for_upload")
public func drumlin_sync_wait_for_upload(_ db: OpaquePointer?, _ timeoutMs: Int64) -> Int32 {
    capi { () throws(DrumlinError) in
        try syncSession(db).waitForUpload(milliseconds: timeoutMs)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_sync_pause")
public func drumlin_sync_pause(_ db: OpaquePointer?) -> Int32 {
    capi { () throws(DrumlinError) in
        try syncSession(db).pause()
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_sync_resume")
public func drumlin_sync_resume(_ db: OpaquePointer?) -> Int32 {
    capi { () throws(DrumlinError) in
        try syncSession(db).resume()
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_sync_state")
public func drumlin_sync_state(_ db: OpaquePointer?, _ outState: UnsafeMutablePointer<Int32>?, _ outPaused: UnsafeMutablePointer<Int32>?,
                               _ outUploaded: UnsafeMutablePointer<Int64>?, _ outPending: UnsafeMutablePointer<Int64>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let progress = try syncSession(db).progress
        outState?.pointee = progress.state.rawValue
        outPaused?.pointee = progress.paused ? 1 : 0
        outUploaded?.pointee = progress.uploaded
        outPending?.pointee = progress.pending
        return DRUMLIN_OK
    }
}
