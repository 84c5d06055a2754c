import DrumlinValues
import Testing

/// ExtendedJSON.plainValues: a JSON array of plain scalars read straight into values, equal to
/// what parsing the array and converting each element gives; nil for everything else.
@Suite struct PlainValuesTests {
    /// The general route: the parsed array, each element as a mixed value.
    func general(_ text: String) -> [Value]? {
        guard case .array(let items)? = try? JSON.parse(text) else { return nil }
        var values: [Value] = []
        for item in items {
            guard let value = try? ExtendedJSON.mixedValue(item) else { return nil }
            values.append(value)
        }
        return values
    }

    func plain(_ text: String) -> [Value]? {
        text.withCString { ExtendedJSON.plainValues(cString: $0) }
    }

    @Test func plainArraysReadAsTheGeneralParserReadsThem() {
        let texts = [
            "[]", " [ ] ", "[\"name5\"]", "[1]", "[-7, 0, 9223372036854775807, -9223372036854775808]",
            "[1.5, -0.0, 1e3, 2E-2, 123456789012345678901234567890]", "[true, false, null]",
            " [ \"a\" ,\t\"b\"\n, 3 ] ", "[\"h\\u00e9llo \\\"quoted\\\" \\\\ \\n\"]", "[\"héllo 日本\"]",
            "[\"\", \"a longer string than fifteen bytes\"]",
        ]
        for text in texts {
            let expected = general(text)
            #expect(expected != nil, "\(text)")
            #expect(plain(text) == expected, "\(text)")
        }
        #expect(plain("[\"name5\", 30, 1.5, true, null]") == [.string("name5"), .int(30), .double(1.5), .bool(true), .null])
    }

    @Test func anythingElseIsLeftToTheGeneralParser() {
        for text in [
            "", " ", "{}", "\"a\"", "1", "[", "[1", "[1,", "[1,]", "[,1]", "[1 2]", "[] x", "[]]",
            "[{\"$oid\": \"5f1b2c3d4e5f601728394a5b\"}]", "[{\"$link\": {\"class\": \"Dog\", \"key\": 1}}]",
            "[[1, 2]]", "[1, [2]]", "[tru]", "[nul]", "[01]", "[1.]", "[\"\\ud800\"]", "[\"unterminated]",
            "[\"tab\there\"]",
        ] {
            #expect(plain(text) == nil, "\(text)")
        }
    }
}
