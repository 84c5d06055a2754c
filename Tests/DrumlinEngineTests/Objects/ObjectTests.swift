import DrumlinEngine
import Testing

@Suite struct ObjectTests {
    @Test func createGetAndDefaults() throws {
        let db = try openPeople()
        try db.write { try db.create("Person", json: #"{"id": 5, "name": "Ann", "age": 31}"#) }
        let json = try #require(try db.getJSON("Person", primaryKey: .int(5)))
        #expect(json == #"{"id":5,"name":"Ann","age":31,"email":null,"score":1.5,"active":true}"#)
        let ann = try #require(try db.object("Person", primaryKey: 5))
        #expect(try ann["name"] == "Ann")
        #expect(try ann["email"] == .null)
        #expect(try ann.primaryKey == .int(5))
        #expect(try db.object("Person", primaryKey: 6) == nil)
        #expect(try db.getJSON("Person", primaryKey: .int(6)) == nil)
    }

    @Test func missingRequiredValueIsAnErrorAndWritesNothing() throws {
        let db = try openPeople()
        try db.beginWrite()
        expectError(.missingValue, "Missing value for property 'Person.name'") {
            try db.create("Person", json: #"{"id": 1}"#)
        }
        try db.commit()
        #expect(try db.count("Person") == 0)
    }

    @Test func duplicatePrimaryKeyUsesRealmWordingAndKeepsTheTransactionUsable() throws {
        let db = try openPeople()
        try db.beginWrite()
        try db.create("Person", json: #"{"id": 5, "name": "Ann"}"#)
        expectError(.duplicatePrimaryKey, "Attempting to create an object of type 'Person' with an existing primary key value '5'.") {
            try db.create("Person", json: #"{"id": 5, "name": "Other"}"#)
        }
        try db.create("Person", json: #"{"id": 6, "name": "Bo"}"#)
        try db.commit()
        #expect(try db.count("Person") == 2)
        #expect(try db.object("Person", primaryKey: 5)?["name"] == "Ann")
    }

    @Test func unknownClassAndPropertyAreNamed() throws {
        let db = try openPeople()
        try db.beginWrite()
        expectError(.noSuchClass, "Object type 'Persn' is not in the schema.") {
            try db.create("Persn", json: #"{"id": 1}"#)
        }
        expectError(.noSuchProperty, "Property 'Person.nme' does not exist.") {
            try db.create("Person", json: #"{"id": 1, "name": "A", "nme": "x"}"#)
        }
        try db.rollback()
        #expect(try db.count("Person") == 0)
    }

    @Test func wrongTypesAndNullsNameClassAndProperty() throws {
        let db = try openPeople()
        try db.beginWrite()
        expectError(.typeMismatch, "Type mismatch for property 'Person.age': expected int, got string.") {
            try db.create("Person", json: #"{"id": 1, "name": "A", "age": "old"}"#)
        }
        expectError(.typeMismatch, "Type mismatch for property 'Person.age': expected int, got double.") {
            try db.create("Person", json: #"{"id": 1, "name": "A", "age": 3.5}"#)
        }
        expectError(.notNullable, "Invalid null value for non-nullable property 'Person.name'.") {
            try db.create("Person", json: #"{"id": 1, "name": null}"#)
        }
        expectError(.invalidArgument) { try db.create("Person", json: #"{"id": 1, "name": "A""#) }
        expectError(.invalidArgument) { try db.create("Person", json: #"[1, 2]"#) }
        try db.commit()
        #expect(try db.count("Person") == 0)
    }

    @Test func writesOutsideATransactionFail() throws {
        let db = try openPeople()
        expectError(.wrongTransactionState, "Cannot modify managed objects outside of a write transaction.") {
            try db.create("Person", json: #"{"id": 1, "name": "A"}"#)
        }
        try db.write { try db.create("Person", json: #"{"id": 1, "name": "A"}"#) }
        let a = try #require(try db.object("Person", primaryKey: 1))
        expectError(.wrongTransactionState) { try a.set("age", to: 3) }
        expectError(.wrongTransactionState) { try a.delete() }
        #expect(try a["age"] == .null)
    }

    @Test func updateModesNeverModifiedAll() throws {
        let db = try openPeople()
        try db.write {
            try db.create("Person", json: #"{"id": 1, "name": "Ann", "age": 30, "email": "a@x"}"#)
            // modified: only given properties change; others are untouched.
            try db.create("Person", json: #"{"id": 1, "name": "Ann", "age": 31}"#, update: .modified)
        }
        #expect(try db.getJSON("Person", primaryKey: .int(1)) == #"{"id":1,"name":"Ann","age":31,"email":"a@x","score":1.5,"active":true}"#)
        try db.write { try db.create("Person", json: #"{"id": 1, "name": "Anna", "email": null}"#, update: .all) }
        #expect(try db.getJSON("Person", primaryKey: .int(1)) == #"{"id":1,"name":"Anna","age":31,"email":null,"score":1.5,"active":true}"#)
        // An upsert of a new key creates.
        try db.write { try db.create("Person", json: #"{"id": 2, "name": "Bo"}"#, update: .modified) }
        #expect(try db.count("Person") == 2)
        // createMany counts created and updated objects.
        let n = try db.write { try db.createMany("Person", json: #"[{"id": 2, "name": "Bob"}, {"id": 3, "name": "Cy"}]"#, update: .all) }
        #expect(n == 2)
        #expect(try db.object("Person", primaryKey: 2)?["name"] == "Bob")
    }

    @Test func primaryKeysAreImmutable() throws {
        let db = try openPeople()
        try db.write { try db.create("Person", json: #"{"id": 1, "name": "Ann"}"#) }
        let ann = try #require(try db.object("Person", primaryKey: 1))
        try db.beginWrite()
        expectError(.primaryKeyImmutable, "Cannot modify primary key after creation: 'Person.id'") { try ann.set("id", to: 2) }
        try ann.set("id", to: 1)   // the same value is not a change
        try db.commit()
        #expect(try ann["id"] == 1)
    }

    @Test func createManyIsAllOrNothing() throws {
        let db = try openPeople()
        try db.beginWrite()
        expectError(.missingValue, "Element 1: Missing value for property 'Person.name'") {
            try db.createMany("Person", json: #"[{"id": 1, "name": "A"}, {"id": 2}]"#)
        }
        #expect(try db.count("Person") == 0)
        #expect(try db.createMany("Person", json: #"[{"id": 1, "name": "A"}, {"id": 2, "name": "B"}]"#) == 2)
        try db.commit()
        #expect(try db.count("Person") == 2)
    }

    @Test func deletedObjectsAreInvalidated() throws {
        let db = try openPeople()
        try db.write { try db.create("Person", json: #"{"id": 1, "name": "Ann"}"#) }
        let ann = try #require(try db.object("Person", primaryKey: 1))
        let again = try #require(try db.object("Person", primaryKey: 1))
        #expect(ann == again)
        #expect(ann.isValid)
        try db.write { try db.delete(ann) }
        #expect(!ann.isValid)
        expectError(.invalidatedObject, "Accessing object of type Person which has been invalidated or deleted") { _ = try ann["name"] }
        #expect(try db.count("Person") == 0)
    }

    @Test func objectsOfAClosedDatabaseReportMisuse() throws {
        let db = try openPeople()
        try db.write { try db.create("Person", json: #"{"id": 1, "name": "Ann"}"#) }
        let ann = try #require(try db.object("Person", primaryKey: 1))
        db.close()
        db.close()
        expectError(.misuse, "The database is closed.") { _ = try ann["name"] }
        expectError(.misuse) { _ = try db.count("Person") }
    }

    @Test func setManyValuesIsAllOrNothing() throws {
        let db = try openPeople()
        try db.write { try db.create("Person", json: #"{"id": 1, "name": "Ann", "age": 3}"#) }
        let ann = try #require(try db.object("Person", primaryKey: 1))
        let age = try db.propertyIndex("Person", "age")
        let name = try db.propertyIndex("Person", "name")
        try db.beginWrite()
        expectError(.notNullable) { try ann.setValues([(age, 4), (name, nil)]) }
        try db.commit()
        #expect(try ann.values(at: [age, name]) == [3, "Ann"])
    }

    @Test func creationOrderIsKeptForIntPrimaryKeys() throws {
        let path = temporaryPath()
        let db = try openPeople(path)
        try db.write {
            for id in [30, 10, 20] { try db.create("Person", json: #"{"id": \#(id), "name": "p\#(id)"}"#) }
        }
        try db.write { try db.create("Person", json: #"{"id": 5, "name": "p5"}"#) }
        db.close()
        #expect(sqlRows(path, #"SELECT "id" FROM "Person" ORDER BY "_drumlin_seq""#).map { $0[0] } == ["30", "10", "20", "5"])
    }
}
