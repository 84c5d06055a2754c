import CSQLite
import DrumlinSchema
import DrumlinValues

/// How values are stored in SQLite columns. One place decides it, for writes and reads alike:
///
/// | type | column | encoding |
/// |---|---|---|
/// | bool, int | INTEGER | 0/1, the integer |
/// | float, double | REAL | the number; NaN and -0.0 as an 8-byte big-endian BLOB of their bits (SQLite would store NULL and 0) |
/// | decimal128 | TEXT | canonical string ("1.10") |
/// | string | TEXT | UTF-8, any length, embedded NUL kept |
/// | data | BLOB | the bytes |
/// | date | INTEGER | nanoseconds since 1970 (1677-09-21 ... 2262-04-11) |
/// | objectId, uuid | BLOB | 12 / 16 bytes |
/// | link | INTEGER | the target's object key |
/// | mixed | (none) + INTEGER | the value as above, plus its DRUMLIN_TYPE_* in `_drumlin_type_<column>` |
package enum ValueCodec {
    /// The C API's DRUMLIN_TYPE_* number for a value, stored in a mixed property's type column.
    package static func typeCode(_ value: Value) -> Int64 {
        switch value {
        case .null: 0
        case .int: 1
        case .bool: 2
        case .string: 3
        case .data: 4
        case .date: 5
        case .float: 6
        case .double: 7
        case .decimal: 8
        case .objectId: 9
        case .link: 10
        case .uuid: 11
        case .list: 12
        case .dictionary: 13
        }
    }

    /// The DRUMLIN_TYPE_* number of a typed property's values (what `@type` names).
    package static func typeCode(_ type: PropertyType) -> Int64 {
        switch type {
        case .int: 1
        case .bool: 2
        case .string: 3
        case .data: 4
        case .date: 5
        case .float: 6
        case .double: 7
        case .decimal128: 8
        case .objectId: 9
        case .object, .linkingObjects: 10
        case .uuid: 11
        case .mixed: 0
        }
    }

    /// The declared SQLite column type (its affinity) for a property.
    package static func columnType(_ property: Property) -> String {
        switch property.type {
        case .bool, .int, .date, .object: "INTEGER"
        case .float, .double: "REAL"
        case .decimal128, .string: "TEXT"
        case .data, .objectId, .uuid: "BLOB"
        // No declared type: BLOB affinity keeps every value exactly as bound. (A declared "ANY"
        // would mean NUMERIC affinity outside STRICT tables, turning the text "1.0" into 1.)
        case .mixed, .linkingObjects: ""
        }
    }

    /// Binds a scalar value. Nested collections are never bound (they live in side tables).
    package static func bind(_ value: Value, to statement: Statement, at index: Int32) throws(DrumlinError) {
        switch value {
        case .null: statement.bindNull(index)
        case .bool(let b): statement.bind(Int64(b ? 1 : 0), at: index)
        case .int(let i): statement.bind(i, at: index)
        case .float(let f): bindDouble(Double(f), statement, index)
        case .double(let d): bindDouble(d, statement, index)
        case .decimal(let d): statement.bind(d.description, at: index)
        case .string(let s): statement.bind(s, at: index)
        case .data(let bytes): statement.bind(bytes, at: index)
        case .date(let t):
            guard let ns = t.nanosecondsSinceEpoch else {
                throw DrumlinError(.limit, "Date \(t.iso8601) is outside the supported range 1677-09-21 to 2262-04-11.")
            }
            statement.bind(ns, at: index)
        case .objectId(let oid): statement.bind(oid.bytes, at: index)
        case .uuid(let uuid): statement.bind(uuid.bytes, at: index)
        case .link(let link): statement.bind(link.key, at: index)
        case .list, .dictionary:
            throw DrumlinError(.internal, "A nested collection cannot be stored in a column.")
        }
    }

    /// Binds a checked value (see `Database.checkedColumn`): borrowed text and bytes are copied
    /// by SQLite, unless `copied` is false (the caller steps the statement before they can
    /// change, then clears its bindings); the rest binds as `bind(_: Value, ...)` does.
    package static func bind(_ item: BorrowedValue, to statement: Statement, at index: Int32, copied: Bool = true) throws(DrumlinError) {
        switch item {
        case .null: statement.bindNull(index)
        case .bool(let b): statement.bind(Int64(b ? 1 : 0), at: index)
        case .int(let i): statement.bind(i, at: index)
        case .double(let d): bindDouble(d, statement, index)
        case .text(let utf8): statement.bind(text: utf8, at: index, copied: copied)
        case .bytes(let bytes): statement.bind(bytes: bytes, at: index, copied: copied)
        case .value(let value): try bind(value, to: statement, at: index)
        }
    }

    private static func bindDouble(_ d: Double, _ statement: Statement, _ index: Int32) {
        // SQLite turns a NaN REAL into NULL and may store -0.0 as the integer 0: keep both as bits.
        if d.isNaN || (d == 0 && d.sign == .minus) {
            var bits = d.bitPattern.bigEndian
            withUnsafeBytes(of: &bits) { statement.bind(bytes: $0, at: index) }
        } else {
            statement.bind(d, at: index)
        }
    }

    /// Nil when the column of the row `handle` is on holds a value a property of `type` can hold
    /// (null only when `optional`, or for a link); otherwise what it holds instead ("an integer",
    /// "text that is not valid UTF-8"): a file changed behind Drumlin's back. Reads only the
    /// column's storage class, which the read has already, and scans text for UTF-8.
    package static func misfit(_ handle: OpaquePointer, _ column: Int32, as type: PropertyType, optional: Bool) -> String? {
        let storage = sqlite3_column_type(handle, column)
        if storage == SQLITE_NULL {
            return optional || type == .object || type == .mixed || type == .linkingObjects ? nil : "null"
        }
        switch type {
        case .bool, .int, .date, .object:
            if storage == SQLITE_INTEGER { return nil }
        case .float, .double:
            if storage == SQLITE_FLOAT || (storage == SQLITE_BLOB && sqlite3_column_bytes(handle, column) == 8) { return nil }
        case .string, .decimal128:
            guard storage == SQLITE_TEXT else { break }
            let text = UnsafeRawBufferPointer(start: sqlite3_column_text(handle, column), count: Int(sqlite3_column_bytes(handle, column)))
            guard UTF8Text.isValid(text) else { return "text that is not valid UTF-8" }
            if type == .string || Decimal128(utf8: text.bindMemory(to: UInt8.self)) != nil { return nil }
            return "text that is not a decimal number"
        case .data:
            if storage == SQLITE_BLOB { return nil }
        case .objectId, .uuid:
            let size: Int32 = type == .objectId ? 12 : 16
            if storage == SQLITE_BLOB && sqlite3_column_bytes(handle, column) == size { return nil }
            if storage == SQLITE_BLOB { return "a blob of \(sqlite3_column_bytes(handle, column)) bytes" }
        case .mixed, .linkingObjects:
            return nil
        }
        return storageName(storage)
    }

    /// A mixed value's type tag and value, checked as `misfit` checks a typed column: nil when
    /// the tag is one of the types and the value fits it (a held object, 10, is "key:class" text;
    /// nested collections, 12 and 13, an integer id).
    package static func mixedMisfit(_ handle: OpaquePointer, value column: Int32, type typeColumn: Int32) -> String? {
        guard sqlite3_column_type(handle, typeColumn) == SQLITE_INTEGER else {
            return "the type tag " + (storageName(sqlite3_column_type(handle, typeColumn)))
        }
        let code = sqlite3_column_int64(handle, typeColumn)
        let types: [PropertyType?] = [nil, .int, .bool, .string, .data, .date, .float, .double, .decimal128, .objectId, .string, .uuid, .int, .int]
        guard code >= 0, code < types.count else { return "the type tag \(code) (no type has it)" }
        guard let type = types[Int(code)] else { return nil }   // 0: null, whatever the column holds
        return misfit(handle, column, as: type, optional: false).map { "\($0) with the type tag \(code)" }
    }

    private static func storageName(_ storage: Int32) -> String {
        switch storage {
        case SQLITE_INTEGER: "an integer"
        case SQLITE_FLOAT: "a real number"
        case SQLITE_TEXT: "text"
        case SQLITE_BLOB: "a blob"
        default: "null"
        }
    }

    /// Reads a column stored for `type` (never `.mixed`: see `readMixed`).
    package static func read(_ statement: Statement, _ column: Int32, as type: PropertyType, classIndex: Int = -1) -> Value {
        let storage = statement.columnType(column)
        if storage == SQLITE_NULL { return .null }
        switch type {
        case .bool: return .bool(statement.int64(column) != 0)
        case .int: return .int(statement.int64(column))
        case .float: return .float(Float(readDouble(statement, column, storage)))
        case .double: return .double(readDouble(statement, column, storage))
        case .decimal128: return statement.withText(column) { Decimal128(utf8: $0) }.map(Value.decimal) ?? .null
        case .string: return .string(statement.string(column))
        case .data: return .data(statement.bytes(column))
        case .date: return .date(Timestamp(nanosecondsSinceEpoch: statement.int64(column)))
        case .objectId: return statement.withBytes(column) { ObjectId(bytes: $0) }.map(Value.objectId) ?? .null
        case .uuid: return statement.withBytes(column) { UUIDValue(bytes: $0) }.map(Value.uuid) ?? .null
        case .object: return .link(ObjectLink(classIndex: classIndex, key: statement.int64(column)))
        case .mixed, .linkingObjects: return .null
        }
    }

    private static func readDouble(_ statement: Statement, _ column: Int32, _ storage: Int32) -> Double {
        if storage == SQLITE_BLOB {
            return statement.withBytes(column) { bytes in
                guard bytes.count == 8 else { return .nan }
                var bits: UInt64 = 0
                for byte in bytes { bits = bits << 8 | UInt64(byte) }
                return Double(bitPattern: bits)
            }
        }
        return statement.double(column)
    }

    /// A mixed column's value read in place when it needs no conversion: null, an int, a bool, a
    /// string or binary (borrowed from the statement's row: valid until the statement moves), a
    /// double stored as a REAL. Nil for every other type (`readMixed` reads those). `handle` is
    /// the statement's SQLite handle.
    package static func readMixedInPlace(_ handle: OpaquePointer, value column: Int32, type typeColumn: Int32) -> BorrowedValue? {
        let code = sqlite3_column_int64(handle, typeColumn)
        guard code >= 0, code <= 4 || code == 7 else { return nil }
        let storage = sqlite3_column_type(handle, column)
        // A value its tag cannot hold is read (and refused) by the checked path.
        if code > 0, mixedMisfit(handle, value: column, type: typeColumn) != nil { return nil }
        if code <= 0 || storage == SQLITE_NULL { return .null }  // as readMixed reads them
        switch code {
        case 1: return .int(sqlite3_column_int64(handle, column))
        case 2: return .bool(sqlite3_column_int64(handle, column) != 0)
        case 3:
            let text = sqlite3_column_text(handle, column)
            return .text(UnsafeRawBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, column))))
        case 4:
            let blob = sqlite3_column_blob(handle, column)
            return .bytes(UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_column_bytes(handle, column))))
        case 7 where storage == SQLITE_FLOAT: return .double(sqlite3_column_double(handle, column))
        default: return nil
        }
    }

    /// Reads a mixed value from its value column and type column.
    package static func readMixed(_ statement: Statement, value column: Int32, type typeColumn: Int32) -> Value {
        let code = statement.int64(typeColumn)
        switch code {
        case 1: return read(statement, column, as: .int)
        case 2: return read(statement, column, as: .bool)
        case 3: return read(statement, column, as: .string)
        case 4: return read(statement, column, as: .data)
        case 5: return read(statement, column, as: .date)
        case 6: return read(statement, column, as: .float)
        case 7: return read(statement, column, as: .double)
        case 8: return read(statement, column, as: .decimal128)
        case 9: return read(statement, column, as: .objectId)
        case 11: return read(statement, column, as: .uuid)
        default: return .null
        }
    }
}
