import CSQLite
import DrumlinSchema
import DrumlinStorage
import DrumlinValues
#if canImport(Glibc)
import Glibc
#endif

/// Opening a file: recognizing a Drumlin database, creating tables for a new schema, and checking a
/// stored schema against the one the application opens with.
enum Storage {
    /// The on-disk format this build writes and reads. Format 2 adds the key-order rows of
    /// `_drumlin_meta` (Objects/Database+KeyOrder.swift), which a format-1 library would not keep
    /// up to date; a format-1 file is read as it is, and becomes format 2 when opened for writing
    /// (its classes start out of key order). Format 3 keys lists of values other than links and
    /// mixed values by (owner, position), in `WITHOUT ROWID` tables (`CollectionTable.isKeyedByPosition`),
    /// whose positions an older library would shift into each other; a file of format 1 or 2 is
    /// read as it is, and gets those tables when opened for writing (`upgradeFormat`). Format 4
    /// stores links inside nested collections of mixed values (`_drumlin_mixed` rows of type 10,
    /// with their partial index), which an older library would read as text and never clear when
    /// the target is deleted; a file of format 1 to 3 holds none and gets the index when opened
    /// for writing.
    static let formatVersion = 4
    static let readableFormats = [1, 2, 3, 4]

    static let metadataStatements = [
        "CREATE TABLE _drumlin_meta (key TEXT PRIMARY KEY, value ANY)",
        """
        CREATE TABLE _drumlin_classes (table_name TEXT PRIMARY KEY, name TEXT NOT NULL, \
        definition TEXT NOT NULL, next_seq INTEGER NOT NULL DEFAULT 1)
        """,
    ] + MixedStore.createStatements

    static func open(path: String, inMemory: Bool, schema: Schema, classes: [ClassInfo], options: OpenOptions,
                     storedVersion: inout UInt64) throws(DrumlinError) -> Connection {
        do throws(DrumlinError) {
            return try openOnce(path: path, inMemory: inMemory, schema: schema, classes: classes, options: options,
                                storedVersion: &storedVersion)
        } catch let error where options.deleteIfMigrationNeeded && !inMemory
            && (error.code == .migrationRequired || SchemaMigration.isLowerVersion(error))
        {
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
            return try openOnce(path: path, inMemory: inMemory, schema: schema, classes: classes, options: options,
                                storedVersion: &storedVersion)
        }
    }

    private static func openOnce(path: String, inMemory: Bool, schema: Schema, classes: [ClassInfo],
                                 options: OpenOptions, storedVersion: inout UInt64) throws(DrumlinError) -> Connection {
        if !inMemory {
            try checkFileHeader(path, readOnly: options.readOnly, key: options.encryptionKey)
            if !options.readOnly { try checkWritable(path) }
        }
        let connection = try connect(path: path, inMemory: inMemory, readOnly: options.readOnly, options: options)
        do throws(DrumlinError) {
            if try tableCount(connection, path: path) == 0 {
                if options.readOnly {
                    throw DrumlinError(.file, "Cannot open '\(path)' read-only: it is not an existing Drumlin database.")
                }
                // Several processes may find the same file empty at once: set it up under the
                // write lock, and only if it is still empty there (else open it as an existing file).
                if !inMemory { try connection.executeRetrying("PRAGMA journal_mode = WAL") }
                try connection.execute(options.synchronous.pragma)
                if try create(connection, path: path, schema: schema, classes: classes, version: options.schemaVersion) {
                    storedVersion = options.schemaVersion
                    return connection
                }
            }
            let format = try checkFormat(connection, path: path)
            // Triggers, constraints and other objects Drumlin did not make; columns the stored
            // schema names and the tables lack. Before anything is written.
            try Structure.verify(connection, path: path)
            if options.quickCheck { try quickCheck(connection, path: path) }
            if !options.readOnly { try connection.execute(options.synchronous.pragma) }
            if format < formatVersion, !options.readOnly { try upgradeFormat(connection, path: path) }
            try SchemaMigration.reconcile(connection, path: path, schema: schema, classes: classes, options: options,
                                          storedVersion: &storedVersion)
            // A table dropped behind the engine's back would fail every later call: refuse the file now.
            let missing = try missingTables(connection, classes: classes)
            if !missing.isEmpty {
                throw DrumlinError(.corrupt, "The file '\(path)' is damaged: " + missing.joined(separator: " ") + " It was left unchanged.")
            }
            return connection
        } catch {
            connection.close()
            throw error
        }
    }

    /// The schema stored in an existing database file, for opening it without one.
    static func storedSchema(path: String, options: OpenOptions) throws(DrumlinError) -> Schema {
        if path.isEmpty && !options.inMemory { throw emptyPath(options) }
        if options.inMemory || path == ":memory:" {
            throw DrumlinError(.invalidArgument, "A new in-memory database has no stored schema: open it with a schema.")
        }
        guard access(path, F_OK) == 0 else {
            throw DrumlinError(.file, "Cannot open '\(path)' without a schema: the file does not exist (give a schema to create it).")
        }
        try checkFileHeader(path, readOnly: true, key: options.encryptionKey)
        let connection = try connect(path: path, inMemory: false, readOnly: true, options: options)
        defer { connection.close() }
        if try tableCount(connection, path: path) == 0 {
            throw DrumlinError(.file, "Cannot open '\(path)' without a schema: it is empty, not an existing Drumlin database (give a schema to create it).")
        }
        _ = try checkFormat(connection, path: path)
        return try SchemaMigration.storedSchema(connection, path: path)
    }

    /// Checks the format stored in `_drumlin_meta`: a file without it is not a Drumlin database
    /// (`CORRUPT`), one of another format is refused. A wait that ran out stays `BUSY`.
    @discardableResult
    static func checkFormat(_ connection: Connection, path: String) throws(DrumlinError) -> Int {
        let format: String?
        do throws(DrumlinError) {
            format = try connection.scalarText("SELECT value FROM _drumlin_meta WHERE key = 'format'")
        } catch where error.code == .busy || error.code == .file {
            throw error
        } catch {
            throw notDrumlin(path, detail: "it has no Drumlin metadata")
        }
        guard let format else { throw notDrumlin(path, detail: "it has no Drumlin metadata") }
        guard let number = Int(format), readableFormats.contains(number) else {
            throw DrumlinError(.corrupt, "The file '\(path)' uses Drumlin format \(format); this library reads formats \(readableFormats.dropLast().map(String.init).joined(separator: ", ")) and \(readableFormats.last!).")
        }
        return number
    }

    /// Brings a file of an older format to this one, in one transaction under the write lock
    /// (another connection may have done it while this one waited): from format 1 or 2, every
    /// list of values of every stored class gets its table keyed by position (`keyLists`); from
    /// format 3 or lower, `_drumlin_mixed` gets the index of its links.
    static func upgradeFormat(_ connection: Connection, path: String) throws(DrumlinError) {
        try connection.execute("BEGIN IMMEDIATE")
        do throws(DrumlinError) {
            let format = try checkFormat(connection, path: path)
            if format < 3 { try keyLists(connection, path: path) }
            if format < 4 { try connection.execute(MixedStore.linkIndexStatement.replacing("CREATE INDEX", with: "CREATE INDEX IF NOT EXISTS")) }
            if format < formatVersion {
                try connection.execute("UPDATE _drumlin_meta SET value = \(formatVersion) WHERE key = 'format'")
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            connection.clearStatementCache()
            throw error
        }
    }

    /// Rebuilds each list of values stored in a rowid table (formats 1 and 2) as the table keyed
    /// by `(owner, position)` that `CollectionTable.createStatements` makes, with the same rows.
    private static func keyLists(_ connection: Connection, path: String) throws(DrumlinError) {
        for objectSchema in try SchemaMigration.storedSchema(connection, path: path).objectSchemas {
            for side in ClassInfo(index: 0, schema: objectSchema).collectionTables.compactMap({ $0 }) where side.isKeyedByPosition {
                let definition = try connection.scalarText("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?1", [side.rawName])
                guard let definition, !definition.hasSuffix("WITHOUT ROWID") else { continue }
                let statements = side.createStatements
                try connection.execute("ALTER TABLE \(side.name) RENAME TO _drumlin_list_upgrading")
                try connection.execute(statements[0])
                do throws(DrumlinError) {
                    try connection.execute("INSERT INTO \(side.name) (owner, position, value) SELECT owner, position, value FROM _drumlin_list_upgrading")
                } catch where (error.sqliteCode ?? 0) & 0xFF == 19 {    // SQLITE_CONSTRAINT: two elements at one position
                    throw DrumlinError(.corrupt, "The file '\(path)' is damaged: the list table '\(side.rawName)' holds two elements at one position. It was left unchanged.")
                }
                try connection.execute("DROP TABLE _drumlin_list_upgrading")
                for sql in statements.dropFirst() { try connection.execute(sql) }
            }
        }
    }

    /// One sentence per table the engine needs that the file lacks: the metadata tables and, for
    /// each class of `classes`, its table and its collections' tables. One read of `sqlite_master`.
    static func missingTables(_ connection: Connection, classes: [ClassInfo]) throws(DrumlinError) -> [String] {
        var present = Set<String>()
        let statement = try connection.statement("SELECT name FROM sqlite_master WHERE type = 'table'")
        defer { statement.reset() }
        while try statement.step() { present.insert(statement.string(0)) }
        var missing: [String] = []
        for table in ["_drumlin_meta", "_drumlin_classes", "_drumlin_mixed_collections", MixedStore.table] where !present.contains(table) {
            missing.append("Drumlin's table '\(table)' is missing.")
        }
        for info in classes {
            if !present.contains(info.schema.storedName) {
                missing.append("The table '\(info.schema.storedName)' of class '\(info.name)' is missing.")
            }
            for (index, table) in info.collectionTables.enumerated() {
                guard let table, !present.contains(table.rawName) else { continue }
                missing.append("The table '\(table.rawName)' of '\(info.name).\(info.property(index).name)' is missing.")
            }
        }
        return missing
    }

    /// SQLite's `PRAGMA quick_check` (the open option `quickCheck`): a damaged file is `CORRUPT`,
    /// naming the first problems SQLite found.
    static func quickCheck(_ connection: Connection, path: String) throws(DrumlinError) {
        var problems: [String] = []
        do throws(DrumlinError) {
            let statement = try connection.statement("PRAGMA quick_check(20)")
            defer { statement.reset() }
            while try statement.step() {
                for line in statement.string(0).split(separator: "\n") where line != "ok" && !line.hasPrefix("*** in database") {
                    problems.append(String(line))
                }
            }
        } catch where error.code == .corrupt || error.code == .internal {
            problems.append(error.message)
        }
        guard !problems.isEmpty else { return }
        throw DrumlinError(.corrupt, "The file '\(path)' is damaged (SQLite's quick check found \(problems.count == 1 ? "a problem" : "\(problems.count) problems"): "
                         + problems.prefix(5).joined(separator: "; ") + (problems.count > 5 ? "; …" : "") + "); it was left unchanged.")
    }

    static func notDrumlin(_ path: String, detail: String) -> DrumlinError {
        DrumlinError(.corrupt, "The file '\(path)' is not a Drumlin database (\(detail)); it was left unchanged.")
    }

    /// Refuses a file that is not SQLite before SQLite touches it. An absent or empty file is a new
    /// database. An encrypted file (docs/encryption.md) opens only with its key, a plain one only
    /// without a key: otherwise `decryptionFailed`, the file untouched.
    static func checkFileHeader(_ path: String, readOnly: Bool, key: EncryptionKey?) throws(DrumlinError) {
        // fopen opens a directory, whose reads then fail: SQLite would say "disk I/O error".
        var entry = stat()
        if stat(path, &entry) == 0, entry.st_mode & S_IFMT == S_IFDIR {
            throw DrumlinError(.file, "Cannot open '\(path)': it is a directory, not a database file.")
        }
        guard let file = fopen(path, "rb") else {
            if errno == ENOENT {
                if readOnly { throw DrumlinError(.file, "Cannot open '\(path)' read-only: the file does not exist.") }
                return
            }
            let reason = String(cString: strerror(errno))
            throw DrumlinError(.file, "Cannot open '\(path)': \(reason).")
        }
        defer { fclose(file) }
        // The first page: an encrypted file's key check and, when it differs, its tag.
        var header = [UInt8](repeating: 0, count: 4096)
        let count = fread(&header, 1, 4096, file)
        if count == 0 { return }
        let probe = try key.map { (key) throws(DrumlinError) in
            try key.withBytes { Connection.encryption(header: header.prefix(count), key: $0) }
        } ?? Connection.encryption(header: header.prefix(count), key: nil)
        switch probe {
        case .matchingKey: return
        case .otherKey: throw DrumlinError(.decryptionFailed, "Realm file decryption failed: the encryption key is not the key of '\(path)'; it was left unchanged.")
        case .keyNeeded: throw DrumlinError(.decryptionFailed, "Realm file decryption failed: '\(path)' is encrypted; open it with its encryption key. It was left unchanged.")
        case .damagedKeyCheck: throw DrumlinError(.corrupt, "The file '\(path)' is damaged: page 1's key check value was changed (the page itself authenticates with this key); it was left unchanged.")
        case .plain: break
        }
        let magic = Array("SQLite format 3".utf8) + [0]
        guard count >= 16, Array(header[0..<16]) == magic else {
            throw notDrumlin(path, detail: "it is not an SQLite file")
        }
        if key != nil {
            throw DrumlinError(.decryptionFailed, "Realm file decryption failed: '\(path)' is not encrypted; open it without an encryption key (or encrypt a copy with writeCopy). It was left unchanged.")
        }
        guard count >= 100 else { throw DrumlinError(.corrupt, "The file '\(path)' is damaged: it is \(count) bytes long, shorter than an SQLite header; it was left unchanged.") }
        // A file cut short: SQLite trusts the page count in the header (when the version-valid-for
        // number matches the change counter) and would read the missing pages as zeros. Without
        // a write-ahead log holding changes, the file must be as long as the header says.
        func be32(_ at: Int) -> UInt64 { header[at..<at + 4].reduce(0) { $0 << 8 | UInt64($1) } }
        let rawPageSize = UInt64(header[16]) << 8 | UInt64(header[17])
        let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
        let pages = be32(28)
        var status = stat()
        guard pages > 0, be32(24) == be32(92), fstat(fileno(file), &status) == 0 else { return }
        var log = stat()
        if stat(path + "-wal", &log) == 0, log.st_size > 0 { return }
        let expected = pages * pageSize
        if UInt64(status.st_size) < expected {
            throw DrumlinError(.corrupt, "The file '\(path)' is damaged: it is \(status.st_size) bytes long, but its header says \(expected) (\(pages) pages of \(pageSize) bytes): it was cut short; it was left unchanged.")
        }
    }

    /// The SQLite connection. Read-only, a file on read-only media or in a directory this process
    /// cannot write has no `-shm` file for reading its write-ahead log, and SQLite cannot open it
    /// normally; when that happens and no write-ahead log holds changes, the file is opened as
    /// immutable (SQLite's `immutable=1`), which needs no file beside it.
    private static func connect(path: String, inMemory: Bool, readOnly: Bool,
                                options: OpenOptions) throws(DrumlinError) -> Connection {
        let timeout = options.busyTimeoutMilliseconds
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let key = inMemory ? nil : options.encryptionKey
        func open(_ name: String, _ flags: Int32, uri: Bool) throws(DrumlinError) -> Connection {
            guard let key else { return try Connection(path: name, flags: flags, busyTimeout: timeout, uri: uri) }
            return try key.withBytes { (bytes) throws(DrumlinError) in
                try Connection(path: name, flags: flags, busyTimeout: timeout, uri: uri, encryptionKey: bytes)
            }
        }
        let connection = try open(path, flags, uri: false)
        guard readOnly, !inMemory else { return connection }
        do throws(DrumlinError) {
            _ = try tableCount(connection, path: path)
            return connection
        } catch where [SQLITE_CANTOPEN, SQLITE_READONLY].contains((error.sqliteCode ?? 0) & 0xFF) {
            connection.close()
        }
        let reason = directoryProblem(path) ?? "SQLite cannot create its shared-memory file beside it"
        let problem = reason.hasPrefix("its directory") ? reason : "its directory is not writable (\(reason))"
        var status = stat()
        if stat(path + "-wal", &status) == 0, status.st_size > 0 {
            throw DrumlinError(.file, "Cannot open '\(path)' read-only: \(problem), and its write-ahead log '\(path)-wal' holds changes that SQLite can only read with a shared-memory file beside it. Open it once where its directory is writable to fold the log into the file.")
        }
        return try open(immutableURI(path), SQLITE_OPEN_READONLY, uri: true)
    }

    /// `path` as an SQLite URI that opens it immutable: every byte but unreserved ones and `/`
    /// percent-encoded, so no character of the path is read as URI syntax.
    static func immutableURI(_ path: String) -> String {
        Connection.fileURI(path) + "?immutable=1"
    }

    /// Why the directory holding `path` cannot be written ("its directory is not writable
    /// (read-only file system)", "its directory does not exist"), or nil if it can.
    static func directoryProblem(_ path: String) -> String? {
        let directory = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        guard access(directory, W_OK) != 0 else { return nil }
        if errno == ENOENT { return "its directory does not exist" }
        return "its directory is not writable (\(String(cString: strerror(errno)).lowercased()))"
    }

    /// Refuses to open for writing a file (or a new file in a directory) that cannot be written,
    /// saying why, before SQLite reports it as an unhelpful "unable to open database file".
    static func checkWritable(_ path: String) throws(DrumlinError) {
        let exists = access(path, F_OK) == 0
        if exists, access(path, W_OK) != 0 {
            let reason = String(cString: strerror(errno)).lowercased()
            throw DrumlinError(.file, "Cannot open '\(path)' for writing: \(reason). Open it read-only to read it.")
        }
        if let reason = directoryProblem(path) {
            if exists {
                throw DrumlinError(.file, "Cannot open '\(path)' for writing: \(reason), and SQLite keeps its '-wal' and '-shm' files there. Open it read-only to read it.")
            }
            throw DrumlinError(.file, "Cannot create '\(path)': \(reason).")
        }
    }

    static func emptyPath(_ options: OpenOptions) -> DrumlinError {
        let error = DrumlinError(.invalidArgument, "The path is empty: give a file path, or \":memory:\" (or the in-memory option) for a database kept in memory.")
        options.log(.error, error.message)
        return error
    }

    /// The number of tables in the file; 0 for a new (empty) file.
    private static func tableCount(_ connection: Connection, path: String) throws(DrumlinError) -> Int64 {
        do throws(DrumlinError) {
            let statement = try connection.statement("SELECT count(*) FROM sqlite_master")
            defer { statement.reset() }
            _ = try statement.step()
            return statement.int64(0)
        } catch where error.code == .busy || error.code == .file || error.code == .readOnly {
            throw error
        } catch {
            throw notDrumlin(path, detail: error.message)
        }
    }

    /// Creates the metadata and every class's table in one transaction, if the file is still empty
    /// once this connection holds the write lock; false if another connection created it first.
    private static func create(_ connection: Connection, path: String, schema: Schema, classes: [ClassInfo],
                               version: UInt64) throws(DrumlinError) -> Bool {
        try connection.execute("BEGIN IMMEDIATE")
        do throws(DrumlinError) {
            guard try tableCount(connection, path: path) == 0 else {
                try connection.execute("ROLLBACK")
                return false
            }
            for sql in metadataStatements { try connection.execute(sql) }
            let meta = try connection.statement("INSERT INTO _drumlin_meta (key, value) VALUES (?1, ?2)")
            meta.bind("format", at: 1)
            meta.bind(Int64(formatVersion), at: 2)
            try meta.run()
            meta.bind("schema_version", at: 1)
            meta.bind(Int64(bitPattern: version), at: 2)
            try meta.run()
            for info in classes { try createClass(connection, info) }
            try connection.execute("COMMIT")
            return true
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    static func createClass(_ connection: Connection, _ info: ClassInfo) throws(DrumlinError) {
        for sql in info.createStatements + info.markKeyOrderedStatements { try connection.execute(sql) }
        try storeDefinition(connection, info)
    }

    static func storeDefinition(_ connection: Connection, _ info: ClassInfo) throws(DrumlinError) {
        let statement = try connection.statement("""
            INSERT INTO _drumlin_classes (table_name, name, definition) VALUES (?1, ?2, ?3) \
            ON CONFLICT (table_name) DO UPDATE SET name = excluded.name, definition = excluded.definition
            """)
        statement.bind(info.schema.storedName, at: 1)
        statement.bind(info.schema.name, at: 2)
        statement.bind(definition(info.schema).text, at: 3)
        try statement.run()
    }

    /// One class's normalized long form, as stored in `_drumlin_classes.definition`.
    static func definition(_ objectSchema: ObjectSchema) -> JSON {
        Schema([objectSchema]).normalizedJSON.arrayElements?.first ?? .null
    }
}
