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
}
