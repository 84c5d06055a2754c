@testable import DrumlinEngine
import DrumlinValues
import Testing

/// `createMany` of a class with relationships defers its rows into multi-row batches of 64
/// (Objects/PendingRows.swift): what it stores, and how it fails, must be what creating the
/// objects one by one gives.
@Suite struct BulkBatchTests {
    static let schema = """
    [{"name": "User", "primaryKey": "id", "properties": {"id": "int", "name": "string"}},
     {"name": "Task", "primaryKey": "id", "properties": {
        "id": "int", "title": "string", "extra": "mixed", "owner": "User?", "tags": "string[]",
        "labels": "string<>", "scores": "int{}", "spots": "Spot[]", "spot": "Spot?"}},
     {"name": "Spot", "embedded": true, "properties": {"city": "string", "codes": "int[]"}},
     {"name": "Note", "properties": {"text": "string", "spot": "Spot?"}}]
    """

    func open() throws -> Database {
        let db = try Database(path: ":memory:", schemaJSON: Self.schema)
        try db.write { _ = try db.createMany("User", json: #"[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]"#) }
        return db
    }

    static func task(_ i: Int) -> String {
        let extra = i % 3 == 0 ? "[\(i), {\"k\": [\(i)]}]" : "\(i)"
        let tags = (0..<(i % 4)).map { "\"t\($0)\"" }.joined(separator: ", ")
        let spots = (0..<(i % 3)).map { "{\"city\": \"c\($0)\", \"codes\": [\($0), \(i)]}" }.joined(separator: ", ")
        return """
        {"id": \(i), "title": "task \(i)", "extra": \(extra), "owner": \(i % 5 == 0 ? "null" : "\(1 + i % 2)"), "tags": [\(tags)],
         "labels": ["x", "y\(i % 2)"], "scores": {"s": \(i)}, "spots": [\(spots)], "spot": {"city": "here", "codes": [\(i)]}}
        """
    }

    @Test func batchedObjectsReadBackAsObjectsCreatedOneByOne() throws {
        let many = try open(), single = try open()
        let rows = (1...200).map(Self.task)
        #expect(try many.write { try many.createMany("Task", json: "[" + rows.joined(separator: ",") + "]") } == 200)
        try single.write { for row in rows { _ = try single.create("Task", json: row) } }
        for id in [1, 3, 63, 64, 65, 128, 199, 200] {
            let batched = try many.getJSON("Task", primaryKey: .int(Int64(id)), depth: 2)
            #expect(batched != nil)
            #expect(batched == (try single.getJSON("Task", primaryKey: .int(Int64(id)), depth: 2)))
        }
        #expect(try many.count("Spot") == single.count("Spot"))
        #expect(try many.getJSON("Task", primaryKey: .int(3))?.contains(#""extra":[3,{"k":[3]}]"#) == true)
    }

    @Test func objectsWithoutAPrimaryKeyGetTheKeysSQLiteGives() throws {
        let many = try open(), single = try open()
        let rows = (0..<100).map { #"{"text": "n\#($0)", "spot": {"city": "c", "codes": [\#($0)]}}"# }
        try many.write { _ = try many.createMany("Note", json: "[" + rows.joined(separator: ",") + "]") }
        try single.write { for row in rows { _ = try single.create("Note", json: row) } }
        func keys(_ db: Database) throws -> [Int64] {
            let results = try db.objects("Note")
            return try (0..<results.count).map { try results.object(at: $0).key }
        }
        #expect(try keys(many) == Array(1...100))
        #expect(try keys(many) == keys(single))
    }

    @Test func theEarliestBadElementIsReportedAndNothingIsWritten() throws {
        let db = try open()
        var rows = (1...150).map(Self.task)
        rows[80] = rows[80].replacing("\"id\": 81,", with: "\"id\": 7,")      // duplicate, found when written
        rows[100] = rows[100].replacing("\"scores\": {\"s\": 101}", with: "\"scores\": {\"s\": \"x\"}")
        try db.beginWrite()
        expectError(.duplicatePrimaryKey, "Element 80: Attempting to create an object of type 'Task' with an existing primary key value '7'.") {
            _ = try db.createMany("Task", json: "[" + rows.joined(separator: ",") + "]")
        }
        #expect(try db.count("Task") == 0)
        #expect(try db.count("Spot") == 0)
        try db.commit()
    }
}
