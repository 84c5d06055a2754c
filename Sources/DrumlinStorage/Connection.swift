import CSQLite
import DrumlinCrypt
import DrumlinValues

/// Quotes an SQL identifier. Every table and column name goes through here: no user string ever
/// becomes SQL text unquoted.
package func quoted(_ identifier: String) -> String {
    // Most names have no quote to double: skip the (slow, generic) replacing for them.
    if !identifier.utf8.contains(UInt8(ascii: "\"")) { return "\"" + identifier + "\"" }
    return "\"" + identifier.replacing("\"", with: "\"\"") + "\""
}

/// One SQLite connection with its statement cache. Not thread-safe by itself: `Database`
/// serializes every use.
package final class Connection {
    package let handle: OpaquePointer
    // Only used under the database's call lock: no dynamic exclusivity checks.
    @exclusivity(unchecked) private var statements: [String: Statement] = [:]
    @exclusivity(unchecked) private var slots: [Statement?] = []

    /// Runs once, before the process's first connection: SQLite's memory statistics off, as
    /// SQLite recommends for speed (they take a global mutex on every allocation and free: about
    /// ten per read of an object). Only when Drumlin is the first to initialize SQLite in the
    /// process; otherwise SQLite keeps the settings it started with (see docs/performance.md).
    private static let configureSQLite: Void = {
        _ = csqlite_memstatus_off()
    }()

    /// The busy timeout in milliseconds, for messages about waits that ran out.
    let busyTimeout: Int32
    /// Opened through an SQLite URI Drumlin built: an immutable file (read-only media), with no
    /// shared memory beside it.
    package let isImmutable: Bool
    /// The encrypting VFS this connection's files go through (DrumlinCrypt), with its key; released
    /// (and the key wiped) when the connection closes.
    private let cryptVFS: UnsafeMutableRawPointer?
    /// Whether the file is encrypted (goes through the encrypting VFS).
    package var isEncrypted: Bool { cryptVFS != nil }

    /// `path` is a file path (a name starting `file:` is a file of that name), or with `uri` an
    /// SQLite URI that Drumlin built itself. With `encryptionKey` (64 bytes), every page of the
    /// file, its write-ahead log and its journal is encrypted and authenticated (docs/encryption.md).
    package init(path: String, flags: Int32, busyTimeout: Int32 = 5000, uri: Bool = false,
                 encryptionKey: UnsafeRawBufferPointer? = nil) throws(DrumlinError) {
        self.busyTimeout = busyTimeout
        self.isImmutable = uri
        var db: OpaquePointer?
        // A library built with SQLITE_USE_URI reads any name starting `file:` as a URI: "./" keeps
        // it a (relative) file name.
        let name = !uri && path.hasPrefix("file:") ? "./" + path : path
        _ = Self.configureSQLite
        var vfsName = [CChar](repeating: 0, count: 32)
        var vfs: UnsafeMutableRawPointer?
        if let encryptionKey {
            guard encryptionKey.count == Int(DRUMLIN_CRYPT_KEY_SIZE), let base = encryptionKey.baseAddress,
                  let made = dlcrypt_vfs_create(base.assumingMemoryBound(to: UInt8.self), &vfsName) else {
                throw DrumlinError(.file, "Cannot open '\(path)': the encryption layer could not start (OpenSSL's libcrypto failed or memory ran out).")
            }
            vfs = made
        }
        if vfs != nil { dlcrypt_clear_failure() }
        // Always with URIs on (a name of Drumlin's starting `file:` is one it built; any other
        // starts otherwise, see above): `VACUUM INTO` names its destination's VFS in a URI.
        let rc = sqlite3_open_v2(name, &db, flags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, vfs == nil ? nil : vfsName)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            dlcrypt_vfs_release(vfs)
            // SQLite reads the file's header as it opens it: page 1 failed authentication.
            let failure = String(cString: dlcrypt_last_failure())
            if vfs != nil, rc & 0xFF == SQLITE_IOERR, !failure.isEmpty {
                throw DrumlinError(.corrupt, "The encrypted file is damaged: \(failure) (SQLite: \(message), while opening it).", sqliteCode: rc)
            }
            throw DrumlinError(.file, "Cannot open '\(path)': \(message).", sqliteCode: rc)
        }
        handle = db
        cryptVFS = vfs
        if vfs != nil {
            // Every encrypted file has pages of 4096 bytes, the last 44 of each kept for its IV and
            // tag: set before the first page is written (no effect on an existing file, whose
            // header says both).
            sqlite3_exec(db, "PRAGMA page_size = \(DRUMLIN_CRYPT_PAGE_SIZE)", nil, nil, nil)
            _ = dlcrypt_reserve_bytes(db)
        }
        sqlite3_extended_result_codes(db, 1)
        // A name in double quotes is always a name: a column missing from a table is an error,
        // not the string of its name (SQLite's legacy fallback, on by default).
        csqlite_dqs_off(db)
        sqlite3_busy_timeout(db, busyTimeout)
        SQLFunctions.register(db)
        // Statement journals (every multi-row INSERT or UPDATE in a transaction keeps one, for
        // the statement's own rollback) and savepoints' journals stay in memory, not in a temp
        // file: a bulk insert used to write a page to /var/tmp for every few objects (one
        // `pwrite` per Task of the benchmark). Temp tables and large sorts live in memory too.
        sqlite3_exec(db, "PRAGMA temp_store = MEMORY", nil, nil, nil)
        // Up to 32 MiB of the file's pages stay in the connection's cache (SQLite's default is
        // 2 MiB): a read of a table up to that size (100k Person objects are 7 MB) no longer
        // reads every page from the operating system again, one `pread` each (a range query over
        // 100k objects: 14.5 -> 12.6 ms). Not memory-mapped I/O: a file cut short by another
        // program while a read is open would stop the process with SIGBUS instead of an error.
        // An encrypted file keeps up to 128 MiB: a page read again from the operating system
        // costs its authentication and decryption (about 3.8 µs) where a plain file's costs a
        // copy, and at 1M objects (a 78 MB file) a range query read 14,000 pages again each time
        // (1.40x the plain file's time against 1.3x allowed). Realm keeps an encrypted file's
        // decrypted pages in memory the same way. SQLite fills the cache as pages are read: a
        // small file takes no more memory than before.
        sqlite3_exec(db, cryptVFS == nil ? "PRAGMA cache_size = -32768" : "PRAGMA cache_size = -131072", nil, nil, nil)
    }

    package func close() {
        statements.removeAll()
        slots.removeAll()
        sqlite3_close_v2(handle)
        dlcrypt_vfs_release(cryptVFS)
    }

    /// Finalizes every cached statement: after a migration, whose databases used the same slots
    /// for other SQL.
    package func clearStatementCache() {
        statements.removeAll()
        slots.removeAll()
    }

    /// Finalizes the statements cached in slots from `first` on: the slots of classes removed
    /// from an open database, which classes added later may use for other SQL.
    package func clearSlots(from first: Int) {
        if first < slots.count { slots.removeSubrange(first...) }
    }

    /// The cached statement for `sql`, prepared on first use and reset for this one.
    package func statement(_ sql: String) throws(DrumlinError) -> Statement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        let statement = try Statement(connection: self, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// A statement cached in a numbered slot: the hot paths (insert, read a row, find by primary
    /// key, update one property) skip hashing their SQL text on every call.
    package func statement(slot: Int, _ sql: @autoclosure () -> String) throws(DrumlinError) -> Statement {
        if slot < slots.count, let cached = slots[slot] {
            cached.reset()
            return cached
        }
        let statement = try Statement(connection: self, sql: sql())
        if slot >= slots.count { slots.append(contentsOf: repeatElement(nil, count: slot - slots.count + 1)) }
        slots[slot] = statement
        return statement
    }

    /// Runs one or more SQL statements that return no rows (DDL, pragmas, transaction control).
    package func execute(_ sql: String) throws(DrumlinError) {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw error(rc, context: sql) }
    }

    /// Runs a setup statement (a pragma such as `journal_mode`) that SQLite answers with `BUSY`
    /// at once rather than through the busy handler: retried until the busy timeout runs out.
    package func executeRetrying(_ sql: String) throws(DrumlinError) {
        var waited: Int32 = 0
        var pause: Int32 = 1
        while true {
            let rc = sqlite3_exec(handle, sql, nil, nil, nil)
            if rc == SQLITE_OK { return }
            guard rc & 0xFF == SQLITE_BUSY || rc & 0xFF == SQLITE_LOCKED, waited < busyTimeout else {
                throw error(rc, context: sql)
            }
            sqlite3_sleep(pause)
            waited += pause
            pause = min(pause * 2, 50)
        }
    }

    /// Runs a query and returns the first column of the first row as text, if any.
    package func scalarText(_ sql: String, _ arguments: [String] = []) throws(DrumlinError) -> String? {
        let statement = try statement(sql)
        defer { statement.reset() }
        for (i, argument) in arguments.enumerated() { statement.bind(argument, at: Int32(i + 1)) }
        guard try statement.step(), !statement.isNull(0) else { return nil }
        return statement.string(0)
    }

    /// Runs `body` inside the read transaction that a statement of the caller holds open (one
    /// stepped and not reset yet, which `body` may reset): the statements `body` runs read the
    /// same snapshot and take no lock of their own (in WAL mode each read transaction costs two
    /// `fcntl` calls). Inside a transaction already, just runs `body`. `body` only reads.
    package func continuingRead<R>(_ body: () throws(DrumlinError) -> R) throws(DrumlinError) -> R {
        guard isAutocommit else { return try body() }
        try statement("BEGIN").run()
        let result: R
        do throws(DrumlinError) {
            result = try body()
        } catch {
            try? statement("COMMIT").run()
            throw error
        }
        try statement("COMMIT").run()
        return result
    }

    package var changes: Int { Int(sqlite3_changes64(handle)) }
    /// How many `?` parameters one statement may have.
    package var variableLimit: Int32 { sqlite3_limit(handle, SQLITE_LIMIT_VARIABLE_NUMBER, -1) }
    package var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// The one funnel from SQLite result codes to Drumlin errors.
    func error(_ rc: Int32, context: String) -> DrumlinError {
        let message = String(cString: sqlite3_errmsg(handle))
        let code: DrumlinError.Code
        // A page that failed authentication in the encrypting VFS: which one, of which file.
        if rc == 10 | (32 << 8) /* SQLITE_IOERR_DATA */, let failure = Optional(String(cString: dlcrypt_last_failure())), !failure.isEmpty {
            return DrumlinError(.corrupt, "The encrypted file is damaged: \(failure) (SQLite: \(message), during \(context.prefix(120))).", sqliteCode: rc)
        }
        switch rc & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED: code = .busy
        case SQLITE_READONLY: code = .readOnly
        case SQLITE_CORRUPT, SQLITE_NOTADB: code = .corrupt
        case SQLITE_CANTOPEN, SQLITE_IOERR, SQLITE_FULL, SQLITE_PERM, SQLITE_AUTH: code = .file
        case SQLITE_TOOBIG, SQLITE_RANGE: code = .limit
        case SQLITE_NOMEM: code = .limit
        case SQLITE_MISUSE: code = .misuse
        // A table, index or column the engine made is gone: the file was changed behind its back.
        case SQLITE_ERROR where message.hasPrefix("no such table") || message.hasPrefix("no such column")
            || message.hasPrefix("no such index"):
            code = .corrupt
        // The engine creates only what the stored schema says is absent: the file disagrees with it.
        case SQLITE_ERROR where message.hasSuffix("already exists") || message.hasPrefix("duplicate column name"):
            let file = String(cString: sqlite3_db_filename(handle, "main"))
            return DrumlinError(.corrupt, "The file '\(file.isEmpty ? ":memory:" : file)' is damaged: its tables disagree with its stored schema (\(message); Drumlin's catalogue _drumlin_classes does not list it).", sqliteCode: rc)
        // A CHECK constraint or a trigger's RAISE Drumlin did not make (the open refuses those it finds).
        case SQLITE_CONSTRAINT where rc == 275 || rc == 1811:
            let file = String(cString: sqlite3_db_filename(handle, "main"))
            return DrumlinError(.corrupt, "The file '\(file.isEmpty ? ":memory:" : file)' is damaged: \(rc == 275 ? "a CHECK constraint" : "a trigger") Drumlin did not make refused the write (\(message)).", sqliteCode: rc)
        default: code = .internal
        }
        if rc & 0xFF == SQLITE_FULL {
            let file = String(cString: sqlite3_db_filename(handle, "main"))
            return DrumlinError(.file, "The disk or file is full: '\(file.isEmpty ? ":memory:" : file)' could not grow (SQLite: \(message), during \(context.prefix(120))). Free space (or raise the limit) and try again.", sqliteCode: rc)
        }
        if code == .corrupt && rc & 0xFF == SQLITE_ERROR {
            let file = String(cString: sqlite3_db_filename(handle, "main"))
            return DrumlinError(.corrupt, "The file '\(file.isEmpty ? ":memory:" : file)' is damaged: \(message) (a table or column Drumlin made is missing; `drumlin check` lists what is wrong).", sqliteCode: rc)
        }
        if code == .busy {
            let file = String(cString: sqlite3_db_filename(handle, "main"))
            return DrumlinError(code, "Gave up after waiting \(busyTimeout) ms (the busy timeout) for another connection's lock on '\(file.isEmpty ? ":memory:" : file)' during \(context.prefix(120)) (SQLite: \(message)).", sqliteCode: rc)
        }
        return DrumlinError(code, "SQLite error \(rc) (\(message)) during \(context.prefix(120))", sqliteCode: rc)
    }
}

extension Connection {
    /// What the first bytes of a database file say about its encryption.
    package enum Encryption { case plain, matchingKey, otherKey, keyNeeded, damagedKeyCheck }

    /// Reads the first bytes of a file (its first page, 4096 bytes, when it has one): whether it is
    /// encrypted, and if so whether `key` is its key, without decrypting (docs/encryption.md).
    package static func encryption(header: ArraySlice<UInt8>, key: UnsafeRawBufferPointer?) -> Encryption {
        let verdict = Array(header).withUnsafeBufferPointer { bytes in
            dlcrypt_probe(bytes.baseAddress, bytes.count, key?.baseAddress?.assumingMemoryBound(to: UInt8.self))
        }
        switch verdict {
        case 1: return .matchingKey
        case 2: return .otherKey
        case 3: return .keyNeeded
        case 4: return .damagedKeyCheck
        default: return .plain
        }
    }

    package var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    package var totalChanges: Int64 { sqlite3_total_changes64(handle) }
}
