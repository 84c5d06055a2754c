import DrumlinEngine
import Testing

/// The read version (`Database.readVersion`): what bindings check before trusting values they kept.
@Suite struct ReadVersionTests {
    @Test func movesOnCommitRollbackAndEveryWriteButNotOnReads() throws {
        let db = try openPeople()
        let start = db.readVersion
        #expect(start >= 1)
        try db.write { _ = try db.create("Person", json: #"{"id": 1, "name": "Ann", "age": 30}"#) }
        let committed = db.readVersion
        #expect(committed > start)
        _ = try db.objects("Person").count
        #expect(db.readVersion == committed)
        try db.beginWrite()
        try db.setValue(classIndex: 0, key: 1, propertyIndex: 2, .int(31))
        let written = db.readVersion
        #expect(written > committed)
        try db.rollback()
        #expect(db.readVersion > written)
        #expect(try db.objects("Person").filter("age == 30", []).count == 1)
    }

    @Test func movesWhenAReadSeesAnotherConnectionsCommit() throws {
        let path = temporaryPath()
        let reader = try openPeople(path)
        let writer = try openPeople(path)
        _ = try reader.objects("Person").count
        let before = reader.readVersion
        try writer.write { _ = try writer.create("Person", json: #"{"id": 1, "name": "Ann"}"#) }
        #expect(reader.readVersion == before)  // nothing called on reader yet
        #expect(try reader.objects("Person").count == 1)
        #expect(reader.readVersion > before)
    }

    @Test func setValueRefusesDeletedObjectsAndWritesOtherPropertiesTheGeneralWay() throws {
        let db = try openPeople()
        try db.write { _ = try db.create("Person", json: #"{"id": 1, "name": "Ann"}"#) }
        try db.beginWrite()
        expectError(.invalidatedObject) { try db.setValue(classIndex: 0, key: 2, propertyIndex: 2, .int(1)) }
        expectError(.primaryKeyImmutable) { try db.setValue(classIndex: 0, key: 1, propertyIndex: 0, .int(5)) }
        try db.commit()
    }
}
