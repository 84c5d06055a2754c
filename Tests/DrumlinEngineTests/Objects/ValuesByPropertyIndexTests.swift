import DrumlinEngine
import Testing

/// Bytes at stable addresses, lent as `BorrowedValue.text` / `.bytes` for the length of a test.
private final class BorrowedPool {
    private var buffers: [UnsafeMutableRawBufferPointer] = []

    func text(_ string: String) -> BorrowedValue { .text(keep(Array(string.utf8))) }
    func text(bytes: [UInt8]) -> BorrowedValue { .text(keep(bytes)) }
    func bytes(_ bytes: [UInt8]) -> BorrowedValue { .bytes(keep(bytes)) }

    private func keep(_ bytes: [UInt8]) -> UnsafeRawBufferPointer {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Swift.max(bytes.count, 1), alignment: 1)
        buffer.copyBytes(from: bytes)
        buffers.append(buffer)
        return UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<bytes.count])
    }

    deinit { for buffer in buffers { buffer.deallocate() } }
}

/// Objects written and read as values by class and property index, with no JSON between: batches
/// created from borrowed values, updates by primary key, rows lent in place, cached query texts.
/// Person (Support.swift): id 0, name 1, age 2, email 3, score 4 (default 1.5), active 5 (default true).
@Suite struct ValuesByPropertyIndexTests {
    fileprivate let pool = BorrowedPool()

    /// The values of one Person row as the batch tests write them.
    func personRow(_ r: Int) -> [BorrowedValue] {
        [.int(Int64(r + 1)), pool.text("n\(r) é"), r % 3 == 0 ? .null : .int(Int64(r) - 50),
         r % 2 == 0 ? pool.text("") : .null, .double(Double(r) + 0.5), .bool(r % 4 == 0)]
    }

    func createPeople(_ db: Database, _ rows: [[BorrowedValue]], indices: [Int] = [0, 1, 2, 3, 4, 5],
                      update mode: UpdateMode = .never) throws(DrumlinError) -> Int {
        try db.createMany(classIndex: 0, propertyIndices: indices, rows: rows.count, update: mode) {
            (row, out) throws(DrumlinError) in
            for position in 0..<out.count { out[position] = rows[row][position] }
        }
    }

    // MARK: reading rows

    @Test func doublesReadBackBitForBitFromARow() throws {
        let db = try openPeople()
        // NaN and -0.0 are kept as bits, the others as REALs (ValueCodec): a row read returns each exactly.
        let scores: [Double] = [.nan, -0.0, 2.25, .infinity, -1e-300]
        let rows = scores.enumerated().map { (i, score) -> [BorrowedValue] in
            [.int(Int64(i + 1)), pool.text("p"), .null, .null, .double(score), .bool(true)]
        }
        _ = try db.write { try createPeople(db, rows) }
        for (i, score) in scores.enumerated() {
            let found = try #require(try db.objectValues(classIndex: 0, primaryKey: .int(Int64(i + 1)), propertyIndices: [4, 1]))
            guard case .double(let read) = found.1[0] else {
                Issue.record("score \(i) read as \(found.1[0])")
                continue
            }
            #expect(read.bitPattern == score.bitPattern, "score \(i)")
        }
    }

    @Test func textIsCheckedAsUTF8PastItsFirstEightBytes() throws {
        let db = try openPeople()
        var rows = [personRow(0)]
        rows[0][1] = pool.text(bytes: Array("abcdefghij".utf8) + [0xFF])
        expectError(.invalidArgument, "Element 0: Property 'Person.name': a string is not valid UTF-8.") {
            _ = try db.write { try createPeople(db, rows) }
        }
        #expect(try db.count("Person") == 0)
        rows[0][1] = pool.text("abcdefghij é ✓")
        _ = try db.write { try createPeople(db, rows) }
        let found = try #require(try db.objectValues(classIndex: 0, primaryKey: .int(1), propertyIndices: [1]))
        #expect(found.1 == [.string("abcdefghij é ✓")])
    }

    // MARK: createMany(classIndex:propertyIndices:rows:update:values:)

    @Test func createManyStoresExactValuesAcrossBatches() throws {
        let db = try openPeople()
        let rows = (0..<130).map(personRow)
        let created = try db.write { try createPeople(db, rows) }
        #expect(created == 130)
        #expect(try db.count("Person") == 130)
        #expect(try db.getJSON("Person", primaryKey: 1) == #"{"id":1,"name":"n0 é","age":null,"email":"","score":0.5,"active":true}"#)
        #expect(try db.getJSON("Person", primaryKey: 66) == #"{"id":66,"name":"n65 é","age":15,"email":null,"score":65.5,"active":false}"#)
        #expect(try db.getJSON("Person", primaryKey: 130) == #"{"id":130,"name":"n129 é","age":null,"email":null,"score":129.5,"active":false}"#)
        for r in 0..<130 {
            let found = try #require(try db.objectValues(classIndex: 0, primaryKey: .int(Int64(r + 1)), propertyIndices: [0, 1, 2, 3, 4, 5]))
            let expected: [Value] = [.int(Int64(r + 1)), .string("n\(r) é"), r % 3 == 0 ? .null : .int(Int64(r) - 50),
                                     r % 2 == 0 ? .string("") : .null, .double(Double(r) + 0.5), .bool(r % 4 == 0)]
            #expect(found.1 == expected, "row \(r)")
        }
        // Creation order is kept across the batches.
        #expect(try db.query("Person", "id > 62 AND id < 67").jsonText().hasPrefix(#"[{"id":63,"#))
    }

    @Test func createManyFillsDefaultsAndNullsAndNeedsRequiredValues() throws {
        let db = try openPeople()
        let created = try db.write {
            try db.createMany(classIndex: 0, propertyIndices: [1, 0], rows: 70) { (row, out) throws(DrumlinError) in
                out[0] = .value(.string("p\(row)"))
                out[1] = .int(Int64(row + 100))
            }
        }
        #expect(created == 70)
        #expect(try db.getJSON("Person", primaryKey: 169) == #"{"id":169,"name":"p69","age":null,"email":null,"score":1.5,"active":true}"#)
        try db.beginWrite()
        expectError(.missingValue, "Element 0: Missing value for property 'Person.name'") {
            _ = try db.createMany(classIndex: 0, propertyIndices: [0], rows: 3) { (row, out) throws(DrumlinError) in out[0] = .int(Int64(row)) }
        }
        // No rows: nothing to check, nothing written.
        #expect(try db.createMany(classIndex: 0, propertyIndices: [0], rows: 0) { (_, _) throws(DrumlinError) in
            Issue.record("fill called for an empty batch")
        } == 0)
        try db.commit()
        #expect(try db.count("Person") == 70)
    }

    @Test func createManyBadRowNamesItsElementAndWritesNothing() throws {
        let db = try openPeople()
        _ = try db.write { try createPeople(db, [personRow(999)]) }
        var rows = (0..<130).map(personRow)
        try db.beginWrite()
        rows[100][2] = pool.text("old")
        expectError(.typeMismatch, "Element 100: Type mismatch for property 'Person.age': expected int, got string.") {
            _ = try createPeople(db, rows)
        }
        rows[100][2] = .int(1)
        rows[70][0] = .int(11)
        expectError(.duplicatePrimaryKey, "Element 70: Attempting to create an object of type 'Person' with an existing primary key value '11'.") {
            _ = try createPeople(db, rows)
        }
        rows[70][0] = .int(71)
        rows[129][0] = .int(1000)  // the object created before the transaction, in the remainder
        expectError(.duplicatePrimaryKey, "Element 129: Attempting to create an object of type 'Person' with an existing primary key value '1000'.") {
            _ = try createPeople(db, rows)
        }
        rows[129][0] = .int(130)
        rows[3][1] = pool.text(bytes: [0x61, 0xFF])
        expectError(.invalidArgument, "Element 3: Property 'Person.name': a string is not valid UTF-8.") {
            _ = try createPeople(db, rows)
        }
        rows[3][1] = pool.text("ok")
        rows[64][1] = .null
        expectError(.notNullable, "Element 64: Invalid null value for non-nullable property 'Person.name'.") {
            _ = try createPeople(db, rows)
        }
        rows[64][1] = pool.text("ok")
        // An error thrown by the caller's fill is named the same way.
        expectError(.invalidArgument, "Element 80: no more rows") {
            _ = try db.createMany(classIndex: 0, propertyIndices: [0, 1], rows: 130) { (row, out) throws(DrumlinError) in
                if row == 80 { throw DrumlinError(.invalidArgument, "no more rows") }
                out[0] = .int(Int64(row + 1))
                out[1] = .value(.string("x"))
            }
        }
        expectError(.invalidArgument) { _ = try createPeople(db, rows, indices: [0, 1, 2, 3, 4, 17]) }
        expectError(.invalidArgument, "Property 'Person.id' is given more than once.") {
            _ = try createPeople(db, rows, indices: [0, 1, 2, 3, 4, 0])
        }
        #expect(try db.count("Person") == 1)
        #expect(try createPeople(db, rows) == 130)
        try db.commit()
        #expect(try db.count("Person") == 131)
        expectError(.wrongTransactionState) { _ = try createPeople(db, [personRow(500)]) }
        #expect(try db.count("Person") == 131)
    }

    @Test func createManyUpsertsExistingAndNewObjects() throws {
        let db = try openPeople()
        _ = try db.write { try createPeople(db, (0..<3).map(personRow)) }
        let update: [[BorrowedValue]] = [[.int(2), pool.text("two"), .int(22)], [.int(3), pool.text("n2 é"), .null],
                                         [.int(4), pool.text("four"), .value(.int(44))]]
        #expect(try db.write { try createPeople(db, update, indices: [0, 1, 2], update: .modified) } == 3)
        #expect(try db.count("Person") == 4)
        #expect(try db.getJSON("Person", primaryKey: 1) == #"{"id":1,"name":"n0 é","age":null,"email":"","score":0.5,"active":true}"#)
        #expect(try db.getJSON("Person", primaryKey: 2) == #"{"id":2,"name":"two","age":22,"email":null,"score":1.5,"active":false}"#)
        #expect(try db.getJSON("Person", primaryKey: 4) == #"{"id":4,"name":"four","age":44,"email":null,"score":1.5,"active":true}"#)
        // A float and a string given as Values take the same rules as the typed API.
        #expect(try db.write { try createPeople(db, [[.int(5), .value(.string("five")), .value(.float(2.5))]], indices: [0, 1, 4]) } == 1)
        #expect(try db.object("Person", primaryKey: 5)?["score"] == .double(2.5))
    }

    @Test func createManyUpsertsWriteOnlyTheGivenColumnsInPlace() throws {
        let db = try openPeople()
        _ = try db.write { try createPeople(db, (0..<4).map(personRow)) }
        // .all: existing objects get the given columns, new ones are created with defaults for the
        // rest; the count is every row.
        let scores: [[BorrowedValue]] = [[.int(2), pool.text("two"), .double(9.5)], [.int(7), pool.text("seven"), .double(7.5)],
                                         [.int(4), pool.text("four"), .int(40)]]
        #expect(try db.write { try createPeople(db, scores, indices: [0, 1, 4], update: .all) } == 3)
        #expect(try db.count("Person") == 5)
        #expect(try db.getJSON("Person", primaryKey: 2) == #"{"id":2,"name":"two","age":-49,"email":null,"score":9.5,"active":false}"#)
        #expect(try db.object("Person", primaryKey: 4)?["score"] == .double(40))  // an int given for a double
        #expect(try db.object("Person", primaryKey: 4)?["name"] == .string("four"))
        #expect(try db.getJSON("Person", primaryKey: 7) == #"{"id":7,"name":"seven","age":null,"email":null,"score":7.5,"active":true}"#)
        // Key last: the same.
        #expect(try db.write { try createPeople(db, [[.double(1.25), .int(1)]], indices: [4, 0], update: .all) } == 1)
        #expect(try db.object("Person", primaryKey: 1)?["score"] == .double(1.25))
        // .modified: an unchanged row, a changed one, a new one.
        let mixed: [[BorrowedValue]] = [[.int(2), pool.text("two"), .double(9.5)], [.int(3), pool.text("n2 é"), .double(0.0)],
                                        [.int(8), pool.text("eight"), .double(8.5)]]
        #expect(try db.write { try createPeople(db, mixed, indices: [0, 1, 4], update: .modified) } == 3)
        #expect(try db.count("Person") == 6)
        #expect(try db.object("Person", primaryKey: 3)?["score"] == .double(0.0))
        #expect(try db.object("Person", primaryKey: 8)?["score"] == .double(8.5))
        // A new object needs its required properties: the general path says which.
        expectError(.missingValue, "Element 1: Missing value for property 'Person.name'") {
            _ = try db.write { try createPeople(db, [[.int(2), .double(3)], [.int(99), .double(1)]], indices: [0, 4], update: .all) }
        }
        // Errors name the element and the property, and undo the whole batch.
        expectError(.typeMismatch, "Element 1: Type mismatch for property 'Person.score': expected double, got string.") {
            _ = try db.write { try createPeople(db, [[.int(2), .double(1)], [.int(3), pool.text("x")]], indices: [0, 4], update: .all) }
        }
        expectError(.notNullable, "Element 0: Invalid null value for non-nullable property 'Person.id'.") {
            _ = try db.write { try createPeople(db, [[.null, .double(1)]], indices: [0, 4], update: .modified) }
        }
        expectError(.notNullable, "Element 0: Invalid null value for non-nullable property 'Person.score'.") {
            _ = try db.write { try createPeople(db, [[.int(2), .null]], indices: [0, 4], update: .all) }
        }
        #expect(try db.object("Person", primaryKey: 2)?["score"] == .double(9.5))  // every batch undone
        #expect(try db.count("Person") == 6)
    }

    // MARK: updateValues(classIndex:primaryKey:propertyIndices:values:)

    @Test func updateValuesWritesPropertiesAndReportsMissingObjects() throws {
        let db = try openPeople()
        _ = try db.write { try createPeople(db, (0..<3).map(personRow)) }
        let values: [BorrowedValue] = [pool.text("Zoë"), .int(41), pool.text("z@example.com"), .int(7), .bool(false)]
        try db.beginWrite()
        #expect(try db.updateValues(classIndex: 0, primaryKey: .int(2), propertyIndices: [1, 2, 3, 4, 5]) { values[$0] })
        #expect(try db.updateValues(classIndex: 0, primaryKey: 3, propertyIndices: [2]) { _ in .value(.int(-3)) })
        #expect(try !db.updateValues(classIndex: 0, primaryKey: .int(99), propertyIndices: [1]) { _ in pool.text("ghost") })
        #expect(try !db.updateValues(classIndex: 0, primaryKey: .int(99), propertyIndices: []) { _ in .null })
        #expect(try db.updateValues(classIndex: 0, primaryKey: .int(1), propertyIndices: []) { _ in .null })
        try db.commit()
        #expect(try db.getJSON("Person", primaryKey: 2) == #"{"id":2,"name":"Zoë","age":41,"email":"z@example.com","score":7.0,"active":false}"#)
        #expect(try db.getJSON("Person", primaryKey: 3) == #"{"id":3,"name":"n2 é","age":-3,"email":"","score":2.5,"active":false}"#)
        #expect(try db.getJSON("Person", primaryKey: 1) == #"{"id":1,"name":"n0 é","age":null,"email":"","score":0.5,"active":true}"#)
        #expect(try db.count("Person") == 3)
        #expect(try db.query("Person", "name == 'ghost'").count == 0)
    }

    @Test func updateValuesErrorsWriteNothing() throws {
        let db = try openPeople()
        _ = try db.write { try createPeople(db, [personRow(0)]) }
        let before = try db.getJSON("Person", primaryKey: 1)
        try db.beginWrite()
        expectError(.typeMismatch, "Type mismatch for property 'Person.age': expected int, got string.") {
            let values: [BorrowedValue] = [pool.text("changed"), pool.text("old")]
            try db.updateValues(classIndex: 0, primaryKey: .int(1), propertyIndices: [1, 2]) { values[$0] }
        }
        expectError(.notNullable, "Invalid null value for non-nullable property 'Person.name'.") {
            let values: [BorrowedValue] = [.int(5), .null]
            try db.updateValues(classIndex: 0, primaryKey: .int(1), propertyIndices: [2, 1]) { values[$0] }
        }
        expectError(.invalidArgument, "Property 'Person.age' is given more than once.") {
            try db.updateValues(classIndex: 0, primaryKey: .int(1), propertyIndices: [2, 2]) { _ in .int(5) }
        }
        expectError(.primaryKeyImmutable, "Cannot modify primary key after creation: 'Person.id'") {
            let values: [BorrowedValue] = [.int(2), pool.text("moved")]
            try db.updateValues(classIndex: 0, primaryKey: .int(1), propertyIndices: [0, 1]) { values[$0] }
        }
        expectError(.invalidArgument, "the caller gave up") {
            try db.updateValues(classIndex: 0, primaryKey: .int(1), propertyIndices: [2, 3]) { (position) throws(DrumlinError) in
                if position == 1 { throw DrumlinError(.invalidArgument, "the caller gave up") }
                return .int(5)
            }
        }
        expectError(.invalidArgument) {
            try db.updateValues(classIndex: 0, primaryKey: .int(1), propertyIndices: [12]) { _ in .int(5) }
        }
        // The same key is accepted (the general path), and the other value is written.
        let same: [BorrowedValue] = [.int(1), .value(.string("same key"))]
        #expect(try db.updateValues(classIndex: 0, primaryKey: .int(1), propertyIndices: [0, 1]) { same[$0] })
        try db.commit()
        #expect(before == #"{"id":1,"name":"n0 é","age":null,"email":"","score":0.5,"active":true}"#)
        #expect(try db.getJSON("Person", primaryKey: 1) == #"{"id":1,"name":"same key","age":null,"email":"","score":0.5,"active":true}"#)
        expectError(.wrongTransactionState) {
            try db.updateValues(classIndex: 0, primaryKey: .int(1), propertyIndices: [2]) { _ in .int(5) }
        }
        #expect(try db.object("Person", primaryKey: 1)?["age"] == .null)
        #expect(try db.count("Person") == 1)
    }

    @Test func updateValuesTakesTheGeneralPathForListsAndLinks() throws {
        let db = try Database(path: ":memory:", schemaJSON: """
            [{"name": "Node", "primaryKey": "code", "properties": {
               "code": "string", "n": "int", "tags": "string[]", "next": "Node",
               "body": {"type": "string", "indexed": "full-text", "optional": true}}}]
            """)
        let (n, tags, next, body) = (try db.propertyIndex("Node", "n"), try db.propertyIndex("Node", "tags"),
                                     try db.propertyIndex("Node", "next"), try db.propertyIndex("Node", "body"))
        let b = try db.write { () -> Object in
            try db.create("Node", json: #"{"code": "a", "n": 1, "tags": ["x"]}"#)
            return try db.create("Node", json: #"{"code": "b", "n": 2}"#)
        }
        let values: [BorrowedValue] = [.int(10), .value(.list([.string("p"), .string("q")])),
                                       .value(.link(ObjectLink(classIndex: 0, key: b.key))), pool.text("gamma delta")]
        try db.beginWrite()
        #expect(try db.updateValues(classIndex: 0, primaryKey: "a", propertyIndices: [n, tags, next, body]) { values[$0] })
        #expect(try !db.updateValues(classIndex: 0, primaryKey: "zz", propertyIndices: [n, tags]) { values[$0] })
        try db.commit()
        #expect(try db.getJSON("Node", primaryKey: "a") == #"{"code":"a","n":10,"tags":["p","q"],"next":"b","body":"gamma delta"}"#)
        #expect(try db.query("Node", "body TEXT 'gamma'").count == 1)
        // The one-UPDATE path keeps the full-text index current too.
        try db.beginWrite()
        #expect(try db.updateValues(classIndex: 0, primaryKey: "b", propertyIndices: [body]) { _ in pool.text("epsilon") })
        try db.commit()
        #expect(try db.query("Node", "body TEXT 'epsilon'").count == 1)
        #expect(try db.query("Node", "body TEXT 'gamma'").count == 1)
        try db.beginWrite()
        expectError(.typeMismatch, "Type mismatch for property 'Node.tags': expected a list, got string.") {
            let bad: [BorrowedValue] = [.int(11), pool.text("not a list")]
            try db.updateValues(classIndex: 0, primaryKey: "a", propertyIndices: [n, tags]) { bad[$0] }
        }
        try db.commit()
        #expect(try db.object("Node", primaryKey: "a")?["n"] == .int(10))
    }

    @Test func updateValuesFindsTheNullPrimaryKey() throws {
        let db = try Database(path: ":memory:", schemaJSON: #"[{"name": "M", "primaryKey": "id", "properties": {"id": "int?", "n": "int"}}]"#)
        try db.write {
            try db.create("M", json: #"{"id": null, "n": 1}"#)
            try db.create("M", json: #"{"id": 5, "n": 2}"#)
        }
        try db.beginWrite()
        #expect(try db.updateValues(classIndex: 0, primaryKey: 5, propertyIndices: [1]) { _ in .int(50) })
        // Regression: the one-UPDATE path compared `id = NULL`, which matches nothing.
        #expect(try db.updateValues(classIndex: 0, primaryKey: .null, propertyIndices: [1]) { _ in .int(10) })
        #expect(try db.getJSON("M", primaryKey: .null) == #"{"id":null,"n":10}"#)
        try db.commit()
        #expect(try db.getJSON("M", primaryKey: 5) == #"{"id":5,"n":50}"#)
    }

    // MARK: withObjectRow / objectValues

    @Test func withObjectRowLendsTheRowInPlace() throws {
        let db = try openPeople()
        _ = try db.write { try createPeople(db, (0..<3).map(personRow)) }
        let object = try #require(try db.object("Person", primaryKey: 2))
        var calls = 0
        let result = try db.withObjectRow(classIndex: 0, primaryKey: .int(2), propertyIndices: [1, 2, 3, 4, 5, 0, 1]) {
            (row) throws(DrumlinError) -> String in
            calls += 1
            #expect(row.count == 7)
            #expect(row.key == object.key)
            #expect(row.object == object)
            guard case .text(let name) = try row[0] else {
                Issue.record("name is not borrowed text: \(String(describing: try? row[0]))")
                return ""
            }
            #expect(Array(name) == Array("n1 é".utf8))
            if case .int(let age) = try row[1] { #expect(age == -49) } else { Issue.record("age: \(String(describing: try? row[1]))") }
            if case .null = try row[2] {} else { Issue.record("email: \(String(describing: try? row[2]))") }
            #expect(try row[3].value() == .double(1.5))  // doubles may come as .double or .value
            if case .bool(let active) = try row[4] { #expect(!active) } else { Issue.record("active: \(String(describing: try? row[4]))") }
            var seen: [Value] = []
            try row.forEach { (position, value) throws(DrumlinError) in
                #expect(position == seen.count)
                seen.append(try value.value())
            }
            #expect(seen == [.string("n1 é"), .int(-49), .null, .double(1.5), .bool(false), .int(2), .string("n1 é")])
            return String(decoding: name, as: UTF8.self)
        }
        #expect(result == "n1 é")
        #expect(calls == 1)
        let missing = try db.withObjectRow(classIndex: 0, primaryKey: .int(42), propertyIndices: [1]) { (_) throws(DrumlinError) -> Int in
            Issue.record("body called for a missing object")
            return 1
        }
        #expect(missing == nil)
        expectError(.invalidArgument) {
            _ = try db.withObjectRow(classIndex: 0, primaryKey: .int(2), propertyIndices: [9]) { (_) throws(DrumlinError) in 0 }
        }
        expectError(.callback, "from the body") {
            _ = try db.withObjectRow(classIndex: 0, primaryKey: .int(2), propertyIndices: [1]) { (_) throws(DrumlinError) -> Int in
                throw DrumlinError(.callback, "from the body")
            }
        }
    }

    @Test func visitObjectRowReportsWhetherTheObjectExists() throws {
        let db = try openPeople()
        _ = try db.write { try createPeople(db, (0..<2).map(personRow)) }
        var names: [String] = []
        let found = try db.visitObjectRow(classIndex: 0, primaryKey: .int(1), propertyIndices: [1]) { (row) throws(DrumlinError) in
            #expect(row.className == "Person")
            if case .string(let name) = try row[0].value() { names.append(name) }
        }
        #expect(found)
        #expect(names == ["n0 é"])
        let missing = try db.visitObjectRow(classIndex: 0, primaryKey: .int(99), propertyIndices: [1]) { (_) throws(DrumlinError) in
            Issue.record("body called for a missing object")
        }
        #expect(!missing)
        // Object.withRow returns the body's result, Optional results included.
        let object = try #require(try db.object("Person", primaryKey: 2))
        let age: Int64?? = try object.withRow([2]) { (row) throws(DrumlinError) -> Int64? in
            if case .int(let age) = try row[0] { return age }
            return nil
        }
        #expect(age == .some(-49))
        let none: Int64?? = try object.withRow([3]) { (_) throws(DrumlinError) -> Int64? in nil }
        #expect(none == .some(nil))
    }

    @Test func resultsRowsFromAPositionStreamOrReadByKey() throws {
        let db = try openPeople()
        _ = try db.write { try createPeople(db, (0..<6).map(personRow)) }
        let results = try db.query("Person", "score > $0", [.double(1.0)])  // ids 2...6
        func ids(_ start: Int, _ maxRows: Int) throws -> [Int64] {
            var seen: [Int64] = []
            let count = try results.forEachRow(from: start, maxRows: maxRows, [0, 1]) { (row) throws(DrumlinError) in
                #expect(row.count == 2)
                if case .int(let id) = try row[0].value() { seen.append(id) }
            }
            #expect(count == seen.count)
            return seen
        }
        #expect(try ids(0, 10) == [2, 3, 4, 5, 6])  // streamed
        #expect(try ids(0, 2) == [2, 3])
        #expect(try ids(2, 2) == [4, 5])  // by key
        #expect(try ids(4, 2) == [6])
        #expect(try ids(5, 2) == [])
        #expect(try ids(1, 0) == [])
        expectError(.invalidArgument, "start and max_rows must not be negative.") { _ = try ids(-1, 2) }
        expectError(.invalidArgument, "Property index 9 is out of range for 'Person' (6 properties).") {
            _ = try results.forEachRow(from: 0, maxRows: 1, [9]) { (_) throws(DrumlinError) in }
        }
    }

    @Test func objectValuesReadsRowsAndCollections() throws {
        let db = try Database(path: ":memory:", schemaJSON: """
            [{"name": "Item", "primaryKey": "code", "properties": {
               "code": "string?", "n": "int", "when": "date?", "blob": "data?", "tags": "string[]", "extra": "mixed"}}]
            """)
        try db.write {
            try db.create("Item", json: #"{"code": "a", "n": 1, "when": {"$date": "2023-11-14T22:13:20.5Z"}, "blob": {"$binary": {"base64": "AAH/", "subType": "00"}}, "tags": ["x", "y"], "extra": 2.5}"#)
            try db.create("Item", json: #"{"code": null, "n": 2}"#)
        }
        // Columns only: read in place.
        let (object, values) = try #require(try db.objectValues(classIndex: 0, primaryKey: "a", propertyIndices: [1, 3, 0]))
        #expect(values == [.int(1), .data([0, 1, 255]), .string("a")])
        #expect(try object["n"] == .int(1))
        let dated = try #require(try db.objectValues(classIndex: 0, primaryKey: "a", propertyIndices: [2]))
        #expect(try dated.1 == [db.object("Item", primaryKey: "a")!["when"]])
        #expect(dated.1 != [.null])
        // A list and a mixed value: the general path.
        let (_, more) = try #require(try db.objectValues(classIndex: 0, primaryKey: "a", propertyIndices: [4, 5, 1]))
        #expect(more == [.list([.string("x"), .string("y")]), .double(2.5), .int(1)])
        // The null key.
        let (nullObject, nullValues) = try #require(try db.objectValues(classIndex: 0, primaryKey: .null, propertyIndices: [0, 1, 3, 4]))
        #expect(nullValues == [.null, .int(2), .null, .list([])])
        #expect(try nullObject["n"] == .int(2))
        #expect(try db.objectValues(classIndex: 0, primaryKey: "b", propertyIndices: [1]) == nil)
        expectError(.typeMismatch) { _ = try db.objectValues(classIndex: 0, primaryKey: .int(1), propertyIndices: [1]) }
    }

    // MARK: Parsed-query cache

    @Test func cachedQueryTextsBindTheirOwnArguments() throws {
        let db = try openPeople()
        _ = try db.write { try createPeople(db, (0..<10).map(personRow)) }
        // Same text, different arguments: each Results sees its own.
        #expect(try db.query("Person", "id == $0", [.int(3)]).count == 1)
        #expect(try db.query("Person", "id == $0", [.int(42)]).count == 0)
        #expect(try db.query("Person", "id > $0", [.int(7)]).count == 3)
        // More distinct texts than the cache holds: it is emptied and refilled, answers unchanged.
        for limit in 0..<(Database.parsedQueryLimit + 10) {
            #expect(try db.query("Person", "id <= \(limit)").count == Swift.min(limit, 10))
        }
        #expect(try db.query("Person", "id == $0", [.int(5)]).count == 1)
        // A bad text is reported every time, not cached.
        for _ in 0..<2 { expectError(.query) { _ = try db.query("Person", "id ==") } }
    }
}
