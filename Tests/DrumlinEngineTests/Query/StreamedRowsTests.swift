import DrumlinEngine
import DrumlinValues
import Testing

/// Results of classes with links, embedded objects, collections, mixed values and backlinks
/// stream their rows from one statement (`Results.forEachRow`), as classes of plain columns do:
/// what they read must be what reading each object by its key reads (`Object.values(at:)`).
@Suite struct StreamedRowsTests {
    static let schema = """
    [{"name": "User", "primaryKey": "id", "properties": {"id": "int", "name": "string",
       "tasks": {"type": "linkingObjects", "objectType": "Task", "property": "owner"}}},
     {"name": "Task", "primaryKey": "id", "properties": {
       "id": "int", "title": "string", "done": "bool", "due": "date", "estimate": "decimal128?",
       "extra": "mixed", "owner": "User?", "tags": "string[]", "location": "Location?",
       "scores": "double{}"}},
     {"name": "Location", "embedded": true, "properties": {"city": "string", "street": "string"}}]
    """

    /// Ten tasks of every shape: no owner, an owner that is deleted below, nested mixed lists and
    /// dictionaries, a mixed link, empty and full collections, no location.
    func open(_ path: String = ":memory:") throws -> Database {
        let db = try Database(path: path, schemaJSON: Self.schema)
        try db.write {
            for user in 1 ... 3 { _ = try db.create("User", json: #"{"id": \#(user), "name": "u\#(user)"}"#) }
            for id in 1 ... 10 {
                let extra = [#"\#(id)"#, #""x\#(id)""#, #"[1, {"a": [\#(id), "b"]}]"#, #"{"k": \#(id).5}"#, "null",
                             #"{"$link": {"class": "User", "key": 2}}"#][id % 6]
                let owner = id % 4 == 0 ? "null" : "\(1 + id % 3)"
                let tags = (0 ..< id % 4).map { #""t\#($0)""# }.joined(separator: ", ")
                let location = id % 5 == 0 ? "null" : #"{"city": "c\#(id)", "street": "\#(id) Main"}"#
                let estimate = id % 3 == 0 ? "null" : #"{"$numberDecimal": "\#(id).25"}"#
                _ = try db.create("Task", json: """
                    {"id": \(id), "title": "task \(id)", "done": \(id % 2 == 0), "due": {"$date": {"$numberLong": "\(id * 86_400_000)"}},
                     "estimate": \(estimate), "extra": \(extra), "owner": \(owner), "tags": [\(tags)], "location": \(location),
                     "scores": {"a": \(id), "b": -\(id).5}}
                    """)
            }
            // A deleted link target: the links to it read as null.
            try db.object("User", primaryKey: .int(3))?.delete()
        }
        return db
    }

    /// Every row of `results` (`indices` of it), read in pages of `size` through `forEachRow`;
    /// `between(page)` runs after each full page.
    func pagedRows(_ results: Results, _ indices: [Int], size: Int,
                   between: (Int) throws -> Void = { _ in }) throws -> [(key: Int64, values: [Value])] {
        var rows: [(key: Int64, values: [Value])] = []
        var page = 0
        while true {
            let read = try results.forEachRow(from: rows.count, maxRows: size, indices) { (row) throws(DrumlinError) in
                var values: [Value] = []
                try row.forEach { (_, value) throws(DrumlinError) in values.append(try value.value()) }
                rows.append((row.key, values))
            }
            if read < size { return rows }
            page += 1
            try between(page)
        }
    }

    /// The same rows read object by object, by key.
    func rowsByKey(_ results: Results, _ indices: [Int]) throws -> [(key: Int64, values: [Value])] {
        try results.objects.map { ($0.key, try $0.values(at: indices)) }
    }

    func expectSameRows(_ streamed: [(key: Int64, values: [Value])], _ byKey: [(key: Int64, values: [Value])],
                        sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(streamed.map(\.key) == byKey.map(\.key), sourceLocation: sourceLocation)
        #expect(streamed.map(\.values) == byKey.map(\.values), sourceLocation: sourceLocation)
    }

    @Test func streamedRowsAreTheRowsReadByKey() throws {
        let db = try open()
        let taskClass = try db.classIndex("Task")
        let all = Array(0 ..< (try db.propertyCount(classIndex: taskClass)))
        let inRow = try db.rowPropertyIndices(classIndex: taskClass)
        let tasks = try db.objects("Task")
        let open = try db.query("Task", "done == false")
        for results in [tasks, open] {
            for indices in [all, inRow, [7, 5, 0], []] {
                let byKey = try rowsByKey(results, indices)
                #expect(byKey.count == (results === tasks ? 10 : 5))
                for size in [1, 3, 4, 100] { expectSameRows(try pagedRows(results, indices, size: size), byKey) }
            }
        }
        // Backlinks are read per row too.
        let users = try db.objects("User")
        expectSameRows(try pagedRows(users, [0, 1, 2], size: 1), try rowsByKey(users, [0, 1, 2]))
    }

    @Test func streamedRowsHoldTheValuesWritten() throws {
        let db = try open()
        let names = ["id", "title", "estimate", "extra", "owner", "tags", "location"]
        let indices = try names.map { try db.propertyIndex("Task", $0) }
        let rows = try pagedRows(try db.query("Task", "id IN {2, 3, 4, 5}"), indices, size: 2)
        #expect(rows.map(\.values[0]) == [.int(2), .int(3), .int(4), .int(5)])
        #expect(rows.map(\.values[1]) == [.string("task 2"), .string("task 3"), .string("task 4"), .string("task 5")])
        #expect(rows[0].values[2] == .decimal(Decimal128(string: "2.25")!))
        #expect(rows[1].values[2] == .null)
        // Task 2's owner (user 3) was deleted; task 3's is user 1; task 4 has none.
        #expect(rows[0].values[4] == .null)
        #expect(rows[1].values[4] == .link(ObjectLink(classIndex: try db.classIndex("User"), key: 1)))
        #expect(rows[2].values[4] == .null)
        #expect(rows[0].values[3] == .list([.int(1), .dictionary([(key: "a", value: .list([.int(2), .string("b")]))])]))
        #expect(rows[1].values[3] == .dictionary([(key: "k", value: .double(3.5))]))
        #expect(rows[0].values[5] == .list([.string("t0"), .string("t1")]))
        #expect(rows[2].values[5] == .list([]))
        // The embedded object is a link to its row; task 5 has none.
        guard case .link = rows[0].values[6] else { Issue.record("location: \(rows[0].values[6])"); return }
        #expect(rows[3].values[6] == .null)
    }

    @Test func aWriteBetweenPagesGivesTheRowsAsTheyAreThen() throws {
        let db = try open()
        let taskClass = try db.classIndex("Task")
        let all = Array(0 ..< (try db.propertyCount(classIndex: taskClass)))
        let tasks = try db.objects("Task")
        var before: [(key: Int64, values: [Value])] = []
        let rows = try pagedRows(tasks, all, size: 4) { page in
            guard page == 1 else { return }
            before = try rowsByKey(tasks, all)
            try db.write {
                // An object of the first page, one of the next, a link target and a tag.
                try db.object("Task", primaryKey: .int(2))?.delete()
                try db.object("Task", primaryKey: .int(6))?.delete()
                try db.object("User", primaryKey: .int(1))?.delete()
                try db.object("Task", primaryKey: .int(7))?.set("tags", to: .list([.string("new")]))
            }
        }
        // The first page as it was, then the rest from position 4 of the results as they are now.
        let after = try rowsByKey(tasks, all)
        #expect(after.map(\.key).count == 8)
        expectSameRows(Array(rows.prefix(4)), Array(before.prefix(4)))
        expectSameRows(Array(rows.dropFirst(4)), Array(after.dropFirst(4)))
        let tags = try db.propertyIndex("Task", "tags")
        let owner = try db.propertyIndex("Task", "owner")
        let seventh = try #require(rows.first { $0.values[0] == .int(7) })
        #expect(seventh.values[tags] == .list([.string("new")]))
        let ninth = try #require(rows.first { $0.values[0] == .int(9) })
        #expect(seventh.values[owner] == .link(ObjectLink(classIndex: try db.classIndex("User"), key: 2)))
        #expect(ninth.values[owner] == .null)  // user 1, deleted between the pages
    }

    @Test func anotherHandlesCommitBetweenPagesIsNotSeenByTheContinuedRead() throws {
        let path = temporaryPath()
        let reader = try open(path)
        let writer = try Database(path: path, schemaJSON: Self.schema)
        let results = try reader.objects("Task")
        let indices = Array(0 ..< (try reader.propertyCount(classIndex: try reader.classIndex("Task"))))
        let expected = try rowsByKey(results, indices)
        let rows = try pagedRows(results, indices, size: 3) { page in
            guard page == 1 else { return }
            try writer.write {
                try writer.object("Task", primaryKey: .int(8))?.set("tags", to: .list([.string("late")]))
                _ = try writer.create("Task", json: #"{"id": 11, "title": "t", "done": false, "due": {"$date": 0}}"#)
            }
        }
        // One snapshot: the rows as they were when the first page was read.
        expectSameRows(rows, expected)
        #expect(try reader.objects("Task").count == 11)
    }
}
