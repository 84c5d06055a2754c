import CDrumlinHeader
import DrumlinC
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// drumlin.h's section "Sync" without a service: bad arguments get clear errors, and a session
/// whose service cannot be reached keeps the objects, times out waiting, pauses, and stops
/// cleanly on close.
@Suite struct SyncOptionsTests {
    static let schema = #"[{"name": "Reading", "asymmetric": true, "primaryKey": "_id", "properties": {"_id": "int", "v": "double"}}]"#

    static func lastError() -> (Int32, String) {
        (DrumlinC.drumlin_last_error_code(), String(cString: DrumlinC.drumlin_last_error_message()!))
    }

    static func temporaryPath() -> String {
        var template = Array("/tmp/drumlin-sync-c-XXXXXX".utf8CString)
        let path = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        return String(cString: path!) + "/app.drumlin"
    }

    /// A token callback that answers "t".
    static let answer: drumlin_sync_token_fn = { _, request in _ = DrumlinC.drumlin_sync_token_set(request, "t") }

    @Test func badArgumentsAreClearErrors() {
        let options = DrumlinC.drumlin_options_new()
        defer { DrumlinC.drumlin_options_free(options) }
        #expect(DrumlinC.drumlin_options_set_sync(nil, "ws://h/sync", Self.answer, nil, nil) == DRUMLIN_ERR_MISUSE)
        #expect(Self.lastError() == (DRUMLIN_ERR_MISUSE, "The options handle is NULL."))
        #expect(DrumlinC.drumlin_options_set_sync(options, "http://h/sync", Self.answer, nil, nil) == DRUMLIN_ERR_INVALID_ARGUMENT)
        #expect(Self.lastError() == (DRUMLIN_ERR_INVALID_ARGUMENT, "The sync URL must start with ws:// or wss://, got 'http://h/sync'."))
        #expect(DrumlinC.drumlin_options_set_sync(options, "ws://h/sync", nil, nil, nil) == DRUMLIN_ERR_MISUSE)
        #expect(Self.lastError() == (DRUMLIN_ERR_MISUSE, "token_fn must not be NULL."))
        #expect(DrumlinC.drumlin_options_set_sync_ca_file(options, "/ca.pem") == DRUMLIN_ERR_MISUSE)
        #expect(Self.lastError() == (DRUMLIN_ERR_MISUSE, "Set the sync URL (drumlin_options_set_sync) before its CA file."))
        #expect(DrumlinC.drumlin_options_set_sync_callbacks(options, nil, nil, nil, nil) == DRUMLIN_ERR_MISUSE)
        #expect(DrumlinC.drumlin_sync_token_set(nil, "t") == DRUMLIN_ERR_MISUSE)
        #expect(Self.lastError() == (DRUMLIN_ERR_MISUSE, "The token request is NULL."))
        // A pointer that is no live request is refused, never dereferenced.
        let fake = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 16)
        defer { fake.deallocate() }
        #expect(DrumlinC.drumlin_sync_token_set(OpaquePointer(fake), "t") == DRUMLIN_ERR_MISUSE)
        #expect(Self.lastError() == (DRUMLIN_ERR_MISUSE, "The token request is no longer valid: answer it during the token callback."))
        // In memory: refused before anything is opened.
        #expect(DrumlinC.drumlin_options_set_sync(options, "ws://127.0.0.1:1/sync", Self.answer, nil, nil) == DRUMLIN_OK)
        #expect(DrumlinC.drumlin_options_set_in_memory(options, 1) == DRUMLIN_OK)
        var db: OpaquePointer?
        #expect(DrumlinC.drumlin_open(":memory:", Self.schema, options, &db) == DRUMLIN_ERR_INVALID_ARGUMENT)
        #expect(Self.lastError() == (DRUMLIN_ERR_INVALID_ARGUMENT, "Sync needs a database file opened for writing (its upload queue lives in the file): it cannot be used in memory."))
        #expect(db == nil)
        // A database without sync has no session.
        let path = Self.temporaryPath()
        #expect(DrumlinC.drumlin_open(path, Self.schema, nil, &db) == DRUMLIN_OK)
        #expect(DrumlinC.drumlin_sync_pause(db) == DRUMLIN_ERR_MISUSE)
        #expect(Self.lastError() == (DRUMLIN_ERR_MISUSE, "The database has no sync session: open it with options given drumlin_options_set_sync()."))
        #expect(DrumlinC.drumlin_close(db) == DRUMLIN_OK)
        #expect(String(cString: DrumlinC.drumlin_status_name(DRUMLIN_ERR_TIMEOUT)!) == "DRUMLIN_ERR_TIMEOUT")
        #expect(String(cString: DrumlinC.drumlin_status_name(DRUMLIN_ERR_SYNC)!) == "DRUMLIN_ERR_SYNC")
    }

    @Test func anUnreachableServiceKeepsTheObjectsAndCloseStopsTheSession() {
        let options = DrumlinC.drumlin_options_new()
        #expect(DrumlinC.drumlin_options_set_sync(options, "ws://127.0.0.1:1/sync", Self.answer, nil, nil) == DRUMLIN_OK)
        var db: OpaquePointer?
        let path = Self.temporaryPath()
        #expect(DrumlinC.drumlin_open(path, Self.schema, options, &db) == DRUMLIN_OK)
        DrumlinC.drumlin_options_free(options)
        #expect(DrumlinC.drumlin_begin_write(db) == DRUMLIN_OK)
        for n in 0..<3 { #expect(DrumlinC.drumlin_create_json(db, "Reading", #"{"_id": \#(n), "v": 1.5}"#, DRUMLIN_UPDATE_NEVER, nil) == DRUMLIN_OK) }
        #expect(DrumlinC.drumlin_commit(db) == DRUMLIN_OK)
        #expect(DrumlinC.drumlin_sync_wait_for_upload(db, 200) == DRUMLIN_ERR_TIMEOUT)
        let (code, message) = Self.lastError()
        #expect(code == DRUMLIN_ERR_TIMEOUT)
        #expect(message.hasPrefix("The upload did not finish within 200 ms: 3 objects still wait (state "))
        #expect(DrumlinC.drumlin_sync_pause(db) == DRUMLIN_OK)
        var state: Int32 = -1, paused: Int32 = -1
        var uploaded: Int64 = -1, pending: Int64 = -1
        #expect(DrumlinC.drumlin_sync_state(db, &state, &paused, &uploaded, &pending) == DRUMLIN_OK)
        #expect(paused == 1 && uploaded == 0 && pending == 3)
        #expect(DrumlinC.drumlin_sync_resume(db) == DRUMLIN_OK)
        #expect(DrumlinC.drumlin_sync_state(db, nil, &paused, nil, nil) == DRUMLIN_OK)
        #expect(paused == 0)
        // Close stops the thread and closes the file; the objects stay queued in it.
        #expect(DrumlinC.drumlin_close(db) == DRUMLIN_OK)
        #expect(DrumlinC.drumlin_sync_state(db, &state, nil, nil, nil) == DRUMLIN_ERR_MISUSE)
        #expect(DrumlinC.drumlin_open(path, Self.schema, nil, &db) == DRUMLIN_OK)
        #expect(DrumlinC.drumlin_close(db) == DRUMLIN_OK)
    }
}
