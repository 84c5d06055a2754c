import Drumlin
import Testing

/// Realm Swift's `Decimal128` surface: `Numeric` / `SignedNumeric` / `Strideable`, `init(exactly:)`,
/// `init(value:)`, `min` / `max`, `isSignaling`; arithmetic with IEEE 754 decimal semantics.
@Suite struct Decimal128Tests {
    @Test func arithmeticIsDecimalNotBinary() throws {
        let price: Decimal128 = "19.99"
        #expect((price * 3).stringValue == "59.97")
        #expect((Decimal128(value: "0.1") + 0.2) == Decimal128(value: "0.3"))
        #expect((Decimal128(1) / 3).stringValue == "0.3333333333333333333333333333333333")
        #expect((Decimal128(10) / 4).stringValue == "2.5")
        var total = Decimal128(value: 100)
        total /= 8
        total *= 2
        #expect(total.stringValue == "25.0")
        #expect((Decimal128(1) / 0).isInfinite && (Decimal128(0) / 0).isNaN)
        #expect(Decimal128.max.stringValue == "9.999999999999999999999999999999999E+6144")
        #expect(Decimal128.min == -Decimal128.max && Decimal128.min < Decimal128(0))
        #expect((Decimal128.max * 2).isInfinite)
    }

    @Test func numericInitializersAndSigns() throws {
        #expect(Decimal128(exactly: 12) == Decimal128(12))
        #expect(Decimal128(exactly: UInt64.max)?.stringValue == "18446744073709551615")
        let big = Int128("100000000000000000000000000000000001")!   // 36 digits, inexact
        #expect(Decimal128(exactly: big) == nil)
        #expect(Decimal128(value: 7 as Int32) == 7 && Decimal128(value: 1.5) == Decimal128(value: "1.5"))
        #expect(Decimal128(value: Decimal128(4)) == 4)
        var value: Decimal128 = -2.5
        #expect(value.magnitude == 2.5)
        value.negate()
        #expect(value == 2.5 && !value.isSignMinus)
        #expect(!Decimal128(value: "NaN").isSignaling && !Decimal128(value: "NaN").isSignalingNaN)
        func sum<T: SignedNumeric>(_ values: [T]) -> T { values.reduce(0, +) }
        #expect(sum([Decimal128(value: "1.25"), -0.25, 3]).stringValue == "4.00")
    }

    @Test func decimalsStride() throws {
        let steps = Array(stride(from: Decimal128(0), to: 1, by: Decimal128(value: "0.25")))
        #expect(steps.map(\.stringValue) == ["0", "0.25", "0.50", "0.75"])
        #expect(Decimal128(2).distance(to: 5) == 3 && Decimal128(2).advanced(by: -0.5) == 1.5)
    }

    @Test func computedDecimalsAreStoredAsComputed() throws {
        class Invoice: Object {
            @Persisted var amount: Decimal128
        }
        let realm = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: "decimal-\(UInt64.random(in: 0 ... .max))",
                                                                 objectTypes: [Invoice.self]))
        let invoice = Invoice()
        invoice.amount = Decimal128(value: "19.99") * 3
        try realm.write { realm.add(invoice) }
        try realm.write { invoice.amount /= 3 }
        #expect(realm.objects(Invoice.self).first?.amount.stringValue == "19.99")
        #expect(realm.objects(Invoice.self).sum(ofProperty: "amount") as Decimal128 == Decimal128(value: "19.99"))
    }
}
