import DrumlinEngine
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Links in mixed values through NDJSON export/import and schema migrations.
@Suite struct MixedLinkTransferTests {
    /// Holder 1 holds Rex (primary key) in `any` and a Cat (no primary key) in `items` and `map`.
    func fill(_ db: Database) throws {
        try db.write {
            // Objects created and deleted first, so the new file's object keys differ.
            for i in 0..<3 { try db.create("Cat", json: #"{"name": "tmp\#(i)", "lives": 0}"#).delete() }
            try db.create("Dog", json: #"{"name": "Tmp"}"#).delete()
            let rex = try db.create("Dog", json: #"{"name": "Rex", "age": 3}"#)
            let tom = try db.create("Cat", json: #"{"name": "Tom", "lives": 9}"#)
            let holder = try db.create("Holder", json: #"{"id": 1}"#)
            try holder.set("any", to: rex.link)
            try holder.list("items").append(tom.link)
            try holder.list("items").append(.int(7))
            try holder.dictionary("map").set(tom.link, forKey: "cat")
        }
    }

    func check(_ db: Database) throws {
        let holder = try #require(try db.object("Holder", primaryKey: 1))
        guard case .link(let dog) = try holder.value("any") else { Issue.record("any is not a link"); return }
        #expect(try db.object(dog)?.value("name") == .string("Rex"))
        let items = try holder.list("items").values
        #expect(items.count == 2 && items[1] == .int(7))
        guard case .link(let cat) = items[0] else { Issue.record("items[0] is not a link"); return }
        #expect(try db.object(cat)?.value("name") == .string("Tom"))
        #expect(try holder.dictionary("map").value(forKey: "cat") == .link(cat))
        #expect(try db.objects("Holder").filter("any.name == 'Rex' AND ANY items.name == 'Tom'").count == 1)
    }

    @Test func exportAndImportRoundTrip() throws {
        let directory = temporaryDirectory()
        let source = try openMixedLinks()
        try fill(source)
        try source.exportNDJSON(to: directory + "/all.ndjson")
        let text = FileManagerless.read(directory + "/all.ndjson")
        #expect(text.contains(#""any":{"$link":{"class":"Dog","primaryKey":"Rex"}}"#))
        let target = try openMixedLinks()
        try target.importNDJSON(from: directory + "/all.ndjson")
        try check(target)
    }

    @Test func importDefersALinkToAnObjectLaterInTheFile() throws {
        let directory = temporaryDirectory()
        let path = directory + "/late.ndjson"
        let lines = """
            {"$type": "Holder", "id": 1, "any": {"$link": {"class": "Dog", "primaryKey": "Rex"}}, "items": [{"$link": {"class": "Cat", "key": 40}}, 7], "map": {"cat": {"$link": {"class": "Cat", "key": 40}}}}
            {"$type": "Dog", "name": "Rex", "age": 3}
            {"$type": "Cat", "$key": 40, "name": "Tom", "lives": 9}
            """
        FileManagerless.write(lines, to: path)
        let db = try openMixedLinks()
        #expect(try db.importNDJSON(from: path) == 3)
        try check(db)
        // A target in neither the file nor the database is an error naming the line.
        FileManagerless.write(#"{"$type": "Holder", "id": 2, "any": {"$link": {"class": "Dog", "primaryKey": "Nobody"}}}"#, to: path)
        expectError(.invalidArgument) { try db.importNDJSON(from: path) }
        #expect(try db.count("Holder") == 1)
    }

    @Test func migrationsKeepLinksAndClearLinksToRemovedClasses() throws {
        let path = temporaryPath()
        do {
            let db = try Database(path: path, schemaJSON: mixedLinkSchema)
            try fill(db)
        }
        // Version 2 adds a property; Cat is removed (its links are cleared), Dog's links stay.
        let schema2 = mixedLinkSchema
            .replacing(#""id": "int","#, with: #""id": "int", "note": "string?","#)
            .replacing(#" {"name": "Cat", "properties": {"name": "string", "lives": "int"}},"#, with: "")
        let db = try Database(path: path, schemaJSON: schema2, options: OpenOptions(schemaVersion: 2, migration: { migration in
            try migration.enumerateObjects("Holder") { old, _ in
                // The old schema's view reads the link too.
                guard case .link = try old.value("any") else { throw DrumlinError(.internal, "old any is not a link") }
            }
        }))
        let holder = try #require(try db.object("Holder", primaryKey: 1))
        guard case .link(let dog) = try holder.value("any") else { Issue.record("any is not a link"); return }
        #expect(try db.object(dog)?.value("name") == .string("Rex"))
        #expect(try holder.list("items").values == [.int(7)])
        #expect(try holder.dictionary("map").value(forKey: "cat") == .null)
        #expect(try db.objects("Holder").filter("any.@type == 'objectlink'").count == 1)
    }
}

/// Writing a small text file without Foundation.
enum FileManagerless {
    static func write(_ text: String, to path: String) {
        guard let file = fopen(path, "w") else { return }
        fputs(text, file)
        fclose(file)
    }

    static func read(_ path: String) -> String {
        guard let file = fopen(path, "r") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        while true {
            let c = fgetc(file)
            if c == EOF { break }
            bytes.append(UInt8(c))
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

@Suite struct MixedLinkKeyRemapTests {
    @Test func aMigrationThatChangesObjectKeysRewritesMixedLinks() throws {
        let path = temporaryPath()
        let v1 = #"[{"name": "Tag", "properties": {"n": "int"}}, {"name": "Box", "properties": {"any": "mixed", "all": "mixed[]"}}]"#
        do {
            let db = try Database(path: path, schemaJSON: v1)
            try db.write {
                let tag = try db.create("Tag", json: #"{"n": 500}"#)
                let box = try db.create("Box", json: #"{}"#)
                try box.set("any", to: tag.link)
                try box.list("all").append(tag.link)
            }
        }
        // Tag's row key becomes its int primary key (500): the stored links follow.
        let v2 = #"[{"name": "Tag", "primaryKey": "n", "properties": {"n": "int"}}, {"name": "Box", "properties": {"any": "mixed", "all": "mixed[]"}}]"#
        let db = try Database(path: path, schemaJSON: v2, options: OpenOptions(schemaVersion: 2))
        let box = try db.objects("Box").object(at: 0)
        #expect(try box.value("any") == .link(ObjectLink(classIndex: 0, key: 500)))
        #expect(try box.list("all").values == [.link(ObjectLink(classIndex: 0, key: 500))])
        #expect(try db.objects("Box").filter("any.n == 500 AND any == obj('Tag', 500)").count == 1)
    }
}
