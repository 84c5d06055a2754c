import Drumlin
import Foundation
import Testing

/// `RealmCollection` as a generic constraint and `AnyRealmCollection` over results, lists, sets
/// and linking objects.
@Suite struct RealmCollectionTests {
    class Kennel: Object {
        @Persisted var name = ""
        @Persisted var dogs: List<Hound>
        @Persisted var codes: MutableSet<Int>
    }

    class Hound: Object {
        @Persisted var name = ""
        @Persisted(originProperty: "dogs") var kennels: LinkingObjects<Kennel>
    }

    func names<C: RealmCollection>(_ dogs: C) -> [String] where C.Element == Hound { dogs.map(\.name) }

    @Test func genericCodeTakesEveryCollection() throws {
        let realm = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: "collections-\(UUID())", objectTypes: [Kennel.self, Hound.self]))
        let kennel = Kennel(value: ["name": "K", "codes": [3, 1]])
        try realm.write {
            realm.add(kennel)
            kennel.dogs.append(objectsIn: [Hound(value: ["name": "a"]), Hound(value: ["name": "b"])])
        }
        #expect(names(realm.objects(Hound.self).sorted(byKeyPath: "name")) == ["a", "b"])
        #expect(names(kennel.dogs) == ["a", "b"])
        let any = AnyRealmCollection(kennel.dogs)
        #expect(any.count == 2 && any[1].name == "b" && any.realm == realm && !any.isFrozen)
        let codes = AnyRealmCollection(kennel.codes)
        #expect(Set(codes) == [1, 3])
        let kennels = AnyRealmCollection(kennel.dogs[0].kennels)
        #expect(kennels.map(\.name) == ["K"])
        let heard = Heard()
        let token = any.observe { change in
            switch change {
            case .initial(let collection): heard.values.append("initial \(collection.count)")
            case .update(let collection, _, let insertions, _): heard.values.append("update \(collection.count) \(insertions)")
            case .error: heard.values.append("error")
            }
        }
        try realm.write { kennel.dogs.append(Hound(value: ["name": "c"])) }
        #expect(heard.values == ["initial 2", "update 3 [2]"])
        token.invalidate()
    }

    @Test func anyCollectionsFreeze() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("anycollection-\(UUID()).realm")
        let realm = try Realm(configuration: Realm.Configuration(fileURL: url, objectTypes: [Kennel.self, Hound.self]))
        try realm.write { realm.add(Hound(value: ["name": "a"])) }
        let frozen = AnyRealmCollection(realm.objects(Hound.self)).freeze()
        try realm.write { realm.add(Hound(value: ["name": "b"])) }
        #expect(frozen.isFrozen && frozen.count == 1)
        #expect(frozen.thaw()?.count == 2)
    }
}

final class Heard: @unchecked Sendable { var values: [String] = [] }
