import Glibc

/// Reading and writing values as MongoDB Extended JSON v2 (relaxed): plain JSON for bool, int,
/// finite doubles, strings and null; one-key `$` wrappers for the rest.
package enum ExtendedJSON {
    /// The wrapper keys Drumlin understands. An object with exactly one of these keys is a value,
    /// never a nested dictionary.
    static let wrapperKeys: Set<String> = [
        "$numberDouble", "$numberDecimal", "$numberLong", "$numberInt", "$binary", "$date", "$oid", "$uuid",
    ]

    /// Nested mixed collections deeper than this are `DRUMLIN_ERR_LIMIT` (a mixed property holding a
    /// list is level 1).
    package static let maximumMixedDepth = 100

    /// Decodes an Extended JSON wrapper object, or returns nil when `json` is not one.
    package static func wrapped(_ json: JSON) throws(DrumlinError) -> Value? {
        guard case .object(let members) = json, members.count == 1, wrapperKeys.contains(members[0].key) else {
            return nil
        }
        let (key, body) = members[0]
        func bad(_ detail: String) -> DrumlinError {
            DrumlinError(.invalidArgument, "Invalid Extended JSON \(key) value: \(detail).")
        }
        switch key {
        case "$numberDouble":
            guard let text = body.stringValue else { throw bad("expected a string") }
            switch text {
            case "NaN": return .double(.nan)
            case "Infinity": return .double(.infinity)
            case "-Infinity": return .double(-.infinity)
            default:
                guard case .some(let parsed) = try? JSON.parse(text) else { throw bad("'\(text)' is not a number") }
                switch parsed {
                case .double(let d): return .double(d)
                case .int(let i): return .double(Double(i))
                default: throw bad("'\(text)' is not a number")
                }
            }
        case "$numberDecimal":
            guard let text = body.stringValue, let d = Decimal128(string: text) else {
                throw bad("expected a decimal string such as \"1.10\"")
            }
            return .decimal(d)
        case "$numberLong", "$numberInt":
            guard let text = body.stringValue, let i = Int64(text) else { throw bad("expected an integer string") }
            if key == "$numberInt", i < Int64(Int32.min) || i > Int64(Int32.max) { throw bad("out of 32-bit range") }
            return .int(i)
        case "$binary":
            guard let base64 = body["base64"]?.stringValue, let subType = body["subType"]?.stringValue,
                  body.objectMembers?.count == 2
            else { throw bad("expected {\"base64\": ..., \"subType\": ...}") }
            guard let bytes = Base64.decode(base64) else { throw bad("invalid base64") }
            if subType == "04" {
                guard let uuid = UUIDValue(bytes: bytes) else { throw bad("a subtype 04 UUID needs 16 bytes") }
                return .uuid(uuid)
            }
            guard subType.count <= 2, UInt8(subType, radix: 16) != nil else { throw bad("invalid subType '\(subType)'") }
            return .data(bytes)
        case "$date":
            switch body {
            case .string(let text):
                guard let t = Timestamp(iso8601: text) else { throw bad("'\(text)' is not an ISO-8601 date") }
                return .date(t)
            case .object:
                guard let text = body["$numberLong"]?.stringValue, let ms = Int64(text) else {
                    throw bad("expected an ISO-8601 string or {\"$numberLong\": milliseconds}")
                }
                return .date(Timestamp(millisecondsSinceEpoch: ms))
            case .int(let ms):
                return .date(Timestamp(millisecondsSinceEpoch: ms))
            default:
                throw bad("expected an ISO-8601 string")
            }
        case "$oid":
            guard let text = body.stringValue, let oid = ObjectId(hex: text) else { throw bad("expected 24 hex digits") }
            return .objectId(oid)
        case "$uuid":
            guard let text = body.stringValue, let uuid = UUIDValue(string: text) else {
                throw bad("expected a UUID string such as \"8-4-4-4-12\" hex digits")
            }
            return .uuid(uuid)
        default:
            return nil
        }
    }

    /// The values of a JSON array of plain scalars (strings, numbers, booleans, null), read
    /// straight into values, as `mixedValue` of each element of the parsed array gives them:
    /// query arguments are nearly always these, and this read makes no JSON tree. Nil for anything
    /// else (an object, a nested array, text that is not JSON), which the general parser reads
    /// and reports.
    package static func plainValues(cString: UnsafePointer<CChar>) -> [Value]? {
        var parser = JSONParser(UnsafeRawBufferPointer(start: cString, count: strlen(cString)))
        let bytes = parser.bytes, count = parser.count
        parser.skipWhitespace()
        guard parser.index < count, bytes[parser.index] == UInt8(ascii: "[") else { return nil }
        parser.index += 1
        var values: [Value] = []
        parser.skipWhitespace()
        if parser.index < count, bytes[parser.index] == UInt8(ascii: "]") {
            parser.index += 1
        } else {
            while true {
                parser.skipWhitespace()
                guard parser.index < count else { return nil }
                switch bytes[parser.index] {
                case UInt8(ascii: "{"), UInt8(ascii: "["): return nil
                case UInt8(ascii: "\""):
                    guard let text = try? parser.parseString() else { return nil }
                    values.append(.string(text))
                default:
                    guard let json = try? parser.parseValue() else { return nil }
                    switch json {
                    case .null: values.append(.null)
                    case .bool(let b): values.append(.bool(b))
                    case .int(let i): values.append(.int(i))
                    case .double(let d): values.append(.double(d))
                    case .string, .array, .object: return nil
                    }
                }
                parser.skipWhitespace()
                guard parser.index < count else { return nil }
                if bytes[parser.index] == UInt8(ascii: ",") { parser.index += 1; continue }
                guard bytes[parser.index] == UInt8(ascii: "]") else { return nil }
                parser.index += 1
                break
            }
        }
        parser.skipWhitespace()
        return parser.index == count ? values : nil
    }

    /// Decodes any Extended JSON value the way a mixed property stores it: exact scalar types,
    /// arrays as nested lists, other objects as nested dictionaries. `link` decodes the body of a
    /// `{"$link": ...}` inside a nested list or dictionary (the engine's, which knows the classes);
    /// without it such a link is refused.
    package static func mixedValue(_ json: JSON, depth: Int = 0,
                                   link: ((JSON) throws(DrumlinError) -> Value)? = nil) throws(DrumlinError) -> Value {
        switch json {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .array(let elements):
            guard depth < maximumMixedDepth else { throw nestingLimit() }
            var values: [Value] = []
            values.reserveCapacity(elements.count)
            for element in elements { values.append(try mixedValue(element, depth: depth + 1, link: link)) }
            return .list(values)
        case .object(let members):
            if let value = try wrapped(json) { return value }
            if depth > 0, let link, members.count == 1, members[0].key == "$link" { return try link(members[0].value) }
            guard depth < maximumMixedDepth else { throw nestingLimit() }
            var entries: [(key: String, value: Value)] = []
            entries.reserveCapacity(members.count)
            for member in members {
                if member.key == "$link" && members.count == 1 {
                    throw DrumlinError(.notSupported, "A link ({\"$link\": ...}) cannot be given here, only in an object's values.")
                }
                if member.key.hasPrefix("$") {
                    // Only the Extended JSON forms ({"$oid": ...}, ...) may use such keys: a
                    // dictionary holding one could not be read back as a dictionary.
                    throw DrumlinError(.invalidArgument, "Invalid key '\(member.key)' in a dictionary of a mixed value: keys cannot start with '$' (objects with '$' keys are Extended JSON values such as {\"$oid\": ...}).")
                }
                if entries.contains(where: { $0.key == member.key }) {
                    throw DrumlinError(.invalidArgument, "Duplicate key '\(member.key)' in a dictionary.")
                }
                entries.append((member.key, try mixedValue(member.value, depth: depth + 1, link: link)))
            }
            return .dictionary(entries)
        }
    }

    package static func nestingLimit() -> DrumlinError {
        DrumlinError(.limit, "Nested collections in a mixed value may be at most \(maximumMixedDepth) levels deep.")
    }

    // MARK: Writing

    package static func write(_ value: Value, to writer: inout JSONWriter) {
        switch value {
        case .null: writer.writeRaw("null")
        case .bool(let b): writer.writeRaw(b ? "true" : "false")
        case .int(let i): writer.writeInt(i)
        case .float(let f):
            if f.isFinite { writer.writeRaw(f.description) } else { writeNonFinite(Double(f), to: &writer) }
        case .double(let d):
            if d.isFinite { writer.writeDouble(d) } else { writeNonFinite(d, to: &writer) }
        case .decimal(let d):
            writer.writeRaw("{\"$numberDecimal\":")
            writer.writeString(d.description)
            writer.writeByte(UInt8(ascii: "}"))
        case .string(let s): writer.writeString(s)
        case .data(let bytes):
            writer.writeRaw("{\"$binary\":{\"base64\":")
            writer.writeString(Base64.encode(bytes))
            writer.writeRaw(",\"subType\":\"00\"}}")
        case .date(let t):
            writer.writeRaw("{\"$date\":")
            writer.writeString(t.iso8601)
            writer.writeByte(UInt8(ascii: "}"))
        case .objectId(let oid):
            writer.writeRaw("{\"$oid\":")
            writer.writeString(oid.hex)
            writer.writeByte(UInt8(ascii: "}"))
        case .uuid(let uuid):
            writer.writeRaw("{\"$uuid\":")
            writer.writeString(uuid.string)
            writer.writeByte(UInt8(ascii: "}"))
        case .link(let link):
            writer.writeInt(link.key)
        case .list(let elements):
            writer.writeByte(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { writer.writeByte(UInt8(ascii: ",")) }
                write(element, to: &writer)
            }
            writer.writeByte(UInt8(ascii: "]"))
        case .dictionary(let entries):
            writer.writeByte(UInt8(ascii: "{"))
            for (i, entry) in entries.enumerated() {
                if i > 0 { writer.writeByte(UInt8(ascii: ",")) }
                writer.writeString(entry.key)
                writer.writeByte(UInt8(ascii: ":"))
                write(entry.value, to: &writer)
            }
            writer.writeByte(UInt8(ascii: "}"))
        }
    }

    private static func writeNonFinite(_ d: Double, to writer: inout JSONWriter) {
        writer.writeRaw("{\"$numberDouble\":\"")
        writer.writeRaw(d.isNaN ? "NaN" : d < 0 ? "-Infinity" : "Infinity")
        writer.writeRaw("\"}")
    }

    package static func json(_ value: Value) -> JSON {
        var writer = JSONWriter()
        write(value, to: &writer)
        // Our own output always parses.
        return (try? JSON.parse(writer.string)) ?? .null
    }
}

extension Value {
    /// Decodes an Extended JSON value: exact scalar types, `$`-wrappers for special types, arrays
    /// and objects as nested lists and dictionaries.
    public init(extendedJSON json: JSON) throws(DrumlinError) {
        self = try ExtendedJSON.mixedValue(json)
    }

    /// The value as Extended JSON text.
    public var extendedJSON: String {
        var writer = JSONWriter()
        ExtendedJSON.write(self, to: &writer)
        return writer.string
    }
}
