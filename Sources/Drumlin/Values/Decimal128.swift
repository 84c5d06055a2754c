internal import DrumlinEngine

/// A 128-bit IEEE 754-2008 decimal floating point number, as Realm Swift's `Decimal128`: exact for
/// up to 34 significant digits.
public struct Decimal128: Hashable, Comparable, SignedNumeric, Strideable, Sendable, CustomStringConvertible, Codable,
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

    // Arithmetic is the engine's IEEE 754-2008 decimal128 arithmetic (DrumlinValues): exact
    // while the result fits in 34 digits, else rounded to nearest, ties to even.
    public static prefix func - (value: Decimal128) -> Decimal128 { Decimal128(raw: value.raw.negated) }
    public static func + (lhs: Decimal128, rhs: Decimal128) -> Decimal128 { Decimal128(raw: lhs.raw.adding(rhs.raw)) }
    public static func - (lhs: Decimal128, rhs: Decimal128) -> Decimal128 { Decimal128(raw: lhs.raw.subtracting(rhs.raw)) }
    public static func * (lhs: Decimal128, rhs: Decimal128) -> Decimal128 { Decimal128(raw: lhs.raw.multiplied(by: rhs.raw)) }
    public static func / (lhs: Decimal128, rhs: Decimal128) -> Decimal128 { Decimal128(raw: lhs.raw.divided(by: rhs.raw)) }
    public static func += (lhs: inout Decimal128, rhs: Decimal128) { lhs = lhs + rhs }
    public static func -= (lhs: inout Decimal128, rhs: Decimal128) { lhs = lhs - rhs }
    public static func *= (lhs: inout Decimal128, rhs: Decimal128) { lhs = lhs * rhs }
    public static func /= (lhs: inout Decimal128, rhs: Decimal128) { lhs = lhs / rhs }
    public mutating func negate() { raw = raw.negated }

    /// The absolute value (the sign bit cleared).
    public var magnitude: Decimal128 { Decimal128(raw: raw.magnitude) }
    /// A signaling NaN (IEEE 754's sNaN encoding); parsed and computed NaNs are quiet.
    public var isSignaling: Bool { raw.isSignaling }
    public var isSignalingNaN: Bool { isSignaling }

    /// The largest finite value, 9999999999999999999999999999999999E+6111.
    public static var max: Decimal128 { Decimal128(raw: EDecimal128.greatestFinite) }
    /// The most negative finite value, -9999999999999999999999999999999999E+6111.
    public static var min: Decimal128 { -max }

    /// An integer, exactly; nil when it has more than 34 digits.
    public init?<T: BinaryInteger>(exactly source: T) {
        guard let raw = EDecimal128(string: String(source)) else { return nil }
        self.raw = raw
    }

    /// A number or a decimal string: any integer or floating-point type, `Decimal128`, `String`;
    /// anything else (or a string that is not a decimal) stops the program, as in Realm Swift.
    public init(value: Any) {
        switch value {
        case let decimal as Decimal128: self = decimal
        case let string as String:
            guard let raw = EDecimal128(string: string) else { preconditionFailure("Invalid Decimal128 string '\(string)'") }
            self = Decimal128(raw: raw)
        case let double as Double: self = Decimal128(number: double)
        case let float as Float: self = Decimal128(number: Double(float))
        case let integer as any BinaryInteger:
            guard let exact = Decimal128(exactly: integer) else { preconditionFailure("\(integer) has more than 34 digits") }
            self = exact
        default: preconditionFailure("Cannot convert \(type(of: value)) '\(value)' to Decimal128")
        }
    }

    public init(from decoder: any Decoder) throws {
        try self.init(string: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(stringValue)
    }
}

extension Decimal128 {
    public typealias Magnitude = Decimal128
    public typealias Stride = Decimal128

    /// `other - self`.
    public func distance(to other: Decimal128) -> Decimal128 { other - self }
    /// `self + n`.
    public func advanced(by n: Decimal128) -> Decimal128 { self + n }
}
