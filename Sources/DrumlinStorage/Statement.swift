import CSQLite
import DrumlinValues

/// One prepared statement, owned by exactly one Swift object. Statements are cached per
/// connection by their SQL text, so each is prepared once and reset between uses.
///
/// Public, with its hot members inlinable, only so that the engine's target inlines them across
/// the module boundary (a `package` declaration is not inlined into another module): the Swift
/// face imports the engine `internal`ly, so none of this is API of `import Drumlin`.
public final class Statement {
    @usableFromInline package let handle: OpaquePointer
    unowned(unsafe) let connection: Connection

    package init(connection: Connection, sql: String) throws(DrumlinError) {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw connection.error(rc, context: "prepare")
        }
        self.handle = statement
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Stepped since the last reset. Cached statements are reset both when fetched and after use;
    /// the flag makes the second of those free.
    @usableFromInline @exclusivity(unchecked) var stepped = false

    /// How many times a stepped statement was reset: a reader that leaves the statement on a row
    /// (a parked page read) sees from it whether anyone else used the statement since.
    @usableFromInline @exclusivity(unchecked) package var resets: UInt32 = 0

    /// Makes the statement ready for new bindings. Bindings are overwritten by the next use, so
    /// they are not cleared (every caller binds every parameter).
    @inlinable public func reset() {
        if stepped {
            stepped = false
            resets &+= 1
            sqlite3_reset(handle)
        }
    }

    @inlinable public func bindNull(_ index: Int32) {
        sqlite3_bind_null(handle, index)
    }

    @inlinable public func bind(_ value: Int64, at index: Int32) {
        sqlite3_bind_int64(handle, index, value)
    }

    @inlinable public func bind(_ value: Double, at index: Int32) {
        sqlite3_bind_double(handle, index, value)
    }

    @inline(__always) package func bind(_ value: String, at index: Int32) {
        var value = value
        value.withUTF8 { utf8 in
            // A non-NULL pointer even for "", so SQLite stores an empty string, not NULL.
            let base = utf8.baseAddress.map(UnsafeRawPointer.init) ?? UnsafeRawPointer(bitPattern: 1)!
            sqlite3_bind_text64(handle, index, base.assumingMemoryBound(to: CChar.self), UInt64(utf8.count),
                                csqlite_transient(), UInt8(SQLITE_UTF8))
        }
    }

    /// Binds UTF-8 text someone else owns (checked by the caller). SQLite copies it, unless
    /// `copied` is false: then it must stay as it is until the statement has stepped, and the
    /// caller clears the bindings after (`clearBindings`), so no pointer into it stays behind.
    @inline(__always) package func bind(text utf8: UnsafeRawBufferPointer, at index: Int32, copied: Bool = true) {
        // A non-NULL pointer even for "", so SQLite stores an empty string, not NULL.
        let base = utf8.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
        sqlite3_bind_text64(handle, index, base.assumingMemoryBound(to: CChar.self), UInt64(utf8.count),
                            copied ? csqlite_transient() : csqlite_static(), UInt8(SQLITE_UTF8))
    }

    @inline(__always) package func bind(bytes: UnsafeRawBufferPointer, at index: Int32, copied: Bool = true) {
        if bytes.count == 0 {
            sqlite3_bind_zeroblob(handle, index, 0)
        } else {
            sqlite3_bind_blob64(handle, index, bytes.baseAddress, UInt64(bytes.count), copied ? csqlite_transient() : csqlite_static())
        }
    }

    /// Sets every parameter to NULL (after binds that SQLite did not copy).
    package func clearBindings() {
        sqlite3_clear_bindings(handle)
    }

    package func bind(_ bytes: [UInt8], at index: Int32) {
        bytes.withUnsafeBytes { bind(bytes: $0, at: index) }
    }

    /// Binds `parameters` to `?1`, `?2`, … in order: the one loop binding a query's parameters.
    package func bind<Parameters: Sequence<Value>>(_ parameters: Parameters) throws(DrumlinError) {
        var index: Int32 = 1
        for value in parameters {
            try ValueCodec.bind(value, to: self, at: index)
            index += 1
        }
    }

    /// Steps once: true when a row is available, false when the statement is done.
    @inlinable public func step() throws(DrumlinError) -> Bool {
        stepped = true
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw failed(rc)
    }

    /// The error of a step that failed; resets the statement.
    @usableFromInline func failed(_ rc: Int32) -> DrumlinError {
        let error = connection.error(rc, context: "step")
        reset()
        return error
    }

    /// Runs a statement that returns no rows, then resets it.
    package func run() throws(DrumlinError) {
        defer { reset() }
        _ = try step()
    }

    @inlinable public func columnType(_ index: Int32) -> Int32 { sqlite3_column_type(handle, index) }
    @inlinable public func isNull(_ index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }
    @inlinable public func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }
    @inlinable public func double(_ index: Int32) -> Double { sqlite3_column_double(handle, index) }

    /// The column as text. A NULL column reads as "" (callers check `isNull` first where it matters).
    package func string(_ index: Int32) -> String {
        guard let text = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    func bytes(_ index: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let blob = sqlite3_column_blob(handle, index) else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: blob, count: count))
    }

    /// The column's text as UTF-8 bytes, in place (valid only inside `body`; NULL reads as empty).
    package func withText<R>(_ index: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let text = sqlite3_column_text(handle, index)
        return body(UnsafeBufferPointer(start: text, count: text == nil ? 0 : Int(sqlite3_column_bytes(handle, index))))
    }

    /// Calls `body` with the column's bytes without copying them.
    package func withBytes<R>(_ index: Int32, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let blob = sqlite3_column_blob(handle, index) else {
            return body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return body(UnsafeRawBufferPointer(start: blob, count: count))
    }
}
