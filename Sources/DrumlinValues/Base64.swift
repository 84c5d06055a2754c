/// RFC 4648 base64 with the standard alphabet, used wherever binary values
/// have to travel as text (extended JSON, the C ABI's string interfaces).
///
/// Encoding always pads, so each byte sequence has exactly one spelling.
/// Decoding is strict for the same reason: padding is optional, but any other
/// character (whitespace included), an impossible length, misplaced padding
/// or non-zero unused bits in the last character are rejected rather than
/// guessed at, so two different strings never decode to the same bytes.
public enum Base64 {
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        let outputLength = (bytes.count + 2) / 3 * 4
        return String(unsafeUninitializedCapacity: outputLength) { out in
            var o = 0
            var iterator = bytes.makeIterator()
            while let b0 = iterator.next() {
                let b1 = iterator.next(), b2 = iterator.next()
                let group = UInt32(b0) << 16 | UInt32(b1 ?? 0) << 8 | UInt32(b2 ?? 0)
                out[o] = alphabet[Int(group >> 18 & 0x3F)]
                out[o + 1] = alphabet[Int(group >> 12 & 0x3F)]
                out[o + 2] = b1 == nil ? UInt8(ascii: "=") : alphabet[Int(group >> 6 & 0x3F)]
                out[o + 3] = b2 == nil ? UInt8(ascii: "=") : alphabet[Int(group & 0x3F)]
                o += 4
            }
            return o
        }
    }

    /// Returns nil for anything that is not canonical base64 (see the type's
    /// documentation); an empty string decodes to no bytes.
    public static func decode(_ text: String) -> [UInt8]? {
        var copy = text
        return copy.withUTF8 { decode(utf8: $0) }
    }

    private static func decode(utf8 input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var length = input.count
        var padding = 0
        while length > 0 && input[length - 1] == UInt8(ascii: "=") {
            length -= 1
            padding += 1
        }
        // Padding, when present, must complete the final 4-character group.
        if padding > 0 && (padding > 2 || input.count % 4 != 0) { return nil }
        // One leftover character carries only 6 bits: never a whole byte.
        if length % 4 == 1 { return nil }

        var output: [UInt8] = []
        output.reserveCapacity(length / 4 * 3 + 2)
        var accumulator: UInt32 = 0
        var bitCount = 0
        for index in 0..<length {
            guard let value = sextet(input[index]) else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bitCount += 6
            if bitCount >= 8 {
                bitCount -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bitCount)))
                accumulator &= (1 << UInt32(bitCount)) - 1
            }
        }
        // Leftover bits must be zero, otherwise the encoding is non-canonical.
        return accumulator == 0 ? output : nil
    }

    private static func sextet(_ char: UInt8) -> UInt8? {
        switch char {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return char - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return char - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return char - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }
}
