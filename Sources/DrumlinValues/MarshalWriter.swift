/// Writes Python's `marshal` format (readable by every marshal version from 2 on) for the
/// read fast path of bindings: a row becomes a tuple, a results set a list of tuples. `put` writes
/// None, bool, int, float, str and bytes and returns false for anything else; containers are
/// written with their headers (`beginTuple`, `beginList`, `beginDict`).
///
/// The bytes go straight into a caller's buffer, snprintf style: `count` keeps growing past
/// `capacity`, so a caller whose buffer was too small learns the size it needs (what was written
/// then is incomplete and must be ignored). Nothing is allocated.
public struct MarshalWriter {
    private let base: UnsafeMutableRawPointer?
    private let capacity: Int
    /// The size of everything written so far, including what did not fit.
    public private(set) var count = 0

    public init(into buffer: UnsafeMutableRawPointer?, capacity: Int) {
        base = buffer
        self.capacity = buffer == nil ? 0 : Swift.max(capacity, 0)
    }

    /// True when everything written so far is in the buffer.
    public var fits: Bool { count <= capacity }

    @inline(__always) mutating func byte(_ value: UInt8) {
        if count < capacity, let base { base.storeBytes(of: value, toByteOffset: count, as: UInt8.self) }
        count += 1
    }

    @inline(__always) mutating func raw(_ bytes: UnsafeRawBufferPointer) {
        if count + bytes.count <= capacity, let base, let source = bytes.baseAddress, bytes.count > 0 {
            (base + count).copyMemory(from: source, byteCount: bytes.count)
        }
        count += bytes.count
    }

    @inline(__always) mutating func int32(_ value: Int32) {
        withUnsafeBytes(of: value.littleEndian) { raw($0) }
    }

    /// A tuple header for `count` items.
    public mutating func beginTuple(_ count: Int) {
        if count < 256 {
            byte(UInt8(ascii: ")"))
            byte(UInt8(count))
        } else {
            byte(UInt8(ascii: "("))
            int32(Int32(count))
        }
    }

    /// A list header for `count` items.
    public mutating func beginList(_ count: Int) {
        byte(UInt8(ascii: "["))
        int32(Int32(truncatingIfNeeded: count))
    }

    /// A dict header: key and value pairs follow, then `endDict()`.
    public mutating func beginDict() {
        byte(UInt8(ascii: "{"))
    }

    /// Ends a dict begun with `beginDict()`.
    public mutating func endDict() {
        byte(UInt8(ascii: "0"))
    }

    /// A string that later items refer back to (marshal's FLAG_REF): the reader adds it to its
    /// table of references, at the next index (the writer's caller counts them). ASCII strings of
    /// up to 255 bytes take marshal's short form.
    public mutating func putReferable(_ text: UnsafeRawBufferPointer) {
        var ascii = text.count < 256
        if ascii {
            for byte in text where byte >= 0x80 {
                ascii = false
                break
            }
        }
        if ascii {
            byte(UInt8(ascii: "z") | 0x80)
            byte(UInt8(text.count))
        } else {
            byte(UInt8(ascii: "u") | 0x80)
            int32(Int32(truncatingIfNeeded: text.count))
        }
        raw(text)
    }

    /// A reference to the `index`th item written with `putReferable` (marshal's TYPE_REF).
    public mutating func putReference(_ index: Int32) {
        byte(UInt8(ascii: "r"))
        int32(index)
    }

    /// Overwrites the item count of a list begun at `offset` (for lists counted while writing).
    public mutating func patchList(at offset: Int, count items: Int) {
        guard offset + 5 <= capacity, let base else { return }
        base.storeBytes(of: Int32(truncatingIfNeeded: items).littleEndian, toByteOffset: offset + 1, as: Int32.self)
    }

    /// Appends one value; false (nothing written) for values marshal cannot carry as is.
    @discardableResult
    public mutating func put(_ value: BorrowedValue) -> Bool {
        switch value {
        case .null: byte(UInt8(ascii: "N"))
        case .bool(let b): byte(UInt8(ascii: b ? "T" : "F"))
        case .int(let i): putInt(i)
        case .double(let d): putDouble(d)
        case .text(let text):
            byte(UInt8(ascii: "u"))
            int32(Int32(truncatingIfNeeded: text.count))
            raw(text)
        case .bytes(let data):
            byte(UInt8(ascii: "s"))
            int32(Int32(truncatingIfNeeded: data.count))
            raw(data)
        case .value(let value):
            switch value {
            case .null: byte(UInt8(ascii: "N"))
            case .bool(let b): byte(UInt8(ascii: b ? "T" : "F"))
            case .int(let i): putInt(i)
            case .double(let d): putDouble(d)
            // The text is written inside withUTF8: its pointer is not valid after it returns.
            case .string(var s): return s.withUTF8 { put(.text(UnsafeRawBufferPointer($0))) }
            case .data(let data): return data.withUnsafeBytes { put(.bytes($0)) }
            default: return false
            }
        }
        return true
    }

    private mutating func putDouble(_ d: Double) {
        byte(UInt8(ascii: "g"))
        withUnsafeBytes(of: d.bitPattern.littleEndian) { raw($0) }
    }

    private mutating func putInt(_ i: Int64) {
        if let small = Int32(exactly: i) {
            byte(UInt8(ascii: "i"))
            int32(small)
            return
        }
        // A Python long: base 2^15 digits, least significant first; the sign is the count's.
        var magnitude = i.magnitude
        var digits = 0
        while magnitude > 0 {
            digits += 1
            magnitude >>= 15
        }
        byte(UInt8(ascii: "l"))
        int32(Int32(i < 0 ? -digits : digits))
        magnitude = i.magnitude
        for _ in 0..<digits {
            let digit = UInt16(magnitude & 0x7FFF)
            byte(UInt8(digit & 0xFF))
            byte(UInt8(digit >> 8))
            magnitude >>= 15
        }
    }
}
