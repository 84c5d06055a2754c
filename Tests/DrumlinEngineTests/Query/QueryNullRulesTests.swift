import DrumlinEngine
import Testing

let nullRulesSchema = """
[{"name": "Item", "primaryKey": "id", "properties": {
   "id": "int",
   "rank": {"type": "int", "optional": true, "indexed": true}, "size": "int?",
   "label": {"type": "string", "optional": true, "indexed": true}, "note": "string?",
   "ratio": "double?", "amount": "decimal128?",
   "left": "Item", "right": "Item", "counts": "int[]", "children": "Item[]", "val": "mixed", "anys": "mixed[]"}}]
"""

/// Items: 1 {rank 1, size 1, label 'a', note 'a', left 1, right 1}, 2 {rank 2, size nil, label nil,
/// note 'b', left 1}, 3 {all null, no links}, 4 {rank nil, size 4, label 'd', note nil, right 2}.
func nullRulesFixture() throws -> Database {
    let db = try Database(path: ":memory:", schemaJSON: nullRulesSchema)
    try db.write {
        try db.createMany("Item", json: """
            [{"id": 1, "rank": 1, "size": 1, "label": "a", "note": "a", "ratio": 1.0, "amount": {"$numberDecimal": "1"}, "counts": [1]},
             {"id": 2, "rank": 2, "label": null, "note": "b", "counts": [5]},
             {"id": 3},
             {"id": 4, "size": 4, "label": "d", "ratio": 2.5}]
            """)
        _ = try db.createMany("Item", json: """
            [{"id": 1, "left": 1, "right": 1, "children": [2]}, {"id": 2, "left": 1}, {"id": 4, "right": 2, "children": [1, 3]}]
            """, update: .modified)
    }
    return db
}

/// Realm's null rules: NULL on the left of a string operator matches nothing but with LIKE,
/// where it matches null values (as `note LIKE NULL` does); two expressions
/// that are both null are equal (and so also `>=` and `<=`); a null argument with `>=`/`<=`
/// matches null values.
@Suite struct QueryNullRulesTests {
    let db: Database
    init() throws { db = try nullRulesFixture() }

    func q(_ query: String, _ args: [Value] = []) throws -> [Int64] { try ids(db.query("Item", query, args)) }

    @Test(arguments: ["CONTAINS", "BEGINSWITH", "ENDSWITH", "CONTAINS[c]", "ENDSWITH[c]"])
    func nullOnTheLeftOfAStringOperatorMatchesNothing(_ op: String) throws {
        #expect(try q("NULL \(op) note") == [])
        #expect(try q("NULL \(op) label") == [])       // indexed
        #expect(try q("nil \(op) note") == [])
        #expect(try q("$0 \(op) note", [.null]) == [])
    }

    /// realm-core test_parser.cpp (Parser_StringOperations): `NULL LIKE name` is 1, the null name.
    @Test(arguments: ["LIKE", "LIKE[c]"])
    func nullLikeAValueMatchesNullValues(_ op: String) throws {
        #expect(try q("NULL \(op) note") == [3, 4])
        #expect(try q("NULL \(op) label") == [2, 3])   // indexed
        #expect(try q("nil \(op) note") == [3, 4])
        #expect(try q("$0 \(op) note", [.null]) == [3, 4])
        #expect(try q("NULL \(op) val") == [1, 2, 3, 4])   // mixed: null in every item
    }

    @Test func aConstantOnTheLeftOfAStringOperatorIsTheTextSearched() throws {
        #expect(try q("'abc' BEGINSWITH note") == [1])
        #expect(try q("'xb' ENDSWITH note") == [2])
        #expect(try q("'dad' CONTAINS label") == [1, 4])
        #expect(try q("'A' CONTAINS[c] label") == [1])
        #expect(try q("'a' LIKE note") == [1])
        #expect(try q("'zzz' CONTAINS note") == [])
    }

    @Test func twoNullPropertiesAreEqual() throws {
        // rank/size: 1 (1, 1), 2 (2, nil), 3 (nil, nil), 4 (nil, 4)
        #expect(try q("rank == size") == [1, 3])
        #expect(try q("rank != size") == [2, 4])
        #expect(try q("rank >= size") == [1, 3])
        #expect(try q("rank <= size") == [1, 3])
        #expect(try q("rank > size") == [])
        #expect(try q("rank < size") == [])
        #expect(try q("label == note") == [1, 3])        // indexed against not indexed
        #expect(try q("label != note") == [2, 4])
        #expect(try q("label ==[c] note") == [1, 3])
        #expect(try q("ratio == amount") == [1, 2, 3])      // double against decimal128
        #expect(try q("amount >= ratio") == [1, 2, 3])
    }

    @Test func twoNullLinksAreEqual() throws {
        // left/right: 1 (1, 1), 2 (1, nil), 3 (nil, nil), 4 (nil, 2)
        #expect(try q("left == right") == [1, 3])
        #expect(try q("left != right") == [2, 4])
        #expect(try q("left.rank == right.rank") == [1, 3])
    }

    @Test func anAggregateAndANullPropertyAreEqual() throws {
        // counts.@max: 1 → 1, 2 → 5, 3 and 4 → null (empty); rank: 1, 2, nil, nil; size: 1, nil, nil, 4
        #expect(try q("counts.@max == rank") == [1, 3, 4])
        #expect(try q("counts.@min == size") == [1, 3])
        #expect(try q("counts.@max != size") == [2, 4])
        #expect(try q("counts.@avg >= rank") == [1, 2, 3, 4])
    }

    @Test func aNullConstantWithOrderedOperators() throws {
        for rank in ["rank", "size"] {   // indexed and not
            let nulls = rank == "rank" ? [Int64(3), 4] : [2, 3]
            #expect(try q("\(rank) >= $0", [.null]) == nulls)
            #expect(try q("\(rank) <= $0", [.null]) == nulls)
            #expect(try q("\(rank) >= NULL") == nulls)
            #expect(try q("$0 <= \(rank)", [.null]) == nulls)
            #expect(try q("\(rank) > $0", [.null]) == [])
            #expect(try q("\(rank) < NULL") == [])
            #expect(try q("\(rank) == $0", [.null]) == nulls)
            #expect(try q("\(rank) != $0", [.null]).count == 2)
        }
    }
}
