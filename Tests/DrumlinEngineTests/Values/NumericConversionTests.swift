import DrumlinEngine
import Testing

/// Numbers change type only where the value survives (issue #19, item 5).
@Suite struct NumericConversionTests {
    let schema = #"[{"name": "M", "primaryKey": "id", "properties": {"id": "int", "f": "float?", "d": "double?", "fs": "float[]"}}]"#

    @Test func valuesThatSurviveConvert() throws {
        let db = try Database(path: ":memory:", schemaJSON: schema)
        try db.write {
            _ = try db.create("M", json: #"{"id": 1, "f": 16777216, "d": 9007199254740992, "fs": [0.1, 3]}"#)
        }
        let m = try #require(try db.object("M", primaryKey: 1))
        #expect(try m.value("f") == .float(16777216))
        #expect(try m.value("d") == .double(9007199254740992))
        #expect(try m.list("fs").values == [.float(0.1), .float(3)])   // rounded to float precision
    }

    @Test func valuesThatWouldChangeAreRefusedAndNothingIsWritten() throws {
        let db = try Database(path: ":memory:", schemaJSON: schema)
        try db.write { _ = try db.create("M", json: #"{"id": 1}"#) }
        let m = try #require(try db.object("M", primaryKey: 1))
        try db.write {
            expectError(.typeMismatch, "Property 'M.f': 1e+300 is outside the float range (±3.4e38); use a double property.") {
                try m.set("f", to: .double(1e300))
            }
            expectError(.typeMismatch, "Property 'M.f': the integer 16777217 cannot be stored as a float without changing it (floats hold integers exactly up to 16777216).") {
                try m.set("f", to: .int(16_777_217))
            }
            expectError(.typeMismatch, "Property 'M.d': the integer 9007199254740993 cannot be stored as a double without changing it (doubles hold integers exactly up to 9007199254740992).") {
                try m.set("d", to: .int(9_007_199_254_740_993))
            }
            expectError(.typeMismatch) { _ = try db.create("M", json: #"{"id": 2, "fs": [1, 16777217]}"#) }
        }
        #expect(try m.value("f") == .null && m.value("d") == .null)
        #expect(try db.count("M") == 1)
    }
}

/// A JSON object in a mixed value is a dictionary only when no key starts with '$' (issue #19, item 5).
@Suite struct MixedDollarKeyTests {
    @Test func extendedJSONFormsAreValuesAndOtherDollarKeysAreRefused() throws {
        let db = try Database(path: ":memory:", schemaJSON: #"[{"name": "K", "primaryKey": "id", "properties": {"id": "int", "x": "mixed"}}]"#)
        try db.write {
            _ = try db.create("K", json: #"{"id": 1, "x": {"$oid": "5f0000000000000000000000"}}"#)
            expectError(.invalidArgument, #"Property 'K.x': Invalid key '$weird' in a dictionary of a mixed value: keys cannot start with '$' (objects with '$' keys are Extended JSON values such as {"$oid": ...})."#) {
                _ = try db.create("K", json: #"{"id": 2, "x": {"a": {"$weird": 1}}}"#)
            }
        }
        #expect(try db.object("K", primaryKey: 1)?.value("x").typeName == "objectId")
        #expect(try db.count("K") == 1)
    }
}
