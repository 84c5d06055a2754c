// Drumlin from Swift, in Realm Swift's style: models, writes, queries, relationships, projections.
import Drumlin

class Dog: Object {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted(indexed: true) var name = ""
    @Persisted var age: Int?
    @Persisted(originProperty: "dogs") var owners: LinkingObjects<Person>
}

class Person: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var address: Address?
    @Persisted var dogs: List<Dog>

    convenience init(id: Int, name: String, city: String) {
        self.init()
        self.id = id
        self.name = name
        self.address = Address(value: ["city": city])
    }
}

class Address: EmbeddedObject {
    @Persisted var street: String?
    @Persisted var city = ""
}

class PersonCard: Projection<Person> {
    @Projected(\Person.name) var name
    @Projected(\Person.address?.city) var city
    @Projected(\Person.dogs.projectTo.name) var dogNames: ProjectedCollection<String>
}

let path = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "quickstart-swift.drumlin"
let configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [Person.self, Dog.self, Address.self])
try Realm.deleteFiles(for: configuration)
let realm = try Realm(configuration: configuration)

// Writes: unmanaged objects become managed when added, with everything they link to.
let ann = Person(id: 1, name: "Ann", city: "Oslo")
ann.dogs.append(objectsIn: [Dog(value: ["name": "Rex", "age": 3]), Dog(value: ["name": "Bo", "age": 1])])
try realm.write {
    realm.add(ann)
    realm.create(Person.self, value: ["id": 2, "name": "Bob"])
}

// Reads: by primary key, live results, typed queries.
let bob = realm.object(ofType: Person.self, forPrimaryKey: 2)!
print("people:", realm.objects(Person.self).count, "- dogs:", realm.objects(Dog.self).count)
let puppies = realm.objects(Dog.self).where { $0.age < 2 }
print("puppies:", puppies.map(\.name))
print("dogs by name:", realm.objects(Dog.self).sorted(byKeyPath: "name").map(\.name))
print("Rex's owners:", realm.objects(Dog.self).filter("name == %@", "Rex").first!.owners.map(\.name))

// Updates in a write transaction; a managed object reads the stored state.
try realm.write {
    bob.name = "Robert"
    bob.dogs.append(realm.objects(Dog.self).filter("name == 'Bo'").first!)
}
print("bob is now", bob.name, "with", bob.dogs.count, "dog")

// Projections: a view of chosen properties.
let card = PersonCard(projecting: ann)
print("card:", card.name, card.city ?? "-", Array(card.dogNames))
print("total dog age:", realm.objects(Dog.self).sum(ofProperty: "age") as Int)
