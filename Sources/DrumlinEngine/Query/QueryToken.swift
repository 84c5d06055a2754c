import DrumlinValues

/// One lexical token of a query. Words (identifiers and keywords alike) stay words: whether
/// `sort` or `in` is a keyword depends on where it stands, which only the parser knows, and
/// Realm accepts keywords as property names.
struct QueryToken: Sendable {
    enum Kind: Sendable, Equatable {
        /// An identifier or keyword, with `\ ` escapes decoded. Starts with `$` for subquery
        /// variables.
        case word(String)
        case number(NumberLiteral)
        case string(String)
        /// `B64"…"`, decoded.
        case base64([UInt8])
        /// `T<sec>:<nanos>` or `YYYY-MM-DD@HH:MM:SS[:nanos]`.
        case timestamp(Timestamp)
        case objectId(ObjectId)
        case uuid(UUIDValue)
        /// `L<table>:<key>`.
        case typedLink(table: Int, key: Int64)
        /// `$0`.
        case argument(Int)
        /// `$K0`.
        case keyPathArgument(Int)
        /// `@count`, `@links`, …: the letters after `@`, as written.
        case atWord(String)
        /// `[c]`.
        case caseInsensitive
        case symbol(Symbol)
        case end
        /// Text the lexer could not read; the parser reports `message` if it gets this far.
        case invalid(String)
    }

    enum Symbol: String, Sendable {
        case leftParen = "(", rightParen = ")", leftBrace = "{", rightBrace = "}"
        case leftBracket = "[", rightBracket = "]", comma = ",", dot = "."
        case plus = "+", minus = "-", star = "*", slash = "/"
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        case and = "&&", or = "||", bang = "!"
    }

    /// A number as written, without a sign (a leading `-` is a separate token the parser folds).
    struct NumberLiteral: Sendable, Equatable {
        enum Form: Sendable { case integer, hex, real, float }
        var form: Form
        /// The source text, e.g. `001`, `0x1F`, `10.`, `.5`, `1e5`, `2.5f`.
        var text: String
    }

    var kind: Kind
    var range: Query.SourceRange

    var symbol: Symbol? {
        if case .symbol(let symbol) = kind { return symbol }
        return nil
    }

    var word: String? {
        if case .word(let word) = kind { return word }
        return nil
    }

    func isSymbol(_ symbol: Symbol) -> Bool { self.symbol == symbol }

    /// Case-insensitive keyword match (the word must be all ASCII).
    func isKeyword(_ keyword: String) -> Bool {
        guard let word else { return false }
        return asciiCaseInsensitiveEqual(word, keyword)
    }

    /// Keywords Realm accepts in exactly two spellings, e.g. `in` and `IN` but not `In`.
    func isTwoSpellingKeyword(_ lowercase: String) -> Bool {
        guard let word else { return false }
        if word == lowercase { return true }
        return asciiCaseInsensitiveEqual(word, lowercase)
            && !word.utf8.contains { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }
    }
}

func asciiCaseInsensitiveEqual(_ a: String, _ b: String) -> Bool {
    let x = a.utf8, y = b.utf8
    guard x.count == y.count else { return false }
    return zip(x, y).allSatisfy { lowerASCII($0) == lowerASCII($1) }
}

private func lowerASCII(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
}
