import DrumlinEngine
import Testing

/// Lists of values are `WITHOUT ROWID` tables keyed by (owner, position) since format 3; lists of
/// links and of mixed values keep a rowid, and files written before format 3 keep rowid tables
/// for every list. Every statement must work on both layouts.
@Suite struct ListLayoutTests {
    let scoresTable = "_drumlin_list_6_Person_scores"

    func tableSQL(_ path: String, _ name: String) -> String {
        sqlRows(path, "SELECT sql FROM sqlite_master WHERE name = '\(name)'").first?.first ?? ""
    }

    func indexes(_ path: String, _ table: String) -> [[String]] {
        sqlRows(path, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = '\(table)' ORDER BY name")
    }

    @Test func listsOfValuesAreKeyedByPositionOthersKeepARowid() throws {
        let path = temporaryPath()
        _ = try Database(path: path, schemaJSON: petsSchema)
        #expect(tableSQL(path, scoresTable).hasSuffix("PRIMARY KEY (owner, position)) WITHOUT ROWID"))
        #expect(indexes(path, scoresTable) == [])
        for table in ["_drumlin_list_6_Person_dogs", "_drumlin_list_6_Person_items", "_drumlin_list_6_Person_addresses"] {
            #expect(!tableSQL(path, table).contains("WITHOUT ROWID"))
            #expect(indexes(path, table).contains([table + "_owner"]))
        }
        #expect(sqlRows(path, "SELECT value FROM _drumlin_meta WHERE key = 'format'") == [["3"]])
    }

    /// A file as a format-2 library wrote it: the scores list a rowid table with an
    /// (owner, position) index.
    func makeFormatTwo(_ path: String) {
        let keyed = tableSQL(path, scoresTable)
        let rowid = keyed.replacing(", PRIMARY KEY (owner, position)) WITHOUT ROWID", with: ")")
            .replacing("\"\(scoresTable)\"", with: "old_scores")
        execute(path, """
            BEGIN;
            \(rowid);
            INSERT INTO old_scores SELECT owner, position, value FROM "\(scoresTable)";
            DROP TABLE "\(scoresTable)";
            ALTER TABLE old_scores RENAME TO "\(scoresTable)";
            CREATE INDEX "\(scoresTable)_owner" ON "\(scoresTable)" (owner, position);
            UPDATE _drumlin_meta SET value = 2 WHERE key = 'format';
            COMMIT;
            """)
    }

    @Test(arguments: [false, true]) func everyPositionChangeKeepsTheOrder(formatTwo: Bool) throws {
        let path = temporaryPath()
        do {
            let db = try Database(path: path, schemaJSON: petsSchema)
            try db.write {
                try db.create("Person", json: #"{"id": 1, "name": "Ann", "scores": [1, 2, 3, 4, 5]}"#)
                try db.create("Person", json: #"{"id": 2, "name": "Bo", "scores": [10, 20]}"#)
            }
        }
        if formatTwo {
            makeFormatTwo(path)
            #expect(!tableSQL(path, scoresTable).contains("WITHOUT ROWID"))
        }
        let db = try Database(path: path, schemaJSON: petsSchema)
        #expect(sqlRows(path, "SELECT value FROM _drumlin_meta WHERE key = 'format'") == [["3"]])
        let scores = try #require(try db.object("Person", primaryKey: 1)).list("scores")
        try db.write {
            try scores.insert(0.5, at: 0)            // 0.5 1 2 3 4 5
            try scores.insert(2.5, at: 3)            // 0.5 1 2 2.5 3 4 5
            try scores.move(from: 0, to: 6)          // 1 2 2.5 3 4 5 0.5
            try scores.move(from: 5, to: 1)          // 1 5 2 2.5 3 4 0.5
            try scores.remove(at: 2)                 // 1 5 2.5 3 4 0.5
            try scores.remove(at: 0)                 // 5 2.5 3 4 0.5
            try scores.set(6, at: 4)                 // 5 2.5 3 4 6
        }
        #expect(try scores.values == [5, 2.5, 3, 4, 6].map(Value.double))
        #expect(sqlRows(path, "SELECT owner, position, value FROM \"\(scoresTable)\" ORDER BY owner, position") == [
            ["1", "0", "5.0"], ["1", "1", "2.5"], ["1", "2", "3.0"], ["1", "3", "4.0"], ["1", "4", "6.0"],
            ["2", "0", "10.0"], ["2", "1", "20.0"],
        ])
        // A refused insert leaves the positions as they were.
        try db.beginWrite()
        expectError(.typeMismatch) { try scores.insert("x", at: 0) }
        try db.commit()
        #expect(try scores.values == [5, 2.5, 3, 4, 6].map(Value.double))
        // The older layout stays as it is, with its index.
        #expect(tableSQL(path, scoresTable).contains("WITHOUT ROWID") == !formatTwo)
        #expect(indexes(path, scoresTable) == (formatTwo ? [[scoresTable + "_owner"]] : []))
    }
}
