import CSQLite

/// Reads the subset of Python's `marshal` format (versions 2-4) that a batch of rows needs: a list
/// or tuple of tuples holding None, booleans, ints, floats, str and bytes, with the format's back
/// references. It lets a Python caller hand over a whole batch from one `marshal.dumps` (C code in
/// the interpreter) instead of building JSON; docs/performance.md has the measurements.
struct MarshalReader {
    typealias Item = BorrowedValue

    /// Marshal type codes of Python values a row cannot hold, by the name errors give them.
    static let containerNames: [UInt8: String] = [
        UInt8(ascii: "["): "list", UInt8(ascii: "("): "tuple", UInt8(ascii: ")"): "tuple", UInt8(ascii: "{"): "dict",
        UInt8(ascii: "<"): "set", UInt8(ascii: ">"): "frozenset", UInt8(ascii: "y"): "complex", UInt8(ascii: "x"): "complex",
    ]

    let base: UnsafeRawPointer
    let count: Int
    var offset = 0
    /// Objects flagged for back references, in order. Containers get a placeholder.
    var references: [Item?] = []

    init(_ buffer: UnsafeRawBufferPointer) throws(DrumlinError) {
        guard let base = buffer.baseAddress, buffer.count > 0 else {
            throw DrumlinError(.invalidArgument, "The marshal data is empty.")
        }
        self.base = base
        count = buffer.count
    }

    func fail(_ reason: String) -> DrumlinError {
        DrumlinError(.invalidArgument, "Invalid marshal data at byte \(offset): \(reason).")
    }

    mutating func byte() throws(DrumlinError) -> UInt8 {
        guard offset < count else { throw fail("unexpected end") }
        defer { offset += 1 }
        return base.load(fromByteOffset: offset, as: UInt8.self)
    }

    mutating func int32() throws(DrumlinError) -> Int32 {
        guard count - offset >= 4 else { throw fail("unexpected end") }
        defer { offset += 4 }
        return Int32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: Int32.self))
    }

    mutating func slice(_ length: Int) throws(DrumlinError) -> UnsafeRawBufferPointer {
        guard length >= 0, count - offset >= length else { throw fail("a string runs past the end") }
        defer { offset += length }
        return UnsafeRawBufferPointer(start: base + offset, count: length)
    }

    /// Reads a container header: the number of elements of a list or tuple.
    mutating func containerLength() throws(DrumlinError) -> Int {
        let code = try byte()
        if code & 0x80 != 0 { references.append(nil) }
        switch code & 0x7F {
        case UInt8(ascii: "["), UInt8(ascii: "("):
            let n = Int(try int32())
            guard n >= 0 else { throw fail("negative length") }
            return n
        case UInt8(ascii: ")"): return Int(try byte())
        default: throw fail("expected a list or tuple, found type '\(Unicode.Scalar(code & 0x7F))'")
        }
    }

    /// Reads one scalar.
    mutating func item() throws(DrumlinError) -> Item {
        let code = try byte()
        let flagged = code & 0x80 != 0
        var slot = -1
        if flagged {
            slot = references.count
            references.append(nil)
        }
        let item: Item
        switch code & 0x7F {
        case UInt8(ascii: "N"): item = .null
        case UInt8(ascii: "T"): item = .bool(true)
        case UInt8(ascii: "F"): item = .bool(false)
        case UInt8(ascii: "i"): item = .int(Int64(try int32()))
        case UInt8(ascii: "l"):
            let digits = Int(try int32())
            var magnitude: UInt64 = 0
            var shift: UInt64 = 0
            for _ in 0..<digits.magnitude {
                let low = UInt64(try byte()), high = UInt64(try byte())
                let digit = low | high << 8
                guard digit < 1 << 15 else { throw fail("invalid long digit") }
                guard shift < 64, (digit << shift) >> shift == digit else { throw DrumlinError(.invalidArgument, "An integer is outside the 64-bit range.") }
                magnitude |= digit << shift
                shift += 15
            }
            if digits < 0 {
                guard magnitude <= UInt64(Int64.max) + 1 else { throw DrumlinError(.invalidArgument, "An integer is outside the 64-bit range.") }
                item = .int(magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude))
            } else {
                guard magnitude <= UInt64(Int64.max) else { throw DrumlinError(.invalidArgument, "An integer is outside the 64-bit range.") }
                item = .int(Int64(magnitude))
            }
        case UInt8(ascii: "g"):
            guard count - offset >= 8 else { throw fail("unexpected end") }
            let bits = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
            item = .double(Double(bitPattern: bits))
        case UInt8(ascii: "z"), UInt8(ascii: "Z"):
            item = .text(try slice(Int(try byte())))
        case UInt8(ascii: "a"), UInt8(ascii: "A"), UInt8(ascii: "u"), UInt8(ascii: "t"):
            item = .text(try slice(Int(try int32())))
        case UInt8(ascii: "s"):
            item = .bytes(try slice(Int(try int32())))
        case UInt8(ascii: "r"):
            let index = Int(try int32())
            guard index >= 0, index < references.count, let referenced = references[index] else {
                throw fail("a back reference to \(index) is not a scalar")
            }
            return referenced
        default:
            if let name = Self.containerNames[code & 0x7F] {
                // A Python value of another kind: a type error for the property (see createMany).
                throw DrumlinError(.typeMismatch, name)
            }
            throw fail("unsupported type '\(Unicode.Scalar(code & 0x7F))' (rows may hold None, bool, int, float, str and bytes)")
        }
        if slot >= 0 { references[slot] = item }
        return item
    }
}
