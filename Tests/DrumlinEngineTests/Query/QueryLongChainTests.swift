import DrumlinEngine
import Testing

/// Long chains of OR and AND compile to SQL SQLite accepts (its expression depth and parameter
/// limits), so a query of 50,000 terms runs.
@Suite struct QueryLongChainTests {
    let db: Database
    init() throws { db = try nullRulesFixture() }

    @Test func fiftyThousandOrTermsOnAnIndexedProperty() throws {
        let text = (0..<50_000).map { "rank == \($0 + 10)" }.joined(separator: " OR ") + " OR rank == 2"
        #expect(try ids(db.query("Item", text)) == [2])
    }

    @Test func fiftyThousandOrTermsOnStringsAndMixedShapes() throws {
        let strings = (0..<50_000).map { "note == 'n\($0)\\'s'" }.joined(separator: " || ") + " || note == 'b'"
        #expect(try ids(db.query("Item", strings)) == [2])
        let mixed = (0..<10_000).map { "(size == \($0 + 5) AND label BEGINSWITH 'q')" }.joined(separator: " OR ")
            + " OR size == 4"
        #expect(try ids(db.query("Item", mixed)) == [4])
    }

    @Test func longAndChainsAndArguments() throws {
        let and = (0..<5_000).map { "rank != \($0 + 10)" }.joined(separator: " AND ")
        #expect(try ids(db.query("Item", and)) == [1, 2, 3, 4])     // null != 10
        let args = (0..<5_000).map { _ in "size == $0" }.joined(separator: " OR ")
        #expect(try ids(db.query("Item", args, [.int(4)])) == [4])
    }

    /// Lists of 16 or more values take one IN over a JSON array; they match exactly what their
    /// elements match one by one (an element of another type than the property matches nothing
    /// in a list of several types; null, numeric strings and fractions as on their own).
    @Test(arguments: [[Value.string("x")], [.string("2")], [.double(2.0)], [.double(1.5)], [.null],
                      [.int(1), .string("x"), .bool(true)], [.string("x"), .null, .int(2)]])
    func aLongListMatchesWhatItsElementsMatchOneByOne(_ extra: [Value]) throws {
        let list = Value.list((100..<120).map { Value.int(Int64($0)) } + extra)
        var expected = Set<Int64>()
        for element in extra { expected.formUnion((try? ids(db.query("Item", "rank == $0", [element]))) ?? []) }
        #expect(Set(try ids(db.query("Item", "rank IN $0", [list]))) == expected)
        #expect(Set(try ids(db.query("Item", "rank == ANY $0", [list]))) == expected)
        #expect(Set(try ids(db.query("Item", "rank == NONE $0", [list]))) == Set([1, 2, 3, 4]).subtracting(expected))
    }
}
