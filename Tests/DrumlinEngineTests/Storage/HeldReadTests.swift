import CSQLite
@testable import DrumlinEngine
@testable import DrumlinStorage
import DrumlinValues
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Read transactions held between read calls (File/HeldRead.swift): each read still sees every
/// commit made before it, writes and maintenance end the held read first, and an idle one is
/// ended by the reaper. Serialized: some tests pause the process's one reaper.
@Suite(.serialized) struct HeldReadTests {
    /// A file with Person 1 (age 0), a reader and a writer on it.
    private func twoHandles() throws -> (path: String, reader: Database, writer: Database) {
        let path = temporaryPath()
        let reader = try openPeople(path)
        let writer = try openPeople(path)
        try writer.write { _ = try writer.create("Person", json: #"{"id": 1, "name": "Ann", "age": 0}"#) }
        return (path, reader, writer)
    }

    /// `PRAGMA wal_checkpoint(TRUNCATE)` on a connection of its own that does not wait: whether a
    /// reader kept it from finishing (SQLite's "busy" column).
    private func truncateIsBlocked(_ path: String) throws -> Bool {
        let connection = try Connection(path: path, flags: SQLITE_OPEN_READWRITE, busyTimeout: 0)
        defer { connection.close() }
        return try connection.scalarText("PRAGMA wal_checkpoint(TRUNCATE)") == "1"
    }

    private func age(_ db: Database) throws -> Value? {
        try db.object("Person", primaryKey: .int(1))?.value("age")
    }

    @Test func aReadIsHeldAndStillSeesEveryCommitMadeBeforeIt() throws {
        HeldReadReaper.shared.setPaused(true)
        defer { HeldReadReaper.shared.setPaused(false) }
        let (path, reader, writer) = try twoHandles()
        #expect(try age(reader) == .int(0))
        #expect(reader.heldRead != nil)
        #expect(try truncateIsBlocked(path))
        for value in 1...40 {
            try writer.write { try writer.object("Person", primaryKey: .int(1))!.set("age", to: .int(Int64(value))) }
            // Each way of reading sees the commit: by primary key, a query, a count.
            #expect(try age(reader) == .int(Int64(value)))
            #expect(try reader.objects("Person").filter("age == $0", [.int(Int64(value))]).count == 1)
            #expect(reader.heldRead != nil)
        }
        try writer.write { _ = try writer.create("Person", json: #"{"id": 2, "name": "Bo"}"#) }
        #expect(try reader.count("Person") == 2)
    }

    @Test func writesCloseAndReadsInAWriteEndOrSkipTheHeldRead() throws {
        HeldReadReaper.shared.setPaused(true)
        defer { HeldReadReaper.shared.setPaused(false) }
        let (path, reader, _) = try twoHandles()
        #expect(try age(reader) == .int(0))
        #expect(reader.heldRead != nil)
        // A write transaction ends it first, and reads inside one are not held.
        try reader.beginWrite()
        #expect(reader.heldRead == nil)
        try reader.object("Person", primaryKey: .int(1))!.set("age", to: .int(7))
        #expect(try age(reader) == .int(7))
        #expect(reader.heldRead == nil)
        try reader.commit()
        #expect(try age(reader) == .int(7))
        #expect(reader.heldRead != nil)
        // refresh() (like every call that is not a read) ends it: the log can be truncated.
        #expect(try truncateIsBlocked(path))
        _ = try reader.refresh()
        #expect(reader.heldRead == nil)
        #expect(try !truncateIsBlocked(path))
        // Over an empty log a read holds the database file alone (SQLite's read mark 0), which
        // keeps no checkpoint from truncating the log; close() ends it too.
        #expect(try age(reader) == .int(7))
        #expect(reader.heldRead != nil)
        #expect(try !truncateIsBlocked(path))
        reader.close()
        #expect(reader.heldRead == nil)
    }

    @Test func anIdleHeldReadIsEndedByTheReaper() throws {
        let (path, reader, _) = try twoHandles()
        #expect(try age(reader) == .int(0))
        var waited = 0
        while reader.lock.tryWithLock({ reader.heldRead != nil }) != false, waited < 5000 {
            usleep(2000)
            waited += 2
        }
        #expect(reader.lock.tryWithLock({ reader.heldRead }) == .some(nil))
        #expect(try !truncateIsBlocked(path))
    }

    @Test func compactFromAnotherHandleWaitsForAnIdleHeldRead() throws {
        let (path, reader, writer) = try twoHandles()
        #expect(try age(reader) == .int(0))
        try writer.compact()  // waits (busy timeout) for the reaper to end the reader's held read
        #expect(try !truncateIsBlocked(path))
        #expect(try age(reader) == .int(0))
    }

    @Test func anIdleParkedPageIsResetByTheReaperAndTheNextPageReadsByKey() throws {
        let (path, reader, writer) = try twoHandles()
        try writer.write {
            for id in 2...10 { _ = try writer.create("Person", json: #"{"id": \#(id), "name": "P\#(id)", "age": 0}"#) }
        }
        let results = try reader.query("Person", "age == 0", [])
        func ids(_ start: Int, _ maxRows: Int) throws -> [Int64] {
            var seen: [Int64] = []
            _ = try results.forEachRow(from: start, maxRows: maxRows, [0]) { (row) throws(DrumlinError) in
                if case .int(let id) = try row[0].value() { seen.append(id) }
            }
            return seen
        }
        HeldReadReaper.shared.setPaused(true)
        #expect(try ids(0, 3) == [1, 2, 3])  // parks its statement at row 3
        #expect(reader.parkedRows != nil)
        HeldReadReaper.shared.setPaused(false)
        var waited = 0
        while reader.lock.tryWithLock({ reader.parkedRows != nil || reader.heldRead != nil }) != false, waited < 5000 {
            usleep(2000)
            waited += 2
        }
        #expect(reader.lock.tryWithLock({ reader.parkedRows == nil && reader.heldRead == nil }) == true)
        #expect(try !truncateIsBlocked(path))
        #expect(try ids(3, 4) == [4, 5, 6, 7])  // by key, the same rows the statement would have given
    }

    @Test func aLargeLogThatIsNotCopiedYetIsNotHeld() {
        func header(_ frames: UInt32, _ copied: UInt32) -> WALHeader {
            var header = WALHeader()
            header.frames = frames
            header.copied = copied
            return header
        }
        #expect(header(0, 0).allowsHolding)
        #expect(header(999, 0).allowsHolding)
        #expect(!header(1000, 0).allowsHolding)
        #expect(!header(5000, 4999).allowsHolding)
        #expect(header(5000, 5000).allowsHolding)
        // The counts are not part of what a header is compared by: a checkpoint moves them
        // without a commit.
        #expect(header(10, 0) == header(10, 10))
    }

    @Test func memoryDatabasesAndMigrationsDoNotHold() throws {
        let db = try openPeople()
        try db.write { _ = try db.create("Person", json: #"{"id": 1, "name": "Ann"}"#) }
        #expect(try db.count("Person") == 1)
        #expect(!db.holdsReads)
        #expect(db.heldRead == nil)
    }
}
