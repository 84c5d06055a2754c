import Drumlin
import DrumlinEngine
import Testing

/// One file, every face: a file written through Swift models opens with the stored schema through
/// the engine (what the C library and Python use), and a file written through the JSON schema
/// opens through Swift models.
@Suite struct SharedFileTests {
    func temporaryPath(_ name: String) -> String {
        "/tmp/drumlin-shared-\(name)-\(UInt64.random(in: 0 ... .max)).drumlin"
    }

    @Test func swiftModelsWriteWhatTheJSONSchemaReads() throws {
        let path = temporaryPath("swift")
        let configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [SeedBook.self])
        defer { _ = try? Realm.deleteFiles(for: configuration) }
        try autoreleasedRealm(configuration) { realm in
            let book = SeedBook()
            book.id = 1
            book.title = "Dune"
            book.pages = 412
            try realm.write { realm.add(book) }
        }
        // The engine opens the file with the schema stored in it, as C and Python do without one.
        let database = try DrumlinEngine.Database(path: path)
        defer { database.close() }
        let stored = database.schemaJSON.text
        #expect(stored.contains(#""name":"SeedBook""#))
        #expect(stored.contains(#""primaryKey":"id""#))
        let json = try #require(try database.getJSON("SeedBook", primaryKey: .int(1)))
        #expect(json.contains(#""title":"Dune""#) && json.contains(#""pages":412"#))
    }

    @Test func theJSONSchemaWritesWhatSwiftModelsRead() throws {
        let path = temporaryPath("json")
        let schema = #"[{"name": "SeedBook", "primaryKey": "id", "properties": {"id": "int", "title": "string", "pages": "int?", "published": "date"}}]"#
        do {
            let database = try DrumlinEngine.Database(path: path, schemaJSON: schema)
            try database.write {
                _ = try database.create("SeedBook", json: #"{"id": 2, "title": "Emma", "pages": null, "published": {"$date": {"$numberLong": "86400000"}}}"#)
            }
            database.close()
        }
        let configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [SeedBook.self])
        defer { _ = try? Realm.deleteFiles(for: configuration) }
        try autoreleasedRealm(configuration) { realm in
            let book = try #require(realm.object(ofType: SeedBook.self, forPrimaryKey: 2))
            #expect(book.title == "Emma")
            #expect(book.pages == nil)
            #expect(book.published == Date(timeIntervalSince1970: 86400))
        }
    }

    /// Runs `body` with a Realm that is released afterwards (so the file can be reopened).
    func autoreleasedRealm(_ configuration: Realm.Configuration, _ body: (Realm) throws -> Void) throws {
        try body(try Realm(configuration: configuration))
    }

    @Test func aFileOpensWithoutModelClassesThroughItsStoredSchema() throws {
        let path = temporaryPath("stored")
        do {
            let database = try DrumlinEngine.Database(path: path, schemaJSON: #"[{"name": "Gadget", "primaryKey": "code", "properties": {"code": "string", "watts": "int?", "parts": "string[]"}}]"#)
            try database.write {
                _ = try database.create("Gadget", json: #"{"code": "g1", "watts": 40, "parts": ["a", "b"]}"#)
                _ = try database.create("Gadget", json: #"{"code": "g2"}"#)
            }
            database.close()
        }
        let configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [])
        defer { _ = try? Realm.deleteFiles(for: configuration) }
        try autoreleasedRealm(configuration) { realm in
            #expect(realm.schema.objectSchema.map(\.className) == ["Gadget"])
            #expect(realm.schema["Gadget"]?.primaryKeyProperty?.name == "code")
            #expect(realm.schema["Gadget"]?["parts"]?.isArray == true)
            let gadgets = realm.dynamicObjects("Gadget")
            #expect(gadgets.count == 2)
            #expect(gadgets.filter("watts > 10").first?["code"] as? String == "g1")
            let first = try #require(gadgets.first)
            try realm.write { first["watts"] = 60 }
            #expect(realm.dynamicObjects("Gadget").filter("watts == 60").count == 1)
        }
        let database = try DrumlinEngine.Database(path: path)
        defer { database.close() }
        #expect(try database.getJSON("Gadget", primaryKey: .string("g1"))?.contains(#""watts":60"#) == true)
    }

    /// A file migrated to a higher schema version opens without model classes (`objectTypes: []`,
    /// the file's stored schema) at its stored version, read-write and read-only (issue 44).
    @Test(arguments: [UInt64(2), UInt64(1) << 63])
    func aMigratedFileOpensWithoutModelClassesAtItsVersion(version: UInt64) throws {
        let path = temporaryPath("migrated")
        do {
            let database = try DrumlinEngine.Database(path: path, schemaJSON: #"[{"name": "Gadget", "primaryKey": "code", "properties": {"code": "string", "note": "string?"}}]"#,
                                                      options: OpenOptions(schemaVersion: version))
            try database.write { _ = try database.create("Gadget", json: #"{"code": "g1"}"#) }
            database.close()
        }
        let configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [])
        defer { _ = try? Realm.deleteFiles(for: configuration) }
        try autoreleasedRealm(configuration) { realm in
            #expect(realm.dynamicObjects("Gadget").count == 1)
            try realm.write { realm.dynamicObjects("Gadget").first!["note"] = "moved" }
        }
        var readOnly = configuration
        readOnly.readOnly = true
        try autoreleasedRealm(readOnly) { realm in
            #expect(realm.dynamicObjects("Gadget").first?["note"] as? String == "moved")
        }
        let database = try DrumlinEngine.Database(path: path)
        defer { database.close() }
        #expect(database.schemaVersion == version)
    }
}
