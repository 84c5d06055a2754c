import Testing
@testable import DrumlinEngine
@testable import DrumlinSchema
@testable import DrumlinStorage
@testable import DrumlinValues

/// Every literal form of Realm Query Language decodes to the expected `Value`, and keeps its
/// source text for exact decimal conversion.
@Suite struct QueryLiteralTests {
    private static func date(_ iso: String) -> Value {
        .date(Timestamp(iso8601: iso)!)
    }

    @Test("integers: decimal, leading zeros, signs, hex, Int64 limits", arguments: [
        ("0", Value.int(0)), ("42", .int(42)), ("-1", .int(-1)), ("+7", .int(7)), ("001", .int(1)), ("-001", .int(-1)),
        ("- 5", .int(-5)), ("0x398235fcAb", .int(0x39_8235_fcAb)), ("0X1f", .int(31)), ("-0x10", .int(-16)),
        ("9223372036854775807", .int(.max)), ("-9223372036854775808", .int(.min)),
        ("0x7FFFFFFFFFFFFFFF", .int(.max)), ("-0x8000000000000000", .int(.min)),
        ("9223372036854775808", .double(9_223_372_036_854_775_808)), ("-99999999999999999999", .double(-1e20)),
    ])
    func integers(_ text: String, _ expected: Value) {
        #expect(QueryTestSupport.literal(text)?.value == expected)
    }

    @Test("floating point: 10. -.034 1e5 2.5f and friends", arguments: [
        ("10.", Value.double(10)), ("-.034", .double(-0.034)), (".5", .double(0.5)), ("+.5", .double(0.5)),
        ("1e5", .double(100_000)), ("1E-5", .double(0.00001)), ("2.5e+3", .double(2500)), ("-0.0", .double(-0.0)),
        ("1.7976931348623157e308", .double(.greatestFiniteMagnitude)), ("1e400", .double(.infinity)),
        ("2.5f", .float(2.5)), ("5f", .float(5)), ("-1.5F", .float(-1.5)), ("1e-3f", .float(0.001)),
        ("inf", .double(.infinity)), ("INFINITY", .double(.infinity)), ("-inf", .double(-.infinity)),
        ("+Infinity", .double(.infinity)), ("nan", .double(.nan)), ("-NaN", .double(-.nan)),
    ])
    func floatingPoint(_ text: String, _ expected: Value) {
        #expect(QueryTestSupport.literal(text)?.value == expected)
    }

    @Test("strings in both quotes with every escape", arguments: [
        ("'abc'", "abc"), ("\"abc\"", "abc"), ("''", ""), ("'it\\'s'", "it's"), ("\"say \\\"hi\\\"\"", "say \"hi\""),
        ("'a\\\\b'", "a\\b"), ("'a\\/b'", "a/b"), ("'\\b\\f\\n\\r\\t'", "\u{8}\u{C}\n\r\t"), ("'nul\\0x'", "nul\0x"),
        ("'\\u00e9'", "é"), ("'\\u00E9\\u4E2D'", "é中"), ("'\\uD83D\\uDE00'", "😀"), ("'\\u0000'", "\0"),
        ("'é 名 😀'", "é 名 😀"), ("'\"'", "\""), ("\"'\"", "'"), ("'multi\nline'", "multi\nline"),
        ("'a  b'", "a  b"), ("'@links $0 && [c]'", "@links $0 && [c]"),
    ])
    func strings(_ text: String, _ expected: String) {
        #expect(QueryTestSupport.literal(text)?.value == .string(expected))
    }

    @Test("booleans and null", arguments: [
        ("true", Value.bool(true)), ("TRUE", .bool(true)), ("false", .bool(false)), ("FALSE", .bool(false)),
        ("null", .null), ("NULL", .null), ("Null", .null), ("nil", .null), ("NIL", .null),
    ])
    func booleansAndNull(_ text: String, _ expected: Value) {
        #expect(QueryTestSupport.literal(text)?.value == expected)
    }

    @Test("binary: B64\"…\", bin('…') and binary(…)", arguments: [
        ("B64\"aGVsbG8=\"", Array("hello".utf8)), ("B64\"\"", []), ("B64\"AAEC\"", [0, 1, 2]), ("bin('hi')", [0x68, 0x69]),
        ("binary('é')", [0xC3, 0xA9]), ("bin(B64\"AAEC\")", [0, 1, 2]), ("binary(B64\"/w==\")", [0xFF]),
        ("bin('\\0\\n')", [0, 10]), ("BIN ( 'x' )", [0x78]),
    ] as [(String, [UInt8])])
    func binary(_ text: String, _ expected: [UInt8]) {
        #expect(QueryTestSupport.literal(text)?.value == .data(expected))
    }

    @Test("timestamps: T<sec>:<nanos> and calendar forms in UTC", arguments: [
        ("T0:0", Value.date(Timestamp(seconds: 0))), ("T1710769858:5", .date(Timestamp(seconds: 1_710_769_858, nanoseconds: 5))),
        ("T-1:-500000000", .date(Timestamp(seconds: -2, nanoseconds: 500_000_000))),
        ("T0:-5", .date(Timestamp(nanosecondsSinceEpoch: -5))), ("T-0:-1", .date(Timestamp(nanosecondsSinceEpoch: -1))),
        ("2024-03-18@13:50:58", date("2024-03-18T13:50:58Z")), ("2024-03-18T13:50:58", date("2024-03-18T13:50:58Z")),
        ("2024-03-18@13:50:58:123456789", date("2024-03-18T13:50:58.123456789Z")),
        ("2024-03-18@13:50:58:5", date("2024-03-18T13:50:58.000000005Z")),
        ("2024-2-9@1:02:03", date("2024-02-09T01:02:03Z")), ("1900-01-01@00:00:00", date("1900-01-01T00:00:00Z")),
        ("2000-02-29T23:59:59", date("2000-02-29T23:59:59Z")),
    ])
    func timestamps(_ text: String, _ expected: Value) {
        #expect(QueryTestSupport.literal(text)?.value == expected)
    }

    @Test("oid(…) and uuid(…)")
    func identifiers() {
        #expect(QueryTestSupport.literal("oid(65f1c0ffee0000000000abcd)")?.value
            == .objectId(ObjectId(hex: "65f1c0ffee0000000000abcd")!))
        #expect(QueryTestSupport.literal("oid(65F1C0FFEE0000000000ABCD)")?.value
            == .objectId(ObjectId(hex: "65f1c0ffee0000000000abcd")!))
        #expect(QueryTestSupport.literal("uuid(3b241101-e2bb-4255-8caf-4136c566a962)")?.value
            == .uuid(UUIDValue(string: "3b241101-e2bb-4255-8caf-4136c566a962")!))
        #expect(QueryTestSupport.literal("uuid(3B241101-E2BB-4255-8CAF-4136C566A962)")?.value
            == .uuid(UUIDValue(string: "3b241101-e2bb-4255-8caf-4136c566a962")!))
    }

    @Test("links: L<table>:<key>, O<key> and obj('Class', key)")
    func links() throws {
        #expect(QueryTestSupport.literal("L3:42")?.value == .link(ObjectLink(classIndex: 3, key: 42)))
        let objectKey = try #require(QueryTestSupport.comparison("owner == O17"))
        #expect(objectKey.rhs.kind == .objectKey(17))
        let reference = try #require(QueryTestSupport.comparison("owner == obj('Person', 'ann')"))
        #expect(reference.rhs.kind == .objectReference(className: "Person", primaryKey: .string("ann")))
        #expect(reference.rhs.range == .init(start: 9, end: 29))
    }

    @Test("the literal text is kept for exact decimal conversion", arguments: [
        ("-0.10", "-0.10"), ("1.50", "1.50"), ("0x1F", "0x1F"), ("- 5", "-5"), ("+.5", ".5"), ("'a'", "'a'"),
        ("12345678901234567890.123", "12345678901234567890.123"), ("1e-3f", "1e-3f"), ("-inf", "-inf"),
        ("bin('x')", "bin('x')"), ("B64\"eA==\"", "B64\"eA==\""), ("NULL", "NULL"),
    ])
    func literalText(_ text: String, _ expected: String) {
        #expect(QueryTestSupport.literal(text)?.text == expected)
    }

    @Test("a kept literal converts exactly to decimal128")
    func decimalFromLiteral() throws {
        let literal = try #require(QueryTestSupport.literal("-12345678901234567890.10"))
        #expect(Decimal128(string: literal.text)?.description == "-12345678901234567890.10")
        #expect(literal.value == .double(-12_345_678_901_234_567_890.10))
    }

    @Test("property names: escapes and UTF-8 letters", arguments: [
        ("fav\\ item", "fav item"), ("a\\nb", "a\nb"), ("a\\rb", "a\rb"), ("a\\tb", "a\tb"), ("名前", "名前"),
        ("é_1$-x", "é_1$-x"), ("_", "_"), ("x\\ ", "x "),
    ])
    func propertyNames(_ text: String, _ expected: String) throws {
        let comparison = try #require(QueryTestSupport.comparison(text + " == 1"))
        guard case .keyPath(let path, nil) = comparison.lhs.kind else {
            Issue.record("not a path: \(comparison.lhs)")
            return
        }
        #expect(path.components.map(\.kind) == [.property(expected)])
        _ = QueryTestSupport.canonical(text + " == 1")
    }

    @Test("arguments: $n, $Kn and [$n]")
    func arguments() throws {
        let comparison = try #require(QueryTestSupport.comparison("$K12.name == $345"))
        #expect(comparison.rhs.kind == .argument(345))
        guard case .keyPath(let path, nil) = comparison.lhs.kind else { return }
        #expect(path.components.map(\.kind) == [.keyPathArgument(12), .property("name")])
    }
}
