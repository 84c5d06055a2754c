import DrumlinEngine
import CSQLite
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Opening without a schema, export and import as Extended JSON lines, check, compact, the busy
/// timeout and the logger.
@Suite struct ToolingTests {
    /// Types of every kind, with links both ways (a cycle), a type without a primary key, embedded
    /// objects, collections and mixed values.
    static let schema = """
    [
     {"name": "Person", "primaryKey": "id", "properties": {
        "id": "int", "name": "string", "born": "date?", "dog": "Dog", "friends": "Person[]",
        "notes": "Note<>", "byName": "Dog{}", "address": "Address", "extra": "mixed", "tags": "string[]"}},
     {"name": "Dog", "primaryKey": "name", "properties": {
        "name": "string", "owner": "Person", "uid": "uuid?", "weight": "decimal128?",
        "walkers": {"type": "linkingObjects", "objectType": "Person", "property": "dog"}}},
     {"name": "Note", "properties": {"text": "string", "about": "Person", "data": "data?", "oid": "objectId?"}},
     {"name": "Address", "embedded": true, "properties": {"street": "string", "note": "Note"}}
    ]
    """

    func populated(_ path: String) throws -> Database {
        let db = try Database(path: path, schemaJSON: Self.schema)
        try db.write {
            // Ann links to Bob (created after her), Bob to Ann: links both ways.
            try db.create("Note", json: #"{"text": "gone"}"#)
            try db.create("Person", json: """
                {"id": 1, "name": "Ann", "born": {"$date": "1990-01-02T03:04:05.123456789Z"}, "tags": ["a", "b"],
                 "extra": {"k": [1, 2.5, {"$numberDecimal": "1.10"}]}, "address": {"street": "Main", "note": {"text": "emb"}}}
                """)
            try db.create("Person", json: #"{"id": 2, "name": "Bob", "friends": [1, 1]}"#)
            try db.create("Dog", json: """
                {"name": "Rex", "owner": 2, "uid": {"$uuid": "8f6c6f0e-5a1b-4b5e-9c1e-2f1d6b2a9a10"}, "weight": {"$numberDecimal": "12.5"}}
                """)
            try db.create("Note", json: #"{"text": "hi", "about": 1, "data": {"$binary": {"base64": "AAE=", "subType": "00"}}, "oid": {"$oid": "65f1c0ffee0123456789abcd"}}"#)
            let ann = try #require(try db.object("Person", primaryKey: .int(1)))
            try ann.update(json: #"{"dog": "Rex", "friends": [2], "notes": [3], "byName": {"rex": "Rex", "none": null}}"#)
            // A deleted object leaves a gap in the keys of a type without a primary key.
            let gone = try db.query("Note", "text == 'gone'").object(at: 0)
            try db.delete(gone)
        }
        return db
    }

    /// Every object of every type as JSON with links expanded (object keys of a type without a
    /// primary key are the file's own and may differ), for comparing two files.
    func contents(_ db: Database) throws -> [String] {
        var texts = try ["Person", "Dog", "Note"].map { try db.objects($0).jsonText(depth: 6) }
        // Where a cycle ends the expansion, a Note prints as its key: compare its text instead.
        texts = texts.map { $0.replacing(/"notes":\[[0-9]+\]/, with: #""notes":[key]"#) }
        for id in [1, 2] {
            texts.append(try db.query("Note", "ANY @links.Person.notes.id == \(id)").jsonText())
        }
        return texts
    }

    @Test func openingWithoutASchemaUsesTheStoredOne() throws {
        let path = temporaryPath()
        let original = try populated(path)
        let stored = original.schemaJSON
        original.close()
        let db = try Database(path: path)
        #expect(db.schemaJSON == stored)
        #expect(try db.count("Person") == 2)
        try db.write { try db.create("Dog", json: #"{"name": "Bo"}"#) }
        db.close()
        let readOnly = try Database(path: path, options: OpenOptions(readOnly: true))
        #expect(try readOnly.count("Dog") == 2)
        expectError(.readOnly) { try readOnly.beginWrite() }
        readOnly.close()
        // A schema given later is compared with the stored one as always: an additive change applies.
        let wider = Self.schema.replacingOccurrences("\"tags\": \"string[]\"}}", "\"tags\": \"string[]\", \"nick\": \"string?\"}}")
        let reopened = try Database(path: path, schemaJSON: wider)
        #expect(try reopened.propertyIndex("Person", "nick") >= 0)
    }

    @Test func openingWithoutASchemaNeedsAnExistingDrumlinFile() throws {
        let directory = temporaryDirectory()
        expectError(.file) { _ = try Database(path: directory + "/missing.drumlin") }
        #expect(access(directory + "/missing.drumlin", F_OK) != 0)
        let empty = directory + "/empty.drumlin"
        fclose(fopen(empty, "w"))
        expectError(.file) { _ = try Database(path: empty) }
        expectError(.invalidArgument) { _ = try Database(path: ":memory:") }
    }

    @Test func exportThenImportIntoAFreshFileGivesIdenticalObjects() throws {
        let directory = temporaryDirectory()
        let source = try populated(directory + "/a.drumlin")
        var reports: [(Int64, Int64)] = []
        let exported = try source.exportNDJSON(to: directory + "/out.ndjson") { done, total in
            reports.append((done, total))
            return true
        }
        #expect(exported == 5)
        #expect(reports.last.map { $0 == (5, 5) } == true)
        let target = try Database(path: directory + "/b.drumlin", schemaJSON: Self.schema)
        let imported = try target.importNDJSON(from: directory + "/out.ndjson")
        #expect(imported == 5)
        let (copied, expected) = (try contents(target), try contents(source))
        #expect(copied == expected)
        #expect(try target.check().isEmpty)
    }

    @Test func exportOfOneTypeWritesPlainObjects() throws {
        let directory = temporaryDirectory()
        let db = try Database(path: directory + "/a.drumlin", schemaJSON: personSchema)
        try db.write { try db.createMany("Person", json: #"[{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bob", "age": 3}]"#) }
        try db.exportNDJSON(to: directory + "/people.ndjson", className: "Person")
        #expect(readLines(directory + "/people.ndjson") == [
            #"{"id":1,"name":"Ann","age":null,"email":null,"score":1.5,"active":true}"#,
            #"{"id":2,"name":"Bob","age":3,"email":null,"score":1.5,"active":true}"#,
        ])
    }

    @Test func aBadLineImportsNothingAndNamesTheLine() throws {
        let directory = temporaryDirectory()
        let input = directory + "/in.ndjson"
        writeLines(input, [#"{"id": 1, "name": "Ann"}"#, "", #"{"id": 2, "name": 5}"#, #"{"id": 3, "name": "Cy"}"#])
        let db = try Database(path: directory + "/a.drumlin", schemaJSON: personSchema)
        expectError(.typeMismatch, "Line 3: Type mismatch for property 'Person.name': expected string, got int.") {
            try db.importNDJSON(from: input, className: "Person")
        }
        #expect(try db.count("Person") == 0)
        writeLines(input, [#"{"id": 1, "name": "Ann"}"#, #"{"id": 2, "name": "Bo"#])
        expectError(.invalidArgument) { try db.importNDJSON(from: input, className: "Person") }
        writeLines(input, [#"{"id": 1, "name": "Ann"}"#])
        expectError(.invalidArgument, "Line 1: The line has no \"$type\" naming its object type (or import it with a type).") {
            try db.importNDJSON(from: input)
        }
        #expect(try db.count("Person") == 0)
        expectError(.file) { try db.importNDJSON(from: directory + "/missing.ndjson", className: "Person") }
    }

    @Test func importInBatchesKeepsTheBatchesBeforeABadLine() throws {
        let directory = temporaryDirectory()
        let input = directory + "/in.ndjson"
        writeLines(input, (1...5).map { #"{"id": \#($0), "name": "P\#($0)"}"# } + [#"{"id": 6}"#])
        let db = try Database(path: directory + "/a.drumlin", schemaJSON: personSchema)
        expectError(.missingValue) { try db.importNDJSON(from: input, className: "Person", batchSize: 2) }
        #expect(try db.count("Person") == 4)
    }

    @Test func importUpdatesExistingObjectsInTheUpdateModes() throws {
        let directory = temporaryDirectory()
        let input = directory + "/in.ndjson"
        writeLines(input, [#"{"id": 1, "name": "Ann", "age": 40}"#])
        let db = try Database(path: directory + "/a.drumlin", schemaJSON: personSchema)
        try db.write { try db.create("Person", json: #"{"id": 1, "name": "Ann", "age": 30}"#) }
        expectError(.duplicatePrimaryKey) { try db.importNDJSON(from: input, className: "Person") }
        #expect(try db.importNDJSON(from: input, className: "Person", update: .modified) == 1)
        #expect(try db.getJSON("Person", primaryKey: .int(1))?.contains(#""age":40"#) == true)
    }

    @Test func checkFindsDanglingLinksAndEmbeddedObjectsWithoutAnOwner() throws {
        let path = temporaryPath()
        let db = try populated(path)
        #expect(try db.check() == [])
        db.close()
        var raw: OpaquePointer?
        sqlite3_open(path, &raw)
        sqlite3_exec(raw, #"UPDATE "Person" SET "dog" = 999 WHERE "id" = 1; UPDATE "Person" SET "address" = NULL"#, nil, nil, nil)
        sqlite3_close(raw)
        let reopened = try Database(path: path)
        #expect(try reopened.check() == [
            "1 link of 'Person.dog' point at no live 'Dog' object.",
            "1 embedded 'Address' object has no owner.",
        ])
    }

    @Test func compactKeepsTheObjects() throws {
        let path = temporaryPath()
        let db = try populated(path)
        try db.compact()
        #expect(try db.count("Person") == 2)
        try db.beginWrite()
        expectError(.wrongTransactionState) { try db.compact() }
        try db.rollback()
    }

    @Test func theLoggerHearsOpensMigrationsSlowQueriesAndErrors() throws {
        let path = temporaryPath()
        let messages = Mutex<[(LogLevel, String)]>([])
        var options = OpenOptions(logger: { level, message in messages.withLock { $0.append((level, message)) } },
                                  slowQueryThreshold: .zero)
        let db = try Database(path: path, schemaJSON: personSchema, options: options)
        _ = try db.query("Person", "age > 3").count
        expectError(.noSuchClass) { _ = try db.count("Nobody") }
        db.close()
        options.schemaVersion = 2
        _ = try Database(path: path, schemaJSON: personSchema, options: options)
        let logged = messages.withLock { $0 }
        #expect(logged.contains { $0.0 == .info && $0.1.hasPrefix("Opened '\(path)' with 1 object type at schema version 0") })
        #expect(logged.contains { $0.0 == .warning && $0.1.hasPrefix("Slow query") && $0.1.hasSuffix("on 'Person': age > 3") })
        #expect(logged.contains { $0.0 == .error && $0.1 == "Object type 'Nobody' is not in the schema." })
        #expect(logged.contains { $0.0 == .info && $0.1 == "Migrated '\(path)' from schema version 0 to 2." })
    }

    @Test func aWriterWaitingPastTheBusyTimeoutIsToldWhatWaitedAndHowLong() throws {
        let path = temporaryPath()
        let first = try Database(path: path, schemaJSON: personSchema)
        let second = try Database(path: path, schemaJSON: personSchema, options: OpenOptions(busyTimeout: .milliseconds(50)))
        try first.beginWrite()
        expectError(.busy, "Could not begin a write transaction on '\(path)': another connection held the write lock for the whole busy timeout (50 ms). Set a longer busy timeout when opening to wait longer.") {
            try second.beginWrite()
        }
        try first.rollback()
    }
}

func writeLines(_ path: String, _ lines: [String]) {
    let file = fopen(path, "w")
    for line in lines { fputs(line + "\n", file) }
    fclose(file)
}

func readLines(_ path: String) -> [String] {
    guard let file = fopen(path, "r") else { return [] }
    defer { fclose(file) }
    var lines: [String] = []
    var buffer: UnsafeMutablePointer<CChar>?
    var capacity = 0
    while getline(&buffer, &capacity, file) >= 0, let buffer {
        var line = String(cString: buffer)
        if line.hasSuffix("\n") { line.removeLast() }
        lines.append(line)
    }
    free(buffer)
    return lines
}

extension String {
    func replacingOccurrences(_ target: String, _ replacement: String) -> String { replacing(target, with: replacement) }
}
