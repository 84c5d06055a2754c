import Drumlin
import Foundation
import Testing

/// Swift concurrency: actor-isolated Realms, `asyncWrite` (commit, rollback, cancellation),
/// `asyncRefresh`, `writeAsync`, and changes as `AsyncStream`s.
@Suite struct ConcurrencyTests {
    final class Entry: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var amount = 0
    }

    struct Refused: Error, Equatable {}

    actor Ledger {
        var realm: Realm!

        init(_ configuration: Realm.Configuration) async throws {
            realm = try await Realm(configuration: configuration, actor: self)
        }

        func add(_ ids: [Int]) async throws -> Int {
            try await realm.asyncWrite {
                for id in ids { realm.add(Entry(value: ["id": id, "amount": id * 10])) }
                return realm.objects(Entry.self).count
            }
        }

        func addThenThrow(_ id: Int) async throws {
            try await realm.asyncWrite {
                realm.add(Entry(value: ["id": id]))
                throw Refused()
            }
        }

        func total() -> Int { realm.objects(Entry.self).sum(ofProperty: "amount") }

        func sameHandle() async throws -> Bool {
            try await Realm(configuration: realm.configuration, actor: self) == realm
        }

        /// The initial change, then the update that `asyncRefresh` delivers after `outside` wrote.
        func heardAfterRefresh(_ outside: @Sendable () throws -> Void) async throws -> [String] {
            var heard: [String] = []
            var changes = realm.objects(Entry.self).changes().makeAsyncIterator()
            if case .initial(let results)? = await changes.next() { heard.append("initial \(results.count)") }
            try outside()
            heard.append("refreshed \(await realm.asyncRefresh())")
            if case .update(let results, _, let insertions, _)? = await changes.next() {
                heard.append("update \(results.count) \(insertions)")
            }
            return heard
        }
    }

    func configuration(_ name: String) -> Realm.Configuration {
        Realm.Configuration(fileURL: URL(fileURLWithPath: "/tmp/drumlin-async-\(name)-\(UInt64.random(in: 0 ... .max)).drumlin"),
                            objectTypes: [Entry.self])
    }

    @Test func anActorWritesThroughItsOwnRealm() async throws {
        let configuration = configuration("actor")
        defer { _ = try? Realm.deleteFiles(for: configuration) }
        let ledger = try await Ledger(configuration)
        #expect(try await ledger.add([1, 2]) == 2)
        #expect(try await ledger.add([3]) == 3)
        #expect(await ledger.total() == 60)
        #expect(try await ledger.sameHandle())
        // A thread's Realm sees the committed writes.
        let outside = try Realm(configuration: configuration)
        #expect(outside.objects(Entry.self).count == 3)
    }

    @Test func aThrowingBlockRollsBackAndACancelledTaskWritesNothing() async throws {
        let configuration = configuration("rollback")
        defer { _ = try? Realm.deleteFiles(for: configuration) }
        let ledger = try await Ledger(configuration)
        _ = try await ledger.add([1])
        await #expect(throws: Refused()) { try await ledger.addThenThrow(2) }
        #expect(await ledger.total() == 10)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await ledger.add([5])
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(await ledger.total() == 10)
    }

    @Test func asyncRefreshDeliversOtherHandlesCommitsToTheStream() async throws {
        let configuration = configuration("refresh")
        defer { _ = try? Realm.deleteFiles(for: configuration) }
        let ledger = try await Ledger(configuration)
        _ = try await ledger.add([1])
        let heard = try await ledger.heardAfterRefresh {
            let other = try Realm(configuration: configuration)
            try other.write { other.add(Entry(value: ["id": 9])) }
        }
        #expect(heard == ["initial 1", "refreshed true", "update 2 [1]"])
    }

    @Test func writeAsyncCommitsAndReports() throws {
        let configuration = configuration("writeAsync")
        defer { _ = try? Realm.deleteFiles(for: configuration) }
        let realm = try Realm(configuration: configuration)
        var completed: [String] = []
        let id = realm.writeAsync({ realm.add(Entry(value: ["id": 4])) }, onComplete: { error in completed.append("done \(error == nil)") })
        #expect(completed == ["done true"] && realm.objects(Entry.self).count == 1)
        #expect(!realm.isPerformingAsynchronousWriteOperations && !realm.isInWriteTransaction)
        #expect(throws: Never.self) { try realm.cancelAsyncWrite(id) }
        #expect(throws: Realm.Error.self) { try realm.cancelAsyncWrite(0) }
        realm.beginAsyncWrite {
            realm.add(Entry(value: ["id": 5]))
            realm.commitAsyncWrite { error in completed.append("committed \(error == nil)") }
        }
        #expect(completed.last == "committed true" && realm.objects(Entry.self).count == 2)
    }

    @Test func anObjectsChangesEndWithItsDeletion() async throws {
        let configuration = configuration("object")
        defer { _ = try? Realm.deleteFiles(for: configuration) }
        let realm = try Realm(configuration: configuration)
        let entry = Entry(value: ["id": 1])
        try realm.write { realm.add(entry) }
        let stream = entry.changes()
        try realm.write { entry.amount = 7 }
        try realm.write { realm.delete(entry) }
        var heard: [String] = []
        for await change in stream {
            switch change {
            case .change(_, let properties): heard.append(properties.map { "\($0.name)=\($0.newValue ?? "nil")" }.joined())
            case .deleted: heard.append("deleted")
            case .error: heard.append("error")
            }
        }
        #expect(heard == ["amount=7", "deleted"])
    }
}
