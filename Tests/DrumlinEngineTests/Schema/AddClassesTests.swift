import DrumlinEngine
import Testing

/// Classes added to an open database (`Database.addClasses`, issue 44, item 2): inside a write
/// transaction they commit or roll back with it; other handles on the file find them.
@Suite struct AddClassesTests {
    let people = #"[{"name": "Person", "primaryKey": "id", "properties": {"id": "int", "name": "string"}}]"#
    let dogs = #"""
    [{"name": "Dog", "properties": {"name": "string", "owner": "Person?", "toys": "Toy[]"}},
     {"name": "Toy", "embedded": true, "properties": {"label": "string"}},
     {"name": "Person", "primaryKey": "id", "properties": {"id": "int", "name": "string"}}]
    """#

    func storedClasses(_ path: String) -> [String] {
        sqlRows(path, "SELECT name FROM _drumlin_classes ORDER BY name").map { $0[0] }
    }

    @Test func classesAddedInAWriteCommitWithIt() throws {
        let path = temporaryPath()
        let db = try Database(path: path, schemaJSON: people)
        defer { db.close() }
        try db.write {
            _ = try db.create("Person", json: #"{"id": 1, "name": "Ann"}"#)
            let indices = try db.addClasses(try Schema(jsonText: dogs))
            #expect(indices == [1, 2, 0])
            _ = try db.create("Dog", json: #"{"name": "Rex", "owner": 1, "toys": [{"label": "ball"}]}"#)
        }
        #expect(db.schema.objectSchemas.map(\.name) == ["Person", "Dog", "Toy"])
        #expect(storedClasses(path) == ["Dog", "Person", "Toy"])
        #expect(try db.objects("Dog").jsonText(depth: 1) == #"[{"name":"Rex","owner":{"id":1,"name":"Ann"},"toys":[{"label":"ball"}]}]"#)
        // Deleting the owner clears the new class's link to it (the old class knows its new incoming link).
        try db.write { try db.object("Person", primaryKey: 1)!.delete() }
        #expect(try db.objects("Dog").jsonText() == #"[{"name":"Rex","owner":null,"toys":[{"label":"ball"}]}]"#)
    }

    @Test func aRollbackTakesTheClassesAwayAgain() throws {
        let path = temporaryPath()
        let db = try Database(path: path, schemaJSON: people)
        defer { db.close() }
        try db.beginWrite()
        _ = try db.addClasses(try Schema(jsonText: dogs))
        let rex = try db.create("Dog", json: #"{"name": "Rex"}"#)
        let dogsBefore = try db.objects("Dog")
        try db.rollback()
        #expect(db.schema.objectSchemas.map(\.name) == ["Person"])
        #expect(storedClasses(path) == ["Person"])
        #expect(sqlRows(path, "SELECT count(*) FROM sqlite_master WHERE name LIKE 'Dog%' OR name = 'Toy'") == [["0"]])
        expectError(.noSuchClass, "Object type 'Dog' is not in the schema.") { _ = try db.count("Dog") }
        expectError(.invalidatedObject, "Object type 'Dog' was added in a write transaction that was rolled back: its objects no longer exist.") {
            _ = try rex.value("name")
        }
        expectError(.invalidatedObject) { _ = try dogsBefore.count }
        // Added again (same class indexes, new tables), the class works as new.
        try db.write {
            _ = try db.addClasses(try Schema(jsonText: dogs))
            _ = try db.create("Dog", json: #"{"name": "Fido"}"#)
        }
        #expect(try db.objects("Dog").jsonText() == #"[{"name":"Fido","owner":null,"toys":[]}]"#)
        #expect(storedClasses(path) == ["Dog", "Person", "Toy"])
    }

    @Test func outsideAWriteTheClassesCommitAtOnce() throws {
        let path = temporaryPath()
        let db = try Database(path: path, schemaJSON: people)
        defer { db.close() }
        #expect(try db.addClasses(try Schema(jsonText: #"[{"name": "Note", "properties": {"text": "string"}}]"#)) == [1])
        #expect(storedClasses(path) == ["Note", "Person"])
        #expect(try db.count("Note") == 0)
    }

    @Test func anotherHandleFindsTheNewTablesAndAcceptsThem() throws {
        let path = temporaryPath()
        let first = try Database(path: path, schemaJSON: people)
        let second = try Database(path: path, schemaJSON: people)
        defer { first.close(); second.close() }
        try first.write {
            _ = try first.addClasses(try Schema(jsonText: dogs))
            _ = try first.create("Dog", json: #"{"name": "Rex"}"#)
        }
        // The other handle still works with its own classes, then adds the stored ones unchanged.
        try second.write { _ = try second.create("Person", json: #"{"id": 7, "name": "Bo"}"#) }
        #expect(try second.addClasses(try Schema(jsonText: dogs)) == [1, 2, 0])
        #expect(try second.objects("Dog").jsonText() == #"[{"name":"Rex","owner":null,"toys":[]}]"#)
        // A handle opened by the stored schema now sees every class.
        let third = try Database(path: path, options: OpenOptions(readOnly: true))
        defer { third.close() }
        #expect(third.schema.objectSchemas.map(\.name).sorted() == ["Dog", "Person", "Toy"])
    }

    @Test func aChangeThatNeedsAMigrationIsRefusedAndChangesNothing() throws {
        let path = temporaryPath()
        let first = try Database(path: path, schemaJSON: people)
        _ = try first.addClasses(try Schema(jsonText: #"[{"name": "Note", "properties": {"text": "string"}}]"#))
        first.close()
        let db = try Database(path: path, schemaJSON: people)
        defer { db.close() }
        try db.beginWrite()
        expectError(.migrationRequired, "Migration is required due to the following errors:\n- Property 'Note.text' has been changed from 'string' to 'int'.") {
            _ = try db.addClasses(try Schema(jsonText: #"[{"name": "Note", "properties": {"text": "int"}}]"#))
        }
        // The write goes on; the class was not added.
        _ = try db.create("Person", json: #"{"id": 1, "name": "Ann"}"#)
        try db.commit()
        #expect(db.schema.objectSchemas.map(\.name) == ["Person"])
        #expect(try db.count("Person") == 1)
        // A class open here with another definition is refused too.
        expectError(.migrationRequired, "Cannot change classes while the database is open; open it again with the new definitions:\n- Property 'Person.age' has been added.") {
            _ = try db.addClasses(try Schema(jsonText: #"[{"name": "Person", "primaryKey": "id", "properties": {"id": "int", "name": "string", "age": "int"}}]"#))
        }
    }

    @Test func anAdditiveChangeToAStoredClassApplies() throws {
        let path = temporaryPath()
        let first = try Database(path: path, schemaJSON: people)
        _ = try first.addClasses(try Schema(jsonText: #"[{"name": "Note", "properties": {"text": "string"}}]"#))
        try first.write { _ = try first.create("Note", json: #"{"text": "a"}"#) }
        first.close()
        let db = try Database(path: path, schemaJSON: people)
        defer { db.close() }
        _ = try db.addClasses(try Schema(jsonText: #"[{"name": "Note", "properties": {"text": "string", "pinned": "bool?"}}]"#))
        #expect(try db.objects("Note").jsonText() == #"[{"text":"a","pinned":null}]"#)
    }

    @Test func readOnlyTheClassesMustBeStoredAsGiven() throws {
        let path = temporaryPath()
        let first = try Database(path: path, schemaJSON: people)
        _ = try first.addClasses(try Schema(jsonText: #"[{"name": "Note", "properties": {"text": "string"}}]"#))
        first.close()
        let db = try Database(path: path, schemaJSON: people, options: OpenOptions(readOnly: true))
        defer { db.close() }
        #expect(try db.addClasses(try Schema(jsonText: #"[{"name": "Note", "properties": {"text": "string"}}]"#)) == [1])
        expectError(.migrationRequired, "The following changes cannot be made in read-only schema mode:\n- Class 'Tag' has been added.") {
            _ = try db.addClasses(try Schema(jsonText: #"[{"name": "Tag", "properties": {"label": "string"}}]"#))
        }
        #expect(db.schema.objectSchemas.map(\.name) == ["Person", "Note"])
    }

    /// Issue 45, item 11: was CORRUPT ("The table 'note' of class 'note' is missing"), as the
    /// table name differs only in letter case from the one of a class this handle has not open.
    @Test func aNameThatClashesInLetterCaseWithAStoredClassIsTheErrorOfAnOpen() throws {
        let path = temporaryPath()
        let first = try Database(path: path, schemaJSON: people)
        _ = try first.addClasses(try Schema(jsonText: #"[{"name": "Note", "properties": {"text": "string"}}]"#))
        first.close()
        let db = try Database(path: path, schemaJSON: people)
        defer { db.close() }
        expectError(.schema, "The classes cannot be added to '\(path)':\n- Name clash: type 'note' would be stored as 'note', and the file stores type 'Note' as 'Note'; SQLite compares table names ignoring letter case, so the file cannot hold both.") {
            _ = try db.addClasses(try Schema(jsonText: #"[{"name": "note", "properties": {"x": "int"}}]"#))
        }
        #expect(db.schema.objectSchemas.map(\.name) == ["Person"])
        #expect(storedClasses(path) == ["Note", "Person"])
    }

    @Test func aLinkToAClassNeitherOpenNorGivenIsRefused() throws {
        let db = try Database(path: temporaryPath(), schemaJSON: people)
        defer { db.close() }
        let dangling = try Schema(json: try JSON.parse(#"[{"name": "Dog", "properties": {"vet": "Vet?"}}]"#), validating: false)
        var caught: DrumlinError?
        do throws(DrumlinError) { _ = try db.addClasses(dangling) } catch { caught = error }
        #expect(caught?.code == .schema)
        #expect(caught?.message.contains("'Vet'") == true, "\(String(describing: caught))")
        #expect(db.schema.objectSchemas.map(\.name) == ["Person"])
    }
}
