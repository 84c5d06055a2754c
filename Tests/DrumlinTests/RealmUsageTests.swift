import Drumlin
import Testing

// Everyday Realm Swift code (in the style of Realm's "CRUD", "Filter Data", "Collections" and
// "Configure & Open" pages) compiled and run against Drumlin.

enum Usage {
    class Dog: Object {
        @Persisted(primaryKey: true) var _id: ObjectId
        @Persisted var name = ""
        @Persisted var age = 0
        @Persisted var color: String?
        @Persisted var isCute = true
        @Persisted var owner: Person?
        @Persisted var tags: MutableSet<String>
        @Persisted var scores: Map<String, Int>
        @Persisted var weights: List<Double>
        @Persisted var chip: UUID?
        @Persisted var price: Decimal128?
        @Persisted var extra: AnyRealmValue

        convenience init(name: String, age: Int) {
            self.init()
            self.name = name
            self.age = age
        }
    }

    class Person: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var name = ""
        @Persisted var dogs: List<Dog>
        @Persisted(originProperty: "owner") var ownedDogs: LinkingObjects<Dog>
    }
}

@Suite struct RealmUsageTests {
    func openRealm(_ name: String = #function) throws -> Realm {
        var config = Realm.Configuration(inMemoryIdentifier: "usage-\(name)-\(UInt64.random(in: 0 ... .max))")
        config.objectTypes = [Usage.Dog.self, Usage.Person.self]
        return try Realm(configuration: config)
    }

    @Test func crud() throws {
        let realm = try openRealm()
        let dog = Usage.Dog(name: "Rex", age: 3)
        try realm.write {
            realm.add(dog)
        }
        let person = try realm.write { realm.create(Usage.Person.self, value: ["id": 1, "name": "Ann"]) }
        #expect(person.name == "Ann")
        try realm.write {
            person.dogs.append(dog)
            dog.owner = person
        }
        let dogs = realm.objects(Usage.Dog.self)
        #expect(dogs.count == 1 && dogs.first?.name == "Rex" && dogs.last?.age == 3)
        #expect(!dogs.isEmpty)
        #expect(person.ownedDogs.first?.name == "Rex")
        let specific = realm.object(ofType: Usage.Dog.self, forPrimaryKey: dog._id)
        #expect(specific?.isSameObject(as: dog) == true)
        try realm.write {
            realm.create(Usage.Dog.self, value: ["_id": dog._id, "age": 4], update: .modified)
        }
        #expect(dog.age == 4 && dog.name == "Rex")
        try realm.write {
            realm.delete(dog)
        }
        #expect(dog.isInvalidated)
        #expect(realm.objects(Usage.Dog.self).isEmpty)
        try realm.write { realm.deleteAll() }
        #expect(realm.isEmpty)
    }

    @Test func filtersSortsAndAggregates() throws {
        let realm = try openRealm()
        try realm.write {
            for (index, name) in ["Rex", "Bo", "Rover", "Max"].enumerated() {
                let dog = Usage.Dog(name: name, age: index + 1)
                dog.color = index % 2 == 0 ? "brown" : nil
                realm.add(dog)
            }
        }
        let dogs = realm.objects(Usage.Dog.self)
        #expect(dogs.filter("color = 'brown' AND name BEGINSWITH 'R'").count == 2)
        #expect(dogs.filter("age > %@", 2).count == 2)
        #expect(dogs.filter("name IN %@", ["Bo", "Max"]).count == 2)
        #expect(dogs.where { $0.name.contains("o", options: .caseInsensitive) }.count == 2)
        #expect(dogs.where { $0.age.in([1, 2]) }.count == 2)
        #expect(dogs.where { ($0.age > 1 && $0.color == nil) || $0.name == "Rex" }.count == 3)
        #expect(dogs.where { $0.age.contains(2 ... 3) }.count == 2)
        #expect(dogs.sorted(byKeyPath: "name").map(\.name) == ["Bo", "Max", "Rex", "Rover"])
        #expect(dogs.sorted(by: [SortDescriptor(keyPath: "age", ascending: false)]).first?.name == "Max")
        #expect(dogs.sorted(by: \.age).first?.name == "Rex")
        // `last`: the last object, read alone for results of a class; nil when there is none.
        #expect(dogs.last?.name == "Max" && dogs.sorted(byKeyPath: "name").last?.name == "Rover")
        #expect(dogs.filter("age > 100").last == nil && dogs.sorted(by: \.age).last?.age == 4)
        #expect(dogs.distinct(by: ["color"]).count == 2)
        #expect(dogs.max(ofProperty: "age") as Int? == 4)
        #expect(dogs.min(of: \.age) == 1)
        #expect(dogs.sum(ofProperty: "age") as Int == 10)
        #expect(dogs.average(ofProperty: "age") as Double? == 2.5)
        let rex = try #require(dogs.first { $0.name == "Rex" })
        #expect(dogs.index(of: rex) == 0)
        // By the object's key: its position in sorted and filtered results, nil where it is not.
        #expect(dogs.sorted(byKeyPath: "name").index(of: rex) == 2)
        #expect(dogs.filter("age > %@", 2).index(of: rex) == nil)
        #expect(dogs.index(of: Usage.Dog(name: "Rex", age: 1)) == nil)  // not stored: not in them
        #expect(!dogs.isEmpty && dogs.filter("age > 100").isEmpty && !dogs.sorted(byKeyPath: "name").isEmpty)
        #expect(dogs.index(matching: { $0.name == "Max" }) == 3)
        #expect(dogs.first(where: { $0.age == 2 })?.name == "Bo")
    }

    @Test func collections() throws {
        let realm = try openRealm()
        let dog = Usage.Dog(name: "Rex", age: 1)
        dog.tags.insert("friendly")
        dog.scores["agility"] = 7
        dog.weights.append(objectsIn: [10.5, 11.0])
        dog.extra = .string("anything")
        dog.chip = UUID()
        dog.price = try Decimal128(string: "12.50")
        try realm.write { realm.add(dog) }
        try realm.write {
            dog.tags.insert("small")
            dog.tags.remove("friendly")
            dog.scores["speed"] = 9
            dog.scores.removeObject(for: "agility")
            dog.weights.insert(9.5, at: 0)
            dog.weights.move(from: 0, to: 2)
            dog.weights.swapAt(0, 1)
            dog.weights.removeLast()
            dog.extra = .int(5)
        }
        #expect(Array(dog.tags) == ["small"])
        #expect(dog.scores["speed"] == 9 && dog.scores["agility"] == nil && dog.scores.keys == ["speed"])
        #expect(Array(dog.weights) == [11.0, 10.5])
        #expect(dog.weights.max() == 11.0)
        #expect(dog.extra == .int(5))
        #expect(dog.price == (try Decimal128(string: "12.5")))
        #expect(realm.objects(Usage.Dog.self).filter("ANY weights > 10.9").count == 1)
        #expect(realm.objects(Usage.Dog.self).where { $0.scores["speed"] == 9 }.count == 1)
        #expect(realm.objects(Usage.Dog.self).where { $0.tags.contains("small") }.count == 1)
    }

    @Test func configurationAndDefaults() throws {
        let directory = "/tmp/drumlin-usage-\(UInt64.random(in: 0 ... .max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var config = Realm.Configuration.defaultConfiguration
        config.fileURL = URL(fileURLWithPath: directory).appendingPathComponent("app.realm")
        config.schemaVersion = 2
        config.objectTypes = [Usage.Dog.self, Usage.Person.self]
        Realm.Configuration.defaultConfiguration = config
        defer { Realm.Configuration.defaultConfiguration = Realm.Configuration() }
        let realm = try Realm()
        #expect(realm.configuration.fileURL?.lastPathComponent == "app.realm")
        realm.beginWrite()
        realm.add(Usage.Dog(name: "Rex", age: 1))
        try realm.commitWrite()
        #expect(!realm.isInWriteTransaction)
        #expect(try Realm(configuration: config).objects(Usage.Dog.self).count == 1)
        // A lower schema version than the file's is an error.
        var older = config
        older.schemaVersion = 1
        older.fileURL = URL(fileURLWithPath: directory).appendingPathComponent("app.realm")
        #expect(throws: Realm.Error.self) { _ = try Realm(configuration: older) }
    }
}

enum Observed {
    nonisolated(unsafe) static var log: [String] = []

    class Counter: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var count = 0 {
            willSet { Observed.log.append("will \(count)->\(newValue)") }
            didSet { Observed.log.append("did \(oldValue)->\(count)") }
        }
        @Persisted private var secret = "s"
        var revealed: String { secret }
    }
}

@Suite(.serialized) struct PropertyObserverTests {
    @Test func willSetAndDidSetRunForManagedAndUnmanagedObjects() throws {
        Observed.log = []
        let counter = Observed.Counter()
        counter.count = 1
        #expect(Observed.log == ["will 0->1", "did 0->1"])
        let realm = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: "observers-\(UInt64.random(in: 0 ... .max))",
                                                                 objectTypes: [Observed.Counter.self]))
        try realm.write { realm.add(counter) }
        Observed.log = []
        try realm.write { counter.count = 2 }
        #expect(Observed.log == ["will 1->2", "did 1->2"])
        #expect(counter.revealed == "s")
        #expect(counter["count"] as? Int == 2)
        try realm.write { counter["count"] = 3 }
        #expect(counter.count == 3)
        #expect(realm.schema["Counter"]?.properties.map(\.name) == ["id", "count", "secret"])
    }
}
