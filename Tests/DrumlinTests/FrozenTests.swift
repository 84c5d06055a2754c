import Drumlin
import Foundation
import Testing

/// `freeze()` / `thaw()` / `isFrozen` on Realm, objects and collections, and
/// `ThreadSafeReference` with `resolve(_:)`, across threads.
@Suite struct FrozenTests {
    class Owner: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var name = ""
        @Persisted var pets: List<Pet>
        @Persisted var tags: MutableSet<String>
        @Persisted var scores: Map<String, Int>
    }

    class Pet: Object {
        @Persisted(primaryKey: true) var name = ""
        @Persisted var age = 0
        @Persisted(originProperty: "pets") var owners: LinkingObjects<Owner>
    }

    func fileRealm() throws -> (Realm, Realm.Configuration) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("frozen-\(UUID().uuidString).realm")
        let configuration = Realm.Configuration(fileURL: url, objectTypes: [Owner.self, Pet.self])
        let realm = try Realm(configuration: configuration)
        try realm.write {
            let ann = realm.create(Owner.self, value: ["id": 1, "name": "Ann", "tags": ["a"], "scores": ["x": 1]])
            ann.pets.append(realm.create(Pet.self, value: ["name": "Rex", "age": 3]))
        }
        return (realm, configuration)
    }

    /// Runs `body` on another thread and waits for it.
    func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.start()
        while !thread.isFinished { usleep(1000) }
    }

    @Test func frozenObjectsReadTheirVersionFromAnotherThread() throws {
        let (realm, configuration) = try fileRealm()
        let ann = try #require(realm.object(ofType: Owner.self, forPrimaryKey: 1))
        let frozen = ann.freeze()
        #expect(frozen.isFrozen && !ann.isFrozen)
        #expect(frozen.realm?.isFrozen == true)
        try realm.write {
            ann.name = "Anna"
            ann.pets.append(realm.create(Pet.self, value: ["name": "Max"]))
            ann.tags.insert("b")
            ann.scores["y"] = 2
        }
        #expect(ann.name == "Anna" && ann.pets.count == 2)
        #expect(frozen.name == "Ann")
        #expect(frozen.pets.map(\.name) == ["Rex"])
        #expect(frozen.pets.isFrozen && frozen.pets.first!.isFrozen)
        #expect(frozen.tags.count == 1 && frozen.scores.count == 1)
        let seen = FrozenSeen()
        let shared = SendableBox(frozen)
        onAnotherThread {
            // Written meanwhile by yet another thread: the frozen object does not move.
            let other = try! Realm(configuration: configuration)
            try! other.write { other.object(ofType: Owner.self, forPrimaryKey: 1)!.name = "Annie" }
            seen.values = [shared.value.name, "\(shared.value.pets.count)", shared.value.pets[0].owners.first!.name]
        }
        #expect(seen.values == ["Ann", "1", "Ann"])
        #expect(frozen.thaw()?.name == "Annie")
        #expect(frozen.thaw()?.isFrozen == false)
    }

    @Test func frozenCollectionsAndRealm() throws {
        let (realm, _) = try fileRealm()
        let pets = realm.objects(Pet.self).where { $0.age >= 0 }.sorted(byKeyPath: "name")
        let frozenPets = pets.freeze()
        let frozenRealm = realm.freeze()
        #expect(frozenRealm.isFrozen && !realm.isFrozen)
        #expect(frozenRealm == realm.freeze())
        try realm.write { realm.create(Pet.self, value: ["name": "Ace", "age": 1]) }
        #expect(pets.map(\.name) == ["Ace", "Rex"])
        #expect(frozenPets.map(\.name) == ["Rex"])
        #expect(frozenPets.isFrozen)
        #expect(frozenRealm.objects(Pet.self).count == 1)
        #expect(frozenPets.thaw()?.map(\.name) == ["Ace", "Rex"])
        let owners = realm.object(ofType: Pet.self, forPrimaryKey: "Rex")!.owners.freeze()
        #expect(owners.isFrozen && owners.map(\.name) == ["Ann"])
        #expect(frozenRealm.thaw() == realm)
        // A frozen Realm cannot be written.
        let error = #expect(throws: Realm.Error.self) { try frozenRealm.write {} }
        #expect(error?.message == "Can't perform transactions on a frozen Realm")
    }

    @Test func thawOfADeletedObjectIsNil() throws {
        let (realm, _) = try fileRealm()
        let frozen = realm.object(ofType: Pet.self, forPrimaryKey: "Rex")!.freeze()
        try realm.write { realm.delete(realm.objects(Pet.self)) }
        #expect(frozen.name == "Rex")
        #expect(frozen.thaw() == nil)
    }

    @Test func threadSafeReferencesResolveOnAnotherThread() throws {
        let (realm, configuration) = try fileRealm()
        let ann = realm.object(ofType: Owner.self, forPrimaryKey: 1)!
        let objectReference = ThreadSafeReference(to: ann)
        let resultsReference = ThreadSafeReference(to: realm.objects(Pet.self).filter("age > 2"))
        let listReference = ThreadSafeReference(to: ann.pets)
        #expect(objectReference.isInvalidated == false)
        let seen = FrozenSeen()
        onAnotherThread {
            let other = try! Realm(configuration: configuration)
            guard let owner = other.resolve(objectReference), let pets = other.resolve(resultsReference),
                  let list = other.resolve(listReference) else { return }
            try! other.write { owner.name = "From thread" }
            seen.values = [owner.name, "\(pets.count)", list.first?.name ?? "", "\(objectReference.isInvalidated)"]
        }
        #expect(seen.values == ["From thread", "1", "Rex", "true"])
        realm.refresh()
        #expect(ann.name == "From thread")
    }
}

final class FrozenSeen: @unchecked Sendable { var values: [String] = [] }
struct SendableBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

@Suite struct ThreadSafeWrapperTests {
    final class Holder: @unchecked Sendable {
        @ThreadSafe var pet: FrozenTests.Pet?
    }

    @Test func aThreadSafePropertyReadsInEachThreadsRealm() throws {
        let (realm, configuration) = try FrozenTests().fileRealm()
        let holder = Holder()
        holder.pet = realm.object(ofType: FrozenTests.Pet.self, forPrimaryKey: "Rex")
        let seen = FrozenSeen()
        FrozenTests().onAnotherThread {
            let pet = holder.pet
            seen.values = [pet?.name ?? "nil", "\(pet?.realm == (try! Realm(configuration: configuration)))"]
            let other = try! Realm(configuration: configuration)
            try! other.write { other.delete(pet!) }
        }
        #expect(seen.values == ["Rex", "true"])
        realm.refresh()
        #expect(holder.pet == nil)
        holder.pet = nil
        #expect(holder.pet == nil)
    }
}

@Suite struct FrozenProjectionTests {
    final class PetCard: Projection<FrozenTests.Pet> {
        @Projected(\FrozenTests.Pet.name) var title
        @Projected(\FrozenTests.Pet.age) var years
    }

    @Test func aFrozenProjectionShowsItsVersion() throws {
        let (realm, _) = try FrozenTests().fileRealm()
        let card = PetCard(projecting: realm.object(ofType: FrozenTests.Pet.self, forPrimaryKey: "Rex")!)
        let frozen = card.freeze()
        try realm.write { card.years = 9 }
        #expect(card.years == 9 && !card.isFrozen)
        #expect(frozen.years == 3 && frozen.title == "Rex" && frozen.isFrozen)
        #expect(frozen.thaw()?.years == 9)
    }
}
