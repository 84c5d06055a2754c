import Drumlin
import Foundation
import Testing

// Other processes on the same file: a writer process whose commits a Swift observer receives on
// refresh(), and a process killed (SIGKILL) inside a migration, after which Swift opens the file
// at its old version with its data. The other process is Python on the same library
// (.build/release/libdrumlin.so, which `make test` builds first).

enum Shared {
    class Note: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var text = ""
    }
}

@Suite(.serialized) struct ProcessTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Starts `python3 -c code path` with the checkout's package and library.
    func python(_ code: String, _ path: String) throws -> Process {
        let library = Self.root.appendingPathComponent(".build/release/libdrumlin.so").path
        try #require(FileManager.default.fileExists(atPath: library), "run `make lib` first: \(library) is missing")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", code, path]
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONPATH"] = Self.root.appendingPathComponent("bindings/python").path
        environment["DRUMLIN_LIBRARY"] = library
        process.environment = environment
        try process.run()
        return process
    }

    func configuration(_ path: String, version: UInt64 = 0) -> Realm.Configuration {
        var configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [Shared.Note.self])
        configuration.schemaVersion = version
        return configuration
    }

    let noteSchema = "[{'name': 'Note', 'primaryKey': 'id', 'properties': {'id': 'int', 'text': 'string'}}]"

    @Test func anotherProcessesCommitsArriveOnRefresh() throws {
        let path = NSTemporaryDirectory() + "drumlin-process-notify-\(UInt64.random(in: 0 ... .max)).realm"
        defer { _ = try? Realm.deleteFiles(for: configuration(path)) }
        let realm = try Realm(configuration: configuration(path))
        try realm.write { realm.add(Shared.Note(value: ["id": 1, "text": "mine"])) }
        var seen: [String] = []
        let token = realm.objects(Shared.Note.self).observe { changes in
            switch changes {
            case .initial: seen.append("initial")
            case .update(_, let deletions, let insertions, let modifications):
                seen.append("del \(deletions) ins \(insertions) mod \(modifications)")
            case .error(let error): seen.append("error \(error)")
            }
        }
        let writer = try python("""
            import sys, drumlin
            db = drumlin.open(sys.argv[1], \(noteSchema))
            with db.write():
                db.create('Note', {'id': 2, 'text': 'theirs'})
                db.get('Note', 1).text = 'edited'
            db.close()
            """, path)
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        #expect(seen == ["initial"])
        #expect(realm.hasExternalChanges)
        #expect(realm.refresh())
        #expect(seen == ["initial", "del [] ins [1] mod [0]"])
        #expect(realm.objects(Shared.Note.self).map(\.text) == ["edited", "theirs"])
        token.invalidate()
    }

    @Test func aProcessKilledDuringAMigrationLeavesTheOldFile() throws {
        let path = NSTemporaryDirectory() + "drumlin-process-migrate-\(UInt64.random(in: 0 ... .max)).realm"
        let marker = path + ".started"
        defer {
            _ = try? Realm.deleteFiles(for: configuration(path))
            try? FileManager.default.removeItem(atPath: marker)
        }
        do {
            let realm = try Realm(configuration: configuration(path, version: 1))
            try realm.write { realm.add(Shared.Note(value: ["id": 1, "text": "kept"])) }
        }
        let migrating = try python("""
            import sys, time, drumlin
            def migrate(m):
                m.enumerate_objects('Note', lambda old, new: setattr(new, 'words', 99))
                open(sys.argv[1] + '.started', 'w').close()
                time.sleep(60)
            drumlin.open(sys.argv[1], [{'name': 'Note', 'primaryKey': 'id', 'properties': {'id': 'int', 'text': 'string', 'words': 'int'}}],
                         schema_version=2, migration=migrate)
            """, path)
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: marker) && Date() < deadline { usleep(10_000) }
        #expect(FileManager.default.fileExists(atPath: marker))
        kill(migrating.processIdentifier, SIGKILL)
        migrating.waitUntilExit()
        #expect(migrating.terminationReason == .uncaughtSignal && migrating.terminationStatus == SIGKILL)
        // Opening at version 1 succeeds only while the stored version is 1: the migration left nothing.
        let realm = try Realm(configuration: configuration(path, version: 1))
        #expect(realm.objects(Shared.Note.self).map(\.text) == ["kept"])
    }
}
