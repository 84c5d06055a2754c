import DrumlinValues

/// Splits query text (as UTF-8 bytes) into tokens, following Realm's `query_flex.ll`.
///
/// The lexer never throws: text it cannot read becomes a final `.invalid` token whose range starts
/// at the offending byte. The parser reports it only if it gets that far, so an earlier syntax
/// error wins, as with a lexer that runs on demand.
///
/// Two Realm rules worth knowing: names may contain `-` (`a-1` is one name; write `a - 1` for
/// arithmetic), and a number never includes its sign (`-5` is `-` then `5`; the parser folds the
/// sign into the literal, so `x > -5` and `x - 5` both work).
struct QueryLexer {
    private let bytes: [UInt8]
    private var position = 0
    /// Where the problem is when `next()` returns `.invalid`; defaults to the token start.
    private var errorOffset: Int?

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// All tokens, ending with `.end` or, at the first unreadable text, `.invalid`.
    static func tokenize(_ bytes: [UInt8]) -> [QueryToken] {
        var lexer = QueryLexer(bytes: bytes)
        var tokens: [QueryToken] = []
        while true {
            lexer.skipWhitespace()
            let start = lexer.position
            guard start < bytes.count else {
                tokens.append(QueryToken(kind: .end, range: .init(start: start, end: start)))
                return tokens
            }
            lexer.errorOffset = nil
            let kind = lexer.next()
            if case .invalid = kind {
                let at = lexer.errorOffset ?? start
                tokens.append(QueryToken(kind: kind, range: .init(start: at, end: max(at, lexer.position))))
                return tokens
            }
            tokens.append(QueryToken(kind: kind, range: .init(start: start, end: lexer.position)))
        }
    }

    // MARK: - Dispatch

    private mutating func next() -> QueryToken.Kind {
        let byte = bytes[position]
        switch byte {
        case UInt8(ascii: "("): return symbol(.leftParen)
        case UInt8(ascii: ")"): return symbol(.rightParen)
        case UInt8(ascii: "{"): return symbol(.leftBrace)
        case UInt8(ascii: "}"): return symbol(.rightBrace)
        case UInt8(ascii: "]"): return symbol(.rightBracket)
        case UInt8(ascii: ","): return symbol(.comma)
        case UInt8(ascii: "+"): return symbol(.plus)
        case UInt8(ascii: "-"): return symbol(.minus)
        case UInt8(ascii: "*"): return symbol(.star)
        case UInt8(ascii: "/"): return symbol(.slash)
        case UInt8(ascii: "["):
            if peek(1) == UInt8(ascii: "c") && peek(2) == UInt8(ascii: "]") {
                position += 3
                return .caseInsensitive
            }
            return symbol(.leftBracket)
        case UInt8(ascii: "."):
            return isDigit(peek(1)) ? number() : symbol(.dot)
        case UInt8(ascii: "="):
            switch peek(1) {
            case UInt8(ascii: "="): return symbol(.equal, length: 2)
            case UInt8(ascii: "<"): return symbol(.lessOrEqual, length: 2)
            case UInt8(ascii: ">"): return symbol(.greaterOrEqual, length: 2)
            default: return symbol(.equal)
            }
        case UInt8(ascii: "!"):
            return peek(1) == UInt8(ascii: "=") ? symbol(.notEqual, length: 2) : symbol(.bang)
        case UInt8(ascii: "<"):
            switch peek(1) {
            case UInt8(ascii: "="): return symbol(.lessOrEqual, length: 2)
            case UInt8(ascii: ">"): return symbol(.notEqual, length: 2)
            default: return symbol(.less)
            }
        case UInt8(ascii: ">"):
            return peek(1) == UInt8(ascii: "=") ? symbol(.greaterOrEqual, length: 2) : symbol(.greater)
        case UInt8(ascii: "&"):
            if peek(1) == UInt8(ascii: "&") { return symbol(.and, length: 2) }
            return .invalid("invalid character '&' (use '&&' or 'AND')")
        case UInt8(ascii: "|"):
            if peek(1) == UInt8(ascii: "|") { return symbol(.or, length: 2) }
            return .invalid("invalid character '|' (use '||' or 'OR')")
        case UInt8(ascii: "'"), UInt8(ascii: "\""):
            return string()
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            return dateTimestamp() ?? number()
        case UInt8(ascii: "@"):
            return atWord()
        case UInt8(ascii: "$"):
            return dollar()
        default:
            if isNameStart(byte) { return word() }
            return .invalid("invalid character \(characterDescription(at: position))")
        }
    }

    private mutating func symbol(_ symbol: QueryToken.Symbol, length: Int = 1) -> QueryToken.Kind {
        position += length
        return .symbol(symbol)
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): position += 1
            default: return
            }
        }
    }

    // MARK: - Words

    /// A name or keyword, or one of the literals that start like a name: `B64"…"`, `oid(…)`,
    /// `uuid(…)`, `T<sec>:<nanos>` and `L<table>:<key>`.
    private mutating func word() -> QueryToken.Kind {
        let start = position
        if bytes[start] == UInt8(ascii: "T"), let timestamp = secondsTimestamp() { return timestamp }
        if bytes[start] == UInt8(ascii: "L"), let link = typedLink() { return link }

        var name: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            if isNameContinuation(byte) {
                name.append(byte)
                position += 1
            } else if byte == UInt8(ascii: "\\") {
                // Realm's escapes inside names: `\ ` (a space), `\n`, `\r`, `\t`.
                switch peek(1) {
                case UInt8(ascii: " "): name.append(UInt8(ascii: " "))
                case UInt8(ascii: "n"): name.append(UInt8(ascii: "\n"))
                case UInt8(ascii: "r"): name.append(UInt8(ascii: "\r"))
                case UInt8(ascii: "t"): name.append(UInt8(ascii: "\t"))
                default:
                    errorOffset = position
                    position += 1
                    return .invalid("invalid escape '\\\(characterText(at: position))' in a name; "
                        + "only '\\ ', '\\n', '\\r' and '\\t' are allowed")
                }
                position += 2
            } else {
                break
            }
        }
        let text = String(decoding: name, as: UTF8.self)
        switch (text, peek(0)) {
        case ("B64", UInt8(ascii: "\"")): return base64(start: start)
        case ("oid", UInt8(ascii: "(")): return parenthesized(start: start, what: "ObjectId") { ObjectId(hex: $0).map { .objectId($0) } }
        case ("uuid", UInt8(ascii: "(")): return parenthesized(start: start, what: "UUID") { UUIDValue(string: $0).map { .uuid($0) } }
        default: return .word(text)
        }
    }

    /// `$0` (argument), `$K0` (key path argument) or `$name` (subquery variable, a word).
    private mutating func dollar() -> QueryToken.Kind {
        let start = position
        position += 1
        while position < bytes.count, isNameContinuation(bytes[position]) { position += 1 }
        let body = bytes[(start + 1)..<position]
        if body.isEmpty {
            return .invalid("'$' must be followed by an argument number ($0) or a variable name ($x)")
        }
        if body.allSatisfy(isDigit) {
            guard let index = Int(String(decoding: body, as: UTF8.self)) else {
                return .invalid("argument number '\(String(decoding: body, as: UTF8.self))' is too large")
            }
            return .argument(index)
        }
        if body.first == UInt8(ascii: "K"), body.count > 1, body.dropFirst().allSatisfy(isDigit) {
            guard let index = Int(String(decoding: body.dropFirst(), as: UTF8.self)) else {
                return .invalid("argument number '\(String(decoding: body, as: UTF8.self))' is too large")
            }
            return .keyPathArgument(index)
        }
        return .word(String(decoding: bytes[start..<position], as: UTF8.self))
    }

    /// `@count`, `@links`, …; which ones are valid where is the parser's business.
    private mutating func atWord() -> QueryToken.Kind {
        let start = position
        position += 1
        while position < bytes.count, isLetter(bytes[position]) { position += 1 }
        if position == start + 1 {
            return .invalid("'@' must be followed by an operator such as '@count' or '@links'")
        }
        return .atWord(String(decoding: bytes[start..<position], as: UTF8.self))
    }

    // MARK: - Strings and bracketed literals

    /// `'…'` or `"…"` with the escapes `\" \' \\ \/ \b \f \n \r \t \0 \uXXXX`.
    private mutating func string() -> QueryToken.Kind {
        let start = position
        let quote = bytes[position]
        position += 1
        var decoded: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            if byte == quote {
                position += 1
                return .string(String(decoding: decoded, as: UTF8.self))
            }
            if byte != UInt8(ascii: "\\") {
                decoded.append(byte)
                position += 1
                continue
            }
            let escapeStart = position
            position += 1
            guard position < bytes.count else { break }
            let escaped = bytes[position]
            position += 1
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escaped)
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "0"): decoded.append(0x00)
            case UInt8(ascii: "u"):
                guard let scalar = unicodeEscape(escapeStart: escapeStart) else {
                    errorOffset = escapeStart
                    return .invalid(invalidUnicodeEscapeMessage(escapeStart: escapeStart))
                }
                decoded.append(contentsOf: Array(String(scalar).utf8))
            default:
                errorOffset = escapeStart
                position -= 1
                return .invalid("invalid escape sequence '\\\(characterText(at: position))' in a string")
            }
        }
        errorOffset = start
        return .invalid("unterminated string")
    }

    /// Reads the hex digits after `\u` (and a following `\uXXXX` low surrogate if the first is a
    /// high one). On success `position` is past the escape.
    private mutating func unicodeEscape(escapeStart: Int) -> Unicode.Scalar? {
        guard let high = hexQuad(at: position) else { return nil }
        position += 4
        if (0xDC00...0xDFFF).contains(high) { return nil }
        guard (0xD800...0xDBFF).contains(high) else { return Unicode.Scalar(high) }
        guard peek(0) == UInt8(ascii: "\\"), peek(1) == UInt8(ascii: "u"), let low = hexQuad(at: position + 2),
              (0xDC00...0xDFFF).contains(low) else { return nil }
        position += 6
        return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    }

    private func invalidUnicodeEscapeMessage(escapeStart: Int) -> String {
        guard let value = hexQuad(at: escapeStart + 2) else {
            return "invalid escape sequence '\\u': expecting four hex digits"
        }
        let hex = String(value, radix: 16, uppercase: true)
        return "invalid escape sequence '\\u\(hex)': a surrogate must be a high/low pair"
    }

    private func hexQuad(at offset: Int) -> UInt32? {
        guard offset + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for index in offset..<(offset + 4) {
            guard let nibble = hexValue(bytes[index]) else { return nil }
            value = value << 4 | UInt32(nibble)
        }
        return value
    }

    /// `B64"…"`, with `position` at the opening quote.
    private mutating func base64(start: Int) -> QueryToken.Kind {
        position += 1
        let contentStart = position
        while position < bytes.count, bytes[position] != UInt8(ascii: "\"") { position += 1 }
        guard position < bytes.count else {
            errorOffset = start
            return .invalid("unterminated B64\"…\" literal")
        }
        let content = String(decoding: bytes[contentStart..<position], as: UTF8.self)
        position += 1
        guard let decoded = Base64.decode(content) else {
            errorOffset = start
            return .invalid("invalid base64 in B64\"\(content)\"")
        }
        return .base64(decoded)
    }

    /// `oid(…)` / `uuid(…)`, with `position` at the `(`.
    private mutating func parenthesized(start: Int, what: String,
                                        decode: (String) -> QueryToken.Kind?) -> QueryToken.Kind {
        position += 1
        let contentStart = position
        while position < bytes.count, bytes[position] != UInt8(ascii: ")") { position += 1 }
        errorOffset = start
        guard position < bytes.count else { return .invalid("missing ')' after \(what)") }
        let content = String(decoding: bytes[contentStart..<position], as: UTF8.self)
        position += 1
        return decode(content) ?? .invalid("invalid \(what) '\(content)'")
    }

    // MARK: - Numbers, timestamps, links

    /// Unsigned decimal (`001`), hex (`0x1F`), real (`10.`, `.5`, `1e-5`) or float (`2.5f`, `5f`).
    private mutating func number() -> QueryToken.Kind {
        let start = position
        var form = QueryToken.NumberLiteral.Form.integer
        if bytes[position] == UInt8(ascii: "0"), peek(1) == UInt8(ascii: "x") || peek(1) == UInt8(ascii: "X"),
           hexValue(peek(2)) != nil {
            position += 2
            while hexValue(peek(0)) != nil { position += 1 }
            form = .hex
        } else {
            while isDigit(peek(0)) { position += 1 }
            if peek(0) == UInt8(ascii: ".") {
                position += 1
                form = .real
                while isDigit(peek(0)) { position += 1 }
            }
            if peek(0) == UInt8(ascii: "e") || peek(0) == UInt8(ascii: "E") {
                let signed = peek(1) == UInt8(ascii: "+") || peek(1) == UInt8(ascii: "-")
                if isDigit(peek(signed ? 2 : 1)) {
                    position += signed ? 2 : 1
                    while isDigit(peek(0)) { position += 1 }
                    form = .real
                }
            }
            if peek(0) == UInt8(ascii: "f") || peek(0) == UInt8(ascii: "F") {
                position += 1
                form = .float
            }
        }
        if position < bytes.count, isNameContinuation(bytes[position]) && bytes[position] != UInt8(ascii: "-") {
            while position < bytes.count, isNameContinuation(bytes[position]) { position += 1 }
            errorOffset = start
            return .invalid("invalid number '\(String(decoding: bytes[start..<position], as: UTF8.self))'")
        }
        return .number(.init(form: form, text: String(decoding: bytes[start..<position], as: UTF8.self)))
    }

    /// `YYYY-MM-DD@HH:MM:SS[:nanos]` or with `T` for `@`; nil (and no bytes consumed) when the
    /// text does not have that shape, so it can be read as a number instead.
    private mutating func dateTimestamp() -> QueryToken.Kind? {
        var index = position
        func digits(_ minimum: Int, _ maximum: Int) -> Int64? {
            var value: Int64 = 0
            var count = 0
            while count < maximum, index < bytes.count, isDigit(bytes[index]) {
                value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
                index += 1
                count += 1
            }
            return count >= minimum ? value : nil
        }
        func expect(_ characters: UInt8...) -> Bool {
            guard index < bytes.count, characters.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = digits(1, 4), expect(UInt8(ascii: "-")), let month = digits(1, 2),
              expect(UInt8(ascii: "-")), let day = digits(1, 2) else { return nil }
        guard expect(UInt8(ascii: "@"), UInt8(ascii: "T")) else {
            // `2024-01-31` alone would otherwise read as the subtraction 2024 - 1 - 31.
            if index < bytes.count, isDigit(bytes[index]) { return nil }
            let text = String(decoding: bytes[position..<index], as: UTF8.self)
            errorOffset = position
            position = index
            return .invalid("invalid timestamp '\(text)': a date needs a time, e.g. 2024-01-31@00:00:00 "
                + "(write subtraction with spaces)")
        }
        guard let hour = digits(1, 2), expect(UInt8(ascii: ":")), let minute = digits(1, 2),
              expect(UInt8(ascii: ":")), let second = digits(1, 2)
        else { return nil }
        var nanoseconds: Int64 = 0
        if index + 1 < bytes.count, bytes[index] == UInt8(ascii: ":"), isDigit(bytes[index + 1]) {
            index += 1
            guard let value = digits(1, 9) else { return nil }
            nanoseconds = value
        }
        let start = position
        position = index
        if position < bytes.count, isNameContinuation(bytes[position]) || bytes[position] == UInt8(ascii: ":") {
            while position < bytes.count, isNameContinuation(bytes[position]) || bytes[position] == UInt8(ascii: ":") {
                position += 1
            }
            errorOffset = start
            return .invalid("invalid timestamp '\(String(decoding: bytes[start..<position], as: UTF8.self))'")
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        errorOffset = start
        return QueryLiterals.dateTimestamp(year: year, month: month, day: day, hour: hour, minute: minute,
                                           second: second, nanoseconds: nanoseconds, text: text)
    }

    /// `T<sec>:<nanos>` (each part may be negative), or nil when the text is just a name
    /// starting with `T`.
    private mutating func secondsTimestamp() -> QueryToken.Kind? {
        let start = position
        var index = position + 1
        func signedDigits() -> String? {
            let begin = index
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            let digitsStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            return index > digitsStart ? String(decoding: bytes[begin..<index], as: UTF8.self) : nil
        }
        guard let seconds = signedDigits(), index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
        index += 1
        errorOffset = start
        guard let nanoseconds = signedDigits() else {
            position = index
            return .invalid("invalid timestamp '\(String(decoding: bytes[start..<index], as: UTF8.self))': "
                + "expecting T<seconds>:<nanoseconds>")
        }
        position = index
        if position < bytes.count, isNameContinuation(bytes[position]) {
            while position < bytes.count, isNameContinuation(bytes[position]) { position += 1 }
            return .invalid("invalid timestamp '\(String(decoding: bytes[start..<position], as: UTF8.self))'")
        }
        return QueryLiterals.secondsTimestamp(seconds: seconds, nanoseconds: nanoseconds,
                                              text: String(decoding: bytes[start..<position], as: UTF8.self))
    }

    /// `L<table>:<key>`, or nil when the text is just a name starting with `L`.
    private mutating func typedLink() -> QueryToken.Kind? {
        let start = position
        var index = position + 1
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        guard index > start + 1, index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
        let tableText = String(decoding: bytes[(start + 1)..<index], as: UTF8.self)
        index += 1
        let keyStart = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        while index < bytes.count, isNameContinuation(bytes[index]) { index += 1 }
        position = index
        errorOffset = start
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let table = Int(tableText), let key = Int64(String(decoding: bytes[keyStart..<index], as: UTF8.self))
        else { return .invalid("invalid typed link '\(text)': expecting L<table>:<key>") }
        return .typedLink(table: table, key: key)
    }

    // MARK: - Bytes

    private func peek(_ offset: Int) -> UInt8 {
        let index = position + offset
        return index < bytes.count ? bytes[index] : 0
    }

    /// The character at `offset` for a message: `'x'`, or `U+0000` for control characters.
    private func characterDescription(at offset: Int) -> String {
        let text = characterText(at: offset)
        if let scalar = text.unicodeScalars.first, scalar.value < 0x20 || scalar.value == 0x7F {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: 4 - hex.utf8.count) + hex
        }
        return "'\(text)'"
    }

    /// The whole UTF-8 character starting at `offset` (the input is valid UTF-8).
    private func characterText(at offset: Int) -> String {
        guard offset < bytes.count else { return "" }
        var end = offset + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return String(decoding: bytes[offset..<end], as: UTF8.self)
    }
}

private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
}

private func isLetter(_ byte: UInt8) -> Bool {
    (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
}

/// Realm: `[a-zA-Z_$]` or any non-ASCII character.
private func isNameStart(_ byte: UInt8) -> Bool {
    isLetter(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
}

/// Realm: `[a-zA-Z0-9_$-]` or any non-ASCII character.
private func isNameContinuation(_ byte: UInt8) -> Bool {
    isNameStart(byte) || isDigit(byte) || byte == UInt8(ascii: "-")
}

private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
}
