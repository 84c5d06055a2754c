import DrumlinEngine
import Testing

/// Realm's rules for lists compared with lists: without ANY/ALL/NONE the lists are compared whole
/// (in order; a set in its order, by value); with a quantifier on either side each side is walked by its own
/// quantifier, the left one outermost; ANY/ALL/NONE on a path without a list is an error.
@Suite struct QueryListComparisonTests {
    let db: Database
    init() throws { db = try peopleFixture() }

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

    // Fixture lists: scores (int[]): 1 → [1, 2, 3], 2 → [], 4 → [10], others empty.
    // tags (string<>): 1 → {a, b}, 2 → {b}. dogs: 1 → [Rex, Bo], 2 → [Cy], 4 → [Dot, Rex, Bo].

    @Test func wholeListEqualityIsInOrder() throws {
        #expect(try q("scores == {1, 2, 3}") == [1])
        #expect(try q("{1, 2, 3} == scores") == [1])
        #expect(try q("scores == {3, 2, 1}") == [])
        #expect(try q("scores == {1, 2}") == [])
        #expect(try q("scores == {1, 2, 3, 4}") == [])
        #expect(try q("scores == {10}") == [4])
        #expect(try q("scores == {}") == [2, 3, 5, 6])
        #expect(try q("scores == $0", [.list([1, 2, 3])]) == [1])
        #expect(try q("scores IN {1, 10}") == [1, 4])     // IN: some element is in the list
    }

    @Test func wholeListNotEqualFollowsRealm() throws {
        // Sizes differ, or every element differs from the constant at its position.
        #expect(try q("scores != {1, 2, 3}") == [2, 3, 4, 5, 6])
        #expect(try q("scores != {1, 5, 6}") == [2, 3, 4, 5, 6])
        #expect(try q("scores != {4, 5, 6}") == [1, 2, 3, 4, 5, 6])
        #expect(try q("scores != {}") == [1, 2, 3, 4, 5, 6])
    }

    @Test func wholeListOrderedAndStringOperators() throws {
        #expect(try q("scores > {0, 1, 2}") == [1])
        #expect(try q("scores >= {1, 2, 3}") == [1])
        #expect(try q("scores < {2, 3, 4}") == [1])
        #expect(try q("scores <= {1, 2, 2}") == [])
        #expect(try q("scores > {9}") == [4])
        #expect(try q("dogs.name BEGINSWITH {'R', 'B'}") == [1])
        #expect(try q("dogs.name ENDSWITH[c] {'EX', 'O'}") == [1])
        #expect(try q("dogs.name CONTAINS {'e', 'x'}") == [])
        #expect(try q("dogs.name LIKE {'?ex', 'B*'}") == [1])
        #expect(try q("dogs.name ==[c] {'rex', 'bo'}") == [1])
    }

    @Test func setsCompareInTheirOrder() throws {
        // Realm walks a set in its order, by value (realm-core test_parser.cpp, Parser_SetMixed).
        #expect(try q("tags == {'a', 'b'}") == [1])
        #expect(try q("tags == {'b', 'a'}") == [])
        #expect(try q("tags == {'b', 'a', 'a'}") == [])
        #expect(try q("tags != {'b', 'a'}") == [1, 2, 3, 4, 5, 6])   // every position differs
        #expect(try q("tags == {'b'}") == [2])
        #expect(try q("tags == {'a'}") == [])
        #expect(try q("tags == {}") == [3, 4, 5, 6])
        #expect(try q("tags != {'a', 'b'}") == [2, 3, 4, 5, 6])
        #expect(try q("tags ==[c] {'B'}") == [2])
    }

    @Test func dictionaryKeysValuesAndWildcards() throws {
        // extra: 1 → {k: 1, s: 'x'}, 2 → {k: 2}; keys in key order.
        #expect(try q("extra.@keys == {'k', 's'}") == [1])
        #expect(try q("extra.@keys == {'s', 'k'}") == [])
        #expect(try q("extra.@values == {1, 'x'}") == [1])
        #expect(try q("extra.@values == {2}") == [2])
        #expect(try q("extra[*] == {2}") == [2])
        // anything: 5 → [1, 2]
        #expect(try q("anything[*] == {1, 2}") == [5])
        #expect(try q("anything[*] == {2, 1}") == [])
        #expect(try q("anything[*] != {2, 1}") == [1, 2, 3, 4, 5, 6])
    }

    @Test func twoListsCompareWhole() throws {
        // realm-core test_parser.cpp, Parser_OperatorIN: `items.price != items.price` is 0.
        #expect(try q("scores == scores") == [1, 2, 3, 4, 5, 6])
        #expect(try q("scores != scores") == [2, 3, 5, 6])   // empty lists: no position differs
        #expect(try q("scores < scores") == [2, 3, 5, 6])
        #expect(try q("dogs.age == dogs.age") == [1, 2, 3, 4, 5, 6])
        #expect(try q("{1, 2, 3} IN scores") == [1])          // a constant list on the left: whole
    }

    @Test func linkListPathsCompareWhole() throws {
        #expect(try q("dogs.name == {'Rex', 'Bo'}") == [1])
        #expect(try q("dogs.name == {'Bo', 'Rex'}") == [])
        #expect(try q("dogs.age == {12, 3, 7}") == [4])
        #expect(try q("dogs.toys.label == {'ball', 'rope', 'bone'}") == [1, 4])   // Dot has no toys
        #expect(try q("dogs.toys.label == {'rope', 'ball', 'bone'}") == [])
    }

    @Test func aQuantifierOnEitherSideWalksThatSide() throws {
        #expect(try q("ANY scores == {1, 10}") == [1, 4])
        #expect(try q("scores == ANY {1, 10}") == [1, 4])
        #expect(try q("ALL scores IN {1, 2, 3}") == [1, 2, 3, 5, 6])
        #expect(try q("NONE scores IN {1, 10}") == [2, 3, 5, 6])
        #expect(try q("SOME tags == {'a', 'z'}") == [1])
    }

    @Test func quantifiedConstantListsFollowRealmsTruthTable() throws {
        #expect(try q("ALL {1, 2} IN scores") == [1])
        #expect(try q("ALL {1, 2, 4} IN scores") == [])
        #expect(try q("ANY {1, 10} IN scores") == [1, 4])
        #expect(try q("NONE {1, 10} IN scores") == [2, 3, 5, 6])
        #expect(try q("ANY {1, 2} == NONE scores") == [2, 3, 4, 5, 6])
        #expect(try q("ALL {1, 2} == NONE scores") == [2, 3, 4, 5, 6])
        #expect(try q("ALL {10} == ALL scores") == [2, 3, 4, 5, 6])
        #expect(try q("ANY {2, 3} > ALL scores") == [2, 3, 5, 6])
        #expect(try q("ALL {'a', 'b'} IN tags") == [1])
        #expect(try q("NONE {'a'} IN tags") == [2, 3, 4, 5, 6])
        // Empty constant lists: ALL and NONE hold, ANY does not.
        #expect(try q("ALL {} IN scores") == [1, 2, 3, 4, 5, 6])
        #expect(try q("NONE {} IN scores") == [1, 2, 3, 4, 5, 6])
        #expect(try q("ANY {} IN scores") == [])
    }

    @Test func quantifierOnAPathWithoutAListIsAnError() {
        #expect(message("ANY age > 3") == "The keypath following 'ANY' must contain a list ('age' does not) (at position 5)")
        #expect(message("ALL name == 'x'") == "The keypath following 'ALL' must contain a list ('name' does not) (at position 5)")
        #expect(message("NONE dog.name == 'Rex'") == "The keypath following 'NONE' must contain a list ('dog.name' does not) (at position 6)")
        #expect(message("SOME anything == 3") == "The keypath following 'ANY' must contain a list ('anything' does not) (at position 6)")
        #expect(message("ANY dogs.name == 'Rex'") == "no error")
        #expect(message("ALL dog.toys.price > 1") == "no error")
        #expect(message("ANY anything[*] == 1") == "no error")
    }

    @Test func listErrors() {
        #expect(message("dogs == NULL") == "Cannot compare linklist ('dogs') with NULL (at position 1)")
        #expect(message("ANY owners == nil").contains("Cannot compare linklist") == false) // Person has no 'owners'
        #expect(message("extra[FIRST] == 1") == "Property 'Person.extra' does not support index 'FIRST' (at position 6)")
        #expect(message("extra[LAST] == 1") == "Property 'Person.extra' does not support index 'LAST' (at position 6)")
        #expect(message("scores ==[c] 1").hasPrefix("Unsupported comparison operator '==[c]' against type 'int' (property 'scores')"))
        #expect(message("age IN 3").hasPrefix("The keypath following 'IN' must contain a list. Found '3'"))
        #expect(message("{1, 2} * scores == 3") == "Operations involving two lists are not supported (at position 1)")
    }

    /// Two constants are compared in SQL; a dictionary argument among them is a query error, not
    /// a value bound to SQL (found by the query fuzz under `make sanitize`: it was INTERNAL).
    @Test func aListOrDictionaryArgumentComparedWithAConstantIsAQueryError() {
        #expect(message("$0 == 1", [.dictionary([("x", .int(1))])]) == "Unsupported comparison between type 'dictionary' and type 'int' (at position 1)")
        #expect(message("$0 != $1", [.int(1), .dictionary([])]) == "Unsupported comparison between type 'int' and type 'dictionary' (at position 1)")
        #expect(message("$0 == 1", [.int(1)]) == "no error")
    }
}
