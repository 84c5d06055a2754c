import CSQLite
import DrumlinStorage
import DrumlinValues

/// One object's row as `Database.withObjectRow` hands it out: values are read on demand, text
/// and bytes borrowed from the statement, so nothing is allocated for plain columns. Valid only
/// inside the closure that receives it.
public struct ObjectRow {
    @usableFromInline
    enum Source {
        case statement(Statement)
        case values([Value])
    }

    @usableFromInline let database: Database
    @usableFromInline let info: ClassInfo
    /// The key of a row of read values (a statement's row has it in its first column).
    let valuesKey: Int64
    @usableFromInline let source: Source
    @usableFromInline let indices: [Int]
    /// The statement's SQLite handle when the values are on a statement's row: the hot loop
    /// reads columns through it without taking the statement out of `source` (a copy of the
    /// enum's payload is a reference taken and dropped).
    @usableFromInline let statementHandle: OpaquePointer?

    /// The values of the row `statement` is on, its first column the object key. One such row
    /// serves every row a loop steps the statement to: it is never copied or changed, so handing
    /// it to a closure takes no references (a row made or changed per row took four, one of them
    /// the database's, through its side table: 5% of a range read).
    init(database: Database, info: ClassInfo, statement: Statement, indices: [Int]) {
        self.database = database
        self.info = info
        self.valuesKey = 0
        self.source = .statement(statement)
        self.indices = indices
        statementHandle = statement.handle
    }

    /// Values read already, of the object `key`.
    init(database: Database, info: ClassInfo, key: Int64, values: [Value], indices: [Int]) {
        self.database = database
        self.info = info
        self.valuesKey = key
        self.source = .values(values)
        self.indices = indices
        statementHandle = nil
    }

    /// The object key.
    public var key: Int64 {
        guard let handle = statementHandle else { return valuesKey }
        return sqlite3_column_int64(handle, 0)
    }

    /// The public name of the object's class.
    public var className: String { info.name }

    /// The public name of property `index` (for messages).
    public func propertyName(_ index: Int) -> String { info.propertyNames[index] }

    /// How many values were asked for.
    public var count: Int { indices.count }

    /// A live accessor for the object.
    public var object: Object { Object(database: database, info: info, key: key) }

    /// The value of the `position`th property asked for. A value the property cannot hold (a file
    /// changed behind Drumlin's back) is `CORRUPT`.
    public subscript(position: Int) -> BorrowedValue {
        get throws(DrumlinError) {
            guard let handle = statementHandle else { return try readOther(position, indices[position], 0) }
            return try read(handle, position, indices[position])
        }
    }

    /// Calls `body` with each value asked for, in order. Inlinable, so that a caller's `body` is
    /// inlined into the loop (no closure call per value).
    @inlinable @inline(__always)
    public func forEach(_ body: (_ position: Int, _ value: BorrowedValue) throws(DrumlinError) -> Void) throws(DrumlinError) {
        guard let handle = statementHandle else {
            for position in indices.indices { try body(position, try readOther(position, indices[position], 0)) }
            return
        }
        for (position, index) in indices.enumerated() { try body(position, try read(handle, position, index)) }
    }

    @inlinable @inline(__always)
    func read(_ handle: OpaquePointer, _ position: Int, _ index: Int) throws(DrumlinError) -> BorrowedValue {
        // The class's `let` arrays are read in place: nothing is retained per value.
        let info = self.info
        let column = Int32((info.slots[index] ?? 0) + 1)
        let trait = info.traits[index]
        let type = trait.type
        // The storage class SQLite has for the value already: each type's is checked, so a value
        // the property cannot hold (an integer in a string column, a required null) is refused.
        let storage = sqlite3_column_type(handle, column)
        // A double is a REAL unless it is NaN or -0.0 (kept as bits: see ValueCodec) or NULL.
        if type == .double, storage == SQLITE_FLOAT {
            return .double(sqlite3_column_double(handle, column))
        }
        if storage == SQLITE_NULL {
            if trait.isOptional || type == .object || type == .mixed || type == .linkingObjects { return .null }
            throw misfit(index, "null")
        }
        switch type {
        case .int:
            guard storage == SQLITE_INTEGER else { throw misfit(index, nil) }
            return .int(sqlite3_column_int64(handle, column))
        case .bool:
            guard storage == SQLITE_INTEGER else { throw misfit(index, nil) }
            return .bool(sqlite3_column_int64(handle, column) != 0)
        case .string:
            guard storage == SQLITE_TEXT else { throw misfit(index, nil) }
            let text = UnsafeRawBufferPointer(start: sqlite3_column_text(handle, column), count: Int(sqlite3_column_bytes(handle, column)))
            guard UTF8Text.isValid(text) else { throw misfit(index, nil) }
            return .text(text)
        case .data:
            guard storage == SQLITE_BLOB else { throw misfit(index, nil) }
            let blob = sqlite3_column_blob(handle, column)
            return .bytes(UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_column_bytes(handle, column))))
        default:
            return try readOther(position, index, column)
        }
    }

    /// The error for property `index`'s value on the statement's row: what it holds, described
    /// by `ValueCodec.misfit` when `what` is nil.
    @usableFromInline
    func misfit(_ index: Int, _ what: String?) -> DrumlinError {
        let trait = info.traits[index]
        let column = Int32((info.slots[index] ?? 0) + 1)
        let description = what ?? statementHandle.flatMap { ValueCodec.misfit($0, column, as: trait.type, optional: trait.isOptional) } ?? "a value of another type"
        return database.misfitError(info, index, key: key, description)
    }

    /// The value at `position` when it is not one `read` takes from the statement's row (`column`
    /// of it), or when the values were read already.
    @usableFromInline
    func readOther(_ position: Int, _ index: Int, _ column: Int32) throws(DrumlinError) -> BorrowedValue {
        switch source {
        case .values(let values):
            return .value(values[position])
        case .statement(let statement):
            return .value(try database.readColumn(statement, column, info, index, key: key))
        }
    }
}
