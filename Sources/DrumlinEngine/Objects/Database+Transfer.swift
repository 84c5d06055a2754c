import CSQLite
import DrumlinSchema
import DrumlinStorage
import DrumlinValues
#if canImport(Glibc)
import Glibc
#endif

/// Export and import as Extended JSON lines (NDJSON): one object per line, streamed, so memory
/// stays the same whatever the number of objects.
///
/// A line is an object's properties as `drumlin_object_to_json` writes them (links as the target's
/// primary key, embedded objects nested, linkingObjects left out). An export of every type adds
/// `"$type": "<class>"` to each line; objects of a type without a primary key carry their object
/// key as `"$key"`, which links to them use: an import maps those keys to the new objects' keys.
/// A link to an object that comes later in the file is set once that object exists.
extension Database {
    /// Progress of an export or import: `done` of `total` (objects for an export; bytes read for an
    /// import, `total` 0 when the input's size is unknown). Return false to cancel.
    public typealias TransferProgress = (_ done: Int64, _ total: Int64) -> Bool

    /// How many objects pass between two progress reports.
    static let progressInterval = 1000

    // MARK: Export

    /// Writes the objects of one type (`className`), or of every type, to `path` as Extended JSON
    /// lines, in creation order, from one consistent read. Types are written so that link targets
    /// come before the objects linking to them where the schema allows. Asymmetric types cannot be
    /// read and are skipped. On failure the output file is removed. `/dev/stdout` and `/dev/fd/N`
    /// write through the process's own descriptor (see `openStream`). Returns the number of objects.
    /// The corresponding C function is `drumlin_export_ndjson`.
    @discardableResult
    public func exportNDJSON(to path: String, className: String? = nil,
                             progress: TransferProgress? = nil) throws(DrumlinError) -> Int64 {
        try serialized { (connection) throws(DrumlinError) -> Int64 in
            let selected: [ClassInfo]
            if let className {
                let info = try classInfo(className)
                if info.isEmbedded {
                    throw DrumlinError(.notSupported, "'\(info.name)' is an embedded type: its objects are exported inside their owners.")
                }
                if info.schema.kind == .asymmetric {
                    throw DrumlinError(.notSupported, "'\(info.name)' is an asymmetric type: its objects cannot be read.")
                }
                selected = [info]
            } else {
                selected = exportOrder()
            }
            // Inside a write, or in a delivery's read transaction (a callback), it reads in that one.
            let ownRead = !inWriteTransaction && connection.isAutocommit
            if ownRead { try connection.execute("BEGIN") }
            defer { if ownRead { try? connection.execute("COMMIT") } }
            var total: Int64 = 0
            for info in selected {
                let statement = try connection.statement(slot: info.slot(.count), info.countSQL)
                defer { statement.reset() }
                if try statement.step() { total += statement.int64(0) }
            }
            guard let file = openStream(path, writing: true) else {
                throw DrumlinError(.file, "Cannot write '\(path)': \(String(cString: strerror(errno))).")
            }
            var finished = false
            defer {
                fclose(file)
                if !finished { removeIfRegularFile(path) }
            }
            var exporter = Exporter(file: file, path: path, total: total, progress: progress)
            for info in selected {
                try exportClass(info, tagged: className == nil, connection, &exporter)
            }
            try exporter.finish()
            finished = true
            return exporter.count
        }
    }

    /// Top-level types (asymmetric ones cannot be read), each after the types it links to where
    /// there is no cycle; schema order otherwise.
    func exportOrder() -> [ClassInfo] {
        var visited = Set<Int>()
        var order: [ClassInfo] = []
        func visit(_ info: ClassInfo) {
            guard visited.insert(info.index).inserted else { return }
            for (index, target) in info.targets.enumerated() where info.traits[index].type == .object {
                if let target { visit(target) }
            }
            if info.schema.kind == .topLevel { order.append(info) }
        }
        for info in classes { visit(info) }
        return order
    }

    private func exportClass(_ info: ClassInfo, tagged: Bool, _ connection: Connection,
                             _ exporter: inout Exporter) throws(DrumlinError) {
        var header = JSONWriter(reservingCapacity: 64)
        if tagged {
            header.writeString("$type")
            header.writeByte(UInt8(ascii: ":"))
            header.writeString(info.name)
        }
        let keyed = info.primaryKeyIndex == nil
        var writer = JSONWriter(reservingCapacity: 1024)
        if !info.hasRelationships {
            let statement = try connection.statement("SELECT \(info.rowColumnsT0) FROM \(info.table) AS t0 ORDER BY \(info.creationOrderT0)")
            defer { statement.reset() }
            while try statement.step() {
                writer.removeAll()
                try writeRowJSON(info, statement, to: &writer)
                try exporter.write(writer.bytes, header: header.bytes, key: keyed ? statement.int64(0) : nil)
            }
            return
        }
        let statement = try connection.statement("SELECT t0.\(info.keyColumn) FROM \(info.table) AS t0 ORDER BY \(info.creationOrderT0)")
        defer { statement.reset() }
        while try statement.step() {
            let key = statement.int64(0)
            writer.removeAll()
            try writeJSON(info, key, depth: 0, connection, to: &writer, exporting: true)
            try exporter.write(writer.bytes, header: header.bytes, key: keyed ? key : nil)
        }
    }

    /// Opens a file for streaming. `/dev/stdin`, `/dev/stdout`, `/dev/stderr` and `/dev/fd/N` use a
    /// duplicate of the process's own descriptor instead of opening the file again, so output
    /// redirected to a file continues where the process's writes are (as shell tools do), rather
    /// than starting at its beginning.
    private func openStream(_ path: String, writing: Bool) -> UnsafeMutablePointer<FILE>? {
        let descriptor: Int32? = switch path {
        case "/dev/stdin": 0
        case "/dev/stdout": 1
        case "/dev/stderr": 2
        default: path.hasPrefix("/dev/fd/") ? Int32(path.dropFirst(8)) : nil
        }
        guard let descriptor else { return fopen(path, writing ? "w" : "r") }
        let copy = dup(descriptor)
        guard copy >= 0 else { return nil }
        guard let file = fdopen(copy, writing ? "w" : "r") else {
            Glibc.close(copy)
            return nil
        }
        return file
    }

    private func removeIfRegularFile(_ path: String) {
        var info = stat()
        if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { unlink(path) }  // never through a symlink such as /dev/stdout
    }

    // MARK: Import

    /// Reads Extended JSON lines from `path` and creates one object per line: of `className`, or
    /// of the type each line names in `"$type"`. Blank lines are skipped. The whole import is one
    /// transaction (or runs inside the caller's, as one step of it): the first bad line stops it,
    /// nothing is imported, and the error names the line and the reason. With `batchSize` > 0 it
    /// commits every `batchSize` objects instead, and a failure keeps the batches committed
    /// before it. `update` as in `create`. Returns the number of objects created or updated.
    /// The corresponding C function is `drumlin_import_ndjson`.
    @discardableResult
    public func importNDJSON(from path: String, className: String? = nil, update mode: UpdateMode = .never,
                             batchSize: Int = 0, progress: TransferProgress? = nil) throws(DrumlinError) -> Int64 {
        try serialized { (connection) throws(DrumlinError) -> Int64 in
            if options.readOnly { throw DrumlinError(.readOnly, "The database was opened read-only.") }
            guard batchSize >= 0 else { throw DrumlinError(.invalidArgument, "batch_size must not be negative, got \(batchSize).") }
            let fixed = try className.map { (name) throws(DrumlinError) -> ClassInfo in try importableClass(name) }
            let ownTransaction = !inWriteTransaction
            if !ownTransaction && batchSize > 0 {
                throw DrumlinError(.wrongTransactionState, "An import in batches commits them itself: call it outside a write transaction.")
            }
            guard let file = openStream(path, writing: false) else {
                throw DrumlinError(.file, "Cannot read '\(path)': \(String(cString: strerror(errno))).")
            }
            defer { fclose(file) }
            var status = stat()
            let total = fstat(fileno(file), &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG ? Int64(status.st_size) : 0
            var importer = Importer(fixed: fixed, mode: mode, total: total, progress: progress)
            if ownTransaction {
                try beginWriteLocked(connection)
                do throws(DrumlinError) {
                    try importer.prepare(connection)
                    try importLines(file, &importer, connection, batchSize: batchSize)
                    try importer.applyDeferred(self, connection)
                    try importer.clear(connection)
                    try importer.reportEnd()
                    try commitLocked(connection)
                } catch {
                    try? rollbackLocked(connection)
                    if importer.committed > 0 {
                        throw DrumlinError(error.code, error.message + " (\(importer.committed) objects from earlier batches stay imported.)",
                                           sqliteCode: error.sqliteCode)
                    }
                    throw error
                }
            } else {
                try atomically(connection) { () throws(DrumlinError) in
                    try importer.prepare(connection)
                    try importLines(file, &importer, connection, batchSize: 0)
                    try importer.applyDeferred(self, connection)
                    try importer.clear(connection)
                    try importer.reportEnd()
                }
            }
            return importer.count
        }
    }

    private func importableClass(_ name: String) throws(DrumlinError) -> ClassInfo {
        let info = try classInfo(name)
        if info.isEmbedded {
            throw DrumlinError(.notSupported, "'\(info.name)' is an embedded type: its objects are imported inside their owner's line.")
        }
        return info
    }

    private func importLines(_ file: UnsafeMutablePointer<FILE>, _ importer: inout Importer, _ connection: Connection,
                             batchSize: Int) throws(DrumlinError) {
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        while true {
            let length = getline(&buffer, &capacity, file)
            if length < 0 { break }
            importer.line += 1
            importer.bytesRead += Int64(length)
            guard let buffer else { continue }
            var end = length
            while end > 0, buffer[end - 1] == 0x0A || buffer[end - 1] == 0x0D || buffer[end - 1] == 0x20 || buffer[end - 1] == 0x09 { end -= 1 }
            if end == 0 { continue }
            do throws(DrumlinError) {
                let json: JSON
                do {
                    json = try JSON.parse(bytes: UnsafeRawBufferPointer(start: buffer, count: end))
                } catch {
                    throw DrumlinError(.invalidArgument, error.description)
                }
                try importer.importRecord(json, self, connection)
            } catch {
                if importer.flushFailed { throw error }  // it names its own line
                try importer.flush(self, connection)  // a bad line buffered before this one is the first
                throw DrumlinError(error.code, "Line \(importer.line): \(error.message)", sqliteCode: error.sqliteCode)
            }
            if batchSize > 0, importer.count % Int64(batchSize) == 0 {
                try importer.flush(self, connection)
                try commitLocked(connection)
                importer.committed = importer.count
                try beginWriteLocked(connection)
            }
            if importer.count % Int64(Self.progressInterval) == 0, let progress = importer.progress,
               !progress(importer.bytesRead, importer.total) {
                throw DrumlinError(.callback, "The import was cancelled by the progress callback at line \(importer.line).")
            }
        }
        try importer.flush(self, connection)
        if ferror(file) != 0 { throw DrumlinError(.file, "Reading the input failed after line \(importer.line).") }
    }

    /// Rewrites a reference to an object of `target` (a primary key, or an object key from the
    /// exporting file) for this file; nil when the object does not exist yet. Nested objects and
    /// nulls pass unchanged.
    fileprivate func resolveReference(_ json: JSON, _ target: ClassInfo, _ importer: Importer,
                                      _ connection: Connection) throws(DrumlinError) -> JSON? {
        switch json {
        case .null: return json
        case .object:
            if try ExtendedJSON.wrapped(json) == nil { return json }  // a nested object: created
        default: break
        }
        if target.primaryKeyIndex == nil {
            guard case .int(let old) = json else { return json }  // the create reports the type
            if let new = try importer.mappedKey(target, old, connection) { return .int(new) }
            return try exists(target, old, connection) && !importer.keyedClasses.contains(target.index) ? json : nil
        }
        let value = try Self.decodeValue(json, Label(className: target.name, propertyName: "primary key"))
        return try findKey(target, value, connection) == nil ? nil : json
    }

    /// A link, list, set or dictionary of links with every reference resolved, or nil when one
    /// of them points at an object that does not exist yet.
    fileprivate func resolveLinks(_ json: JSON, _ info: ClassInfo, _ index: Int, _ importer: Importer,
                                  _ connection: Connection) throws(DrumlinError) -> JSON? {
        if info.traits[index].type == .mixed {
            return try resolveMixedLinks(json, connection) { (target, old) throws(DrumlinError) -> JSON? in
                try resolveReference(.int(old), target, importer, connection)
            }
        }
        guard let target = info.targets[index] else { return json }
        func resolve(_ element: JSON) throws(DrumlinError) -> JSON? {
            target.isEmbedded ? try resolveEmbedded(element, target, importer, connection)
                : try resolveReference(element, target, importer, connection)
        }
        switch (info.traits[index].collection, json) {
        case (.single, _):
            return try resolve(json)
        case (.list, .array(let items)), (.set, .array(let items)):
            var resolved: [JSON] = []
            resolved.reserveCapacity(items.count)
            for item in items {
                guard let item = try resolve(item) else { return nil }
                resolved.append(item)
            }
            return .array(resolved)
        case (.dictionary, .object(let members)):
            var resolved: [(key: String, value: JSON)] = []
            for (key, value) in members {
                guard let value = try resolve(value) else { return nil }
                resolved.append((key, value))
            }
            return .object(resolved)
        default:
            return json  // the wrong shape: the create reports it
        }
    }

    /// An embedded object's payload with the links inside it resolved, or nil when one of them
    /// points at an object that does not exist yet.
    private func resolveEmbedded(_ json: JSON, _ info: ClassInfo, _ importer: Importer,
                                 _ connection: Connection) throws(DrumlinError) -> JSON? {
        guard info.hasRelationships, case .object(var members) = json, try ExtendedJSON.wrapped(json) == nil else { return json }
        for position in members.indices {
            guard let index = info.propertyIndex(members[position].key), info.traits[index].type == .object else { continue }
            guard let resolved = try resolveLinks(members[position].value, info, index, importer, connection) else { return nil }
            members[position].value = resolved
        }
        return .object(members)
    }
}

/// Writes export lines through stdio's buffer and reports progress.
private struct Exporter {
    let file: UnsafeMutablePointer<FILE>
    let path: String
    let total: Int64
    let progress: Database.TransferProgress?
    var count: Int64 = 0

    init(file: UnsafeMutablePointer<FILE>, path: String, total: Int64, progress: Database.TransferProgress?) {
        self.file = file
        self.path = path
        self.total = total
        self.progress = progress
    }

    /// One line: `{` + the header members + `"$key"` + the object's own members.
    mutating func write(_ object: [UInt8], header: [UInt8], key: Int64?) throws(DrumlinError) {
        var prefix = header
        if let key {
            if !prefix.isEmpty { prefix.append(UInt8(ascii: ",")) }
            prefix.append(contentsOf: Array("\"$key\":\(key)".utf8))
        }
        var ok = true
        if prefix.isEmpty {
            ok = fwrite(object, 1, object.count, file) == object.count
        } else {
            ok = fputc(Int32(UInt8(ascii: "{")), file) != EOF && fwrite(prefix, 1, prefix.count, file) == prefix.count
            let rest = object.dropFirst()  // after "{"
            if ok, rest.first != UInt8(ascii: "}") { ok = fputc(Int32(UInt8(ascii: ",")), file) != EOF }
            if ok { ok = rest.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) == $0.count } }
        }
        if ok { ok = fputc(0x0A, file) != EOF }
        guard ok else { throw DrumlinError(.file, "Writing '\(path)' failed: \(String(cString: strerror(errno))).") }
        count += 1
        if count % Int64(Database.progressInterval) == 0, let progress, !progress(count, total) {
            throw DrumlinError(.callback, "The export was cancelled by the progress callback after \(count) objects.")
        }
    }

    func finish() throws(DrumlinError) {
        guard fflush(file) == 0 else { throw DrumlinError(.file, "Writing '\(path)' failed: \(String(cString: strerror(errno))).") }
        if let progress, !progress(count, total) {
            throw DrumlinError(.callback, "The export was cancelled by the progress callback after \(count) objects.")
        }
    }
}

/// The state of one import: counters, and two temporary tables (on disk, not in memory): object
/// keys of the exporting file mapped to the new ones, and links whose targets come later.
private struct Importer {
    let fixed: ClassInfo?
    let mode: UpdateMode
    let total: Int64
    let progress: Database.TransferProgress?
    var line = 0
    var bytesRead: Int64 = 0
    var count: Int64 = 0
    var committed: Int64 = 0
    /// Classes whose lines carried `$key`: references to them are keys of the exporting file.
    var keyedClasses = Set<Int>()
    /// Consecutive lines of one type of plain columns giving the same properties: inserted
    /// together, in multi-row INSERTs (`insertRows`, the bulk path of `createMany`).
    var run: (info: ClassInfo, indices: [Int], rows: [[BorrowedValue]], lines: [Int])?
    static let runLength = 1024
    /// Set when inserting a run failed: its error already names the line.
    var flushFailed = false

    init(fixed: ClassInfo?, mode: UpdateMode, total: Int64, progress: Database.TransferProgress?) {
        self.fixed = fixed
        self.mode = mode
        self.total = total
        self.progress = progress
    }

    static let keysTable = "temp._drumlin_import_keys"
    static let deferredTable = "temp._drumlin_import_links"

    func prepare(_ connection: Connection) throws(DrumlinError) {
        try connection.execute("""
            CREATE TEMP TABLE IF NOT EXISTS _drumlin_import_keys (class INTEGER NOT NULL, old INTEGER NOT NULL, \
            new INTEGER NOT NULL, PRIMARY KEY (class, old)) WITHOUT ROWID;
            CREATE TEMP TABLE IF NOT EXISTS _drumlin_import_links (line INTEGER NOT NULL, class INTEGER NOT NULL, \
            key INTEGER NOT NULL, property INTEGER NOT NULL, value TEXT NOT NULL)
            """)
        try clear(connection)
    }

    func clear(_ connection: Connection) throws(DrumlinError) {
        try connection.execute("DELETE FROM \(Self.keysTable); DELETE FROM \(Self.deferredTable)")
    }

    /// The last progress report; cancelling it still undoes the import.
    func reportEnd() throws(DrumlinError) {
        if let progress, !progress(bytesRead, total) {
            throw DrumlinError(.callback, "The import was cancelled by the progress callback at its end.")
        }
    }

    func mappedKey(_ target: ClassInfo, _ old: Int64, _ connection: Connection) throws(DrumlinError) -> Int64? {
        let statement = try connection.statement("SELECT new FROM \(Self.keysTable) WHERE class = ?1 AND old = ?2")
        defer { statement.reset() }
        statement.bind(Int64(target.index), at: 1)
        statement.bind(old, at: 2)
        return try statement.step() ? statement.int64(0) : nil
    }

    mutating func importRecord(_ json: JSON, _ db: Database, _ connection: Connection) throws(DrumlinError) {
        guard case .object(var members) = json else {
            throw DrumlinError(.invalidArgument, "Expected a JSON object, got \(json.kindName).")
        }
        var info = fixed
        var oldKey: Int64?
        var position = 0
        while position < members.count {
            let (name, value) = members[position]
            switch name {
            case "$type":
                guard case .string(let typeName) = value else {
                    throw DrumlinError(.invalidArgument, "\"$type\" must be a type name, got \(value.kindName).")
                }
                let named = try db.classInfo(typeName)
                if let fixed, fixed !== named {
                    throw DrumlinError(.invalidArgument, "The line is a '\(named.name)', but the import is of '\(fixed.name)'.")
                }
                if named.isEmbedded {
                    throw DrumlinError(.notSupported, "'\(named.name)' is an embedded type: its objects are imported inside their owner's line.")
                }
                info = named
                members.remove(at: position)
            case "$key":
                guard case .int(let key) = value else {
                    throw DrumlinError(.invalidArgument, "\"$key\" must be an integer object key, got \(value.kindName).")
                }
                oldKey = key
                members.remove(at: position)
            default:
                position += 1
            }
        }
        guard let info else {
            throw DrumlinError(.invalidArgument, "The line has no \"$type\" naming its object type (or import it with a type).")
        }
        if oldKey != nil {
            guard info.primaryKeyIndex == nil else {
                throw DrumlinError(.invalidArgument, "\"$key\" is for types without a primary key; '\(info.name)' has one.")
            }
        }
        if oldKey == nil, try appendToRun(info, members, db) {
            if run?.rows.count ?? 0 >= Self.runLength { try flush(db, connection) }
            return
        }
        try flush(db, connection)
        // Links to objects that do not exist yet are set at the end.
        var pending: [(index: Int, value: JSON)] = []
        if info.hasRelationships {
            position = 0
            while position < members.count {
                let (name, value) = members[position]
                if let index = info.propertyIndex(name), info.traits[index].type == .object || info.traits[index].type == .mixed {
                    if let resolved = try db.resolveLinks(value, info, index, self, connection) {
                        members[position].value = resolved
                    } else {
                        pending.append((index, value))
                        members.remove(at: position)
                        continue
                    }
                }
                position += 1
            }
        }
        try db.checkWritable(info, mode: mode)
        let given = try db.decodePayload(info, .object(members))
        // No savepoint per object: the import as a whole is all or nothing.
        let key = try db.create(info, given, mode: mode, connection)
        if let oldKey {
            keyedClasses.insert(info.index)
            let statement = try connection.statement("INSERT OR REPLACE INTO \(Self.keysTable) (class, old, new) VALUES (?1, ?2, ?3)")
            defer { statement.reset() }
            statement.bind(Int64(info.index), at: 1)
            statement.bind(oldKey, at: 2)
            statement.bind(key, at: 3)
            try statement.run()
        }
        for (index, value) in pending {
            var writer = JSONWriter()
            writer.write(value)
            let statement = try connection.statement("INSERT INTO \(Self.deferredTable) (line, class, key, property, value) VALUES (?1, ?2, ?3, ?4, ?5)")
            defer { statement.reset() }
            statement.bind(Int64(line), at: 1)
            statement.bind(Int64(info.index), at: 2)
            statement.bind(key, at: 3)
            statement.bind(Int64(index), at: 4)
            statement.bind(writer.string, at: 5)
            try statement.run()
        }
        count += 1
    }

    /// Buffers a line of a type of plain columns (no links, collections or mixed values, nothing
    /// linking to it) for a multi-row insert; false when it takes the general path.
    mutating func appendToRun(_ info: ClassInfo, _ members: [(key: String, value: JSON)], _ db: Database) throws(DrumlinError) -> Bool {
        guard mode == .never, !info.hasRelationships, !info.hasOptionalPrimaryKey, info.schema.kind == .topLevel,
              info.geoPointIndices == nil else { return false }
        var indices: [Int] = []
        var row: [BorrowedValue] = []
        indices.reserveCapacity(members.count)
        row.reserveCapacity(members.count)
        for (name, json) in members {
            guard let index = info.propertyIndex(name), info.propertyNames[index].isSameName(name), info.traits[index].isColumn,
                  !indices.contains(index) else { return false }  // the general path reports it
            indices.append(index)
            switch json {
            case .null: row.append(.null)
            case .bool(let b): row.append(.bool(b))
            case .int(let i): row.append(.int(i))
            case .double(let d): row.append(.double(d))
            default: row.append(.value(try Database.decodeValue(json, Label(className: info.name, propertyName: name))))
            }
        }
        if let current = run, current.info !== info || current.indices != indices {
            return false  // the caller flushes, then takes the general path for this line
        }
        if run == nil { run = (info, indices, [], []) }
        run!.rows.append(row)
        run!.lines.append(line)
        count += 1
        return true
    }

    /// Inserts the buffered run; an error names the line it came from.
    mutating func flush(_ db: Database, _ connection: Connection) throws(DrumlinError) {
        guard let current = run else { return }
        run = nil
        do throws(DrumlinError) {
            try db.insertRows(current.info, current.indices, current.rows.count, { (r, out) throws(DrumlinError) in
                for (position, value) in current.rows[r].enumerated() { out[position] = value }
            }, connection)
        } catch {
            // insertRows names the element: "Element <n>: ..."; say the line instead.
            var message = error.message
            if message.hasPrefix("Element "), let colon = message.firstIndex(of: ":"),
               let element = Int(message[message.index(message.startIndex, offsetBy: 8)..<colon]),
               current.lines.indices.contains(element) {
                message = "Line \(current.lines[element])" + message[colon...]
            }
            flushFailed = true
            throw DrumlinError(error.code, message, sqliteCode: error.sqliteCode)
        }
    }

    /// Sets the links whose targets came later in the input; one still missing is an error.
    func applyDeferred(_ db: Database, _ connection: Connection) throws(DrumlinError) {
        // Read in chunks by rowid: the updates below use the connection's statements.
        var after: Int64 = 0
        while true {
            let statement = try connection.statement("SELECT rowid, line, class, key, property, value FROM \(Self.deferredTable) WHERE rowid > ?1 ORDER BY rowid LIMIT 1000")
            statement.bind(after, at: 1)
            var rows: [(line: Int64, classIndex: Int, key: Int64, property: Int, value: String)] = []
            while try statement.step() {
                after = statement.int64(0)
                rows.append((statement.int64(1), Int(statement.int64(2)), statement.int64(3), Int(statement.int64(4)), statement.string(5)))
            }
            statement.reset()
            if rows.isEmpty { return }
            for row in rows {
                do throws(DrumlinError) {
                    let info = try db.classInfo(index: row.classIndex)
                    let json: JSON
                    do { json = try JSON.parse(row.value) } catch { throw DrumlinError(.internal, error.description) }
                    guard let resolved = try db.resolveLinks(json, info, row.property, self, connection) else {
                        let target = info.targets[row.property].map { "a '\($0.name)'" } ?? "an object"
                        throw DrumlinError(.invalidArgument, "Property '\(info.name).\(info.propertyNames[row.property])' links to \(target) that is neither in the file nor in the database: \(row.value)")
                    }
                    let input = try db.decodeInput(resolved, info, row.property)
                    try db.update(info, row.key, [(row.property, input)], mode: .all, connection)
                } catch {
                    throw DrumlinError(error.code, "Line \(row.line): \(error.message)", sqliteCode: error.sqliteCode)
                }
            }
        }
    }
}
