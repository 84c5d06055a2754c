import DrumlinEngine
import Testing

/// Links inside mixed values (Realm's `AnyRealmValue.object`): storage, reads, refusals and
/// clearing on delete. Queries are in `MixedLinkQueryTests`.
let mixedLinkSchema = """
[
 {"name": "Holder", "primaryKey": "id", "properties": {
    "id": "int", "any": "mixed", "indexedAny": {"type": "mixed", "indexed": true},
    "items": "mixed[]", "bag": "mixed<>", "map": "mixed{}", "spot": "Spot"}},
 {"name": "Dog", "primaryKey": "name", "properties": {"name": "string", "age": "int?"}},
 {"name": "Cat", "properties": {"name": "string", "lives": "int"}},
 {"name": "Spot", "embedded": true, "properties": {"street": "string"}},
 {"name": "Reading", "asymmetric": true, "properties": {"value": "double"}}
]
"""

func openMixedLinks(_ path: String = ":memory:") throws -> Database {
    try Database(path: path, schemaJSON: mixedLinkSchema)
}

@Suite struct MixedLinkTests {
    @Test func aMixedPropertyHoldsAnObjectAndReadsItBack() throws {
        let db = try openMixedLinks()
        let (holder, rex) = try db.write {
            let rex = try db.create("Dog", json: #"{"name": "Rex", "age": 3}"#)
            let holder = try db.create("Holder", json: #"{"id": 1}"#)
            try holder.set("any", to: rex.link)
            return (holder, rex)
        }
        let value = try holder.value("any")
        guard case .link(let link) = value else { Issue.record("expected a link, got \(value)"); return }
        #expect(try db.object(link) == rex)
        #expect(try holder.jsonText() == #"{"id":1,"any":{"$link":{"class":"Dog","key":\#(rex.key)}},"indexedAny":null,"items":[],"bag":[],"map":{},"spot":null}"#)
    }

    @Test func payloadsTakeTheLinkForm() throws {
        let db = try openMixedLinks()
        let (holder, rex, tom) = try db.write {
            let rex = try db.create("Dog", json: #"{"name": "Rex"}"#)
            let tom = try db.create("Cat", json: #"{"name": "Tom", "lives": 9}"#)
            let holder = try db.create("Holder", json: """
                {"id": 1, "any": {"$link": {"class": "Cat", "key": \(tom.key)}},
                 "items": [1, {"$link": {"class": "Dog", "key": \(rex.key)}}, "x"],
                 "bag": [{"$link": {"class": "Dog", "key": \(rex.key)}}],
                 "map": {"d": {"$link": {"class": "Dog", "key": \(rex.key)}}, "n": 2}}
                """)
            return (holder, rex, tom)
        }
        #expect(try holder.value("any") == tom.link)
        #expect(try holder.list("items").values == [.int(1), rex.link, .string("x")])
        #expect(try holder.mutableSet("bag").values == [rex.link])
        #expect(try holder.dictionary("map").value(forKey: "d") == rex.link)
        #expect(try holder.dictionary("map").value(forKey: "n") == .int(2))
    }

    @Test func collectionsOfMixedAcceptObjects() throws {
        let db = try openMixedLinks()
        let (holder, rex) = try db.write {
            let rex = try db.create("Dog", json: #"{"name": "Rex"}"#)
            let holder = try db.create("Holder", json: #"{"id": 1}"#)
            try holder.list("items").append(rex.link)
            try holder.list("items").append(.int(5))
            _ = try holder.mutableSet("bag").insert(rex.link)
            #expect(try holder.mutableSet("bag").insert(rex.link) == false)
            try holder.dictionary("map").set(rex.link, forKey: "k")
            return (holder, rex)
        }
        #expect(try holder.list("items").values == [rex.link, .int(5)])
        #expect(try holder.mutableSet("bag").contains(rex.link))
        #expect(try holder.mutableSet("bag").count == 1)
        #expect(try holder.list("items").firstIndex(of: rex.link) == 0)
        #expect(try holder.dictionary("map").value(forKey: "k") == rex.link)
    }

    @Test func refusesEmbeddedAsymmetricDeletedAndUnknownTargets() throws {
        let db = try openMixedLinks()
        let holder = try db.write { try db.create("Holder", json: #"{"id": 1, "spot": {"street": "Main"}}"#) }
        let spot = try #require(try holder.linkedObject("spot"))
        try db.write {
            expectError(.notSupported, "A mixed value cannot hold an embedded object ('Spot'), as in Realm.") {
                try holder.set("any", to: spot.link)
            }
            let readingIndex = try db.classIndex("Reading")
            expectError(.notSupported, "A mixed value cannot hold an asymmetric object ('Reading'), as in Realm.") {
                try holder.set("any", to: .link(ObjectLink(classIndex: readingIndex, key: 1)))
            }
            let dogIndex = try db.classIndex("Dog")
            expectError(.invalidatedObject, "A mixed value cannot hold the 'Dog' object 99: it does not exist (it was deleted or never created).") {
                try holder.list("items").append(.link(ObjectLink(classIndex: dogIndex, key: 99)))
            }
            expectError(.invalidArgument) { try holder.set("any", to: .link(ObjectLink(classIndex: 42, key: 1))) }
            expectError(.invalidArgument) {
                try db.create("Holder", json: #"{"id": 2, "any": {"$link": {"class": "Nope", "key": 1}}}"#)
            }
            expectError(.invalidArgument) {
                try db.create("Holder", json: #"{"id": 2, "any": {"$link": {"class": "Dog"}}}"#)
            }
        }
        // Nothing changed.
        #expect(try holder.value("any") == .null)
        #expect(try holder.list("items").count == 0)
        #expect(try db.count("Holder") == 1)
    }

    @Test func nestedCollectionsHoldLinksAndLoseThemWithTheirTarget() throws {
        let db = try openMixedLinks()
        let (holder, rex, bo) = try db.write {
            let rex = try db.create("Dog", json: #"{"name": "Rex"}"#)
            let bo = try db.create("Dog", json: #"{"name": "Bo"}"#)
            let holder = try db.create("Holder", json: #"{"id": 1, "any": [1]}"#)
            try holder.set("any", to: .list([rex.link, .dictionary([("k", rex.link), ("b", bo.link)])]))
            try holder.list("items").append(.dictionary([("k", rex.link)]))
            try holder.appendMixed("any", at: [], rex.link)
            _ = try db.create("Holder", json: #"{"id": 2, "any": [{"$link": {"class": "Dog", "key": 1}}]}"#)
            return (holder, rex, bo)
        }
        #expect(try holder.value("any") == .list([rex.link, .dictionary([("k", rex.link), ("b", bo.link)]), rex.link]))
        #expect(try holder.mixedValue("any", at: [.index(1), .key("b")]) == bo.link)
        #expect(try db.object("Holder", primaryKey: .int(2))?.value("any") == .list([rex.link]))
        try db.write { try db.delete(rex) }
        // Realm: removed from a list, null in a dictionary, at any depth.
        #expect(try holder.value("any") == .list([.dictionary([("k", .null), ("b", bo.link)])]))
        #expect(try holder.list("items").values == [.dictionary([("k", .null)])])
    }

    @Test func deletingTheTargetClearsEveryMixedLinkToIt() throws {
        let db = try openMixedLinks()
        let (holder, other) = try db.write {
            let rex = try db.create("Dog", json: #"{"name": "Rex"}"#)
            let bo = try db.create("Dog", json: #"{"name": "Bo"}"#)
            let holder = try db.create("Holder", json: #"{"id": 1}"#)
            try holder.set("any", to: rex.link)
            try holder.set("indexedAny", to: rex.link)
            for value in [rex.link, .int(1), bo.link, rex.link] { try holder.list("items").append(value) }
            _ = try holder.mutableSet("bag").insert(rex.link)
            _ = try holder.mutableSet("bag").insert(bo.link)
            try holder.dictionary("map").set(rex.link, forKey: "r")
            try holder.dictionary("map").set(bo.link, forKey: "b")
            let other = try db.create("Holder", json: #"{"id": 2}"#)
            try other.set("any", to: bo.link)
            try rex.delete()
            return (holder, other)
        }
        let bo = try #require(try db.object("Dog", primaryKey: "Bo"))
        #expect(try holder.value("any") == .null)
        #expect(try holder.value("indexedAny") == .null)
        // Realm: list and set elements are removed, dictionary values become null.
        #expect(try holder.list("items").values == [.int(1), bo.link])
        #expect(try holder.mutableSet("bag").values == [bo.link])
        #expect(try holder.dictionary("map").value(forKey: "r") == .null)
        #expect(try holder.dictionary("map").value(forKey: "b") == bo.link)
        #expect(try other.value("any") == bo.link)
    }

    @Test func bulkDeletesClearLinksToo() throws {
        let db = try openMixedLinks()
        let holder = try db.write {
            let holder = try db.create("Holder", json: #"{"id": 1}"#)
            for i in 0..<5 {
                let cat = try db.create("Cat", json: #"{"name": "c\#(i)", "lives": \#(i)}"#)
                try holder.list("items").append(cat.link)
                if i == 4 { try holder.set("any", to: cat.link) }
            }
            return holder
        }
        let deleted = try db.write { try db.objects("Cat").filter("lives >= 2").deleteAll() }
        #expect(deleted == 3)
        #expect(try holder.list("items").count == 2)
        #expect(try holder.value("any") == .null)
        try db.write { _ = try db.objects("Cat").deleteAll() }
        #expect(try holder.list("items").count == 0)
    }

    @Test func aClearedLinkIsAModificationOfTheHolder() throws {
        let db = try openMixedLinks()
        let (holder, rex) = try db.write {
            let rex = try db.create("Dog", json: #"{"name": "Rex"}"#)
            let holder = try db.create("Holder", json: #"{"id": 1}"#)
            try holder.set("any", to: rex.link)
            return (holder, rex)
        }
        let received = Received<ObjectChange>()
        let token = try holder.observe(received.callback)
        let collection = Received<CollectionChange>()
        let listHolder = try db.write {
            let listHolder = try db.create("Holder", json: #"{"id": 2}"#)
            try listHolder.list("items").append(rex.link)
            return listHolder
        }
        let listToken = try db.objects("Holder").filter("id == 2").observe(collection.callback)
        try db.write { try rex.delete() }
        #expect(received.changes.last == .changed([PropertyChange(name: "any", oldValue: rex.link, newValue: .null)]))
        #expect(collection.changes.last?.modifications == [0])
        #expect(try listHolder.list("items").count == 0)
        _ = (token, listToken)
    }

    @Test func linksSurviveReopening() throws {
        let path = temporaryPath()
        do {
            let db = try openMixedLinks(path)
            try db.write {
                let rex = try db.create("Dog", json: #"{"name": "Rex"}"#)
                try db.create("Holder", json: #"{"id": 1, "any": {"$link": {"class": "Dog", "key": \#(rex.key)}}}"#)
            }
        }
        let db = try openMixedLinks(path)
        let holder = try #require(try db.object("Holder", primaryKey: 1))
        guard case .link(let link) = try holder.value("any") else { Issue.record("not a link"); return }
        #expect(try db.object(link)?.value("name") == .string("Rex"))
    }
}
