import DrumlinEngine
import Testing

let allTypesSchema = """
[{"name": "All", "primaryKey": "id", "properties": {
   "id": "int", "b": "bool?", "i": "int?", "f": "float?", "d": "double?", "dec": "decimal128?",
   "s": "string?", "bin": "data?", "date": "date?", "oid": "objectId?", "u": "uuid?", "m": "mixed"}}]
"""

@Suite struct ValueRoundTripTests {
    func roundTrip(_ property: String, _ json: String, expect expected: String? = nil) throws {
        let db = try Database(path: temporaryPath(), schemaJSON: allTypesSchema)
        try db.write { try db.create("All", json: #"{"id": 1, "\#(property)": \#(json)}"#) }
        let out = try #require(try db.getJSON("All", primaryKey: 1))
        let parsed = try JSON.parse(out)
        #expect(parsed[property]?.text == (expected ?? json), "\(property): \(out)")
        db.close()
    }

    @Test(arguments: [
        ("b", "true"), ("b", "false"),
        ("i", "9223372036854775807"), ("i", "-9223372036854775808"), ("i", "0"),
        ("f", "1.5"), ("f", "0.1"), ("f", #"{"$numberDouble":"NaN"}"#), ("f", #"{"$numberDouble":"-Infinity"}"#),
        ("d", "0.1"), ("d", "-0.0"), ("d", "1e-300"), ("d", "1.7976931348623157e+308"),
        ("d", #"{"$numberDouble":"NaN"}"#), ("d", #"{"$numberDouble":"Infinity"}"#), ("d", #"{"$numberDouble":"-Infinity"}"#),
        ("dec", #"{"$numberDecimal":"1.10"}"#), ("dec", #"{"$numberDecimal":"-1E+3"}"#), ("dec", #"{"$numberDecimal":"NaN"}"#),
        ("s", #""""#), ("s", #""héllo wörld 🎉""#), ("s", #""a\u0000b""#), ("s", #""quote\" back\\ tab\t""#),
        ("bin", #"{"$binary":{"base64":"AAEC/w==","subType":"00"}}"#), ("bin", #"{"$binary":{"base64":"","subType":"00"}}"#),
        ("date", #"{"$date":"2024-03-18T13:50:58.402979123Z"}"#), ("date", #"{"$date":"1969-12-31T23:59:59.999999999Z"}"#),
        ("date", #"{"$date":"1900-01-01T00:00:00Z"}"#),
        ("oid", #"{"$oid":"65f1c0ffee0123456789abcd"}"#), ("u", #"{"$uuid":"8f14e45f-ceea-467f-a8f2-4f5d2b1b5e3c"}"#),
    ])
    func scalarRoundTrip(property: String, json: String) throws {
        try roundTrip(property, json)
    }

    @Test func inputSpellingsNormalize() throws {
        try roundTrip("date", #"{"$date":{"$numberLong":"-1"}}"#, expect: #"{"$date":"1969-12-31T23:59:59.999Z"}"#)
        try roundTrip("date", #"{"$date":"2024-03-18T14:50:58+01:00"}"#, expect: #"{"$date":"2024-03-18T13:50:58Z"}"#)
        try roundTrip("d", "3", expect: "3.0")
        try roundTrip("i", #"{"$numberLong":"42"}"#, expect: "42")
        try roundTrip("u", #"{"$binary":{"base64":"jxTkX87qRn+o8k9dKxtePA==","subType":"04"}}"#,
                      expect: #"{"$uuid":"8f14e45f-ceea-467f-a8f2-4f5d2b1b5e3c"}"#)
    }

    @Test(arguments: [
        "3", "3.0", "-0.0", "true", #""3""#, "null", #"{"$numberDecimal":"3"}"#, #"{"$date":"2001-01-01T00:00:00Z"}"#,
        #"{"$oid":"65f1c0ffee0123456789abcd"}"#, #"{"$binary":{"base64":"AQ==","subType":"00"}}"#,
        #"{"$numberDouble":"NaN"}"#, #"{"$uuid":"8f14e45f-ceea-467f-a8f2-4f5d2b1b5e3c"}"#,
    ])
    func mixedKeepsTheExactType(json: String) throws {
        try roundTrip("m", json)
    }

    @Test func mixedKeepsIntAndDoubleApartThroughValues() throws {
        let db = try Database(path: ":memory:", schemaJSON: allTypesSchema)
        try db.write {
            try db.create("All", values: [("id", 1), ("m", .int(3))])
            try db.create("All", values: [("id", 2), ("m", .double(3))])
            try db.create("All", values: [("id", 3), ("m", .float(3))])
        }
        #expect(try db.object("All", primaryKey: 1)?["m"] == .int(3))
        #expect(try db.object("All", primaryKey: 2)?["m"] == .double(3))
        #expect(try db.object("All", primaryKey: 3)?["m"] == .float(3))
    }

    @Test func valuesRoundTripThroughTheTypedLayer() throws {
        let db = try Database(path: ":memory:", schemaJSON: allTypesSchema)
        let values: [(String, Value)] = [
            ("b", true), ("i", .int(.min)), ("f", .float(.nan)), ("d", .double(-.infinity)),
            ("dec", .decimal(Decimal128(string: "123.4500")!)), ("s", "nul\u{0}byte"), ("bin", .data([0, 255, 7])),
            ("date", .date(Timestamp(seconds: -86_401, nanoseconds: 5))), ("oid", .objectId(ObjectId(hex: "000102030405060708090a0b")!)),
            ("u", .uuid(UUIDValue.random())), ("m", .decimal(Decimal128(string: "1.0")!)),
        ]
        try db.write { try db.create("All", values: [("id", 1)] + values) }
        let object = try #require(try db.object("All", primaryKey: 1))
        for (name, value) in values {
            let stored = try object[name]
            #expect(stored == value, "\(name): \(stored) != \(value)")
        }
    }

    @Test func badExtendedJSONIsRejected() throws {
        let db = try Database(path: ":memory:", schemaJSON: allTypesSchema)
        try db.beginWrite()
        expectError(.invalidArgument) { try db.create("All", json: #"{"id": 1, "oid": {"$oid": "xyz"}}"#) }
        expectError(.invalidArgument) { try db.create("All", json: #"{"id": 1, "date": {"$date": "yesterday"}}"#) }
        expectError(.invalidArgument) { try db.create("All", json: #"{"id": 1, "dec": {"$numberDecimal": "1.2.3"}}"#) }
        expectError(.typeMismatch) { try db.create("All", json: #"{"id": 1, "oid": "65f1c0ffee0123456789abcd"}"#) }
        expectError(.typeMismatch) { try db.create("All", json: #"{"id": 1, "i": 9223372036854775808}"#) }
        expectError(.limit) { try db.create("All", json: #"{"id": 1, "date": {"$date": "2300-01-01T00:00:00Z"}}"#) }
        try db.commit()
        #expect(try db.count("All") == 0)
    }
}
