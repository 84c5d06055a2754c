import Drumlin
import DrumlinEngine
import Foundation
import Testing

// Realm Swift's usual order (issue 44, item 2): `Realm()` without `objectTypes`, then a class used
// for the first time, inside a write too. Without `objectTypes` a Realm opens with the classes the
// process used so far, so each test runs in a process of its own (an exit test): other tests of
// this binary use classes of the same names. Checks stop the child with the reason (`need`).

enum FirstUse {
    class Dog: Drumlin.Object {
        @Persisted var name = ""
        @Persisted var owner: Owner?
    }

    class Owner: Drumlin.Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var name = ""
        @Persisted var address: Address?
    }

    class Address: EmbeddedObject {
        @Persisted var city = ""
    }

    class Note: Drumlin.Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var text = ""
    }

    /// A fresh file's configuration, without `objectTypes`.
    static func configuration() -> Realm.Configuration {
        Realm.Configuration(fileURL: URL(fileURLWithPath: "/tmp/drumlin-first-use-\(UInt64.random(in: 0 ... .max)).realm"))
    }

    /// The class names stored in the file (its catalogue), read by the stored schema.
    static func storedClasses(_ configuration: Realm.Configuration) throws -> [String] {
        let database = try DrumlinEngine.Database(path: configuration.fileURL!.path, options: OpenOptions(readOnly: true))
        defer { database.close() }
        return database.schema.objectSchemas.map(\.name).sorted()
    }
}

/// Stops the child process with `message` when `condition` does not hold.
func need(_ condition: Bool, _ message: @autoclosure () -> String, line: Int = #line) {
    if !condition { fatalError("line \(line): \(message())") }
}

@Suite struct FirstUseTests {
    @Test func addInsideTheFirstWriteAddsTheClassAndTheClassesItLinksTo() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let configuration = FirstUse.configuration()
            let realm = try Realm(configuration: configuration)
            need(realm.schema.objectSchema.isEmpty, "a new file opened before any class was used has no class")
            let dog = FirstUse.Dog()
            dog.name = "Rex"
            let owner = FirstUse.Owner()
            owner.id = 1
            owner.name = "Ann"
            owner.address = FirstUse.Address(value: ["city": "Oslo"])
            dog.owner = owner
            try realm.write { realm.add(dog) }
            need(realm.objects(FirstUse.Dog.self).map(\.name) == ["Rex"], "the dog was added")
            need(realm.objects(FirstUse.Dog.self).first?.owner?.address?.city == "Oslo", "with its owner and address")
            need(realm.object(ofType: FirstUse.Owner.self, forPrimaryKey: 1)?.name == "Ann", "the owner is found by primary key")
            let stored = try FirstUse.storedClasses(configuration)
            need(stored == ["Address", "Dog", "Owner"], "stored: \(stored)")
        }
    }

    @Test func createObjectsAndObjectForPrimaryKeyAddTheClass() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let configuration = FirstUse.configuration()
            let realm = try Realm(configuration: configuration)
            // Reads first: an unknown class has no objects (its tables are made, and committed).
            need(realm.objects(FirstUse.Note.self).isEmpty, "no notes yet")
            need(realm.object(ofType: FirstUse.Owner.self, forPrimaryKey: 5) == nil, "no owner 5")
            need(try FirstUse.storedClasses(configuration) == ["Address", "Note", "Owner"], "the read classes are stored")
            try realm.write {
                realm.create(FirstUse.Note.self, value: ["id": 1, "text": "first"])
                realm.create(FirstUse.Dog.self, value: ["name": "Fido", "owner": ["id": 5, "name": "Bo"]])
            }
            need(realm.objects(FirstUse.Note.self).first?.text == "first", "the note was created")
            need(realm.object(ofType: FirstUse.Owner.self, forPrimaryKey: 5)?.name == "Bo", "the owner was created with the dog")
            need(realm.objects(FirstUse.Dog.self).filter("owner.name == 'Bo'").count == 1, "queries across the new link")
        }
    }

    @Test func aClassStoredByAnEarlierRunIsBoundAtItsFirstUseInAWrite() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let configuration = FirstUse.configuration()
            // An earlier run stored the models' classes (no instance made: nothing registered).
            do {
                var listed = configuration
                listed.objectTypes = [FirstUse.Dog.self, FirstUse.Note.self]
                _ = try Realm(configuration: listed)
            }
            // This run opens before using any class: the file's stored classes, as DynamicObjects.
            let realm = try Realm(configuration: configuration)
            need(realm.dynamicObjects("Dog").isEmpty, "the stored class is readable by name")
            let dog = FirstUse.Dog()
            dog.name = "Rex"
            dog.owner = FirstUse.Owner(value: ["id": 3, "name": "Cy"])
            try realm.write { realm.add(dog) }
            need(realm.objects(FirstUse.Dog.self).first?.owner?.name == "Cy", "the model class is bound to the stored one")
            need(realm.dynamicObjects("Dog").count == 1, "and the same objects are read by name")
            let stored = try FirstUse.storedClasses(configuration)
            need(stored == ["Address", "Dog", "Note", "Owner"], "stored: \(stored)")
        }
    }

    @Test func anObserverOfAClassFirstUsedAfterOpeningSeesItsChanges() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            final class Log { var lines: [String] = [] }
            let realm = try Realm(configuration: FirstUse.configuration())
            let notes = realm.objects(FirstUse.Note.self)
            let log = Log()
            let token = notes.observe { changes in
                switch changes {
                case .initial: log.lines.append("initial")
                case .update(_, let deletions, let insertions, let modifications):
                    log.lines.append("del \(deletions) ins \(insertions) mod \(modifications)")
                case .error(let error): log.lines.append("error \(error)")
                }
            }
            try realm.write { realm.create(FirstUse.Note.self, value: ["id": 1, "text": "a"]) }
            try realm.write { notes.first!.text = "b" }
            token.invalidate()
            need(log.lines == ["initial", "del [] ins [0] mod []", "del [] ins [] mod [0]"], "\(log.lines)")
        }
    }

    @Test func aRolledBackWriteTakesTheNewClassAway() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let configuration = FirstUse.configuration()
            let realm = try Realm(configuration: configuration)
            try realm.write { realm.create(FirstUse.Note.self, value: ["id": 1]) }
            realm.beginWrite()
            let dog = FirstUse.Dog(value: ["name": "Rex"])
            realm.add(dog)
            need(realm.schema["Dog"] != nil, "the class is there inside the write")
            realm.cancelWrite()
            need(realm.schema["Dog"] == nil, "the class is gone after the rollback")
            need(dog.isInvalidated, "the object added in the rolled-back write is invalid")
            need(try FirstUse.storedClasses(configuration) == ["Note"], "the file's schema is unchanged")
            // A write that throws rolls back the same way.
            struct Stop: Error {}
            do {
                try realm.write {
                    realm.add(FirstUse.Dog(value: ["name": "Max"]))
                    throw Stop()
                }
            } catch is Stop {}
            need(realm.schema["Dog"] == nil && realm.schema["Owner"] == nil, "gone again")
            // Used again, the class is added again.
            try realm.write { realm.add(FirstUse.Dog(value: ["name": "Fido"])) }
            need(realm.objects(FirstUse.Dog.self).map(\.name) == ["Fido"], "added again: \(Array(realm.objects(FirstUse.Dog.self).map(\.name)))")
            need(try FirstUse.storedClasses(configuration) == ["Dog", "Note", "Owner", "Address"].sorted(), "now stored")
        }
    }

    @Test func aSecondRealmOnTheFileSeesAndAcceptsTheNewClass() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let configuration = FirstUse.configuration()
            let first = try Realm(configuration: configuration)
            // Two more handles on the file, opened before the class is used: one writable (another
            // setting makes it a handle of its own), one read-only.
            var durable = configuration
            durable.durableAgainstPowerLoss = true
            let second = try Realm(configuration: durable)
            try first.write { first.add(FirstUse.Note(value: ["id": 1, "text": "from the first"])) }
            var readOnly = configuration
            readOnly.readOnly = true
            let reader = try Realm(configuration: readOnly)
            need(second != first && reader != first, "three handles")
            need(Array(second.objects(FirstUse.Note.self).map(\.text)) == ["from the first"], "the second handle reads the new class")
            try second.write { second.create(FirstUse.Note.self, value: ["id": 2, "text": "from the second"]) }
            need(reader.objects(FirstUse.Note.self).count == 2, "the read-only handle reads it too")
            first.refresh()
            need(Array(first.objects(FirstUse.Note.self).sorted(byKeyPath: "id").map(\.text)) == ["from the first", "from the second"], "both notes")
        }
    }

    @Test func aChangeThatNeedsAMigrationInsideAWriteIsAClearError() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let configuration = FirstUse.configuration()
            // The file stores a Note whose text is an int.
            let database = try DrumlinEngine.Database(path: configuration.fileURL!.path,
                                                      schemaJSON: #"[{"name": "Note", "primaryKey": "id", "properties": {"id": "int", "text": "int"}}]"#)
            database.close()
            let realm = try Realm(configuration: configuration)
            try realm.write { realm.add(FirstUse.Note(value: ["id": 1, "text": "x"])) }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("MIGRATION_REQUIRED") && message.contains("Property 'Note.text' has been changed from 'int' to 'string'"), "\(message)")
    }

    @Test func withObjectTypesAnUnlistedClassIsNamedWithoutTheOldAdvice() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var configuration = FirstUse.configuration()
            configuration.objectTypes = [FirstUse.Note.self]
            let realm = try Realm(configuration: configuration)
            try realm.write { realm.add(FirstUse.Dog()) }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Object type 'Dog' is not managed by the Realm. Add it to Realm.Configuration.objectTypes."), "\(message)")
        #expect(!message.contains("before opening"), "\(message)")
    }
}
