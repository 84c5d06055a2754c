/// A 16-byte RFC 9562 UUID.
///
/// Named `UUIDValue` so it cannot collide with Foundation's `UUID` in code
/// that embeds Drumlin. The bytes are held as two big-endian words rather than
/// an array, so a UUID is a plain value with no heap allocation, and ordering
/// on the words is the same as ordering on the bytes; index keys therefore
/// sort identically whether compared as values or as stored bytes.
public struct UUIDValue: Sendable, Hashable, Comparable, CustomStringConvertible {
    // Bytes 0...7 and 8...15, first byte most significant.
    private var upper: UInt64
    private var lower: UInt64

    private init(packed: UInt128) {
        upper = UInt64(truncatingIfNeeded: packed >> 64)
        lower = UInt64(truncatingIfNeeded: packed)
    }

    private var packed: UInt128 { UInt128(upper) << 64 | UInt128(lower) }

    /// Accepts exactly 16 bytes; any other length is a caller error worth catching.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 16 else { return nil }
        self.init(packed: bytes.reduce(UInt128(0)) { $0 << 8 | UInt128($1) })
    }

    /// Accepts only the canonical 8-4-4-4-12 form (either case). Braces, URN
    /// prefixes and dash-less forms are rejected so that one UUID has one
    /// spelling in queries and logs.
    public init?(string: String) {
        var text = string
        let packed: UInt128? = text.withUTF8 { utf8 in
            guard utf8.count == 36 else { return nil }
            var value: UInt128 = 0
            for (index, char) in utf8.enumerated() {
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    guard char == UInt8(ascii: "-") else { return nil }
                    continue
                }
                guard let nibble = hexNibble(char) else { return nil }
                value = value << 4 | UInt128(nibble)
            }
            return value
        }
        guard let packed else { return nil }
        self.init(packed: packed)
    }

    /// A version 4 (random) UUID from the system's cryptographic generator,
    /// so ids are unguessable as well as unique.
    public static func random() -> UUIDValue {
        var generator = SystemRandomNumberGenerator()
        var value = UUIDValue(packed: 0)
        value.upper = (generator.next() & ~0xF000) | 0x4000                        // version 4
        value.lower = (generator.next() & ~(0xC0 << 56)) | (0x80 << 56)            // variant 10
        return value
    }

    /// The 16 bytes in storage order.
    public var bytes: [UInt8] {
        let value = packed
        return (0..<16).map { UInt8(truncatingIfNeeded: value >> (120 - 8 * $0)) }
    }

    /// Lowercase 8-4-4-4-12, as RFC 9562 recommends for output.
    public var string: String {
        let value = packed
        return String(unsafeUninitializedCapacity: 36) { buffer in
            var nibbleIndex = 0
            for index in 0..<36 {
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    buffer[index] = UInt8(ascii: "-")
                } else {
                    let nibble = UInt8(truncatingIfNeeded: value >> (124 - 4 * nibbleIndex)) & 0xF
                    buffer[index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
                    nibbleIndex += 1
                }
            }
            return 36
        }
    }

    public var description: String { string }

    public static func < (lhs: UUIDValue, rhs: UUIDValue) -> Bool {
        (lhs.upper, lhs.lower) < (rhs.upper, rhs.lower)
    }
}

private func hexNibble(_ char: UInt8) -> UInt8? {
    switch char {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return char - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return char - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return char - UInt8(ascii: "A") + 10
    default: return nil
    }
}
