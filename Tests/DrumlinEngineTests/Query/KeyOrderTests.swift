import CSQLite
import DrumlinEngine
import Testing

/// Reads of a class keyed by its int primary key follow key order, with no sort, while its objects
/// were created in increasing key order (Objects/Database+KeyOrder.swift); once one was not, they
/// come in creation order again. Either way the order is creation order.
@Suite struct KeyOrderTests {
    func create(_ db: Database, _ ids: [Int]) throws {
        try db.write {
            for id in ids { _ = try db.create("Person", json: #"{"id": \#(id), "name": "p\#(id)", "age": \#(id % 7)}"#) }
        }
    }

    func createMany(_ db: Database, _ ids: [Int]) throws {
        let json = "[" + ids.map { #"{"id": \#($0), "name": "p\#($0)", "age": \#($0 % 7)}"# }.joined(separator: ",") + "]"
        try db.write { _ = try db.createMany("Person", json: json) }
    }

    /// The ids of `results` by every read there is: keys, whole rows in pages, JSON.
    func reads(_ results: Results) throws -> [[Int64]] {
        let byKeys = try results.objects.map(\.key)
        var paged: [Int64] = []
        while true {
            let read = try results.forEachRow(from: paged.count, maxRows: 3, [0]) { (row) throws(DrumlinError) in
                guard case .int(let id) = try row[0].value() else { throw DrumlinError(.internal, "id") }
                paged.append(id)
            }
            if read < 3 { break }
        }
        let json = try JSON.parse(try results.jsonText())
        let fromJSON = (json.arrayElements ?? []).compactMap { element -> Int64? in
            if case .int(let n)? = element.objectMembers?.first(where: { $0.key == "id" })?.value { return n }
            return nil
        }
        return [byKeys, paged, fromJSON]
    }

    func keyOrdered(_ path: String) -> Bool {
        sqlRows(path, "SELECT count(*) FROM _drumlin_meta WHERE key = 'key_order:Person'") == [["1"]]
    }

    func sorts(_ db: Database, _ query: String) throws -> Bool {
        try db.explainQueryPlan("Person", query).contains { $0.contains("TEMP B-TREE") }
    }

    @Test func objectsCreatedInKeyOrderAreReadWithoutASort() throws {
        let path = temporaryPath()
        let db = try openPeople(path)
        try create(db, [1, 2, 5])
        try createMany(db, Array(6 ... 200))
        #expect(keyOrdered(path))
        let all = try db.objects("Person")
        #expect(try reads(all) == Array(repeating: [1, 2] + (5 ... 200).map(Int64.init), count: 3))
        let filtered = try all.filter("age == 3", [])
        #expect(try reads(filtered) == Array(repeating: ([1, 2] + Array(5 ... 200)).filter { $0 % 7 == 3 }.map(Int64.init), count: 3))
        #expect(!(try sorts(db, "age == 3")))
        #expect(!(try sorts(db, "name == 'p7'")))   // the index on name is in key order for one name
        #expect(!(try sorts(db, "TRUEPREDICATE")))
        #expect(try db.check() == [])
    }

    @Test func aSmallerKeyCreatedLaterBringsBackCreationOrder() throws {
        let path = temporaryPath()
        let db = try openPeople(path)
        try create(db, [10, 20])
        let all = try db.objects("Person")
        #expect(try reads(all) == Array(repeating: [10, 20], count: 3))   // read in key order
        try create(db, [15])
        #expect(!keyOrdered(path))
        #expect(try reads(all) == Array(repeating: [10, 20, 15], count: 3))
        #expect(try reads(try all.filter("age >= 0", [])) == Array(repeating: [10, 20, 15], count: 3))
        #expect(try sorts(db, "age >= 0"))
        // Keys above every earlier one do not bring key order back.
        try create(db, [30])
        #expect(!keyOrdered(path))
        #expect(try reads(all) == Array(repeating: [10, 20, 15, 30], count: 3))
        #expect(try db.check() == [])
    }

    @Test func aBulkCreateChecksEveryKey() throws {
        let path = temporaryPath()
        let db = try openPeople(path)
        try createMany(db, Array(1 ... 100) + Array(201 ... 300))   // one batch ends, the next begins higher
        #expect(keyOrdered(path))
        try createMany(db, Array(301 ... 330) + [150] + Array(331 ... 400))   // a smaller key inside a batch
        #expect(!keyOrdered(path))
        let expected = (Array(1 ... 100) + Array(201 ... 330) + [150] + Array(331 ... 400)).map(Int64.init)
        #expect(try db.objects("Person").objects.map(\.key) == expected)
    }

    @Test func aRolledBackWriteKeepsKeyOrder() throws {
        let path = temporaryPath()
        let db = try openPeople(path)
        try create(db, [5, 6])
        #expect(throws: DrumlinError.self) {
            try db.write {
                _ = try db.create("Person", json: #"{"id": 1, "name": "early"}"#)
                // Inside the write, reads already see creation order.
                #expect(try db.objects("Person").objects.map(\.key) == [5, 6, 1])
                throw DrumlinError(.invalidArgument, "undo")
            }
        }
        #expect(keyOrdered(path))
        #expect(try db.objects("Person").objects.map(\.key) == [5, 6])
        // The write after it still checks against the keys there are.
        try create(db, [7, 3])
        #expect(!keyOrdered(path))
        #expect(try db.objects("Person").objects.map(\.key) == [5, 6, 7, 3])
    }

    @Test func anotherHandlesWriteIsSeenInTheSameRead() throws {
        let path = temporaryPath()
        let reader = try openPeople(path)
        let writer = try openPeople(path)
        try create(writer, [2, 4])
        let all = try reader.objects("Person")
        let filtered = try all.filter("age >= 0", [])
        #expect(try reads(all) == Array(repeating: [2, 4], count: 3))
        #expect(try reads(filtered) == Array(repeating: [2, 4], count: 3))
        // The reader still takes the class to be in key order; its next reads find out.
        try create(writer, [3])
        #expect(try reads(filtered) == Array(repeating: [2, 4, 3], count: 3))
        #expect(try reads(all) == Array(repeating: [2, 4, 3], count: 3))
        #expect(try reader.check() == [])
    }

    @Test func anEmptyReadInKeyOrderIsEmpty() throws {
        let db = try openPeople()
        try create(db, [1, 2])
        let none = try db.objects("Person").filter("age == 6", [])
        #expect(try reads(none) == [[], [], []])
        try create(db, [0])
        #expect(try reads(none) == [[], [], []])
        #expect(try db.objects("Person").objects.map(\.key) == [1, 2, 0])
    }

    @Test func checkReportsAClassMarkedInKeyOrderThatIsNot() throws {
        let path = temporaryPath()
        let db = try openPeople(path)
        try create(db, [2, 1])
        execute(path, "INSERT INTO _drumlin_meta (key, value) VALUES ('key_order:Person', 1)")
        #expect(try db.check() == [
            "'Person' is marked as created in key order (_drumlin_meta 'key_order:Person'), but 1 object was created before an object of a smaller key.",
        ])
    }

    @Test func aFormatOneFileIsReadAndUpgradedWhenOpenedForWriting() throws {
        let path = temporaryPath()
        do {
            let db = try openPeople(path)
            try create(db, [1, 2])
        }
        // A file as a format-1 library left it: no key-order rows.
        execute(path, "UPDATE _drumlin_meta SET value = 1 WHERE key = 'format'; DELETE FROM _drumlin_meta WHERE key LIKE 'key_order:%'")
        var options = OpenOptions()
        options.readOnly = true
        let readOnly = try Database(path: path, options: options)
        #expect(try readOnly.objects("Person").objects.map(\.key) == [1, 2])
        #expect(sqlRows(path, "SELECT value FROM _drumlin_meta WHERE key = 'format'") == [["1"]])
        let db = try openPeople(path)
        #expect(sqlRows(path, "SELECT value FROM _drumlin_meta WHERE key = 'format'") == [["4"]])
        try create(db, [3])
        #expect(!keyOrdered(path))   // out of key order until proven otherwise
        #expect(try db.objects("Person").objects.map(\.key) == [1, 2, 3])
        // Another format is refused.
        execute(path, "UPDATE _drumlin_meta SET value = 5 WHERE key = 'format'")
        expectError(.corrupt, "The file '\(path)' uses Drumlin format 5; this library reads formats 1, 2, 3 and 4.") {
            _ = try openPeople(path)
        }
    }
}

extension KeyOrderTests {
    @Test func aClassAddedToAnExistingFileStartsInKeyOrder() throws {
        let path = temporaryPath()
        do { _ = try openPeople(path) }
        let withPets = """
            [\(personSchema.dropFirst().dropLast()), {"name": "Pet", "primaryKey": "id", "properties": {"id": "int", "name": "string"}},
             {"name": "Tag", "primaryKey": "name", "properties": {"name": "string"}}]
            """
        let db = try Database(path: path, schemaJSON: withPets)
        #expect(sqlRows(path, "SELECT key FROM _drumlin_meta WHERE key LIKE 'key_order:%' ORDER BY key") == [["key_order:Person"], ["key_order:Pet"]])
        try db.write {
            for id in [3, 1] { _ = try db.create("Pet", json: #"{"id": \#(id), "name": "p"}"#) }
        }
        #expect(try db.objects("Pet").objects.map(\.key) == [3, 1])
        #expect(sqlRows(path, "SELECT key FROM _drumlin_meta WHERE key LIKE 'key_order:%'") == [["key_order:Person"]])
    }
}

extension KeyOrderTests {
    @Test func aMigrationWorksKeyOrderOutFromTheRows() throws {
        let path = temporaryPath()
        let v1 = #"[{"name": "Item", "primaryKey": "id", "properties": {"id": "int", "n": "int"}}]"#
        let v2 = #"[{"name": "Item", "primaryKey": "id", "properties": {"id": "int", "n": "string"}}]"#
        do {
            let db = try Database(path: path, schemaJSON: v1, options: OpenOptions(schemaVersion: 1))
            try db.write { for id in [1, 2, 3] { _ = try db.create("Item", json: #"{"id": \#(id), "n": \#(id)}"#) } }
        }
        // As a format-1 file would have it: in key order, without the row that says so.
        execute(path, "DELETE FROM _drumlin_meta WHERE key = 'key_order:Item'")
        let db = try Database(path: path, schemaJSON: v2, options: OpenOptions(schemaVersion: 2))
        #expect(sqlRows(path, "SELECT count(*) FROM _drumlin_meta WHERE key = 'key_order:Item'") == [["1"]])
        #expect(try db.objects("Item").objects.map(\.key) == [1, 2, 3])
        try db.write { _ = try db.create("Item", json: #"{"id": 0, "n": "0"}"#) }
        #expect(sqlRows(path, "SELECT count(*) FROM _drumlin_meta WHERE key = 'key_order:Item'") == [["0"]])
        let v3 = #"[{"name": "Item", "primaryKey": "id", "properties": {"id": "int", "n": "int"}}]"#
        let migrated = try Database(path: path, schemaJSON: v3, options: OpenOptions(schemaVersion: 3))
        #expect(sqlRows(path, "SELECT count(*) FROM _drumlin_meta WHERE key = 'key_order:Item'") == [["0"]])
        #expect(try migrated.objects("Item").objects.map(\.key) == [1, 2, 3, 0])
        #expect(try migrated.check() == [])
    }
}
