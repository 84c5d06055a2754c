import Testing
@testable import DrumlinEngine
@testable import DrumlinSchema
@testable import DrumlinStorage
@testable import DrumlinValues

/// Deterministic fuzzing of `QueryParser.parse`: every input must either parse (and then its
/// canonical description must parse back to itself, with every range inside the text) or throw
/// a `.query` error in Realm's format with a position inside the text. A crash, a hang or a
/// stack overflow fails the whole test run.
///
/// 113,000 inputs in five tests that run in parallel: 12,000 random queries generated from the
/// grammar (all must parse), 44,000 mutations of a corpus of valid queries, 30,000 random token
/// sequences, 20,000 random query-alphabet strings, 7,000 random byte strings (invalid UTF-8
/// included), and a few hostile nesting cases.
@Suite struct QueryFuzzTests {
    static let generatedCount = 12_000
    static let mutationCount = 44_000
    static let tokenSequenceCount = 30_000
    static let randomTextCount = 20_000
    static let randomByteCount = 7_000

    @Test func totalIsAtLeastOneHundredThousand() {
        #expect(Self.generatedCount + Self.mutationCount + Self.tokenSequenceCount + Self.randomTextCount + Self.randomByteCount >= 100_000)
    }

    @Test func corpusParses() {
        for query in Self.corpus {
            _ = QueryTestSupport.canonical(query)
        }
        #expect(Self.corpus.count >= 50)
    }

    @Test func generatedQueriesParseAndReparse() {
        var generator = QueryFuzzGenerator(seed: 2024)
        var checker = FuzzChecker()
        for _ in 0..<Self.generatedCount {
            checker.check(generator.query(), mustParse: true)
        }
        checker.finish(expectingSomeParsed: true)
    }

    @Test func mutatedQueriesParseOrFailCleanly() {
        var random = QueryFuzzRandom(seed: 0xC0FFEE)
        var checker = FuzzChecker()
        let corpus = Self.corpus.map { Array($0.utf8) }
        for _ in 0..<Self.mutationCount {
            var bytes = corpus[random.below(corpus.count)]
            for _ in 0..<(1 + random.below(4)) {
                mutate(&bytes, corpus: corpus, random: &random)
            }
            checker.check(String(decoding: bytes, as: UTF8.self))
        }
        checker.finish(expectingSomeParsed: true)
    }

    @Test func randomTokenSequencesParseOrFailCleanly() {
        var random = QueryFuzzRandom(seed: 42)
        var checker = FuzzChecker()
        for _ in 0..<Self.tokenSequenceCount {
            let count = random.below(30)
            var text = ""
            for _ in 0..<count {
                text += Self.tokens[random.below(Self.tokens.count)]
                if random.below(3) != 0 { text += " " }
            }
            checker.check(text)
        }
        checker.finish(expectingSomeParsed: true)
    }

    @Test func randomTextAndBytesParseOrFailCleanly() {
        var random = QueryFuzzRandom(seed: 7)
        var checker = FuzzChecker()
        let alphabet = Array("abcxyzAZ_$@.019eEfxT:-+*/=!<>&|()[]{},'\"\\ \t\nK".utf8) + [0xC3, 0xA9, 0xFF]
        for _ in 0..<Self.randomTextCount {
            let bytes = (0..<random.below(201)).map { _ in alphabet[random.below(alphabet.count)] }
            checker.check(String(decoding: bytes, as: UTF8.self))
        }
        for _ in 0..<Self.randomByteCount {
            let bytes = (0..<random.below(101)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            checker.check(String(decoding: bytes, as: UTF8.self))
        }
        checker.finish(expectingSomeParsed: false)
    }

    @Test("deep nesting gives an error, not a stack overflow")
    func hostileNesting() {
        var checker = FuzzChecker()
        let depth = 10_000
        let open = String(repeating: "(", count: depth), close = String(repeating: ")", count: depth)
        let cases = [
            open + "a == 1" + close,
            String(repeating: "!", count: depth) + "a == 1",
            String(repeating: "NOT ", count: depth) + "a == 1",
            "a == " + open + "1" + close,
            open + "a" + close + " == 1",
            String(repeating: "SUBQUERY(items, $x, ", count: depth),
            (0..<depth).map { "SUBQUERY(items, $x\($0), " }.joined(),
            (0..<100).map { "SUBQUERY(items, $x\($0), " }.joined() + "a == 1" + String(repeating: ").@count == 1", count: 100),
            String(repeating: "a == obj('A', ", count: 1) + String(repeating: "obj('A', ", count: depth),
            String(repeating: "a == 1 && ", count: depth) + "b == 2",
            String(repeating: "a + ", count: depth) + "1 == 2",
            String(repeating: "x.", count: depth) + "y == 1",
            open,
            String(repeating: "{", count: depth),
        ]
        for text in cases { checker.check(text) }
        checker.finish(expectingSomeParsed: true)
    }

    // MARK: - Mutation

    private func mutate(_ bytes: inout [UInt8], corpus: [[UInt8]], random: inout QueryFuzzRandom) {
        let position = random.below(bytes.count + 1)
        switch random.below(7) {
        case 0:  // insert a query-ish byte
            let alphabet = Array("()[]{}.,'\"\\$@!=<>&|+-*/:0123456789aeTxK ".utf8)
            bytes.insert(alphabet[random.below(alphabet.count)], at: position)
        case 1:  // delete a short run
            let end = min(bytes.count, position + 1 + random.below(5))
            bytes.removeSubrange(position..<end)
        case 2:  // replace a byte with anything
            if position < bytes.count { bytes[position] = UInt8(truncatingIfNeeded: random.next()) }
        case 3, 4:  // insert a token
            bytes.insert(contentsOf: Array(Self.tokens[random.below(Self.tokens.count)].utf8), at: position)
        case 5:  // duplicate a slice
            let end = min(bytes.count, position + random.below(12))
            bytes.insert(contentsOf: Array(bytes[position..<end]), at: position)
        default:  // splice with another query
            let other = corpus[random.below(corpus.count)]
            bytes = Array(bytes[0..<position]) + Array(other[random.below(other.count + 1)...])
        }
    }

    // MARK: - Inputs

    static let corpus: [String] = [
        "age > 5", "age >= $0 && name BEGINSWITH[c] 'a'", "!(a == 1) || b != 2 AND c <> 3",
        "NOT a =< 5 or b => 6", "(a + 1) * 2 >= $0 - 3 / b", "((a == 1))", "TRUEPREDICATE", "falsepredicate",
        "name ENDSWITH 'x' && name CONTAINS[c] \"y\" && name LIKE 'a?b*'", "body TEXT 'cat dog* -bird'",
        "age BETWEEN {18, 65}", "ALL scores BETWEEN {$0, $1}", "x IN {1, 2, 3}", "x IN $0",
        "'MiLk' IN[c] items.name", "ANY {1, 2} IN ALL items.price", "NONE items.price > 10",
        "SOME dogs.age < 2", "items.@count > 3", "items.@size == 0", "items[SIZE] == 2", "items.@sum.price > 5",
        "items.@avg.price < 2.5", "values.@min == 1 && values.@max == 9", "@links.Person.dogs.@count > 0",
        "@links.@count == 0", "dict['key'] == 'v' && dict.key == 'v' && dict[$0] == 1", "dict[*] == 3",
        "dict.@keys == 'a' && dict.@values > 1", "list[0] == 1 && list[FIRST] == 1 && list[LAST] == 2",
        "value[*][*] == 1", "list_any[2][1] == 'x'", "mixed.@type == 'int' || mixed.@type IN {'string', 'double'}",
        "SUBQUERY(items, $x, $x.price > 5 && $x.name == 'a').@count > 2",
        "SUBQUERY(kids, $k, SUBQUERY($k.toys, $t, $t.price > 1).@count > 0).@size == 1",
        "loc GEOWITHIN geoBox([1, 2], [3.5, -4])", "loc GEOWITHIN geoCircle([$0, $1], $2)",
        "loc GEOWITHIN geoPolygon({[0, 0], [1, 0], [1, 1], [0, 0]}, {[0.1, 0.1], [0.2, 0.1], [0.1, 0.1]})",
        "loc GEOWITHIN $0", "TRUEPREDICATE SORT(a ASC, b.c DESCENDING) DISTINCT(a, b) LIMIT(5) SORT(x desc)",
        "fav\\ item == 'x'", "d == T-1:-500000000 || d > 2024-03-18@13:50:58:5 || d < 2024-03-18T13:50:58",
        "o == oid(65f1c0ffee0000000000abcd) && u == uuid(3b241101-e2bb-4255-8caf-4136c566a962)",
        "b == B64\"aGVsbG8=\" || b == bin('hi') || b == binary(B64\"aGk=\")",
        "s == 'a\\u00e9\\n\\'x\\t\\\\\\/\\b\\f\\r\\0'", "x == -inf || y == NaN || z == 0x1F || w == 1e5 || v == 10. || q == -.034",
        "a == null AND b == NIL and c == true && d == FALSE", "link == O5 or t == L1:2 or p == obj('Person', 5)",
        "$K0 == 5 && $K1.name == 'x'", "a - 1 > 0 && a-1 > 0", "f == 2.5f && e == 1E-5", "nom == 'é' && 名前 == 'x'",
        "sort == 1 && distinct == 2 && limit == 3 && in == 4 && text == 5 SORT(sort ASC) LIMIT(0)",
        "mixed == obj('Item', 1) || mixed != $9 || mixed.name == 'd' || mixed.@type == 'objectlink' || ANY dict.price > 1",
    ]

    static let tokens: [String] = [
        "(", ")", "{", "}", "[", "]", ",", ".", "&&", "||", "!", "AND", "or", "NOT", "not", "==", "=", "!=", "<>",
        "<", "<=", "=<", ">", ">=", "=>", "+", "-", "*", "/", "[c]", "IN", "in", "BEGINSWITH", "endswith",
        "CONTAINS", "LIKE", "TEXT", "BETWEEN", "GEOWITHIN", "geoBox(", "geoCircle(", "geoPolygon(", "ANY", "some",
        "ALL", "NONE", "SUBQUERY(", "$x", "$x.", "$0", "$1", "$K0", "@count", "@size", "@sum", "@avg", "@min",
        "@max", "@type", "@links", "@keys", "@values", "@bogus", "[FIRST]", "[LAST]", "[SIZE]", "[*]", "['k']",
        "[0]", "[$0]", "TRUEPREDICATE", "FALSEPREDICATE", "SORT(", "DISTINCT(", "LIMIT(", "ASC", "DESC", "a", "b",
        "name", "items", "price", "1", "-1", "0x1F", "1.5", "10.", ".5", "1e5", "2.5f", "inf", "-nan", "'str'",
        "\"str\"", "'", "\"", "\\", "\\ ", "'\\u12'", "'\\uD800'", "B64\"aGk=\"", "B64\"@\"", "bin('x')", "binary(",
        "obj('A', 1)", "obj(", "oid(65f1c0ffee0000000000abcd)", "oid(zz)", "uuid(", "T1:2", "T1:-2", "T-",
        "2024-01-01@00:00:00", "1899-01-01@00:00:00", "2024-13-01T00:00:00", "O1", "L1:2", "L1:", "null", "nil",
        "true", "FALSE", "#", "é", "\u{0}", "99999999999999999999", "0xFFFFFFFFFFFFFFFFF", "$99999999999999999999",
    ]
}

/// Runs inputs through the parser and keeps score; reports the first few problems in full.
private struct FuzzChecker {
    var parsed = 0
    var failed = 0
    var problems = 0

    mutating func check(_ text: String, mustParse: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            let query = try QueryParser.parse(text)
            parsed += 1
            let description = query.description
            if !QueryTestSupport.rangesAreValid(query, byteCount: text.utf8.count) {
                report("ranges outside the text for \(debug(text))", sourceLocation)
            }
            do {
                let again = try QueryParser.parse(description).description
                if again != description {
                    report("\(debug(text)) prints as \(debug(description)), which prints as \(debug(again))", sourceLocation)
                }
            } catch {
                report("\(debug(text)) prints as \(debug(description)), which fails: \(error.message)", sourceLocation)
            }
        } catch {
            failed += 1
            if mustParse { report("\(debug(text)) did not parse: \(error.message)", sourceLocation) }
            let prefix = "Invalid predicate: '" + text + "': syntax error, "
            guard error.code == .query, error.message.hasPrefix(prefix),
                  let position = error.message.split(separator: " ").last.flatMap({ Int($0) }),
                  error.message.hasSuffix(" at position \(position)"),
                  position >= 1, position <= text.unicodeScalars.count + 1 else {
                report("bad error for \(debug(text)): \(error)", sourceLocation)
                return
            }
        }
    }

    func finish(expectingSomeParsed: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(problems == 0, "\(problems) problems", sourceLocation: sourceLocation)
        if expectingSomeParsed { #expect(parsed > 0, sourceLocation: sourceLocation) }
        print("query fuzz: \(parsed) parsed, \(failed) rejected")
    }

    private mutating func report(_ message: String, _ sourceLocation: SourceLocation) {
        problems += 1
        if problems <= 10 { Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation) }
    }

    private func debug(_ text: String) -> String {
        "\"" + text.unicodeScalars.map { $0.escaped(asASCII: true) }.joined() + "\""
    }
}

/// The SplitMix64 generator (Steele, Lea, Flood 2014): tiny, fast and good enough to drive a fuzzer.
struct QueryFuzzRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (bound > 0), slightly biased, which a fuzzer does not mind.
    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
