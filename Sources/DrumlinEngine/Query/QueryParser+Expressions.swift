import DrumlinValues

// Values: arithmetic, constants, arguments, lists, property paths with their collection
// operators, SUBQUERY, and the constant-like functions (bin, obj).

extension QueryParser {
    /// What may end a key path instead of another component.
    enum PathTerminal {
        case count
        case type
        case aggregate(Query.AggregateOperator, property: String?)
    }

    // MARK: - Arithmetic

    // Each operator in a chain adds a level to the (left-deep) tree, so it counts towards the
    // nesting limit like a parenthesis: `a + a + … + a` cannot build a tree deep enough to
    // overflow the stack when it is printed, compared or freed.

    mutating func parseExpression() throws(DrumlinError) -> Query.Expression {
        var lhs = try parseProduct()
        let outerDepth = depth
        defer { depth = outerDepth }
        while let op = arithmeticOperator(current, additive: true) {
            if case .number = peek(1).kind, peek(1).range.start == current.range.end {
                // As Realm reads it, a sign written right before a number is the number's: `1-0`
                // is the numbers 1 and -0, two values in a row (`1 - 0` subtracts).
                let number = rawText(current) + rawText(peek(1))
                throw error("unexpected number '\(number)', expecting an operator (write '\(rawText(current)) \(rawText(peek(1)))' to \(op == .add ? "add" : "subtract"))", at: current.range.start)
            }
            try enterNesting(at: current.range.start)
            advance()
            let rhs = try parseProduct()
            lhs = Query.Expression(.arithmetic(lhs, op, rhs), range: lhs.range.union(rhs.range))
        }
        return lhs
    }

    private mutating func parseProduct() throws(DrumlinError) -> Query.Expression {
        var lhs = try parseOperand()
        let outerDepth = depth
        defer { depth = outerDepth }
        while let op = arithmeticOperator(current, additive: false) {
            try enterNesting(at: current.range.start)
            advance()
            let rhs = try parseOperand()
            lhs = Query.Expression(.arithmetic(lhs, op, rhs), range: lhs.range.union(rhs.range))
        }
        return lhs
    }

    private func arithmeticOperator(_ token: QueryToken, additive: Bool) -> Query.ArithmeticOperator? {
        switch token.kind {
        case .symbol(.plus) where additive: .add
        case .symbol(.minus) where additive: .subtract
        case .symbol(.star) where !additive: .multiply
        case .symbol(.slash) where !additive: .divide
        default: nil
        }
    }

    // MARK: - Operands

    private mutating func parseOperand() throws(DrumlinError) -> Query.Expression {
        let token = current
        switch token.kind {
        case .symbol(.leftParen):
            advance()
            try enterNesting(at: token.range.start)
            defer { depth -= 1 }
            var inner = try parseExpression()
            try expect(.rightParen, expecting: "an operator or ')'")
            inner.range = Query.SourceRange(start: token.range.start, end: previousEnd)
            return inner
        case .symbol(.leftBrace):
            return try parseList(quantifier: nil, start: token.range.start)
        case .keyPathArgument, .atWord:
            return try parsePathExpression(quantifier: nil, start: token.range.start)
        case .word(let word):
            return try parseWordOperand(word)
        default:
            if let constant = try parseConstant() { return constant }
            throw unexpected(expecting: "a value")
        }
    }

    /// A word in value position: a quantifier, a keyword constant, a function, or a path.
    private mutating func parseWordOperand(_ word: String) throws(DrumlinError) -> Query.Expression {
        let token = current
        let next = peek(1)
        if let quantifier = quantifier(token), case .argument = next.kind {
            // `IN ANY $0`: the argument's list, walked by the quantifier (`ANY {$0}`).
            advance()
            guard let argument = try parseConstant() else { throw unexpected(expecting: "an argument") }
            return Query.Expression(.list([argument], quantifier: quantifier),
                                    range: Query.SourceRange(start: token.range.start, end: previousEnd))
        }
        if let quantifier = quantifier(token), startsPathOrList(next) {
            advance()
            if current.isSymbol(.leftBrace) { return try parseList(quantifier: quantifier, start: token.range.start) }
            return try parsePathExpression(quantifier: quantifier, start: token.range.start)
        }
        if let constant = try parseConstant() { return constant }
        if next.isSymbol(.leftParen) {
            if token.isKeyword("subquery") { return try parseSubquery() }
            if ["geobox", "geocircle", "geopolygon"].contains(where: token.isKeyword) {
                throw error("\(word)(…) can only be used after GEOWITHIN", at: token.range.start)
            }
            if ["sort", "distinct", "limit"].contains(where: token.isKeyword) {
                throw unexpected(expecting: "a value")
            }
            throw error("unknown function '\(word)'", at: token.range.start)
        }
        return try parsePathExpression(quantifier: nil, start: token.range.start)
    }

    private func quantifier(_ token: QueryToken) -> Query.Quantifier? {
        if token.isTwoSpellingKeyword("any") || token.isTwoSpellingKeyword("some") { return .anyElement }
        if token.isTwoSpellingKeyword("all") { return .allElements }
        if token.isTwoSpellingKeyword("none") { return .noElement }
        return nil
    }

    private func startsPathOrList(_ token: QueryToken) -> Bool {
        switch token.kind {
        case .word, .keyPathArgument: true
        case .atWord(let word): word == "@links"
        case .symbol(.leftBrace): true
        default: false
        }
    }

    // MARK: - Constants

    /// A constant at the current token (literal, keyword constant, `O<key>`, `bin(…)`, `obj(…)`,
    /// signed number) or an argument; nil, consuming nothing, if the token starts none.
    mutating func parseConstant() throws(DrumlinError) -> Query.Expression? {
        let token = current
        let value: Value
        switch token.kind {
        case .number(let literal):
            return try parseNumber(literal, negative: false, start: token.range.start)
        case .symbol(.minus), .symbol(.plus):
            return try parseSignedNumber()
        case .string(let string): value = .string(string)
        case .base64(let data): value = .data(data)
        case .timestamp(let timestamp): value = .date(timestamp)
        case .objectId(let id): value = .objectId(id)
        case .uuid(let uuid): value = .uuid(uuid)
        case .typedLink(let table, let key): value = .link(ObjectLink(classIndex: table, key: key))
        case .argument(let index):
            advance()
            return Query.Expression(.argument(index), range: token.range)
        case .word(let word):
            return try parseConstantWord(word)
        default:
            return nil
        }
        advance()
        return Query.Expression(.constant(value, literal: rawText(token)), range: token.range)
    }

    private mutating func parseConstantWord(_ word: String) throws(DrumlinError) -> Query.Expression? {
        let token = current
        let next = peek(1)
        if next.isSymbol(.leftParen) {
            if token.isKeyword("bin") || token.isKeyword("binary") { return try parseBinary() }
            if token.isKeyword("obj") { return try parseObjectReference() }
            return nil
        }
        // A keyword followed by `.` or `[` is the start of a path (`null.x` names a property).
        if next.isSymbol(.dot) || next.isSymbol(.leftBracket) { return nil }
        let value: Value
        if token.isTwoSpellingKeyword("true") {
            value = .bool(true)
        } else if token.isTwoSpellingKeyword("false") {
            value = .bool(false)
        } else if token.isKeyword("null") || token.isKeyword("nil") {
            value = .null
        } else if let special = specialDouble(token) {
            value = .double(special)
        } else if let key = objectKey(word) {
            advance()
            return Query.Expression(.objectKey(key), range: token.range)
        } else {
            return nil
        }
        advance()
        return Query.Expression(.constant(value, literal: rawText(token)), range: token.range)
    }

    func specialDouble(_ token: QueryToken) -> Double? {
        if token.isKeyword("inf") || token.isKeyword("infinity") { return .infinity }
        if token.isKeyword("nan") { return .nan }
        return nil
    }

    /// `O<digits>` is an object key, as in Realm (so such a name cannot start a path).
    private func objectKey(_ word: String) -> Int64? {
        let utf8 = word.utf8
        guard utf8.count > 1, utf8.first == UInt8(ascii: "O"),
              utf8.dropFirst().allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int64(word.dropFirst())
    }

    private mutating func parseNumber(_ literal: QueryToken.NumberLiteral, negative: Bool,
                                      start: Int) throws(DrumlinError) -> Query.Expression {
        let token = current
        switch QueryLiterals.numberValue(literal, negative: negative) {
        case .success(let value):
            advance()
            let range = Query.SourceRange(start: start, end: token.range.end)
            return Query.Expression(.constant(value, literal: (negative ? "-" : "") + literal.text), range: range)
        case .failure(let failure):
            throw error(failure.message, at: start)
        }
    }

    /// `-5`, `+.5`, `-inf`, `-nan`: a sign is only allowed directly before a number.
    private mutating func parseSignedNumber() throws(DrumlinError) -> Query.Expression {
        let sign = current
        let negative = sign.isSymbol(.minus)
        advance()
        let token = current
        if case .number(let literal) = token.kind {
            return try parseNumber(literal, negative: negative, start: sign.range.start)
        }
        if let special = specialDouble(token) {
            advance()
            let range = Query.SourceRange(start: sign.range.start, end: token.range.end)
            return Query.Expression(.constant(.double(negative ? -special : special),
                                              literal: (negative ? "-" : "") + rawText(token)), range: range)
        }
        throw unexpected(expecting: "a number after '\(rawText(sign))'")
    }

    /// `bin('text')`, `binary(B64"…")`: bytes; a string contributes its UTF-8.
    private mutating func parseBinary() throws(DrumlinError) -> Query.Expression {
        let start = current.range.start
        advance()
        advance()  // "("
        let bytes: [UInt8]
        switch current.kind {
        case .string(let string): bytes = Array(string.utf8)
        case .base64(let data): bytes = data
        default: throw unexpected(expecting: "a string or B64\"…\" inside bin(…)")
        }
        advance()
        try expect(.rightParen, expecting: "')'")
        let range = Query.SourceRange(start: start, end: previousEnd)
        return Query.Expression(.constant(.data(bytes), literal: rawText(range)), range: range)
    }

    /// `obj('Class', primaryKey)`.
    private mutating func parseObjectReference() throws(DrumlinError) -> Query.Expression {
        let start = current.range.start
        advance()
        advance()  // "("
        guard case .string(let className) = current.kind else {
            throw unexpected(expecting: "a class name string in obj(…)")
        }
        advance()
        try expect(.comma, expecting: "',' and the primary key in obj(…)")
        let keyToken = current
        if case .argument(let index) = keyToken.kind {
            advance()
            try expect(.rightParen, expecting: "')'")
            return Query.Expression(.objectArgumentReference(className: className, argument: index),
                                    range: Query.SourceRange(start: start, end: previousEnd))
        }
        // A nested obj(…) is never a primary key; refusing it early also bounds the recursion.
        guard !(keyToken.isKeyword("obj") && peek(1).isSymbol(.leftParen)),
              let key = try parseConstant(), case .constant(let value, _) = key.kind else {
            throw error("expecting a primary key value in obj(…)", at: keyToken.range.start)
        }
        try expect(.rightParen, expecting: "')'")
        return Query.Expression(.objectReference(className: className, primaryKey: value),
                                range: Query.SourceRange(start: start, end: previousEnd))
    }

    private func rawText(_ range: Query.SourceRange) -> String {
        rawText(QueryToken(kind: .end, range: range))
    }

    // MARK: - Lists

    /// `{a, b}` with constants or arguments as elements; `start` includes a quantifier.
    mutating func parseList(quantifier: Query.Quantifier?, start: Int) throws(DrumlinError) -> Query.Expression {
        advance()  // "{"
        var elements: [Query.Expression] = []
        if current.isSymbol(.rightBrace) {
            advance()
        } else {
            while true {
                guard let element = try parseConstant() else {
                    throw unexpected(expecting: "a constant or argument in the list")
                }
                elements.append(element)
                if current.isSymbol(.comma) {
                    advance()
                } else {
                    try expect(.rightBrace, expecting: "',' or '}'")
                    break
                }
            }
        }
        return Query.Expression(.list(elements, quantifier: quantifier),
                                range: Query.SourceRange(start: start, end: previousEnd))
    }

    // MARK: - Paths

    private mutating func parsePathExpression(quantifier: Query.Quantifier?,
                                              start: Int) throws(DrumlinError) -> Query.Expression {
        let (path, terminal) = try parseKeyPathWithTerminal(allowOperators: true, context: "")
        let range = Query.SourceRange(start: start, end: previousEnd)
        switch terminal {
        case nil: return Query.Expression(.keyPath(path, quantifier: quantifier), range: range)
        case .count: return Query.Expression(.aggregate(path, .count, property: nil, quantifier: quantifier), range: range)
        case .type: return Query.Expression(.typeOf(path, quantifier: quantifier), range: range)
        case .aggregate(let op, let property):
            return Query.Expression(.aggregate(path, op, property: property, quantifier: quantifier), range: range)
        }
    }

    /// A path without collection operators, for SORT, DISTINCT and SUBQUERY.
    mutating func parseKeyPath(context: String) throws(DrumlinError) -> Query.KeyPath {
        try parseKeyPathWithTerminal(allowOperators: false, context: context).path
    }

    private mutating func parseKeyPathWithTerminal(allowOperators: Bool, context: String)
        throws(DrumlinError) -> (path: Query.KeyPath, terminal: PathTerminal?) {
        let start = current.range.start
        var components: [Query.PathComponent] = []
        var terminal: PathTerminal?
        let first = current
        switch first.kind {
        case .word(let word) where word.hasPrefix("$"):
            let name = String(word.dropFirst())
            guard variables.contains(name) else {
                throw error("unknown subquery variable '\(word)'", at: first.range.start)
            }
            advance()
            components.append(Query.PathComponent(.variable(name), range: first.range))
        case .word(let word):
            advance()
            components.append(Query.PathComponent(.property(word), range: first.range))
        case .keyPathArgument(let index):
            advance()
            components.append(Query.PathComponent(.keyPathArgument(index), range: first.range))
        case .atWord("@links"):
            terminal = try parseBacklinks(into: &components, allowOperators: allowOperators, context: context)
        default:
            throw unexpected(expecting: "a property name")
        }

        while terminal == nil {
            if current.isSymbol(.dot) {
                advance()
                terminal = try parseComponentAfterDot(into: &components, allowOperators: allowOperators, context: context)
            } else if current.isSymbol(.leftBracket) {
                terminal = try parseSubscript(into: &components, allowOperators: allowOperators, context: context)
            } else {
                break
            }
        }
        // The path's range stops at its last component, before any `.@count`-style operator.
        let end = components.last?.range.end ?? previousEnd
        return (Query.KeyPath(components, range: Query.SourceRange(start: start, end: end)), terminal)
    }

    private mutating func parseComponentAfterDot(into components: inout [Query.PathComponent], allowOperators: Bool,
                                                 context: String) throws(DrumlinError) -> PathTerminal? {
        let token = current
        switch token.kind {
        case .word(let word):
            advance()
            components.append(Query.PathComponent(.property(word), range: token.range))
            return nil
        case .atWord(let word):
            switch word {
            case "@links": return try parseBacklinks(into: &components, allowOperators: allowOperators, context: context)
            case "@keys", "@values":
                advance()
                components.append(Query.PathComponent(word == "@keys" ? .keys : .values, range: token.range))
                return nil
            case "@count", "@size", "@type", "@sum", "@avg", "@min", "@max":
                guard allowOperators else { throw error("'\(word)' cannot be used in \(context)", at: token.range.start) }
                advance()
                switch word {
                case "@count", "@size": return .count
                case "@type": return .type
                default: break
                }
                let op = Query.AggregateOperator(rawValue: word)!
                var property: String?
                if current.isSymbol(.dot) {
                    advance()
                    guard case .word(let name) = current.kind else {
                        throw unexpected(expecting: "a property name after '\(word).'")
                    }
                    advance()
                    property = name
                }
                return .aggregate(op, property: property)
            default:
                throw error("unknown operator '\(word)', expecting @count, @size, @sum, @avg, @min, @max, @type, "
                    + "@keys, @values or @links", at: token.range.start)
            }
        default:
            throw unexpected(expecting: "a property name after '.'")
        }
    }

    /// `@links.Class.property` or `@links.@count`, with `@links` current.
    private mutating func parseBacklinks(into components: inout [Query.PathComponent], allowOperators: Bool,
                                         context: String) throws(DrumlinError) -> PathTerminal? {
        let links = current
        advance()
        try expect(.dot, expecting: "'.' after '@links'")
        let token = current
        switch token.kind {
        case .atWord("@count"), .atWord("@size"):
            guard allowOperators else { throw error("'\(rawText(token))' cannot be used in \(context)", at: token.range.start) }
            advance()
            components.append(Query.PathComponent(.allBacklinks, range: links.range))
            return .count
        case .word(let className):
            advance()
            try expect(.dot, expecting: "'.' and a property name after '@links.\(className)'")
            guard case .word(let property) = current.kind else {
                throw unexpected(expecting: "a property name after '@links.\(className).'")
            }
            advance()
            components.append(Query.PathComponent(.backlinks(className: className, property: property),
                                                  range: Query.SourceRange(start: links.range.start, end: previousEnd)))
            return nil
        default:
            throw unexpected(expecting: "a class name or '@count' after '@links.'")
        }
    }

    /// `[3]`, `[FIRST]`, `[LAST]`, `[SIZE]`, `[*]`, `['key']`, `[$0]`, with `[` current.
    private mutating func parseSubscript(into components: inout [Query.PathComponent], allowOperators: Bool,
                                         context: String) throws(DrumlinError) -> PathTerminal? {
        let open = current
        advance()
        let token = current
        var kind: Query.PathComponent.Kind?
        switch token.kind {
        case .number(let literal) where literal.form == .integer:
            guard let position = Int(literal.text) else { throw error("index is too large", at: token.range.start) }
            kind = .index(position)
        case .word:
            if token.isTwoSpellingKeyword("first") {
                kind = .first
            } else if token.isTwoSpellingKeyword("last") {
                kind = .last
            } else if token.isTwoSpellingKeyword("size") {
                guard allowOperators else { throw error("'[SIZE]' cannot be used in \(context)", at: open.range.start) }
                kind = nil
            } else {
                throw unexpected(expecting: "an index, FIRST, LAST, SIZE, '*', a string key or an argument")
            }
        case .symbol(.star): kind = .all
        case .string(let key): kind = .key(key)
        case .argument(let index): kind = .argument(index)
        default:
            throw unexpected(expecting: "an index, FIRST, LAST, SIZE, '*', a string key or an argument")
        }
        advance()
        try expect(.rightBracket, expecting: "']'")
        guard let kind else { return .count }
        components.append(Query.PathComponent(kind, range: Query.SourceRange(start: open.range.start, end: previousEnd)))
        return nil
    }

    // MARK: - SUBQUERY

    /// `SUBQUERY(collection, $x, predicate).@count`, with `SUBQUERY` current.
    private mutating func parseSubquery() throws(DrumlinError) -> Query.Expression {
        let start = current.range.start
        advance()
        advance()  // "("
        let collection = try parseKeyPath(context: "a SUBQUERY collection")
        try expect(.comma, expecting: "',' and a variable name such as '$x'")
        let variableToken = current
        guard case .word(let word) = variableToken.kind, word.hasPrefix("$") else {
            throw unexpected(expecting: "a variable name such as '$x'")
        }
        let variable = String(word.dropFirst())
        guard !variables.contains(variable) else {
            throw error("variable '\(word)' is already used by an enclosing SUBQUERY", at: variableToken.range.start)
        }
        advance()
        try expect(.comma, expecting: "',' and the SUBQUERY predicate")
        guard subqueryDepth < Self.maximumSubqueryDepth else {
            throw error("SUBQUERY nested more than \(Self.maximumSubqueryDepth) levels deep", at: start)
        }
        try enterNesting(at: start)
        subqueryDepth += 1
        variables.append(variable)
        let predicate = try parseOr()
        variables.removeLast()
        subqueryDepth -= 1
        depth -= 1
        try expect(.rightParen, expecting: "'&&', '||' or ')'")
        guard current.isSymbol(.dot), case .atWord(let op) = peek(1).kind, op == "@count" || op == "@size" else {
            throw error("SUBQUERY(…) must be followed by '.@count' or '.@size'", at: current.range.start)
        }
        advance()
        advance()
        return Query.Expression(.subquery(collection: collection, variable: variable, predicate: predicate),
                                range: Query.SourceRange(start: start, end: previousEnd))
    }
}
