/// An IEEE 754-2008 decimal128 value, kept in the BID (binary integer decimal)
/// encoding that BSON and MongoDB use.
///
/// Drumlin stores decimals bit-for-bit as they arrive, so that a value written by
/// a client comes back with exactly the same representation: `1.10` stays
/// `1.10` and is not normalised to `1.1`. No arithmetic is offered; this type
/// only parses, prints, converts and compares.
///
/// `==` and `hashValue` compare the raw 128 bits. That is deliberate: two
/// encodings of the same number (`1.0` and `1.00`, `0` and `-0`) are different
/// stored values, and an index must be able to tell them apart. Use
/// `numericCompare(_:)` when the question is about numbers.
public struct Decimal128: Sendable, Hashable, CustomStringConvertible {
    /// Low 64 bits of the BID encoding (the low part of the coefficient).
    public var low: UInt64
    /// High 64 bits: sign, combination field, exponent and coefficient top bits.
    public var high: UInt64

    /// Wraps raw bits read from storage; every bit pattern is accepted because
    /// non-canonical encodings must still round-trip unchanged.
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    static let exponentBias = 6176
    static let minExponent = -6176
    static let maxExponent = 6111
    static let maxDigits = 34
    static let maxCoefficient: UInt128 = 9_999_999_999_999_999_999_999_999_999_999_999

    static let signBit: UInt64 = 1 << 63
    static let specialMask: UInt64 = 0x7C00_0000_0000_0000
    static let nanBits: UInt64 = 0x7C00_0000_0000_0000
    static let infinityBits: UInt64 = 0x7800_0000_0000_0000

    /// Builds a canonical finite value. Callers guarantee the coefficient has at
    /// most 34 digits, so the "11" combination form is never produced.
    package init(negative: Bool, coefficient: UInt128, exponent: Int) {
        precondition(coefficient <= Self.maxCoefficient)
        precondition(exponent >= Self.minExponent && exponent <= Self.maxExponent)
        let biased = UInt64(exponent + Self.exponentBias)
        high = (negative ? Self.signBit : 0) | (biased << 49)
            | UInt64(truncatingIfNeeded: coefficient >> 64)
        low = UInt64(truncatingIfNeeded: coefficient)
    }

    /// Exact conversion: every Int64 has at most 19 digits, so nothing is lost.
    public init(_ value: Int64) {
        self.init(negative: value < 0, coefficient: UInt128(value.magnitude), exponent: 0)
    }

    /// Converts through the shortest decimal string that round-trips to the
    /// same double (`"\(value)"`), which is what a user typing the number would
    /// have meant; the binary expansion of e.g. `0.1` is not what anyone wants
    /// stored. Because of that, `1.0` becomes `1.0` (coefficient 10, exponent -1).
    /// Returns nil only for NaN and infinities, which have no decimal string.
    public init?(exactly value: Double) {
        guard value.isFinite else { return nil }
        self.init(string: "\(value)")
    }

    // MARK: - Decoding

    enum Kind { case finite, infinity, nan }

    /// The decoded meaning of the bits, used by printing and comparison.
    struct Parts {
        var negative: Bool
        var kind: Kind
        var coefficient: UInt128
        var exponent: Int
    }

    var parts: Parts {
        let negative = high & Self.signBit != 0
        if high & Self.specialMask == Self.nanBits {
            return Parts(negative: negative, kind: .nan, coefficient: 0, exponent: 0)
        }
        if high & Self.specialMask == Self.infinityBits {
            return Parts(negative: negative, kind: .infinity, coefficient: 0, exponent: 0)
        }
        if (high >> 61) & 3 == 3 {
            // "11" form: the implied coefficient is >= 2^113 > 10^34 - 1, which
            // IEEE 754 declares non-canonical and therefore zero.
            let exponent = Int((high >> 47) & 0x3FFF) - Self.exponentBias
            return Parts(negative: negative, kind: .finite, coefficient: 0, exponent: exponent)
        }
        let exponent = Int((high >> 49) & 0x3FFF) - Self.exponentBias
        var coefficient = (UInt128(high & 0x1_FFFF_FFFF_FFFF) << 64) | UInt128(low)
        if coefficient > Self.maxCoefficient { coefficient = 0 }
        return Parts(negative: negative, kind: .finite, coefficient: coefficient, exponent: exponent)
    }

    public var isNaN: Bool { high & Self.specialMask == Self.nanBits }
    public var isInfinite: Bool { high & Self.specialMask == Self.infinityBits }
    /// The sign bit, so it is also true for `-0` and for negative NaNs.
    public var isNegative: Bool { high & Self.signBit != 0 }
    /// True for every zero encoding, including non-canonical ones that decode as zero.
    public var isZero: Bool {
        let p = parts
        return p.kind == .finite && p.coefficient == 0
    }

    // MARK: - Parsing

    /// Parses the BSON Decimal128 string grammar. Only exact results are
    /// accepted: a database must not silently store a number other than the
    /// one it was given, so inexact rounding, overflow and underflow yield nil.
    public init?(string: String) {
        var text = string
        guard let value = text.withUTF8({ Self.parse($0) }) else { return nil }
        self = value
    }

    /// `init?(string:)` of UTF-8 text in place (a column's text: no String made).
    public init?(utf8 text: UnsafeBufferPointer<UInt8>) {
        guard let value = Self.parse(text) else { return nil }
        self = value
    }

    private static func parse(_ s: UnsafeBufferPointer<UInt8>) -> Decimal128? {
        var i = 0
        var negative = false
        if i < s.count, s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") {
            negative = s[i] == UInt8(ascii: "-")
            i += 1
        }
        if i < s.count, s[i] | 0x20 >= UInt8(ascii: "a"), s[i] | 0x20 <= UInt8(ascii: "z") {
            return parseSpecial(UnsafeBufferPointer(rebasing: s[i...]), negative: negative)
        }

        var coefficient: UInt128 = 0
        var significantDigits = 0
        var droppedZeros = 0
        var fractionDigits = 0
        var sawDigit = false
        var sawPoint = false
        while i < s.count {
            let c = s[i]
            if c == UInt8(ascii: ".") {
                if sawPoint { return nil }
                sawPoint = true
            } else if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
                let digit = c - UInt8(ascii: "0")
                sawDigit = true
                if sawPoint { fractionDigits += 1 }
                if significantDigits == 0 && digit == 0 {
                    // Leading zero: affects only the exponent via fractionDigits.
                } else if significantDigits < maxDigits {
                    coefficient = coefficient * 10 + UInt128(digit)
                    significantDigits += 1
                } else {
                    // Beyond 34 digits only zeros can be rounded away exactly.
                    if digit != 0 { return nil }
                    droppedZeros += 1
                }
            } else {
                break
            }
            i += 1
        }
        guard sawDigit else { return nil }

        var exponent = 0
        if i < s.count {
            guard s[i] == UInt8(ascii: "e") || s[i] == UInt8(ascii: "E") else { return nil }
            i += 1
            var exponentNegative = false
            if i < s.count, s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") {
                exponentNegative = s[i] == UInt8(ascii: "-")
                i += 1
            }
            var sawExponentDigit = false
            while i < s.count, s[i] >= UInt8(ascii: "0"), s[i] <= UInt8(ascii: "9") {
                sawExponentDigit = true
                // Saturate: any magnitude this large is already out of range,
                // and saturating keeps later arithmetic free of overflow.
                exponent = min(exponent * 10 + Int(s[i] - UInt8(ascii: "0")), 1 << 40)
                i += 1
            }
            guard sawExponentDigit, i == s.count else { return nil }
            if exponentNegative { exponent = -exponent }
        }
        exponent = exponent - fractionDigits + droppedZeros

        if coefficient == 0 {
            // Clamping a zero never changes its value.
            exponent = Swift.min(Swift.max(exponent, minExponent), maxExponent)
        } else {
            var digits = significantDigits
            while exponent < minExponent {
                guard coefficient % 10 == 0 else { return nil }  // underflow
                coefficient /= 10
                exponent += 1
                digits -= 1
            }
            while exponent > maxExponent {
                guard digits < maxDigits else { return nil }  // overflow
                coefficient *= 10
                exponent -= 1
                digits += 1
            }
        }
        return Decimal128(negative: negative, coefficient: coefficient, exponent: exponent)
    }

    private static func parseSpecial(_ s: UnsafeBufferPointer<UInt8>, negative: Bool) -> Decimal128? {
        func matches(_ word: StaticString) -> Bool {
            guard s.count == word.utf8CodeUnitCount else { return false }
            for k in 0..<s.count where s[k] | 0x20 != word.utf8Start[k] {
                return false
            }
            return true
        }
        let sign = negative ? signBit : 0
        if matches("nan") { return Decimal128(high: sign | nanBits, low: 0) }
        if matches("inf") || matches("infinity") { return Decimal128(high: sign | infinityBits, low: 0) }
        return nil
    }

    /// Whether `text` (UTF-8) is exactly what `description` prints for the decimal it parses
    /// to, so it can be stored as it is: `-?(0|[1-9][0-9]*)(\.[0-9]+)?` with at most 34 digits
    /// and, for `0.`, at most five zeros before the first significant digit (six when all are
    /// zero). Other texts (an exponent, a `+`, leading zeros, special values) may still be
    /// decimals; they are not checked here.
    public static func isCanonical(_ text: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        let n = text.count
        if i < n, text[i] == UInt8(ascii: "-") { i += 1 }
        let integerStart = i
        while i < n, text[i] >= UInt8(ascii: "0"), text[i] <= UInt8(ascii: "9") { i += 1 }
        let integerDigits = i - integerStart
        guard integerDigits > 0, integerDigits == 1 || text[integerStart] != UInt8(ascii: "0") else { return false }
        var fractionDigits = 0
        var leadingZeros = 0
        if i < n {
            guard text[i] == UInt8(ascii: "."), i + 1 < n else { return false }
            i += 1
            let fractionStart = i
            while i < n, text[i] >= UInt8(ascii: "0"), text[i] <= UInt8(ascii: "9") { i += 1 }
            guard i == n else { return false }
            fractionDigits = i - fractionStart
            while leadingZeros < fractionDigits, text[fractionStart + leadingZeros] == UInt8(ascii: "0") { leadingZeros += 1 }
        }
        guard integerDigits + fractionDigits <= maxDigits else { return false }
        if text[integerStart] == UInt8(ascii: "0"), fractionDigits > 0 {
            // 0.000ddd prints so while the adjusted exponent is -6 or more, else in E notation.
            return leadingZeros == fractionDigits ? fractionDigits <= 6 : leadingZeros <= 5
        }
        return true
    }

    // MARK: - Printing

    /// The BSON/decNumber to-scientific-string form, so that output matches
    /// MongoDB tooling and parses back to the identical bits (for canonical input).
    public var description: String {
        var text = ""
        withText { text = String(decoding: $0, as: UTF8.self) }
        return text
    }

    /// `description`'s text, written into a temporary buffer and handed to `body` (no String is
    /// built: a row read packs it as it is). Not generic: a generic result made the temporary
    /// buffer instantiate `Result` metadata at run time on every call from another module
    /// (~330 instructions a value).
    public func withText(_ body: (UnsafeRawBufferPointer) -> Void) {
        let p = parts
        // Output at 0..<48 (at most 42 bytes: a sign, "0.", five zeros and 34 digits, or a
        // sign, 34 digits, a point and "E+6144"), the coefficient's digits at 48..<96, from the end.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 96) { (buffer) -> Void in
            var count = 0
            func put(_ byte: UInt8) {
                buffer[count] = byte
                count += 1
            }
            func put(_ text: StaticString) {
                text.withUTF8Buffer { for byte in $0 { put(byte) } }
            }
            func done() { body(UnsafeRawBufferPointer(start: buffer.baseAddress, count: count)) }
            switch p.kind {
            case .nan:
                put("NaN")
                return done()
            case .infinity:
                put(p.negative ? "-Infinity" : "Infinity")
                return done()
            case .finite:
                break
            }
            var first = 96
            if p.coefficient <= UInt128(UInt64.max) {
                var c = UInt64(p.coefficient)
                repeat {
                    first -= 1
                    buffer[first] = UInt8(ascii: "0") + UInt8(c % 10)
                    c /= 10
                } while c != 0
            } else {
                var c = p.coefficient
                repeat {
                    first -= 1
                    buffer[first] = UInt8(ascii: "0") + UInt8(c % 10)
                    c /= 10
                } while c != 0
            }
            let length = 96 - first
            func putDigits(_ range: Range<Int>) { for i in range { put(buffer[first + i]) } }
            let adjusted = p.exponent + length - 1
            if p.negative { put(UInt8(ascii: "-")) }
            if p.exponent <= 0 && adjusted >= -6 {
                let integerDigits = length + p.exponent
                if p.exponent == 0 {
                    putDigits(0..<length)
                } else if integerDigits > 0 {
                    putDigits(0..<integerDigits)
                    put(UInt8(ascii: "."))
                    putDigits(integerDigits..<length)
                } else {
                    put("0.")
                    for _ in 0 ..< -integerDigits { put(UInt8(ascii: "0")) }
                    putDigits(0..<length)
                }
            } else {
                putDigits(0..<1)
                if length > 1 {
                    put(UInt8(ascii: "."))
                    putDigits(1..<length)
                }
                put(adjusted < 0 ? "E-" : "E+")
                var magnitude = adjusted.magnitude
                var divisor: UInt = 1
                while divisor * 10 <= magnitude { divisor *= 10 }
                repeat {
                    put(UInt8(ascii: "0") + UInt8(magnitude / divisor))
                    magnitude %= divisor
                    divisor /= 10
                } while divisor != 0
            }
            return done()
        }
    }

    /// Nearest double. Goes through the decimal string because the stdlib
    /// parser rounds correctly and independently of the C locale; the result
    /// overflows to infinity or underflows to zero like any decimal-to-binary
    /// conversion.
    public var doubleValue: Double {
        let p = parts
        switch p.kind {
        case .nan: return .nan
        case .infinity: return p.negative ? -.infinity : .infinity
        case .finite: return Double(description) ?? .nan
        }
    }
}

// MARK: - Numeric comparison

extension Decimal128 {
    /// -1, 0 or 1 as in `self <=> other` by numeric value; nil when either is
    /// NaN because NaN is unordered. Representation is ignored here: `1.0`
    /// equals `1.00` and `-0` equals `0`, which is what query predicates need.
    public func numericCompare(_ other: Decimal128) -> Int? {
        let a = parts, b = other.parts
        if a.kind == .nan || b.kind == .nan { return nil }
        let signA = Self.signum(a), signB = Self.signum(b)
        if signA != signB { return signA < signB ? -1 : 1 }
        if signA == 0 { return 0 }
        let magnitude: Int
        switch (a.kind, b.kind) {
        case (.infinity, .infinity): magnitude = 0
        case (.infinity, _): magnitude = 1
        case (_, .infinity): magnitude = -1
        default: magnitude = Self.compareMagnitudes(a.coefficient, a.exponent, b.coefficient, b.exponent)
        }
        return signA > 0 ? magnitude : -magnitude
    }

    /// Exact against every Int64: the integer converts to a decimal without loss.
    public func numericCompare(_ other: Int64) -> Int? {
        numericCompare(Decimal128(other))
    }

    /// Exact against the double's true binary value (not its shortest string),
    /// so mixed-type range queries never disagree with a sort order.
    public func numericCompare(_ other: Double) -> Int? {
        let a = parts
        if a.kind == .nan || other.isNaN { return nil }
        let signA = Self.signum(a)
        let signB = other > 0 ? 1 : (other < 0 ? -1 : 0)
        if signA != signB { return signA < signB ? -1 : 1 }
        if signA == 0 { return 0 }
        let magnitude: Int
        if a.kind == .infinity {
            magnitude = other.isInfinite ? 0 : 1
        } else if other.isInfinite {
            magnitude = -1
        } else {
            magnitude = Self.compareMagnitude(a.coefficient, a.exponent, other.magnitude)
        }
        return signA > 0 ? magnitude : -magnitude
    }

    private static func signum(_ p: Parts) -> Int {
        if p.kind == .finite && p.coefficient == 0 { return 0 }
        return p.negative ? -1 : 1
    }

    /// The number of decimal digits of `value` (1 for 0).
    static func digitCount(_ value: UInt128) -> Int {
        var count = 1
        var bound: UInt128 = 10
        while count < 39 && value >= bound {
            count += 1
            bound &*= 10
        }
        return count
    }

    /// 10^n, for n <= 38.
    static func powerOfTen(_ n: Int) -> UInt128 {
        var result: UInt128 = 1
        for _ in 0..<n { result *= 10 }
        return result
    }

    /// Compares two non-zero finite magnitudes c1·10^e1 and c2·10^e2.
    private static func compareMagnitudes(_ c1: UInt128, _ e1: Int, _ c2: UInt128, _ e2: Int) -> Int {
        let d1 = digitCount(c1), d2 = digitCount(c2)
        let adjusted1 = e1 + d1 - 1, adjusted2 = e2 + d2 - 1
        if adjusted1 != adjusted2 { return adjusted1 < adjusted2 ? -1 : 1 }
        // Same leading-digit position: pad the shorter coefficient (stays < 10^34).
        var x = c1, y = c2
        if d1 < d2 { x *= powerOfTen(d2 - d1) } else if d2 < d1 { y *= powerOfTen(d1 - d2) }
        return x < y ? -1 : (x > y ? 1 : 0)
    }

    /// Compares a non-zero finite decimal magnitude c·10^e with a positive
    /// finite double. Orders of magnitude settle almost every case cheaply;
    /// the rest are decided with exact big-integer arithmetic.
    private static func compareMagnitude(_ c: UInt128, _ e: Int, _ x: Double) -> Int {
        let adjusted = e + digitCount(c) - 1          // c·10^e is in [10^adj, 10^(adj+1))
        let binaryExponent = Int(x.exponent)          // x is in [2^b, 2^(b+1))
        let log2Of10 = 3.321928094887362
        if Double(adjusted + 1) * log2Of10 < Double(binaryExponent) - 1e-6 { return -1 }
        if Double(adjusted) * log2Of10 > Double(binaryExponent + 1) + 1e-6 { return 1 }

        // Here the exponents are within a few hundred of zero, so the numbers stay small.
        let significand: UInt64
        let power: Int
        if x.isNormal {
            significand = x.significandBitPattern | (1 << 52)
            power = Int(x.exponentBitPattern) - 1075
        } else {
            significand = x.significandBitPattern
            power = -1074
        }
        var lhs = WideUInt(c)                         // c · 10^max(e,0) · 2^max(-power,0)
        var rhs = WideUInt(UInt128(significand))      // m · 2^max(power,0) · 10^max(-e,0)
        if e >= 0 { lhs.multiplyByPowerOfTen(e) } else { rhs.multiplyByPowerOfTen(-e) }
        if power >= 0 { rhs.shiftLeft(power) } else { lhs.shiftLeft(-power) }
        return WideUInt.compare(lhs, rhs)
    }
}

/// Just enough unsigned big-integer arithmetic for exact decimal/binary
/// comparison; limbs are little-endian and never have a zero top limb.
private struct WideUInt {
    var limbs: [UInt32] = []

    package init(_ value: UInt128) {
        var v = value
        while v != 0 {
            limbs.append(UInt32(truncatingIfNeeded: v))
            v >>= 32
        }
    }

    mutating func multiply(by factor: UInt32) {
        var carry: UInt64 = 0
        for i in limbs.indices {
            let product = UInt64(limbs[i]) * UInt64(factor) + carry
            limbs[i] = UInt32(truncatingIfNeeded: product)
            carry = product >> 32
        }
        if carry != 0 { limbs.append(UInt32(carry)) }
    }

    mutating func multiplyByPowerOfTen(_ n: Int) {
        var remaining = n
        while remaining >= 9 {
            multiply(by: 1_000_000_000)
            remaining -= 9
        }
        var factor: UInt32 = 1
        for _ in 0..<remaining { factor *= 10 }
        if factor > 1 { multiply(by: factor) }
    }

    mutating func shiftLeft(_ n: Int) {
        guard !limbs.isEmpty, n > 0 else { return }
        let bits = UInt32(n % 32)
        if bits > 0 {
            var carry: UInt32 = 0
            for i in limbs.indices {
                let v = limbs[i]
                limbs[i] = (v << bits) | carry
                carry = v >> (32 - bits)
            }
            if carry != 0 { limbs.append(carry) }
        }
        limbs.insert(contentsOf: repeatElement(0, count: n / 32), at: 0)
    }

    static func compare(_ a: WideUInt, _ b: WideUInt) -> Int {
        if a.limbs.count != b.limbs.count { return a.limbs.count < b.limbs.count ? -1 : 1 }
        for i in a.limbs.indices.reversed() where a.limbs[i] != b.limbs[i] {
            return a.limbs[i] < b.limbs[i] ? -1 : 1
        }
        return 0
    }
}
