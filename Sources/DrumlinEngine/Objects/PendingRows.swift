import DrumlinStorage
import DrumlinValues

/// What a bulk create (`createMany`, in `.never` mode) defers and remembers across its elements:
/// the rows of new objects (of classes whose insert needs no read of their table first), of list
/// and dictionary elements and of nested mixed values, written in multi-row `INSERT`s (64 rows
/// per statement) instead of one statement each, and the link targets already found by primary
/// key or checked to exist.
///
/// Deferring is safe because what a create in `.never` mode reads of those tables goes through
/// `findKey` and `exists`, which write a class's pending rows first, and no object is deleted
/// during the call (so a target found once stays). A deferred object's key is known before its row
/// is written: its int primary key, or the key SQLite would give it (one above the greatest, which
/// `nextKey` counts from). Values are resolved and checked when they are appended, so a flush
/// fails only on SQLite's constraints (a duplicate primary key) and errors; it then writes its
/// rows one at a time to name the element that failed, and the earliest failing element is the
/// one reported, as when each object was written at once. Used under the database's call lock
/// only, so its stored properties skip Swift's dynamic exclusivity checks.
final class PendingRows {
    /// The element being created (for messages), set by the bulk loop.
    @exclusivity(unchecked) var element = 0
    /// The first failure a flush met (already naming its element): the call ends with it.
    @exclusivity(unchecked) private(set) var failure: DrumlinError?

    /// Targets found by primary key, by class index: int and string keys.
    @exclusivity(unchecked) var keysByInt = ClassTable<[Int64: Int64]>()
    @exclusivity(unchecked) var keysByString = ClassTable<[String: Int64]>()
    /// Objects known to exist, by class index (a link given as `.link`).
    @exclusivity(unchecked) var existing = ClassTable<Set<Int64>>()
    /// The next object key of classes keyed by `_drumlin_key`, by class index.
    @exclusivity(unchecked) private var nextKeys = ClassTable<Int64>()

    static let batch = 64

    /// Per class: the width of its deferred rows and where its primary key is in them (for the
    /// message of a duplicate), worked out on its first row of the call.
    @exclusivity(unchecked) private var layouts = ClassTable<(width: Int, duplicateKey: (String, Int)?)>()

    /// The values a deferred row of `info` binds: [the key,] each column (a mixed one with its
    /// type code) [, the sequence]; and the class's name with its primary key's position in them.
    func rowLayout(_ info: ClassInfo) -> (width: Int, duplicateKey: (String, Int)?) {
        if let known = layouts[info.index] { return known }
        var width = info.hasSequenceColumn ? 0 : 1
        var pkPosition: Int?
        for index in info.columnIndexes {
            if index == info.primaryKeyIndex { pkPosition = width }
            width += info.traits[index].type == .mixed ? 2 : 1
        }
        if info.hasSequenceColumn { width += 1 }
        let layout = (width: width, duplicateKey: pkPosition.map { (info.name, $0) })
        layouts[info.index] = layout
        return layout
    }

    /// One table's pending rows, `width` values each.
    struct Table {
        let prefix: String
        let width: Int
        /// For a class's own rows: its name and where the primary key is in a row (the message
        /// of a duplicate key).
        var duplicateKey: (className: String, position: Int)?
        /// Checked values: owned, or text and bytes borrowed from the bulk call's input (which
        /// outlives every flush: the rows are all written before the call returns).
        var values: [BorrowedValue] = []
        var elements: [Int] = []
        var many: Statement?
        var count: Int { elements.count }
    }

    /// The tables, and their ids (`ids[position]`: a call writes a handful of tables, found by a
    /// scan, not a hash). An array, so a table's rows grow in place.
    @exclusivity(unchecked) private var tables: [Table] = []
    @exclusivity(unchecked) private var ids: [Int] = []
    /// Tables with `batch` rows or more (positions in `tables`).
    @exclusivity(unchecked) private var full: [Int] = []

    /// The id of a collection property's side table.
    static func tableID(_ info: ClassInfo, _ index: Int) -> Int { info.index << 20 | index }
    /// The id of a class's own table.
    static func classTableID(_ info: ClassInfo) -> Int { info.index << 20 | 0xFFFFF }
    /// The id of `_drumlin_mixed`.
    static let mixedTableID = -1

    /// Appends a row of three to five values to table `id` (whose `INSERT INTO t (columns)` is
    /// `prefix`, made on first use).
    func append(_ id: Int, prefix: @autoclosure () -> String, width: Int, _ a: Value, _ b: Value, _ c: Value,
                _ d: Value? = nil, _ e: Value? = nil) {
        appendRow(id, prefix: prefix(), width: width) { values in
            values.append(.value(a))
            values.append(.value(b))
            values.append(.value(c))
            if let d { values.append(.value(d)) }
            if let e { values.append(.value(e)) }
        }
    }

    /// Appends one row that `fill` adds (`width` values) to table `id`.
    func appendRow(_ id: Int, prefix: @autoclosure () -> String, width: Int, duplicateKey: (String, Int)? = nil,
                   _ fill: (inout [BorrowedValue]) throws(DrumlinError) -> Void) rethrows {
        let position: Int
        if let known = ids.firstIndex(of: id) {
            position = known
        } else {
            position = tables.count
            ids.append(id)
            tables.append(Table(prefix: prefix(), width: width, duplicateKey: duplicateKey))
        }
        try fill(&tables[position].values)
        tables[position].elements.append(element)
        if tables[position].count == Self.batch { full.append(position) }
    }

    /// Whether rows of `info` itself wait to be written.
    func hasRows(of info: ClassInfo) -> Bool { ids.firstIndex(of: Self.classTableID(info)).map { tables[$0].count > 0 } ?? false }

    /// The key of the next object of a class keyed by `_drumlin_key`: one above the greatest in
    /// the table when the call started (SQLite's own choice for a row without a key), counting
    /// up. Nil when the greatest is the largest key (SQLite would pick another at random).
    func nextKey(_ info: ClassInfo, _ connection: Connection) throws(DrumlinError) -> Int64? {
        let next: Int64
        if let known = nextKeys[info.index] {
            next = known
        } else {
            let statement = try connection.statement("SELECT max(\(info.keyColumn)) FROM \(info.table)")
            defer { statement.reset() }
            next = try statement.step() && !statement.isNull(0) ? statement.int64(0) &+ 1 : 1
        }
        guard next != .min else { return nil }
        nextKeys[info.index] = next &+ 1
        return next
    }

    /// Writes the tables holding a full batch.
    func flushFull(_ connection: Connection) throws(DrumlinError) {
        guard !full.isEmpty else { return }
        let ids = full
        full.removeAll(keepingCapacity: true)
        try write(ids, connection)
    }

    /// Writes every pending row.
    func flushAll(_ connection: Connection) throws(DrumlinError) {
        full.removeAll()
        try write(Array(tables.indices), connection)
    }

    /// Writes `info`'s own pending rows (before a read of its table).
    func flush(_ info: ClassInfo, _ connection: Connection) throws(DrumlinError) {
        guard let position = ids.firstIndex(of: Self.classTableID(info)) else { return }
        full.removeAll { $0 == position }
        try write([position], connection)
    }

    /// The error an element's failure ends the call with: a failure of an earlier element's
    /// pending rows if there is one (written now to find out), else `error` named by `element`.
    func elementError(_ error: DrumlinError, _ element: Int, _ connection: Connection) -> DrumlinError {
        if failure == nil {
            full.removeAll()
            for position in tables.indices { note(writeTable(position, connection), tables[position]) }
        }
        if let failure, let earlier = failedElement, earlier.element <= element { return failure }
        return DrumlinError(error.code, "Element \(element): \(error.message)", sqliteCode: error.sqliteCode)
    }

    /// The element of `failure`, and whether it was an object's own row.
    @exclusivity(unchecked) private var failedElement: (element: Int, isElementRow: Bool)?

    /// Keeps the earliest failure; for one element, an object's own row (a duplicate primary
    /// key) before its collections' rows, which fail with it (a dictionary's keys are unique per
    /// owner), as when each object was written at once.
    private func note(_ failed: (element: Int, error: DrumlinError)?, _ table: Table) {
        guard let failed else { return }
        let isRow = table.duplicateKey != nil
        if let earlier = failedElement,
           earlier.element < failed.element || (earlier.element == failed.element && (earlier.isElementRow || !isRow)) {
            return
        }
        failedElement = (failed.element, isRow)
        failure = failed.error
    }

    /// Writes the tables at `positions`; on a failure, the other tables too, so the earliest
    /// failing element is the one reported.
    private func write(_ positions: [Int], _ connection: Connection) throws(DrumlinError) {
        if let failure { throw failure }
        for position in positions { note(writeTable(position, connection), tables[position]) }
        guard let failure else { return }
        for position in tables.indices where !positions.contains(position) {
            note(writeTable(position, connection), tables[position])
        }
        throw self.failure ?? failure
    }

    /// Writes one table's pending rows; returns the first failing row's element and error.
    private func writeTable(_ position: Int, _ connection: Connection) -> (element: Int, error: DrumlinError)? {
        guard tables[position].count > 0 else { return nil }
        var table = tables[position]
        tables[position].values = []    // no copy while it is read below
        defer {
            table.values.removeAll(keepingCapacity: true)
            table.elements.removeAll(keepingCapacity: true)
            tables[position] = table
        }
        let width = table.width
        var row = 0
        while row < table.count {
            let n = Swift.min(Self.batch, table.count - row)
            do throws(DrumlinError) {
                let statement: Statement
                if n == Self.batch {
                    if table.many == nil { table.many = try connection.statement(Self.sql(table.prefix, n, width)) }
                    statement = table.many!
                } else {
                    statement = try connection.statement(Self.sql(table.prefix, n, width))
                }
                statement.reset()
                defer {
                    statement.reset()
                    statement.clearBindings()
                }
                // Borrowed text is bound without SQLite's copy: it stays where it is (the
                // packed rows, or the pending values) until the step, right after.
                for (offset, value) in table.values[row * width..<(row + n) * width].enumerated() {
                    try ValueCodec.bind(value, to: statement, at: Int32(offset + 1), copied: false)
                }
                _ = try statement.step()
            } catch {
                if let failed = writeOneByOne(table, row..<row + n, connection) { return failed }
            }
            row += n
        }
        return nil
    }

    /// The rows of a batch that failed, one statement each, to find the failing element.
    private func writeOneByOne(_ table: Table, _ rows: Range<Int>, _ connection: Connection) -> (element: Int, error: DrumlinError)? {
        let width = table.width
        for row in rows {
            do throws(DrumlinError) {
                let single = try connection.statement(Self.sql(table.prefix, 1, width))
                defer { single.reset() }
                for position in 0..<width {
                    try ValueCodec.bind(table.values[row * width + position], to: single, at: Int32(position + 1))
                }
                do throws(DrumlinError) {
                    _ = try single.step()
                } catch where (error.sqliteCode == 1555 || error.sqliteCode == 2067) && table.duplicateKey != nil {
                    // SQLITE_CONSTRAINT_PRIMARYKEY / _UNIQUE: the only unique constraint is the primary key.
                    let (className, position) = table.duplicateKey!
                    let pk = (try? table.values[row * width + position].value()) ?? .null
                    throw DrumlinError(.duplicatePrimaryKey,
                                       "Attempting to create an object of type '\(className)' with an existing primary key value '\(pk)'.")
                }
            } catch {
                let element = table.elements[row]
                return (element, DrumlinError(error.code, "Element \(element): \(error.message)", sqliteCode: error.sqliteCode))
            }
        }
        return nil
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
    /// element's own error message); the rest is written before this returns. Errors of elements
    /// are named with `elementError`.
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

    /// The error a bulk create ends with when element `element` fails with `error`: "Element i:
    /// ..." for the first element that fails, as if each were written at once (a deferred row of
    /// an earlier element may fail first; see `PendingRows`).
    func elementError(_ error: DrumlinError, _ element: Int, _ connection: Connection) -> DrumlinError {
        if let pending = pendingRows { return pending.elementError(error, element, connection) }
        return DrumlinError(error.code, "Element \(element): \(error.message)", sqliteCode: error.sqliteCode)
    }

    /// Defers the row of a new object of `info` (`create` in a bulk create, `.never` mode): its
    /// columns `row` (then the type code of each mixed one, as `create` makes it) are written later in a multi-row
    /// `INSERT`. Returns the object's key, or nil when its row must be written now (a class
    /// whose insert reads its table first: an optional primary key, a GeoJSON point, or keys
    /// that SQLite would not give in order).
    func deferRow(_ info: ClassInfo, _ row: [BorrowedValue], _ connection: Connection) throws(DrumlinError) -> Int64? {
        guard let pending = pendingRows, !info.hasOptionalPrimaryKey, info.geoPointIndices == nil,
              info.schema.kind != .asymmetric else { return nil }
        let traits = info.traits
        let key: Int64
        if info.hasSequenceColumn {
            guard let pkIndex = info.primaryKeyIndex, let position = info.columnPosition(pkIndex),
                  let given = row[position].int64 else { return nil }
            key = given
        } else {
            guard let next = try pending.nextKey(info, connection) else { return nil }
            key = next
        }
        let (width, duplicateKey) = pending.rowLayout(info)
        if info.hasSequenceColumn { try prepareKeyOrder(info, connection) }
        let sequence = info.hasSequenceColumn ? try nextSequence(info, connection) : 0
        pending.appendRow(PendingRows.classTableID(info), prefix: Self.keyedInsertPrefix(info), width: width,
                          duplicateKey: duplicateKey) { values in
            if !info.hasSequenceColumn { values.append(.int(key)) }
            var code = info.columnIndexes.count
            for (position, index) in info.columnIndexes.enumerated() {
                values.append(row[position])
                if traits[index].type == .mixed {
                    values.append(row[code])
                    code += 1
                }
            }
            if info.hasSequenceColumn { values.append(.int(sequence)) }
        }
        if info.hasSequenceColumn { try noteCreated(info, keys: CollectionOfOne(key), connection) }
        return key
    }

    /// `INSERT INTO t (columns)` with the key column first for a class keyed by `_drumlin_key`
    /// (the row is given its key).
    private static func keyedInsertPrefix(_ info: ClassInfo) -> String {
        if info.hasSequenceColumn { return info.insertPrefix }
        let head = "INSERT INTO \(info.table) ("
        let columns = info.insertPrefix.dropFirst(head.count).dropLast()    // "(...)" of insertPrefix
        return head + info.keyColumn + (columns.isEmpty ? "" : ", " + columns) + ")"
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
