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
    /// The object key.
    public internal(set) var key: Int64
    @usableFromInline let source: Source
    @usableFromInline let indices: [Int]

    init(database: Database, info: ClassInfo, key: Int64, source: Source, indices: [Int]) {
        self.database = database
        self.info = info
        self.key = key
        self.source = source
        self.indices = indices
    }

    /// The public name of the object's class.
    public var className: String { info.name }

    /// The public name of property `index` (for messages).
    public func propertyName(_ index: Int) -> String { info.propertyNames[index] }

    /// How many values were asked for.
    public var count: Int { indices.count }

    /// A live accessor for the object.
    public var object: Object { Object(database: database, info: info, key: key) }

    /// The value of the `position`th property asked for.
    public subscript(position: Int) -> BorrowedValue {
        switch source {
        case .values(let values): return .value(values[position])
        case .statement(let statement): return Self.read(statement, info, indices[position])
        }
    }

    /// Calls `body` with each value asked for, in order. Inlinable, so that a caller's `body` is
    /// inlined into the loop (no closure call per value).
    @inlinable @inline(__always)
    public func forEach(_ body: (_ position: Int, _ value: BorrowedValue) throws(DrumlinError) -> Void) throws(DrumlinError) {
        switch source {
        case .values(let values):
            for (position, value) in values.enumerated() { try body(position, .value(value)) }
        case .statement(let statement):
            for (position, index) in indices.enumerated() { try body(position, Self.read(statement, info, index)) }
        }
    }

    @inlinable @inline(__always)
    static func read(_ statement: Statement, _ info: ClassInfo, _ index: Int) -> BorrowedValue {
        // The class's `let` arrays are read in place: nothing is retained per value.
        let column = Int32((info.slots[index] ?? 0) + 1)
        let handle = statement.handle
        let trait = info.traits[index]
        let type = trait.type
        // A double is a REAL unless it is NaN or -0.0 (kept as bits: see ValueCodec) or NULL.
        if type == .double, sqlite3_column_type(handle, column) == SQLITE_FLOAT {
            return .double(sqlite3_column_double(handle, column))
        }
        // Required columns of these types never hold NULL: skip the extra type probe.
        if trait.isOptional || type != .int && type != .bool && type != .string,
           sqlite3_column_type(handle, column) == SQLITE_NULL {
            return .null
        }
        switch type {
        case .int: return .int(sqlite3_column_int64(handle, column))
        case .bool: return .bool(sqlite3_column_int64(handle, column) != 0)
        case .string:
            let text = sqlite3_column_text(handle, column)
            return .text(UnsafeRawBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, column))))
        case .data:
            let blob = sqlite3_column_blob(handle, column)
            return .bytes(UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_column_bytes(handle, column))))
        default:
            return readOther(statement, info, index, column)
        }
    }

    @usableFromInline
    static func readOther(_ statement: Statement, _ info: ClassInfo, _ index: Int, _ column: Int32) -> BorrowedValue {
        let type = info.traits[index].type
        let target = type == .object ? info.targets[index]?.index ?? -1 : -1
        return .value(ValueCodec.read(statement, column, as: type, classIndex: target))
    }
}
