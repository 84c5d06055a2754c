import DrumlinValues

/// Parses Realm Query Language text into a `Query` tree.
///
/// A hand-written recursive-descent parser over the tokens of `QueryLexer`, following Realm's
/// grammar (docs/queries.md lists the syntax): `NOT` binds tighter than `AND`, which binds tighter
/// than `OR`; `* /` bind tighter than `+ -`; SORT, DISTINCT and LIMIT clauses follow the
/// predicate in any order and number.
///
/// Every error is `DrumlinError(.query, …)` with Realm's wording, `Invalid predicate: '<query>':
/// syntax error, unexpected <what was found>, expecting <what was expected> at position <n>`,
/// where n counts characters (Unicode scalars) from 1. Nesting is capped (see
/// `maximumNestingDepth`) so that hostile input cannot overflow the stack.
///
/// Where the grammar leaves room, the parser is a little more lenient than Realm's: a keyword
/// followed by an operator is read as a property name (`not == 1`, `any == 1`), a sign may be
/// separated from its number (`a - -1`, `a -1`), and `(a) IN {…}` groups an expression.
public struct QueryParser {
    /// Deepest nesting accepted, counting parentheses, `NOT`/`!`, SUBQUERY and each arithmetic
    /// operator in a chain (which deepens the tree by one). Keeps the worst-case stack use of
    /// parsing (and of printing or freeing the tree) to a few hundred kilobytes when optimized,
    /// about 2 MB in debug builds. (The canonical `description` wraps every operand in
    /// parentheses, so the text of a query nested more than half this deep may exceed it.)
    public static let maximumNestingDepth = 200
    /// Deepest SUBQUERY nesting accepted: each level takes several times the stack of a
    /// parenthesis, and real queries nest two or three.
    public static let maximumSubqueryDepth = 20

    private let text: String
    private let bytes: [UInt8]
    private let tokens: [QueryToken]
    /// For each `(` token, the index of its matching `)`, or -1.
    private let matchingParen: [Int]
    private let errorPrefix: String
    // Parser state, internal so that the extensions in the other QueryParser+… files can use it.
    var index = 0
    /// End offset of the last consumed token, for node ranges.
    var previousEnd = 0
    var depth = 0
    var subqueryDepth = 0
    /// Subquery variables in scope, innermost last, without `$`.
    var variables: [String] = []

    private init(_ text: String, errorPrefix: String) {
        self.text = text
        self.errorPrefix = errorPrefix
        bytes = Array(text.utf8)
        tokens = QueryLexer.tokenize(bytes)
        var matches = [Int](repeating: -1, count: tokens.count)
        var open: [Int] = []
        for (position, token) in tokens.enumerated() {
            if token.isSymbol(.leftParen) {
                open.append(position)
            } else if token.isSymbol(.rightParen), let opening = open.popLast() {
                matches[opening] = position
            }
        }
        matchingParen = matches
    }

    /// Parses a whole query: a predicate, then any SORT / DISTINCT / LIMIT clauses.
    public static func parse(_ text: String) throws(DrumlinError) -> Query {
        var parser = QueryParser(text, errorPrefix: "Invalid predicate")
        return try parser.parseQuery()
    }

    /// Parses a geo shape written as text, as Realm prints one (`geoCircle([0.3, 0.3], 1)`): what a
    /// string argument of GEOWITHIN may hold.
    static func parseGeoShape(_ text: String) throws(DrumlinError) -> Query.Expression {
        var parser = QueryParser(text, errorPrefix: "Invalid geo shape")
        let shape = try parser.parseGeoShape()
        guard case .end = parser.current.kind else { throw parser.unexpected(expecting: "end of input") }
        if case .argument = shape.kind { throw parser.unexpected(expecting: "geoBox(…), geoCircle(…) or geoPolygon(…)") }
        return shape
    }

    /// Parses a sort specification such as `age DESC, name` (direction optional, ascending by
    /// default; `ASC`, `ASCENDING`, `DESC`, `DESCENDING` in any case), as used by
    /// `sorted(by:)`-style APIs that take a string.
    public static func parseSortDescriptor(_ text: String) throws(DrumlinError) -> [Query.SortKey] {
        var parser = QueryParser(text, errorPrefix: "Invalid sort descriptor")
        var keys: [Query.SortKey] = []
        while true {
            let path = try parser.parseKeyPath(context: "a sort descriptor")
            var ascending = true
            if let direction = parser.sortDirection(parser.current) {
                ascending = direction
                parser.advance()
            }
            keys.append(Query.SortKey(path: path, ascending: ascending))
            if parser.current.isSymbol(.comma) {
                parser.advance()
                continue
            }
            guard case .end = parser.current.kind else {
                throw parser.unexpected(expecting: "ASC, DESC, ',' or end of input")
            }
            return keys
        }
    }

    // MARK: - Query and predicates

    private mutating func parseQuery() throws(DrumlinError) -> Query {
        if isPostfixStart(current) {
            throw error("unexpected \(describe(current)), a predicate must come before SORT, DISTINCT and LIMIT "
                + "(e.g. 'TRUEPREDICATE \(rawText(current).uppercased())(…)')", at: current.range.start)
        }
        let predicate = try parseOr()
        var postfix: [Query.PostfixClause] = []
        while isPostfixStart(current) {
            postfix.append(try parsePostfixClause())
        }
        guard case .end = current.kind else {
            throw unexpected(expecting: postfix.isEmpty
                ? "'&&', '||', SORT, DISTINCT, LIMIT or end of input"
                : "SORT, DISTINCT, LIMIT or end of input")
        }
        return Query(predicate: predicate, postfix: postfix)
    }

    mutating func parseOr() throws(DrumlinError) -> Query.Predicate {
        var parts = [try parseAnd()]
        while current.isSymbol(.or) || current.isKeyword("or") {
            advance()
            parts.append(try parseAnd())
        }
        if parts.count == 1 { return parts[0] }
        return Query.Predicate(.or(parts), range: parts[0].range.union(parts[parts.count - 1].range))
    }

    private mutating func parseAnd() throws(DrumlinError) -> Query.Predicate {
        var parts = [try parseNot()]
        while current.isSymbol(.and) || current.isKeyword("and") {
            advance()
            parts.append(try parseNot())
        }
        if parts.count == 1 { return parts[0] }
        return Query.Predicate(.and(parts), range: parts[0].range.union(parts[parts.count - 1].range))
    }

    private mutating func parseNot() throws(DrumlinError) -> Query.Predicate {
        let token = current
        // `not` followed by an operator is a property called "not".
        guard token.isSymbol(.bang) || (token.isTwoSpellingKeyword("not") && !isOperatorSymbol(peek(1))) else {
            return try parsePrimaryPredicate()
        }
        advance()
        try enterNesting(at: token.range.start)
        defer { depth -= 1 }
        let inner = try parseNot()
        return Query.Predicate(.not(inner), range: token.range.union(inner.range))
    }

    private mutating func parsePrimaryPredicate() throws(DrumlinError) -> Query.Predicate {
        let token = current
        if token.isSymbol(.leftParen) {
            // `(a + 1) > 2` starts a comparison; `(a > 2)` is a grouped predicate.
            if parenthesizedExpressionFollows() { return try parseComparison() }
            advance()
            try enterNesting(at: token.range.start)
            defer { depth -= 1 }
            var inner = try parseOr()
            try expect(.rightParen, expecting: "'&&', '||' or ')'")
            inner.range = Query.SourceRange(start: token.range.start, end: previousEnd)
            return inner
        }
        if !isOperatorSymbol(peek(1)) {
            if token.isKeyword("truepredicate") {
                advance()
                return Query.Predicate(.truePredicate, range: token.range)
            }
            if token.isKeyword("falsepredicate") {
                advance()
                return Query.Predicate(.falsePredicate, range: token.range)
            }
        }
        guard canStartValue(token), !isPostfixStart(token) else { throw unexpected(expecting: "a predicate") }
        return try parseComparison()
    }

    private mutating func parseComparison() throws(DrumlinError) -> Query.Predicate {
        let lhs = try parseExpression()
        let operatorToken = current
        guard let op = comparisonOperator(operatorToken) else {
            throw unexpected(expecting: "a comparison operator")
        }
        advance()
        var caseInsensitive = false
        if case .caseInsensitive = current.kind {
            guard op.allowsCaseInsensitive else {
                throw error("'[c]' cannot be used with '\(op.rawValue)'", at: current.range.start)
            }
            caseInsensitive = true
            advance()
        }
        let operatorRange = Query.SourceRange(start: operatorToken.range.start, end: previousEnd)
        let rhs: Query.Expression
        switch op {
        case .between:
            rhs = try parseBetweenBounds()
        case .geoWithin:
            guard case .keyPath = lhs.kind else {
                throw error("GEOWITHIN must follow a property", at: lhs.range.start)
            }
            rhs = try parseGeoShape()
        default:
            rhs = try parseExpression()
        }
        let comparison = Query.Comparison(lhs: lhs, op: op, rhs: rhs, caseInsensitive: caseInsensitive,
                                          range: lhs.range.union(rhs.range), operatorRange: operatorRange)
        return Query.Predicate(.comparison(comparison), range: comparison.range)
    }

    private mutating func parseBetweenBounds() throws(DrumlinError) -> Query.Expression {
        guard current.isSymbol(.leftBrace) else {
            throw unexpected(expecting: "'{' and two values after BETWEEN, e.g. BETWEEN {1, 10}")
        }
        let list = try parseList(quantifier: nil, start: current.range.start)
        if case .list(let elements, _) = list.kind, elements.count != 2 {
            throw error("BETWEEN needs exactly two values {low, high}, found \(elements.count)", at: list.range.start)
        }
        return list
    }

    private func comparisonOperator(_ token: QueryToken) -> Query.ComparisonOperator? {
        switch token.kind {
        case .symbol(.equal): return .equal
        case .symbol(.notEqual): return .notEqual
        case .symbol(.less): return .less
        case .symbol(.lessOrEqual): return .lessOrEqual
        case .symbol(.greater): return .greater
        case .symbol(.greaterOrEqual): return .greaterOrEqual
        case .word:
            if token.isTwoSpellingKeyword("in") { return .in }
            return Self.wordOperators.first { token.isKeyword($0.word) }?.op
        default: return nil
        }
    }

    // MARK: - SORT, DISTINCT, LIMIT

    /// Operators written as words, matched case-insensitively (`IN` has its own rule).
    private static let wordOperators: [(word: String, op: Query.ComparisonOperator)] = [
        ("beginswith", .beginsWith), ("endswith", .endsWith), ("contains", .contains), ("like", .like),
        ("text", .text), ("between", .between), ("geowithin", .geoWithin),
    ]

    private func isPostfixStart(_ token: QueryToken) -> Bool {
        (token.isKeyword("sort") || token.isKeyword("distinct") || token.isKeyword("limit"))
            && peek(1).isSymbol(.leftParen)
    }

    private mutating func parsePostfixClause() throws(DrumlinError) -> Query.PostfixClause {
        let keyword = current
        advance()
        advance()  // "("
        let kind: Query.PostfixClause.Kind
        if keyword.isKeyword("sort") {
            var keys: [Query.SortKey] = []
            repeat {
                let path = try parseKeyPath(context: "SORT")
                guard let ascending = sortDirection(current) else {
                    throw unexpected(expecting: "ASC or DESC after the sort property")
                }
                advance()
                keys.append(Query.SortKey(path: path, ascending: ascending))
            } while try commaOrClose()
            kind = .sort(keys)
        } else if keyword.isKeyword("distinct") {
            var paths: [Query.KeyPath] = []
            repeat {
                paths.append(try parseKeyPath(context: "DISTINCT"))
            } while try commaOrClose()
            kind = .distinct(paths)
        } else {
            let token = current
            guard case .number(let literal) = token.kind, literal.form == .integer else {
                throw unexpected(expecting: "a non-negative integer in LIMIT")
            }
            guard let count = Int(literal.text) else { throw error("LIMIT value is too large", at: token.range.start) }
            advance()
            try expect(.rightParen, expecting: "')'")
            kind = .limit(count)
        }
        return Query.PostfixClause(kind, range: Query.SourceRange(start: keyword.range.start, end: previousEnd))
    }

    /// After an element of a parenthesized list: true after `,`, false after `)`.
    private mutating func commaOrClose() throws(DrumlinError) -> Bool {
        if current.isSymbol(.comma) {
            advance()
            return true
        }
        try expect(.rightParen, expecting: "',' or ')'")
        return false
    }

    private func sortDirection(_ token: QueryToken) -> Bool? {
        if token.isKeyword("asc") || token.isKeyword("ascending") { return true }
        if token.isKeyword("desc") || token.isKeyword("descending") { return false }
        return nil
    }

    // MARK: - Tokens

    var current: QueryToken { tokens[index] }

    func peek(_ offset: Int) -> QueryToken {
        tokens[min(index + offset, tokens.count - 1)]
    }

    mutating func advance() {
        previousEnd = tokens[index].range.end
        if index < tokens.count - 1 { index += 1 }
    }

    mutating func expect(_ symbol: QueryToken.Symbol, expecting: String) throws(DrumlinError) {
        guard current.isSymbol(symbol) else { throw unexpected(expecting: expecting) }
        advance()
    }

    mutating func enterNesting(at offset: Int) throws(DrumlinError) {
        guard depth < Self.maximumNestingDepth else {
            throw error("query nested too deeply (more than \(Self.maximumNestingDepth) levels of parentheses, "
                + "NOT, SUBQUERY or arithmetic)", at: offset)
        }
        depth += 1
    }

    /// Symbols that can only continue an operand, never start one: a word followed by one of
    /// these is a property name even if it is spelled like a keyword (`not == 1`).
    func isOperatorSymbol(_ token: QueryToken) -> Bool {
        switch token.kind {
        case .symbol(let symbol):
            switch symbol {
            case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .star, .slash, .dot,
                 .leftBracket: return true
            default: return false
            }
        case .caseInsensitive: return true
        default: return false
        }
    }

    /// Whether the `(` at the current token closes into something that continues an expression
    /// (`(a + 1) * 2 > 3`, `(a) IN {…}`) rather than a grouped predicate.
    private func parenthesizedExpressionFollows() -> Bool {
        let closing = matchingParen[index]
        guard closing >= 0, closing + 1 < tokens.count else { return false }
        let next = tokens[closing + 1]
        if comparisonOperator(next) != nil { return true }
        switch next.kind {
        case .symbol(.plus), .symbol(.minus), .symbol(.star), .symbol(.slash): return true
        default: return false
        }
    }

    func canStartValue(_ token: QueryToken) -> Bool {
        switch token.kind {
        case .word, .number, .string, .base64, .timestamp, .objectId, .uuid, .typedLink, .argument,
             .keyPathArgument, .atWord: return true
        case .symbol(let symbol): return [.leftParen, .leftBrace, .minus, .plus].contains(symbol)
        case .caseInsensitive, .end, .invalid: return false
        }
    }

    // MARK: - Errors

    func error(_ detail: String, at offset: Int) -> DrumlinError {
        DrumlinError(.query, "\(errorPrefix): '\(text)': syntax error, \(detail) at position \(characterPosition(offset))")
    }

    /// "unexpected <current token>, expecting <what>", or the lexer's message if the current
    /// token is text it could not read.
    func unexpected(expecting: String) -> DrumlinError {
        if case .invalid(let message) = current.kind { return error(message, at: current.range.start) }
        return error("unexpected \(describe(current)), expecting \(expecting)", at: current.range.start)
    }

    func describe(_ token: QueryToken) -> String {
        let text = rawText(token)
        let shown = text.unicodeScalars.count > 40 ? String(String.UnicodeScalarView(text.unicodeScalars.prefix(40))) + "…" : text
        switch token.kind {
        case .end: return "end of input"
        case .word: return "identifier '\(shown)'"
        case .number: return "number '\(shown)'"
        case .string: return "string \(shown)"
        case .argument, .keyPathArgument: return "argument '\(shown)'"
        default: return "'\(shown)'"
        }
    }

    func rawText(_ token: QueryToken) -> String {
        String(decoding: bytes[token.range.start..<token.range.end], as: UTF8.self)
    }

    /// 1-based position in characters (Unicode scalars) of a UTF-8 byte offset.
    private func characterPosition(_ offset: Int) -> Int {
        var count = 1
        for byte in bytes[0..<min(offset, bytes.count)] where byte & 0xC0 != 0x80 { count += 1 }
        return count
    }
}
