import DrumlinEngine
import Testing

/// Realm's rules for mixed values (strings and binary kept apart, ordering across types),
/// per-object aggregates through link lists, division by zero, date literal forms and object
/// arguments of the wrong class.
@Suite struct QueryRealmValueRulesTests {
    let db: Database
    init() throws {
        db = try nullRulesFixture()
        try db.write {
            _ = try db.createMany("Item", json: """
                [{"id": 1, "val": "abc", "anys": [3, "zeta", {"$binary": {"base64": "QUJD", "subType": "00"}}, true]},
                 {"id": 2, "val": {"$binary": {"base64": "YWJj", "subType": "00"}}, "anys": [{"$numberDecimal": "7.5"}, 2.5, {"$date": "2020-01-01T00:00:00Z"}]},
                 {"id": 3, "val": [1, 2, 3], "anys": []},
                 {"id": 4, "val": "ABCD", "anys": ["b", "a", null]}]
                """, update: .modified)
        }
    }

    func q(_ query: String, _ args: [Value] = []) throws -> [Int64] { try ids(db.query("Item", query, args)) }

    func message(_ query: String, _ args: [Value] = []) -> String {
        do {
            _ = try db.query("Item", query, args).count
            return "no error"
        } catch {
            #expect(error.code == .query)
            return error.message
        }
    }

    @Test func mixedStringOperatorsKeepStringsAndBinaryApart() throws {
        #expect(try q("val CONTAINS 'b'") == [1])
        #expect(try q("val CONTAINS[c] 'b'") == [1, 4])
        #expect(try q("val CONTAINS bin('b')") == [2])
        #expect(try q("val BEGINSWITH[c] bin('AB')") == [2])
        #expect(try q("val LIKE[c] bin('A?C')") == [2])
        #expect(try q("val ENDSWITH 'CD'") == [4])
        #expect(try q("ANY anys BEGINSWITH bin('AB')") == [1])
        #expect(try q("ANY anys BEGINSWITH 'AB'") == [])
    }

    @Test func mixedSizeOfStringsBinaryAndCollections() throws {
        #expect(try q("val.@size == 3") == [1, 2, 3])
        #expect(try q("val.@count == 4") == [4])
        #expect(try q("anys.@count == 3") == [2, 4])
    }

    @Test func mixedMinAndMaxOrderAcrossTypes() throws {
        // bool < numbers < strings and binary < dates
        #expect(try q("anys.@min == true") == [1])
        #expect(try q("anys.@max == bin('ABC')") == [1])
        #expect(try q("anys.@min == 2.5") == [2])
        #expect(try q("anys.@max == 2020-01-01@0:0:0") == [2])
        #expect(try q("anys.@min == 'a'") == [4])
        #expect(try q("anys.@max == 'b'") == [4])
        #expect(try q("anys.@min == nil") == [3])
    }

    @Test func aggregatesThroughAListOfLinksArePerLinkedObject() throws {
        // children: 1 → [2], 4 → [1, 3]; counts: 1 → [1], 2 → [5], 3 → []
        #expect(try q("children.counts.@max == 5") == [1])
        #expect(try q("children.counts.@max == 1") == [4])
        #expect(try q("children.counts.@sum == 0") == [4])
        #expect(try q("children.counts.@count == 0") == [4])
        #expect(try q("ALL children.counts.@count == 1") == [1, 2, 3])
        #expect(try q("children.counts.@min == nil") == [4])
        #expect(try q("NONE children.counts.@avg > 2") == [2, 3, 4])
    }

    @Test func divisionByZero() throws {
        // ratio (double): 1 → 1.0, 4 → 2.5; rank (int): 1, 2, nil, nil
        #expect(try q("ratio / 0 == inf") == [1, 4])
        #expect(try q("ratio / 0.0 > 1e308") == [1, 4])
        #expect(try q("(0 - ratio) / 0 == -inf") == [1, 4])
        #expect(try q("(ratio - ratio) / 0 == 0") == [])     // NaN matches nothing
        // Integers: the largest integer of the dividend's sign, as Realm (realm-core Mixed::operator/).
        #expect(try q("rank / 0 == nil") == [3, 4])
        #expect(try q("rank / 0 > 1") == [1, 2])
        #expect(try q("rank / 0 == 9223372036854775807") == [1, 2])
        #expect(try q("(0 - rank) / 0 == -9223372036854775808") == [1, 2])
        #expect(try q("rank / 2 == 1") == [2])                 // integer division
        #expect(try q("rank / 2.0 == 0.5") == [1])
    }

    @Test func dateLiteralForms() throws {
        let db = try Database(path: ":memory:", schemaJSON: #"[{"name": "E", "properties": {"n": "int", "at": "date"}}]"#)
        try db.write {
            _ = try db.createMany("E", json: """
                [{"n": 1, "at": {"$date": "2017-12-04T00:00:00Z"}}, {"n": 2, "at": {"$date": "1970-01-01T00:00:00Z"}},
                 {"n": 3, "at": {"$date": "1969-12-31T23:59:59Z"}}]
                """)
        }
        func n(_ query: String) throws -> Int { try db.query("E", query).count }
        #expect(try n("at == 2017-12-04@0:0:0") == 1)
        #expect(try n("at == 2017-12-4@00:00:00") == 1)
        #expect(try n("at == 2017-12-04T0:00:0") == 1)
        #expect(try n("at == 1970-1-1@0:0:0:0") == 1)
        #expect(try n("at == 1970-1-1T0:0:0") == 1)
        #expect(try n("at == 1969-12-31@23:59:59") == 1)
        // Before 1970 the nanoseconds count further back, as Realm reads them: T-1:-5.
        #expect(try n("at > 1969-12-31@23:59:59:5") == 3)
        #expect(try n("at < 1969-12-31@23:59:59:5") == 0)
        #expect(try n("at == T-1:0") == 1)
    }

    @Test func anObjectArgumentOfTheWrongClassIsAnError() throws {
        let db = try peopleFixture()
        let toy = try #require(try db.query("Toy", "label == 'ball'").objects.first)
        let rex = try #require(try db.object("Dog", primaryKey: .string("Rex")))
        #expect(try db.query("Person", "dog == $0", [.link(ObjectLink(classIndex: rex.classIndex, key: rex.key))]).count == 1)
        do throws(DrumlinError) {
            _ = try db.query("Person", "dog == $0", [.link(ObjectLink(classIndex: toy.classIndex, key: toy.key))]).count
            Issue.record("no error")
        } catch {
            #expect(error.code == .query)
            #expect(error.message == "The relationship 'dog' which links to type 'Dog' cannot be compared to an argument of type 'Toy' (at position 1)")
        }
        do throws(DrumlinError) {
            _ = try db.query("Person", "ANY dogs == $0", [.link(ObjectLink(classIndex: toy.classIndex, key: toy.key))]).count
            Issue.record("no error")
        } catch {
            #expect(error.message.hasPrefix("The relationship 'dogs' which links to type 'Dog'"))
        }
    }
}
