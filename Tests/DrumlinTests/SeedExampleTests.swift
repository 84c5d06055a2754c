import Drumlin
import Testing

// The models of the seed examples, Realm Swift programs the Swift face was written against
// (Seed01, Seed02, ...), in a namespace each since several name a class alike, with a test of what
// they do.

enum Seed01 {
    class Dog: Object {
        @Persisted(primaryKey: true) var _id: ObjectId
        @Persisted var name = ""
        @Persisted var breed: String?
        @Persisted var dateOfBirth = Date()
    }
}

enum Seed02 {
    class Person: Object {
        @Persisted var name = ""
        @Persisted var address: String?
        @Persisted var ageYears = 0
        @Persisted var heightCm: Float?
    }
}

enum Seed03 {
    class Project: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var name = ""
    }
}

enum Seed04 {
    class Book: Object {
        @Persisted var priceCents = 0
        @Persisted(indexed: true) var title = ""
    }
}

enum Seed05 {
    class Person: Object {
        var tmpId = 0
        @Persisted var firstName = ""
        @Persisted var lastName = ""
        var name: String { "\(firstName) \(lastName)" }
    }
}

enum Seed06 {
    enum TaskStatusEnum: String, PersistableEnum {
        case notStarted
        case inProgress
        case complete
    }

    class Task: Object {
        @Persisted var name: String = ""
        @Persisted var owner: String?
        @Persisted var status = TaskStatusEnum.notStarted
        @Persisted var optionalTaskStatusEnumProperty: TaskStatusEnum?
    }
}

enum Seed07 {
    class Person: Object {
        @Persisted var firstName = ""
        @Persisted var lastName = ""
        override class public func propertiesMapping() -> [String: String] {
            ["firstName": "first_name", "lastName": "last_name"]
        }
    }
}

enum Seed09 {
    class Person: Object {
        @Persisted var firstName = ""
        @Persisted var lastName = ""
        @Persisted var address: Address?
        @Persisted var friends = List<Person>()
    }

    class Address: EmbeddedObject {
        @Persisted var city: String = ""
        @Persisted var country = ""
    }

    class PersonProjection: Projection<Person> {
        @Projected(\Person.firstName) var firstName
        @Projected(\Person.address?.city) var homeCity
        @Projected(\Person.friends.projectTo.firstName) var firstFriendsName: ProjectedCollection<String>
    }
}

enum Seed10 {
    class WeatherSensor: AsymmetricObject {
        @Persisted(primaryKey: true) var _id: ObjectId
        @Persisted var deviceId: String
        @Persisted var temperatureInFahrenheit: Float
        @Persisted var barometricPressureInHg: Float
        @Persisted var windSpeedInMph: Int
    }
}

enum Seed11 {
    class Owner: Object {
        @Persisted var name: String = ""
        @Persisted var since: Date = Date(timeIntervalSince1970: 0)
        @Persisted var boat: Boat?
    }

    class Boat: Object {
        @Persisted var name: String = ""
        @Persisted var lengthInMeters: Double = 0
        @Persisted var harbor: String?
    }
}

enum Seed12 {
    class Library: Object {
        @Persisted var name: String = ""
        @Persisted var opened: Date = Date(timeIntervalSince1970: 0)
        @Persisted var books: List<Book>
    }

    class Book: Object {
        @Persisted var title: String = ""
        @Persisted var pages: Int = 0
        @Persisted var isbn: String?
    }
}

enum Seed13 {
    class Team: Object {
        @Persisted(primaryKey: true) var _id: ObjectId
        @Persisted var name: String = ""
        @Persisted var players: List<Player>
    }

    class Player: Object {
        @Persisted(primaryKey: true) var _id: ObjectId
        @Persisted var name: String = ""
        @Persisted(originProperty: "players") var teams: LinkingObjects<Team>
    }
}

enum Seed14 {
    class PostalAddress: EmbeddedObject {
        @Persisted var line1: String?
        @Persisted var town: String?
        @Persisted var region: String?
        @Persisted var code: String?
    }

    class Customer: Object {
        @Persisted(primaryKey: true) var _id: ObjectId
        @Persisted var name = ""
        @Persisted var billing: PostalAddress?

        convenience init(name: String, billing: PostalAddress) {
            self.init()
            self.name = name
            self.billing = billing
        }
    }

    class Warehouse: Object {
        @Persisted var name = ""
        @Persisted var docks: List<PostalAddress>

        convenience init(name: String, docks: [PostalAddress]) {
            self.init()
            self.name = name
            self.docks.append(objectsIn: docks)
        }
    }
}

enum Seed15 {
    class Dog: Object {
        @Persisted var name = ""
    }

    class Person: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var name = ""
        @Persisted var dogs: List<Dog>
        @Persisted(originProperty: "members") var clubs: LinkingObjects<DogClub>
        @Persisted var address: Address?

        convenience init(name: String, address: Address) {
            self.init()
            self.name = name
            self.address = address
        }
    }

    class DogClub: Object {
        @Persisted var name = ""
        @Persisted var members: List<Person>
        @Persisted var regionalOfficeAddresses: List<Address>

        convenience init(name: String, addresses: [Address]) {
            self.init()
            self.name = name
            self.regionalOfficeAddresses.append(objectsIn: addresses)
        }
    }

    class Address: EmbeddedObject {
        @Persisted var street: String?
        @Persisted var city: String?
        @Persisted var country: String?
        @Persisted var postalCode: String?
    }
}

enum Seed16 {
    class CustomGeoPoint: EmbeddedObject {
        @Persisted private var type: String = "Point"
        @Persisted private var coordinates: List<Double>

        public var latitude: Double { return coordinates[1] }
        public var longitude: Double { return coordinates[0] }

        convenience init(_ latitude: Double, _ longitude: Double) {
            self.init()
            coordinates.append(objectsIn: [longitude, latitude])
        }
    }

    class Shop: Object {
        @Persisted var name = ""
        @Persisted var location: CustomGeoPoint?
    }
}

enum Seed17 {
    class MyModel: Object {
        @Persisted var name = ""
    }
}

func memoryRealm(_ types: [ObjectBase.Type], _ name: String = #function) throws -> Realm {
    try Realm(configuration: Realm.Configuration(inMemoryIdentifier: "seed-\(name)-\(UInt64.random(in: 0 ... .max))",
                                                 objectTypes: types))
}

@Suite struct SeedExampleTests {
    @Test func s01DogWithObjectIdKeyAndDefaultDate() throws {
        let realm = try memoryRealm([Seed01.Dog.self])
        let dog = Seed01.Dog(value: ["name": "Rex"])
        let born = dog.dateOfBirth
        try realm.write { realm.add(dog) }
        let found = try #require(realm.object(ofType: Seed01.Dog.self, forPrimaryKey: dog._id))
        #expect(found.name == "Rex" && found.breed == nil)
        #expect(abs(found.dateOfBirth.timeIntervalSince(born)) < 1e-6)
        #expect(realm.schema["Dog"]?["breed"]?.isOptional == true)
    }

    @Test func s02OptionalAndRequiredProperties() throws {
        let realm = try memoryRealm([Seed02.Person.self])
        try realm.write { realm.create(Seed02.Person.self, value: ["name": "Ann", "heightCm": Float(170.5)]) }
        let person = try #require(realm.objects(Seed02.Person.self).first)
        #expect(person.address == nil && person.ageYears == 0 && person.heightCm == 170.5)
        let schema = try #require(realm.schema["Person"])
        #expect(schema["address"]?.isOptional == true && schema["ageYears"]?.isOptional == false)
    }

    @Test func s03PrimaryKeyIsUnique() throws {
        let realm = try memoryRealm([Seed03.Project.self])
        try realm.write { realm.create(Seed03.Project.self, value: ["id": 1, "name": "A"]) }
        try realm.write { realm.create(Seed03.Project.self, value: ["id": 1, "name": "B"], update: .all) }
        #expect(realm.objects(Seed03.Project.self).count == 1)
        #expect(realm.object(ofType: Seed03.Project.self, forPrimaryKey: 1)?.name == "B")
    }

    @Test func s04IndexedPropertyQueries() throws {
        let realm = try memoryRealm([Seed04.Book.self])
        try realm.write { for t in ["Emma", "Dune"] { realm.create(Seed04.Book.self, value: ["title": t, "priceCents": 100]) } }
        #expect(realm.schema["Book"]?["title"]?.isIndexed == true)
        #expect(realm.objects(Seed04.Book.self).where { $0.title == "Dune" }.count == 1)
    }

    @Test func s05IgnoredPropertiesAreNotStored() throws {
        let realm = try memoryRealm([Seed05.Person.self])
        #expect(realm.schema["Person"]?.properties.map(\.name) == ["firstName", "lastName"])
        let person = Seed05.Person(value: ["firstName": "Ann", "lastName": "Lee"])
        person.tmpId = 9
        try realm.write { realm.add(person) }
        #expect(person.name == "Ann Lee")
        #expect(realm.objects(Seed05.Person.self).first?.tmpId == 0)
    }

    @Test func s06EnumsStoreTheirRawValues() throws {
        let realm = try memoryRealm([Seed06.Task.self])
        let task = Seed06.Task()
        task.status = .inProgress
        try realm.write { realm.add(task) }
        let stored = try #require(realm.objects(Seed06.Task.self).first)
        #expect(stored.status == .inProgress && stored.optionalTaskStatusEnumProperty == nil)
        #expect(realm.objects(Seed06.Task.self).filter("status == 'inProgress'").count == 1)
        try realm.write { stored.optionalTaskStatusEnumProperty = .complete }
        #expect(task.optionalTaskStatusEnumProperty == .complete)
    }

    @Test func s07PropertiesMappingGivesStoredNames() throws {
        let realm = try memoryRealm([Seed07.Person.self])
        #expect(realm.schema["Person"]?["firstName"]?.columnName == "first_name")
        try realm.write { realm.create(Seed07.Person.self, value: ["firstName": "Ann", "lastName": "Lee"]) }
        #expect(realm.objects(Seed07.Person.self).filter("firstName == 'Ann'").count == 1)
    }

    @Test func s08s09Projections() throws {
        let realm = try memoryRealm([Seed09.Person.self, Seed09.Address.self])
        let bob = Seed09.Person(value: ["firstName": "Bob"])
        let ann = Seed09.Person(value: ["firstName": "Ann"])
        ann.address = Seed09.Address(value: ["city": "Oslo", "country": "NO"])
        ann.friends.append(bob)
        try realm.write { realm.add(ann) }
        let projections = realm.objects(Seed09.PersonProjection.self)
        let annView = try #require(projections.first { $0.firstName == "Ann" })
        #expect(annView.homeCity == "Oslo")
        #expect(Array(annView.firstFriendsName) == ["Bob"])
        try realm.write { annView.firstName = "Anne" }
        #expect(ann.firstName == "Anne")
    }

    @Test func s10AsymmetricObjectsAreAddedNotRead() throws {
        let realm = try memoryRealm([Seed10.WeatherSensor.self])
        let sensor = Seed10.WeatherSensor(value: ["deviceId": "d1", "temperatureInFahrenheit": Float(60), "windSpeedInMph": 3])
        try realm.write { realm.add(sensor) }
        #expect(sensor.realm != nil)
        #expect(realm.schema["WeatherSensor"]?.isAsymmetric == true)
    }

    @Test func s11ToOneRelationship() throws {
        let realm = try memoryRealm([Seed11.Owner.self, Seed11.Boat.self])
        let owner = Seed11.Owner(value: ["name": "Kim"])
        owner.boat = Seed11.Boat(value: ["name": "Wave", "lengthInMeters": 7.5])
        try realm.write { realm.add(owner) }
        #expect(realm.objects(Seed11.Boat.self).count == 1)
        #expect(realm.objects(Seed11.Owner.self).first?.boat?.name == "Wave")
        try realm.write { owner.boat = nil }
        #expect(owner.boat == nil && realm.objects(Seed11.Boat.self).count == 1)
    }

    @Test func s12ToManyRelationship() throws {
        let realm = try memoryRealm([Seed12.Library.self, Seed12.Book.self])
        let library = Seed12.Library(value: ["name": "City"])
        library.books.append(objectsIn: [Seed12.Book(value: ["title": "A", "pages": 10]), Seed12.Book(value: ["title": "B"])])
        try realm.write { realm.add(library) }
        let stored = try #require(realm.objects(Seed12.Library.self).first)
        #expect(stored.books.map(\.title) == ["A", "B"])
        #expect(realm.objects(Seed12.Library.self).filter("books.pages > 5").count == 1)
    }

    @Test func s13InverseRelationshipFollowsTheLinks() throws {
        let realm = try memoryRealm([Seed13.Team.self, Seed13.Player.self])
        let player = Seed13.Player(value: ["name": "Pat"])
        let red = Seed13.Team(value: ["name": "Red"])
        let blue = Seed13.Team(value: ["name": "Blue"])
        red.players.append(player)
        blue.players.append(player)
        try realm.write { realm.add([red, blue]) }
        #expect(Set(player.teams.map(\.name)) == ["Red", "Blue"])
        try realm.write { blue.players.removeAll() }
        #expect(player.teams.map(\.name) == ["Red"])
    }

    @Test func s14EmbeddedObjectsBelongToTheirParent() throws {
        let realm = try memoryRealm([Seed14.Customer.self, Seed14.Warehouse.self, Seed14.PostalAddress.self])
        let customer = Seed14.Customer(name: "Ann", billing: Seed14.PostalAddress(value: ["town": "Oslo"]))
        let warehouse = Seed14.Warehouse(name: "W1", docks: [Seed14.PostalAddress(value: ["code": "1"]), Seed14.PostalAddress(value: ["code": "2"])])
        try realm.write { realm.add([customer, warehouse] as [Object]) }
        #expect(realm.objects(Seed14.Customer.self).first?.billing?.town == "Oslo")
        #expect(warehouse.docks.map(\.code) == ["1", "2"])
        let dock = warehouse.docks[0]
        try realm.write { realm.delete(warehouse) }
        #expect(dock.isInvalidated)
    }

    @Test func s15DogClubWithMembersAndOffices() throws {
        let realm = try memoryRealm([Seed15.Dog.self, Seed15.Person.self, Seed15.DogClub.self, Seed15.Address.self])
        let person = Seed15.Person(name: "Ann", address: Seed15.Address(value: ["city": "Oslo"]))
        person.dogs.append(Seed15.Dog(value: ["name": "Rex"]))
        let club = Seed15.DogClub(name: "Walkers", addresses: [Seed15.Address(value: ["city": "Bergen"])])
        club.members.append(person)
        try realm.write { realm.add(club) }
        #expect(person.clubs.map(\.name) == ["Walkers"])
        #expect(club.regionalOfficeAddresses.first?.city == "Bergen")
        #expect(realm.objects(Seed15.Person.self).filter("ANY dogs.name == 'Rex'").count == 1)
    }

    @Test func s16CustomGeoPointIsAGeoJSONPoint() throws {
        let realm = try memoryRealm([Seed16.Shop.self, Seed16.CustomGeoPoint.self])
        let shop = Seed16.Shop(value: ["name": "Corner"])
        shop.location = Seed16.CustomGeoPoint(59.9, 10.7)
        try realm.write { realm.add(shop) }
        let location = try #require(realm.objects(Seed16.Shop.self).first?.location)
        #expect(location.latitude == 59.9 && location.longitude == 10.7)
        #expect(realm.objects(Seed16.Shop.self).filter("location GEOWITHIN geoCircle([10.7, 59.9], 0.01)").count == 1)
        let oslo = try #require(GeoPoint(latitude: 59.91, longitude: 10.75))
        let near = GeoCircle(center: oslo, radius: try #require(Distance.kilometers(10)))
        let far = GeoCircle(center: try #require(GeoPoint(latitude: 48.85, longitude: 2.35)), radius: try #require(Distance.kilometers(10)))
        #expect(realm.objects(Seed16.Shop.self).where { $0.location.geoWithin(near) }.count == 1)
        #expect(realm.objects(Seed16.Shop.self).where { $0.location.geoWithin(far) }.count == 0)
        #expect(realm.objects(Seed16.Shop.self).filter("location GEOWITHIN %@", near).count == 1)
        let box = GeoBox(bottomLeft: try #require(GeoPoint(latitude: 59, longitude: 10)), topRight: try #require(GeoPoint(latitude: 60, longitude: 11)))
        #expect(realm.objects(Seed16.Shop.self).where { $0.location.geoWithin(box) }.count == 1)
        let corners = [(59.0, 10.0), (59.0, 11.0), (60.0, 11.0), (60.0, 10.0), (59.0, 10.0)].compactMap { GeoPoint(latitude: $0.0, longitude: $0.1) }
        let polygon = try #require(GeoPolygon(outerRing: corners))
        #expect(realm.objects(Seed16.Shop.self).where { $0.location.geoWithin(polygon) }.count == 1)
    }

    @Test func s17UnmanagedCopy() throws {
        let realm = try memoryRealm([Seed17.MyModel.self])
        let model = Seed17.MyModel(value: ["name": "Kept"])
        try realm.write { realm.add(model) }
        let copy = Seed17.MyModel(value: model)
        #expect(copy.realm == nil && copy.name == "Kept")
        copy.name = "Changed"
        #expect(model.name == "Kept")
    }
}
