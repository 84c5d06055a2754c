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
    /// that opens with this schema (and keeps the schema version). Not inside a write
    /// transaction; a file already at `path` is an error (`FILE`, "already exists"), and nothing
    /// is left behind when the copy fails.
    public func writeCopy(to path: String) throws(DrumlinError) {
        if path.isEmpty { throw DrumlinError(.invalidArgument, "The path of a copy cannot be empty.") }
        if access(path, F_OK) == 0 {
            throw DrumlinError(.file, "Cannot write a copy to '\(path)': the file already exists.")
        }
        try copy(to: path, journalMode: "WAL")
        log(.info, "Wrote a copy of '\(self.path)' to '\(path)'.")
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
            try copy(to: file, journalMode: "DELETE")
            var frozenOptions = OpenOptions(schemaVersion: schemaVersion, readOnly: true)
            frozenOptions.busyTimeout = options.busyTimeout
            let snapshot = try Database(path: file, schema: schema, options: frozenOptions)
            snapshot.ownedFile = file
            return snapshot
        } catch {
            unlink(file)
            throw error
        }
    }

    /// Copies the committed state to `destination` (created or emptied) with SQLite's backup,
    /// then sets the copy's journal mode.
    private func copy(to destination: String, journalMode: String) throws(DrumlinError) {
        try serialized { (connection) throws(DrumlinError) in
            if inWriteTransaction {
                throw DrumlinError(.wrongTransactionState, "Cannot copy or freeze a database inside a write transaction.")
            }
            var target: OpaquePointer?
            let opened = sqlite3_open_v2(destination, &target, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
            guard opened == SQLITE_OK, let target else {
                let message = target.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
                sqlite3_close(target)
                throw DrumlinError(.file, "Cannot write a copy to '\(destination)': \(message).")
            }
            var failure: String?
            if let backup = sqlite3_backup_init(target, "main", connection.handle, "main") {
                let stepped = sqlite3_backup_step(backup, -1)
                sqlite3_backup_finish(backup)
                if stepped != SQLITE_DONE { failure = String(cString: sqlite3_errmsg(target)) }
            } else {
                failure = String(cString: sqlite3_errmsg(target))
            }
            if failure == nil, sqlite3_exec(target, "PRAGMA journal_mode = \(journalMode)", nil, nil, nil) != SQLITE_OK {
                failure = String(cString: sqlite3_errmsg(target))
            }
            sqlite3_close(target)
            if let failure {
                for suffix in ["", "-wal", "-shm", "-journal"] { unlink(destination + suffix) }
                throw DrumlinError(.file, "Cannot write a copy to '\(destination)': \(failure).")
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
