import Drumlin
import Foundation
import Testing

/// Realm.Error codes, configuration equality, files (exists, copies, seeds, compaction, schema
/// version), `observe`, `invalidate()` and the active-versions limit.
@Suite struct RealmLifecycleTests {
    class Note: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var text = ""
    }

    func fileConfiguration(_ name: String = "notes.realm", version: UInt64 = 0) -> Realm.Configuration {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifecycle-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return Realm.Configuration(fileURL: directory.appendingPathComponent(name), schemaVersion: version, objectTypes: [Note.self])
    }

    func add(_ realm: Realm, _ id: Int, _ text: String) throws {
        try realm.write { realm.add(Note(value: ["id": id, "text": text])) }
    }

    @Test func errorsCarryRealmsCodesAndMatchInCatch() throws {
        var configuration = fileConfiguration()
        configuration.readOnly = true
        do {
            _ = try Realm(configuration: configuration)
            Issue.record("opened a file that does not exist")
        } catch Realm.Error.fileNotFound {
            // Realm's pattern: the code matched against the thrown error.
        }
        let error = #expect(throws: Realm.Error.self) { _ = try Realm(configuration: configuration) }
        #expect(error?.code == .fileNotFound)
        #expect(error?.codeName == "FILE")
        #expect(error?.statusCode == 19)
        #expect(error?.message == "Cannot open '\(configuration.fileURL!.path)' read-only: the file does not exist.")
        #expect(Realm.Error.fileNotFound == .fileNotFound && Realm.Error.Code.schemaMismatch.rawValue == 10)
        #expect(Realm.Error(.fileExists, userInfo: [NSLocalizedDescriptionKey: "here"]).localizedDescription == "here")
        #expect(Realm.Error.callFailed.code == .fail)
    }

    @Test func lowerSchemaVersionIsASchemaMismatch() throws {
        let configuration = fileConfiguration(version: 3)
        try add(Realm(configuration: configuration), 1, "a")
        var older = configuration
        older.schemaVersion = 1
        let error = #expect(throws: Realm.Error.self) { _ = try Realm(configuration: older) }
        #expect(error?.code == .schemaMismatch)
        #expect(try schemaVersionAtURL(configuration.fileURL!) == 3)
        let missing = #expect(throws: Realm.Error.self) { _ = try schemaVersionAtURL(URL(fileURLWithPath: "/nonexistent/x.realm")) }
        #expect(missing?.code == .fileNotFound)
    }

    @Test func configurationsAndRealmsCompare() throws {
        let configuration = fileConfiguration()
        var same = configuration
        same.objectTypes = [Note.self]
        #expect(configuration == same)
        same.schemaVersion = 2
        #expect(configuration != same)
        #expect(Realm.Configuration(inMemoryIdentifier: "a") == Realm.Configuration(inMemoryIdentifier: "a"))
        #expect(Realm.Configuration(inMemoryIdentifier: "a") != Realm.Configuration(inMemoryIdentifier: "b"))
        let realm = try Realm(configuration: configuration)
        #expect(realm == (try Realm(configuration: configuration)))
        #expect(realm != (try Realm(configuration: Realm.Configuration(inMemoryIdentifier: "other-\(UUID())", objectTypes: [Note.self]))))
    }

    @Test func fileExistsAndPerformMigration() throws {
        var configuration = fileConfiguration(version: 1)
        #expect(Realm.fileExists(for: configuration) == false)
        try add(Realm(configuration: configuration), 1, "old")
        #expect(Realm.fileExists(for: configuration))
        #expect(Realm.fileExists(for: Realm.Configuration(inMemoryIdentifier: "x")) == false)
        let migrated = LifecycleCount()
        configuration.schemaVersion = 2
        configuration.migrationBlock = { migration, oldVersion in
            migrated.value = Int(oldVersion)
            migration.enumerateObjects(ofType: "Note") { _, new in new?["text"] = "migrated" }
        }
        try Realm.performMigration(for: configuration)
        #expect(migrated.value == 1)
        #expect(try schemaVersionAtURL(configuration.fileURL!) == 2)
        #expect(try Realm(configuration: configuration).object(ofType: Note.self, forPrimaryKey: 1)?.text == "migrated")
    }

    @Test func writeCopyAndSeedFile() throws {
        let configuration = fileConfiguration()
        let realm = try Realm(configuration: configuration)
        try add(realm, 1, "one")
        try add(realm, 2, "two")
        let copyConfiguration = fileConfiguration("copy.realm")
        try realm.writeCopy(configuration: copyConfiguration)
        #expect(try Realm(configuration: copyConfiguration).objects(Note.self).map(\.text) == ["one", "two"])
        let again = #expect(throws: Realm.Error.self) { try realm.writeCopy(toFile: copyConfiguration.fileURL!) }
        #expect(again?.code == .fileExists)
        #expect(again?.fileURL == copyConfiguration.fileURL)
        // A seed file is copied where there is no file yet, and only then.
        var seeded = fileConfiguration("seeded.realm")
        seeded.seedFilePath = copyConfiguration.fileURL
        let fromSeed = try Realm(configuration: seeded)
        #expect(fromSeed.objects(Note.self).count == 2)
        try add(fromSeed, 3, "three")
        #expect(try Realm(configuration: copyConfiguration).objects(Note.self).count == 2)
    }

    @Test func shouldCompactOnLaunchSeesSizesAndCompacts() throws {
        var configuration = fileConfiguration()
        do {
            let realm = try Realm(configuration: configuration)
            try realm.write { for id in 0 ..< 400 { realm.add(Note(value: ["id": id, "text": String(repeating: "x", count: 500)])) } }
            try realm.write { realm.delete(realm.objects(Note.self)) }
        }
        let seen = Sizes()
        configuration.shouldCompactOnLaunch = { total, used in
            seen.values.append((total, used))
            return true
        }
        do { _ = try Realm(configuration: configuration) }
        #expect(seen.values.count == 1)
        let (total, used) = seen.values[0]
        #expect(total > 100_000 && used < total)
        do { _ = try Realm(configuration: configuration) }
        #expect(seen.values.count == 2)
        #expect(seen.values[1].0 < total)
        var readOnly = configuration
        readOnly.readOnly = true
        let error = #expect(throws: Realm.Error.self) { _ = try Realm(configuration: readOnly) }
        #expect(error?.message == "Cannot set `shouldCompactOnLaunch` when `readOnly` is set.")
    }

    @Test func observeHearsCommitsAndRefreshes() throws {
        let configuration = fileConfiguration()
        let realm = try Realm(configuration: configuration)
        let heard = Sizes()
        let token = realm.observe { notification, observed in
            #expect(notification == .didChange)
            heard.values.append((observed.objects(Note.self).count, 0))
        }
        try add(realm, 1, "a")
        try add(realm, 2, "b")
        #expect(heard.values.map(\.0) == [1, 2])
        // Another thread's commit arrives with refresh().
        let thread = Thread { try? add(Realm(configuration: configuration), 3, "c") }
        thread.start()
        while !thread.isFinished { usleep(1000) }
        realm.refresh()
        #expect(heard.values.map(\.0) == [1, 2, 3])
        token.invalidate()
        try add(realm, 4, "d")
        #expect(heard.values.count == 3)
    }

    @Test func invalidateRollsBackAnOpenWrite() throws {
        let realm = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: "invalidate-\(UUID())", objectTypes: [Note.self]))
        realm.beginWrite()
        realm.add(Note(value: ["id": 1]))
        realm.invalidate()
        #expect(realm.isInWriteTransaction == false)
        #expect(realm.objects(Note.self).isEmpty)
        #expect(realm.autorefresh)
        realm.autorefresh = false
        #expect(realm.autorefresh == false)
    }

    @Test func activeVersionsAreLimited() throws {
        var configuration = Realm.Configuration(inMemoryIdentifier: "versions-\(UUID())", objectTypes: [Note.self])
        configuration.maximumNumberOfActiveVersions = 2
        let realm = try Realm(configuration: configuration)
        try add(realm, 1, "a")
        var frozen: [Realm] = [realm.freeze()]
        try add(realm, 2, "b")
        frozen.append(realm.freeze())
        let error = #expect(throws: Realm.Error.self) { try add(realm, 3, "c") }
        #expect(error?.message == "Number of active versions (3) in the Realm exceeded the limit of 2")
        #expect(realm.objects(Note.self).count == 2)
        frozen.removeLast()
        try add(realm, 3, "c")
        #expect(frozen[0].objects(Note.self).count == 1)
    }
}

final class LifecycleCount: @unchecked Sendable { var value = 0 }
final class Sizes: @unchecked Sendable { var values: [(Int, Int)] = [] }
