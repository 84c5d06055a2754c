@testable import DrumlinEngine
@testable import DrumlinStorage
import Testing

/// An object's row and the values stored outside it (a list, a mixed value's nested list) are
/// read in one read transaction (`Connection.continuingRead`): none is left open after the read,
/// a read inside a write transaction sees the write's changes and leaves it open, and a read of a
/// deleted object fails with nothing left open.
@Suite struct OutOfRowReadTests {
    let schema = """
    [{"name": "Task", "primaryKey": "id", "properties": {"id": "int", "title": "string", "tags": "string[]", "extra": "mixed"}}]
    """

    func values(_ db: Database, _ key: Int64) throws(DrumlinError) -> [Value] {
        var values: [Value] = []
        try db.visitValues(classIndex: 0, key: key, propertyIndices: [1, 2, 3]) { (row) throws(DrumlinError) in
            try row.forEach { (_, value) throws(DrumlinError) in values.append(try value.value()) }
        }
        return values
    }

    func autocommit(_ db: Database) throws -> Bool {
        try db.serialized { (connection) throws(DrumlinError) in connection.isAutocommit }
    }

    @Test func aRowWithItsCollectionsLeavesNoTransactionOpen() throws {
        let db = try Database(path: temporaryPath(), schemaJSON: schema)
        let one = try db.write { try db.create("Task", json: #"{"id": 1, "title": "a", "tags": ["x", "y"], "extra": [1, "two"]}"#) }
        #expect(try values(db, one.key) == [.string("a"), .list([.string("x"), .string("y")]), .list([.int(1), .string("two")])])
        #expect(try autocommit(db))

        try db.write {
            let two = try db.create("Task", json: #"{"id": 2, "title": "b", "tags": ["z"], "extra": 3}"#)
            #expect(try values(db, two.key) == [.string("b"), .list([.string("z")]), .int(3)])
            #expect(!(try autocommit(db)))
        }
        #expect(try db.count("Task") == 2)

        try db.write { try db.delete(one) }
        expectError(.invalidatedObject) { _ = try values(db, one.key) }
        #expect(try autocommit(db))
    }
}

/// A read of the first rows only (`parking: false`, what `drumlin_query_first_rows` does) leaves
/// no statement parked and no read transaction open; a paged read parks its statement until the
/// next call.
@Suite struct FirstRowsTests {
    @Test func readingTheFirstRowsLeavesNothingOpen() throws {
        let db = try openPeople(temporaryPath())
        try db.write {
            for i in 1...5 { _ = try db.create("Person", json: #"{"id": \#(i), "name": "p\#(i)"}"#) }
        }
        let results = try db.query("Person", "id > 0")
        var keys: [Value] = []
        let read = try results.forEachRow(from: 0, maxRows: 2, [0], parking: false) { (row) throws(DrumlinError) in
            keys.append(try row[0].value())
        }
        #expect(read == 2 && keys == [.int(1), .int(2)])
        let open = try db.serialized { (connection) throws(DrumlinError) in (db.parkedRows == nil, connection.isAutocommit) }
        #expect(open == (true, true))

        let paged = try results.forEachRow(from: 0, maxRows: 2, [0]) { (_) throws(DrumlinError) in }
        #expect(paged == 2)
        #expect(db.parkedRows != nil)
    }
}
