import DrumlinEngine
import Testing

/// Results read page by page (`Results.forEachRow(from:maxRows:)`): a page that stops before the
/// last row parks its statement, the read of the next page continues it, and any other call on the
/// database resets it first, except a read in the same read transaction.
@Suite struct PagedReadTests {
    func people(_ db: Database, _ ids: ClosedRange<Int>) throws {
        try db.write {
            for id in ids { _ = try db.create("Person", json: #"{"id": \#(id), "name": "p\#(id)", "age": \#(id % 50)}"#) }
        }
    }

    /// Two handles on one new file holding people 1 ... count.
    func twoHandles(people count: Int) throws -> (reader: Database, writer: Database) {
        let path = temporaryPath()
        let reader = try openPeople(path)
        let writer = try openPeople(path)
        try people(writer, 1 ... count)
        return (reader, writer)
    }

    /// The ids of `results`' rows, read in pages of `size`.
    func pagedIDs(_ results: Results, size: Int, between: (Int) throws -> Void = { _ in }) throws -> [Int64] {
        var ids: [Int64] = []
        var page = 0
        while true {
            let read = try results.forEachRow(from: ids.count, maxRows: size, [0]) { (row) throws(DrumlinError) in
                guard case .int(let id) = try row[0].value() else { throw DrumlinError(.internal, "id") }
                ids.append(id)
            }
            if read < size { return ids }
            page += 1
            try between(page)
        }
    }

    @Test func pagesReadEveryRowInOrder() throws {
        let db = try openPeople()
        try people(db, 1 ... 1000)
        let all = try db.objects("Person")
        #expect(try pagedIDs(all, size: 64) == (1 ... 1000).map(Int64.init))
        let filtered = try all.filter("age >= 10 AND age < 20", [])
        let expected = (1 ... 1000).filter { $0 % 50 >= 10 && $0 % 50 < 20 }.map(Int64.init)
        #expect(try pagedIDs(filtered, size: 7) == expected)
        #expect(try pagedIDs(filtered, size: expected.count) == expected)  // ends exactly on a page
        #expect(try pagedIDs(try all.sorted(by: [(keyPath: "name", ascending: false)]), size: 100).count == 1000)
    }

    @Test func pagesWithNothingBetweenThemReadOneSnapshot() throws {
        let (reader, writer) = try twoHandles(people: 300)
        // Another handle commits between the pages: the continued read does not see it.
        let ids = try pagedIDs(try reader.objects("Person"), size: 100) { page in
            if page == 1 { try people(writer, 301 ... 310) }
        }
        #expect(ids == (1 ... 300).map(Int64.init))
        // The next call (any call) sees the commit.
        #expect(try reader.objects("Person").count == 310)
    }

    @Test func anotherCallBetweenPagesEndsTheParkedReadAndThePagesStayRight() throws {
        let (reader, writer) = try twoHandles(people: 300)
        let results = try reader.objects("Person")
        // A call between the pages resets the parked read: the file is not held at its old state,
        // so the reader sees the other handle's commit and can write after it.
        let ids = try pagedIDs(results, size: 100) { page in
            guard page == 1 else { return }
            try people(writer, 301 ... 310)
            #expect(try reader.objects("Person").count == 310)
            try reader.write { _ = try reader.create("Person", json: #"{"id": 400, "name": "r"}"#) }
        }
        #expect(ids == (1 ... 310).map(Int64.init) + [400])
    }

    @Test func aReadBetweenPagesInTheSameSnapshotKeepsTheParkedRead() throws {
        let (reader, writer) = try twoHandles(people: 300)
        let results = try reader.objects("Person")
        // A loop reading another object between its pages (no commit in between) keeps its
        // statement: a commit after that read is not in the next pages, which continue the read.
        let ids = try pagedIDs(results, size: 100) { page in
            guard page == 1 else { return }
            #expect(try reader.object("Person", primaryKey: .int(250))?.value("name") == .string("p250"))
            try people(writer, 301 ... 310)
        }
        #expect(ids == (1 ... 300).map(Int64.init))
        // A read that sees a commit made since resets it: the pages after it are the results then.
        let more = try pagedIDs(results, size: 100) { page in
            guard page == 1 else { return }
            try people(writer, 311 ... 320)
            #expect(try reader.object("Person", primaryKey: .int(315))?.value("name") == .string("p315"))
        }
        #expect(more == (1 ... 320).map(Int64.init))
    }

    @Test func aPageReadAgainIsTheSameRowsAndTheReadStaysParked() throws {
        // A caller whose buffer was too small for a page reads it again: the same rows, and the
        // statement stays parked, so the pages after it are still one snapshot (a commit made
        // meanwhile is not in them). The reaper of idle reads may end the parked read should a
        // commit here take over 10 ms (a loaded machine): the pages are then the results as they
        // are after it, and the round is tried again. Without the parked read kept, no round
        // could read one snapshot.
        var oneSnapshot = false
        for _ in 0 ..< 5 where !oneSnapshot {
            let (reader, writer) = try twoHandles(people: 300)
            let results = try reader.objects("Person")
            func page(_ start: Int) throws -> [Int64] {
                var ids: [Int64] = []
                _ = try results.forEachRow(from: start, maxRows: 100, [0]) { (row) throws(DrumlinError) in
                    if case .int(let id) = try row[0].value() { ids.append(id) }
                }
                return ids
            }
            #expect(try page(0) == (1 ... 100).map(Int64.init))
            try people(writer, 301 ... 310)
            #expect(try page(0) == (1 ... 100).map(Int64.init))
            #expect(try page(100) == (101 ... 200).map(Int64.init))
            #expect(try page(100) == (101 ... 200).map(Int64.init))
            #expect(try page(200) == (201 ... 300).map(Int64.init))
            oneSnapshot = try page(300).isEmpty
            // A page asked for again after another call is read from the results as they are then.
            #expect(try page(0) == (1 ... 100).map(Int64.init))
            #expect(try reader.objects("Person").count == 310)
            #expect(try page(300) == (301 ... 310).map(Int64.init))
        }
        #expect(oneSnapshot)
    }

    @Test func aPageAskingForABadPropertyEndsTheParkedRead() throws {
        let (reader, writer) = try twoHandles(people: 300)
        let results = try reader.objects("Person")
        #expect(try results.forEachRow(from: 0, maxRows: 100, [0]) { _ in } == 100)
        try people(writer, 301 ... 310)
        // The error leaves no read open: the next call sees the other handle's commit.
        var count = 310
        for start in [0, 100] {  // the same page again, and the next one
            expectError(.invalidArgument) { _ = try results.forEachRow(from: start, maxRows: 100, [99]) { _ in } }
            #expect(try reader.objects("Person").count == count)
            #expect(try results.forEachRow(from: 0, maxRows: 100, [0]) { _ in } == 100)
            try people(writer, count + 1 ... count + 10)
            count += 10
        }
    }

    @Test func aWriteThroughTheSameHandleBetweenPagesIsSeen() throws {
        let db = try openPeople()
        try people(db, 1 ... 200)
        let ids = try pagedIDs(try db.objects("Person"), size: 50) { page in
            if page == 2 { try db.write { try db.object("Person", primaryKey: .int(1))?.delete() } }
        }
        // Pages after the write are read from the results as they are then (the first object gone).
        #expect(ids.count == 199 && ids.first == 1 && ids.last == 200)
        #expect(Set(ids).count == 199)
    }

    @Test func closingWithAParkedReadAndReadingAfterACloseAreClean() throws {
        let db = try openPeople()
        try people(db, 1 ... 100)
        let results = try db.objects("Person")
        #expect(try results.forEachRow(from: 0, maxRows: 10, [0]) { _ in } == 10)
        db.close()
        expectError(.misuse, "The database is closed.") { _ = try results.forEachRow(from: 10, maxRows: 10, [0]) { _ in } }
    }

    @Test func aFailingPageDoesNotPark() throws {
        let db = try openPeople()
        try people(db, 1 ... 100)
        let results = try db.objects("Person")
        expectError(.invalidArgument, "stop") {
            _ = try results.forEachRow(from: 0, maxRows: 10, [0]) { (row) throws(DrumlinError) in
                if case .int(5) = try row[0].value() { throw DrumlinError(.invalidArgument, "stop") }
            }
        }
        // The next page is read from its keys (nothing was parked): rows 11 ..< 21.
        var ids: [Int64] = []
        _ = try results.forEachRow(from: 10, maxRows: 10, [0]) { (row) throws(DrumlinError) in
            if case .int(let id) = try row[0].value() { ids.append(id) }
        }
        #expect(ids == (11 ... 20).map(Int64.init))
    }
}
