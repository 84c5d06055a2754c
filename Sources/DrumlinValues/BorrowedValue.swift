/// A scalar value whose text or bytes are borrowed from memory someone else owns: a bulk input
/// buffer, a C caller's array, or the current row of a statement. The hot paths move values
/// through it without allocating; types with no borrowed form travel as a `Value`.
public enum BorrowedValue {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    /// UTF-8 text (not NUL-terminated).
    case text(UnsafeRawBufferPointer)
    case bytes(UnsafeRawBufferPointer)
    case value(Value)

    package var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .int: "int"
        case .double: "double"
        case .text: "string"
        case .bytes: "data"
        case .value(let value): value.typeName
        }
    }

    /// Whether the value is null.
    package var isNull: Bool {
        switch self {
        case .null, .value(.null): true
        default: false
        }
    }

    /// The value when it is an int.
    package var int64: Int64? {
        switch self {
        case .int(let i), .value(.int(let i)): i
        default: nil
        }
    }

    /// The value as an owned Value (for the general path and for messages).
    public func value() throws(DrumlinError) -> Value {
        switch self {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .text(let bytes):
            guard let text = UTF8Text.string(bytes.bindMemory(to: UInt8.self)) else {
                throw DrumlinError(.invalidArgument, "A string is not valid UTF-8.")
            }
            return .string(text)
        case .bytes(let bytes): return .data(Array(bytes))
        case .value(let value): return value
        }
    }
}
