import Drumlin
import DrumlinEngine
import Testing

/// The model after the migration: `fullName` replaces `firstName` and `lastName`, `age` became
/// a string, `nickname` is `name` renamed.
final class MigratedPerson: Drumlin.Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var fullName: String
    @Persisted var age: String
    @Persisted var nickname: String
}

/// Collects values across the @Sendable migration block.
private final class Seen: @unchecked Sendable {
    var values: [String] = []
}

/// Migration blocks from the Swift API: Realm.Configuration(schemaVersion:migrationBlock:).
@Suite struct MigrationBlockTests {
    /// A file at version 1 written with the old schema.
    func oldFile() throws -> String {
        let path = "/tmp/drumlin-migration-\(UInt64.random(in: 0 ... .max)).realm"
        let db = try DrumlinEngine.Database(path: path, schemaJSON: """
            [{"name": "MigratedPerson", "primaryKey": "id", "properties": {"id": "int", "firstName": "string",
              "lastName": "string", "age": "int", "name": "string"}},
             {"name": "Gone", "properties": {"x": "int"}}]
            """, options: OpenOptions(schemaVersion: 1))
        try db.write {
            try db.create("MigratedPerson", json: #"{"id": 1, "firstName": "Ann", "lastName": "Lee", "age": 31, "name": "annie"}"#)
            try db.create("Gone", json: #"{"x": 4}"#)
        }
        db.close()
        return path
    }

    @Test func theBlockReadsOldPropertiesAndWritesNewOnes() throws {
        let path = try oldFile()
        let seen = Seen()
        let configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), schemaVersion: 2, migrationBlock: { migration, oldSchemaVersion in
            seen.values.append("from \(oldSchemaVersion)")
            seen.values.append(migration.oldSchema["MigratedPerson"]?.properties.map(\.name).joined(separator: ",") ?? "")
            seen.values.append(migration.newSchema["MigratedPerson"]?.properties.map(\.name).joined(separator: ",") ?? "")
            migration.renameProperty(onType: "MigratedPerson", from: "name", to: "nickname")
            migration.enumerateObjects(ofType: "MigratedPerson") { oldObject, newObject in
                let first = oldObject!["firstName"] as! String
                let last = oldObject!["lastName"] as! String
                newObject!["fullName"] = "\(first) \(last)"
                newObject!["age"] = "\(oldObject!["age"] as! Int) years"
            }
            migration.enumerateObjects(ofType: "Gone") { oldObject, newObject in
                seen.values.append("gone \(oldObject!["x"] as! Int) \(newObject == nil)")
            }
            seen.values.append("deleted \(migration.deleteData(forType: "Gone"))")
            migration.create("MigratedPerson", value: ["id": 2, "fullName": "Bo", "age": "1", "nickname": "b"])
        }, objectTypes: [MigratedPerson.self])
        let realm = try Realm(configuration: configuration)
        #expect(seen.values == ["from 1", "id,firstName,lastName,age,name", "id,fullName,age,nickname", "gone 4 true", "deleted true"])
        let ann = try #require(realm.object(ofType: MigratedPerson.self, forPrimaryKey: 1))
        #expect(ann.fullName == "Ann Lee")
        #expect(ann.age == "31 years")
        #expect(ann.nickname == "annie")
        #expect(realm.objects(MigratedPerson.self).count == 2)
    }

    @Test func withoutABlockAHigherVersionAppliesRealmsConversions() throws {
        let path = try oldFile()
        let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), schemaVersion: 2,
                                                                 objectTypes: [MigratedPerson.self]))
        let ann = try #require(realm.object(ofType: MigratedPerson.self, forPrimaryKey: 1))
        #expect(ann.fullName == "" && ann.age == "" && ann.nickname == "")
    }

    @Test func aFailureInTheBlockFailsTheOpenAndLeavesTheFile() throws {
        let path = try oldFile()
        let configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), schemaVersion: 2, migrationBlock: { migration, _ in
            migration.enumerateObjects(ofType: "MigratedPerson") { oldObject, newObject in
                newObject!["fullName"] = "written"
                oldObject!["firstName"] = "old objects are read-only"
            }
        }, objectTypes: [MigratedPerson.self])
        #expect(throws: Realm.Error.self) { _ = try Realm(configuration: configuration) }
        let db = try DrumlinEngine.Database(path: path, options: OpenOptions(schemaVersion: 1))
        #expect(db.schemaVersion == 1)
        #expect(try db.objects("MigratedPerson").jsonText() == #"[{"id":1,"firstName":"Ann","lastName":"Lee","age":31,"name":"annie"}]"#)
    }

    @Test func aLowerVersionIsAnError() throws {
        let path = try oldFile()
        let configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), schemaVersion: 0, migrationBlock: { _, _ in
            Issue.record("the block ran")
        }, objectTypes: [MigratedPerson.self])
        do {
            _ = try Realm(configuration: configuration)
            Issue.record("opened")
        } catch let error as Realm.Error {
            #expect(error.localizedDescription.contains("Provided schema version 0 is less than last set version 1."))
        }
    }
}
