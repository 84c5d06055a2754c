import Drumlin
import Foundation
import Testing

final class AddOwner: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var partner: AddOwner?
}

final class AddPlace: EmbeddedObject {
    @Persisted var city = ""
    @Persisted var floors: List<Int>
}

final class AddSpot: EmbeddedObject {
    @Persisted var name = ""
    @Persisted var keeper: AddOwner?
}

final class AddItem: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var title = ""
    @Persisted var tags: List<String>
    @Persisted var days: List<Date>
    @Persisted var labels: MutableSet<String>
    @Persisted var scores: Map<String, Int>
    @Persisted var owner: AddOwner?
    @Persisted var mixes: List<AnyRealmValue>
    @Persisted var place: AddPlace?
    @Persisted var spot: AddSpot?
}

private func addRealm(_ name: String = #function) throws -> Realm {
    try Realm(configuration: Realm.Configuration(inMemoryIdentifier: name + "\(UInt64.random(in: 0 ... .max))",
                                                 objectTypes: [AddOwner.self, AddItem.self, AddPlace.self, AddSpot.self]))
}

private func item(_ id: Int, owner: AddOwner?, tags: [String]) -> AddItem {
    let item = AddItem()
    item.id = id
    item.title = "item \(id)"
    item.tags.append(objectsIn: tags)
    item.days.append(Date(timeIntervalSince1970: 86_400 * Double(id)))
    item.labels.insert("l\(id)")
    item.scores["k"] = id
    item.owner = owner
    return item
}

/// `add` gives collections of values and links to objects already managed to the engine with the
/// object's row, in one call; links to unmanaged objects, collections of objects and of mixed
/// values follow the object. Either way the stored object is what was added.
@Suite struct AddWithRowTests {
    @Test func collectionsOfValuesAndLinksToManagedObjectsAreStored() throws {
        let realm = try addRealm()
        let owner = AddOwner()
        owner.id = 1
        owner.name = "ann"
        try realm.write { realm.add(owner) }
        let read = try #require(realm.object(ofType: AddOwner.self, forPrimaryKey: 1))
        try realm.write {
            realm.add([item(1, owner: owner, tags: ["a", "b"]), item(2, owner: read, tags: []), item(3, owner: nil, tags: ["c"])])
        }
        let first = try #require(realm.object(ofType: AddItem.self, forPrimaryKey: 1))
        #expect(Array(first.tags) == ["a", "b"])
        #expect(Array(first.days) == [Date(timeIntervalSince1970: 86_400)])
        #expect(Array(first.labels) == ["l1"] && first.scores["k"] == 1)
        #expect(first.owner?.name == "ann")
        #expect(realm.object(ofType: AddItem.self, forPrimaryKey: 2)?.owner?.isSameObject(as: owner) == true)
        #expect(realm.object(ofType: AddItem.self, forPrimaryKey: 2)?.tags.isEmpty == true)
        #expect(realm.object(ofType: AddItem.self, forPrimaryKey: 3)?.owner == nil)
        #expect(realm.objects(AddItem.self).filter("owner.id == 1").count == 2)
    }

    @Test func linksToUnmanagedObjectsAndMixedCollectionsFollowTheObject() throws {
        let realm = try addRealm()
        let a = AddOwner()
        a.id = 1
        let b = AddOwner()
        b.id = 2
        a.partner = b
        b.partner = a  // a cycle: each is added once
        let added = item(1, owner: a, tags: ["x"])
        added.mixes.append(.object(b))
        added.mixes.append(.string("s"))
        try realm.write { realm.add(added) }
        #expect(realm.objects(AddOwner.self).count == 2)
        let stored = try #require(realm.object(ofType: AddItem.self, forPrimaryKey: 1))
        #expect(stored.owner?.partner?.partner?.id == 1)
        #expect(stored.mixes.count == 2 && stored.mixes[1] == .string("s"))
        #expect(stored.mixes[0].object(AddOwner.self)?.id == 2)
    }

    @Test func updatesReplaceCollectionsAndKeepOrClearLinksAsRealmDoes() throws {
        let realm = try addRealm()
        let owner = AddOwner()
        owner.id = 1
        try realm.write { realm.add([owner, item(1, owner: owner, tags: ["a", "b"])] as [Object]) }
        // .modified: the given collections replace the stored ones; a nil link leaves the link.
        try realm.write { realm.add(item(1, owner: nil, tags: ["c"]), update: .modified) }
        var stored = try #require(realm.object(ofType: AddItem.self, forPrimaryKey: 1))
        #expect(Array(stored.tags) == ["c"] && stored.owner?.id == 1)
        // .all: a nil link clears it.
        try realm.write { realm.add(item(1, owner: nil, tags: []), update: .all) }
        stored = try #require(realm.object(ofType: AddItem.self, forPrimaryKey: 1))
        #expect(stored.tags.isEmpty && stored.owner == nil)
    }

    @Test func embeddedObjectsOfValuesAreCreatedWithTheRowAndBecomeManaged() throws {
        let realm = try addRealm()
        let keeper = AddOwner()
        keeper.id = 9
        let added = item(1, owner: nil, tags: [])
        let place = AddPlace()
        place.city = "Oslo"
        place.floors.append(objectsIn: [1, 2])
        added.place = place
        let spot = AddSpot()  // holds a link: written after the row
        spot.name = "desk"
        spot.keeper = keeper
        added.spot = spot
        try realm.write { realm.add(added) }
        #expect(place.realm != nil && !place.isInvalidated && spot.realm != nil)
        #expect(place.city == "Oslo" && Array(place.floors) == [1, 2])
        let stored = try #require(realm.object(ofType: AddItem.self, forPrimaryKey: 1))
        #expect(stored.place?.city == "Oslo" && stored.place.map { Array($0.floors) } == [1, 2])
        #expect(stored.spot?.keeper?.id == 9 && stored.spot?.name == "desk")
        try realm.write { place.city = "Bergen" }
        #expect(stored.place?.city == "Bergen")
        // An update gives a new embedded object: the old one is deleted, as Realm does.
        let replaced = item(1, owner: nil, tags: [])
        let other = AddPlace()
        other.city = "Rome"
        replaced.place = other
        try realm.write { realm.add(replaced, update: .modified) }
        #expect(place.isInvalidated)
        #expect(realm.object(ofType: AddItem.self, forPrimaryKey: 1)?.place?.city == "Rome")
    }

    @Test func aLinkedObjectIsReadWithItsRowAndStaysLive() throws {
        let realm = try addRealm()
        let owner = AddOwner()
        owner.id = 1
        owner.name = "ann"
        try realm.write { realm.add(item(1, owner: owner, tags: [])) }
        let read = try #require(realm.object(ofType: AddItem.self, forPrimaryKey: 1))
        let linked = try #require(read.owner)
        #expect(linked.name == "ann" && linked.isSameObject(as: owner) && linked.realm != nil)
        try realm.write { owner.name = "bo" }
        #expect(linked.name == "bo")
        try realm.write { realm.delete(owner) }
        #expect(linked.isInvalidated && read.owner == nil)
    }
}

