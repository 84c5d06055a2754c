import Drumlin
import Testing

/// Export, import, check, compact, the busy timeout and the logger from the Swift API.
@Suite struct RealmToolsTests {
    func fileConfiguration(_ name: String) -> Realm.Configuration {
        let path = "/tmp/drumlin-tools-\(name)-\(UInt64.random(in: 0 ... .max)).drumlin"
        return Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [SeedBook.self])
    }

    @Test func exportThenImportIntoAFreshFileKeepsEveryObject() throws {
        let source = fileConfiguration("source")
        let target = fileConfiguration("target")
        let lines = URL(fileURLWithPath: "/tmp/drumlin-tools-\(UInt64.random(in: 0 ... .max)).ndjson")
        defer {
            _ = try? Realm.deleteFiles(for: source)
            _ = try? Realm.deleteFiles(for: target)
            try? FileManager.default.removeItem(at: lines)
        }
        let realm = try Realm(configuration: source)
        try realm.write {
            for id in 1 ... 3 { realm.create(SeedBook.self, value: ["id": id, "title": "Book \(id)", "pages": id * 100]) }
        }
        var reports: [(Int, Int)] = []
        #expect(try realm.exportObjects(to: lines, progress: { reports.append(($0, $1)); return true }) == 3)
        #expect(reports.last.map { $0.0 } == 3)
        let copy = try Realm(configuration: target)
        #expect(try copy.importObjects(from: lines) == 3)
        #expect(copy.objects(SeedBook.self).sorted(byKeyPath: "id").map(\.title) == ["Book 1", "Book 2", "Book 3"])
        #expect(copy.object(ofType: SeedBook.self, forPrimaryKey: 2)?.pages == 200)
        #expect(try copy.check() == [])
        try copy.compact()
        #expect(copy.objects(SeedBook.self).count == 3)
        // A second import of the same lines is refused (duplicate keys) and changes nothing.
        let error = #expect(throws: Realm.Error.self) { try copy.importObjects(from: lines) }
        #expect(error?.codeName == "DUPLICATE_PRIMARY_KEY")
        #expect(copy.objects(SeedBook.self).count == 3)
        #expect(try copy.importObjects(from: lines, update: .all) == 3)
    }

    @Test func aRealmCanCommitDurablyAgainstPowerLoss() throws {
        var configuration = fileConfiguration("durable")
        configuration.durableAgainstPowerLoss = true
        defer { _ = try? Realm.deleteFiles(for: configuration) }
        let realm = try Realm(configuration: configuration)
        let book = SeedBook()
        book.id = 7
        try realm.write { realm.add(book) }
        #expect(realm.object(ofType: SeedBook.self, forPrimaryKey: 7) != nil)
    }

    @Test func aWriteWaitingPastTheBusyTimeoutThrowsSayingSo() throws {
        var configuration = fileConfiguration("busy")
        configuration.busyTimeout = 0.2
        defer { _ = try? Realm.deleteFiles(for: configuration) }
        let realm = try Realm(configuration: configuration)
        realm.beginWrite()
        defer { realm.cancelWrite() }
        final class Outcome: @unchecked Sendable { var error: Realm.Error? }
        let outcome = Outcome()
        let shared = configuration
        let thread = Thread {
            do {
                let other = try Realm(configuration: shared)
                try other.write { other.create(SeedBook.self, value: ["id": 9]) }
            } catch {
                outcome.error = error as? Realm.Error
            }
        }
        thread.start()
        while !thread.isFinished { usleep(1000) }
        #expect(outcome.error?.codeName == "BUSY")
        #expect(outcome.error?.message.contains("0.2") == true || outcome.error?.message.contains("200") == true,
                "\(outcome.error?.message ?? "")")
    }

    @Test func theLoggerHearsOpensAndSlowQueries() throws {
        final class Heard: @unchecked Sendable { var lines: [(Realm.LogLevel, String)] = [] }
        let heard = Heard()
        var configuration = fileConfiguration("log")
        configuration.logger = { level, message in heard.lines.append((level, message)) }
        configuration.slowQueryThreshold = 0
        configuration.busyTimeout = 0.25
        defer { _ = try? Realm.deleteFiles(for: configuration) }
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.create(SeedBook.self, value: ["id": 1, "title": "Emma"]) }
        #expect(realm.objects(SeedBook.self).filter("title == 'Emma'").count == 1)
        #expect(heard.lines.contains { $0.0 == .info })
        #expect(heard.lines.contains { $0.0 == .warning })
    }
}
