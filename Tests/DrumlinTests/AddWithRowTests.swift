import Drumlin
import Foundation
import Testing

final class AddOwner: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var partner: AddOwner?
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
}

private func addRealm(_ name: String = #function) throws -> Realm {
    try Realm(configuration: Realm.Configuration(inMemoryIdentifier: name + "\(UInt64.random(in: 0 ... .max))",
                                                 objectTypes: [AddOwner.self, AddItem.self]))
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
}
