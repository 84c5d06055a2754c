@testable import DrumlinEngine
import Testing

/// `x BETWEEN {low, high}` is `x >= low AND x <= high`; for a column against two parameters the
/// compiler writes SQLite's `BETWEEN`, which reads the column once (QueryCompiler+Comparisons.swift).
@Suite struct QueryBetweenTests {
    static let schema = """
    [{"name": "Item", "primaryKey": "id", "properties": {
       "id": "int", "n": "int?", "x": "double", "d": "date?", "s": "string?", "m": "mixed", "odd-name": "int"}}]
    """

    func open() throws -> Database {
        let db = try Database(path: ":memory:", schemaJSON: Self.schema)
        try db.write {
            let items = [
                #"{"id": 1, "n": 5, "x": 1.5, "d": {"$date": "2024-01-01T00:00:00Z"}, "s": "b", "m": 3, "odd-name": 1}"#,
                #"{"id": 2, "n": null, "x": -0.0, "d": null, "s": null, "m": "c", "odd-name": 5}"#,
                #"{"id": 3, "n": 10, "x": 10, "d": {"$date": "2025-06-01T00:00:00Z"}, "s": "d", "m": 7.5, "odd-name": 10}"#,
                #"{"id": 4, "n": 11, "x": 3, "d": {"$date": "2023-01-01T00:00:00Z"}, "s": "a", "m": null, "odd-name": 11}"#,
                #"{"id": 5, "n": 7, "x": 5.25, "d": {"$date": "2024-07-01T00:00:00Z"}, "s": "c", "m": 10, "odd-name": 7}"#,
            ]
            for item in items { _ = try db.create("Item", json: item) }
        }
        return db
    }

    func ids(_ db: Database, _ query: String, _ arguments: [Value] = []) throws -> [Int64] {
        var read: [Int64] = []
        let results = try db.query("Item", query, arguments)
        // In pages of two, so the parked statement is read too.
        while try results.forEachRow(from: read.count, maxRows: 2, [0], { (row) throws(DrumlinError) in
            guard case .int(let id) = try row[0].value() else { throw DrumlinError(.internal, "id") }
            read.append(id)
        }) == 2 {}
        return read
    }

    @Test func aColumnAgainstTwoParametersIsOneBetween() {
        #expect(QueryCompiler.between(#"t0."n""#, #"t0."n" >= ?1"#, #"t0."n" <= ?12"#) == #"t0."n" BETWEEN ?1 AND ?12"#)
        #expect(QueryCompiler.between(#"t0."odd ""name""#, #"t0."odd ""name" >= ?3"#, #"t0."odd ""name" <= ?4"#)
                == #"t0."odd ""name" BETWEEN ?3 AND ?4"#)
        // Anything but `column >= ?n` and `column <= ?m` stays two comparisons.
        #expect(QueryCompiler.between(#"t0."n""#, #"t0."n" >= ?1 AND t0."n" IS NOT NULL"#, #"t0."n" <= ?2"#) == nil)
        #expect(QueryCompiler.between(#"t0."n""#, #"t0."n" <= ?1"#, #"t0."n" >= ?2"#) == nil)
        #expect(QueryCompiler.between(#"t0."n""#, #"t0."n" >= 5"#, #"t0."n" <= ?2"#) == nil)
        #expect(QueryCompiler.between(#"t0."n""#, #"t0."n" >= ?"#, #"t0."n" <= ?2"#) == nil)
        #expect(QueryCompiler.between(#"a = t0."n""#, #"a = t0."n" >= ?1"#, #"a = t0."n" <= ?2"#) == nil)
        #expect(QueryCompiler.between(#"t0."a" || t0."n""#, #"t0."a" || t0."n" >= ?1"#, #"t0."a" || t0."n" <= ?2"#) == nil)
        #expect(QueryCompiler.between("", " >= ?1", " <= ?2") == nil)
    }

    @Test func betweenFindsWhatThePairOfComparisonsFinds() throws {
        let db = try open()
        let cases: [(String, String, [Int64])] = [
            ("n BETWEEN {5, 10}", "n >= 5 AND n <= 10", [1, 3, 5]),
            ("n BETWEEN {$0, $1}", "n >= $0 AND n <= $1", [1, 5]),
            ("x BETWEEN {-1, 5.25}", "x >= -1 AND x <= 5.25", [1, 2, 4, 5]),
            ("x BETWEEN {0, 0}", "x >= 0 AND x <= 0", [2]),
            ("d BETWEEN {2024-01-01@00:00:00, 2024-12-31@00:00:00}",
             "d >= 2024-01-01@00:00:00 AND d <= 2024-12-31@00:00:00", [1, 5]),
            ("s BETWEEN {'b', 'c'}", "s >= 'b' AND s <= 'c'", [1, 5]),
            ("m BETWEEN {3, 10}", "m >= 3 AND m <= 10", [1, 3, 5]),
            ("odd-name BETWEEN {5, 10}", "odd-name >= 5 AND odd-name <= 10", [2, 3, 5]),
            ("n BETWEEN {10, 5}", "n >= 10 AND n <= 5", []),
            ("NOT n BETWEEN {5, 10}", "NOT (n >= 5 AND n <= 10)", [2, 4]),
        ]
        for (between, pair, expected) in cases {
            let arguments: [Value] = [.int(5), .double(7.5)]
            #expect(try ids(db, between, arguments) == expected, "\(between)")
            #expect(try ids(db, pair, arguments) == expected, "\(pair)")
        }
    }
}
