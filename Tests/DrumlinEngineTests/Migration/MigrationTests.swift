import DrumlinEngine
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Opens `path` with a schema at a version, with an optional migration callback.
private func open(_ path: String, _ schema: String, version: UInt64,
                  _ migration: (@Sendable (Migration) throws -> Void)? = nil) throws -> Database {
    try Database(path: path, schemaJSON: schema, options: OpenOptions(schemaVersion: version, migration: migration))
}

/// A file at version 1 holding the given objects of one class.
private func fixture(_ schema: String, _ className: String, _ objects: [String]) throws -> String {
    let path = temporaryPath()
    let db = try open(path, schema, version: 1)
    try db.write { for json in objects { try db.create(className, json: json) } }
    db.close()
    return path
}

/// Everything in the file as text: each table's rows and the schema objects, for byte-level
/// "nothing changed" comparisons.
private func everything(_ path: String) -> [[String]] {
    var result = sqlRows(path, "SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master ORDER BY name")
    // A table without a rowid (a list of values) in its key's order: owner, position.
    for table in sqlRows(path, "SELECT name, sql LIKE '%WITHOUT ROWID' FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name") {
        result.append(["table", table[0]])
        let rows = sqlRows(path, "SELECT * FROM \"\(table[0])\" ORDER BY \(table[1] == "1" ? "1, 2" : "rowid")")
        #expect(rows.first?.first != "error", "\(rows)")
        result += rows
    }
    return result
}

/// Collects values across the @Sendable callback boundary.
private final class Box<T>: @unchecked Sendable {
    var value: T
    init(_ value: T) { self.value = value }
}

@Suite struct MigrationTests {
    let itemV1 = #"[{"name": "Item", "primaryKey": "id", "properties": {"id": "int", "title": "string", "n": "int", "note": "string?"}}]"#

    @Test func aRemovedPropertyIsDroppedAndReadableAsOldDuringTheMigration() throws {
        let path = try fixture(itemV1, "Item", [#"{"id": 1, "title": "a", "n": 5}"#, #"{"id": 2, "title": "b", "n": 7}"#])
        let seen = Box<[String]>([])
        let db = try open(path, #"[{"name": "Item", "primaryKey": "id", "properties": {"id": "int", "title": "string"}}]"#, version: 2) { m in
            #expect(m.oldSchemaVersion == 1 && m.newSchemaVersion == 2)
            #expect(m.oldSchema.objectSchemas[0].properties.map(\.name) == ["id", "title", "n", "note"])
            try m.enumerateObjects("Item") { old, new in
                seen.value.append("\(try old["title"]):\(try old["n"]):\(try new?["title"] ?? .null)")
            }
        }
        #expect(seen.value == ["a:5:a", "b:7:b"])
        #expect(db.schemaVersion == 2)
        #expect(try db.objects("Item").jsonText() == #"[{"id":1,"title":"a"},{"id":2,"title":"b"}]"#)
        db.close()
        #expect(sqlRows(path, "SELECT name FROM pragma_table_info('Item')").map { $0[0] } == ["id", "_drumlin_seq", "title"])
        #expect(sqlRows(path, "SELECT count(*) FROM sqlite_master WHERE name LIKE '_drumlin_old_%'") == [["0"]])
    }

    @Test func withoutACallbackAHigherVersionAppliesRealmsConversions() throws {
        let path = try fixture(itemV1, "Item", [#"{"id": 1, "title": "a", "n": 5}"#, #"{"id": 2, "title": "b", "n": 7, "note": "x"}"#])
        // title: string -> int (type changed: zero value); n: required -> optional (kept);
        // note: optional -> required (null becomes "").
        let db = try open(path, #"[{"name": "Item", "primaryKey": "id", "properties": {"id": "int", "title": "int", "n": "int?", "note": "string"}}]"#, version: 2)
        #expect(try db.objects("Item").jsonText() == #"[{"id":1,"title":0,"n":5,"note":""},{"id":2,"title":0,"n":7,"note":"x"}]"#)
    }

    @Test func theSameVersionStillRequiresAMigrationForBreakingChanges() throws {
        let path = try fixture(itemV1, "Item", [#"{"id": 1, "title": "a", "n": 5}"#])
        expectError(.migrationRequired, "Migration is required due to the following errors:\n- Property 'Item.n' has been removed.\n- Property 'Item.note' has been removed.") {
            _ = try open(path, #"[{"name": "Item", "primaryKey": "id", "properties": {"id": "int", "title": "string"}}]"#, version: 1)
        }
    }

    @Test func theCallbackConvertsValuesOfAChangedType() throws {
        let path = try fixture(itemV1, "Item", [#"{"id": 1, "title": "12", "n": 5}"#, #"{"id": 2, "title": "x", "n": 7}"#])
        let db = try open(path, #"[{"name": "Item", "primaryKey": "id", "properties": {"id": "int", "title": "int?", "n": "string"}}]"#, version: 2) { m in
            try m.enumerateObjects("Item") { old, new in
                guard case .string(let title) = try old["title"], case .int(let n) = try old["n"] else { return }
                try new?.set("title", to: Int64(title).map(Value.int) ?? .null)
                try new?.set("n", to: .string("n\(n)"))
            }
        }
        #expect(try db.objects("Item").jsonText() == #"[{"id":1,"title":12,"n":"n5"},{"id":2,"title":null,"n":"n7"}]"#)
    }

    @Test func renamePropertyKeepsTheData() throws {
        let schema = #"[{"name": "Dog", "properties": {"dogName": "string", "tags": "string[]", "age": "int"}}]"#
        let path = try fixture(schema, "Dog", [#"{"dogName": "Rex", "tags": ["a", "b"], "age": 3}"#])
        let db = try open(path, #"[{"name": "Dog", "properties": {"name": "string", "labels": "string[]", "age": "int"}}]"#, version: 2) { m in
            try m.renameProperty(onType: "Dog", from: "dogName", to: "name")
            try m.renameProperty(onType: "Dog", from: "tags", to: "labels")
        }
        #expect(try db.objects("Dog").jsonText() == #"[{"name":"Rex","labels":["a","b"],"age":3}]"#)
    }

    @Test func renamePropertyRefusesAMissingPropertyOrAnotherType() throws {
        let schema = #"[{"name": "Dog", "properties": {"dogName": "string"}}]"#
        let path = try fixture(schema, "Dog", [#"{"dogName": "Rex"}"#])
        expectError(.migrationFailed, "The migration from schema version 1 to 2 failed: Renamed property 'Dog.nope' does not exist.") {
            _ = try open(path, #"[{"name": "Dog", "properties": {"name": "string"}}]"#, version: 2) { m in
                try m.renameProperty(onType: "Dog", from: "nope", to: "name")
            }
        }
        expectError(.migrationFailed, "The migration from schema version 1 to 2 failed: Cannot rename property 'Dog.dogName' to 'name' because it would change from type 'string' to 'int'.") {
            _ = try open(path, #"[{"name": "Dog", "properties": {"name": "int"}}]"#, version: 2) { m in
                try m.renameProperty(onType: "Dog", from: "dogName", to: "name")
            }
        }
    }

    @Test func aChangedPrimaryKeyIsFilledByTheCallbackAndLinksFollow() throws {
        let v1 = #"""
            [{"name": "Owner", "properties": {"name": "string", "pets": "Pet[]", "best": "Pet?"}},
             {"name": "Pet", "primaryKey": "name", "properties": {"name": "string", "code": "int"}}]
            """#
        let path = temporaryPath()
        let first = try open(path, v1, version: 1)
        try first.write {
            let owner = try first.create("Owner", json: #"{"name": "Ann", "pets": [{"name": "Rex", "code": 20}, {"name": "Bo", "code": 10}]}"#)
            let bo = try #require(try first.object("Pet", primaryKey: "Bo"))
            try owner.set("best", to: .link(ObjectLink(classIndex: bo.classIndex, key: bo.key)))
        }
        first.close()
        let v2 = #"""
            [{"name": "Owner", "properties": {"name": "string", "pets": "Pet[]", "best": "Pet?"}},
             {"name": "Pet", "primaryKey": "code", "properties": {"name": "string", "code": "int"}}]
            """#
        let db = try open(path, v2, version: 2)
        #expect(try db.objects("Owner").jsonText(depth: 1) == #"[{"name":"Ann","pets":[{"name":"Rex","code":20},{"name":"Bo","code":10}],"best":{"name":"Bo","code":10}}]"#)
        #expect(try db.object("Pet", primaryKey: 20)?["name"] == .string("Rex"))
        try db.write { try db.create("Pet", json: #"{"name": "Cy", "code": 5}"#) }
        #expect(try db.objects("Pet").jsonText() == #"[{"name":"Rex","code":20},{"name":"Bo","code":10},{"name":"Cy","code":5}]"#)
    }

    @Test func listsKeyedByPositionFollowTheirObjectsWhenKeysChange() throws {
        // Keys 1, 2, 3 become the primary keys 2, 3, 1: each object's elements move onto the key
        // another object's elements hold until they move too.
        let v1 = #"[{"name": "Pet", "properties": {"code": "int", "tags": "string[]", "marks": "int<>"}}]"#
        let path = try fixture(v1, "Pet", [#"{"code": 2, "tags": ["a", "b"], "marks": [1, 2]}"#,
                                           #"{"code": 3, "tags": ["c"], "marks": [3]}"#,
                                           #"{"code": 1, "tags": ["d", "e", "f"], "marks": [2, 1]}"#])
        #expect(sqlRows(path, "SELECT sql LIKE '%WITHOUT ROWID' FROM sqlite_master WHERE name = '_drumlin_list_3_Pet_tags'") == [["1"]])
        let v2 = #"[{"name": "Pet", "primaryKey": "code", "properties": {"code": "int", "tags": "string[]", "marks": "int<>"}}]"#
        let db = try open(path, v2, version: 2)
        #expect(try db.objects("Pet").jsonText() == #"[{"code":2,"tags":["a","b"],"marks":[1,2]},{"code":3,"tags":["c"],"marks":[3]},{"code":1,"tags":["d","e","f"],"marks":[2,1]}]"#)
        #expect(sqlRows(path, "SELECT name FROM sqlite_master WHERE tbl_name = '_drumlin_set_3_Pet_marks' AND type = 'index'") == [["_drumlin_set_3_Pet_marks_owner"]])
    }

    @Test func duplicatePrimaryKeysAfterTheMigrationFailAndLeaveTheFile() throws {
        let path = try fixture(#"[{"name": "Pet", "properties": {"name": "string", "code": "int"}}]"#, "Pet",
                               [#"{"name": "Rex", "code": 1}"#, #"{"name": "Bo", "code": 1}"#, #"{"name": "Cy", "code": 2}"#])
        let before = everything(path)
        expectError(.migrationFailed, "Primary key property 'Pet.code' has duplicate values after migration: '1'.") {
            _ = try open(path, #"[{"name": "Pet", "primaryKey": "code", "properties": {"name": "string", "code": "int"}}]"#, version: 2)
        }
        #expect(everything(path) == before)
        // The callback can make them unique.
        let db = try open(path, #"[{"name": "Pet", "primaryKey": "code", "properties": {"name": "string", "code": "int"}}]"#, version: 2) { m in
            let next = Box<Int64>(100)
            try m.enumerateObjects("Pet") { _, new in
                try new?.set("code", to: .int(next.value))
                next.value += 1
            }
        }
        #expect(try db.objects("Pet").jsonText() == #"[{"name":"Rex","code":100},{"name":"Bo","code":101},{"name":"Cy","code":102}]"#)
    }

    @Test func aPrimaryKeyCanBeRemovedAndAdded() throws {
        let path = try fixture(itemV1, "Item", [#"{"id": 7, "title": "a", "n": 1}"#])
        let db = try open(path, #"[{"name": "Item", "properties": {"id": "int", "title": "string"}}]"#, version: 2)
        #expect(try db.objects("Item").jsonText() == #"[{"id":7,"title":"a"}]"#)
        db.close()
        let again = try open(path, #"[{"name": "Item", "primaryKey": "title", "properties": {"id": "int", "title": "string"}}]"#, version: 3)
        #expect(try again.object("Item", primaryKey: "a")?["id"] == .int(7))
    }

    @Test func aRemovedClassKeepsItsDataUnlessTheCallbackDeletesIt() throws {
        let v1 = #"[{"name": "Item", "properties": {"t": "string"}}, {"name": "Old", "properties": {"x": "int", "xs": "int[]"}}]"#
        let path = temporaryPath()
        let first = try open(path, v1, version: 1)
        try first.write {
            try first.create("Old", json: #"{"x": 4, "xs": [1, 2]}"#)
            try first.create("Item", json: #"{"t": "a"}"#)
        }
        first.close()
        let v2 = #"[{"name": "Item", "properties": {"t": "string"}}]"#
        let seen = Box<[String]>([])
        try open(path, v2, version: 2) { m in
            try m.enumerateObjects("Old") { old, new in
                seen.value.append("\(try old["x"]) \(try old.list("xs").values.map(\.description)) \(new == nil)")
            }
        }.close()
        #expect(seen.value == ["4 [\"1\", \"2\"] true"])
        #expect(sqlRows(path, "SELECT x FROM Old") == [["4"]])
        let deleted = Box<[Bool]>([])
        try open(path, v2, version: 3) { m in
            deleted.value.append(try m.deleteData(forType: "Old"))
            deleted.value.append(try m.deleteData(forType: "Nothing"))
        }.close()
        #expect(deleted.value == [true, false])
        #expect(sqlRows(path, "SELECT count(*) FROM sqlite_master WHERE name LIKE '%Old%'") == [["0"]])
        #expect(sqlRows(path, "SELECT name FROM _drumlin_classes") == [["Item"]])
    }

    @Test func createAndDeleteInTheCallback() throws {
        let path = try fixture(itemV1, "Item", [#"{"id": 1, "title": "a", "n": 1}"#, #"{"id": 2, "title": "b", "n": 2}"#])
        let db = try open(path, itemV1, version: 2) { m in
            try m.enumerateObjects("Item") { old, new in
                if try old["n"] == .int(1), let new { try m.delete(new) }
            }
            try m.create("Item", json: try JSON.parse(#"{"id": 3, "title": "c", "n": 3}"#))
        }
        #expect(try db.objects("Item").jsonText() == #"[{"id":2,"title":"b","n":2,"note":null},{"id":3,"title":"c","n":3,"note":null}]"#)
    }

    @Test func oldObjectsAreReadOnly() throws {
        let path = try fixture(itemV1, "Item", [#"{"id": 1, "title": "a", "n": 1}"#])
        expectError(.migrationFailed, "The migration from schema version 1 to 2 failed: The database was opened read-only.") {
            _ = try open(path, itemV1, version: 2) { m in
                try m.enumerateObjects("Item") { old, _ in try old.set("title", to: "x") }
            }
        }
    }

    @Test func aThrowingCallbackLeavesTheFileAsItWas() throws {
        struct Stop: Error, CustomStringConvertible { var description: String { "stop here" } }
        let path = try fixture(itemV1, "Item", [#"{"id": 1, "title": "a", "n": 1, "note": "x"}"#, #"{"id": 2, "title": "b", "n": 2}"#])
        let before = everything(path)
        expectError(.migrationFailed, "The migration from schema version 1 to 2 failed: stop here") {
            _ = try open(path, #"[{"name": "Item", "properties": {"title": "int"}}]"#, version: 2) { m in
                try m.enumerateObjects("Item") { _, new in try new?.set("title", to: .int(9)) }
                throw Stop()
            }
        }
        #expect(everything(path) == before)
        let db = try open(path, itemV1, version: 1)
        #expect(db.schemaVersion == 1)
        #expect(try db.count("Item") == 2)
    }

    @Test func aLowerVersionIsAnError() throws {
        let path = try fixture(itemV1, "Item", [])
        try open(path, itemV1, version: 5).close()
        expectError(.migrationFailed, "Provided schema version 4 is less than last set version 5.") {
            _ = try open(path, itemV1, version: 4) { _ in Issue.record("the callback ran") }
        }
    }

    @Test func theCallbackRunsOnlyWhenTheStoredVersionIsLower() throws {
        let path = try fixture(itemV1, "Item", [#"{"id": 1, "title": "a", "n": 1}"#])
        let runs = Box(0)
        for _ in 0..<2 { try open(path, itemV1, version: 2) { _ in runs.value += 1 }.close() }
        #expect(runs.value == 1)
    }

    @Test func fullTextIndexesAndEmbeddedObjectsSurviveARebuild() throws {
        let v1 = #"""
            [{"name": "Doc", "properties": {"body": {"type": "string", "indexed": "full-text"}, "meta": "Meta?", "gone": "int"}},
             {"name": "Meta", "embedded": true, "properties": {"author": "string"}}]
            """#
        let path = temporaryPath()
        let first = try open(path, v1, version: 1)
        try first.write { try first.create("Doc", json: #"{"body": "hello brave world", "meta": {"author": "Ann"}, "gone": 1}"#) }
        first.close()
        let v2 = #"""
            [{"name": "Doc", "properties": {"body": {"type": "string", "indexed": "full-text"}, "meta": "Meta?"}},
             {"name": "Meta", "embedded": true, "properties": {"author": "string"}}]
            """#
        let db = try open(path, v2, version: 2)
        #expect(try db.query("Doc", "body TEXT 'brave'").count == 1)
        try db.write { try db.create("Doc", json: #"{"body": "another brave one"}"#) }
        #expect(try db.query("Doc", "body TEXT 'brave'").count == 2)
        #expect(try db.query("Doc", "meta.author == 'Ann'").count == 1)
    }

    @Test func aClassMadeEmbeddedLosesItsOrphans() throws {
        let v1 = #"""
            [{"name": "Doc", "properties": {"meta": "Meta?"}}, {"name": "Meta", "properties": {"author": "string"}}]
            """#
        let path = temporaryPath()
        let first = try open(path, v1, version: 1)
        try first.write {
            try first.create("Doc", json: #"{"meta": {"author": "Ann"}}"#)
            try first.create("Meta", json: #"{"author": "orphan"}"#)
        }
        first.close()
        let v2 = #"""
            [{"name": "Doc", "properties": {"meta": "Meta?"}}, {"name": "Meta", "embedded": true, "properties": {"author": "string"}}]
            """#
        let db = try open(path, v2, version: 2)
        #expect(try db.objects("Doc").jsonText(depth: 1) == #"[{"meta":{"author":"Ann"}}]"#)
        db.close()
        #expect(sqlRows(path, "SELECT author FROM Meta") == [["Ann"]])
    }
}
