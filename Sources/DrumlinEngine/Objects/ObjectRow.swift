import CSQLite
import DrumlinStorage
import DrumlinValues

/// One object's row as `Database.withObjectRow` hands it out: values are read on demand, text
/// and bytes borrowed from the statement, so nothing is allocated for plain columns. Valid only
/// inside the closure that receives it.
public struct ObjectRow {
    enum Source {
        case statement(Statement)
        case values([Value])
    }

    let database: Database
    let info: ClassInfo
    /// The object key.
    public internal(set) var key: Int64
    let source: Source
    let indices: [Int]
    /// The class's traits, column slots and link targets, held here so that reading a value
    /// retains nothing (and checks no access to the class's `targets`).
    let traits: [ClassInfo.Traits]
    let slots: [Int?]
    let targets: [ClassInfo?]

    init(database: Database, info: ClassInfo, key: Int64, source: Source, indices: [Int]) {
        self.database = database
        self.info = info
        self.key = key
        self.source = source
        self.indices = indices
        traits = info.traits
        slots = info.slots
        targets = info.targets
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
        case .statement(let statement): return Self.read(statement, targets, traits, slots, indices[position])
        }
    }

    /// Calls `body` with each value asked for, in order.
    public func forEach(_ body: (_ position: Int, _ value: BorrowedValue) throws(DrumlinError) -> Void) throws(DrumlinError) {
        switch source {
        case .values(let values):
            for (position, value) in values.enumerated() { try body(position, .value(value)) }
        case .statement(let statement):
            for (position, index) in indices.enumerated() { try body(position, Self.read(statement, targets, traits, slots, index)) }
        }
    }

    @inline(__always)
    private static func read(_ statement: Statement, _ targets: [ClassInfo?], _ traits: [ClassInfo.Traits], _ slots: [Int?],
                             _ index: Int) -> BorrowedValue {
        let column = Int32((slots[index] ?? 0) + 1)
        let handle = statement.handle
        let trait = traits[index]
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
            let target = type == .object ? targets[index]?.index ?? -1 : -1
            return .value(ValueCodec.read(statement, column, as: type, classIndex: target))
        }
    }
}
