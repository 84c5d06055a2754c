import DrumlinStorage
import DrumlinValues

/// What a bulk create (`createMany`, in `.never` mode) defers and remembers across its elements:
/// the rows of list and dictionary elements and of nested mixed values, written in multi-row
/// `INSERT`s (64 rows per statement) instead of one statement each, and the link targets already
/// found by primary key or checked to exist.
///
/// Deferring is safe because nothing a create in `.never` mode does reads those tables back, and
/// no object is deleted during the call (so a target found once stays). The values are resolved
/// and checked when they are appended, so a flush fails only on SQLite's own errors; it then
/// writes its rows one at a time to name the element that failed.
final class PendingRows {
    /// The element being created (for messages), set by the bulk loop.
    var element = 0

    /// Targets found by primary key, by class index: int and string keys.
    var keysByInt: [Int: [Int64: Int64]] = [:]
    var keysByString: [Int: [String: Int64]] = [:]
    /// Objects known to exist, by class index (a link given as `.link`).
    var existing: [Int: Set<Int64>] = [:]

    static let batch = 64

    /// One side table's pending rows, `width` values each.
    struct Table {
        let prefix: String
        let width: Int
        var values: [Value] = []
        var elements: [Int] = []
        var many: Statement?
        var count: Int { elements.count }
    }

    private var tables: [Int: Table] = [:]
    /// Tables with `batch` rows or more.
    private var full: [Int] = []

    /// Where a side table's rows go: `id` names the table (see `tableID`), `prefix` is its
    /// `INSERT INTO t (columns)`.
    func append(_ id: Int, prefix: @autoclosure () -> String, width: Int, _ a: Value, _ b: Value, _ c: Value,
                _ d: Value? = nil, _ e: Value? = nil) {
        if tables[id] == nil { tables[id] = Table(prefix: prefix(), width: width) }
        tables[id]!.values.append(a)
        tables[id]!.values.append(b)
        tables[id]!.values.append(c)
        if let d { tables[id]!.values.append(d) }
        if let e { tables[id]!.values.append(e) }
        tables[id]!.elements.append(element)
        if tables[id]!.count == Self.batch { full.append(id) }
    }

    /// The id of a collection property's side table.
    static func tableID(_ info: ClassInfo, _ index: Int) -> Int { info.index << 20 | index }
    /// The id of `_drumlin_mixed`.
    static let mixedTableID = -1

    /// Writes the tables holding a full batch.
    func flushFull(_ connection: Connection) throws(DrumlinError) {
        guard !full.isEmpty else { return }
        let ids = full
        full.removeAll(keepingCapacity: true)
        for id in ids { try flush(id, connection) }
    }

    /// Writes every pending row.
    func flushAll(_ connection: Connection) throws(DrumlinError) {
        full.removeAll()
        for id in tables.keys.sorted() { try flush(id, connection) }
    }

    private func flush(_ id: Int, _ connection: Connection) throws(DrumlinError) {
        guard var table = tables[id], table.count > 0 else { return }
        tables[id] = nil    // no copy while it is mutated below
        defer {
            table.values.removeAll(keepingCapacity: true)
            table.elements.removeAll(keepingCapacity: true)
            tables[id] = table
        }
        let width = table.width
        var row = 0
        while row < table.count {
            let n = Swift.min(Self.batch, table.count - row)
            let statement: Statement
            if n == Self.batch {
                if table.many == nil { table.many = try connection.statement(Self.sql(table.prefix, n, width)) }
                statement = table.many!
            } else {
                statement = try connection.statement(Self.sql(table.prefix, n, width))
            }
            statement.reset()
            do throws(DrumlinError) {
                for (offset, value) in table.values[row * width..<(row + n) * width].enumerated() {
                    try ValueCodec.bind(value, to: statement, at: Int32(offset + 1))
                }
                _ = try statement.step()
                statement.reset()
            } catch {
                statement.reset()
                try writeOneByOne(table, row..<row + n, connection)
            }
            row += n
        }
    }

    /// The rows of a batch that failed, one statement each, so the error names its element.
    private func writeOneByOne(_ table: Table, _ rows: Range<Int>, _ connection: Connection) throws(DrumlinError) {
        let width = table.width
        let single = try connection.statement(Self.sql(table.prefix, 1, width))
        defer { single.reset() }
        for row in rows {
            do throws(DrumlinError) {
                single.reset()
                for position in 0..<width {
                    try ValueCodec.bind(table.values[row * width + position], to: single, at: Int32(position + 1))
                }
                _ = try single.step()
            } catch {
                throw DrumlinError(error.code, "Element \(table.elements[row]): \(error.message)", sqliteCode: error.sqliteCode)
            }
        }
    }

    private static func sql(_ prefix: String, _ rows: Int, _ width: Int) -> String {
        var tuples: [String] = []
        tuples.reserveCapacity(rows)
        for r in 0..<rows {
            tuples.append("(" + (0..<width).map { "?\(r * width + $0 + 1)" }.joined(separator: ", ") + ")")
        }
        return prefix + " VALUES " + tuples.joined(separator: ", ")
    }
}

extension Database {
    /// Runs a bulk create's element loop with its rows deferred (`PendingRows`) in `.never` mode:
    /// `body` gets a function to call after each element (it writes the full batches, outside the
    /// element's own error message); the rest is written before this returns.
    func withPendingRows<R>(mode: UpdateMode, _ connection: Connection,
                            _ body: (_ afterElement: (Int) throws(DrumlinError) -> Void) throws(DrumlinError) -> R) throws(DrumlinError) -> R {
        guard mode == .never, pendingRows == nil else { return try body { _ throws(DrumlinError) in } }
        let pending = PendingRows()
        pendingRows = pending
        defer { pendingRows = nil }
        let result = try body { (next) throws(DrumlinError) in
            try pending.flushFull(connection)
            pending.element = next
        }
        try pending.flushAll(connection)
        return result
    }
}

extension Database {
    /// `findKey`, remembering what it found in a bulk create's `pending` (int and string keys as
    /// given: the same value finds the same object for the rest of the call).
    func findKey(_ info: ClassInfo, _ primaryKey: Value, _ connection: Connection,
                 remembering pending: PendingRows?) throws(DrumlinError) -> Int64? {
        guard let pending else { return try findKey(info, primaryKey, connection) }
        switch primaryKey {
        case .int(let given):
            if let key = pending.keysByInt[info.index]?[given] { return key }
            let key = try findKey(info, primaryKey, connection)
            if let key { pending.keysByInt[info.index, default: [:]][given] = key }
            return key
        case .string(let given):
            if let key = pending.keysByString[info.index]?[given] { return key }
            let key = try findKey(info, primaryKey, connection)
            if let key { pending.keysByString[info.index, default: [:]][given] = key }
            return key
        default:
            return try findKey(info, primaryKey, connection)
        }
    }
}
