import DrumlinValues

/// Decoding of literal text into values: numbers (with a sign folded in by the parser) and the
/// two timestamp forms. Failures are messages; the caller attaches the position.
enum QueryLiterals {
    /// The value of a number literal, negated when a `-` was written before it.
    ///
    /// Decimal integers that do not fit Int64 become doubles (the literal text stays available
    /// for exact decimal128 conversion); hex integers must fit Int64.
    static func numberValue(_ literal: QueryToken.NumberLiteral, negative: Bool) -> Result<Value, QueryLiteralError> {
        let text = literal.text
        switch literal.form {
        case .integer:
            if let value = Int64((negative ? "-" : "") + text) { return .success(.int(value)) }
            guard let magnitude = Double(text) else { return .failure(.init("invalid number '\(text)'")) }
            return .success(.double(negative ? -magnitude : magnitude))
        case .hex:
            guard let magnitude = UInt64(text.dropFirst(2), radix: 16) else {
                return .failure(.init("integer '\(text)' does not fit in 64 bits"))
            }
            if negative {
                guard magnitude <= UInt64(Int64.max) + 1 else {
                    return .failure(.init("integer '-\(text)' does not fit in 64 bits"))
                }
                return .success(.int(Int64(truncatingIfNeeded: 0 &- magnitude)))
            }
            guard magnitude <= UInt64(Int64.max) else {
                return .failure(.init("integer '\(text)' does not fit in 64 bits"))
            }
            return .success(.int(Int64(magnitude)))
        case .real:
            guard let value = Double(text) else { return .failure(.init("invalid number '\(text)'")) }
            return .success(.double(negative ? -value : value))
        case .float:
            guard let value = Float(text.dropLast()) else { return .failure(.init("invalid number '\(text)'")) }
            guard value.isFinite else { return .failure(.init("number '\(text)' is too large for a float")) }
            return .success(.float(negative ? -value : value))
        }
    }

    /// `T<seconds>:<nanoseconds>`. As in Realm both parts carry the sign of the instant, so
    /// `T-1:-500000000` is 1.5 s before the epoch and `T1:-5` is an error.
    static func secondsTimestamp(seconds secondsText: String, nanoseconds nanosText: String,
                                 text: String) -> QueryToken.Kind {
        guard let seconds = Int64(secondsText) else {
            return .invalid("invalid timestamp '\(text)': seconds out of range")
        }
        guard let nanoseconds = Int64(nanosText), nanoseconds.magnitude < 1_000_000_000 else {
            return .invalid("invalid timestamp '\(text)': nanoseconds must be below 1000000000")
        }
        if (seconds > 0 && nanoseconds < 0) || (seconds < 0 && nanoseconds > 0) {
            return .invalid("invalid timestamp '\(text)': seconds and nanoseconds must have the same sign")
        }
        if seconds == Int64.min && nanoseconds < 0 {
            return .invalid("invalid timestamp '\(text)': seconds out of range")
        }
        return .timestamp(Timestamp(seconds: seconds, nanoseconds: Int32(nanoseconds)))
    }

    /// `YYYY-MM-DD@HH:MM:SS[:nanoseconds]` in UTC. Years before 1900 are refused, as in Realm;
    /// `T<seconds>:<nanoseconds>` reaches any instant.
    static func dateTimestamp(year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64,
                              second: Int64, nanoseconds: Int64, text: String) -> QueryToken.Kind {
        guard year >= 1900 else {
            return .invalid("invalid timestamp '\(text)': dates before 1900 must be written as T<seconds>:<nanoseconds>")
        }
        guard (1...12).contains(month) else { return .invalid("invalid timestamp '\(text)': month out of range") }
        guard day >= 1, day <= Timestamp.daysInMonth(year: year, month: month) else {
            return .invalid("invalid timestamp '\(text)': day out of range")
        }
        guard hour <= 23, minute <= 59, second <= 59 else {
            return .invalid("invalid timestamp '\(text)': time out of range")
        }
        let days = Timestamp.daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second
        // As in Realm, the seconds give the nanoseconds their sign: before 1970 the written
        // nanoseconds move the instant further back (`1969-12-31@23:59:59:1` is T-1:-1).
        return .timestamp(Timestamp(seconds: seconds, nanoseconds: Int32(seconds < 0 ? -nanoseconds : nanoseconds)))
    }
}

/// A literal that has the right shape but an impossible value.
struct QueryLiteralError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
