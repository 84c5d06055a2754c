import Testing
@testable import DrumlinEngine
@testable import DrumlinSchema
@testable import DrumlinStorage
@testable import DrumlinValues

/// Malformed queries fail with `DrumlinError(.query, …)` in Realm's wording, saying what was
/// found and what was expected, with the 1-based character position of the problem.
@Suite struct QueryParserErrorTests {
    @Test("syntax errors name what was found, what was expected and where", arguments: [
        ("age >", "unexpected end of input, expecting a value at position 6"),
        ("", "unexpected end of input, expecting a predicate at position 1"),
        ("   ", "unexpected end of input, expecting a predicate at position 4"),
        ("age", "unexpected end of input, expecting a comparison operator at position 4"),
        ("age 5", "unexpected number '5', expecting a comparison operator at position 5"),
        ("age == 1 name == 2",
         "unexpected identifier 'name', expecting '&&', '||', SORT, DISTINCT, LIMIT or end of input at position 10"),
        ("(age == 1", "unexpected end of input, expecting '&&', '||' or ')' at position 10"),
        ("age == 1)", "unexpected ')', expecting '&&', '||', SORT, DISTINCT, LIMIT or end of input at position 9"),
        ("age == (1 + 2", "unexpected end of input, expecting an operator or ')' at position 14"),
        ("age === 1", "unexpected '=', expecting a value at position 7"),
        ("a == 1 ||", "unexpected end of input, expecting a predicate at position 10"),
        ("NOT", "unexpected end of input, expecting a predicate at position 4"),
        ("a == 1 && )", "unexpected ')', expecting a predicate at position 11"),
        ("x ==[c]", "unexpected end of input, expecting a value at position 8"),
        ("x == 'a' [c]", "unexpected '[c]', expecting '&&', '||', SORT, DISTINCT, LIMIT or end of input at position 10"),
        ("x == { 1, }", "unexpected '}', expecting a constant or argument in the list at position 11"),
        ("x IN {a}", "unexpected identifier 'a', expecting a constant or argument in the list at position 7"),
        ("x == -y", "unexpected identifier 'y', expecting a number after '-' at position 7"),
        ("a.", "unexpected end of input, expecting a property name after '.' at position 3"),
        ("a..b == 1", "unexpected '.', expecting a property name after '.' at position 3"),
        ("list[foo] == 1",
         "unexpected identifier 'foo', expecting an index, FIRST, LAST, SIZE, '*', a string key or an argument at position 6"),
        ("list[1 == 1", "unexpected '==', expecting ']' at position 8"),
        ("'é' == 'é' &&", "unexpected end of input, expecting a predicate at position 14"),
    ])
    func syntaxErrors(_ text: String, _ detail: String) {
        #expect(QueryTestSupport.errorMessage(text) == "Invalid predicate: '\(text)': syntax error, \(detail)")
    }

    @Test("operator rules: [c], BETWEEN, GEOWITHIN, SUBQUERY, functions", arguments: [
        ("x <[c] 1", "'[c]' cannot be used with '<' at position 4"),
        ("t TEXT[c] 'a'", "'[c]' cannot be used with 'TEXT' at position 7"),
        ("x BETWEEN {1}", "BETWEEN needs exactly two values {low, high}, found 1 at position 11"),
        ("x BETWEEN {1, 2, 3}", "BETWEEN needs exactly two values {low, high}, found 3 at position 11"),
        ("x BETWEEN 1", "unexpected number '1', expecting '{' and two values after BETWEEN, e.g. BETWEEN {1, 10} at position 11"),
        ("1 GEOWITHIN $0", "GEOWITHIN must follow a property at position 1"),
        ("loc GEOWITHIN geoBox([1, 2])", "unexpected ')', expecting ',' and the north-east corner at position 28"),
        ("loc GEOWITHIN geoSquare([1,2])",
         "unexpected identifier 'geoSquare', expecting geoBox(…), geoCircle(…), geoPolygon(…) or an argument after GEOWITHIN at position 15"),
        ("loc GEOWITHIN geoCircle([1, 2], 'x')", "unexpected string 'x', expecting a number or an argument at position 33"),
        ("loc GEOWITHIN geoPolygon({})", "unexpected '}', expecting '[' starting a point [longitude, latitude] at position 27"),
        ("x == geoBox([1,2],[3,4])", "geoBox(…) can only be used after GEOWITHIN at position 6"),
        ("x == foo(1)", "unknown function 'foo' at position 6"),
        ("SUBQUERY(items, x, x.a == 1).@count > 0", "unexpected identifier 'x', expecting a variable name such as '$x' at position 17"),
        ("SUBQUERY(items, $x, $x.a == 1) > 0", "SUBQUERY(…) must be followed by '.@count' or '.@size' at position 32"),
        ("SUBQUERY(items.@count, $x, $x.a == 1).@count > 0", "'@count' cannot be used in a SUBQUERY collection at position 16"),
        ("$y.a == 1", "unknown subquery variable '$y' at position 1"),
        ("SUBQUERY(items, $x, SUBQUERY($x.kids, $x, $x.a == 1).@count > 0).@count > 0",
         "variable '$x' is already used by an enclosing SUBQUERY at position 39"),
        ("SUBQUERY(items, $x, $y.a == 1).@count > 0", "unknown subquery variable '$y' at position 21"),
        ("items.@foo > 1",
         "unknown operator '@foo', expecting @count, @size, @sum, @avg, @min, @max, @type, @keys, @values or @links at position 7"),
        ("items.@count.x > 1", "unexpected '.', expecting a comparison operator at position 13"),
        ("a.@links.Person == 1", "unexpected '==', expecting '.' and a property name after '@links.Person' at position 17"),
        ("@links.@sum > 1", "unexpected '@sum', expecting a class name or '@count' after '@links.' at position 8"),
        ("x == obj('A')", "unexpected ')', expecting ',' and the primary key in obj(…) at position 13"),
        ("x == obj('A', obj('B', 1))", "expecting a primary key value in obj(…) at position 15"),
        ("x == bin(5)", "unexpected number '5', expecting a string or B64\"…\" inside bin(…) at position 10"),
    ])
    func operatorRules(_ text: String, _ detail: String) {
        #expect(QueryTestSupport.errorMessage(text) == "Invalid predicate: '\(text)': syntax error, \(detail)")
    }

    @Test("SORT, DISTINCT and LIMIT errors", arguments: [
        ("SORT(a ASC)",
         "unexpected identifier 'SORT', a predicate must come before SORT, DISTINCT and LIMIT (e.g. 'TRUEPREDICATE SORT(…)') at position 1"),
        ("limit(5)",
         "unexpected identifier 'limit', a predicate must come before SORT, DISTINCT and LIMIT (e.g. 'TRUEPREDICATE LIMIT(…)') at position 1"),
        ("a == 1 && SORT(a ASC)", "unexpected identifier 'SORT', expecting a predicate at position 11"),
        ("TRUEPREDICATE SORT(a)", "unexpected ')', expecting ASC or DESC after the sort property at position 21"),
        ("TRUEPREDICATE SORT(a ASC", "unexpected end of input, expecting ',' or ')' at position 25"),
        ("TRUEPREDICATE SORT(a.@count ASC)", "'@count' cannot be used in SORT at position 22"),
        ("TRUEPREDICATE LIMIT(-1)", "unexpected '-', expecting a non-negative integer in LIMIT at position 21"),
        ("TRUEPREDICATE LIMIT(1.5)", "unexpected number '1.5', expecting a non-negative integer in LIMIT at position 21"),
        ("TRUEPREDICATE LIMIT(99999999999999999999)", "LIMIT value is too large at position 21"),
        ("TRUEPREDICATE DISTINCT()", "unexpected ')', expecting a property name at position 24"),
        ("TRUEPREDICATE SORT(a ASC) && b == 1", "unexpected '&&', expecting SORT, DISTINCT, LIMIT or end of input at position 27"),
        ("a == 1 LIMIT(5) x", "unexpected identifier 'x', expecting SORT, DISTINCT, LIMIT or end of input at position 17"),
    ])
    func postfixErrors(_ text: String, _ detail: String) {
        #expect(QueryTestSupport.errorMessage(text) == "Invalid predicate: '\(text)': syntax error, \(detail)")
    }

    @Test("lexical errors point at the bad character or literal", arguments: [
        ("a & b", "invalid character '&' (use '&&' or 'AND') at position 3"),
        ("a | b", "invalid character '|' (use '||' or 'OR') at position 3"),
        ("x == #", "invalid character '#' at position 6"),
        ("x == 1 \u{1}", "invalid character U+0001 at position 8"),
        ("名前 == 'x' ;", "invalid character ';' at position 11"),
        ("name == 'abc", "unterminated string at position 9"),
        ("name == \"abc\\q\"", "invalid escape sequence '\\q' in a string at position 13"),
        ("s == '\\u12'", "invalid escape sequence '\\u': expecting four hex digits at position 7"),
        ("s == '\\uD800'", "invalid escape sequence '\\uD800': a surrogate must be a high/low pair at position 7"),
        ("s == '\\uDC00\\uD800'", "invalid escape sequence '\\uDC00': a surrogate must be a high/low pair at position 7"),
        ("fav\\xitem == 1", "invalid escape '\\x' in a name; only '\\ ', '\\n', '\\r' and '\\t' are allowed at position 4"),
        ("x == $", "'$' must be followed by an argument number ($0) or a variable name ($x) at position 6"),
        ("x == @", "'@' must be followed by an operator such as '@count' or '@links' at position 6"),
        ("x == $99999999999999999999", "argument number '99999999999999999999' is too large at position 6"),
        ("x == 5abc", "invalid number '5abc' at position 6"),
        ("x == 0xFFFFFFFFFFFFFFFFF", "integer '0xFFFFFFFFFFFFFFFFF' does not fit in 64 bits at position 6"),
        ("x == 0x8000000000000000", "integer '0x8000000000000000' does not fit in 64 bits at position 6"),
        ("x == 1e50f", "number '1e50f' is too large for a float at position 6"),
        ("x == oid(123)", "invalid ObjectId '123' at position 6"),
        ("x == oid(65f1c0ffee0000000000abcd", "missing ')' after ObjectId at position 6"),
        ("x == uuid(abc)", "invalid UUID 'abc' at position 6"),
        ("x == B64\"###\"", "invalid base64 in B64\"###\" at position 6"),
        ("x == B64\"aGk=", "unterminated B64\"…\" literal at position 6"),
        ("x == T1:-5", "invalid timestamp 'T1:-5': seconds and nanoseconds must have the same sign at position 6"),
        ("x == T1:1000000000", "invalid timestamp 'T1:1000000000': nanoseconds must be below 1000000000 at position 6"),
        ("x == T1:", "invalid timestamp 'T1:': expecting T<seconds>:<nanoseconds> at position 6"),
        ("x == L1:", "invalid typed link 'L1:': expecting L<table>:<key> at position 6"),
        ("x == 1899-12-31@23:59:59",
         "invalid timestamp '1899-12-31@23:59:59': dates before 1900 must be written as T<seconds>:<nanoseconds> at position 6"),
        ("x == 2023-02-29@00:00:00", "invalid timestamp '2023-02-29@00:00:00': day out of range at position 6"),
        ("x == 2024-13-01@00:00:00", "invalid timestamp '2024-13-01@00:00:00': month out of range at position 6"),
        ("x == 2024-01-01@24:00:00", "invalid timestamp '2024-01-01@24:00:00': time out of range at position 6"),
        ("x == 2024-01-01@00:00:00:1234567890", "invalid timestamp '2024-01-01@00:00:00:1234567890' at position 6"),
        ("a == 1 && b == 'x' && c == #", "invalid character '#' at position 28"),
        ("d > 2024-01-31", "invalid timestamp '2024-01-31': a date needs a time, e.g. 2024-01-31@00:00:00 "
            + "(write subtraction with spaces) at position 5"),
    ])
    func lexicalErrors(_ text: String, _ detail: String) {
        #expect(QueryTestSupport.errorMessage(text) == "Invalid predicate: '\(text)': syntax error, \(detail)")
    }

    @Test("an earlier syntax error wins over a later unreadable character")
    func earliestErrorWins() {
        #expect(QueryTestSupport.errorMessage("a == == 1 #")
            == "Invalid predicate: 'a == == 1 #': syntax error, unexpected '==', expecting a value at position 6")
    }

    @Test("errors are DrumlinError with code .query")
    func errorType() {
        #expect(throws: DrumlinError(.query, "Invalid predicate: 'age >': syntax error, unexpected end of input, "
            + "expecting a value at position 6")) {
            try QueryParser.parse("age >")
        }
    }

    // MARK: - Nesting limits

    private static let tooDeep = "query nested too deeply (more than 200 levels of parentheses, NOT, SUBQUERY or arithmetic)"

    @Test("the canonical form of a query nested 100 deep parses back", arguments: [
        "(", "!(", "NOT ", "!", "1 + ",
    ])
    func canonicalFormWithinLimit(_ open: String) {
        let close = open == "(" || open == "!(" ? ")" : ""
        let text = open == "1 + " ? String(repeating: open, count: 100) + "1 == a"
            : String(repeating: open, count: 100) + "a == 1" + String(repeating: close, count: 100)
        #expect(!QueryTestSupport.canonical(text).hasPrefix("ERROR"))
    }

    @Test("200 levels of nesting parse, 201 do not", arguments: [
        ("(", "a == 1", ")", 1), ("!(", "a == 1", ")", 2), ("NOT ", "a == 1", "", 4), ("!", "a == 1", "", 1),
    ])
    func nestingLimit(_ open: String, _ inner: String, _ close: String, _ width: Int) {
        let ok = String(repeating: open, count: 200 / (open == "!(" ? 2 : 1)) + inner
            + String(repeating: close, count: 200 / (open == "!(" ? 2 : 1))
        #expect((try? QueryParser.parse(ok)) != nil)
        let count = open == "!(" ? 101 : 201
        let bad = String(repeating: open, count: count) + inner + String(repeating: close, count: count)
        let position = open == "!(" ? 201 : 200 * width + 1
        #expect(QueryTestSupport.errorMessage(bad)
            == "Invalid predicate: '\(bad)': syntax error, \(Self.tooDeep) at position \(position)")
    }

    @Test("arithmetic chains and parenthesized expressions count towards the limit")
    func arithmeticNesting() {
        let ok = String(repeating: "1 + ", count: 200) + "1 == a"
        #expect((try? QueryParser.parse(ok)) != nil)
        let bad = String(repeating: "1 + ", count: 201) + "1 == a"
        #expect(QueryTestSupport.errorMessage(bad)
            == "Invalid predicate: '\(bad)': syntax error, \(Self.tooDeep) at position \(200 * 4 + 3)")
        let parens = "a == " + String(repeating: "(", count: 201) + "1" + String(repeating: ")", count: 201)
        #expect(QueryTestSupport.errorMessage(parens)
            == "Invalid predicate: '\(parens)': syntax error, \(Self.tooDeep) at position 206")
    }

    @Test("SUBQUERY nests up to 20 levels")
    func subqueryNesting() {
        func nested(_ depth: Int) -> String {
            (0..<depth).map { "SUBQUERY(items, $x\($0), " }.joined() + "a == 1"
                + String(repeating: ").@count > 0", count: depth)
        }
        #expect(!QueryTestSupport.canonical(nested(20)).hasPrefix("ERROR"))
        let bad = nested(21)
        let position = nested(20).prefix { $0 != "a" }.unicodeScalars.count + 1
        #expect(QueryTestSupport.errorMessage(bad)
            == "Invalid predicate: '\(bad)': syntax error, SUBQUERY nested more than 20 levels deep at position \(position)")
    }

    @Test("positions count characters, not bytes")
    func positionsCountCharacters() {
        #expect(QueryTestSupport.errorMessage("名前 == 'é' 😀")
            == "Invalid predicate: '名前 == 'é' 😀': syntax error, unexpected identifier '😀', "
            + "expecting '&&', '||', SORT, DISTINCT, LIMIT or end of input at position 11")
        #expect(QueryTestSupport.errorMessage("a == 1 &&\n  b ==")
            == "Invalid predicate: 'a == 1 &&\n  b ==': syntax error, unexpected end of input, expecting a value at position 17")
    }
}
