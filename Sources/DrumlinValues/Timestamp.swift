/// A point in time as seconds and nanoseconds since 1970-01-01T00:00:00Z,
/// ignoring leap seconds (POSIX time).
///
/// Nanoseconds are always normalised into `0..<1_000_000_000` with floor
/// semantics (half a second before the epoch is seconds -1, nanoseconds
/// 500_000_000). A single representation per instant is what makes the
/// synthesized `==`, hashing and field-wise ordering correct, so the fields
/// are read-only and every initialiser normalises.
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    public private(set) var seconds: Int64
    public private(set) var nanoseconds: Int32

    package static let nanosPerSecond: Int64 = 1_000_000_000

    /// Accepts any nanosecond count, including negative ones, and carries the
    /// excess into seconds. Traps if that carry overflows `seconds`, like any
    /// other integer overflow.
    public init(seconds: Int64, nanoseconds: Int32 = 0) {
        let (carry, remainder) = Self.floorDivMod(Int64(nanoseconds), Self.nanosPerSecond)
        self.seconds = seconds + carry
        self.nanoseconds = Int32(remainder)
    }

    public init(nanosecondsSinceEpoch: Int64) {
        let (s, ns) = Self.floorDivMod(nanosecondsSinceEpoch, Self.nanosPerSecond)
        seconds = s
        nanoseconds = Int32(ns)
    }

    /// Nil when the instant is outside Int64 nanoseconds (roughly years
    /// 1677–2262), because a wrapped or clamped count would be a wrong time.
    public var nanosecondsSinceEpoch: Int64? {
        // For negative seconds, borrow one second first so that values near
        // Int64.min do not overflow in the intermediate product.
        var s = seconds, ns = Int64(nanoseconds)
        if s < 0 && ns > 0 {
            s += 1
            ns -= Self.nanosPerSecond
        }
        let (product, overflow) = s.multipliedReportingOverflow(by: Self.nanosPerSecond)
        if overflow { return nil }
        let (sum, overflow2) = product.addingReportingOverflow(ns)
        return overflow2 ? nil : sum
    }

    /// Milliseconds are what BSON datetimes carry; every Int64 fits.
    public init(millisecondsSinceEpoch: Int64) {
        let (s, ms) = Self.floorDivMod(millisecondsSinceEpoch, 1000)
        seconds = s
        nanoseconds = Int32(ms * 1_000_000)
    }

    /// Floor of the instant in milliseconds, so sub-millisecond times before
    /// the epoch round towards the past as BSON expects. Instants beyond
    /// ±292 million years saturate at `Int64.min`/`Int64.max`, since no
    /// millisecond count can represent them.
    public var millisecondsSinceEpoch: Int64 {
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, overflow2) = product.addingReportingOverflow(Int64(nanoseconds) / 1_000_000)
        if overflow2 { return .max }
        return sum
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }

    public var description: String { iso8601 }

    static func floorDivMod(_ a: Int64, _ b: Int64) -> (quotient: Int64, remainder: Int64) {
        var q = a / b, r = a % b
        if r < 0 {
            q -= 1
            r += b
        }
        return (q, r)
    }
}

// MARK: - ISO 8601

extension Timestamp {
    /// Parses an RFC 3339-style timestamp: `YYYY-MM-DDTHH:MM:SS[.f{1,9}]` plus
    /// a mandatory zone (`Z`, `+HH:MM`, `+HHMM`). A zone is required because a
    /// local time without one names no single instant. Leap second 60 is
    /// rejected: POSIX time cannot represent it, and silently folding it into
    /// the next minute would change the value. Years beyond 0000–9999 use the
    /// six-digit signed form (`+010000`, `-000001`).
    public init?(iso8601: String) {
        var text = iso8601
        guard let value = text.withUTF8({ Self.parseISO8601($0) }) else { return nil }
        self = value
    }

    private static func parseISO8601(_ s: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        var i = 0
        func number(_ width: Int) -> Int64? {
            guard i + width <= s.count else { return nil }
            var value: Int64 = 0
            for _ in 0..<width {
                let digit = s[i] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int64(digit)
                i += 1
            }
            return value
        }
        func consume(_ allowed: UInt8...) -> Bool {
            guard i < s.count, allowed.contains(s[i]) else { return false }
            i += 1
            return true
        }

        let year: Int64
        if i < s.count, s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") {
            let negative = s[i] == UInt8(ascii: "-")
            i += 1
            guard let magnitude = number(6), !(negative && magnitude == 0) else { return nil }
            year = negative ? -magnitude : magnitude
        } else {
            guard let plain = number(4) else { return nil }
            year = plain
        }
        guard consume(UInt8(ascii: "-")), let month = number(2), (1...12).contains(month),
              consume(UInt8(ascii: "-")), let day = number(2),
              day >= 1, day <= daysInMonth(year: year, month: month),
              consume(UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")),
              let hour = number(2), hour <= 23, consume(UInt8(ascii: ":")),
              let minute = number(2), minute <= 59, consume(UInt8(ascii: ":")),
              let second = number(2), second <= 59
        else { return nil }

        var nanos: Int64 = 0
        if consume(UInt8(ascii: ".")) {
            var digits = 0
            while i < s.count, s[i] >= UInt8(ascii: "0"), s[i] <= UInt8(ascii: "9") {
                guard digits < 9 else { return nil }
                nanos = nanos * 10 + Int64(s[i] - UInt8(ascii: "0"))
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<9 { nanos *= 10 }
        }

        var offsetSeconds: Int64 = 0
        if consume(UInt8(ascii: "Z"), UInt8(ascii: "z")) {
            offsetSeconds = 0
        } else if i < s.count, s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") {
            let sign: Int64 = s[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            guard let offsetHours = number(2), offsetHours <= 23 else { return nil }
            _ = consume(UInt8(ascii: ":"))
            guard let offsetMinutes = number(2), offsetMinutes <= 59 else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard i == s.count else { return nil }

        let days = daysFromCivil(year: year, month: month, day: day)
        let local = days * 86_400 + hour * 3600 + minute * 60 + second
        return Timestamp(seconds: local - offsetSeconds, nanoseconds: Int32(nanos))
    }

    /// Always UTC with `Z`, so equal instants print identically. The fraction
    /// uses the fewest of 0, 3, 6 or 9 digits that is exact, matching the
    /// millisecond/microsecond/nanosecond precision the value actually has.
    public var iso8601: String {
        let (days, secondOfDay) = Self.floorDivMod(seconds, 86_400)
        let (year, month, day) = Self.civilFromDays(days)
        var out: String
        if (0...9999).contains(year) {
            out = Self.padded(year.magnitude, width: 4)
        } else {
            out = (year < 0 ? "-" : "+") + Self.padded(year.magnitude, width: 6)
        }
        out += "-" + Self.padded(UInt64(month), width: 2)
        out += "-" + Self.padded(UInt64(day), width: 2)
        out += "T" + Self.padded(UInt64(secondOfDay / 3600), width: 2)
        out += ":" + Self.padded(UInt64(secondOfDay / 60 % 60), width: 2)
        out += ":" + Self.padded(UInt64(secondOfDay % 60), width: 2)
        let ns = UInt64(nanoseconds)
        if ns == 0 {
            // whole seconds: no fraction
        } else if ns % 1_000_000 == 0 {
            out += "." + Self.padded(ns / 1_000_000, width: 3)
        } else if ns % 1000 == 0 {
            out += "." + Self.padded(ns / 1000, width: 6)
        } else {
            out += "." + Self.padded(ns, width: 9)
        }
        return out + "Z"
    }

    /// Hands `body` the instant as `YYYY-MM-DDTHH:MM:SS.ffffff+00:00` (32 ASCII bytes: UTC, the
    /// microseconds truncated), what Python's `datetime.fromisoformat` reads since 3.7, and
    /// returns true; false, with no call, outside years 1–9999 (outside Python's `datetime`). Not
    /// generic: a generic result made the temporary buffer instantiate `Result` metadata at run
    /// time on every call from another module (~330 instructions a date).
    public func withMicrosecondISO8601(_ body: (UnsafeRawBufferPointer) -> Void) -> Bool {
        let (days, secondOfDay) = Self.floorDivMod(seconds, 86_400)
        let (year, month, day) = Self.civilFromDays(days)
        guard (1...9999).contains(year) else { return false }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { (text) -> Void in
            func digits(_ value: Int64, _ at: Int, _ width: Int) {
                var value = value
                for i in stride(from: at + width - 1, through: at, by: -1) {
                    text[i] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
            }
            digits(year, 0, 4)
            text[4] = UInt8(ascii: "-")
            digits(month, 5, 2)
            text[7] = UInt8(ascii: "-")
            digits(day, 8, 2)
            text[10] = UInt8(ascii: "T")
            digits(secondOfDay / 3600, 11, 2)
            text[13] = UInt8(ascii: ":")
            digits(secondOfDay / 60 % 60, 14, 2)
            text[16] = UInt8(ascii: ":")
            digits(secondOfDay % 60, 17, 2)
            text[19] = UInt8(ascii: ".")
            digits(Int64(nanoseconds) / 1000, 20, 6)
            text[26] = UInt8(ascii: "+")
            text[27] = UInt8(ascii: "0")
            text[28] = UInt8(ascii: "0")
            text[29] = UInt8(ascii: ":")
            text[30] = UInt8(ascii: "0")
            text[31] = UInt8(ascii: "0")
            body(UnsafeRawBufferPointer(text))
        }
        return true
    }

    private static func padded(_ value: UInt64, width: Int) -> String {
        let digits = String(value)
        let count = digits.utf8.count
        return count >= width ? digits : String(repeating: "0", count: width - count) + digits
    }

    static func isLeapYear(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    package static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Howard Hinnant's days_from_civil: days since 1970-01-01 in the
    /// proleptic Gregorian calendar, exact for every year we can parse.
    /// Works in 400-year eras (146,097 days) counted from 0000-03-01 so that
    /// the leap day falls at the end of each computational year.
    package static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400                                       // 0...399
        let shiftedMonth = month > 2 ? month - 3 : month + 9                // March = 0
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1              // 0...365
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Howard Hinnant's civil_from_days, the inverse of `daysFromCivil`.
    static func civilFromDays(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097                                     // 0...146096
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153                         // March = 0
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
