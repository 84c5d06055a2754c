import DrumlinEngine
import Testing

/// Queries on links held by mixed values: `==`/`!=` with `obj(…)`, `$0` and link properties,
/// `@type == 'objectlink'`, following `mixed.name`, and `== NULL` after the target is deleted.
@Suite struct MixedLinkQueryTests {
    /// Holder 1 → Rex (in `any`, `indexedAny`, `items`, `map`), holder 2 → Tom the cat,
    /// holder 3 → the string "5:Dog" and int 5 (lookalikes that must not match), holder 4 → null.
    func fixture() throws -> (Database, rex: Object, bo: Object, tom: Object) {
        let db = try openMixedLinks()
        return try db.write {
            let rex = try db.create("Dog", json: #"{"name": "Rex", "age": 3}"#)
            let bo = try db.create("Dog", json: #"{"name": "Bo", "age": 9}"#)
            let tom = try db.create("Cat", json: #"{"name": "Tom", "lives": 9}"#)
            let one = try db.create("Holder", json: #"{"id": 1}"#)
            for name in ["any", "indexedAny"] { try one.set(name, to: rex.link) }
            try one.list("items").append(rex.link)
            try one.dictionary("map").set(rex.link, forKey: "pet")
            _ = try one.mutableSet("bag").insert(rex.link)
            let two = try db.create("Holder", json: #"{"id": 2}"#)
            for name in ["any", "indexedAny"] { try two.set(name, to: tom.link) }
            try two.list("items").append(tom.link)
            try two.list("items").append(.string("Rex"))
            let three = try db.create("Holder", json: #"{"id": 3}"#)
            for name in ["any", "indexedAny"] { try three.set(name, to: .string("\(rex.key):Dog")) }
            try three.list("items").append(.int(rex.key))
            try db.create("Holder", json: #"{"id": 4}"#)
            return (db, rex, bo, tom)
        }
    }

    func ids(_ db: Database, _ query: String, _ arguments: [Value] = []) throws -> [Int64] {
        let results = try db.objects("Holder").filter(query, arguments).sorted(by: "id")
        return try (0..<results.count).map { i throws -> Int64 in
            guard case .int(let id) = try results.object(at: i).value("id") else { return -1 }
            return id
        }
    }

    @Test func equalityWithObjReferenceAndArguments() throws {
        let (db, rex, bo, tom) = try fixture()
        for property in ["any", "indexedAny"] {
            #expect(try ids(db, "\(property) == obj('Dog', 'Rex')") == [1])
            #expect(try ids(db, "obj('Dog', 'Rex') == \(property)") == [1])
            #expect(try ids(db, "\(property) == obj('Dog', 'Bo')") == [])
            #expect(try ids(db, "\(property) == obj('Dog', 'Nobody')") == [])
            #expect(try ids(db, "\(property) == $0", [rex.link]) == [1])
            #expect(try ids(db, "\(property) == $0", [tom.link]) == [2])
            #expect(try ids(db, "\(property) == $0", [bo.link]) == [])
            #expect(try ids(db, "\(property) != $0", [rex.link]) == [2, 3, 4])
            #expect(try ids(db, "\(property) != obj('Dog', 'Rex')") == [2, 3, 4])
            // A string or int that looks like the stored form is not the link.
            #expect(try ids(db, "\(property) == $0", [.string("\(rex.key):Dog")]) == [3])
        }
        // Arguments in the C/Python JSON form.
        let arguments = try db.queryArguments(extendedJSON: [try JSON.parse(#"{"$link": {"class": "Cat", "key": \#(tom.key)}}"#)])
        #expect(try ids(db, "any == $0", arguments) == [2])
    }

    @Test func orderedComparisonsWithALinkAreRefused() throws {
        let (db, rex, _, _) = try fixture()
        expectError(.query) { _ = try ids(db, "any > $0", [rex.link]) }
        expectError(.query) { _ = try ids(db, "any < obj('Dog', 'Rex')") }
    }

    @Test func typeObjectLink() throws {
        let (db, _, _, _) = try fixture()
        #expect(try ids(db, "any.@type == 'objectlink'") == [1, 2])
        #expect(try ids(db, "indexedAny.@type == 'link'") == [1, 2])
        #expect(try ids(db, "any.@type != 'objectlink'") == [3, 4])
        #expect(try ids(db, "ANY items.@type == 'objectlink'") == [1, 2])
        #expect(try ids(db, "map.@type == 'objectlink'") == [1])
    }

    @Test func followingALinkToAProperty() throws {
        let (db, _, _, _) = try fixture()
        #expect(try ids(db, "any.name == 'Rex'") == [1])
        #expect(try ids(db, "indexedAny.name == 'Tom'") == [2])
        #expect(try ids(db, "any.name BEGINSWITH 'T'") == [2])
        #expect(try ids(db, "any.age > 2") == [1])
        #expect(try ids(db, "any.lives == 9") == [2])
        #expect(try ids(db, "any.age == 9") == [])
        #expect(try ids(db, "any.nothing == 1") == [])
        #expect(try ids(db, "ANY items.name == 'Rex'") == [1])
        #expect(try ids(db, "ANY items.name == 'Tom'") == [2])
        #expect(try ids(db, "ANY items.name == 'Nobody'") == [])
        #expect(try ids(db, "map.pet.name == 'Rex'") == [1])
        #expect(try ids(db, "ANY bag.name == 'Rex'") == [1])
    }

    @Test func inListsAndSetsAndDictionaries() throws {
        let (db, rex, _, tom) = try fixture()
        #expect(try ids(db, "$0 IN items", [rex.link]) == [1])
        #expect(try ids(db, "ANY items == $0", [tom.link]) == [2])
        #expect(try ids(db, "ANY bag == obj('Dog', 'Rex')") == [1])
        #expect(try ids(db, "map['pet'] == $0", [rex.link]) == [1])
        #expect(try ids(db, "ANY map.@values == $0", [rex.link]) == [1])
    }

    @Test func sortDistinctAndAggregatesRunWithLinks() throws {
        let (db, _, _, _) = try fixture()
        #expect(try ids(db, "TRUEPREDICATE SORT(any ASC)").count == 4)
        #expect(try db.objects("Holder").filter("TRUEPREDICATE SORT(any DESC) DISTINCT(any)").count == 4)
        #expect(try db.objects("Holder").filter("items.@max > 0 OR items.@sum > 0 OR items.@size > 0").count == 3)
        // Holder 3's string "<key>:Dog" is not the same value as holder 1's Rex.
        #expect(try db.objects("Holder").filter("TRUEPREDICATE DISTINCT(indexedAny)").count == 4)
    }

    @Test func afterDeletionTheValueIsNull() throws {
        let (db, rex, _, _) = try fixture()
        #expect(try ids(db, "any == NULL") == [4])
        try db.write { try rex.delete() }
        #expect(try ids(db, "any == NULL") == [1, 4])
        #expect(try ids(db, "indexedAny == NULL") == [1, 4])
        #expect(try ids(db, "items.@count == 0") == [1, 4])
        #expect(try ids(db, "map.@count == 1 AND map['pet'] == NULL") == [1])
        #expect(try ids(db, "any.@type == 'objectlink'") == [2])
    }
}
