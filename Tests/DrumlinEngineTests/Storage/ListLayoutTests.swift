import DrumlinEngine
import Testing

/// Lists of values are `WITHOUT ROWID` tables keyed by (owner, position) since format 3; lists of
/// links and of mixed values keep a rowid. A file written before format 3 is read as it is and
/// gets the keyed tables when opened for writing.
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
        #expect(sqlRows(path, "SELECT value FROM _drumlin_meta WHERE key = 'format'") == [["4"]])
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
            // Read as it is.
            var options = OpenOptions()
            options.readOnly = true
            let readOnly = try Database(path: path, schemaJSON: petsSchema, options: options)
            #expect(try readOnly.object("Person", primaryKey: 1)!.list("scores").values == [1, 2, 3, 4, 5].map(Value.double))
            readOnly.close()
            #expect(!tableSQL(path, scoresTable).contains("WITHOUT ROWID"))
            #expect(sqlRows(path, "SELECT value FROM _drumlin_meta WHERE key = 'format'") == [["2"]])
        }
        let db = try Database(path: path, schemaJSON: petsSchema)
        #expect(sqlRows(path, "SELECT value FROM _drumlin_meta WHERE key = 'format'") == [["4"]])
        #expect(tableSQL(path, scoresTable).hasSuffix("WITHOUT ROWID"))
        #expect(indexes(path, scoresTable) == [])
        let scores = try #require(try db.object("Person", primaryKey: 1)).list("scores")
        try db.write {
            try scores.insert(0.5, at: 0)            // 0.5 1 2 3 4 5
            try scores.insert(2.5, at: 3)            // 0.5 1 2 2.5 3 4 5
            try scores.move(from: 0, to: 6)          // 1 2 2.5 3 4 5 0.5
            try scores.move(from: 5, to: 1)          // 1 5 2 2.5 3 4 0.5
            try scores.remove(at: 2)                 // 1 5 2.5 3 4 0.5
            try scores.remove(at: 0)                 // 5 2.5 3 4 0.5
            try scores.set(6, at: 4)                 // 5 2.5 3 4 6
            try scores.insert(json: [.double(7), .double(8)], at: 1)   // 5 7 8 2.5 3 4 6
            try scores.append(contentsOf: [9])       // 5 7 8 2.5 3 4 6 9
            try scores.insert(1, at: 8)              // 5 7 8 2.5 3 4 6 9 1
        }
        let expected: [Double] = [5, 7, 8, 2.5, 3, 4, 6, 9, 1]
        #expect(try scores.values == expected.map(Value.double))
        #expect(sqlRows(path, "SELECT owner, position, value FROM \"\(scoresTable)\" ORDER BY owner, position")
                == expected.enumerated().map { ["1", "\($0.offset)", "\($0.element)"] } + [["2", "0", "10.0"], ["2", "1", "20.0"]])
        // Refused inserts leave the positions as they were.
        try db.beginWrite()
        expectError(.typeMismatch) { try scores.insert("x", at: 0) }
        expectError(.typeMismatch) { try scores.insert(json: [.double(1), .string("x")], at: 2) }
        try db.commit()
        #expect(try scores.values == expected.map(Value.double))
    }

    @Test func aFormatTwoFileWithTwoElementsAtOnePositionIsRefusedUnchanged() throws {
        let path = temporaryPath()
        do {
            let db = try Database(path: path, schemaJSON: petsSchema)
            try db.write { try db.create("Person", json: #"{"id": 1, "name": "Ann", "scores": [1, 2]}"#) }
        }
        makeFormatTwo(path)
        execute(path, "UPDATE \"\(scoresTable)\" SET position = 0")
        let before = sqlRows(path, "SELECT type, name, coalesce(sql, '') FROM sqlite_master ORDER BY name")
        expectError(.corrupt, "The file '\(path)' is damaged: the list table '\(scoresTable)' holds two elements at one position. It was left unchanged.") {
            _ = try Database(path: path, schemaJSON: petsSchema)
        }
        #expect(sqlRows(path, "SELECT type, name, coalesce(sql, '') FROM sqlite_master ORDER BY name") == before)
        #expect(sqlRows(path, "SELECT value FROM _drumlin_meta WHERE key = 'format'") == [["2"]])
    }

    @Test func listsOfAStoredClassTheSchemaLeavesOutAreKeyedToo() throws {
        let path = temporaryPath()
        let both = #"[{"name": "A", "properties": {"xs": "int[]"}}, {"name": "B", "properties": {"ys": "string[]"}}]"#
        do {
            let db = try Database(path: path, schemaJSON: both)
            try db.write { try db.create("B", json: #"{"ys": ["p", "q"]}"#) }
        }
        for table in ["_drumlin_list_1_A_xs", "_drumlin_list_1_B_ys"] {
            let keyed = tableSQL(path, table)
            execute(path, """
                BEGIN;
                \(keyed.replacing(", PRIMARY KEY (owner, position)) WITHOUT ROWID", with: ")").replacing("\"\(table)\"", with: "old"));
                INSERT INTO old SELECT * FROM "\(table)"; DROP TABLE "\(table)"; ALTER TABLE old RENAME TO "\(table)";
                UPDATE _drumlin_meta SET value = 2 WHERE key = 'format';
                COMMIT;
                """)
        }
        _ = try Database(path: path, schemaJSON: #"[{"name": "A", "properties": {"xs": "int[]"}}]"#)
        #expect(tableSQL(path, "_drumlin_list_1_B_ys").hasSuffix("WITHOUT ROWID"))
        #expect(sqlRows(path, #"SELECT owner, position, value FROM "_drumlin_list_1_B_ys""#) == [["1", "0", "p"], ["1", "1", "q"]])
    }
}
