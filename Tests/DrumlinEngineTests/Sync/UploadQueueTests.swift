import DrumlinEngine
import DrumlinValues
import Synchronization
import Testing

/// The sync client's upload queue in the file (Sync/Database+UploadQueue.swift): batches fixed
/// from the asymmetric tables, kept across reopen, compaction and migrations, invisible as classes.
@Suite struct UploadQueueTests {
    static let schema = """
    [{"name": "Reading", "asymmetric": true, "primaryKey": "_id",
      "properties": {"_id": "objectId", "sensor": "string", "celsius": "double"}},
     {"name": "Note", "primaryKey": "id", "properties": {"id": "int", "text": "string"}}]
    """

    /// A frame as the protocol writes it, enough for these tests: `{"seq", "inserts": [...]}`.
    static func encode(_ seq: Int64, _ groups: [UploadGroup]) -> [UInt8] {
        var writer = JSONWriter()
        writer.write(.object([("seq", .int(seq)), ("inserts", .array(groups.map {
            JSON.object([("class", .string($0.className)), ("objects", .array($0.objects))])
        }))]))
        return writer.bytes
    }

    static func oid(_ n: Int) -> String {
        let digits = String(n, radix: 16)
        return "65f1c0ffee" + String(repeating: "0", count: 14 - digits.count) + digits
    }

    static func createReadings(_ db: Database, _ range: Range<Int>) throws {
        try db.write {
            for n in range {
                _ = try db.create("Reading", json: #"{"_id": {"$oid": "\#(oid(n))"}, "sensor": "s-\#(n)", "celsius": \#(n).5}"#)
            }
        }
    }

    static func fix(_ db: Database, _ maxObjects: Int = 1000, maxBytes: Int = 4 << 20) throws -> UploadBatch? {
        try db.fixUploadBatch(maxObjects: maxObjects, maxBytes: maxBytes, encode: encode)
    }

    static func text(_ batch: UploadBatch?) -> String { batch.map { String(decoding: $0.frame, as: UTF8.self) } ?? "nil" }

    static func reading(_ n: Int) -> String { #"{"_id":{"$oid":"\#(oid(n))"},"sensor":"s-\#(n)","celsius":\#(n).5}"# }

    @Test func batchesTakeTheOldestObjectsUpToTheCountAndNumberThemInOrder() throws {
        let db = try Database(path: temporaryPath(), schemaJSON: Self.schema)
        defer { db.close() }
        try Self.createReadings(db, 0..<3)
        try Self.createReadings(db, 3..<5)
        #expect(try db.uploadQueueCounts() == (queued: 5, batched: 0))
        let first = try Self.fix(db, 3)
        #expect(first?.seq == 1)
        #expect(first?.objects == 3)
        #expect(Self.text(first) == #"{"seq":1,"inserts":[{"class":"Reading","objects":[\#((0..<3).map(Self.reading).joined(separator: ","))]}]}"#)
        #expect(try db.uploadQueueCounts() == (queued: 2, batched: 3))
        let second = try Self.fix(db, 3)
        #expect(second?.seq == 2)
        #expect(Self.text(second) == #"{"seq":2,"inserts":[{"class":"Reading","objects":[\#((3..<5).map(Self.reading).joined(separator: ","))]}]}"#)
        #expect(try Self.fix(db, 3) == nil)
        #expect(try db.uploadQueueCounts() == (queued: 0, batched: 5))
        // Nothing of the queue is left in the class's table; the batches wait in theirs.
        #expect(sqlRows(db.path, "SELECT count(*) FROM Reading") == [["0"]])
        #expect(sqlRows(db.path, "SELECT seq, objects FROM _drumlin_sync_batches ORDER BY seq") == [["1", "3"], ["2", "2"]])
    }

    @Test func theByteLimitCutsABatchShortButAnObjectAlwaysFitsAlone() throws {
        let db = try Database(path: temporaryPath(), schemaJSON: Self.schema)
        defer { db.close() }
        try Self.createReadings(db, 0..<4)
        let one = Self.reading(0).utf8.count
        // Room for two objects and the frame around them, not three.
        let batch = try Self.fix(db, 10, maxBytes: 256 + 2 * (one + 1) + 10)
        #expect(batch?.objects == 2)
        #expect(try db.uploadQueueCounts() == (queued: 2, batched: 2))
        let alone = try Self.fix(db, 10, maxBytes: 10)
        #expect(alone?.objects == 1)
        #expect(alone?.seq == 2)
        expectError(.invalidArgument, "A batch needs room for one object (maxObjects 0, maxBytes 10).") {
            _ = try Self.fix(db, 0, maxBytes: 10)
        }
        #expect(try db.uploadQueueCounts() == (queued: 1, batched: 3))
    }

    @Test func embeddedObjectsNestAndLinksTravelAsTheTargetsId() throws {
        let schema = """
        [{"name": "Device", "primaryKey": "_id", "properties": {"_id": "string", "model": "string"}},
         {"name": "Place", "embedded": true, "properties": {"city": "string", "tags": "string[]"}},
         {"name": "Local", "properties": {"x": "int"}},
         {"name": "Sample", "asymmetric": true, "primaryKey": "_id", "properties": {
           "_id": "uuid", "count": "int", "ok": "bool", "value": "double", "at": "date", "amount": "decimal128",
           "blob": "data", "any": "mixed", "device": "Device", "place": "Place", "history": "double[]",
           "stops": "Place[]", "extra": "mixed{}", "tag": "uuid?"}}]
        """
        let db = try Database(path: temporaryPath(), schemaJSON: schema)
        defer { db.close() }
        try db.write {
            _ = try db.create("Device", json: #"{"_id": "dev-1", "model": "m"}"#)
            _ = try db.create("Sample", json: """
                {"_id": {"$uuid": "3b241101-e2bb-4255-8caf-4136c566a962"}, "count": 7, "ok": true, "value": 0.25,
                 "at": {"$date": "2026-12-07T13:00:00.123456789Z"}, "amount": {"$numberDecimal": "12.50"},
                 "blob": {"$binary": {"base64": "AAEC/w==", "subType": "00"}}, "any": {"$oid": "65f1c0ffee0123456789abcd"},
                 "device": "dev-1", "place": {"city": "Bern", "tags": ["old"]}, "history": [1, 2.5],
                 "stops": [{"city": "Thun", "tags": []}], "extra": {"k": [1, "two"]}, "tag": null}
                """)
        }
        let batch = try Self.fix(db)
        #expect(Self.text(batch) == """
            {"seq":1,"inserts":[{"class":"Sample","objects":[{"_id":{"$uuid":"3b241101-e2bb-4255-8caf-4136c566a962"},\
            "count":7,"ok":true,"value":0.25,"at":{"$date":"2026-12-07T13:00:00.123456789Z"},"amount":{"$numberDecimal":"12.50"},\
            "blob":{"$binary":{"base64":"AAEC/w==","subType":"00"}},"any":{"$oid":"65f1c0ffee0123456789abcd"},\
            "device":"dev-1","place":{"city":"Bern","tags":["old"]},"history":[1.0,2.5],\
            "stops":[{"city":"Thun","tags":[]}],"extra":{"k":[1,"two"]},"tag":null}]}]}
            """)
        // The embedded objects left with their owner; the linked device stays.
        #expect(sqlRows(db.path, "SELECT count(*) FROM Place") == [["0"]])
        #expect(try db.count("Device") == 1)
        // The session's schema: the asymmetric class and what it reaches, not the unrelated class.
        let names = (db.uploadSchemaJSON.arrayElements ?? []).compactMap { $0["name"]?.stringValue }
        #expect(names == ["Device", "Place", "Sample"])
        #expect(db.uploadedClasses == ["Sample"])
    }

    @Test func aRolledBackWriteQueuesNothing() throws {
        let db = try Database(path: temporaryPath(), schemaJSON: Self.schema)
        defer { db.close() }
        try db.beginWrite()
        _ = try db.create("Reading", json: #"{"_id": {"$oid": "\#(Self.oid(1))"}, "sensor": "s", "celsius": 1}"#)
        try db.rollback()
        #expect(try db.uploadQueueCounts() == (queued: 0, batched: 0))
        #expect(try Self.fix(db) == nil)
        #expect(try db.uploadBatches(after: 0, limit: 10) == [])
    }

    @Test func batchesAndTheClientIdSurviveReopenAndAreDroppedWhenAcknowledged() throws {
        let path = temporaryPath()
        var db = try Database(path: path, schemaJSON: Self.schema)
        let id = try db.uploadClientId()
        #expect(id.utf8.count == 36 && UUIDValue(string: id) != nil)
        #expect(try db.uploadClientId() == id)
        try Self.createReadings(db, 0..<3)
        let first = try #require(try Self.fix(db, 2))
        let second = try #require(try Self.fix(db, 2))
        db.close()
        db = try Database(path: path, schemaJSON: Self.schema)
        defer { db.close() }
        #expect(try db.uploadClientId() == id)
        #expect(try db.uploadBatches(after: 0, limit: 10) == [first, second])
        #expect(try db.uploadBatches(after: 1, limit: 10) == [second])
        #expect(try db.uploadBatches(after: 0, limit: 1) == [first])
        #expect(try db.dropUploadBatches(through: 1) == 2)
        #expect(try db.uploadBatches(after: 0, limit: 10) == [second])
        // Numbering goes on after the acknowledged batches, never reusing a number.
        try Self.createReadings(db, 3..<4)
        #expect(try Self.fix(db)?.seq == 3)
        #expect(try db.dropUploadBatches(through: 3) == 2)
        #expect(try db.uploadQueueCounts() == (queued: 0, batched: 0))
    }

    @Test func theQueueIsNoClassAndPassesTheChecksCompactionAndExport() throws {
        let path = temporaryPath()
        let db = try Database(path: path, schemaJSON: Self.schema)
        try Self.createReadings(db, 0..<3)
        try db.write { _ = try db.create("Note", json: #"{"id": 1, "text": "t"}"#) }
        let batch = try #require(try Self.fix(db, 2))
        _ = try db.uploadClientId()
        #expect(try db.check() == [])
        try db.compact()
        #expect(try db.uploadBatches(after: 0, limit: 10) == [batch])
        let exported = temporaryPath("all.ndjson")
        #expect(try db.exportNDJSON(to: exported) == 1)
        db.close()
        // Opened by its stored schema: the queue's table is not a class.
        let stored = try Database(path: path)
        defer { stored.close() }
        #expect(stored.schema.objectSchemas.map(\.name) == ["Reading", "Note"])
        var schemaText = JSONWriter()
        schemaText.write(stored.schemaJSON)
        #expect(!schemaText.string.contains("_drumlin_sync"))
        #expect(try stored.uploadBatches(after: 0, limit: 10) == [batch])
        #expect(try stored.uploadQueueCounts() == (queued: 1, batched: 2))
    }

    @Test func aTriggerOnTheBatchTableRefusesTheFile() throws {
        let path = temporaryPath()
        let db = try Database(path: path, schemaJSON: Self.schema)
        try Self.createReadings(db, 0..<1)
        _ = try Self.fix(db)
        db.close()
        execute(path, "CREATE TRIGGER t AFTER DELETE ON _drumlin_sync_batches BEGIN SELECT 1; END")
        expectError(.corrupt, "The file '\(path)' is damaged: The trigger 't' on '_drumlin_sync_batches' was not made by Drumlin: it would run on Drumlin's writes. It was left unchanged.") {
            _ = try Database(path: path, schemaJSON: Self.schema)
        }
    }

    @Test func aMigrationKeepsTheQueueTheBatchesAndTheClientId() throws {
        let path = temporaryPath()
        var db = try Database(path: path, schemaJSON: Self.schema)
        let id = try db.uploadClientId()
        try Self.createReadings(db, 0..<3)
        let batch = try #require(try Self.fix(db, 1))
        db.close()
        // Note's text becomes an int: a migration rebuilds its table.
        let changed = Self.schema.replacing(#""text": "string""#, with: #""text": "int""#)
        db = try Database(path: path, schemaJSON: changed, options: OpenOptions(schemaVersion: 1))
        defer { db.close() }
        #expect(try db.uploadClientId() == id)
        #expect(try db.uploadBatches(after: 0, limit: 10) == [batch])
        #expect(try db.uploadQueueCounts() == (queued: 2, batched: 1))
        #expect(try Self.fix(db)?.seq == 2)
        #expect(try db.check() == [])
    }

    @Test func everyCommitThroughTheHandleTellsTheObserver() throws {
        let db = try Database(path: temporaryPath(), schemaJSON: Self.schema)
        defer { db.close() }
        let count = Counter()
        db.setCommitObserver { count.add() }
        try Self.createReadings(db, 0..<1)
        try db.beginWrite()
        try db.rollback()
        #expect(count.value == 1)
        db.setCommitObserver(nil)
        try Self.createReadings(db, 1..<2)
        #expect(count.value == 1)
    }
}

final class Counter: Sendable {
    private let count = Mutex<Int>(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
