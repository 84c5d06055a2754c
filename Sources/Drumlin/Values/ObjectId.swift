internal import DrumlinEngine

/// A 12-byte unique identifier (BSON ObjectId): 4 bytes of seconds since 1970, 5 random bytes per
/// process, a 3-byte counter. As Realm Swift's `ObjectId`.
public struct ObjectId: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    var raw: EObjectId

    init(raw: EObjectId) { self.raw = raw }

    /// The all-zero id (as Realm's `ObjectId()`); `generate()` makes a new unique one.
    public init() { raw = EObjectId(bytes: [UInt8](repeating: 0, count: 12))! }

    /// A new, unique id.
    public static func generate() -> ObjectId { ObjectId(raw: EObjectId()) }

    /// Parses 24 hexadecimal digits; anything else throws.
    public init(string: String) throws {
        guard let raw = EObjectId(hex: string) else {
            throw Realm.Error(.invalidArgument, "Invalid ObjectId string '\(string)': expected 24 hexadecimal digits.")
        }
        self.raw = raw
    }

    /// An id written in code: 24 hexadecimal digits (a bad literal stops the program, as in Realm).
    public init(_ string: StaticString) {
        guard let raw = EObjectId(hex: "\(string)") else { preconditionFailure("Invalid ObjectId literal '\(string)'") }
        self.raw = raw
    }

    /// An id from its parts: the timestamp's whole seconds, then the machine and process ids.
    public init(timestamp: Date, machineId: Int, processId: Int) {
        let seconds = UInt32(truncatingIfNeeded: Int64(timestamp.timeIntervalSince1970.rounded(.down)))
        var bytes: [UInt8] = []
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: seconds >> UInt32(shift))) }
        for shift in stride(from: 16, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: machineId >> shift)) }
        for shift in stride(from: 8, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: processId >> shift)) }
        bytes += [0, 0, 0]
        raw = EObjectId(bytes: bytes)!
    }

    /// The 24 lowercase hexadecimal digits.
    public var stringValue: String { raw.hex }
    public var description: String { raw.hex }
    /// The creation time stored in the id (whole seconds).
    public var timestamp: Date { Date(timeIntervalSince1970: TimeInterval(raw.timestampSeconds)) }

    public static func < (lhs: ObjectId, rhs: ObjectId) -> Bool { lhs.raw < rhs.raw }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        try self.init(string: text)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(stringValue)
    }
}
