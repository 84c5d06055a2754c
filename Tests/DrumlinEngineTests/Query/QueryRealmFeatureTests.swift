import DrumlinEngine
import Testing

let featureSchema = """
[{"name": "Person", "primaryKey": "id", "properties": {
   "id": "int", "name": "string?", "age": {"type": "int", "optional": true, "indexed": true},
   "dog": "Dog", "dogs": "Dog[]", "other": "Person", "scores": "int[]", "names": "string[]", "blobs": "data[]",
   "tags": "string<>", "sdict": "string{}", "extra": "mixed{}", "anything": "mixed", "anys": "mixed[]",
   "decs": "decimal128[]", "items": "Item[]"}},
 {"name": "Dog", "primaryKey": "name", "properties": {"name": "string", "age": "int"}},
 {"name": "Item", "properties": {"price": "double", "label": "string"}}]
"""

/// Person 1 {ann, 31, dog Rex, dogs [Rex, Bo], scores [1, 2, 3], names [abc, de], anything [1, 2],
/// anys [1, NaN decimal]}, 2 {bob, 17, scores [10], anything 'hello', anys [1, 2.5]}, 3 {all empty}.
func featureFixture() throws -> Database {
    let db = try Database(path: ":memory:", schemaJSON: featureSchema)
    try db.write {
        try db.createMany("Dog", json: #"[{"name": "Rex", "age": 3}, {"name": "Bo", "age": 5}]"#)
        try db.createMany("Person", json: """
            [{"id": 1, "name": "ann", "age": 31, "dog": "Rex", "dogs": ["Rex", "Bo"], "scores": [1, 2, 3],
              "names": ["abc", "de"], "blobs": [{"$binary": {"base64": "eHl6", "subType": "00"}}], "tags": ["a", "bb"],
              "sdict": {"k": "hello"}, "extra": {"a": 1, "n": {"x": {"y": 1}}}, "anything": [1, 2],
              "anys": [{"$numberDecimal": "1"}, {"$numberDecimal": "NaN"}],
              "decs": [{"$numberDecimal": "1"}, {"$numberDecimal": "NaN"}],
              "items": [{"price": 5, "label": "a"}, {"price": 20, "label": "b"}]},
             {"id": 2, "name": "bob", "age": 17, "scores": [10], "anything": "hello", "anys": [1, 2.5],
              "decs": [{"$numberDecimal": "2"}], "items": [{"price": 1, "label": "c"}]},
             {"id": 3}]
            """)
    }
    return db
}

/// Issue #15 items 5, 6, 12, 13 and 14: features Realm has that were query errors here.
@Suite struct QueryRealmFeatureTests {
    let db: Database
    init() throws { db = try featureFixture() }

    func q(_ query: String, _ args: [Value] = []) throws -> [Int64] { try ids(db.query("Person", query, args)) }

    func message(_ query: String, _ args: [Value] = []) -> String {
        do {
            _ = try db.query("Person", query, args).count
            return "no error"
        } catch {
            #expect(error.code == .query)
            return error.message
        }
    }

    @Test func lengthOfStringsAndBinaryInCollections() throws {
        #expect(try q("names.length == 3") == [1])
        #expect(try q("ANY names.length == 2") == [1])
        #expect(try q("ANY names.length == 4") == [])
        #expect(try q("ALL names.length > 1") == [1, 2, 3])
        #expect(try q("ALL names.length > 2") == [2, 3])
        #expect(try q("NONE names.length == 3") == [2, 3])
        #expect(try q("blobs.length == 3") == [1])
        #expect(try q("blobs.length == 2") == [])
        #expect(try q("tags.length == 2") == [1])
        #expect(try q("ALL tags.length == 1") == [2, 3])
        #expect(try q("sdict.length == 5") == [1])
        #expect(try q("sdict.length < 5") == [])
        #expect(try q("name.length == 3") == [1, 2])
    }

    @Test func sizeAndLengthOfMixedValues() throws {
        #expect(try q("anything.length == 2") == [1])
        #expect(try q("anything.length == 5") == [2])
        #expect(try q("anything.@size == 5") == [2])
        #expect(try q("anything.length == 3") == [])
    }

    @Test func mixedSumAndAverageLeaveOutDecimalNaN() throws {
        #expect(try q("anys.@sum == 1") == [1])
        #expect(try q("anys.@avg == 1") == [1])
        #expect(try q("anys.@avg == 1.75") == [2])
        #expect(try q("anys.@sum == 3.5") == [2])
        #expect(try q("anys.@sum == 0") == [3])
        #expect(try q("anys.@avg == nil") == [3])
        #expect(try q("decs.@sum == 1") == [1])
        #expect(try q("decs.@avg == 1") == [1])
    }

    @Test func arithmeticOnAList() throws {
        #expect(try q("ANY scores * 2 > 10") == [2])
        #expect(try q("ALL scores * 2 > 1") == [1, 2, 3])
        #expect(try q("NONE scores * 2 > 10") == [1, 3])
        #expect(try q("2 * scores == 20") == [2])
        #expect(try q("items.price * 2 > 30") == [1])
        #expect(try q("ALL items.price + 1 > 2") == [1, 3])
        #expect(message("scores * scores > 1").hasPrefix("Arithmetic needs at most one list"))
    }

    @Test func listsOnBothSides() throws {
        #expect(try q("ALL {1, 2} > ANY scores") == [])
        #expect(try q("ANY {4, 20} > ALL scores") == [1, 2, 3])
        #expect(try q("ANY {4, 5} > ALL scores") == [1, 3])
        #expect(try q("items.price IN items.price") == [1, 2, 3])   // whole lists, equal (also empty)
        #expect(try q("ANY scores IN {3, 10}") == [1, 2])
    }

    @Test func backlinksCountAfterAPathAndCountOfAToOneLink() throws {
        // Rex: Person 1's dog and dogs (2 links); Bo: Person 1's dogs (1). Without a quantifier
        // the counts are added up, as Realm does (test_parser.cpp: items.@links.@count == 21).
        #expect(try q("dogs.@links.@count == 3") == [1])
        #expect(try q("dogs.@links.@count == 2") == [])
        #expect(try q("dogs.@links.@count == 0") == [2, 3])
        #expect(try q("ANY dogs.@links.@count == 2") == [1])
        #expect(try q("ALL dogs.@links.@count == 2") == [2, 3])
        #expect(try q("dog.@links.@count == 2") == [1])
        #expect(try q("dog.@count == 1") == [1])
        #expect(try q("dog.@count == 0") == [2, 3])
    }

    @Test func typeOfTypedPropertiesIsAConstant() throws {
        // Realm: a typed property's @type is its type, a constant (test_parser.cpp, Parser_TypeOfValue).
        #expect(try q("anything.@type == age.@type") == [])
        #expect(try q("anything.@type != age.@type") == [1, 2, 3])
        #expect(try q("anything.@type == name.@type") == [2])
        #expect(try q("ANY anys.@type == scores.@type") == [2])   // 1 is an int in 2, a decimal in 1
        #expect(try q("anything.@type == dog.@type") == [])
    }

    @Test func typeOfATypedPropertyAgainstATypeNameIsTwoConstants() {
        for (query, message) in [
            ("age.@type == 'int'", #"Comparison between two constants is not supported ('"int"' and '"int"') (at position 1)"#),
            ("dog.@type == 'objectlink'", #"Comparison between two constants is not supported ('"objectlink"' and '"objectlink"') (at position 1)"#),
            ("'string' == name.@type", #"Comparison between two constants is not supported ('"string"' and '"string"') (at position 1)"#),
            ("anything.@type ==[c] 'string'", "Unsupported comparison operator '=[c]' against type '@type', right side must be a string or binary type (at position 1)"),
        ] {
            do {
                _ = try db.query("Person", query).count
                Issue.record("no error for \(query)")
            } catch {
                #expect(error.code == .query)
                #expect(error.message == message)
            }
        }
    }

    @Test func keysOfNestedMixedDictionaries() throws {
        #expect(try q("extra.n.x.@keys == 'y'") == [1])
        #expect(try q("extra.n.@keys == 'x'") == [1])
        #expect(try q("extra.n.x.@keys == 'z'") == [])
    }

    @Test func inAnyArgument() throws {
        let list = Value.list([.int(31), .int(5)])
        #expect(try q("age IN ANY $0", [list]) == [1])
        #expect(try q("age IN NONE $0", [list]) == [2, 3])
        #expect(try q("age IN ALL $0", [.list([.int(31)])]) == [1])
    }

    @Test func constantListsMixingTypes() throws {
        #expect(try q("age IN {31, 'x'}") == [1])
        #expect(try q("age IN {'x', 17}") == [2])
        #expect(try q("age != ALL {31, 'x'}") == [2, 3])
        #expect(try q("scores == {1, 'x'}") == [])
        #expect(message("age IN {'x', 'y'}").hasPrefix("Unsupported comparison between type 'int' and type 'string'"))
    }

    @Test func objectReferencesInListsAndWithArguments() throws {
        #expect(try q("dog IN {obj('Dog', 'Rex')}") == [1])
        #expect(try q("dog IN {obj('Dog', 'Bo'), obj('Dog', 'Nope')}") == [])
        #expect(try q("dog == obj('Dog', 'Nope')") == [])
        #expect(try q("ANY dogs == {obj('Dog', 'Bo')}") == [1])
        #expect(try q("dogs == {obj('Dog', 'Rex'), obj('Dog', 'Bo')}") == [1])
        #expect(try q("dogs == {obj('Dog', 'Bo'), obj('Dog', 'Rex')}") == [])
        #expect(try q("dog == obj('Dog', $0)", [.string("Rex")]) == [1])
        #expect(try q("dog IN {obj('Dog', $0), $1}", [.string("Bo"), .string("Rex")]) == [1])
        #expect(message("dog == obj('Dog', $0)", [.int(5)]).hasPrefix("obj('Dog', 5)"))
    }

    @Test func objectArgumentsFromExtendedJSON() throws {
        let rex = try #require(try db.object("Dog", primaryKey: .string("Rex")))
        let person = try #require(try db.object("Person", primaryKey: .int(2)))
        let arguments = try db.queryArguments(extendedJSON: [
            .object([(key: "$link", value: .object([(key: "class", value: .string("Dog")), (key: "key", value: .int(rex.key))]))]),
            .object([(key: "$link", value: .object([(key: "class", value: .string("Person")), (key: "key", value: .int(person.key))]))]),
        ])
        #expect(try q("dog == $0", arguments) == [1])
        #expect(try q("other == $1", arguments) == [])
        #expect(message("dog == $1", arguments) == "The relationship 'dog' which links to type 'Dog' cannot be compared to an argument of type 'Person' (at position 1)")
        #expect(message("ANY dogs IN $0", [.list([arguments[1]])]).hasPrefix("The relationship 'dogs' which links to type 'Dog'"))
        do throws(DrumlinError) {
            _ = try db.queryArguments(extendedJSON: [.object([(key: "$link", value: .object([(key: "class", value: .string("Nope")), (key: "key", value: .int(1))]))])])
            Issue.record("no error")
        } catch {
            #expect(error.code == .invalidArgument)
        }
    }
}
