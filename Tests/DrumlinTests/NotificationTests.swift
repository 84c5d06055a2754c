import Drumlin
import Foundation
import Testing

// Realm Swift's "React to Changes" code, run against Drumlin: results, object, list and map
// observers, write(withoutNotifying:), refresh() for another handle's commits, and the changes as
// an AsyncStream.

enum Watched {
    class Dog: Object {
        @Persisted(primaryKey: true) var name = ""
        @Persisted var age = 0
        @Persisted var toys: List<String>
        @Persisted var scores: Map<String, Int>
    }
}

/// Records what a notification block received, as text.
final class Log: @unchecked Sendable {
    var lines: [String] = []
}

@Suite(.serialized) struct FaceNotificationTests {
    func openRealm(_ path: String? = nil) throws -> Realm {
        var config = Realm.Configuration()
        if let path {
            config.fileURL = URL(fileURLWithPath: path)
        } else {
            config.inMemoryIdentifier = "notify-\(UInt64.random(in: 0 ... .max))"
        }
        config.objectTypes = [Watched.Dog.self]
        return try Realm(configuration: config)
    }

    func describe<C>(_ changes: RealmCollectionChange<C>) -> String {
        switch changes {
        case .initial: return "initial"
        case .update(_, let deletions, let insertions, let modifications):
            return "del \(deletions) ins \(insertions) mod \(modifications)"
        case .error(let error): return "error \(error)"
        }
    }

    @Test func resultsObserverFollowsRealmsCollectionChanges() throws {
        let realm = try openRealm()
        try realm.write { realm.add([Watched.Dog(value: ["name": "Rex", "age": 3]), Watched.Dog(value: ["name": "Bo", "age": 1])]) }
        let log = Log()
        let dogs = realm.objects(Watched.Dog.self).sorted(byKeyPath: "age")
        let token = dogs.observe { changes in
            log.lines.append(self.describe(changes))
            if case .update(let results, _, _, _) = changes { log.lines.append(results.map(\.name).joined(separator: ",")) }
        }
        try realm.write { realm.add(Watched.Dog(value: ["name": "Ace", "age": 2])) }
        try realm.write { realm.objects(Watched.Dog.self).filter("name == 'Rex'").first!.age = 0 }
        try realm.write { realm.delete(realm.objects(Watched.Dog.self).filter("name == 'Bo'")) }
        #expect(log.lines == [
            "initial",
            "del [] ins [1] mod []", "Bo,Ace,Rex",
            "del [2] ins [0] mod []", "Rex,Bo,Ace",
            "del [1] ins [] mod []", "Rex,Ace",
        ])
        token.invalidate()
        try realm.write { realm.add(Watched.Dog(value: ["name": "Zed"])) }
        #expect(log.lines.count == 7)
    }

    @Test func objectObserverReportsPropertyChangesThenDeletion() throws {
        let realm = try openRealm()
        let dog = Watched.Dog(value: ["name": "Rex", "age": 3])
        try realm.write { realm.add(dog) }
        let log = Log()
        let token = dog.observe { change in
            switch change {
            case .change(let object, let properties):
                for property in properties {
                    log.lines.append("\(object.name).\(property.name): \(property.oldValue ?? "nil") -> \(property.newValue ?? "nil")")
                }
            case .error(let error):
                log.lines.append("error \(error)")
            case .deleted:
                log.lines.append("deleted")
            }
        }
        try realm.write { dog.age = 4 }
        try realm.write { dog.toys.append("ball") }
        try realm.write { realm.delete(dog) }
        #expect(log.lines == ["Rex.age: 3 -> 4", "Rex.toys: nil -> nil", "deleted"])
        _ = token
    }

    @Test func keyPathsFilterWhatCounts() throws {
        let realm = try openRealm()
        let dog = Watched.Dog(value: ["name": "Rex", "age": 3])
        try realm.write { realm.add(dog) }
        let log = Log()
        let byName = dog.observe(keyPaths: [\Watched.Dog.toys]) { change in
            if case .change(_, let properties) = change { log.lines.append(properties.map(\.name).joined()) }
        }
        let results = realm.objects(Watched.Dog.self).observe(keyPaths: ["age"]) { changes in log.lines.append(self.describe(changes)) }
        try realm.write { dog.toys.append("stick") }
        try realm.write { dog.age = 9 }
        #expect(log.lines == ["initial", "toys", "del [] ins [] mod [0]"])
        _ = (byName, results)
    }

    @Test func listAndMapObservers() throws {
        let realm = try openRealm()
        let dog = Watched.Dog(value: ["name": "Rex"])
        try realm.write { realm.add(dog) }
        let log = Log()
        let listToken = dog.toys.observe { changes in log.lines.append("list " + self.describe(changes)) }
        let mapToken = dog.scores.observe { changes in
            switch changes {
            case .initial: log.lines.append("map initial")
            case .update(_, let deletions, let insertions, let modifications):
                log.lines.append("map del \(deletions) ins \(insertions) mod \(modifications)")
            case .error: log.lines.append("map error")
            }
        }
        try realm.write {
            dog.toys.append(objectsIn: ["a", "b"])
            dog.scores["x"] = 1
        }
        try realm.write {
            dog.toys[0] = "A"
            dog.scores["x"] = 2
        }
        #expect(log.lines == [
            "list initial", "map initial",
            "list del [] ins [0, 1] mod []", "map del [] ins [\"x\"] mod []",
            "list del [] ins [] mod [0]", "map del [] ins [] mod [\"x\"]",
        ])
        _ = (listToken, mapToken)
    }

    @Test func aCancelledWriteDeliversNothingAndAWriteInsideABlockThrows() throws {
        let realm = try openRealm()
        let log = Log()
        let token = realm.objects(Watched.Dog.self).observe { changes in
            log.lines.append(self.describe(changes))
            if case .update = changes {
                do {
                    try realm.write { realm.add(Watched.Dog(value: ["name": "FromCallback"])) }
                    log.lines.append("wrote")
                } catch let error as Realm.Error {
                    log.lines.append(error.codeName)
                } catch {
                    log.lines.append("other error")
                }
            }
        }
        realm.beginWrite()
        realm.add(Watched.Dog(value: ["name": "Discarded"]))
        realm.cancelWrite()
        try realm.write { realm.add(Watched.Dog(value: ["name": "Kept"])) }
        #expect(log.lines == ["initial", "del [] ins [0] mod []", "WRONG_TRANSACTION_STATE"])
        #expect(realm.objects(Watched.Dog.self).map(\.name) == ["Kept"])
        #expect(!realm.isInWriteTransaction)
        token.invalidate()
    }

    @Test func writeWithoutNotifyingSkipsTheGivenToken() throws {
        let realm = try openRealm()
        let log = Log()
        let token = realm.objects(Watched.Dog.self).observe { changes in log.lines.append(self.describe(changes)) }
        try realm.write(withoutNotifying: [token]) { realm.add(Watched.Dog(value: ["name": "Quiet"])) }
        try realm.write { realm.add(Watched.Dog(value: ["name": "Loud"])) }
        #expect(log.lines == ["initial", "del [] ins [1] mod []"])
    }

    @Test func anotherHandlesCommitsArriveOnRefresh() throws {
        let path = NSTemporaryDirectory() + "drumlin-face-notify-\(UInt64.random(in: 0 ... .max)).realm"
        defer { _ = try? Realm.deleteFiles(for: { var c = Realm.Configuration(); c.fileURL = URL(fileURLWithPath: path); return c }()) }
        let realm = try openRealm(path)
        let log = Log()
        let token = realm.objects(Watched.Dog.self).observe { changes in log.lines.append(self.describe(changes)) }
        let done = DispatchSemaphore(value: 0)
        let writer = Thread {
            let other = try! self.openRealm(path)
            try! other.write { other.add(Watched.Dog(value: ["name": "FromThread"])) }
            done.signal()
        }
        writer.start()
        done.wait()
        #expect(log.lines == ["initial"])
        #expect(realm.hasExternalChanges)
        #expect(realm.refresh())
        #expect(log.lines == ["initial", "del [] ins [0] mod []"])
        #expect(realm.objects(Watched.Dog.self).first?.name == "FromThread")
        #expect(!realm.refresh())
        _ = token
    }

    @Test func changesAsAnAsyncStream() async throws {
        let realm = try openRealm()
        let dogs = realm.objects(Watched.Dog.self)
        var iterator = dogs.changes().makeAsyncIterator()
        let first = await iterator.next()
        try realm.write { realm.add(Watched.Dog(value: ["name": "Async"])) }
        let second = await iterator.next()
        #expect(first.map(describe) == "initial")
        #expect(second.map(describe) == "del [] ins [0] mod []")
    }
}
