import Drumlin
import Foundation
import Testing

// The values Realm Swift's `create(_:value:)` and `init(value:)` accept (issue 44, item 3): enums
// as their raw values, arrays in property order, nested dictionaries and arrays for links and
// embedded objects, managed objects, NSNull and nil for optionals, collections as arrays.

enum CreateValue {
    enum State: String, PersistableEnum { case open, closed }
    enum Priority: Int, PersistableEnum { case low = 1, high = 2 }

    class Ticket: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var state = State.open
        @Persisted var priority = Priority.low
        @Persisted var maybe: State?
    }

    class Person: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var name = ""
        @Persisted var nickname: String?
        @Persisted var age: Int?
        @Persisted var address: Address?
        @Persisted var best: Person?
        @Persisted var dogs: List<Dog>
        @Persisted var scores: List<Int>
        @Persisted var tags: MutableSet<String>
        @Persisted var marks: Map<String, Int>
    }

    class Address: EmbeddedObject {
        @Persisted var city = ""
        @Persisted var zip: String?
    }

    class Dog: Object {
        @Persisted var name = ""
        @Persisted var age = 0
    }

    static func realm(_ name: String = #function) throws -> Realm {
        try Realm(configuration: Realm.Configuration(inMemoryIdentifier: "create-value-\(name)-\(UInt64.random(in: 0 ... .max))",
                                                     objectTypes: [Ticket.self, Person.self, Address.self, Dog.self]))
    }
}

@Suite struct CreateValueTests {
    @Test func enumsGivenAsTheirRawValues() throws {
        let realm = try CreateValue.realm()
        try realm.write {
            realm.create(CreateValue.Ticket.self, value: ["id": 1, "state": CreateValue.State.closed.rawValue, "priority": 2,
                                                          "maybe": "open"])
            realm.create(CreateValue.Ticket.self, value: ["id": 2, "state": CreateValue.State.open, "maybe": NSNull()])
        }
        let one = try #require(realm.object(ofType: CreateValue.Ticket.self, forPrimaryKey: 1))
        #expect(one.state == .closed && one.priority == .high && one.maybe == .open)
        let two = try #require(realm.object(ofType: CreateValue.Ticket.self, forPrimaryKey: 2))
        #expect(two.state == .open && two.priority == .low && two.maybe == nil)
        // Stored as the raw values.
        #expect(realm.objects(CreateValue.Ticket.self).filter("state == 'closed' AND priority == 2 AND maybe == 'open'").count == 1)
        #expect(realm.objects(CreateValue.Ticket.self).filter("maybe == nil").first?.id == 2)
        // init(value:) takes them the same way.
        let unmanaged = CreateValue.Ticket(value: ["id": 3, "state": "closed", "priority": 1])
        #expect(unmanaged.state == .closed && unmanaged.priority == .low)
    }

    @Test func arraysInPropertyOrderAndNestedValuesForLinksAndEmbeddedObjects() throws {
        let realm = try CreateValue.realm()
        try realm.write {
            // id, name, nickname, age, address, best, dogs, scores, tags, marks
            realm.create(CreateValue.Person.self, value: [1, "Ann", "Annie", 30, ["city": "Oslo", "zip": "0150"],
                                                          [2, "Bob"], [["name": "Rex", "age": 3], ["Fido", 5]],
                                                          [7, 8], ["a", "b", "a"], ["x": 1]] as [Any])
        }
        let ann = try #require(realm.object(ofType: CreateValue.Person.self, forPrimaryKey: 1))
        #expect(ann.name == "Ann" && ann.nickname == "Annie" && ann.age == 30)
        #expect(ann.address?.city == "Oslo" && ann.address?.zip == "0150")
        #expect(ann.best?.id == 2 && ann.best?.name == "Bob")
        #expect(realm.object(ofType: CreateValue.Person.self, forPrimaryKey: 2)?.name == "Bob")
        #expect(ann.dogs.map(\.name) == ["Rex", "Fido"] && ann.dogs.map(\.age) == [3, 5])
        #expect(Array(ann.scores) == [7, 8])
        #expect(Set(ann.tags) == ["a", "b"] && ann.tags.count == 2)
        #expect(ann.marks["x"] == 1 && ann.marks.count == 1)
        #expect(realm.objects(CreateValue.Dog.self).count == 2)
    }

    @Test func managedObjectsAsTheValueAndInsideIt() throws {
        let realm = try CreateValue.realm()
        let (bob, rex) = try realm.write {
            (realm.create(CreateValue.Person.self, value: ["id": 2, "name": "Bob"]),
             realm.create(CreateValue.Dog.self, value: ["name": "Rex", "age": 4]))
        }
        try realm.write {
            // A managed object as the whole value: a copy.
            let copy = realm.create(CreateValue.Dog.self, value: rex)
            #expect(copy.name == "Rex" && copy.age == 4 && copy != rex)
            // Managed objects inside the value: links to them, not copies.
            realm.create(CreateValue.Person.self, value: ["id": 1, "name": "Ann", "best": bob, "dogs": [rex]])
        }
        let ann = try #require(realm.object(ofType: CreateValue.Person.self, forPrimaryKey: 1))
        #expect(ann.best == bob && ann.dogs.first == rex)
        #expect(realm.objects(CreateValue.Dog.self).count == 2)
        #expect(realm.objects(CreateValue.Person.self).count == 2)
    }

    @Test func anUpsertUpdatesTheLinkedObjectsGivenAsValues() throws {
        let realm = try CreateValue.realm()
        try realm.write {
            realm.create(CreateValue.Person.self, value: ["id": 2, "name": "Bob", "age": 40])
        }
        try realm.write {
            realm.create(CreateValue.Person.self, value: ["id": 1, "name": "Ann", "best": ["id": 2, "name": "Robert"]], update: .modified)
        }
        let bob = try #require(realm.object(ofType: CreateValue.Person.self, forPrimaryKey: 2))
        #expect(bob.name == "Robert")
        #expect(bob.age == 40, "only the keys given are updated: \(String(describing: bob.age))")
        #expect(realm.object(ofType: CreateValue.Person.self, forPrimaryKey: 1)?.best == bob)
        #expect(realm.objects(CreateValue.Person.self).count == 2)
        // `add` with `.all` likewise.
        let carl = CreateValue.Person(value: ["id": 3, "name": "Carl", "best": ["id": 2, "name": "Bobby"]])
        try realm.write { realm.add(carl, update: .all) }
        #expect(bob.name == "Bobby" && carl.best == bob)
    }

    @Test func nsNullAndNilForOptionals() throws {
        let realm = try CreateValue.realm()
        let nothing: Int? = nil
        try realm.write {
            realm.create(CreateValue.Person.self, value: ["id": 1, "nickname": NSNull(), "age": nothing as Any,
                                                          "address": NSNull(), "best": NSNull()])
            realm.create(CreateValue.Person.self, value: [2, "Bob", NSNull(), NSNull(), NSNull(), NSNull()] as [Any])
        }
        for id in [1, 2] {
            let person = try #require(realm.object(ofType: CreateValue.Person.self, forPrimaryKey: id))
            #expect(person.nickname == nil && person.age == nil && person.address == nil && person.best == nil)
        }
        #expect(realm.objects(CreateValue.Person.self).filter("nickname == nil AND age == nil AND best == nil").count == 2)
    }

    @Test func collectionsGivenAsArraysSetsAndDictionaries() throws {
        let realm = try CreateValue.realm()
        try realm.write {
            realm.create(CreateValue.Person.self, value: ["id": 1, "scores": [3, 1, 2], "tags": Set(["x", "y"]),
                                                          "marks": ["a": 1, "b": 2], "dogs": [["name": "Rex"]]])
            realm.create(CreateValue.Person.self, value: ["id": 2, "scores": [Int](), "tags": [String](), "marks": [String: Int]()])
        }
        let one = try #require(realm.object(ofType: CreateValue.Person.self, forPrimaryKey: 1))
        #expect(Array(one.scores) == [3, 1, 2])
        #expect(Set(one.tags) == ["x", "y"])
        #expect(one.marks["a"] == 1 && one.marks["b"] == 2 && one.marks.count == 2)
        #expect(one.dogs.map(\.name) == ["Rex"])
        let two = try #require(realm.object(ofType: CreateValue.Person.self, forPrimaryKey: 2))
        #expect(two.scores.isEmpty && two.tags.isEmpty && two.marks.isEmpty)
    }
}

/// Values Realm refuses stop the program naming the property, before anything is written.
@Suite struct CreateValueRefusedTests {
    @Test func aRawValueOfNoCaseIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try CreateValue.realm()
            try realm.write { realm.create(CreateValue.Ticket.self, value: ["id": 1, "state": "reopened"]) }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("TYPE_MISMATCH") && message.contains("Invalid value 'reopened'") && message.contains("Ticket.state"), "\(message)")
    }

    @Test func anIntRawValueOfNoCaseIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = CreateValue.Ticket(value: ["priority": 7])
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("TYPE_MISMATCH") && message.contains("Invalid value '7'") && message.contains("Ticket.priority"), "\(message)")
    }

    @Test func nullForARequiredPropertyIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = CreateValue.Person(value: ["name": NSNull()])
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("TYPE_MISMATCH") && message.contains("Person.name"), "\(message)")
    }
}
