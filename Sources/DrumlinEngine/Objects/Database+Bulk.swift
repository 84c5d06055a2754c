import CSQLite
import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// The bulk paths: objects from a JSON array parsed element by element, and from rows of
/// borrowed values (Python's `marshal` format, or a C caller's `drumlin_value` array) bound
/// straight into multi-row inserts without building JSON, `Value`s or Swift strings.
extension Database {
    /// Creates objects from JSON text holding an array of objects, parsing one element at a time
    /// (so memory stays flat however large the batch). All or nothing.
    /// The corresponding C function is `drumlin_create_many_json`.
    @discardableResult
    public func createMany(_ className: String, jsonBytes: UnsafeRawBufferPointer, update mode: UpdateMode = .never) throws(DrumlinError) -> Int {
        try serialized { (connection) throws(DrumlinError) -> Int in
            let info = try writableClass(className, mode: mode)
            var parser = JSONParser(jsonBytes)
            func invalid(_ error: JSONParseError) -> DrumlinError { DrumlinError(error.isNestingLimit ? .limit : .invalidArgument, "array_json: \(error.description)") }
            parser.skipWhitespace()
            guard parser.index < parser.count, parser.bytes[parser.index] == UInt8(ascii: "[") else {
                throw DrumlinError(.invalidArgument, "Expected a JSON array of '\(info.name)' objects.")
            }
            parser.index += 1
            return try atomically(connection) { () throws(DrumlinError) -> Int in
                try withPendingRows(mode: mode, connection) { (afterElement) throws(DrumlinError) -> Int in
                    var created = 0
                    parser.skipWhitespace()
                    if parser.index < parser.count, parser.bytes[parser.index] == UInt8(ascii: "]") {
                        parser.index += 1
                    } else {
                        while true {
                            parser.skipWhitespace()
                            let element: JSON
                            do throws(JSONParseError) { element = try parser.parseValue() } catch { throw invalid(error) }
                            do throws(DrumlinError) {
                                _ = try create(info, try decodePayload(info, element), mode: mode, connection)
                            } catch {
                                throw elementError(error, created, connection)
                            }
                            created += 1
                            try afterElement(created)
                            parser.skipWhitespace()
                            guard parser.index < parser.count else { throw invalid(parser.fail("unexpected end of input in an array")) }
                            let c = parser.bytes[parser.index]
                            parser.index += 1
                            if c == UInt8(ascii: ",") { continue }
                            if c == UInt8(ascii: "]") { break }
                            throw invalid(JSONParseError(offset: parser.index - 1, reason: "expected ',' or ']'"))
                        }
                    }
                    parser.skipWhitespace()
                    guard parser.index == parser.count else { throw invalid(parser.fail("unexpected characters after the JSON value")) }
                    return created
                }
            }
        }
    }

    /// Whether values of a type bind straight from a `BorrowedValue` (a switch: this runs per call).
    static func isPlainType(_ type: PropertyType) -> Bool {
        switch type {
        case .bool, .int, .float, .double, .string, .data: true
        default: false
        }
    }

    /// Whether values of a type bind straight into a column from a `BorrowedValue` (converted by
    /// `bind`, with `coerceScalar`'s rules, when they are not plain).
    static func isColumnScalarType(_ type: PropertyType) -> Bool {
        switch type {
        case .bool, .int, .float, .double, .string, .data, .date, .decimal128, .objectId, .uuid: true
        default: false
        }
    }

    /// Whether rows of these properties go into multi-row `INSERT`s bound straight from the given
    /// values: a class without links, collections or embedded objects, given only scalar columns
    /// (an optional primary key needs the one-null check of `create`).
    static func isBatchable(_ info: ClassInfo, _ propertyIndices: [Int]) -> Bool {
        !info.hasRelationships && !info.hasOptionalPrimaryKey
            && propertyIndices.allSatisfy { info.traits[$0].isColumn && isColumnScalarType(info.traits[$0].type) }
    }

    /// Creates objects from `data`: Python's `marshal` serialization of a list of tuples, each
    /// holding the values of `propertyIndices` in that order. Values are None, bool, int, float,
    /// str, bytes, and (see `MarshalReader`) tagged tuples for dates, decimals, ObjectIds, UUIDs,
    /// floats and links to existing objects, lists and sets, and dicts. Rows mean what the same
    /// objects mean as JSON (`createMany(_:jsonBytes:)`): a dict in a link position is a nested
    /// object, another scalar a primary key; the same checks, the same messages. Classes of
    /// scalar columns take multi-row `INSERT`s; others are created one element at a time in this
    /// one call. All or nothing; returns how many objects were created or updated.
    /// The corresponding C function is `drumlin_create_many_marshal`.
    @discardableResult
    public func createMany(classIndex: Int, propertyIndices: [Int], marshal data: UnsafeRawBufferPointer,
                           update mode: UpdateMode = .never) throws(DrumlinError) -> Int {
        var reader = try MarshalReader(data)
        let rows = try reader.containerLength()
        let info = try classInfo(index: classIndex)
        // Bytes after the list are not part of it: refuse them rather than ignore part of the input.
        func checkEnd(_ reader: MarshalReader) throws(DrumlinError) {
            guard reader.offset == reader.count else {
                throw reader.fail("\(reader.count - reader.offset) trailing byte\(reader.count - reader.offset == 1 ? "" : "s") after the list of rows")
            }
        }
        if rows == 0 { try checkEnd(reader) }
        /// The value at `position` of the row being read; errors name the property as the JSON path does.
        func item(_ position: Int) throws(DrumlinError) -> BorrowedValue {
            do throws(DrumlinError) {
                return try reader.item()
            } catch where error.code == .typeMismatch {
                // A Python value of a kind no property takes: name the property, as the JSON path does.
                let index = propertyIndices[position]
                throw DrumlinError(.typeMismatch, "Type mismatch for property '\(info.name).\(info.propertyNames[index])': "
                                 + "expected \(info.traits[index].type.rawValue), got \(error.message).")
            }
        }
        if !(propertyIndices.allSatisfy { info.traits.indices.contains($0) }) || Self.isBatchable(info, propertyIndices) {
            return try createMany(classIndex: classIndex, propertyIndices: propertyIndices, rows: rows, update: mode) {
                (row, out) throws(DrumlinError) in
                let count = try reader.containerLength()
                guard count == out.count else { throw DrumlinError(.invalidArgument, "Expected \(out.count) values, got \(count).") }
                for position in 0..<count { out[position] = try item(position) }
                if row == rows - 1 { try checkEnd(reader) }
            }
        }
        // Links, collections, embedded objects, mixed values: each element decoded into inputs
        // and created as `create` does, in this one call.
        return try serialized { (connection) throws(DrumlinError) -> Int in
            try checkWritable(info, mode: mode)
            try checkWriteIndices(info, propertyIndices)
            return try atomically(connection) { () throws(DrumlinError) -> Int in
                try withPendingRows(mode: mode, connection) { (afterElement) throws(DrumlinError) -> Int in
                    var given: [(Int, Input)] = []
                    given.reserveCapacity(propertyIndices.count)
                    for row in 0..<rows {
                        do throws(DrumlinError) {
                            let count = try reader.containerLength()
                            guard count == propertyIndices.count else {
                                throw DrumlinError(.invalidArgument, "Expected \(propertyIndices.count) values, got \(count).")
                            }
                            // The previous row's inputs are replaced one by one (emptying the array
                            // first went through the standard library's generic, unspecialized path).
                            for (position, index) in propertyIndices.enumerated() {
                                let value = (index, try input(reading: &reader, info, index, borrowing: mode == .never))
                                if position < given.count { given[position] = value } else { given.append(value) }
                            }
                            if row == rows - 1 { try checkEnd(reader) }
                            _ = try create(info, given, mode: mode, connection)
                        } catch {
                            throw elementError(error, row, connection)
                        }
                        try afterElement(row + 1)
                    }
                    return rows
                }
            }
        }
    }

    /// Creates `rows` objects whose values `fill(row, out)` provides, row after row: `out` has
    /// one slot per entry of `propertyIndices`. Borrowed text and bytes need only live until the
    /// next call of `fill` or the end of this call. Classes of plain columns are inserted in
    /// multi-row `INSERT` batches bound straight from the borrowed values. All or nothing;
    /// returns how many objects were created or updated. The corresponding C functions are
    /// `drumlin_create_many_values` and `drumlin_create_many_marshal`.
    @discardableResult
    public func createMany(classIndex: Int, propertyIndices: [Int], rows: Int, update mode: UpdateMode = .never,
                           values fill: (_ row: Int, _ out: UnsafeMutableBufferPointer<BorrowedValue>) throws(DrumlinError) -> Void)
        throws(DrumlinError) -> Int {
        try serialized { (connection) throws(DrumlinError) -> Int in
            let info = try classInfo(index: classIndex)
            try checkWritable(info, mode: mode)
            try checkWriteIndices(info, propertyIndices)
            // An optional primary key needs the one-null check of `create`: no batches for it.
            let plain = Self.isBatchable(info, propertyIndices)
            let direct = plain && mode == .never
            // Upserts of plain columns given with the primary key try the update straight from the
            // borrowed values; only rows that must be created take the general path.
            let upsertColumns = propertyIndices.filter { $0 != info.primaryKeyIndex }
            let upsert: (pkPosition: Int, statement: Statement)?
            if plain, mode != .never, info.geoPointIndices == nil, !upsertColumns.isEmpty, let pkIndex = info.primaryKeyIndex,
               let pkPosition = propertyIndices.firstIndex(of: pkIndex),
               propertyIndices.count == upsertColumns.count + 1 {
                upsert = (pkPosition, try upsertStatement(info, upsertColumns, pkIndex, mode, returning: false, connection))
            } else {
                upsert = nil
            }
            return try atomically(connection) { () throws(DrumlinError) -> Int in
                if direct {
                    try insertRows(info, propertyIndices, rows, fill, connection)
                } else {
                    try withPendingRows(mode: mode, connection) { (afterElement) throws(DrumlinError) in
                        var row = [BorrowedValue](repeating: .null, count: propertyIndices.count)
                        for r in 0..<rows {
                            do throws(DrumlinError) {
                                try row.withUnsafeMutableBufferPointer { (out) throws(DrumlinError) in try fill(r, out) }
                                if let upsert, try updateInPlace(info, propertyIndices, row, upsert.pkPosition, upsert.statement,
                                                                 mode: mode, connection) {
                                    continue
                                }
                                var given: [(Int, Input)] = []
                                for (position, index) in propertyIndices.enumerated() {
                                    given.append((index, try input(from: try row[position].value(), info, index)))
                                }
                                _ = try create(info, given, mode: mode, connection)
                            } catch {
                                throw elementError(error, r, connection)
                            }
                            try afterElement(r + 1)
                        }
                    }
                }
                return rows
            }
        }
    }

    /// The update half of an upsert bound straight from a row's borrowed values (the statement of
    /// `upsertStatement` for the row's non-key columns, in order, without `RETURNING`). True when the object exists
    /// (updated, or unchanged in `.modified` mode); false when it must be created.
    private func updateInPlace(_ info: ClassInfo, _ propertyIndices: [Int], _ row: [BorrowedValue], _ pkPosition: Int,
                               _ statement: Statement, mode: UpdateMode, _ connection: Connection) throws(DrumlinError) -> Bool {
        statement.reset()
        defer { statement.reset() }
        let traits = info.traits
        func label(_ index: Int) -> Label { Label(className: info.name, propertyName: info.propertyNames[index]) }
        let pkIndex = propertyIndices[pkPosition]
        try bind(row[pkPosition], traits[pkIndex], label(pkIndex), statement, 1)
        var parameter: Int32 = 2
        for (position, index) in propertyIndices.enumerated() where position != pkPosition {
            try bind(row[position], traits[index], label(index), statement, parameter)
            parameter += 1
        }
        _ = try statement.step()
        if connection.changes > 0 { return true }
        guard mode == .modified else { return false }
        // Nothing differed, or there is no such object: tell them apart.
        statement.reset()
        guard let pk = try primaryKeyValue(try row[pkPosition].value(), info, pkIndex) else { return false }
        return try findKey(info, pk, connection) != nil
    }

    /// Binds each row's values straight into the class's insert statement.
    func insertRows(_ info: ClassInfo, _ propertyIndices: [Int], _ rows: Int,
                            _ fill: (Int, UnsafeMutableBufferPointer<BorrowedValue>) throws(DrumlinError) -> Void,
                            _ connection: Connection) throws(DrumlinError) {
        let traits = info.traits
        var source = [Int](repeating: -1, count: traits.count)
        for (position, index) in propertyIndices.enumerated() { source[index] = position }
        // Columns not given: their default, else null; a required one without a default is an error.
        var fixed = [Value?](repeating: nil, count: traits.count)
        for index in info.columnIndexes where source[index] < 0 {
            if let value = info.defaults[index] {
                fixed[index] = value
            } else if traits[index].isOptional {
                fixed[index] = .null
            } else if rows > 0 {
                throw DrumlinError(.missingValue, "Element 0: Missing value for property '\(info.name).\(info.propertyNames[index])'")
            }
        }
        // Rows go in batches of `batch` per INSERT statement (one VALUES tuple each): SQLite's
        // per-statement work is paid once per batch. A failing batch is retried row by row, so
        // the error names the exact element.
        let batch = 64
        let width = info.columnIndexes.count + (info.hasSequenceColumn ? 1 : 0)
        let single = try connection.statement(slot: info.slot(.insert), info.insertSQL)
        defer { single.reset() }
        let width0 = propertyIndices.count
        var items = [BorrowedValue](repeating: .null, count: width0 * batch)
        // Where the primary key of a class keyed by it comes from, for the key-order check
        // (Database+KeyOrder.swift): a position in each row, or a fixed value.
        let pkSource = info.primaryKeyIndex.map { source[$0] } ?? -1
        let pkFixed = info.primaryKeyIndex.flatMap { fixed[$0] }
        if info.hasSequenceColumn { try prepareKeyOrder(info, connection) }
        var row = 0
        while row < rows {
            let n = Swift.min(batch, rows - row)
            for r in 0..<n {
                do throws(DrumlinError) {
                    try items.withUnsafeMutableBufferPointer { (all) throws(DrumlinError) in
                        try fill(row + r, UnsafeMutableBufferPointer(rebasing: all[r * width0..<(r + 1) * width0]))
                    }
                } catch {
                    throw DrumlinError(error.code, "Element \(row + r): \(error.message)", sqliteCode: error.sqliteCode)
                }
            }
            let sequenceStart = info.hasSequenceColumn ? try reserveSequences(info, n, connection) : 0
            if n == batch {
                let many = try connection.statement(slot: info.slot(.insertBatch), Self.batchSQL(info, batch, width))
                var failed = false
                do throws(DrumlinError) {
                    for r in 0..<n {
                        try bindRow(info, source, fixed, items, r * propertyIndices.count, many, Int32(r * width + 1),
                                    sequence: sequenceStart + Int64(r))
                    }
                    _ = try many.step()
                } catch {
                    failed = true    // bad value or constraint: the row-by-row pass below names the row
                }
                many.reset()
                if !failed {
                    if info.hasSequenceColumn {
                        try noteCreated(info, keys: Self.rowKeys(items, rows: n, width: width0, source: pkSource, fixed: pkFixed), connection)
                    }
                    row += n
                    continue
                }
            }
            for r in 0..<n {
                do throws(DrumlinError) {
                    try bindRow(info, source, fixed, items, r * propertyIndices.count, single, 1, sequence: sequenceStart + Int64(r))
                    do throws(DrumlinError) {
                        _ = try single.step()
                    } catch where error.sqliteCode == 1555 || error.sqliteCode == 2067 {
                        var pk = Value.null
                        if let pkIndex = info.primaryKeyIndex, source[pkIndex] >= 0 {
                            pk = (try? items[r * propertyIndices.count + source[pkIndex]].value()) ?? .null
                        }
                        throw DrumlinError(.duplicatePrimaryKey,
                                         "Attempting to create an object of type '\(info.name)' with an existing primary key value '\(pk)'.")
                    }
                    single.reset()
                    if info.hasSequenceColumn { try noteCreated(info, keys: CollectionOfOne(connection.lastInsertRowID), connection) }
                } catch {
                    single.reset()
                    throw DrumlinError(error.code, "Element \(row + r): \(error.message)", sqliteCode: error.sqliteCode)
                }
            }
            row += n
        }
    }

    /// The row keys of the first `rows` rows of a batch of a class keyed by its int primary key
    /// (`.min` for a key that is not an int as given: it cannot be in key order).
    private static func rowKeys(_ items: [BorrowedValue], rows: Int, width: Int, source: Int, fixed: Value?) -> [Int64] {
        (0..<rows).map { r in
            if source >= 0, case .int(let k) = items[r * width + source] { return k }
            if source < 0, case .int(let k)? = fixed { return k }
            return .min
        }
    }

    /// `INSERT INTO t (columns) VALUES (?, ...), (?, ...), ...` for `rows` rows.
    static func batchSQL(_ info: ClassInfo, _ rows: Int, _ width: Int) -> String {
        let head = info.insertPrefix
        var tuples: [String] = []
        var parameter = 1
        for _ in 0..<rows {
            tuples.append("(" + (0..<width).map { "?\(parameter + $0)" }.joined(separator: ", ") + ")")
            parameter += width
        }
        return head + " VALUES " + tuples.joined(separator: ", ")
    }

    /// Binds one row's values (or the fixed values of columns not given) from `first` on.
    private func bindRow(_ info: ClassInfo, _ source: [Int], _ fixed: [Value?], _ items: [BorrowedValue], _ base: Int,
                         _ statement: Statement, _ first: Int32, sequence: Int64) throws(DrumlinError) {
        var parameter = first
        let traits = info.traits
        for index in info.columnIndexes {
            let position = source[index]
            if position >= 0 {
                try bind(items[base + position], traits[index], Label(className: info.name, propertyName: info.propertyNames[index]),
                         statement, parameter)
            } else if let value = fixed[index] {
                try ValueCodec.bind(value, to: statement, at: parameter)
            } else {
                statement.bindNull(parameter)
            }
            parameter += 1
        }
        if info.hasSequenceColumn { statement.bind(sequence, at: parameter) }
    }

    /// Binds one marshal value to a column of `trait`'s type, checked by `checkedColumn`. A
    /// value of the column's own type binds as it is (what `checkedColumn` would return), without
    /// copying the enum.
    func bind(_ item: BorrowedValue, _ trait: ClassInfo.Traits, _ label: @autoclosure () -> Label,
              _ statement: Statement, _ parameter: Int32) throws(DrumlinError) {
        switch (trait.type, item) {
        case (_, .null) where trait.isOptional: statement.bindNull(parameter)
        case (.int, .int(let i)): statement.bind(i, at: parameter)
        case (.bool, .bool(let b)): statement.bind(Int64(b ? 1 : 0), at: parameter)
        case (.double, .double(let d)): try ValueCodec.bind(Value.double(d), to: statement, at: parameter)
        case (.string, .text(let bytes)) where UTF8Text.isValid(bytes): statement.bind(text: bytes, at: parameter)
        default:
            try ValueCodec.bind(try checkedColumn(item, trait.type, optional: trait.isOptional, label()), to: statement, at: parameter)
        }
    }

    /// A value given for a scalar column (or a collection element) of `type`, checked and
    /// converted as `Coercion.scalar` does — the one set of rules; only a value of the column's
    /// own type, or a null where one is allowed, passes without it — with text and bytes still
    /// borrowed. A nested list or dictionary gets the checks reading it from JSON would make
    /// first, so both paths give one message.
    func checkedColumn(_ item: BorrowedValue, _ type: PropertyType, optional: Bool,
                       _ label: @autoclosure () -> Label) throws(DrumlinError) -> BorrowedValue {
        switch (type, item) {
        case (_, .null) where optional: return .null
        case (.int, .int), (.bool, .bool), (.double, .double), (.data, .bytes): return item
        case (.string, .text(let bytes)):
            guard UTF8Text.isValid(bytes) else { throw DrumlinError(.invalidArgument, "Property \(label()): a string is not valid UTF-8.") }
            return item
        case (_, .text), (_, .bytes):
            // No conversion takes text or bytes to another type.
            throw DrumlinError(.typeMismatch, "Type mismatch for property \(label()): expected \(type.rawValue), got \(item.typeName).")
        case (_, .value(let value)):
            try Self.checkPayloadValue(value, label())
            return .value(try Coercion.scalar(value, type, optional: optional, nested: false, label()))
        default:
            return .value(try Coercion.scalar(try item.value(), type, optional: optional, nested: false, label()))
        }
    }
}
