internal import DrumlinEngine

/// A 128-bit IEEE 754-2008 decimal floating point number, as Realm Swift's `Decimal128`: exact for
/// up to 34 significant digits.
public struct Decimal128: Hashable, Comparable, Sendable, CustomStringConvertible, Codable,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral {
    var raw: EDecimal128

    init(raw: EDecimal128) { self.raw = raw }

    /// Zero.
    public init() { raw = EDecimal128(0) }
    public init(integerLiteral value: Int64) { raw = EDecimal128(value) }
    public init(_ value: Int) { raw = EDecimal128(Int64(value)) }
    /// The shortest decimal that reads back as `value` (NaN and infinities stay NaN and infinities).
    public init(floatLiteral value: Double) { self.init(number: value) }
    public init(number value: Double) {
        if let exact = EDecimal128(exactly: value) {
            raw = exact
        } else {
            raw = EDecimal128(string: value.isNaN ? "NaN" : (value < 0 ? "-Infinity" : "Infinity"))!
        }
    }
    /// A decimal written in code; a bad literal stops the program, as in Realm.
    public init(stringLiteral value: String) {
        guard let raw = EDecimal128(string: value) else { preconditionFailure("Invalid Decimal128 literal '\(value)'") }
        self.raw = raw
    }
    /// Parses a decimal string (`"1.5"`, `"-2E+3"`, `"NaN"`, `"Infinity"`); anything else throws.
    public init(string: String) throws {
        guard let raw = EDecimal128(string: string) else {
            throw Realm.Error(.invalidArgument, "Invalid Decimal128 string '\(string)'.")
        }
        self.raw = raw
    }

    public var stringValue: String { raw.description }
    public var description: String { raw.description }
    public var doubleValue: Double { raw.doubleValue }
    public var isNaN: Bool { raw.isNaN }
    public var isInfinite: Bool { raw.isInfinite }
    public var isSignMinus: Bool { raw.isNegative }
    public var isZero: Bool { raw.isZero }

    /// Numeric order; NaN sorts before every number (as Realm sorts it).
    public static func < (lhs: Decimal128, rhs: Decimal128) -> Bool {
        if lhs.isNaN || rhs.isNaN { return lhs.isNaN && !rhs.isNaN }
        return (lhs.raw.numericCompare(rhs.raw) ?? 0) < 0
    }

    public static func == (lhs: Decimal128, rhs: Decimal128) -> Bool {
        if lhs.isNaN || rhs.isNaN { return lhs.isNaN && rhs.isNaN }
        return lhs.raw.numericCompare(rhs.raw) == 0
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(doubleValue) }

    public static prefix func - (value: Decimal128) -> Decimal128 {
        Decimal128(raw: EDecimal128(high: value.raw.high ^ (1 << 63), low: value.raw.low))
    }
    /// Exact sums while the result fits in 34 digits.
    public static func + (lhs: Decimal128, rhs: Decimal128) -> Decimal128 {
        Decimal128(raw: DecimalArithmetic.sum([lhs.raw, rhs.raw]))
    }
    public static func - (lhs: Decimal128, rhs: Decimal128) -> Decimal128 { lhs + -rhs }
    public static func += (lhs: inout Decimal128, rhs: Decimal128) { lhs = lhs + rhs }
    public static func -= (lhs: inout Decimal128, rhs: Decimal128) { lhs = lhs - rhs }

    public init(from decoder: any Decoder) throws {
        try self.init(string: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(stringValue)
    }
}
