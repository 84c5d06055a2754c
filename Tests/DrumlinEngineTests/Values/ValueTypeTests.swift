import Glibc
import Testing
@testable import DrumlinEngine
@testable import DrumlinSchema
@testable import DrumlinStorage
@testable import DrumlinValues

private func dec(_ text: String) -> Decimal128 {
    guard let value = Decimal128(string: text) else {
        Issue.record("expected \(text) to parse")
        return Decimal128(high: 0x7C00_0000_0000_0000, low: 0)
    }
    return value
}

// MARK: - Decimal128

@Suite struct Decimal128Tests {
    @Test("canonical strings print back unchanged", arguments: [
        "1.10", "0", "-0", "0.00", "-0.0", "1E+3", "1.23E-7", "0.001", "0.000001", "1E-7",
        "NaN", "Infinity", "-Infinity", "1234567890123456789012345678901234",
        "0.1234567890123456789012345678901234", "-1.00E-8", "1.050E+4", "0E+6000", "0E-611",
        "9.999999999999999999999999999999999E+6144", "9.999999999999999999999999999999999E-6143",
        "1E-6176", "-1E-6176", "5192296858534827628530496329220095", "12.70", "123.456",
    ])
    func roundTrip(_ text: String) {
        #expect(dec(text).description == text)
    }

    @Test("trailing zeros are kept as coefficient and exponent")
    func trailingZerosKept() {
        let value = dec("1.10")
        #expect(value.parts.coefficient == 110)
        #expect(value.parts.exponent == -2)
        #expect(value != dec("1.1"))
    }

    @Test("non-canonical spellings parse to the canonical string", arguments: [
        ("1E3", "1E+3"), ("1e+3", "1E+3"), ("-100E-10", "-1.00E-8"), ("+1", "1"), ("017.", "17"),
        (".5", "0.5"), ("+0.003", "0.003"), ("4E+9", "4E+9"), ("0.73e-7", "7.3E-8"),
        ("12345689012345789012345E+12", "1.2345689012345789012345E+34"), ("00012.30", "12.30"),
        ("nan", "NaN"), ("nAn", "NaN"), ("-NaN", "NaN"), ("+NaN", "NaN"), ("inf", "Infinity"),
        ("+infinity", "Infinity"), ("-inF", "-Infinity"), ("-infiniTY", "-Infinity"),
        ("1E+00000000000000000000000003", "1E+3"),
    ])
    func nonCanonicalSpellings(_ input: String, _ expected: String) {
        #expect(dec(input).description == expected)
    }

    @Test("known BID bit patterns", arguments: [
        ("1", UInt64(0x3040_0000_0000_0000), UInt64(1)),
        ("-1", 0xB040_0000_0000_0000, 1),
        ("0", 0x3040_0000_0000_0000, 0),
        ("-0", 0xB040_0000_0000_0000, 0),
        ("1E+3", 0x3046_0000_0000_0000, 1),
        ("0.1", 0x303E_0000_0000_0000, 1),
        ("-1.00E-8", 0xB02C_0000_0000_0000, 0x64),
        ("1234567890123456789012345678901234", 0x3040_3CDE_6FFF_9732, 0xDE82_5CD0_7E96_AFF2),
        ("9.999999999999999999999999999999999E+6144", 0x5FFF_ED09_BEAD_87C0, 0x378D_8E63_FFFF_FFFF),
        ("1E-6176", 0, 1),
        ("NaN", 0x7C00_0000_0000_0000, 0),
        ("-NaN", 0xFC00_0000_0000_0000, 0),
        ("Infinity", 0x7800_0000_0000_0000, 0),
        ("-Infinity", 0xF800_0000_0000_0000, 0),
    ])
    func bitPatterns(_ text: String, _ high: UInt64, _ low: UInt64) {
        #expect(dec(text) == Decimal128(high: high, low: low))
    }

    @Test("exponent out of range is clamped when exact and rejected otherwise")
    func clamping() {
        #expect(dec("1E6112") == Decimal128(high: 0x5FFE_0000_0000_0000, low: 10))
        #expect(dec("1E6112").description == "1.0E+6112")
        #expect(dec("1E+6144").description == "1.000000000000000000000000000000000E+6144")
        #expect(Decimal128(string: "1E+6145") == nil)
        #expect(Decimal128(string: "1E-6177") == nil)
        #expect(Decimal128(string: "1.5E-6176") == nil)
        #expect(dec("10E-6177").description == "1E-6176")
        #expect(dec("0E-6177").description == "0E-6176")
        #expect(dec("0E+6112").description == "0E+6111")
        #expect(dec("-0E-99999999999999999999999").description == "-0E-6176")
        #expect(dec("0E+99999999999999999999999").description == "0E+6111")
        #expect(Decimal128(string: "1E+99999999999999999999999") == nil)
    }

    @Test("more than 34 significant digits only parse when the extra digits are zeros")
    func precisionLimit() {
        #expect(Decimal128(string: "12345678901234567890123456789012345") == nil)
        #expect(Decimal128(string: "1.000000000000000000000000000000000001") == nil)
        #expect(dec("12345678901234567890123456789012340").description
            == "1.234567890123456789012345678901234E+34")
        #expect(dec("1000000000000000000000000000000000000").description
            == "1.000000000000000000000000000000000E+36")
        #expect(dec("0.00000000000000000000000000000000000000000001").description == "1E-44")
        let longFraction = "." + String(repeating: "0", count: 998) + "1"
        #expect(dec(longFraction).description == "1E-999")
    }

    @Test("malformed strings are rejected", arguments: [
        "", " ", " 1", "1 ", "1.2.3", "e5", "E02", "+", "-", ".", "+.", "-.", "1e", "1e+", "1E+-2",
        "..1", "1..", "abc", "NaN1", "Infinit", "infinityy", "0x10", "1_000", "1,5", "--1", "+-1",
        "1e5.0", "Inf1", "-", "\u{2212}1", "\u{0661}", "1\0",
    ])
    func malformed(_ text: String) {
        #expect(Decimal128(string: text) == nil)
    }

    @Test("non-canonical encodings decode as NaN or zero")
    func nonCanonicalDecoding() {
        #expect(Decimal128(high: 0x7E00_0000_0000_0000, low: 0).description == "NaN")
        #expect(Decimal128(high: 0xFE00_0000_0000_0000, low: 0).description == "NaN")
        #expect(Decimal128(high: 0x7E00_0000_0000_0000, low: 0x12).isNaN)
        #expect(Decimal128(high: 0x6C10_0000_0000_0000, low: 0).description == "0")
        #expect(Decimal128(high: 0xEC10_0000_00EF_BEAD, low: 0xDE10_3254_7698_BADC).description == "-0")
        let elevenForm = Decimal128(high: 0x6C11_FFFF_FFFF_FFFF, low: .max)
        #expect(elevenForm.description == "0E+3")
        #expect(elevenForm.isZero)
        // Coefficient above 10^34 - 1 in the normal form is also zero.
        let tooBig = Decimal128(high: 0x3041_FFFF_FFFF_FFFF, low: .max)
        #expect(tooBig.description == "0")
    }

    @Test("classification properties")
    func classification() {
        #expect(dec("NaN").isNaN && !dec("NaN").isInfinite)
        #expect(dec("-Infinity").isInfinite && dec("-Infinity").isNegative)
        #expect(dec("-0").isZero && dec("-0").isNegative)
        #expect(dec("0.000").isZero)
        #expect(!dec("1E-6176").isZero)
        #expect(!dec("Infinity").isZero && !dec("NaN").isZero)
    }

    @Test("Int64 conversion is exact")
    func fromInt64() {
        #expect(Decimal128(Int64(0)).description == "0")
        #expect(Decimal128(Int64(-42)) == dec("-42"))
        #expect(Decimal128(Int64.max).description == "9223372036854775807")
        #expect(Decimal128(Int64.min).description == "-9223372036854775808")
    }

    @Test("Double conversion uses the shortest round-trip string")
    func fromDouble() {
        #expect(Decimal128(exactly: 0.1)?.description == "0.1")
        #expect(Decimal128(exactly: 1.0)?.description == "1.0")
        #expect(Decimal128(exactly: -2.5)?.description == "-2.5")
        #expect(Decimal128(exactly: 1e300)?.description == "1E+300")
        #expect(Decimal128(exactly: 1e-5)?.description == "0.00001")
        #expect(Decimal128(exactly: -0.0)?.description == "-0.0")
        #expect(Decimal128(exactly: .leastNonzeroMagnitude)?.description == "5E-324")
        #expect(Decimal128(exactly: .nan) == nil)
        #expect(Decimal128(exactly: .infinity) == nil)
        #expect(Decimal128(exactly: -.infinity) == nil)
    }

    @Test("doubleValue rounds to the nearest double")
    func toDouble() {
        #expect(dec("1.10").doubleValue == 1.1)
        #expect(dec("-2.5E-3").doubleValue == -0.0025)
        #expect(dec("1E+6144").doubleValue == .infinity)
        #expect(dec("-1E+6144").doubleValue == -.infinity)
        #expect(dec("1E-6176").doubleValue == 0)
        #expect(dec("-Infinity").doubleValue == -.infinity)
        #expect(dec("NaN").doubleValue.isNaN)
        let negativeZero = dec("-0").doubleValue
        #expect(negativeZero == 0 && negativeZero.sign == .minus)
        #expect(dec("9007199254740993").doubleValue == 9007199254740992)
    }

    @Test("numericCompare ignores scale and the sign of zero")
    func compareDecimals() {
        #expect(dec("1.0").numericCompare(dec("1.00")) == 0)
        #expect(dec("1.0") != dec("1.00"))
        #expect(dec("-0").numericCompare(dec("0E+10")) == 0)
        #expect(dec("1E+3").numericCompare(dec("999.9")) == 1)
        #expect(dec("999.9").numericCompare(dec("1E+3")) == -1)
        #expect(dec("-1E+3").numericCompare(dec("-999.9")) == -1)
        #expect(dec("0.001").numericCompare(dec("1E-3")) == 0)
        #expect(dec("1234567890123456789012345678901234").numericCompare(dec("1.234567890123456789012345678901235E+33")) == -1)
        #expect(dec("-1").numericCompare(dec("0")) == -1)
        #expect(dec("Infinity").numericCompare(dec("9.999999999999999999999999999999999E+6144")) == 1)
        #expect(dec("-Infinity").numericCompare(dec("-1E+6144")) == -1)
        #expect(dec("-Infinity").numericCompare(dec("-Infinity")) == 0)
        #expect(dec("NaN").numericCompare(dec("1")) == nil)
        #expect(dec("1").numericCompare(dec("NaN")) == nil)
        #expect(Decimal128(high: 0x6C10_0000_0000_0000, low: 0).numericCompare(dec("0")) == 0)
    }

    @Test("numericCompare with Int64 is exact at the extremes")
    func compareInt64() {
        #expect(dec("9223372036854775807").numericCompare(Int64.max) == 0)
        #expect(dec("9223372036854775806.5").numericCompare(Int64.max) == -1)
        #expect(dec("9223372036854775807.0000001").numericCompare(Int64.max) == 1)
        #expect(dec("-9223372036854775808").numericCompare(Int64.min) == 0)
        #expect(dec("-9223372036854775808.5").numericCompare(Int64.min) == -1)
        #expect(dec("1.00").numericCompare(Int64(1)) == 0)
        #expect(dec("-0").numericCompare(Int64(0)) == 0)
        #expect(dec("Infinity").numericCompare(Int64.max) == 1)
        #expect(dec("NaN").numericCompare(Int64(0)) == nil)
    }

    @Test("numericCompare with Double uses the double's exact binary value")
    func compareDouble() {
        #expect(dec("0.5").numericCompare(0.5) == 0)
        #expect(dec("0.50").numericCompare(0.5) == 0)
        // 0.1 as a double is 0.1000000000000000055511151231257827021...
        #expect(dec("0.1").numericCompare(0.1) == -1)
        #expect(dec("0.1000000000000000055511151231257827").numericCompare(0.1) == -1)
        #expect(dec("0.1000000000000000055511151231257828").numericCompare(0.1) == 1)
        #expect(dec("9223372036854775807").numericCompare(9223372036854775808.0) == -1)
        #expect(dec("9223372036854775808").numericCompare(9223372036854775808.0) == 0)
        #expect(dec("1E+300").numericCompare(1e300) == -1)  // 1e300 as a double is 1.00000000000000005250...E+300
        #expect(dec("1.797693134862315708145274237317044E+308").numericCompare(.greatestFiniteMagnitude) == 1)
        #expect(dec("1.797693134862315708145274237317043E+308").numericCompare(.greatestFiniteMagnitude) == -1)
        // 2^-1074 = 4.9406564584124654417656879286822137236...E-324
        #expect(dec("4.940656458412465441765687928682213E-324").numericCompare(Double.leastNonzeroMagnitude) == -1)
        #expect(dec("4.940656458412465441765687928682214E-324").numericCompare(Double.leastNonzeroMagnitude) == 1)
        #expect(dec("1E-6176").numericCompare(Double.leastNonzeroMagnitude) == -1)
        #expect(dec("1E+6144").numericCompare(.greatestFiniteMagnitude) == 1)
        #expect(dec("-1E+6144").numericCompare(-.greatestFiniteMagnitude) == -1)
        #expect(dec("-0").numericCompare(0.0) == 0)
        #expect(dec("0").numericCompare(-0.0) == 0)
        #expect(dec("0").numericCompare(Double.leastNonzeroMagnitude) == -1)
        #expect(dec("-1").numericCompare(-2.0) == 1)
        #expect(dec("1E+6144").numericCompare(.infinity) == -1)
        #expect(dec("Infinity").numericCompare(.infinity) == 0)
        #expect(dec("-Infinity").numericCompare(-.greatestFiniteMagnitude) == -1)
        #expect(dec("1").numericCompare(.nan) == nil)
        #expect(dec("NaN").numericCompare(1.0) == nil)
        #expect(dec("1024").numericCompare(1024.0) == 0)
        #expect(dec("1023.999999999999999999999999999999").numericCompare(1024.0) == -1)
    }
}

// MARK: - ObjectId

@Suite struct ObjectIdTests {
    @Test("hex round trip is lowercase and preserves the bytes")
    func hexRoundTrip() throws {
        let id = try #require(ObjectId(hex: "507F1F77BCF86CD799439011"))
        #expect(id.hex == "507f1f77bcf86cd799439011")
        #expect(id.description == "507f1f77bcf86cd799439011")
        #expect(id.bytes == [0x50, 0x7F, 0x1F, 0x77, 0xBC, 0xF8, 0x6C, 0xD7, 0x99, 0x43, 0x90, 0x11])
        #expect(id.timestampSeconds == 0x507F_1F77)
        #expect(ObjectId(bytes: id.bytes) == id)
        #expect(ObjectId(hex: "507f1f77bcf86cd799439011") == id)
    }

    @Test("invalid hex is rejected", arguments: [
        "", "507f1f77bcf86cd79943901", "507f1f77bcf86cd7994390111", "507f1f77bcf86cd79943901g",
        " 507f1f77bcf86cd79943901", "507f1f77-bcf86cd799439011", "0x507f1f77bcf86cd7994390",
    ])
    func invalidHex(_ text: String) {
        #expect(ObjectId(hex: text) == nil)
    }

    @Test("byte input must be exactly 12 bytes")
    func byteLength() {
        #expect(ObjectId(bytes: [UInt8](repeating: 1, count: 11)) == nil)
        #expect(ObjectId(bytes: [UInt8](repeating: 1, count: 13)) == nil)
        #expect(ObjectId(bytes: [UInt8](repeating: 0xAB, count: 12))?.hex == String(repeating: "ab", count: 12))
    }

    @Test("generated ids are unique, share process bytes and count upwards")
    func generation() {
        let before = wallClockSeconds()
        let ids = (0..<1000).map { _ in ObjectId() }
        let after = wallClockSeconds()
        #expect(Set(ids).count == 1000)
        let first = ids[0].bytes
        for (previous, next) in zip(ids, ids.dropFirst()) {
            let a = previous.bytes, b = next.bytes
            #expect(a[4..<9] == first[4..<9])
            let counterA = UInt32(a[9]) << 16 | UInt32(a[10]) << 8 | UInt32(a[11])
            let counterB = UInt32(b[9]) << 16 | UInt32(b[10]) << 8 | UInt32(b[11])
            // Modulo 2^24 because the counter starts at a random value and may wrap;
            // other tests running in parallel may also take counter values in between.
            let step = (counterB &- counterA) & 0xFF_FFFF
            #expect(step >= 1 && step < 1 << 20)
        }
        #expect(Int64(ids[0].timestampSeconds) >= before)
        #expect(Int64(ids[999].timestampSeconds) <= after)
    }

    private func wallClockSeconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec)
    }

    @Test("ordering is bytewise")
    func ordering() throws {
        let a = try #require(ObjectId(hex: "000000000000000000000001"))
        let b = try #require(ObjectId(hex: "000000000000000000000002"))
        let c = try #require(ObjectId(hex: "0000000000000000ff000000"))
        let d = try #require(ObjectId(hex: "00000001ffffffffffffffff"))
        let e = try #require(ObjectId(hex: "ff0000000000000000000000"))
        #expect([e, c, a, d, b].sorted() == [a, b, c, d, e])
        #expect(!(a < a))
    }
}

// MARK: - UUIDValue

@Suite struct UUIDValueTests {
    @Test("string round trip is lowercase")
    func roundTrip() throws {
        let id = try #require(UUIDValue(string: "123E4567-E89B-12D3-A456-426614174000"))
        #expect(id.string == "123e4567-e89b-12d3-a456-426614174000")
        #expect(id.description == id.string)
        #expect(id.bytes == [0x12, 0x3E, 0x45, 0x67, 0xE8, 0x9B, 0x12, 0xD3,
                             0xA4, 0x56, 0x42, 0x66, 0x14, 0x17, 0x40, 0x00])
        #expect(UUIDValue(bytes: id.bytes) == id)
        #expect(UUIDValue(bytes: [UInt8](repeating: 0, count: 15)) == nil)
        #expect(UUIDValue(bytes: [UInt8](repeating: 0, count: 17)) == nil)
    }

    @Test("malformed strings are rejected", arguments: [
        "", "123e4567e89b12d3a456426614174000", "{123e4567-e89b-12d3-a456-426614174000}",
        "urn:uuid:123e4567-e89b-12d3-a456-426614174000", "123e4567-e89b-12d3-a456-42661417400",
        "123e4567-e89b-12d3-a456-4266141740000", "123e4567e-89b-12d3-a456-426614174000",
        "123e4567-e89b-12d3-a456-42661417400g", "123e4567-e89b-12d3-a456_426614174000",
        " 123e4567-e89b-12d3-a456-42661417400",
    ])
    func malformed(_ text: String) {
        #expect(UUIDValue(string: text) == nil)
    }

    @Test("random UUIDs carry version 4 and variant 10 and are unique")
    func randomBits() {
        let ids = (0..<200).map { _ in UUIDValue.random() }
        #expect(Set(ids).count == 200)
        for id in ids {
            let bytes = id.bytes
            #expect(bytes[6] >> 4 == 4)
            #expect(bytes[8] >> 6 == 0b10)
            #expect(UUIDValue(string: id.string) == id)
            #expect(id.string.utf8.count == 36)
        }
    }

    @Test("ordering is bytewise")
    func ordering() throws {
        let a = try #require(UUIDValue(string: "00000000-0000-0000-0000-000000000001"))
        let b = try #require(UUIDValue(string: "00000000-0000-0000-ff00-000000000000"))
        let c = try #require(UUIDValue(string: "00000000-0000-0001-0000-000000000000"))
        let d = try #require(UUIDValue(string: "80000000-0000-0000-0000-000000000000"))
        #expect([d, c, b, a].sorted() == [a, b, c, d])
    }
}

// MARK: - Timestamp

@Suite struct TimestampTests {
    private func parse(_ text: String) -> Timestamp? { Timestamp(iso8601: text) }

    @Test("the epoch is zero")
    func epoch() {
        #expect(parse("1970-01-01T00:00:00Z") == Timestamp(seconds: 0, nanoseconds: 0))
        #expect(Timestamp(seconds: 0).iso8601 == "1970-01-01T00:00:00Z")
        #expect(parse("2001-09-09T01:46:40Z")?.seconds == 1_000_000_000)
    }

    @Test("instants before 1970 use floor semantics")
    func beforeEpoch() throws {
        let t = try #require(parse("1969-12-31T23:59:59.999999999Z"))
        #expect(t.seconds == -1)
        #expect(t.nanoseconds == 999_999_999)
        #expect(t.iso8601 == "1969-12-31T23:59:59.999999999Z")
        let half = Timestamp(seconds: 0, nanoseconds: -500_000_000)
        #expect(half.seconds == -1 && half.nanoseconds == 500_000_000)
        #expect(half.iso8601 == "1969-12-31T23:59:59.500Z")
        #expect(parse("1900-01-01T00:00:00Z")?.seconds == -2_208_988_800)
    }

    @Test("the microsecond text of whole rows: what Python's fromisoformat reads, within years 1-9999")
    func microsecondText() throws {
        func text(_ t: Timestamp?) -> String? {
            var text: String?
            guard let t, t.withMicrosecondISO8601({ text = String(decoding: $0, as: UTF8.self) }) else { return nil }
            return text
        }
        #expect(text(Timestamp(seconds: 0)) == "1970-01-01T00:00:00.000000+00:00")
        #expect(text(parse("1969-12-31T23:59:59.999999999Z")) == "1969-12-31T23:59:59.999999+00:00")
        #expect(text(parse("2024-02-29T12:34:56.000007Z")) == "2024-02-29T12:34:56.000007+00:00")
        #expect(text(parse("0001-01-01T00:00:00Z")) == "0001-01-01T00:00:00.000000+00:00")
        #expect(text(parse("9999-12-31T23:59:59.999999Z")) == "9999-12-31T23:59:59.999999+00:00")
        #expect(text(Timestamp(nanosecondsSinceEpoch: .min)) == "1677-09-21T00:12:43.145224+00:00")
        // Outside Python's datetime: no text, and the body is not called.
        #expect(text(parse("0000-12-31T23:59:59Z")) == nil)
        #expect(text(parse("+010000-01-01T00:00:00Z")) == nil)
    }

    @Test("nanoseconds are normalised for any Int32")
    func normalisation() {
        let big = Timestamp(seconds: 0, nanoseconds: .max)
        #expect(big.seconds == 2 && big.nanoseconds == 147_483_647)
        let small = Timestamp(seconds: 0, nanoseconds: .min)
        #expect(small.seconds == -3 && small.nanoseconds == 852_516_352)
        #expect(Timestamp(seconds: 5, nanoseconds: 1_000_000_000) == Timestamp(seconds: 6))
    }

    @Test("leap days exist only in leap years")
    func leapYears() {
        #expect(parse("2024-02-29T12:00:00Z")?.iso8601 == "2024-02-29T12:00:00Z")
        #expect(parse("2000-02-29T00:00:00Z") != nil)
        #expect(parse("2023-02-29T00:00:00Z") == nil)
        #expect(parse("1900-02-29T00:00:00Z") == nil)
        #expect(parse("2024-03-01T00:00:00Z")!.seconds - parse("2024-02-28T00:00:00Z")!.seconds == 2 * 86_400)
    }

    @Test("invalid dates and times are rejected", arguments: [
        "2024-13-01T00:00:00Z", "2024-00-10T00:00:00Z", "2024-04-31T00:00:00Z", "2024-01-00T00:00:00Z",
        "2024-01-01T24:00:00Z", "2024-01-01T00:60:00Z", "2024-01-01T00:00:60Z", "2024-01-01T00:00:00",
        "2024-01-01T00:00:00.Z", "2024-01-01T00:00:00.1234567890Z", "2024-01-01  00:00:00Z",
        "2024-01-01x00:00:00Z", "2024-1-01T00:00:00Z", "24-01-01T00:00:00Z", "2024-01-01T00:00:00+01:0",
        "2024-01-01T00:00:00+1:00", "2024-01-01T00:00:00+24:00", "2024-01-01T00:00:00+01:60",
        "2024-01-01T00:00:00Z ", " 2024-01-01T00:00:00Z", "2024-01-01T00:00Z", "-000000-01-01T00:00:00Z",
        "+2024-01-01T00:00:00Z", "", "2024-01-01T00:00:00ZZ", "2024-01-01T00:00:00.12a3Z",
    ])
    func invalid(_ text: String) {
        #expect(parse(text) == nil)
    }

    @Test("separators and zone designators in either case", arguments: [
        "2024-05-06T07:08:09Z", "2024-05-06t07:08:09z", "2024-05-06 07:08:09Z",
        "2024-05-06T09:08:09+02:00", "2024-05-06T09:08:09+0200", "2024-05-06T04:38:09-0230",
        "2024-05-06T04:38:09-02:30", "+002024-05-06T07:08:09Z",
    ])
    func separatorsAndZones(_ text: String) {
        #expect(parse(text)?.iso8601 == "2024-05-06T07:08:09Z")
    }

    @Test("offsets convert to UTC across day boundaries")
    func offsets() {
        #expect(parse("2024-01-01T01:00:00+01:00")?.iso8601 == "2024-01-01T00:00:00Z")
        #expect(parse("2024-01-01T00:30:00+01:00")?.iso8601 == "2023-12-31T23:30:00Z")
        #expect(parse("2023-12-31T23:00:00-01:30")?.iso8601 == "2024-01-01T00:30:00Z")
    }

    @Test("fractions print with the fewest exact digits out of 0, 3, 6, 9", arguments: [
        ("2024-01-01T00:00:00.0Z", "2024-01-01T00:00:00Z"),
        ("2024-01-01T00:00:00.5Z", "2024-01-01T00:00:00.500Z"),
        ("2024-01-01T00:00:00.123Z", "2024-01-01T00:00:00.123Z"),
        ("2024-01-01T00:00:00.1234Z", "2024-01-01T00:00:00.123400Z"),
        ("2024-01-01T00:00:00.000001Z", "2024-01-01T00:00:00.000001Z"),
        ("2024-01-01T00:00:00.402979123Z", "2024-01-01T00:00:00.402979123Z"),
        ("2024-01-01T00:00:00.000000001Z", "2024-01-01T00:00:00.000000001Z"),
        ("2024-01-01T00:00:00.10000000Z", "2024-01-01T00:00:00.100Z"),
    ])
    func fractionDigits(_ input: String, _ expected: String) {
        #expect(parse(input)?.iso8601 == expected)
    }

    @Test("years outside 0000-9999 use the extended six-digit form")
    func extendedYears() {
        let yearZero = Timestamp(seconds: -62_167_219_200)
        #expect(yearZero.iso8601 == "0000-01-01T00:00:00Z")
        #expect(Timestamp(seconds: -62_167_219_201).iso8601 == "-000001-12-31T23:59:59Z")
        #expect(parse("-000001-12-31T23:59:59Z")?.seconds == -62_167_219_201)
        #expect(parse("0000-01-01T00:00:00Z") == yearZero)
        #expect(Timestamp(seconds: 253_402_300_800).iso8601 == "+010000-01-01T00:00:00Z")
        #expect(parse("+010000-01-01T00:00:00Z")?.seconds == 253_402_300_800)
        #expect(parse("9999-12-31T23:59:59.999999999Z")?.iso8601 == "9999-12-31T23:59:59.999999999Z")
        #expect(parse("-000004-02-29T00:00:00Z") != nil)   // year -4 is a leap year
        #expect(parse("+999999-12-31T23:59:59Z")?.iso8601 == "+999999-12-31T23:59:59Z")
        #expect(parse("-999999-01-01T00:00:00Z")?.iso8601 == "-999999-01-01T00:00:00Z")
    }

    @Test("calendar conversion round-trips day by day")
    func calendarRoundTrip() {
        for days in stride(from: Int64(-800_000), through: 800_000, by: 997) {
            let (y, m, d) = Timestamp.civilFromDays(days)
            #expect(Timestamp.daysFromCivil(year: y, month: m, day: d) == days)
        }
        #expect(Timestamp(seconds: .min).iso8601.hasPrefix("-"))
        #expect(Timestamp(seconds: .max).iso8601.hasPrefix("+"))
    }

    @Test("millisecond conversions floor towards the past")
    func milliseconds() {
        let t = Timestamp(millisecondsSinceEpoch: -1)
        #expect(t.seconds == -1 && t.nanoseconds == 999_000_000)
        #expect(t.millisecondsSinceEpoch == -1)
        #expect(Timestamp(seconds: -1, nanoseconds: 999_999_999).millisecondsSinceEpoch == -1)
        #expect(Timestamp(seconds: 1, nanoseconds: 999_999).millisecondsSinceEpoch == 1000)
        #expect(Timestamp(millisecondsSinceEpoch: 1_700_000_000_123).iso8601 == "2023-11-14T22:13:20.123Z")
        #expect(Timestamp(millisecondsSinceEpoch: .min).millisecondsSinceEpoch == .min)
        #expect(Timestamp(millisecondsSinceEpoch: .max).millisecondsSinceEpoch == .max)
        #expect(Timestamp(seconds: .max).millisecondsSinceEpoch == .max)
        #expect(Timestamp(seconds: .min).millisecondsSinceEpoch == .min)
    }

    @Test("nanosecond conversions round-trip and report overflow")
    func nanoseconds() {
        let t = Timestamp(nanosecondsSinceEpoch: -1)
        #expect(t.seconds == -1 && t.nanoseconds == 999_999_999)
        #expect(t.nanosecondsSinceEpoch == -1)
        #expect(Timestamp(nanosecondsSinceEpoch: .min).nanosecondsSinceEpoch == .min)
        #expect(Timestamp(nanosecondsSinceEpoch: .max).nanosecondsSinceEpoch == .max)
        #expect(Timestamp(nanosecondsSinceEpoch: .max).iso8601 == "2262-04-11T23:47:16.854775807Z")
        #expect(Timestamp(seconds: Int64.max / 1_000_000_000 + 1).nanosecondsSinceEpoch == nil)
        #expect(Timestamp(seconds: Int64.min / 1_000_000_000 - 1).nanosecondsSinceEpoch == nil)
        #expect(Timestamp(seconds: 9_223_372_036, nanoseconds: 854_775_808).nanosecondsSinceEpoch == nil)
    }

    @Test("ordering follows time")
    func ordering() {
        let times = [Timestamp(seconds: 1), Timestamp(seconds: -1, nanoseconds: 999_999_999),
                     Timestamp(seconds: 0, nanoseconds: 1), Timestamp(seconds: -2)]
        #expect(times.sorted().map(\.nanosecondsSinceEpoch) ==
                [-2_000_000_000, -1, 1, 1_000_000_000])
    }
}

// MARK: - Base64

@Suite struct Base64Tests {
    @Test("RFC 4648 test vectors", arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
    ])
    func vectors(_ plain: String, _ encoded: String) {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(plain.utf8))
    }

    @Test("unpadded input decodes")
    func unpadded() {
        #expect(Base64.decode("Zg") == Array("f".utf8))
        #expect(Base64.decode("Zm8") == Array("fo".utf8))
        #expect(Base64.decode("Zm9vYmE") == Array("fooba".utf8))
    }

    @Test("every byte value round-trips, including + and /")
    func allBytes() {
        let bytes = (0...255).map { UInt8($0) }
        for length in [0, 1, 2, 3, 254, 255, 256] {
            let slice = bytes.prefix(length)
            #expect(Base64.decode(Base64.encode(slice)) == Array(slice))
        }
        #expect(Base64.encode([0xFB, 0xFF]) == "+/8=")
    }

    @Test("invalid input is rejected", arguments: [
        "Z", "Zg=", "Zg===", "====", "=", "=Zg=", "Zm=v", "Zm9v YmFy", "Zm9v\n", " Zm9v",
        "Zm9v-_", "Zm9vYg==Zg==", "Zm9v=", "Zh==", "Zm9=Zm9v", "Zm9vY", "Zm9\u{00E9}",
    ])
    func invalid(_ text: String) {
        #expect(Base64.decode(text) == nil)
    }
}
