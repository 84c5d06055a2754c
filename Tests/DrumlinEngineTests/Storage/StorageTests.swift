import DrumlinEngine
import CSQLite
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct StorageTests {
    let mapped = """
    [{"name": "Person", "mapTo": "people", "primaryKey": "_id", "properties": {
        "_id": "objectId", "firstName": {"type": "string", "mapTo": "first_name", "indexed": true}, "age": "int?",
        "anything": "mixed"}},
     {"name": "Note", "properties": {"text": "string"}}]
    """

    @Test func tablesAndColumnsUseStoredNames() throws {
        let path = temporaryPath()
        try Database(path: path, schemaJSON: mapped).close()
        let tables = sqlRows(path, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map { $0[0] }
        #expect(tables == ["Note", "_drumlin_classes", "_drumlin_meta", "_drumlin_mixed", "_drumlin_mixed_collections", "people"])
        let columns = sqlRows(path, "SELECT name FROM pragma_table_info('people')").map { $0[0] }
        #expect(columns == ["_drumlin_key", "_id", "first_name", "age", "anything", "_drumlin_type_anything"])
        let indexes = sqlRows(path, "SELECT name, \"unique\" FROM pragma_index_list('people') ORDER BY name").map { $0.joined(separator: ":") }
        // The mixed column's partial index over held objects (type 10), for clearing them on delete.
        #expect(indexes == ["_drumlin_idx_6_people_first_name:0", "_drumlin_mlink_6_people_anything:0", "_drumlin_pk_6_people__id:1"])
        #expect(sqlRows(path, "PRAGMA journal_mode") == [["wal"]])
    }

    @Test func intPrimaryKeyIsTheRowKey() throws {
        let path = temporaryPath()
        let db = try openPeople(path)
        try db.write { try db.create("Person", json: #"{"id": 42, "name": "A"}"#) }
        #expect(try db.object("Person", primaryKey: 42)?.key == 42)
        db.close()
        #expect(sqlRows(path, "SELECT name, pk FROM pragma_table_info('Person') WHERE pk = 1") == [["id", "1"]])
        #expect(sqlRows(path, "SELECT \"id\", name, score, active FROM \"Person\"") == [["42", "A", "1.5", "1"]])
    }

    @Test func lookupsByPrimaryKeyAndIndexUseIndexes() throws {
        let path = temporaryPath()
        try Database(path: path, schemaJSON: mapped).close()
        let plan = sqlRows(path, "EXPLAIN QUERY PLAN SELECT * FROM people WHERE \"_id\" = x'00'").map { $0.last ?? "" }
        #expect(plan.contains { $0.contains("USING INDEX _drumlin_pk_6_people__id") }, "\(plan)")
        let byName = sqlRows(path, "EXPLAIN QUERY PLAN SELECT * FROM people WHERE first_name = 'a'").map { $0.last ?? "" }
        #expect(byName.contains { $0.contains("USING INDEX _drumlin_idx_6_people_first_name") }, "\(byName)")
    }

    @Test func dataSurvivesReopenAndASubsetSchemaWorks() throws {
        let path = temporaryPath()
        do {
            let db = try Database(path: path, schemaJSON: mapped)
            try db.write {
                try db.create("Note", json: #"{"text": "keep me"}"#)
                try db.create("Person", json: #"{"_id": {"$oid": "65f1c0ffee0123456789abcd"}, "firstName": "Ann", "anything": 3}"#)
            }
            db.close()
        }
        let subset = #"[{"name": "Note", "properties": {"text": "string"}}]"#
        let db = try Database(path: path, schemaJSON: subset)
        #expect(try db.count("Note") == 1)
        expectError(.noSuchClass) { _ = try db.count("Person") }
        db.close()
        let full = try Database(path: path, schemaJSON: mapped)
        let ann = try #require(try full.object("Person", primaryKey: .objectId(ObjectId(hex: "65f1c0ffee0123456789abcd")!)))
        #expect(try ann["firstName"] == "Ann")
        #expect(try ann["anything"] == .int(3))
    }

    @Test func aDirectoryIsAFileErrorThatSaysSo() throws {
        // SQLite's own word for it was "disk I/O error"; with a schema, the stored one, read-only.
        let folder = temporaryDirectory() + "/folder.drumlin"
        #expect(mkdir(folder, 0o700) == 0)
        let message = "Cannot open '\(folder)': it is a directory, not a database file."
        expectError(.file, message) { _ = try Database(path: folder, schemaJSON: personSchema) }
        expectError(.file, message) { _ = try Database(path: folder) }
        var readOnly = OpenOptions()
        readOnly.readOnly = true
        expectError(.file, message) { _ = try Database(path: folder, options: readOnly) }
        for beside in ["-wal", "-shm", "-journal"] { #expect(access(folder + beside, F_OK) != 0) }
    }

    @Test func aFileThatIsNotDrumlinIsRefusedUntouched() throws {
        let dir = temporaryDirectory()
        let text = dir + "/notes.txt"
        let file = fopen(text, "w")!
        fputs("hello, this is not a database at all\n", file)
        fclose(file)
        expectError(.corrupt) { _ = try Database(path: text, schemaJSON: personSchema) }
        let reread = fopen(text, "r")!
        var buffer = [CChar](repeating: 0, count: 100)
        fgets(&buffer, 100, reread)
        fclose(reread)
        #expect(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                == "hello, this is not a database at all\n")
        #expect(access(text + "-wal", F_OK) != 0)

        // A valid SQLite file of another application is refused too, and keeps its tables.
        let other = dir + "/other.db"
        var raw: OpaquePointer?
        sqlite3_open(other, &raw)
        sqlite3_exec(raw, "CREATE TABLE t(x); INSERT INTO t VALUES (1)", nil, nil, nil)
        sqlite3_close(raw)
        expectError(.corrupt) { _ = try Database(path: other, schemaJSON: personSchema) }
        #expect(sqlRows(other, "SELECT name FROM sqlite_master") == [["t"]])
        #expect(sqlRows(other, "PRAGMA journal_mode") == [["delete"]])
    }

    @Test func additiveChangesMigrateAutomatically() throws {
        let path = temporaryPath()
        let v1 = #"[{"name": "Item", "primaryKey": "id", "properties": {"id": "int", "title": "string"}}]"#
        let db1 = try Database(path: path, schemaJSON: v1)
        try db1.write { try db1.create("Item", json: #"{"id": 1, "title": "old"}"#) }
        db1.close()
        let v2 = """
        [{"name": "Item", "primaryKey": "id", "properties": {"id": "int", "title": {"type": "string", "indexed": true},
           "count": "int", "note": "string?"}},
         {"name": "Tag", "properties": {"label": "string"}}]
        """
        let db2 = try Database(path: path, schemaJSON: v2)
        #expect(try db2.getJSON("Item", primaryKey: 1) == #"{"id":1,"title":"old","count":0,"note":null}"#)
        try db2.write { try db2.create("Tag", json: #"{"label": "x"}"#) }
        db2.close()
        #expect(sqlRows(path, "SELECT name FROM pragma_index_list('Item')").map { $0[0] } == ["_drumlin_idx_4_Item_title"])
    }

    @Test func breakingChangesRequireAMigration() throws {
        let path = temporaryPath()
        try Database(path: path, schemaJSON: #"[{"name": "Item", "properties": {"title": "string", "n": "int"}}]"#).close()
        expectError(.migrationRequired, """
            Migration is required due to the following errors:
            - Property 'Item.title' has been changed from 'string' to 'int'.
            - Property 'Item.n' has been made optional.
            """) {
            _ = try Database(path: path, schemaJSON: #"[{"name": "Item", "properties": {"title": "int", "n": "int?"}}]"#)
        }
        expectError(.migrationRequired, "Migration is required due to the following errors:\n- Property 'Item.n' has been removed.") {
            _ = try Database(path: path, schemaJSON: #"[{"name": "Item", "properties": {"title": "string"}}]"#)
        }
        // delete_if_migration_needed starts afresh instead.
        let fresh = try Database(path: path, schemaJSON: #"[{"name": "Item", "properties": {"title": "int"}}]"#,
                                 options: OpenOptions(deleteIfMigrationNeeded: true))
        #expect(try fresh.count("Item") == 0)
    }

    @Test func schemaVersionIsStoredAndMayNotGoDown() throws {
        let path = temporaryPath()
        let db = try Database(path: path, schemaJSON: personSchema, options: OpenOptions(schemaVersion: 3))
        #expect(db.schemaVersion == 3)
        db.close()
        expectError(.migrationFailed, "Provided schema version 2 is less than last set version 3.") {
            _ = try Database(path: path, schemaJSON: personSchema, options: OpenOptions(schemaVersion: 2))
        }
        let higher = try Database(path: path, schemaJSON: personSchema, options: OpenOptions(schemaVersion: 4))
        #expect(higher.schemaVersion == 4)
    }

    @Test func readOnlyDatabasesRefuseWrites() throws {
        let path = temporaryPath()
        let writer = try openPeople(path)
        try writer.write { try writer.create("Person", json: #"{"id": 1, "name": "Ann"}"#) }
        writer.close()
        let reader = try Database(path: path, schemaJSON: personSchema, options: OpenOptions(readOnly: true))
        #expect(try reader.count("Person") == 1)
        expectError(.readOnly, "The database was opened read-only.") { try reader.beginWrite() }
        expectError(.file) {
            _ = try Database(path: temporaryPath(), schemaJSON: personSchema, options: OpenOptions(readOnly: true))
        }
    }

    @Test func hostileNamesAreQuotedNotExecuted() throws {
        let path = temporaryPath()
        let schema = #"[{"name": "Robert\"); DROP TABLE x; --", "properties": {"na\"me; --": "string", "it's": "int?"}}]"#
        let db = try Database(path: path, schemaJSON: schema)
        try db.write { try db.create("Robert\"); DROP TABLE x; --", json: #"{"na\"me; --": "'; DELETE FROM _drumlin_meta; --", "it's": 1}"#) }
        #expect(try db.count("Robert\"); DROP TABLE x; --") == 1)
        db.close()
        #expect(sqlRows(path, "SELECT count(*) FROM _drumlin_meta") == [["2"]])
        #expect(sqlRows(path, #"SELECT "na""me; --" FROM "Robert""); DROP TABLE x; --""#) == [["'; DELETE FROM _drumlin_meta; --"]])
    }
}

@Suite struct TransactionTests {
    @Test func rollbackDiscardsEverything() throws {
        let db = try openPeople(temporaryPath())
        try db.beginWrite()
        try db.create("Person", json: #"{"id": 1, "name": "A"}"#)
        #expect(try db.count("Person") == 1)
        try db.rollback()
        #expect(try db.count("Person") == 0)
        #expect(!db.isInWriteTransaction)
    }

    @Test func writeCommitsOrRollsBack() throws {
        let db = try openPeople(temporaryPath())
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try db.write {
                try db.create("Person", json: #"{"id": 1, "name": "A"}"#)
                throw Boom()
            }
        }
        #expect(try db.count("Person") == 0)
        try db.write { try db.create("Person", json: #"{"id": 1, "name": "A"}"#) }
        #expect(try db.count("Person") == 1)
    }

    @Test func transactionStateErrors() throws {
        let db = try openPeople()
        expectError(.wrongTransactionState, "Cannot commit: the database is not in a write transaction.") { try db.commit() }
        expectError(.wrongTransactionState, "Cannot roll back: the database is not in a write transaction.") { try db.rollback() }
        try db.beginWrite()
        expectError(.wrongTransactionState, "The database is already in a write transaction.") { try db.beginWrite() }
        try db.commit()
    }

    @Test func committedDataIsVisibleToAnotherHandleAndUncommittedIsNot() throws {
        let path = temporaryPath()
        let writer = try openPeople(path)
        let reader = try openPeople(path)
        try writer.beginWrite()
        try writer.create("Person", json: #"{"id": 1, "name": "A"}"#)
        #expect(try reader.count("Person") == 0)
        try writer.commit()
        #expect(try reader.count("Person") == 1)
        // A second writer waits for the lock (busy timeout), then fails cleanly with BUSY if held.
    }
}
