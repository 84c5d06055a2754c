import Drumlin
import Testing

@Suite struct ObjectModelTests {
    @Test func schemaComesFromTheClasses() throws {
        let realm = try seedRealm()
        let dog = try #require(realm.schema["SeedDog"])
        #expect(dog.properties.map(\.name) == ["_id", "name", "breed", "age", "dateOfBirth", "status", "owner"])
        #expect(dog.primaryKeyProperty?.name == "_id")
        #expect(dog["name"]?.isIndexed == true)
        #expect(dog["breed"]?.isOptional == true)
        #expect(dog["status"]?.type == .string)
        let person = try #require(realm.schema["SeedPerson"])
        #expect(person["firstName"]?.columnName == "first_name")
        #expect(person["dogs"]?.isArray == true)
        #expect(person["clubs"]?.type == .linkingObjects)
        #expect(realm.schema["SeedAddress"]?.isEmbedded == true)
        #expect(realm.schema["SeedSensor"]?.isAsymmetric == true)
    }

    @Test func unmanagedObjectsAreValues() {
        let dog = SeedDog()
        #expect(dog.name == "")
        #expect(dog.age == nil)
        #expect(dog.status == .notStarted)
        dog.name = "Rex"
        dog.age = 3
        #expect(dog.label == "Rex!")
        #expect(dog.realm == nil)
        #expect(!dog.isInvalidated)
        let copy = SeedDog(value: ["name": "Fido", "age": 2])
        #expect(copy.name == "Fido" && copy.age == 2)
    }

    @Test func addReadBackAndUpdate() throws {
        let realm = try seedRealm()
        let dog = SeedDog(value: ["name": "Rex", "breed": "Collie", "age": 3])
        dog.status = .inProgress
        try realm.write { realm.add(dog) }
        #expect(dog.realm == realm)
        let found = try #require(realm.object(ofType: SeedDog.self, forPrimaryKey: dog._id))
        #expect(found.name == "Rex")
        #expect(found.breed == "Collie")
        #expect(found.age == 3)
        #expect(found.status == .inProgress)
        #expect(found.dateOfBirth == Date(timeIntervalSince1970: 1_000))
        #expect(found.isSameObject(as: dog))
        try realm.write { found.age = nil; found.name = "Max" }
        #expect(dog.name == "Max")
        #expect(dog.age == nil)
        #expect(realm.objects(SeedDog.self).count == 1)
    }

    @Test func relationshipsAndBacklinks() throws {
        let realm = try seedRealm()
        let ann = SeedPerson(id: 1, firstName: "Ann", address: SeedAddress(value: ["city": "Oslo"]))
        ann.dogs.append(objectsIn: [SeedDog(value: ["name": "Rex"]), SeedDog(value: ["name": "Bo"])])
        ann.tags.insert("a")
        ann.scores["math"] = 5
        let club = SeedClub()
        club.name = "Walkers"
        club.members.append(ann)
        club.offices.append(SeedAddress(value: ["city": "Bergen"]))
        try realm.write { realm.add(club) }
        #expect(realm.objects(SeedDog.self).count == 2)
        let person = try #require(realm.object(ofType: SeedPerson.self, forPrimaryKey: 1))
        #expect(person.dogs.map(\.name) == ["Rex", "Bo"])
        #expect(person.address?.city == "Oslo")
        #expect(person.tags.contains("a"))
        #expect(person.scores["math"] == 5)
        #expect(person.clubs.map(\.name) == ["Walkers"])
        #expect(club.offices.first?.city == "Bergen")
        try realm.write { person.dogs.remove(at: 0) }
        #expect(person.dogs.count == 1)
        #expect(realm.objects(SeedDog.self).count == 2)
        let projection = SeedPersonProjection(projecting: person)
        #expect(projection.firstName == "Ann")
        #expect(projection.homeCity == "Oslo")
        #expect(Array(projection.dogNames) == ["Bo"])
    }

    @Test func projectionsOfAClassAreLiveResults() throws {
        let realm = try seedRealm()
        try realm.write {
            realm.add(SeedPerson(id: 1, firstName: "Ann", address: SeedAddress(value: ["city": "Oslo"])))
            realm.add(SeedPerson(id: 2, firstName: "Bob"))
        }
        let views: Results<SeedPersonProjection> = realm.objects(SeedPersonProjection.self)
        #expect(views.count == 2)
        #expect(views.map(\.firstName) == ["Ann", "Bob"])
        #expect(views[0].homeCity == "Oslo" && views[1].homeCity == nil)
        // Queries and sorts name the root class's properties, as in Realm Swift.
        let bobs = views.filter("firstName == %@", "Bob")
        #expect(bobs.count == 1 && bobs.first?.rootObject.id == 2)
        #expect(views.sorted(byKeyPath: "firstName", ascending: false).map(\.firstName) == ["Bob", "Ann"])
        // Live: a new object appears; a write through a projection writes the object.
        try realm.write { realm.add(SeedPerson(id: 3, firstName: "Cy")) }
        #expect(views.count == 3 && views.last?.firstName == "Cy")
        try realm.write { views[0].firstName = "Anne" }
        #expect(realm.object(ofType: SeedPerson.self, forPrimaryKey: 1)?.firstName == "Anne")
        // Two projections of one object are equal; index(of:) finds a projection by its object.
        let ann = SeedPersonProjection(projecting: try #require(realm.object(ofType: SeedPerson.self, forPrimaryKey: 1)))
        #expect(ann == views[0] && ann != views[1])
        #expect(views.index(of: ann) == 0)
        #expect(Set([ann, views[0], views[1]]).count == 2)
    }

    @Test func projectionResultsDeliverChanges() throws {
        let realm = try seedRealm()
        try realm.write { realm.add(SeedPerson(id: 1, firstName: "Ann")) }
        let views = realm.objects(SeedPersonProjection.self)
        var seen: [String] = []
        let token = views.observe { change in
            switch change {
            case .initial(let results): seen.append("initial \(results.map(\.firstName))")
            case .update(let results, let deletions, let insertions, let modifications):
                seen.append("update \(results.map(\.firstName)) -\(deletions) +\(insertions) ~\(modifications)")
            case .error(let error): seen.append("error \(error)")
            }
        }
        defer { token.invalidate() }
        try realm.write { realm.add(SeedPerson(id: 2, firstName: "Bob")) }
        #expect(seen == ["initial [\"Ann\"]", "update [\"Ann\", \"Bob\"] -[] +[1] ~[]"])
    }

    @Test func aProjectionValueIsStoredAsALinkToItsObject() throws {
        let realm = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: "pet\(UInt64.random(in: 0 ... .max))",
                                                                 objectTypes: seedTypes + [SeedPet.self]))
        #expect(realm.schema["SeedPet"]?["keeper"]?.objectClassName == "SeedPerson")
        let ann = SeedPerson(id: 1, firstName: "Ann")
        try realm.write { realm.add(ann) }
        let pet = SeedPet()
        pet.name = "Rex"
        pet.keeper = SeedPersonProjection(projecting: ann)
        try realm.write { realm.add(pet) }
        let stored = try #require(realm.objects(SeedPet.self).first)
        #expect(stored.keeper?.firstName == "Ann")
        #expect(realm.objects(SeedPet.self).filter("keeper.id == 1").count == 1)
        try realm.write { stored.keeper = nil }
        #expect(stored.keeper == nil && realm.objects(SeedPerson.self).count == 1)
    }

    @Test func embeddedObjectsAreDeletedWithTheirParent() throws {
        let realm = try seedRealm()
        let person = SeedPerson(id: 7, firstName: "Eve", address: SeedAddress(value: ["city": "Rome"]))
        try realm.write { realm.add(person) }
        let address = try #require(person.address)
        try realm.write { realm.delete(person) }
        #expect(person.isInvalidated)
        #expect(address.isInvalidated)
        #expect(realm.objects(SeedPerson.self).isEmpty)
    }

    @Test func queriesSortAndAggregate() throws {
        let realm = try seedRealm()
        try realm.write {
            for (name, age) in [("Rex", 3), ("Rover", 5), ("Bo", 1)] { realm.add(SeedDog(value: ["name": name, "age": age])) }
        }
        let dogs = realm.objects(SeedDog.self)
        #expect(dogs.filter("name BEGINSWITH %@", "R").count == 2)
        #expect(dogs.where { $0.age > 2 && $0.name.starts(with: "R") }.map(\.name).sorted() == ["Rex", "Rover"])
        #expect(dogs.where { $0.name.in(["Bo", "Zed"]) }.count == 1)
        #expect(dogs.sorted(byKeyPath: "age").map(\.name) == ["Bo", "Rex", "Rover"])
        #expect(dogs.sorted(by: \SeedDog.name, ascending: false).first?.name == "Rover")
        #expect(dogs.max(ofProperty: "age") as Int? == 5)
        #expect(dogs.sum(ofProperty: "age") as Int == 9)
        #expect(dogs.where { !($0.age > 2) }.first?.name == "Bo")
    }

    @Test func upsertWithUpdatePolicies() throws {
        let realm = try seedRealm()
        try realm.write { realm.create(SeedPerson.self, value: ["id": 1, "firstName": "Ann", "lastName": "Lee"]) }
        try realm.write { realm.create(SeedPerson.self, value: ["id": 1, "firstName": "Anne"], update: .modified) }
        let person = try #require(realm.object(ofType: SeedPerson.self, forPrimaryKey: 1))
        #expect(person.firstName == "Anne")
        #expect(person.lastName == "Lee")
        #expect(realm.objects(SeedPerson.self).count == 1)
    }

    @Test func rollbackUndoesAndCachedRowsFollow() throws {
        let realm = try seedRealm()
        let dog = SeedDog(value: ["name": "Rex"])
        try realm.write { realm.add(dog) }
        realm.beginWrite()
        dog.name = "Max"
        #expect(dog.name == "Max")
        realm.cancelWrite()
        #expect(dog.name == "Rex")
        #expect(!realm.isInWriteTransaction)
    }

    @Test func valuesKeptByAManagedObjectFollowEveryWrite() throws {
        let realm = try seedRealm()
        try realm.write { realm.create(SeedPerson.self, value: ["id": 1, "firstName": "Ann", "heightCm": Float(170)]) }
        let first = try #require(realm.object(ofType: SeedPerson.self, forPrimaryKey: 1))
        let second = try #require(realm.object(ofType: SeedPerson.self, forPrimaryKey: 1))
        #expect(first.firstName == "Ann" && second.heightCm == 170)
        try realm.write { second.firstName = "Anne" }
        #expect(first.firstName == "Anne")
        try realm.write { realm.create(SeedPerson.self, value: ["id": 1, "heightCm": Float(171)], update: .modified) }
        #expect(first.heightCm == 171 && second.heightCm == 171)
        realm.beginWrite()
        first.heightCm = nil
        #expect(second.heightCm == nil)
        realm.cancelWrite()
        #expect(first.heightCm == 171 && second.heightCm == 171)
        // Another handle's commit is seen after refresh().
        let path = "/tmp/drumlin-follow-\(UInt64.random(in: 0 ... .max)).drumlin"
        let configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: seedTypes)
        defer { _ = try? Realm.deleteFiles(for: configuration) }
        let fileRealm = try Realm(configuration: configuration)
        try fileRealm.write { fileRealm.create(SeedBook.self, value: ["id": 1, "title": "Old"]) }
        let book = try #require(fileRealm.object(ofType: SeedBook.self, forPrimaryKey: 1))
        #expect(book.title == "Old")
        let thread = Thread {
            let other = try! Realm(configuration: configuration)
            try! other.write { other.object(ofType: SeedBook.self, forPrimaryKey: 1)!.title = "New" }
        }
        thread.start()
        while !thread.isFinished { usleep(1000) }
        fileRealm.refresh()
        #expect(book.title == "New")
    }

    @Test func unmanagedCopyOfAManagedObject() throws {
        let realm = try seedRealm()
        let dog = SeedDog(value: ["name": "Rex", "age": 4])
        try realm.write { realm.add(dog) }
        let copy = SeedDog(value: dog)
        #expect(copy.realm == nil)
        #expect(copy.name == "Rex" && copy.age == 4)
        copy.name = "Other"
        #expect(dog.name == "Rex")
    }

    @Test func dynamicObjectsReadByName() throws {
        let realm = try seedRealm()
        try realm.write { realm.add(SeedDog(value: ["name": "Rex", "age": 2])) }
        let dynamic = realm.dynamicObjects("SeedDog")
        #expect(dynamic.count == 1)
        #expect(dynamic.first?["name"] as? String == "Rex")
        #expect(dynamic.first?["age"] as? Int == 2)
    }

    @Test func asymmetricObjectsAreInsertOnly() throws {
        let realm = try seedRealm()
        let sensor = SeedSensor()
        sensor.deviceId = "d1"
        try realm.write { realm.add(sensor) }
        #expect(sensor.realm != nil)
    }

    @Test func addingASequenceMakesEveryObjectManaged() throws {
        let realm = try seedRealm()
        let books = (1 ... 50).map { id -> SeedBook in
            let book = SeedBook()
            book.id = id
            book.title = "Book \(id)"
            if id % 2 == 0 { book.pages = id * 10 }
            return book
        }
        try realm.write { realm.add(books) }
        #expect(realm.objects(SeedBook.self).count == 50)
        #expect(books.allSatisfy { $0.realm == realm })
        #expect(books[3].title == "Book 4" && books[3].pages == 40 && books[2].pages == nil)
        let found = try #require(realm.object(ofType: SeedBook.self, forPrimaryKey: 7))
        #expect(found.isSameObject(as: books[6]))
        try realm.write { books[6].title = "Changed" }
        #expect(found.title == "Changed")
        try realm.write { realm.delete(books[9]) }
        #expect(books[9].isInvalidated)
        #expect(realm.objects(SeedBook.self).count == 49)
        // A sequence mixing classes and managed objects takes the same route object by object.
        let extra = SeedBook()
        extra.id = 100
        try realm.write { realm.add([books[0], extra, books[1]]) }
        #expect(realm.objects(SeedBook.self).count == 50)
    }

    @Test func keyPathNames() {
        #expect(_name(for: \SeedPerson.address?.city) == "address.city")
        #expect(_name(for: \SeedDog.owner?.firstName) == "owner.firstName")
    }

    @Test func wrongPrimaryKeyTypeIsAnError() throws {
        let realm = try seedRealm()
        let error = #expect(throws: Realm.Error.self) {
            _ = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: "x", objectTypes: [BadLink.self]))
        }
        #expect(error?.codeName == "SCHEMA")
        #expect(error?.message.contains("always optional") == true)
        _ = realm
    }
}

class BadLink: Object {
    @Persisted var target: BadLinkTarget
}

class BadLinkTarget: Object {
    @Persisted var name = ""
}

/// Errors Realm Swift raises as Objective-C exceptions stop the program here, with the message.
@Suite struct ObjectModelFatalErrorTests {
    @Test func writingOutsideAWriteTransactionStopsTheProgram() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try seedRealm()
            let dog = SeedDog()
            try realm.write { realm.add(dog) }
            dog.name = "Max"
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("WRONG_TRANSACTION_STATE"), "\(message)")
    }

    @Test func addingADuplicatePrimaryKeyStopsTheProgram() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try seedRealm()
            try realm.write {
                realm.create(SeedPerson.self, value: ["id": 1])
                realm.create(SeedPerson.self, value: ["id": 1])
            }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("DUPLICATE_PRIMARY_KEY"), "\(message)")
    }

    @Test func aMalformedQueryStopsTheProgramWithTheQueryError() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try seedRealm()
            _ = realm.objects(SeedDog.self).filter("name ==").count
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("QUERY"), "\(message)")
    }

    @Test func anUnknownPropertyNameStopsTheProgramNamingIt() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SeedDog(value: ["nmae": "Rex"])
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Invalid property name 'nmae' for class 'SeedDog'"), "\(message)")
    }
}

/// Wrong values and classes given to the Swift API stop the program with a message that names them
/// (Realm Swift raises an exception there), before anything is written.
@Suite struct ObjectModelBadInputTests {
    @Test func aClassOutsideObjectTypesIsNamed() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try seedRealm()
            try realm.write { realm.add(BadLinkTarget()) }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Object type 'BadLinkTarget' is not managed by the Realm"), "\(message)")
    }

    @Test func aValueOfTheWrongTypeIsNamed() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SeedDog(value: ["age": "three"])
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("TYPE_MISMATCH") && message.contains("SeedDog.age"), "\(message)")
    }
}
