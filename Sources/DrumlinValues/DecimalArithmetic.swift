/// Exact decimal128 aggregates: min and max by numeric comparison, sums by aligning exponents
/// in 128-bit integers, and the average as the exact sum divided to 34 significant digits.
/// A sum too large for exact arithmetic is IEEE 754 additions in order (DecimalArithmetic+IEEE).
package enum DecimalArithmetic {
    package static func aggregate(_ op: Aggregate, _ values: [Decimal128]) -> Value {
        let numbers = values.filter { !$0.isNaN }
        guard !numbers.isEmpty else { return op == .sum ? .decimal(Decimal128(0)) : .null }
        switch op {
        case .min: return .decimal(numbers.dropFirst().reduce(numbers[0]) { ($1.numericCompare($0) ?? 0) < 0 ? $1 : $0 })
        case .max: return .decimal(numbers.dropFirst().reduce(numbers[0]) { ($1.numericCompare($0) ?? 0) > 0 ? $1 : $0 })
        case .sum: return .decimal(sum(numbers))
        case .avg: return .decimal(divide(sum(numbers), by: numbers.count))
        }
    }

    /// (negative, coefficient, exponent) of a finite canonical decimal.
    static func parts(_ d: Decimal128) -> (Bool, UInt128, Int)? {
        guard !d.isNaN, !d.isInfinite, (d.high >> 61) & 3 != 3 else { return d.isZero ? (d.isNegative, 0, 0) : nil }
        let exponent = Int((d.high >> 49) & 0x3FFF) - 6176
        let coefficient = UInt128(d.high & 0x1_FFFF_FFFF_FFFF) << 64 | UInt128(d.low)
        return (d.isNegative, coefficient, exponent)
    }

    static func make(_ negative: Bool, _ coefficient: UInt128, _ exponent: Int) -> Decimal128? {
        Decimal128(string: (negative ? "-" : "") + String(coefficient) + "E" + String(exponent))
    }

    package static func sum(_ values: [Decimal128]) -> Decimal128 {
        if let exact = exactSum(values) { return exact }
        // Infinities, or digits beyond 34: IEEE 754 additions in order, as realm-core sums.
        return values.dropFirst().reduce(values.first ?? Decimal128(0)) { $0.adding($1) }
    }

    private static func exactSum(_ values: [Decimal128]) -> Decimal128? {
        var decomposed: [(Bool, UInt128, Int)] = []
        for value in values {
            if value.isInfinite { return nil }
            guard let p = parts(value) else { return nil }
            decomposed.append(p)
        }
        let exponent = decomposed.map(\.2).min() ?? 0
        var positive: UInt128 = 0, negative: UInt128 = 0
        for (isNegative, coefficient, e) in decomposed {
            var scaled = coefficient
            for _ in 0..<(e - exponent) {
                let (product, overflow) = scaled.multipliedReportingOverflow(by: 10)
                if overflow { return nil }
                scaled = product
            }
            if isNegative {
                let (total, overflow) = negative.addingReportingOverflow(scaled)
                if overflow { return nil }
                negative = total
            } else {
                let (total, overflow) = positive.addingReportingOverflow(scaled)
                if overflow { return nil }
                positive = total
            }
        }
        let isNegative = negative > positive
        var coefficient = isNegative ? negative - positive : positive - negative
        var e = exponent
        // Fit 34 digits: drop trailing digits only when they are zeros (else give up exactness).
        let limit = UInt128(10).power(34)
        while coefficient >= limit {
            if coefficient % 10 != 0 { return nil }
            coefficient /= 10
            e += 1
        }
        return make(isNegative, coefficient, e)
    }

    /// `value / count` to 34 significant digits, rounding half to even.
    static func divide(_ value: Decimal128, by count: Int) -> Decimal128 {
        guard count > 0, let (negative, coefficient, exponent) = parts(value) else { return value }
        if coefficient == 0 { return value }
        let divisor = UInt128(count)
        let limit = UInt128(10).power(33)
        var numerator = coefficient
        var e = exponent
        // Scale up for precision while it fits.
        while numerator / divisor < limit {
            let (product, overflow) = numerator.multipliedReportingOverflow(by: 10)
            if overflow { break }
            numerator = product
            e -= 1
        }
        var quotient = numerator / divisor
        let remainder = numerator % divisor
        if remainder * 2 > divisor || (remainder * 2 == divisor && quotient % 2 == 1) { quotient += 1 }
        while quotient % 10 == 0, e < exponent { quotient /= 10; e += 1 }
        return make(negative, quotient, e) ?? value
    }
}

extension UInt128 {
    func power(_ n: Int) -> UInt128 {
        var result: UInt128 = 1
        for _ in 0..<n { result *= self }
        return result
    }
}
