#if canImport(Glibc)
import Glibc
#endif

/// A parsed JSON document. Objects keep their keys in document order (schemas and payloads are
/// echoed back in the order the user wrote them), and numbers keep the int/double distinction of
/// their spelling: `3` is `.int`, `3.0` and `3e0` are `.double`.
public enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([(key: String, value: JSON)])

    public static func == (lhs: JSON, rhs: JSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.double(a), .double(b)): return a == b || (a.isNaN && b.isNaN)
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The value of `key` in an object (first occurrence), or nil.
    public subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        for member in members where member.key == key { return member.value }
        return nil
    }

    public var objectMembers: [(key: String, value: JSON)]? {
        if case .object(let members) = self { return members }
        return nil
    }

    public var arrayElements: [JSON]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The JSON type word used in error messages.
    package var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .int: "int"
        case .double: "double"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

// MARK: - Parsing

public struct JSONParseError: Error, Sendable, CustomStringConvertible {
    public let offset: Int
    public let reason: String
    public var description: String { "Invalid JSON at byte \(offset): \(reason)" }
    /// Refused for nesting deeper than `JSON.maximumDepth`: a limit (`LIMIT`), not malformed input.
    public var isNestingLimit: Bool { reason.hasPrefix("nesting deeper than") }

    package init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }
}

extension JSON {
    /// Nesting deeper than this is refused: it guards the recursive parser's stack against hostile
    /// input while leaving room for 100 levels of nested mixed collections plus their wrappers.
    public static let maximumDepth = 1000

    public static func parse(_ text: String) throws(JSONParseError) -> JSON {
        var text = text
        let result = text.withUTF8 { buffer -> Result<JSON, JSONParseError> in
            var parser = JSONParser(UnsafeRawBufferPointer(buffer))
            do throws(JSONParseError) { return .success(try parser.parseDocument()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Parses NUL-terminated UTF-8 (a C string) without copying it into a Swift String first.
    public static func parse(cString: UnsafePointer<CChar>) throws(JSONParseError) -> JSON {
        let length = strlen(cString)
        var parser = JSONParser(UnsafeRawBufferPointer(start: cString, count: length))
        return try parser.parseDocument()
    }

    public static func parse(bytes: UnsafeRawBufferPointer) throws(JSONParseError) -> JSON {
        var parser = JSONParser(bytes)
        return try parser.parseDocument()
    }
}

private let powersOfTen: [Double] = (0...22).map { exponent in
    var value = 1.0
    for _ in 0..<exponent { value *= 10 }
    return value
}

/// A byte-level RFC 8259 parser, faster than JSONDecoder and free of Foundation.
package struct JSONParser {
    package let bytes: UnsafePointer<UInt8>
    package let count: Int
    package var index = 0
    var depth = 0

    package init(_ buffer: UnsafeRawBufferPointer) {
        if let base = buffer.baseAddress, buffer.count > 0 {
            bytes = base.assumingMemoryBound(to: UInt8.self)
        } else {
            bytes = UnsafePointer(bitPattern: 1)!  // never read: count is 0
        }
        count = buffer.count
    }

    mutating func parseDocument() throws(JSONParseError) -> JSON {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if index != count { throw fail("unexpected characters after the JSON value") }
        return value
    }

    package func fail(_ reason: String) -> JSONParseError { JSONParseError(offset: index, reason: reason) }

    package mutating func skipWhitespace() {
        while index < count {
            let c = bytes[index]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { index += 1 } else { return }
        }
    }

    package mutating func parseValue() throws(JSONParseError) -> JSON {
        guard index < count else { throw fail("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return try parseNumber()
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let length = word.utf8CodeUnitCount
        guard count - index >= length, memcmp(bytes + index, word.utf8Start, length) == 0 else {
            throw fail("invalid literal")
        }
        index += length
    }

    mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > JSON.maximumDepth { throw fail("nesting deeper than \(JSON.maximumDepth) levels") }
    }

    mutating func parseObject() throws(JSONParseError) -> JSON {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [(key: String, value: JSON)] = []
        skipWhitespace()
        if index < count && bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard index < count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
            let key = try parseString()
            skipWhitespace()
            guard index < count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            members.append((key, value))
            skipWhitespace()
            guard index < count else { throw fail("unexpected end of input in an object") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw fail("expected ',' or '}'")
        }
    }

    mutating func parseArray() throws(JSONParseError) -> JSON {
        try enter()
        defer { depth -= 1 }
        index += 1
        var elements: [JSON] = []
        skipWhitespace()
        if index < count && bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < count else { throw fail("unexpected end of input in an array") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            throw fail("expected ',' or ']'")
        }
    }

    mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        let start = index
        var ascii = true
        while index < count {
            let c = bytes[index]
            if c == UInt8(ascii: "\"") {
                let raw = UnsafeBufferPointer(start: bytes + start, count: index - start)
                index += 1
                if ascii { return String(decoding: raw, as: UTF8.self) }
                guard let s = String(validating: raw, as: UTF8.self) else {
                    throw JSONParseError(offset: start, reason: "invalid UTF-8 in a string")
                }
                return s
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { throw fail("unescaped control character in a string") }
            if c >= 0x80 { ascii = false }
            index += 1
        }
        var out = [UInt8](UnsafeBufferPointer(start: bytes + start, count: index - start))
        while index < count {
            let c = bytes[index]
            if c == UInt8(ascii: "\"") {
                index += 1
                guard let s = String(validating: out, as: UTF8.self) else {
                    throw JSONParseError(offset: start, reason: "invalid UTF-8 in a string")
                }
                return s
            }
            if c < 0x20 { throw fail("unescaped control character in a string") }
            if c != UInt8(ascii: "\\") { out.append(c); index += 1; continue }
            index += 1
            guard index < count else { break }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw fail("unpaired surrogate in \\u escape")
                    }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw fail("invalid low surrogate in \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw fail("unpaired surrogate in \\u escape")
                }
                appendUTF8(&out, scalar)
            default:
                throw fail("invalid escape sequence")
            }
        }
        throw fail("unterminated string")
    }

    mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard count - index >= 4 else { throw fail("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            index += 1
            let digit: UInt8
            switch c {
            case 0x30...0x39: digit = c - 0x30
            case 0x41...0x46: digit = c - 0x41 + 10
            case 0x61...0x66: digit = c - 0x61 + 10
            default: throw fail("invalid hex digit in \\u escape")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    mutating func parseNumber() throws(JSONParseError) -> JSON {
        let start = index
        var negative = false
        if bytes[index] == UInt8(ascii: "-") { negative = true; index += 1 }
        guard index < count, bytes[index] >= 0x30, bytes[index] <= 0x39 else { throw fail("invalid value") }
        var mantissa: UInt64 = 0
        var digits = 0
        if bytes[index] == 0x30 {
            index += 1
        } else {
            while index < count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                mantissa = mantissa &* 10 &+ UInt64(bytes[index] - 0x30)
                digits += 1
                index += 1
            }
        }
        var isInteger = true
        var fractionDigits = 0
        if index < count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < count, bytes[index] >= 0x30, bytes[index] <= 0x39 else { throw fail("expected a digit after '.'") }
            while index < count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                mantissa = mantissa &* 10 &+ UInt64(bytes[index] - 0x30)
                digits += 1
                fractionDigits += 1
                index += 1
            }
        }
        var exponent = 0
        if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            var negativeExponent = false
            if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                negativeExponent = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            guard index < count, bytes[index] >= 0x30, bytes[index] <= 0x39 else { throw fail("expected a digit in the exponent") }
            while index < count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[index] - 0x30) }
                index += 1
            }
            if negativeExponent { exponent = -exponent }
        }
        if isInteger && digits <= 18 {
            return .int(negative ? -Int64(mantissa) : Int64(mantissa))
        }
        if isInteger && digits == 19 {
            // 19 digits may still fit in Int64 (up to 9223372036854775807, or ...808 negative).
            if !negative, mantissa <= UInt64(Int64.max) { return .int(Int64(mantissa)) }
            if negative, mantissa <= UInt64(Int64.max) + 1 { return .int(mantissa == UInt64(Int64.max) + 1 ? .min : -Int64(mantissa)) }
        }
        let decimalExponent = exponent - fractionDigits
        if digits <= 15 && decimalExponent >= -22 && decimalExponent <= 22 {
            // Clinger's fast path: both operands are exact doubles, so one rounding is exact.
            var value = Double(mantissa)
            value = decimalExponent < 0 ? value / powersOfTen[-decimalExponent] : value * powersOfTen[decimalExponent]
            return .double(negative ? -value : value)
        }
        let length = index - start
        let value = withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { buffer -> Double in
            UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(from: bytes + start, byteCount: length)
            buffer[length] = 0
            return strtod(buffer.baseAddress!, nil)
        }
        return .double(value)
    }
}

func appendUTF8(_ out: inout [UInt8], _ scalar: UInt32) {
    switch scalar {
    case 0..<0x80:
        out.append(UInt8(scalar))
    case 0x80..<0x800:
        out.append(UInt8(0xC0 | scalar >> 6))
        out.append(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
        out.append(UInt8(0xE0 | scalar >> 12))
        out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
        out.append(UInt8(0x80 | scalar & 0x3F))
    default:
        out.append(UInt8(0xF0 | scalar >> 18))
        out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
        out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
        out.append(UInt8(0x80 | scalar & 0x3F))
    }
}

// MARK: - Writing

/// Appends compact JSON text to a byte buffer. Doubles print in Swift's shortest round-trip form,
/// and integral doubles keep their ".0" so the int/double distinction survives a round trip.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []

    public init(reservingCapacity capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    public var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Empties the buffer, keeping its memory for the next document.
    public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    public mutating func write(_ json: JSON) {
        switch json {
        case .null: writeRaw("null")
        case .bool(let b): writeRaw(b ? "true" : "false")
        case .int(let i): writeInt(i)
        case .double(let d): writeDouble(d)
        case .string(let s): writeString(s)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (i, member) in members.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(member.key)
                bytes.append(UInt8(ascii: ":"))
                write(member.value)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    public mutating func writeRaw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    public mutating func writeRaw(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    public mutating func writeByte(_ byte: UInt8) { bytes.append(byte) }

    public mutating func writeInt(_ value: Int64) {
        if value == 0 { bytes.append(0x30); return }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var magnitude = value.magnitude
        var n = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while magnitude > 0 {
                buffer[n] = UInt8(magnitude % 10) + 0x30
                magnitude /= 10
                n += 1
            }
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            while n > 0 { n -= 1; bytes.append(buffer[n]) }
        }
    }

    /// Finite doubles only; callers wrap non-finite values in `{"$numberDouble": ...}`.
    public mutating func writeDouble(_ value: Double) {
        writeRaw(value.description)
    }

    public mutating func writeString(_ value: String) {
        var value = value
        value.withUTF8 { writeString(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// Writes UTF-8 bytes as a JSON string, escaping what JSON requires.
    public mutating func writeString(utf8 raw: UnsafeRawBufferPointer) {
        bytes.append(UInt8(ascii: "\""))
        do {
            let utf8 = raw.bindMemory(to: UInt8.self)
            var runStart = 0
            for i in 0..<utf8.count {
                let c = utf8[i]
                guard c < 0x20 || c == 0x22 || c == 0x5C else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
                runStart = i + 1
                switch c {
                case 0x22: bytes.append(0x5C); bytes.append(0x22)
                case 0x5C: bytes.append(0x5C); bytes.append(0x5C)
                case 0x0A: bytes.append(0x5C); bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(0x5C); bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(0x5C); bytes.append(UInt8(ascii: "t"))
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(c >> 4)], hex[Int(c & 0xF)]])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

extension JSON {
    /// Compact JSON text.
    public var text: String {
        var writer = JSONWriter()
        writer.write(self)
        return writer.string
    }
}

extension JSON {
    /// How realm-js describes a value of the wrong type (`got a number`), in JSON's terms.
    package var javaScriptDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
