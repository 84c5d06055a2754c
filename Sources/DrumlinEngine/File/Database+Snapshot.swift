import CSQLite
import DrumlinSchema
import DrumlinStorage
import DrumlinValues
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: Copies and frozen snapshots
//
// A copy is SQLite's online backup of the committed state, page by page, in one read transaction
// of this connection (so it is one version, whatever other connections commit meanwhile). A
// frozen snapshot is such a copy in a private temporary file, opened read-only: it reads the
// version it was taken at for as long as it lives, from any thread (a `Database` serializes its
// calls), and its file is removed when it is deinitialized.

/// `close(2)`, which a `Database` method cannot name (its own `close()` hides it).
private func closeDescriptor(_ descriptor: Int32) { close(descriptor) }

extension Database {
    /// Writes the committed state of the database to a new file at `path`, a Drumlin database
    /// that opens with this schema (and keeps the schema version), encrypted with `encryptionKey`
    /// or, without one, plain, whatever this file is (Realm's `writeCopy(toFile:encryptionKey:)`:
    /// the way to add, change or remove encryption; docs/encryption.md). Not inside a write
    /// transaction; a file already at `path` is an error (`FILE`, "already exists"), a directory
    /// too, and nothing is left behind when the copy fails. The corresponding C function is
    /// `drumlin_write_copy`.
    public func writeCopy(to path: String, encryptionKey: EncryptionKey? = nil) throws(DrumlinError) {
        if path.isEmpty { throw DrumlinError(.invalidArgument, "The path of a copy cannot be empty.") }
        if path == ":memory:" {
            throw DrumlinError(.invalidArgument, "Cannot write a copy to ':memory:': give the path of a new file.")
        }
        var status = stat()
        if lstat(path, &status) == 0 {
            if status.st_mode & S_IFMT == S_IFDIR {
                throw DrumlinError(.file, "Cannot write a copy to '\(path)': it is a directory; give the path of a new file.")
            }
            throw DrumlinError(.file, "Cannot write a copy to '\(path)': the file already exists.")
        }
        if let problem = Storage.directoryProblem(path) {
            throw DrumlinError(.file, "Cannot write a copy to '\(path)': \(problem).")
        }
        try copy(to: path, key: encryptionKey, journalMode: "WAL")
        log(.info, "Wrote a\(encryptionKey == nil ? "" : "n encrypted") copy of '\(self.path)' to '\(path)'.")
    }

    /// A read-only database holding the committed state as it is now: its reads never see later
    /// commits. It may be used from any thread. Not inside a write transaction (Realm's rule for
    /// freezing). Its temporary file is removed when it is deinitialized.
    public func frozenSnapshot() throws(DrumlinError) -> Database {
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array((directory + "/drumlin-frozen-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if descriptor < 0 {
            throw DrumlinError(.file, "Cannot make a frozen snapshot: no temporary file in '\(directory)' (\(String(cString: strerror(errno)))).")
        }
        closeDescriptor(descriptor)
        let file = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        do throws(DrumlinError) {
            // A rollback-journal file: opened read-only, it needs no shared-memory file beside it.
            // An encrypted database's snapshot is encrypted with its key: no plaintext on disk.
            try copy(to: file, key: options.encryptionKey, journalMode: "DELETE")
            var frozenOptions = OpenOptions(schemaVersion: schemaVersion, readOnly: true)
            frozenOptions.busyTimeout = options.busyTimeout
            frozenOptions.encryptionKey = options.encryptionKey
            let snapshot = try Database(path: file, schema: schema, options: frozenOptions)
            snapshot.ownedFile = file
            return snapshot
        } catch {
            unlink(file)
            throw error
        }
    }

    /// Copies the committed state to `destination` (absent or empty) with SQLite's `VACUUM INTO`
    /// (`Connection.vacuumInto`), encrypted with `key` or plain, then sets the copy's journal mode.
    /// Whatever it wrote is removed when it fails.
    private func copy(to destination: String, key: EncryptionKey?, journalMode: String) throws(DrumlinError) {
        try serialized { (connection) throws(DrumlinError) in
            if inWriteTransaction {
                throw DrumlinError(.wrongTransactionState, "Cannot copy or freeze a database inside a write transaction.")
            }
            func removeCopy() { for suffix in ["", "-wal", "-shm", "-journal"] { unlink(destination + suffix) } }
            do throws(DrumlinError) {
                if let key {
                    try key.withBytes { (bytes) throws(DrumlinError) in try connection.vacuumInto(destination, encryptionKey: bytes) }
                } else {
                    try connection.vacuumInto(destination, encryptionKey: nil)
                }
                // VACUUM INTO writes a file with a rollback journal.
                let target: Connection
                if let key {
                    target = try key.withBytes { (bytes) throws(DrumlinError) in
                        try Connection(path: destination, flags: SQLITE_OPEN_READWRITE, busyTimeout: options.busyTimeoutMilliseconds, encryptionKey: bytes)
                    }
                } else {
                    target = try Connection(path: destination, flags: SQLITE_OPEN_READWRITE, busyTimeout: options.busyTimeoutMilliseconds)
                }
                defer { target.close() }
                try target.execute("PRAGMA journal_mode = \(journalMode)")
            } catch where error.code == .corrupt || error.code == .busy {
                // A damaged page of this file, or a lock: said as it is.
                removeCopy()
                throw error
            } catch {
                removeCopy()
                throw DrumlinError(.file, "Cannot write a copy to '\(destination)': \(error.message)", sqliteCode: error.sqliteCode)
            }
        }
    }
}

extension Results {
    /// The same results (class, base, filters, order) read from `other`, a database with this
    /// one's schema: a frozen snapshot of it, or a copy. A class `other` lacks is `NO_SUCH_CLASS`.
    public func resolved(in other: Database) throws(DrumlinError) -> Results {
        func counterpart(_ info: ClassInfo) throws(DrumlinError) -> ClassInfo {
            guard let found = other.classByName[ExactName(info.name)] else {
                throw DrumlinError(.noSuchClass, "Object type '\(info.name)' is not in the database.")
            }
            return found
        }
        let newBase: Base
        switch base {
        case .all, .list, .snapshot: newBase = base
        case .backlinks(let origin, let property, let key):
            newBase = .backlinks(origin: try counterpart(origin), property: property, key: key)
        }
        let newOwner: (ClassInfo, Int64)?
        if let owner { newOwner = (try counterpart(owner.0), owner.1) } else { newOwner = nil }
        return Results(database: other, info: try counterpart(info), base: newBase, steps: steps, owner: newOwner)
    }
}

extension Database {
    /// The file's size and the bytes its pages in use take (the rest is free pages, which
    /// `compact()` gives back), both counting the main file only. In memory: the pages held.
    public func storageSize() throws(DrumlinError) -> (total: Int64, used: Int64) {
        try serializedRead { (connection) throws(DrumlinError) -> (total: Int64, used: Int64) in
            func number(_ pragma: String) throws(DrumlinError) -> Int64 {
                Int64(try connection.scalarText("PRAGMA \(pragma)") ?? "") ?? 0
            }
            let pageSize = try number("page_size")
            let pages = try number("page_count")
            let free = try number("freelist_count")
            var total = pages * pageSize
            if path != ":memory:" {
                var status = stat()
                if stat(path, &status) == 0 { total = max(total, Int64(status.st_size)) }
            }
            return (total, (pages - free) * pageSize)
        }
    }
}
