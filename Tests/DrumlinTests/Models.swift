import Drumlin

// Models of the seeds' examples (renamed where two seeds use one name), used by the tests.

enum TaskStatus: String, PersistableEnum {
    case notStarted
    case inProgress
    case complete
}

class SeedDog: Object {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted(indexed: true) var name = ""
    @Persisted var breed: String?
    @Persisted var age: Int?
    @Persisted var dateOfBirth = Date(timeIntervalSince1970: 1_000)
    @Persisted var status = TaskStatus.notStarted
    @Persisted var owner: SeedPerson?
    var scratch = 0
    var label: String { "\(name)!" }
}

class SeedPerson: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var firstName = ""
    @Persisted var lastName = ""
    @Persisted var heightCm: Float?
    @Persisted var dogs: List<SeedDog>
    @Persisted var tags: MutableSet<String>
    @Persisted var scores: Map<String, Int>
    @Persisted var address: SeedAddress?
    @Persisted(originProperty: "members") var clubs: LinkingObjects<SeedClub>

    override class func propertiesMapping() -> [String: String] { ["firstName": "first_name"] }

    convenience init(id: Int, firstName: String, address: SeedAddress? = nil) {
        self.init()
        self.id = id
        self.firstName = firstName
        self.address = address
    }
}

class SeedAddress: EmbeddedObject {
    @Persisted var street: String?
    @Persisted var city: String?
}

class SeedClub: Object {
    @Persisted var name = ""
    @Persisted var members: List<SeedPerson>
    @Persisted var offices: List<SeedAddress>
}

class SeedSensor: AsymmetricObject {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var deviceId: String
    @Persisted var temperature: Float
}

class SeedPersonProjection: Projection<SeedPerson> {
    @Projected(\SeedPerson.firstName) var firstName
    @Projected(\SeedPerson.address?.city) var homeCity
    @Projected(\SeedPerson.dogs.projectTo.name) var dogNames: ProjectedCollection<String>
}

/// A link declared through a projection type: stored as a link to the projection's root class.
class SeedPet: Object {
    @Persisted var name = ""
    @Persisted var keeper: SeedPersonProjection?
}

/// A class of row values only, with a primary key: `realm.add([...])` writes its objects in bulk.
class SeedBook: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var title = ""
    @Persisted var pages: Int?
    @Persisted var published = Date(timeIntervalSince1970: 0)
}

let seedTypes: [ObjectBase.Type] = [SeedDog.self, SeedPerson.self, SeedAddress.self, SeedClub.self, SeedSensor.self, SeedBook.self]

/// A fresh in-memory database of the seed models.
func seedRealm(_ name: String = #function) throws -> Realm {
    try Realm(configuration: Realm.Configuration(inMemoryIdentifier: name + "\(UInt64.random(in: 0 ... .max))", objectTypes: seedTypes))
}
