import DrumlinEngine
import Testing

/// IEEE 754-2008 decimal128 arithmetic (round to nearest, ties to even): exact results at their
/// preferred exponent, rounding to 34 digits, overflow, underflow and the special values.
@Suite struct DecimalArithmeticTests {
    func d(_ text: String) -> Decimal128 { Decimal128(string: text)! }

    /// Bit-for-bit: the same coefficient and exponent, not only the same number.
    func same(_ result: Decimal128, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result == d(expected), "\(result) is not \(expected)", sourceLocation: sourceLocation)
    }

    @Test func exactResultsKeepTheirPreferredExponent() {
        same(d("1.1").adding(d("2.2")), "3.3")
        same(d("1.10").adding(d("1")), "2.10")
        same(d("5").subtracting(d("7.25")), "-2.25")
        same(d("2.50").multiplied(by: d("4")), "10.00")
        same(d("1.5").multiplied(by: d("1.5")), "2.25")
        same(d("6").divided(by: d("2")), "3")
        same(d("1").divided(by: d("4")), "0.25")
        same(d("10").divided(by: d("4")), "2.5")
        same(d("1.00").divided(by: d("8")), "0.125")
        same(d("1E+34").subtracting(d("1")), "9999999999999999999999999999999999")
        #expect(d("1.1").adding(d("2.2")).description == "3.3")
        #expect(d("0").subtracting(d("0")).description == "0")
        #expect(d("-0").adding(d("-0")).isNegative)
        #expect(!d("3").subtracting(d("3")).isNegative)
    }

    @Test func inexactResultsRoundToNearestTiesToEven() {
        same(d("1").divided(by: d("3")), "0.3333333333333333333333333333333333")
        same(d("2").divided(by: d("3")), "0.6666666666666666666666666666666667")
        same(d("-2").divided(by: d("3")), "-0.6666666666666666666666666666666667")
        // 10^34 + 5: a tie, to the even coefficient; 10^34 + 15: a tie, up to the even one.
        same(d("1E+34").adding(d("5")), "1.000000000000000000000000000000000E+34")
        same(d("1E+34").adding(d("15")), "1.000000000000000000000000000000002E+34")
        same(d("1E+34").adding(d("16")), "1.000000000000000000000000000000002E+34")
        // (10^34 - 1)^2 = 10^68 - 2·10^34 + 1.
        let nines = d("9999999999999999999999999999999999")
        same(nines.multiplied(by: nines), "9.999999999999999999999999999999998E+67")
        // A far smaller operand only rounds: 1 - 10^-50 is 1 at 34 digits; 1 + 10^-50 too.
        same(d("1").subtracting(d("1E-50")), "1.000000000000000000000000000000000")
        same(d("1").adding(d("1E-50")), "1.000000000000000000000000000000000")
        same(d("1E+100").adding(d("1E-100")), "1.000000000000000000000000000000000E+100")
        // Its digits that reach the 34th count: 1 - 6·10^-34 at 34 digits.
        same(d("1").subtracting(d("6E-34")), "0.9999999999999999999999999999999994")
        same(d("1").subtracting(d("0.00000000000000000000000000000000005")), "1.000000000000000000000000000000000")
    }

    @Test func overflowAndUnderflow() {
        let max = Decimal128.greatestFinite
        #expect(max.description == "9.999999999999999999999999999999999E+6144")
        #expect(max.adding(max).isInfinite && !max.adding(max).isNegative)
        #expect(max.negated.multiplied(by: d("10")).isInfinite && max.negated.multiplied(by: d("10")).isNegative)
        // A product whose exponent is too large for its few digits folds into the coefficient.
        same(d("1E+6111").multiplied(by: d("1E+2")), "100E+6111")
        // Below the smallest exponent: rounded there (half of the last unit is a tie, to 0).
        same(d("1E-6176").multiplied(by: d("0.5")), "0E-6176")
        same(d("1E-6176").multiplied(by: d("0.6")), "1E-6176")
        same(d("1E-6176").divided(by: d("10")), "0E-6176")
    }

    @Test func specialValues() {
        let infinity = d("Infinity"), nan = d("NaN")
        #expect(d("1").divided(by: d("0")) == infinity)
        #expect(d("-1").divided(by: d("0")) == d("-Infinity"))
        #expect(d("0").divided(by: d("0")).isNaN)
        #expect(infinity.subtracting(infinity).isNaN)
        #expect(infinity.adding(infinity) == infinity)
        #expect(d("0").multiplied(by: infinity).isNaN)
        #expect(infinity.divided(by: infinity).isNaN)
        #expect(d("5").divided(by: infinity).isZero)
        #expect(nan.adding(d("1")).isNaN && !nan.adding(d("1")).isSignaling)
        let signaling = Decimal128(high: 0x7E00_0000_0000_0000, low: 0)
        #expect(signaling.isNaN && signaling.isSignaling && !nan.isSignaling)
        #expect(signaling.multiplied(by: d("2")).isNaN && !signaling.multiplied(by: d("2")).isSignaling)
        #expect(d("-2.5").magnitude == d("2.5") && d("2.5").negated == d("-2.5"))
    }
}
