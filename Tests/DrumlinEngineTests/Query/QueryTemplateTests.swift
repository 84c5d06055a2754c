@testable import DrumlinEngine
@testable import DrumlinSchema
@testable import DrumlinStorage
@testable import DrumlinValues
import Testing

/// Compiled-query templates (`QueryTemplate`): a query text seen before is bound to new arguments
/// without compiling. Every test runs the same text with several arguments and checks each answer
/// (a template wrongly reused answers for the first arguments), and that the texts whose SQL
/// depends on argument values are not templated.
@Suite struct QueryTemplateTests {
    static let schema = """
        [{"name": "Item", "primaryKey": "id", "properties": {
           "id": "int", "name": {"type": "string", "indexed": true}, "n": "int", "x": "double", "f": "float",
           "note": "string?", "body": {"type": "string", "indexed": "full-text", "optional": true}}},
         {"name": "Box", "primaryKey": "id", "properties": {
           "id": "int", "m": "mixed", "tags": "string{}", "friend": "Box"}}]
        """

    /// Items created in this order (ids descending, so creation order is not key order).
    static let rows = [
        #"{"id": 5, "name": "apple", "n": 5, "x": 0.5, "f": 0.1, "note": null, "body": "hello world"}"#,
        #"{"id": 4, "name": "bean", "n": 7, "x": 1.5, "f": 0.2, "note": "apple", "body": "hello there"}"#,
        #"{"id": 3, "name": "apple", "n": 9, "x": 2.5, "f": 0.1, "note": "x", "body": "quiet world"}"#,
        #"{"id": 2, "name": "a%b", "n": 5, "x": 3.5, "f": 0.3, "note": null, "body": null}"#,
        #"{"id": 1, "name": "apple", "n": 11, "x": 4.5, "f": 0.2, "note": "x", "body": "hello"}"#,
    ]

    /// Boxes: a mixed value of each type, a dictionary and a link (by primary key).
    static let boxes = [
        #"{"id": 5, "m": 5, "tags": {"k": "a"}}"#,
        #"{"id": 4, "m": 5.5, "tags": {"k": "b"}}"#,
        #"{"id": 3, "m": "apple"}"#,
        #"{"id": 2, "m": null, "friend": 4}"#,
        #"{"id": 1, "m": 7, "friend": 5}"#,
    ]

    func openItems() throws -> Database {
        let db = try Database(path: ":memory:", schemaJSON: Self.schema)
        try db.write {
            for row in Self.rows { _ = try db.create("Item", json: row) }
            for row in Self.boxes { _ = try db.create("Box", json: row) }
        }
        return db
    }

    /// The ids matching, in result order, read twice: by object and by the rows read (JSON).
    func ids(_ db: Database, _ text: String, _ arguments: [Value], of className: String = "Item") throws -> [Int64] {
        let results = try db.query(className, text, arguments)
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

    func entry(_ db: Database, _ text: String, _ arguments: [Value], of className: String = "Item") -> QueryTemplate.Entry? {
        guard let signature = QueryTemplate.signature(arguments), let classIndex = try? db.classIndex(className) else { return nil }
        return db.queryTemplates[QueryTemplate.Key(classIndex: classIndex, text: ExactName(text), signature: signature)]
    }

    func isTemplate(_ entry: QueryTemplate.Entry?) -> Bool {
        if case .template? = entry { return true }
        return false
    }

    func isUncacheable(_ entry: QueryTemplate.Entry?) -> Bool {
        if case .uncacheable? = entry { return true }
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

    @Test func textSearchesAndListArgumentsAreCompiledEachTime() throws {
        let db = try openItems()
        // Full-text search: the argument becomes a search phrase.
        #expect(try ids(db, "body TEXT $0", [.string("hello")]) == [5, 4, 1])
        #expect(try ids(db, "body TEXT $0", [.string("world")]) == [5, 3])
        #expect(try ids(db, "body TEXT $0", [.string("hello -world")]) == [4, 1])
        #expect(isUncacheable(entry(db, "body TEXT $0", [.string("x")])))
        // Arguments of other types (bool, list) do not take part.
        #expect(try ids(db, "n IN $0", [.list([.int(5), .int(9)])]) == [5, 3, 2])
        #expect(try ids(db, "n IN $0", [.list([.int(11)])]) == [1])
        #expect(entry(db, "n IN $0", [.list([.int(11)])]) == nil)
    }

    @Test func chainedFiltersBindTheirOwnArguments() throws {
        let db = try openItems()
        let chained = try db.objects("Item").filter("n > $0", [.int(5)]).filter("n < $0", [.int(11)])
        #expect(try chained.objects.map(\.key).count == 2)
        #expect(try db.objects("Item").filter("n > $0", [.int(5)]).filter("n < $0 OR n == $1", [.int(11), .int(5)]).count == 2)
        #expect(try db.objects("Item").filter("name == $0", [.string("apple")]).filter("note == $0", [.string("x")]).count == 2)
    }

    @Test func floatPropertiesCompareWithTheArgumentRoundedToFloat() throws {
        let db = try openItems()
        // The template records the rounding, not the rounded first argument.
        #expect(try ids(db, "f == $0", [.double(0.1)]) == [5, 3])
        #expect(isTemplate(entry(db, "f == $0", [.double(0.1)])))
        #expect(try ids(db, "f == $0", [.double(0.2)]) == [4, 1])
        #expect(try ids(db, "f == $0", [.double(0.3)]) == [2])
        #expect(try ids(db, "f > $0", [.int(0)]) == [5, 4, 3, 2, 1])
        #expect(try ids(db, "f > $0", [.int(1)]) == [])
        #expect(try ids(db, "f >= $0 AND f <= $1", [.double(0.15), .double(0.2)]) == [4, 1])
        #expect(try ids(db, "f >= $0 AND f <= $1", [.double(0.1), .double(0.1)]) == [5, 3])
    }

    @Test func aValueThenANullArgumentIsNotBoundAsTheValue() throws {
        let db = try openItems()
        #expect(try ids(db, "note == $0", [.string("x")]) == [3, 1])
        #expect(try ids(db, "note == $0", [.null]) == [5, 2])
        #expect(try ids(db, "note == $0", [.string("apple")]) == [4])
        #expect(try ids(db, "note != $0", [.string("x")]) == [5, 4, 2])
        #expect(try ids(db, "note != $0", [.null]) == [4, 3, 1])
        #expect(try ids(db, "m == $0", [.int(7)], of: "Box") == [1])
        #expect(try ids(db, "m == $0", [.null], of: "Box") == [2])
    }

    @Test func argumentsEqualToEachOtherKeepTheirOwnParameters() throws {
        let db = try openItems()
        #expect(try ids(db, "n == $0 OR n == $1", [.int(5), .int(5)]) == [5, 2])
        #expect(isTemplate(entry(db, "n == $0 OR n == $1", [.int(5), .int(5)])))
        #expect(try ids(db, "n == $0 OR n == $1", [.int(5), .int(7)]) == [5, 4, 2])
        #expect(try ids(db, "n == $0 OR n == $1", [.int(9), .int(11)]) == [3, 1])
        #expect(try ids(db, "name == $0 OR note == $1", [.string("apple"), .string("apple")]) == [5, 4, 3, 1])
        #expect(try ids(db, "name == $0 OR note == $1", [.string("bean"), .string("x")]) == [4, 3, 1])
    }

    @Test func listsOfAnyLengthAnswerForTheirOwnElements() throws {
        let db = try openItems()
        let three: [Value] = [.int(5), .int(9), .int(100)]
        let twenty: [Value] = [.int(7)] + (100..<119).map { .int(Int64($0)) }
        #expect(try ids(db, "n IN $0", [.list(three)]) == [5, 3, 2])
        #expect(try ids(db, "n IN $0", [.list(twenty)]) == [4])
        #expect(try ids(db, "n IN $0", [.list(three)]) == [5, 3, 2])
        #expect(try ids(db, "n IN $0", [.list([])]) == [])
        // A list written of arguments: one parameter each...
        #expect(try ids(db, "n IN {$0, $1, $2}", three) == [5, 3, 2])
        #expect(isTemplate(entry(db, "n IN {$0, $1, $2}", three)))
        #expect(try ids(db, "n IN {$0, $1, $2}", [.int(7), .int(7), .int(11)]) == [4, 1])
        // ...and from 16 elements on one JSON array of their values, compiled each time.
        let list = "n IN {" + (0..<20).map { "$\($0)" }.joined(separator: ", ") + "}"
        #expect(try ids(db, list, twenty) == [4])
        #expect(isUncacheable(entry(db, list, twenty)))
        #expect(try ids(db, list, [.int(9)] + twenty.dropFirst()) == [3])
        #expect(try ids(db, "n BETWEEN {$0, $1}", [.int(5), .int(7)]) == [5, 4, 2])
        #expect(isTemplate(entry(db, "n BETWEEN {$0, $1}", [.int(5), .int(7)])))
        #expect(try ids(db, "n BETWEEN {$0, $1}", [.int(9), .int(11)]) == [3, 1])
    }

    @Test func aStringThenAListForTheSameText() throws {
        let db = try openItems()
        #expect(try ids(db, "name == $0", [.string("apple")]) == [5, 3, 1])
        #expect(try ids(db, "name == $0", [.list([.string("bean"), .string("a%b")])]) == [4, 2])
        #expect(try ids(db, "name == $0", [.string("bean")]) == [4])
        #expect(try ids(db, "name IN $0", [.list([.string("bean")])]) == [4])
        expectError(.query) { _ = try db.query("Item", "name IN $0", [.string("bean")]) }
        #expect(try ids(db, "name IN $0", [.list([.string("a%b")])]) == [2])
    }

    @Test func anIntThenADoubleComparedWithNumbers() throws {
        let db = try openItems()
        #expect(try ids(db, "m == $0", [.int(5)], of: "Box") == [5])
        #expect(try ids(db, "m == $0", [.double(5.5)], of: "Box") == [4])
        #expect(try ids(db, "m == $0", [.double(5)], of: "Box") == [5])
        #expect(try ids(db, "m == $0", [.int(7)], of: "Box") == [1])
        #expect(try ids(db, "m == $0", [.string("apple")], of: "Box") == [3])
        #expect(try ids(db, "m > $0", [.int(5)], of: "Box") == [4, 1])
        #expect(try ids(db, "m > $0", [.double(5.6)], of: "Box") == [1])
        #expect(try ids(db, "n > $0", [.int(6)]) == [4, 3, 1])
        #expect(try ids(db, "n > $0", [.double(8.5)]) == [3, 1])
        #expect(try ids(db, "n > $0", [.int(9)]) == [1])
    }

    @Test func nanAndInfinityAreRefusedAfterAFiniteNumber() throws {
        let db = try openItems()
        #expect(try ids(db, "n > $0", [.double(6.5)]) == [4, 3, 1])
        #expect(try templateKeys(db, "n > $0", [.double(6.5)])?.count == 3)
        expectError(.query) { _ = try db.query("Item", "n > $0", [.double(.nan)]) }
        expectError(.query) { _ = try db.query("Item", "n > $0", [.double(.infinity)]) }
        #expect(try templateKeys(db, "n > $0", [.double(.nan)]) == nil)
        #expect(try ids(db, "n > $0", [.double(8.5)]) == [3, 1])
    }

    @Test func stringsReadAsNumbersAreCompiledEachTime() throws {
        let db = try openItems()
        #expect(try ids(db, "n == $0", [.string("5")]) == [5, 2])
        #expect(isUncacheable(entry(db, "n == $0", [.string("5")])))
        #expect(try ids(db, "n == $0", [.string("7")]) == [4])
        #expect(try ids(db, "n == $0", [.string(" 9")]) == [3])
        expectError(.query) { _ = try db.query("Item", "n == $0", [.string("five")]) }
        #expect(try ids(db, "x > $0", [.string("2")]) == [3, 2, 1])
        #expect(try ids(db, "x > $0", [.string("4")]) == [1])
    }

    @Test func typeNamesAndKeyPathsFromArgumentsAreCompiledEachTime() throws {
        let db = try openItems()
        #expect(try ids(db, "m.@type == $0", [.string("int")], of: "Box") == [5, 1])
        #expect(isUncacheable(entry(db, "m.@type == $0", [.string("int")], of: "Box")))
        #expect(try ids(db, "m.@type == $0", [.string("string")], of: "Box") == [3])
        #expect(try ids(db, "m.@type == $0", [.string("double")], of: "Box") == [4])
        #expect(try ids(db, "$K0 == $1", [.string("name"), .string("bean")]) == [4])
        #expect(isUncacheable(entry(db, "$K0 == $1", [.string("name"), .string("bean")])))
        #expect(try ids(db, "$K0 == $1", [.string("note"), .string("bean")]) == [])
        #expect(try ids(db, "$K0 == $1", [.string("note"), .string("apple")]) == [4])
    }

    @Test func dictionaryKeysAndPrimaryKeysFromArgumentsAreTemplated() throws {
        let db = try openItems()
        #expect(try ids(db, "tags[$0] == $1", [.string("k"), .string("a")], of: "Box") == [5])
        #expect(isTemplate(entry(db, "tags[$0] == $1", [.string("k"), .string("a")], of: "Box")))
        #expect(try ids(db, "tags[$0] == $1", [.string("k"), .string("b")], of: "Box") == [4])
        #expect(try ids(db, "tags[$0] == $1", [.string("j"), .string("a")], of: "Box") == [])
        #expect(try ids(db, "friend == $0", [.int(5)], of: "Box") == [1])
        #expect(isTemplate(entry(db, "friend == $0", [.int(5)], of: "Box")))
        #expect(try ids(db, "friend == $0", [.int(4)], of: "Box") == [2])
        #expect(try ids(db, "friend == $0", [.int(99)], of: "Box") == [])
        #expect(try ids(db, "friend == obj('Box', $0)", [.int(5)], of: "Box") == [1])
        #expect(try ids(db, "friend == obj('Box', $0)", [.int(4)], of: "Box") == [2])
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
