@testable import DrumlinEngine
import Testing

/// Compiled-query templates (`QueryTemplate`): a query text seen before is bound to new arguments
/// without compiling. Every test runs the same text with several arguments and checks each answer,
/// and that the texts whose SQL depends on argument values are not templated.
@Suite struct QueryTemplateTests {
    static let schema = """
        [{"name": "Item", "primaryKey": "id", "properties": {
           "id": "int", "name": {"type": "string", "indexed": true}, "n": "int", "x": "double", "f": "float",
           "note": "string?", "body": {"type": "string", "indexed": "full-text", "optional": true}}}]
        """

    /// Items created in this order (ids descending, so creation order is not key order).
    static let rows = [
        #"{"id": 5, "name": "apple", "n": 5, "x": 0.5, "f": 0.1, "note": null, "body": "hello world"}"#,
        #"{"id": 4, "name": "bean", "n": 7, "x": 1.5, "f": 0.2, "note": "apple", "body": "hello there"}"#,
        #"{"id": 3, "name": "apple", "n": 9, "x": 2.5, "f": 0.1, "note": "x", "body": "quiet world"}"#,
        #"{"id": 2, "name": "a%b", "n": 5, "x": 3.5, "f": 0.3, "note": null, "body": null}"#,
        #"{"id": 1, "name": "apple", "n": 11, "x": 4.5, "f": 0.2, "note": "x", "body": "hello"}"#,
    ]

    func openItems() throws -> Database {
        let db = try Database(path: ":memory:", schemaJSON: Self.schema)
        try db.write { for row in Self.rows { _ = try db.create("Item", json: row) } }
        return db
    }

    /// The ids matching, in result order, read twice: by object and by the rows read (JSON).
    func ids(_ db: Database, _ text: String, _ arguments: [Value]) throws -> [Int64] {
        let results = try db.query("Item", text, arguments)
        let byObject = try results.objects.map { (object) throws -> Int64 in
            guard case .int(let id) = try object.value("id") else { return -1 }
            return id
        }
        guard case .array(let rows) = try JSON.parse(results.jsonText()) else { return [-2] }
        let byRow = rows.map { (row) -> Int64 in
            guard case .object(let fields) = row, case .int(let id)? = fields.first(where: { $0.key == "id" })?.value else { return -3 }
            return id
        }
        #expect(byObject == byRow, "\(text) \(arguments)")
        return byObject
    }

    func entry(_ db: Database, _ text: String, _ arguments: [Value]) -> QueryTemplate.Entry? {
        guard let signature = QueryTemplate.signature(arguments) else { return nil }
        return db.queryTemplates[QueryTemplate.Key(classIndex: 0, text: text, signature: signature)]
    }

    func isTemplate(_ entry: QueryTemplate.Entry?) -> Bool {
        if case .template? = entry { return true }
        return false
    }

    @Test func sameTextNewArgumentsInCreationOrder() throws {
        let db = try openItems()
        #expect(try ids(db, "name == $0", [.string("apple")]) == [5, 3, 1])
        #expect(isTemplate(entry(db, "name == $0", [.string("apple")])))
        #expect(try ids(db, "name == $0", [.string("bean")]) == [4])
        #expect(try ids(db, "name == $0", [.string("nothing")]) == [])
        #expect(try ids(db, "n > $0 AND x < $1", [.int(5), .double(4.0)]) == [4, 3])
        #expect(try ids(db, "n > $0 AND x < $1", [.int(8), .double(9.0)]) == [3, 1])
        // Another argument type is another template: an int compared with a double property.
        #expect(try ids(db, "x > $0", [.int(3)]) == [2, 1])
        #expect(try ids(db, "x > $0", [.double(1.0)]) == [4, 3, 2, 1])
    }

    @Test func aLiteralEqualToTheArgumentStaysALiteral() throws {
        let db = try openItems()
        #expect(try ids(db, "n >= 5 AND n == $0", [.int(5)]) == [5, 2])
        #expect(try ids(db, "n >= 5 AND n == $0", [.int(7)]) == [4])
        #expect(try ids(db, "n >= 5 AND n == $0", [.int(4)]) == [])
        #expect(try ids(db, "name == $0 OR note == $0", [.string("apple")]) == [5, 4, 3, 1])
        #expect(try ids(db, "name == $0 OR note == $0", [.string("x")]) == [3, 1])
    }

    @Test func nullAndValueArgumentsAreDifferentTemplates() throws {
        let db = try openItems()
        #expect(try ids(db, "note == $0", [.null]) == [5, 2])
        #expect(try ids(db, "note == $0", [.string("x")]) == [3, 1])
        #expect(try ids(db, "note == $0", [.null]) == [5, 2])
        #expect(try ids(db, "note != $0", [.null]) == [4, 3, 1])
    }

    @Test func wildcardsAndCaseInLaterArguments() throws {
        let db = try openItems()
        #expect(try ids(db, "name LIKE $0", [.string("bean")]) == [4])
        #expect(try ids(db, "name LIKE $0", [.string("a*")]) == [5, 3, 2, 1])
        #expect(try ids(db, "name LIKE $0", [.string("?%?")]) == [2])
        #expect(try ids(db, "name CONTAINS[c] $0", [.string("EAN")]) == [4])
        #expect(try ids(db, "name CONTAINS[c] $0", [.string("%")]) == [2])
        #expect(try ids(db, "name ==[c] $0", [.string("APPLE")]) == [5, 3, 1])
        #expect(try ids(db, "name BEGINSWITH $0", [.string("a")]) == [5, 3, 2, 1])
        #expect(try ids(db, "name BEGINSWITH $0", [.string("a%")]) == [2])
    }

    @Test func valueDependentTextsAreCompiledEachTime() throws {
        let db = try openItems()
        // A float property: the argument is rounded to float, so it is not bound as given.
        #expect(try ids(db, "f == $0", [.double(0.1)]) == [5, 3])
        #expect(try ids(db, "f == $0", [.double(0.2)]) == [4, 1])
        if case .uncacheable? = entry(db, "f == $0", [.double(0.1)]) {} else { Issue.record("f == $0 was templated") }
        // Full-text search: the argument becomes a search phrase.
        #expect(try ids(db, "body TEXT $0", [.string("hello")]) == [5, 4, 1])
        #expect(try ids(db, "body TEXT $0", [.string("world")]) == [5, 3])
        #expect(try ids(db, "body TEXT $0", [.string("hello -world")]) == [4, 1])
        if case .uncacheable? = entry(db, "body TEXT $0", [.string("x")]) {} else { Issue.record("TEXT was templated") }
        // Arguments of other types (bool, list) do not take part.
        #expect(try ids(db, "n IN $0", [.list([.int(5), .int(9)])]) == [5, 3, 2])
        #expect(try ids(db, "n IN $0", [.list([.int(11)])]) == [1])
        #expect(entry(db, "n IN $0", [.list([.int(11)])]) == nil)
    }

    @Test func postfixClausesKeepTheirMeaning() throws {
        let db = try openItems()
        #expect(try ids(db, "name == $0 SORT(n DESC)", [.string("apple")]) == [1, 3, 5])
        #expect(try ids(db, "name == $0 SORT(n DESC) LIMIT(1)", [.string("apple")]) == [1])
        #expect(try ids(db, "name == $0 SORT(n DESC) LIMIT(1)", [.string("bean")]) == [4])
        #expect(try ids(db, "n > $0 SORT(id ASC)", [.int(6)]) == [1, 3, 4])
        #expect(try ids(db, "n > $0 SORT(id ASC)", [.int(10)]) == [1])
    }

    @Test func errorsAreReportedForEveryArgument() throws {
        let db = try openItems()
        #expect(try ids(db, "n == $0", [.int(5)]) == [5, 2])
        // A string for an int property fails at compile time, for a cached text too.
        expectError(.query) { _ = try db.query("Item", "n == $0", [.string("five")]) }
        expectError(.query) { _ = try db.query("Item", "n == $0", [.string("five")]) }
        #expect(try ids(db, "n == $0", [.int(7)]) == [4])
        // A missing argument.
        expectError(.query) { _ = try db.query("Item", "n == $1", [.int(5)]) }
    }

    @Test func writesAreSeenThroughCachedTexts() throws {
        let db = try openItems()
        #expect(try ids(db, "name == $0", [.string("apple")]) == [5, 3, 1])
        try db.write { _ = try db.create("Item", json: #"{"id": 0, "name": "apple", "n": 1, "x": 0, "f": 0}"#) }
        #expect(try ids(db, "name == $0", [.string("apple")]) == [5, 3, 1, 0])
    }

    /// The keys `visitTemplateRows` visits, or nil when it declines (no template to read through).
    func templateKeys(_ db: Database, _ text: String, _ arguments: [Value], _ indices: [Int] = [0, 1]) throws -> [Int64]? {
        var keys: [Int64] = []
        let read = try db.visitTemplateRows(classIndex: 0, text: text, arguments: arguments, propertyIndices: indices) { (row) throws(DrumlinError) in
            #expect(row.count == indices.count)
            keys.append(row.key)
        }
        return read ? keys : nil
    }

    @Test func templateRowsAreTheQueryRowsWithoutResults() throws {
        let db = try openItems()
        // Declined until the general path has run the text once and read its rows.
        #expect(try templateKeys(db, "name == $0", [.string("apple")]) == nil)
        #expect(try ids(db, "name == $0", [.string("apple")]) == [5, 3, 1])
        let appleKeys = try db.query("Item", "name == $0", [.string("apple")]).objects.map(\.key)
        #expect(try templateKeys(db, "name == $0", [.string("apple")]) == appleKeys)
        #expect(try templateKeys(db, "name == $0", [.string("nothing")]) == [])
        #expect(try templateKeys(db, "name == $0", [.string("bean")])?.count == 1)
        // Other argument types are another template: declined.
        #expect(try templateKeys(db, "name == $0", [.int(1)]) == nil)
        // Writes are seen: the shared statement is bound and stepped afresh.
        try db.write { _ = try db.create("Item", json: #"{"id": 0, "name": "apple", "n": 1, "x": 0, "f": 0}"#) }
        #expect(try templateKeys(db, "name == $0", [.string("apple")])?.count == 4)
        // Postfix clauses keep their meaning through the shared statement.
        #expect(try ids(db, "name == $0 SORT(n DESC) LIMIT(2)", [.string("apple")]) == [1, 3])
        let sortedKeys = try db.query("Item", "name == $0 SORT(n DESC) LIMIT(2)", [.string("apple")]).objects.map(\.key)
        #expect(try templateKeys(db, "name == $0 SORT(n DESC) LIMIT(2)", [.string("apple")]) == sortedKeys)
        // Bad property indexes are refused as by every read.
        expectError(.invalidArgument) { _ = try templateKeys(db, "name == $0", [.string("apple")], [99]) }
    }
}
