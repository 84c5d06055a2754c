import DrumlinEngine
import Testing

/// A string compared with a number property is read as a number when it starts like one, as
/// Realm's parser does (C++ stream extraction: leading blanks skipped, the longest number prefix
/// taken); otherwise the comparison is the usual type error. Infinity and NaN against an int
/// property are errors.
@Suite struct QueryNumericStringTests {
    let db: Database
    init() throws { db = try nullRulesFixture() }

    func q(_ query: String, _ args: [Value] = []) throws -> [Int64] { try ids(db.query("Item", query, args)) }

    func message(_ query: String, _ args: [Value] = []) -> String {
        do {
            _ = try db.query("Item", query, args).count
            return "no error"
        } catch {
            #expect(error.code == .query)
            return error.message
        }
    }

    @Test(arguments: ["rank", "id"])   // indexed (and the primary key) 
    func intPropertiesReadNumericStrings(_ property: String) throws {
        #expect(try q("\(property) == '2'") == [2])
        #expect(try q("\(property) == ' 2'") == [2])
        #expect(try q("\(property) == '+2'") == [2])
        #expect(try q("\(property) == '2abc'") == [2])
        #expect(try q("\(property) == '2.9'") == [2])            // the integer prefix, as Realm
        #expect(try q("\(property) != '2'").contains(2) == false)
        #expect(try q("\(property) > '1'").allSatisfy { $0 >= 2 })
        #expect(try q("\(property) == $0", [.string("2")]) == [2])
        #expect(try q("\(property) IN {'1', '2'}") == [1, 2])
    }

    @Test func notIndexedAndFloatingPointProperties() throws {
        #expect(try q("size == '4'") == [4])
        #expect(try q("size >= '1' AND size < '4'") == [1])
        #expect(try q("ratio == '2.5'") == [4])
        #expect(try q("ratio == '25e-1'") == [4])
        #expect(try q("ratio < ' 2.0'") == [1])
        #expect(try q("ratio < 'inf'") == [1, 4])
        #expect(try q("ratio == 'NaN'") == [])
        #expect(try q("amount == '1.0'") == [1])
        #expect(try q("amount == $0", [.string("1")]) == [1])
        #expect(try q("counts.@count == '1'") == [1, 2])
        #expect(try q("ANY counts == '5'") == [2])
    }

    @Test func stringsThatAreNotNumbersAreTypeErrors() {
        #expect(message("rank == 'x'") == "Unsupported comparison between type 'int' and type 'string' (at position 1)")
        #expect(message("ratio == 'abc'") == "Unsupported comparison between type 'double' and type 'string' (at position 1)")
        #expect(message("amount == '1x'") == "Unsupported comparison between type 'decimal128' and type 'string' (at position 1)")
        #expect(message("size == $0", [.string("")]) == "Unsupported comparison between type 'int' and type 'string' (at position 1)")
        // Only numbers convert: a number against a string property stays an error.
        #expect(message("label == 3") == "Unsupported comparison between type 'string' and type 'int' (at position 1)")
    }

    @Test func infinityAndNaNAgainstIntAreErrors() {
        #expect(message("rank == inf") == "Infinity not supported for int (property 'rank') (at position 1)")
        #expect(message("size > -infinity") == "Infinity not supported for int (property 'size') (at position 1)")
        #expect(message("rank == nan") == "NaN not supported for int (property 'rank') (at position 1)")
        #expect(message("size == $0", [.double(.infinity)]) == "Infinity not supported for int (property 'size') (at position 1)")
        #expect(message("ANY counts < $0", [.double(.nan)]) == "NaN not supported for int (property 'counts') (at position 5)")
        #expect(message("ratio < inf") == "no error")
    }
}
