@testable import DrumlinEngine
@testable import DrumlinSchema
@testable import DrumlinStorage
@testable import DrumlinValues
import Testing

/// `OpenOptions.synchronous` sets SQLite's synchronous mode of the handle (issue #19, item 8).
@Suite struct SynchronousTests {
    func mode(_ db: Database) throws -> String? {
        try db.serialized { (connection) throws(DrumlinError) in try connection.scalarText("PRAGMA synchronous") }
    }

    @Test func normalByDefaultAndFullOnRequest() throws {
        let path = temporaryPath()
        let normal = try openPeople(path)
        #expect(try mode(normal) == "1")
        var options = OpenOptions()
        options.synchronous = .full
        let full = try Database(path: path, schemaJSON: personSchema, options: options)
        #expect(try mode(full) == "2")
        try full.write { _ = try full.create("Person", json: #"{"id": 1, "name": "durable"}"#) }
        #expect(try normal.count("Person") == 1)
        let fresh = try Database(path: temporaryPath(), schemaJSON: personSchema, options: options)
        #expect(try mode(fresh) == "2")
    }
}

/// What every connection sets (`Connection.init`): statement and savepoint journals stay in
/// memory (`PRAGMA temp_store = MEMORY`), so a bulk insert writes no temporary file; up to 32 MiB
/// of the file's pages stay in its cache (`cache_size = -32768`), read with `pread`: never
/// memory-mapped (`mmap_size` 0), so a file cut short under an open read is an error, not SIGBUS
/// (tests/test_reliability_corruption.py).
@Suite struct ConnectionSettingsTests {
    @Test func everyHandleKeepsTemporaryDataInMemoryAnd32MiBOfPagesUnmapped() throws {
        let path = temporaryPath()
        let created = try openPeople(path)
        let reopened = try openPeople(path)
        for db in [created, reopened] {
            let settings = try db.serialized { (connection) throws(DrumlinError) in
                try ["temp_store", "cache_size", "mmap_size"].map { (name) throws(DrumlinError) in try connection.scalarText("PRAGMA \(name)") }
            }
            #expect(settings == ["2", "-32768", "0"])
        }
    }
}
