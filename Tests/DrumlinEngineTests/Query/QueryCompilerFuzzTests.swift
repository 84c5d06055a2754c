import Testing
@testable import DrumlinEngine
@testable import DrumlinSchema
@testable import DrumlinStorage
@testable import DrumlinValues

/// Drives generated and mutated queries through the compiler and SQLite, against a schema whose
/// names match the generator's: each query must either run or fail with a `.query` error. An
/// `.internal` error means the compiler produced SQL that SQLite rejected — a compiler bug.
@Suite struct QueryCompilerFuzzTests {
    static let schema = """
    [{"name": "Item", "primaryKey": "age", "properties": {
        "age": "int", "name": "string?", "price": "double?", "price2": "decimal128?", "items": "Item[]", "dogs": "Dog[]",
        "dict": "mixed{}", "list": "int[]", "mixed": "mixed", "loc": "Point", "fav item": "string?",
        "名前": "string?", "é": "bool?", "_x": "date?", "a-b": "int?", "Tx": "objectId?", "L": "uuid?", "O": "data?",
        "k": "string?", "text": {"type": "string", "optional": true, "indexed": "full-text"}}},
     {"name": "Dog", "properties": {"name": "string", "age": "int", "price": "double",
        "owners": {"type": "linkingObjects", "objectType": "Item", "property": "dogs"}}},
     {"name": "Point", "embedded": true, "properties": {"type": "string", "coordinates": "double[]"}}]
    """

    static func database() throws -> Database {
        let db = try Database(path: ":memory:", schemaJSON: schema)
        try db.write {
            try db.create("Item", json: """
                {"age": 1, "name": "a", "price": 1.5, "items": [{"age": 2, "name": "b"}], "dogs": [{"name": "d", "age": 3, "price": 2}],
                 "dict": {"k": 1, "s": [1, 2]}, "list": [1, 2, 3], "mixed": {"x": [1]}, "text": "hello world",
                 "loc": {"type": "Point", "coordinates": [1, 2]}}
                """)
            // A mixed value holding a link (and a mixed dictionary holding one).
            let dog = try db.objects("Dog").object(at: 0)
            try db.create("Item", json: """
                {"age": 5, "name": "e", "mixed": {"$link": {"class": "Dog", "key": \(dog.key)}},
                 "dict": {"d": {"$link": {"class": "Dog", "key": \(dog.key)}}}}
                """)
        }
        return db
    }

    struct Tally {
        var ran = 0
        var rejected = 0
        var failures: [String] = []

        mutating func run(_ db: Database, _ query: String, arguments: [Value]) {
            do {
                let results = try db.query("Item", query, arguments)
                _ = try results.count
                ran += 1
            } catch where error.code == .query {
                rejected += 1
            } catch {
                if failures.count < 20 { failures.append("\(query)  ->  \(error)") }
            }
        }
    }

    /// `$9` is a link to a Dog (its class index 1, object key 1).
    static let arguments: [Value] = [1, "a", .list([1, 2]), .double(0.5), 2, 3, 4, 5, 6, .link(ObjectLink(classIndex: 1, key: 1))]

    @Test func generatedQueriesCompileToValidSQL() throws {
        let db = try Self.database()
        var generator = QueryFuzzGenerator(seed: 77)
        var tally = Tally()
        for _ in 0..<10_000 { tally.run(db, generator.query(), arguments: Self.arguments) }
        #expect(tally.failures.isEmpty, "\(tally.failures.joined(separator: "\n"))")
        #expect(tally.ran > 500, "only \(tally.ran) of 10000 generated queries ran")
    }

    @Test func corpusAndMutationsCompileOrFailCleanly() throws {
        let db = try Self.database()
        var random = QueryFuzzRandom(seed: 99)
        var tally = Tally()
        let corpus = QueryFuzzTests.corpus.map { Array($0.utf8) }
        for query in QueryFuzzTests.corpus { tally.run(db, query, arguments: Self.arguments) }
        for _ in 0..<10_000 {
            var bytes = corpus[random.below(corpus.count)]
            for _ in 0..<(1 + random.below(3)) {
                let position = random.below(bytes.count + 1)
                switch random.below(3) {
                case 0 where !bytes.isEmpty: bytes.remove(at: min(position, bytes.count - 1))
                case 1:
                    let symbols = Array(" .[]{}()$0@'\"=<>!,*".utf8)
                    bytes.insert(symbols[random.below(symbols.count)], at: position)
                default: bytes.insert(contentsOf: Array([" AND ", " ALL ", "[c]", ".@count", "[0]", " SORT(age ASC)"][random.below(6)].utf8), at: position)
                }
            }
            tally.run(db, String(decoding: bytes, as: UTF8.self), arguments: Self.arguments)
        }
        #expect(tally.failures.isEmpty, "\(tally.failures.joined(separator: "\n"))")
    }
}
