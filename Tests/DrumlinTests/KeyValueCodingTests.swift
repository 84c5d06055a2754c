import Drumlin
import DrumlinEngine
import Testing

/// Key-value coding on objects and collections, and the dynamic API (`DynamicObject`,
/// `dynamicCreate`, `dynamicObject(ofType:forPrimaryKey:)`, `dynamicList` / `dynamicMutableSet` /
/// `dynamicMap`), as in Realm Swift.
@Suite struct KeyValueCodingTests {
    func people(_ realm: Realm) throws -> SeedPerson {
        let ann = SeedPerson(value: ["id": 1, "firstName": "Ann", "tags": ["a", "b"], "scores": ["math": 7]])
        ann.dogs.append(objectsIn: [SeedDog(value: ["name": "Rex", "age": 3]), SeedDog(value: ["name": "Bo", "age": 5])])
        try realm.write { realm.add(ann) }
        try realm.write { for dog in ann.dogs { dog.owner = ann } }
        return ann
    }

    @Test func anObjectReadsAndWritesItsPropertiesByKey() throws {
        let unmanaged = SeedDog(value: ["name": "Pip"])
        #expect(unmanaged.value(forKey: "name") as? String == "Pip")
        unmanaged.setValue("Pop", forKey: "name")
        #expect(unmanaged.name == "Pop")

        let realm = try seedRealm()
        let ann = try people(realm)
        #expect(ann.value(forKey: "firstName") as? String == "Ann")
        #expect(ann.value(forKey: "first_name") as? String == "Ann")   // the stored name too
        try realm.write { ann.setValue(170 as Float, forKey: "heightCm") }
        #expect(ann.heightCm == 170)
        let rex = ann.dogs[0]
        #expect(rex.value(forKeyPath: "owner.firstName") as? String == "Ann")
        #expect(ann.value(forKeyPath: "dogs.name") as? [Any?] != nil)
        #expect((ann.value(forKeyPath: "dogs.name") as! [Any?]).map { $0 as? String } == ["Rex", "Bo"])
        try realm.write { rex.setValue("Max", forKeyPath: "owner.lastName") }
        #expect(ann.lastName == "Max")
        // A nil link ends the path with nil.
        let stray = SeedDog(value: ["name": "Stray"])
        #expect(stray.value(forKeyPath: "owner.firstName") == nil)
    }

    @Test func aCollectionMapsKeysOverItsElements() throws {
        let realm = try seedRealm()
        let ann = try people(realm)
        let dogs = realm.objects(SeedDog.self).sorted(byKeyPath: "name")
        #expect(dogs.value(forKey: "name") as! [String] == ["Bo", "Rex"])
        #expect(dogs.value(forKeyPath: "owner.firstName") as! [String] == ["Ann", "Ann"])
        #expect(ann.dogs.value(forKey: "age") as! [Int?] == [3, 5])
        #expect(ann.tags.value(forKey: "self").map { ($0 as! [Any?]).count } == 2)
        try realm.write { dogs.setValue(9, forKey: "age") }
        #expect(realm.objects(SeedDog.self).map(\.age) == [9, 9])
        try realm.write { ann.dogs.setValue("Zed", forKey: "breed") }
        #expect(realm.objects(SeedDog.self).compactMap(\.breed) == ["Zed", "Zed"])

        // A map looks keys up, and sets and removes them.
        #expect(ann.scores.value(forKey: "math") as? Int == 7)
        #expect(ann.scores.value(forKey: "art") == nil)
        try realm.write {
            ann.scores.setValue(4, forKey: "art")
            ann.scores.setValue(nil, forKey: "math")
        }
        #expect(Array(ann.scores.keys) == ["art"] && ann.scores["art"] == 4)
    }

    @Test func dynamicObjectsAreReadWrittenAndCreatedByName() throws {
        let realm = try seedRealm()
        _ = try people(realm)
        var created: DynamicObject?
        // A nested dictionary creates its object from the stored schema: no Swift defaults there.
        let kit: [String: Any] = ["_id": ObjectId.generate(), "name": "Kit", "dateOfBirth": Date(timeIntervalSince1970: 0), "status": "notStarted"]
        try realm.write {
            created = realm.dynamicCreate("SeedPerson", value: ["id": 2, "firstName": "Bea", "dogs": [kit]])
        }
        let bea = try #require(created)
        #expect(bea.firstName as? String == "Bea")                       // @dynamicMemberLookup
        #expect(bea["id"] as? Int == 2)
        try realm.write { bea.lastName = "Low" }
        #expect(realm.object(ofType: SeedPerson.self, forPrimaryKey: 2)?.lastName == "Low")
        #expect(realm.object(ofType: SeedPerson.self, forPrimaryKey: 2)?.dogs.map(\.name) == ["Kit"])

        let found = try #require(realm.dynamicObject(ofType: "SeedPerson", forPrimaryKey: 1))
        #expect(found["firstName"] as? String == "Ann")
        #expect(realm.dynamicObject(ofType: "SeedPerson", forPrimaryKey: 99) == nil)

        // Collections read as live, typed collections.
        let dogs = try #require(found["dogs"] as? Drumlin.List<DynamicObject>)
        #expect(dogs.map { $0["name"] as? String } == ["Rex", "Bo"])
        let tags = try #require(found["tags"] as? Drumlin.MutableSet<String>)
        #expect(Set(tags) == ["a", "b"])
        let scores = try #require(found["scores"] as? Drumlin.Map<String, Int>)
        #expect(scores["math"] == 7)
        try realm.write {
            dogs.append(realm.dynamicCreate("SeedDog", value: ["name": "New"]))
            tags.insert("c")
            scores["art"] = 2
        }
        #expect(realm.object(ofType: SeedPerson.self, forPrimaryKey: 1)?.dogs.map(\.name) == ["Rex", "Bo", "New"])
        #expect(realm.object(ofType: SeedPerson.self, forPrimaryKey: 1)?.tags.count == 3)
        #expect(realm.object(ofType: SeedPerson.self, forPrimaryKey: 1)?.scores["art"] == 2)

        // An upsert by primary key updates the given values only.
        try realm.write { realm.dynamicCreate("SeedPerson", value: ["id": 1, "lastName": "Ames"], update: .modified) }
        #expect(realm.objects(SeedPerson.self).count == 2)
        #expect(found["firstName"] as? String == "Ann" && found["lastName"] as? String == "Ames")
        // An array in property order.
        try realm.write { realm.dynamicCreate("SeedBook", value: [7, "Ulysses"]) }
        #expect(realm.object(ofType: SeedBook.self, forPrimaryKey: 7)?.title == "Ulysses")
    }

    @Test func aModelObjectGivesItsObjectCollectionsAsDynamicObjects() throws {
        let realm = try seedRealm()
        let ann = try people(realm)
        let club = SeedClub(value: ["name": "C"])
        try realm.write {
            realm.add(club)
            club.members.append(ann)
        }
        let members = club.dynamicList("members")
        #expect(members.count == 1 && members[0]["firstName"] as? String == "Ann")
        let dogs = ann.dynamicList("dogs")
        #expect(dogs.map { $0.name as? String } == ["Rex", "Bo"])
        try realm.write { dogs.remove(at: 0) }
        #expect(ann.dogs.map(\.name) == ["Bo"])
    }

    @Test func aFileWithoutModelClassesGivesLiveCollections() throws {
        let path = "/tmp/drumlin-kvc-\(UInt64.random(in: 0 ... .max)).drumlin"
        let schema = #"[{"name": "Shelf", "primaryKey": "id", "properties": {"id": "int", "books": "Volume[]", "loans": "Volume<>", "byCode": "Volume{}", "counts": "int[]"}}, {"name": "Volume", "properties": {"title": "string"}}]"#
        do {
            let database = try DrumlinEngine.Database(path: path, schemaJSON: schema)
            try database.write {
                _ = try database.create("Shelf", json: #"{"id": 1, "books": [{"title": "A"}, {"title": "B"}], "loans": [], "byCode": {"x": {"title": "C"}}, "counts": [4, 5]}"#)
            }
            database.close()
        }
        let configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [])
        defer { _ = try? Realm.deleteFiles(for: configuration) }
        let realm = try Realm(configuration: configuration)
        let shelf = try #require(realm.dynamicObject(ofType: "Shelf", forPrimaryKey: 1))
        let books = shelf.dynamicList("books")
        #expect(books.map { $0["title"] as? String } == ["A", "B"])
        #expect(shelf.dynamicMap("byCode")["x"]??["title"] as? String == "C")
        #expect((shelf["counts"] as? Drumlin.List<Int>).map(Array.init) == [4, 5])
        try realm.write {
            shelf.dynamicMutableSet("loans").insert(books[1])
            books.move(from: 1, to: 0)
            (shelf["counts"] as! Drumlin.List<Int>).append(6)
        }
        let again = try #require(realm.dynamicObjects("Shelf").first)
        #expect(again.dynamicList("books").map { $0["title"] as? String } == ["B", "A"])
        #expect(again.dynamicMutableSet("loans").map { $0["title"] as? String } == ["B"])
        #expect(again.value(forKeyPath: "books.title") as! [String] == ["B", "A"])
        #expect(Array(again["counts"] as! Drumlin.List<Int>) == [4, 5, 6])
    }
}
