import Drumlin
import Testing

// AnyRealmValue.object: an object in an AnyRealmValue property, List<AnyRealmValue> and
// Map<String, AnyRealmValue>, read back as the model class, queried, and cleared on delete.

enum MixedLinks {
    class Pet: Object {
        @Persisted(primaryKey: true) var name = ""
        @Persisted var age = 0
    }

    class Holder: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var value: AnyRealmValue
        @Persisted var values: List<AnyRealmValue>
        @Persisted var byName: Map<String, AnyRealmValue>
    }
}

@Suite struct MixedLinkFaceTests {
    func openRealm(_ name: String = #function) throws -> Realm {
        var config = Realm.Configuration(inMemoryIdentifier: "mixed-links-\(name)-\(UInt64.random(in: 0 ... .max))")
        config.objectTypes = [MixedLinks.Pet.self, MixedLinks.Holder.self]
        return try Realm(configuration: config)
    }

    @Test func anObjectIsStoredAndReadBackAsItsClass() throws {
        let realm = try openRealm()
        let rex = MixedLinks.Pet()
        rex.name = "Rex"
        rex.age = 3
        let holder = MixedLinks.Holder()
        holder.id = 1
        try realm.write {
            realm.add(rex)
            realm.add(holder)
            holder.value = .object(rex)
            holder.values.append(.object(rex))
            holder.values.append(.int(5))
            holder.byName["r"] = .object(rex)
        }
        #expect(holder.value.object(MixedLinks.Pet.self)?.name == "Rex")
        #expect(holder.values[0].object(MixedLinks.Pet.self)?.age == 3)
        #expect(holder.values[1] == .int(5))
        #expect(holder.byName["r"]?.object(MixedLinks.Pet.self)?.name == "Rex")
    }

    @Test func queriesAndClearingOnDelete() throws {
        let realm = try openRealm()
        let rex = MixedLinks.Pet()
        rex.name = "Rex"
        let bo = MixedLinks.Pet()
        bo.name = "Bo"
        try realm.write {
            realm.add([rex, bo])
            let one = realm.create(MixedLinks.Holder.self, value: ["id": 1])
            one.value = .object(rex)
            one.values.append(.object(rex))
            let two = realm.create(MixedLinks.Holder.self, value: ["id": 2])
            two.value = .object(bo)
        }
        let holders = realm.objects(MixedLinks.Holder.self)
        #expect(holders.filter("value == %@", rex).count == 1)
        #expect(holders.filter("value.@type == 'objectlink'").count == 2)
        #expect(holders.filter("value.name == 'Bo'").first?.id == 2)
        #expect(holders.filter("ANY values.name == 'Rex'").count == 1)
        try realm.write { realm.delete(rex) }
        let one = try #require(realm.object(ofType: MixedLinks.Holder.self, forPrimaryKey: 1))
        #expect(one.value == .none)
        #expect(one.values.count == 0)
        #expect(holders.filter("value == nil").count == 1)
    }
}
