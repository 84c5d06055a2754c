/// Writes Python's `marshal` format (readable by every marshal version from 2 on) for the
/// read fast path of bindings: a row becomes a tuple, a results set a list of tuples. Only
/// None, bool, int, float, str and bytes are written; `put` returns false for anything else.
public struct MarshalWriter {
    public private(set) var bytes: [UInt8] = []

    public init() { bytes.reserveCapacity(256) }

    public mutating func reset() { bytes.removeAll(keepingCapacity: true) }

    mutating func int32(_ value: Int32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// A tuple header for `count` items.
    public mutating func beginTuple(_ count: Int) {
        if count < 256 {
            bytes.append(UInt8(ascii: ")"))
            bytes.append(UInt8(count))
        } else {
            bytes.append(UInt8(ascii: "("))
            int32(Int32(count))
        }
    }

    /// A list header for `count` items.
    public mutating func beginList(_ count: Int) {
        bytes.append(UInt8(ascii: "["))
        int32(Int32(truncatingIfNeeded: count))
    }

    /// Overwrites the item count of a list begun at `offset` (for lists counted while writing).
    public mutating func patchList(at offset: Int, count: Int) {
        withUnsafeBytes(of: Int32(truncatingIfNeeded: count).littleEndian) { raw in
            for i in 0..<4 { bytes[offset + 1 + i] = raw[i] }
        }
    }

    /// Appends one value; false (nothing written) for values marshal cannot carry as is.
    @discardableResult
    public mutating func put(_ value: BorrowedValue) -> Bool {
        switch value {
        case .null: bytes.append(UInt8(ascii: "N"))
        case .bool(let b): bytes.append(UInt8(ascii: b ? "T" : "F"))
        case .int(let i): putInt(i)
        case .double(let d): putDouble(d)
        case .text(let text):
            bytes.append(UInt8(ascii: "u"))
            int32(Int32(truncatingIfNeeded: text.count))
            bytes.append(contentsOf: text)
        case .bytes(let data):
            bytes.append(UInt8(ascii: "s"))
            int32(Int32(truncatingIfNeeded: data.count))
            bytes.append(contentsOf: data)
        case .value(let value):
            switch value {
            case .null: bytes.append(UInt8(ascii: "N"))
            case .bool(let b): bytes.append(UInt8(ascii: b ? "T" : "F"))
            case .int(let i): putInt(i)
            case .double(let d): putDouble(d)
            case .string(var s): return put(s.withUTF8 { BorrowedValue.text(UnsafeRawBufferPointer($0)) })
            case .data(let data): return data.withUnsafeBytes { put(.bytes($0)) }
            default: return false
            }
        }
        return true
    }

    private mutating func putDouble(_ d: Double) {
        bytes.append(UInt8(ascii: "g"))
        withUnsafeBytes(of: d.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private mutating func putInt(_ i: Int64) {
        if let small = Int32(exactly: i) {
            bytes.append(UInt8(ascii: "i"))
            int32(small)
            return
        }
        // A Python long: base 2^15 digits, least significant first; the sign is the count's.
        var magnitude = i.magnitude
        var digits: [UInt16] = []
        while magnitude > 0 {
            digits.append(UInt16(magnitude & 0x7FFF))
            magnitude >>= 15
        }
        bytes.append(UInt8(ascii: "l"))
        int32(Int32(i < 0 ? -digits.count : digits.count))
        for digit in digits {
            bytes.append(UInt8(digit & 0xFF))
            bytes.append(UInt8(digit >> 8))
        }
    }
}
