/// Reads the subset of Python's `marshal` format (versions 2-4) that a batch of rows needs: a list
/// or tuple of tuples holding None, booleans, ints, floats, str and bytes, with the format's back
/// references, and nested values: lists (a list or set, or a list in a mixed value), dicts
/// with str keys (a dictionary, a nested object's properties, or a dictionary in a mixed value) and
/// tagged tuples `(DRUMLIN_TYPE_*, payload...)` for the types marshal has none for, as the read path
/// writes them (see `tagged`). It lets a Python caller hand over a whole batch from one
/// `marshal.dumps` (C code in the interpreter) instead of building JSON; docs/performance.md has the
/// measurements.
package struct MarshalReader {
    package typealias Item = BorrowedValue

    /// Marshal type codes of Python values a row cannot hold, by the name errors give them.
    static let containerNames: [UInt8: String] = [
        UInt8(ascii: "["): "list", UInt8(ascii: "("): "tuple", UInt8(ascii: ")"): "tuple", UInt8(ascii: "{"): "dict",
        UInt8(ascii: "<"): "set", UInt8(ascii: ">"): "frozenset", UInt8(ascii: "y"): "complex", UInt8(ascii: "x"): "complex",
    ]

    let base: UnsafeRawPointer
    package let count: Int
    package var offset = 0
    /// Objects flagged for back references, in order. Containers get a placeholder.
    var references: [Item?] = []
    /// Where flagged lists and dicts read element by element (`openList`, `openDictionary`)
    /// start, in slot order: a back reference to one reads it again from there, owned.
    var containerStarts: [(slot: Int, offset: Int)] = []

    package init(_ buffer: UnsafeRawBufferPointer) throws(DrumlinError) {
        guard let base = buffer.baseAddress, buffer.count > 0 else {
            throw DrumlinError(.invalidArgument, "The marshal data is empty.")
        }
        self.base = base
        count = buffer.count
    }

    package func fail(_ reason: String) -> DrumlinError {
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
    package mutating func containerLength() throws(DrumlinError) -> Int {
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
    package mutating func item() throws(DrumlinError) -> Item {
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
            guard index >= 0, index < references.count else { throw fail("a back reference to \(index) is not a scalar") }
            if let referenced = references[index] { return referenced }
            guard let start = containerStart(index) else { throw fail("a back reference to \(index) is not a scalar") }
            // A container read element by element before: read it again, owned, with the
            // reference slots it had then.
            var again = self
            again.offset = start
            again.references.removeSubrange(index...)
            let item = try again.item()
            references[index] = item
            return item
        case UInt8(ascii: "["):
            let n = Int(try int32())
            guard n >= 0 else { throw fail("negative length") }
            item = .value(.list(try elements(n)))
        case UInt8(ascii: "("), UInt8(ascii: ")"):
            let n = code & 0x7F == UInt8(ascii: ")") ? Int(try byte()) : Int(try int32())
            guard n >= 0 else { throw fail("negative length") }
            if n == 2 || n == 3 {
                // Every tag has two or three items: read them without an array.
                let first = try self.item().value(), second = try self.item().value()
                var third: Value?
                if n == 3 { third = try self.item().value() }
                item = .value(try Self.tagged(first, second, third))
            } else {
                _ = try elements(n)
                throw DrumlinError(.typeMismatch, "tuple")
            }
        case UInt8(ascii: "{"):
            item = .value(try dictionary())
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

    /// The text of a decimal tagged `(DRUMLIN_TYPE_DECIMAL128, text)` when one is next and its
    /// text is the decimal's canonical form (`Decimal128.isCanonical`: what storing the parsed
    /// decimal would write), borrowed and read past; else nil, nothing read.
    package mutating func canonicalDecimalText() -> UnsafeRawBufferPointer? {
        guard count - offset >= 5 else { return nil }
        let code = base.load(fromByteOffset: offset, as: UInt8.self)
        let header: Int    // the tuple's code and length: ")" and a byte, or "(" and four
        switch code & 0x7F {
        case UInt8(ascii: ")") where base.load(fromByteOffset: offset + 1, as: UInt8.self) == 2: header = 2
        case UInt8(ascii: "(") where Int32(littleEndian: base.loadUnaligned(fromByteOffset: offset + 1, as: Int32.self)) == 2: header = 5
        default: return nil
        }
        let start = offset, referenced = references.count, containers = containerStarts.count
        noteContainer(code)    // a back reference to the tuple reads it again
        offset += header
        if case .int(8)? = try? item(), case .text(let text)? = try? item(), Decimal128.isCanonical(text) { return text }
        offset = start
        references.removeSubrange(referenced...)
        containerStarts.removeSubrange(containers...)
        return nil
    }

    /// Opens a list when one is next, to be read element by element with `item()` (text stays
    /// borrowed): returns its length, or nil (nothing read) when the next value is not a list.
    package mutating func openList() throws(DrumlinError) -> Int? {
        guard offset < count else { return nil }
        let code = base.load(fromByteOffset: offset, as: UInt8.self)
        guard code & 0x7F == UInt8(ascii: "[") else { return nil }
        noteContainer(code)
        offset += 1
        let n = Int(try int32())
        guard n >= 0 else { throw fail("negative length") }
        return n
    }

    /// Opens a dict when one is next, to be read entry by entry (`dictionaryKey()`, then the
    /// value): true when it was opened, false (nothing read) when the next value is not a dict.
    package mutating func openDictionary() -> Bool {
        guard offset < count else { return false }
        let code = base.load(fromByteOffset: offset, as: UInt8.self)
        guard code & 0x7F == UInt8(ascii: "{") else { return false }
        noteContainer(code)
        offset += 1
        return true
    }

    /// The next key of a dict opened with `openDictionary` (UTF-8, borrowed), or nil at its end.
    package mutating func dictionaryKey() throws(DrumlinError) -> UnsafeRawBufferPointer? {
        guard offset < count else { throw fail("unexpected end") }
        if base.load(fromByteOffset: offset, as: UInt8.self) == UInt8(ascii: "0") {
            offset += 1
            return nil
        }
        guard case .text(let key) = try item() else { throw DrumlinError(.typeMismatch, "a dict whose keys are not all str") }
        return key
    }

    /// A container opened for reading element by element takes its reference slot (when
    /// flagged), remembering where it starts.
    private mutating func noteContainer(_ code: UInt8) {
        guard code & 0x80 != 0 else { return }
        containerStarts.append((references.count, offset))
        references.append(nil)
    }

    private func containerStart(_ slot: Int) -> Int? {
        var low = 0, high = containerStarts.count
        while low < high {
            let middle = (low + high) / 2
            if containerStarts[middle].slot < slot { low = middle + 1 } else { high = middle }
        }
        return low < containerStarts.count && containerStarts[low].slot == slot ? containerStarts[low].offset : nil
    }

    /// `n` nested values, owned (their text copied): nested values outlive the row's buffer slots.
    private mutating func elements(_ n: Int) throws(DrumlinError) -> [Value] {
        var values: [Value] = []
        values.reserveCapacity(Swift.min(n, 1024))
        for _ in 0..<n { values.append(try item().value()) }
        return values
    }

    /// A dict's entries (marshal: key, value pairs up to a '0'), keys str.
    private mutating func dictionary() throws(DrumlinError) -> Value {
        var entries: [(key: String, value: Value)] = []
        while true {
            guard offset < count else { throw fail("unexpected end") }
            if base.load(fromByteOffset: offset, as: UInt8.self) == UInt8(ascii: "0") {
                offset += 1
                return .dictionary(entries)
            }
            guard case .string(let key) = try item().value() else {
                throw DrumlinError(.typeMismatch, "a dict whose keys are not all str")
            }
            entries.append((key, try item().value()))
        }
    }

    /// A tagged value: `(DRUMLIN_TYPE_TIMESTAMP, seconds, nanoseconds)`, `(DRUMLIN_TYPE_DECIMAL128,
    /// low, high)` (the BID words, as unsigned or signed 64-bit ints) or `(DRUMLIN_TYPE_DECIMAL128,
    /// text)`, `(DRUMLIN_TYPE_OBJECT_ID, 12 bytes)`, `(DRUMLIN_TYPE_UUID, 16 bytes)`,
    /// `(DRUMLIN_TYPE_FLOAT, number)` and `(DRUMLIN_TYPE_LINK, class index, object key)`. Any other
    /// tuple is a type error naming it a tuple, as before tags existed.
    private static func tagged(_ first: Value, _ second: Value, _ third: Value?) throws(DrumlinError) -> Value {
        guard case .int(let tag) = first else { throw DrumlinError(.typeMismatch, "tuple") }
        switch (tag, third) {
        case (5, .int(let nanoseconds)?):  // DRUMLIN_TYPE_TIMESTAMP
            guard case .int(let seconds) = second, let nanos = Int32(exactly: nanoseconds) else { break }
            return .date(Timestamp(seconds: seconds, nanoseconds: nanos))
        case (8, .int(let high)?):  // DRUMLIN_TYPE_DECIMAL128, BID words
            guard case .int(let low) = second else { break }
            return .decimal(Decimal128(high: UInt64(bitPattern: high), low: UInt64(bitPattern: low)))
        case (8, nil):  // DRUMLIN_TYPE_DECIMAL128, text
            guard case .string(let text) = second else { break }
            guard let decimal = Decimal128(string: text) else {
                throw DrumlinError(.invalidArgument, "'\(text)' is not a decimal128 value (at most 34 significant digits).")
            }
            return .decimal(decimal)
        case (9, nil):  // DRUMLIN_TYPE_OBJECT_ID
            guard case .data(let bytes) = second, let id = ObjectId(bytes: bytes) else { break }
            return .objectId(id)
        case (11, nil):  // DRUMLIN_TYPE_UUID
            guard case .data(let bytes) = second, let uuid = UUIDValue(bytes: bytes) else { break }
            return .uuid(uuid)
        case (6, nil):  // DRUMLIN_TYPE_FLOAT
            if case .double(let d) = second { return .float(Float(d)) }
            if case .int(let i) = second { return .float(Float(i)) }
        case (10, .int(let key)?):  // DRUMLIN_TYPE_LINK
            guard case .int(let classIndex) = second else { break }
            return .link(ObjectLink(classIndex: Int(classIndex), key: key))
        default:
            break
        }
        throw DrumlinError(.typeMismatch, "tuple")
    }
}
