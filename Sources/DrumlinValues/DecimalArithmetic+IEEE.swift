/// IEEE 754-2008 decimal128 arithmetic (`+`, `-`, `*`, `/`), rounding to nearest, ties to even,
/// as realm-core computes with Intel's BID library: an exact result keeps its preferred exponent
/// (the smaller one for a sum, the sum of the exponents for a product, their difference for a
/// quotient); an inexact one is rounded to 34 significant digits; too large a result is an
/// infinity, too small a one rounds towards zero at the smallest exponent. NaN in gives a quiet
/// NaN out, as do `inf - inf`, `0 * inf`, `0 / 0` and `inf / inf`; `x / 0` is a signed infinity.
extension Decimal128 {
    public static let quietNaN = Decimal128(high: nanBits, low: 0)
    static let signalingBits: UInt64 = 0x7E00_0000_0000_0000

    /// A signaling NaN (IEEE's sNaN bit set); every NaN the arithmetic gives is quiet.
    public var isSignaling: Bool { high & Self.signalingBits == Self.signalingBits }

    public static func infinity(negative: Bool) -> Decimal128 {
        Decimal128(high: infinityBits | (negative ? signBit : 0), low: 0)
    }

    /// The largest finite value, 9999999999999999999999999999999999E+6111.
    public static let greatestFinite = Decimal128(negative: false, coefficient: maxCoefficient, exponent: maxExponent)

    /// The same value with the sign bit flipped (also for NaN, infinities and zeros).
    public var negated: Decimal128 { Decimal128(high: high ^ Self.signBit, low: low) }
    /// The same value with the sign bit cleared.
    public var magnitude: Decimal128 { Decimal128(high: high & ~Self.signBit, low: low) }

    public func adding(_ other: Decimal128) -> Decimal128 {
        let a = parts, b = other.parts
        if a.kind == .nan || b.kind == .nan { return .quietNaN }
        if a.kind == .infinity || b.kind == .infinity {
            if a.kind == .infinity && b.kind == .infinity && a.negative != b.negative { return .quietNaN }
            return a.kind == .infinity ? Self.infinity(negative: a.negative) : Self.infinity(negative: b.negative)
        }
        // The operand of the larger exponent first.
        let (big, small) = a.exponent >= b.exponent ? (a, b) : (b, a)
        let exponent = small.exponent
        if big.coefficient == 0 && small.coefficient == 0 {
            // An exact zero sum is +0 unless both operands are negative (rounding to nearest).
            return Self.rounded(negative: a.negative && b.negative, big.coefficient, min(a.exponent, b.exponent), sticky: false)
        }
        let shift = big.exponent - exponent
        let bigDigits = Self.digitCount(big.coefficient)
        if big.coefficient == 0 || bigDigits + shift <= 38 {
            // Both fit in 128 bits at the smaller exponent: the exact sum, then rounded.
            let scaled = big.coefficient == 0 ? 0 : big.coefficient * Self.powerOfTen(shift)
            return Self.combine(big.negative, scaled, small.negative, small.coefficient, exponent, sticky: false)
        }
        // The larger operand widened to 38 digits; the smaller one, far below its last digit,
        // counts only by its leading digits and whether anything was cut off.
        let widen = 38 - bigDigits
        let scaled = big.coefficient * Self.powerOfTen(widen)
        let newExponent = big.exponent - widen
        let drop = newExponent - small.exponent
        var cut: UInt128 = 0
        var sticky = small.coefficient != 0
        if drop < 39 {
            let divisor = Self.powerOfTen(drop)
            cut = small.coefficient / divisor
            sticky = small.coefficient % divisor != 0
        }
        return Self.combine(big.negative, scaled, small.negative, cut, newExponent, sticky: sticky)
    }

    public func subtracting(_ other: Decimal128) -> Decimal128 { adding(other.negated) }

    public func multiplied(by other: Decimal128) -> Decimal128 {
        let a = parts, b = other.parts
        let negative = a.negative != b.negative
        if a.kind == .nan || b.kind == .nan { return .quietNaN }
        if a.kind == .infinity || b.kind == .infinity {
            if (a.kind == .finite && a.coefficient == 0) || (b.kind == .finite && b.coefficient == 0) { return .quietNaN }
            return Self.infinity(negative: negative)
        }
        let exponent = a.exponent + b.exponent
        let (high, low) = a.coefficient.multipliedFullWidth(by: b.coefficient)
        if high == 0 { return Self.rounded(negative: negative, low, exponent, sticky: false) }
        // Divide the 256-bit product by the smallest power of ten that leaves at most 37 digits
        // (38 with the rounding digit).
        for drop in 1...38 {
            let divisor = Self.powerOfTen(drop)
            guard high < divisor else { continue }
            let (quotient, remainder) = divisor.dividingFullWidth((high, low))
            guard quotient < Self.powerOfTen(37) else { continue }
            // The remainder's first digit decides the rounding below 38 digits; the rest is sticky.
            let tenth = divisor / 10
            let next = tenth == 0 ? 0 : remainder / tenth
            let rest = tenth == 0 ? remainder != 0 : remainder % tenth != 0
            return Self.rounded(negative: negative, quotient * 10 + next, exponent + drop - 1, sticky: rest)
        }
        return Self.infinity(negative: negative)   // not reached: a product has at most 68 digits
    }

    public func divided(by other: Decimal128) -> Decimal128 {
        let a = parts, b = other.parts
        let negative = a.negative != b.negative
        if a.kind == .nan || b.kind == .nan { return .quietNaN }
        if a.kind == .infinity {
            return b.kind == .infinity ? .quietNaN : Self.infinity(negative: negative)
        }
        if b.kind == .infinity { return Decimal128(negative: negative, coefficient: 0, exponent: 0) }
        if b.coefficient == 0 {
            return a.coefficient == 0 ? .quietNaN : Self.infinity(negative: negative)
        }
        let preferred = a.exponent - b.exponent
        if a.coefficient == 0 { return Self.rounded(negative: negative, 0, preferred, sticky: false) }
        // Long division, one digit at a time (each step fits in 128 bits: the remainder is below
        // the divisor, under 10^34), to 36 significant digits and a sticky remainder.
        var quotient: UInt128 = 0
        var remainder = a.coefficient
        var exponent = preferred
        var significant = 0
        // Integer part first.
        quotient = remainder / b.coefficient
        remainder %= b.coefficient
        if quotient != 0 { significant = Self.digitCount(quotient) }
        while remainder != 0 && significant < 36 {
            remainder *= 10
            quotient = quotient * 10 + remainder / b.coefficient
            remainder %= b.coefficient
            exponent -= 1
            if quotient != 0 { significant = Self.digitCount(quotient) }
        }
        return Self.rounded(negative: negative, quotient, exponent, sticky: remainder != 0)
    }

    /// `±x ± y` at one exponent (both below 2^128 / 2), then rounded.
    private static func combine(_ xNegative: Bool, _ x: UInt128, _ yNegative: Bool, _ y: UInt128, _ exponent: Int,
                                sticky: Bool) -> Decimal128 {
        if xNegative == yNegative { return rounded(negative: xNegative, x + y, exponent, sticky: sticky) }
        if x == y && !sticky { return rounded(negative: false, 0, exponent, sticky: false) }
        // x is the operand whose magnitude wins when a sticky part belongs to y (x is then far larger).
        if x > y || (x == y && sticky) {
            // x - (y + fraction): one less, with a fraction left over.
            return sticky ? rounded(negative: xNegative, x - y - 1, exponent, sticky: true, fractionIsComplement: true)
                          : rounded(negative: xNegative, x - y, exponent, sticky: false)
        }
        return rounded(negative: yNegative, y - x, exponent, sticky: sticky)
    }

    /// `coefficient · 10^exponent` (plus a nonzero fraction below its last digit when `sticky`)
    /// rounded to 34 digits and the exponent range, to nearest, ties to even.
    /// `fractionIsComplement`: the fraction is 1 minus a small amount (a subtraction's borrow),
    /// so it counts as more than half only when the digits above say so (never a tie).
    static func rounded(negative: Bool, _ coefficient: UInt128, _ exponent: Int, sticky: Bool,
                        fractionIsComplement: Bool = false) -> Decimal128 {
        var c = coefficient
        var e = exponent
        let drop = max(digitCount(c) - maxDigits, minExponent - e, 0)
        if drop > 0 {
            if drop >= 39 {
                c = 0
            } else {
                let divisor = powerOfTen(drop)
                let quotient = c / divisor
                let remainder = c % divisor
                let half = divisor / 2
                // With a borrowed fraction the true remainder is remainder + (1 - tiny): above
                // half when remainder >= half, never exactly half.
                let up: Bool
                if fractionIsComplement && sticky {
                    up = remainder >= half
                } else if remainder != half {
                    up = remainder > half
                } else {
                    up = sticky || quotient % 2 == 1
                }
                c = up ? quotient + 1 : quotient
            }
            e += drop
            if c > maxCoefficient {
                c /= 10
                e += 1
            }
        }
        if e > maxExponent {
            // Fold the exponent down into the coefficient's free digits (exact), or overflow.
            if c == 0 {
                e = maxExponent
            } else {
                while e > maxExponent && c * 10 <= maxCoefficient {
                    c *= 10
                    e -= 1
                }
                if e > maxExponent { return infinity(negative: negative) }
            }
        }
        return Decimal128(negative: negative, coefficient: c, exponent: e)
    }
}
