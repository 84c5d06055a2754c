import Testing
@testable import DrumlinEngine
@testable import DrumlinSchema
@testable import DrumlinStorage
@testable import DrumlinValues

/// Grammar coverage for `QueryParser`: each construct of Realm Query Language parses to the
/// expected tree, checked through the canonical description (fully parenthesized, synonyms
/// normalized) and, where the description cannot show it, through the tree itself.
@Suite struct QueryParserTests {
    // MARK: - Constructs

    @Test("comparison operators and their alternative spellings", arguments: [
        ("age == 5", "age == 5"), ("age = 5", "age == 5"), ("age != 5", "age != 5"), ("age <> 5", "age != 5"),
        ("age < 5", "age < 5"), ("age <= 5", "age <= 5"), ("age =< 5", "age <= 5"), ("age > 5", "age > 5"),
        ("age >= 5", "age >= 5"), ("age => 5", "age >= 5"), ("age==5", "age == 5"), ("5 < age", "5 < age"),
        ("age == $0", "age == $0"), ("$1 != age", "$1 != age"), ("a == b", "a == b"),
    ])
    func comparisonOperators(_ text: String, _ expected: String) {
        #expect(QueryTestSupport.canonical(text) == expected)
    }

    @Test("string operators, [c] and TEXT", arguments: [
        ("name ==[c] 'Bob'", "name ==[c] 'Bob'"), ("name !=[c] 'Bob'", "name !=[c] 'Bob'"),
        ("name <>[c] 'Bob'", "name !=[c] 'Bob'"), ("name BEGINSWITH 'a'", "name BEGINSWITH 'a'"),
        ("name beginswith[c] 'a'", "name BEGINSWITH[c] 'a'"), ("name EndsWith 'z'", "name ENDSWITH 'z'"),
        ("name CONTAINS[c] \"mid\"", "name CONTAINS[c] 'mid'"), ("name LIKE 'a?c*'", "name LIKE 'a?c*'"),
        ("name like[c] $0", "name LIKE[c] $0"), ("data CONTAINS bin('x')", "data CONTAINS B64\"eA==\""),
        ("bio TEXT 'cat dog* -bird'", "bio TEXT 'cat dog* -bird'"), ("dog.bio text $0", "dog.bio TEXT $0"),
        ("name CONTAINS NULL", "name CONTAINS NULL"),
    ])
    func stringOperators(_ text: String, _ expected: String) {
        #expect(QueryTestSupport.canonical(text) == expected)
    }

    @Test("IN, BETWEEN and list literals", arguments: [
        ("age IN {1, 2, 3}", "age IN {1, 2, 3}"), ("age in $0", "age IN $0"), ("x IN {}", "x IN {}"),
        ("'MiLk' IN[c] items.name", "'MiLk' IN[c] items.name"), ("'v' IN listProp", "'v' IN listProp"),
        ("ANY {1, 2} IN ALL items.price", "ANY {1, 2} IN ALL items.price"),
        ("NONE {'a', $0} IN tags", "NONE {'a', $0} IN tags"), ("all {1} IN x", "ALL {1} IN x"),
        ("x IN {-1, 2.5, 'a', null, true, $3}", "x IN {-1, 2.5, 'a', NULL, true, $3}"),
        ("age BETWEEN {18, 65}", "age BETWEEN {18, 65}"), ("age between {$0, $1}", "age BETWEEN {$0, $1}"),
        ("ALL scores BETWEEN {-1.5, 2}", "ALL scores BETWEEN {-1.5, 2}"),
        ("d BETWEEN {T0:0, 2024-01-01@00:00:00}", "d BETWEEN {T0:0, T1704067200:0}"),
        ("tags == {'a', 'b'}", "tags == {'a', 'b'}"),
    ])
    func listsInAndBetween(_ text: String, _ expected: String) {
        #expect(QueryTestSupport.canonical(text) == expected)
    }

    @Test("arithmetic binds * / over + -, left to right, with parentheses", arguments: [
        ("a + b * c == d", "(a + (b * c)) == d"), ("(a + b) * c == d", "((a + b) * c) == d"),
        ("a - b - c > 0", "((a - b) - c) > 0"), ("a / b / c > 0", "((a / b) / c) > 0"),
        ("a * b + c * d < e / 2", "((a * b) + (c * d)) < (e / 2)"), ("a - 1 > 0", "(a - 1) > 0"),
        ("a - -1 > 0", "(a - -1) > 0"), ("a-1 > 0", "a-1 > 0"),
        ("((price)) * 2 > 10", "(price * 2) > 10"), ("2 * (3 + 4) == $0", "(2 * (3 + 4)) == $0"),
        ("items.@sum.price / items.@count > 2.5", "(items.@sum.price / items.@count) > 2.5"),
        ("a == b + 1", "a == (b + 1)"), ("x == 5 - 3 - 1", "x == ((5 - 3) - 1)"),
        ("-a.b * 2 > 0 || x == 1", nil),
    ] as [(String, String?)])
    func arithmetic(_ text: String, _ expected: String?) {
        if let expected {
            #expect(QueryTestSupport.canonical(text) == expected)
        } else {
            #expect(QueryTestSupport.errorMessage(text).contains("expecting a number after '-'"))
        }
    }

    /// Realm's lexer reads a sign written right before a number as the number's: `5-3` is the
    /// numbers 5 and -3, two values in a row (realm-core test_parser.cpp lists `1-0 = 1` as invalid).
    @Test("a sign right before a number after a value is a syntax error", arguments: [
        ("a -1 > 0", "unexpected number '-1', expecting an operator (write '- 1' to subtract) at position 3"),
        ("x == 5-3", "unexpected number '-3', expecting an operator (write '- 3' to subtract) at position 7"),
        ("1-0 = 1", "unexpected number '-0', expecting an operator (write '- 0' to subtract) at position 2"),
        ("(a)+2 == 3", "unexpected number '+2', expecting an operator (write '+ 2' to add) at position 4"),
    ])
    func signedNumberAfterAValue(_ text: String, _ message: String) {
        #expect(QueryTestSupport.errorMessage(text) == "Invalid predicate: '\(text)': syntax error, \(message)")
    }

    @Test("quantifiers ANY/SOME, ALL, NONE in both spellings", arguments: [
        ("ANY dogs.age > 5", "ANY dogs.age > 5"), ("any dogs.age > 5", "ANY dogs.age > 5"),
        ("SOME dogs.age > 5", "ANY dogs.age > 5"), ("some dogs.age > 5", "ANY dogs.age > 5"),
        ("ALL dogs.age > 5", "ALL dogs.age > 5"), ("all dogs.age > 5", "ALL dogs.age > 5"),
        ("NONE dogs.age > 5", "NONE dogs.age > 5"), ("none dogs.age > 5", "NONE dogs.age > 5"),
        ("5 < ALL dogs.age", "5 < ALL dogs.age"), ("ANY @links.Person.dogs.age > 1", "ANY @links.Person.dogs.age > 1"),
        ("ANY $K0 == 1", "ANY $K0 == 1"),
    ])
    func quantifiers(_ text: String, _ expected: String) {
        #expect(QueryTestSupport.canonical(text) == expected)
    }

    @Test("key paths: links, escapes, subscripts, dictionaries, backlinks, arguments", arguments: [
        ("dog.owner.name == 'x'", "dog.owner.name == 'x'"), ("fav\\ item == 1", "fav\\ item == 1"),
        ("名前 == 'x'", "名前 == 'x'"), ("_private$-x == 1", "_private$-x == 1"), ("$K0 == 1", "$K0 == 1"),
        ("$K1.name == 'x'", "$K1.name == 'x'"), ("list[0] == 1", "list[0] == 1"), ("list[007] == 1", "list[7] == 1"),
        ("list[FIRST] == 1", "list[FIRST] == 1"), ("list[first] == 1", "list[FIRST] == 1"),
        ("list[LAST] == 1", "list[LAST] == 1"), ("list[last] == 1", "list[LAST] == 1"), ("list[*] == 1", "list[*] == 1"),
        ("dict['key'] == 1", "dict['key'] == 1"), ("dict[\"k y\"] == 1", "dict['k y'] == 1"),
        ("dict[$0] == 1", "dict[$0] == 1"), ("dict.key == 1", "dict.key == 1"), ("dict.@keys == 'a'", "dict.@keys == 'a'"),
        ("dict.@values > 1", "dict.@values > 1"), ("value[*][*] == 1", "value[*][*] == 1"),
        ("list_any[2][1] == 'x'", "list_any[2][1] == 'x'"), ("a . b == 1", "a.b == 1"),
        ("list[0].name == 'x'", "list[0].name == 'x'"), ("@links.Person.dogs.name == 'x'", "@links.Person.dogs.name == 'x'"),
        ("dog.@links.Person.dogs.@count > 0", "dog.@links.Person.dogs.@count > 0"),
        ("@links.Person.dogs == NULL", "@links.Person.dogs == NULL"),
    ])
    func keyPaths(_ text: String, _ expected: String) {
        #expect(QueryTestSupport.canonical(text) == expected)
    }

    @Test("keywords are property names where Realm allows them", arguments: [
        ("sort == 1", "sort == 1"), ("x.in == 1", "x.in == 1"), ("text == 'a'", "text == 'a'"),
        ("limit.distinct == 2", "limit.distinct == 2"), ("any == 1", "any == 1"), ("not == 1", "not == 1"),
        ("NOT not == 1", "!(not == 1)"), ("truepredicate == 1", "truepredicate == 1"), ("null.x == 1", "null.x == 1"),
        ("a.beginswith BEGINSWITH 'x'", "a.beginswith BEGINSWITH 'x'"), ("a.O5 == 1", "a.O5 == 1"),
        ("a.T1 == 1", "a.T1 == 1"), ("ANY any.x == 1", "ANY any.x == 1"), ("x == True", "x == True"),
        ("subquery.x == 1", "subquery.x == 1"), ("a.$x == 1", "a.$x == 1"),
    ])
    func keywordsAsNames(_ text: String, _ expected: String) {
        #expect(QueryTestSupport.canonical(text) == expected)
    }

    @Test("collection operators @count @size [SIZE] @sum @avg @min @max @type", arguments: [
        ("items.@count > 3", "items.@count > 3"), ("items.@size > 3", "items.@count > 3"),
        ("items[SIZE] > 3", "items.@count > 3"), ("items[size] > 3", "items.@count > 3"),
        ("name.@size > 3", "name.@count > 3"), ("items.@sum.price > 5", "items.@sum.price > 5"),
        ("items.@avg.price < 2", "items.@avg.price < 2"), ("items.@min.price == 1", "items.@min.price == 1"),
        ("items.@max.price == 9", "items.@max.price == 9"), ("scores.@sum > 100", "scores.@sum > 100"),
        ("dict.@max == 3", "dict.@max == 3"), ("ALL kids.toys.@count > 2", "ALL kids.toys.@count > 2"),
        ("@links.@count == 0", "@links.@count == 0"), ("@links.@size == 0", "@links.@count == 0"),
        ("@links.Person.dogs.@count > 1", "@links.Person.dogs.@count > 1"), ("list_any[1][SIZE] == 2", "list_any[1].@count == 2"),
        ("mixed.@type == 'int'", "mixed.@type == 'int'"), ("ANY mixed.@type IN {'string', 'double'}", "ANY mixed.@type IN {'string', 'double'}"),
        ("mixed[0].@type ==[c] 'Decimal'", "mixed[0].@type ==[c] 'Decimal'"),
    ])
    func collectionOperators(_ text: String, _ expected: String) {
        #expect(QueryTestSupport.canonical(text) == expected)
    }

    @Test("SUBQUERY, nested with different variables", arguments: [
        ("SUBQUERY(items, $x, $x.price > 5).@count > 2", "SUBQUERY(items, $x, $x.price > 5).@count > 2"),
        ("SUBQUERY(items, $x, $x.price > 5 && $x.name == 'a').@size == 0",
         "SUBQUERY(items, $x, ($x.price > 5) && ($x.name == 'a')).@count == 0"),
        ("subquery(a.items, $item, $item.x == 1).@count > 0", "SUBQUERY(a.items, $item, $item.x == 1).@count > 0"),
        ("SUBQUERY(kids, $k, SUBQUERY($k.toys, $t, $t.price > $k.age).@count > 0).@count == 1",
         "SUBQUERY(kids, $k, SUBQUERY($k.toys, $t, $t.price > $k.age).@count > 0).@count == 1"),
        ("$0 < SUBQUERY(items, $x, ANY $x.tags == 'a').@count", "$0 < SUBQUERY(items, $x, ANY $x.tags == 'a').@count"),
        ("SUBQUERY(items, $x, TRUEPREDICATE).@count == items.@count", "SUBQUERY(items, $x, TRUEPREDICATE).@count == items.@count"),
    ])
    func subqueries(_ text: String, _ expected: String) {
        #expect(QueryTestSupport.canonical(text) == expected)
    }

    @Test("GEOWITHIN with geoBox, geoCircle, geoPolygon and arguments", arguments: [
        ("loc GEOWITHIN geoBox([-1, 2.5], [3, 4])", "loc GEOWITHIN geoBox([-1.0, 2.5], [3.0, 4.0])"),
        ("loc geowithin geoCircle([0.5, -0.25], 0.01)", "loc GEOWITHIN geoCircle([0.5, -0.25], 0.01)"),
        ("loc GEOWITHIN geoCircle([$0, $1], $2)", "loc GEOWITHIN geoCircle([$0, $1], $2)"),
        ("loc GEOWITHIN GEOBOX([1, 2, 3], [4, 5, 6])", "loc GEOWITHIN geoBox([1.0, 2.0, 3.0], [4.0, 5.0, 6.0])"),
        ("loc GEOWITHIN geoPolygon({[0, 0], [1, 0], [1, 1], [0, 0]})",
         "loc GEOWITHIN geoPolygon({[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]})"),
        ("loc GEOWITHIN geopolygon({[0, 0], [9, 0], [9, 9], [0, 0]}, {[1, 1], [2, 1], [2, 2], [1, 1]})",
         "loc GEOWITHIN geoPolygon({[0.0, 0.0], [9.0, 0.0], [9.0, 9.0], [0.0, 0.0]}, {[1.0, 1.0], [2.0, 1.0], [2.0, 2.0], [1.0, 1.0]})"),
        ("loc GEOWITHIN $0", "loc GEOWITHIN $0"), ("place.loc GEOWITHIN geoBox([0, 0], [1e1, 1.5f])",
                                                    "place.loc GEOWITHIN geoBox([0.0, 0.0], [10.0, 1.5])"),
    ])
    func geo(_ text: String, _ expected: String) {
        #expect(QueryTestSupport.canonical(text) == expected)
    }

    @Test("boolean structure: TRUEPREDICATE, FALSEPREDICATE, AND, OR, NOT", arguments: [
        ("TRUEPREDICATE", "TRUEPREDICATE"), ("truepredicate", "TRUEPREDICATE"), ("FalsePredicate", "FALSEPREDICATE"),
        ("a == 1 AND b == 2", "(a == 1) && (b == 2)"), ("a == 1 and b == 2 && c == 3", "(a == 1) && (b == 2) && (c == 3)"),
        ("a == 1 OR b == 2 or c == 3 || d == 4", "(a == 1) || (b == 2) || (c == 3) || (d == 4)"),
        ("NOT a == 1", "!(a == 1)"), ("not a == 1", "!(a == 1)"), ("!a == 1", "!(a == 1)"), ("!(a == 1)", "!(a == 1)"),
        ("!!a == 1", "!(!(a == 1))"), ("NOT NOT TRUEPREDICATE", "!(!(TRUEPREDICATE))"), ("((a == 1))", "a == 1"),
        ("(TRUEPREDICATE)", "TRUEPREDICATE"), ("not -5 > a", "!(-5 > a)"), ("!(a) == 1", "!(a == 1)"),
    ])
    func booleanStructure(_ text: String, _ expected: String) {
        #expect(QueryTestSupport.canonical(text) == expected)
    }

    @Test("precedence: NOT over AND over OR", arguments: [
        ("a == 1 || b == 2 && c == 3", "(a == 1) || ((b == 2) && (c == 3))"),
        ("a == 1 && b == 2 || c == 3", "((a == 1) && (b == 2)) || (c == 3)"),
        ("!a == 1 && b == 2", "(!(a == 1)) && (b == 2)"), ("NOT a == 1 || b == 2", "(!(a == 1)) || (b == 2)"),
        ("!(a == 1 || b == 2)", "!((a == 1) || (b == 2))"),
        ("(a == 1 || b == 2) && c == 3", "((a == 1) || (b == 2)) && (c == 3)"),
        ("a == 1 && (b == 2 && c == 3)", "(a == 1) && ((b == 2) && (c == 3))"),
        ("a == 1 or b == 2 and not c == 3 or d == 4", "(a == 1) || ((b == 2) && (!(c == 3))) || (d == 4)"),
        ("(a + 1) * 2 > 3 && b == 1", "(((a + 1) * 2) > 3) && (b == 1)"), ("((a + 1) > 2)", "(a + 1) > 2"),
        ("(a) IN {1}", "a IN {1}"), ("(a) BEGINSWITH 'x'", "a BEGINSWITH 'x'"),
        ("a + 1 > b * 2 || c - 1 < 0", "((a + 1) > (b * 2)) || ((c - 1) < 0)"),
        ("TRUEPREDICATE && !FALSEPREDICATE", "(TRUEPREDICATE) && (!(FALSEPREDICATE))"),
        ("! ! (a == 1)", "!(!(a == 1))"), ("((a == 1) || (b == 2)) && ((c + 1) > 2)", "((a == 1) || (b == 2)) && ((c + 1) > 2)"),
    ])
    func precedence(_ text: String, _ expected: String) {
        #expect(QueryTestSupport.canonical(text) == expected)
    }

    @Test("links, typed links and object references as constants", arguments: [
        ("owner == O5", "owner == O5"), ("owner == L1:2", "owner == L1:2"),
        ("owner == obj('Person', 5)", "owner == obj('Person', 5)"), ("owner == OBJ(\"Person\", 'k')", "owner == obj('Person', 'k')"),
        ("owner IN {O1, O2}", "owner IN {O1, O2}"), ("owner == obj('Person', -5)", "owner == obj('Person', -5)"),
        ("owner == obj('P', oid(65f1c0ffee0000000000abcd))", "owner == obj('P', oid(65f1c0ffee0000000000abcd))"),
    ])
    func objectConstants(_ text: String, _ expected: String) {
        #expect(QueryTestSupport.canonical(text) == expected)
    }

    // MARK: - Keyword spelling rules

    @Test("case-insensitive keywords accept any case", arguments: [
        "a == 1 aNd b == 2", "a == 1 Or b == 2", "name BeginsWith 'x'", "name eNDSwITH 'x'", "name ConTains 'x'",
        "name LiKe 'x'", "name TeXt 'x'", "x BeTwEeN {1, 2}", "loc GeoWithin $0", "TruePredicate", "FALSEpredicate",
        "TRUEPREDICATE sOrT(a AsC) DiStInCt(a) LiMiT(1)", "SubQuery(items, $x, $x.a == 1).@count > 0", "x == NuLl",
        "x == NIL", "x == nIl", "loc GEOWITHIN GeOcIrClE([1, 2], 3)", "TRUEPREDICATE SORT(a Ascending, b DESCENDING, c desc)",
        "x == INF", "x == Infinity", "x == NAN", "x == Bin('x')", "x == OBJ('A', 1)",
    ])
    func caseInsensitiveKeywords(_ text: String) {
        #expect(!QueryTestSupport.canonical(text).hasPrefix("ERROR"))
    }

    @Test("two-spelling keywords reject mixed case", arguments: [
        ("x In {1}", "unexpected identifier 'In', expecting a comparison operator at position 3"),
        ("Any items.x == 1", "unexpected identifier 'items', expecting a comparison operator at position 5"),
        ("Some items.x == 1", "unexpected identifier 'items', expecting a comparison operator at position 6"),
        ("All items.x == 1", "unexpected identifier 'items', expecting a comparison operator at position 5"),
        ("None items.x == 1", "unexpected identifier 'items', expecting a comparison operator at position 6"),
        ("Not a == 1", "unexpected identifier 'a', expecting a comparison operator at position 5"),
        ("list[First] == 1", "unexpected identifier 'First', expecting an index, FIRST, LAST, SIZE, '*', a string key or an argument at position 6"),
        ("list[Last] == 1", "unexpected identifier 'Last', expecting an index, FIRST, LAST, SIZE, '*', a string key or an argument at position 6"),
        ("list[Size] == 1", "unexpected identifier 'Size', expecting an index, FIRST, LAST, SIZE, '*', a string key or an argument at position 6"),
        ("x == 1 && Any x == 1", "unexpected identifier 'x', expecting a comparison operator at position 15"),
        ("x == 1 [C]", "unexpected '[', expecting '&&', '||', SORT, DISTINCT, LIMIT or end of input at position 8"),
    ])
    func twoSpellingKeywords(_ text: String, _ detail: String) {
        #expect(QueryTestSupport.errorMessage(text) == "Invalid predicate: '\(text)': syntax error, \(detail)")
    }

    @Test("True and False are names, true and TRUE are constants")
    func booleanSpellings() throws {
        for (text, value) in [("true", true), ("TRUE", true), ("false", false), ("FALSE", false)] {
            #expect(QueryTestSupport.literal(text)?.value == .bool(value))
        }
        for text in ["True", "False", "tRUE"] {
            let comparison = try #require(QueryTestSupport.comparison("x == \(text)"))
            guard case .keyPath(let path, nil) = comparison.rhs.kind else {
                Issue.record("\(text) is not a path")
                continue
            }
            #expect(path.components.map(\.kind) == [.property(text)])
        }
    }

    // MARK: - Postfix clauses

    @Test("SORT, DISTINCT and LIMIT keep their written order and multiplicity")
    func postfixOrder() throws {
        let text = "TRUEPREDICATE SORT(age DESC) DISTINCT(name, owner.id) LIMIT(10) SORT(name ASC, b.c descending) LIMIT(0)"
        let query = try QueryParser.parse(text)
        #expect(query.predicate.kind == .truePredicate)
        #expect(query.postfix.map(\.description) == [
            "SORT(age DESC)", "DISTINCT(name, owner.id)", "LIMIT(10)", "SORT(name ASC, b.c DESC)", "LIMIT(0)",
        ])
        guard case .sort(let keys) = query.postfix[3].kind, case .limit(let count) = query.postfix[2].kind else {
            Issue.record("wrong clause kinds")
            return
        }
        #expect(keys.map(\.ascending) == [true, false])
        #expect(keys[1].path.components.map(\.kind) == [.property("b"), .property("c")])
        #expect(count == 10)
        #expect(query.postfix[0].range == .init(start: 14, end: 28))
    }

    @Test("postfix clauses follow any predicate", arguments: [
        ("a == 1 LIMIT(5)", "a == 1 LIMIT(5)"), ("a == 1 || b == 2 SORT(a asc)", "(a == 1) || (b == 2) SORT(a ASC)"),
        ("sort == 1 SORT(sort ASC)", "sort == 1 SORT(sort ASC)"), ("x == 1 limit(1) limit(2)", "x == 1 LIMIT(1) LIMIT(2)"),
        ("TRUEPREDICATE DISTINCT(@links.X.y, dict['k'], list[0])", "TRUEPREDICATE DISTINCT(@links.X.y, dict['k'], list[0])"),
        ("TRUEPREDICATE SORT(a ASCENDING) DISTINCT(a) SORT(b DESC)", "TRUEPREDICATE SORT(a ASC) DISTINCT(a) SORT(b DESC)"),
    ])
    func postfixAfterPredicates(_ text: String, _ expected: String) {
        #expect(QueryTestSupport.canonical(text) == expected)
    }

    @Test("sort descriptors: direction optional, ascending by default")
    func sortDescriptors() throws {
        let keys = try QueryParser.parseSortDescriptor("age DESC, name, owner.name ascending")
        #expect(keys.map(\.description) == ["age DESC", "name ASC", "owner.name ASC"])
        #expect(try QueryParser.parseSortDescriptor("@links.Person.dogs.age desc").map(\.description)
            == ["@links.Person.dogs.age DESC"])
        for (text, detail) in [
            ("", "unexpected end of input, expecting a property name at position 1"),
            ("age DESC,", "unexpected end of input, expecting a property name at position 10"),
            ("age sideways", "unexpected identifier 'sideways', expecting ASC, DESC, ',' or end of input at position 5"),
            ("items.@count", "'@count' cannot be used in a sort descriptor at position 7"),
        ] {
            #expect(throws: DrumlinError(.query, "Invalid sort descriptor: '\(text)': syntax error, \(detail)")) {
                try QueryParser.parseSortDescriptor(text)
            }
        }
    }

    // MARK: - Tree shape and ranges

    @Test("comparisons carry operator, flag and byte ranges")
    func comparisonRanges() throws {
        let comparison = try #require(QueryTestSupport.comparison("age >= $0"))
        #expect(comparison.op == .greaterOrEqual)
        #expect(!comparison.caseInsensitive)
        #expect(comparison.range == .init(start: 0, end: 9))
        #expect(comparison.operatorRange == .init(start: 4, end: 6))
        #expect(comparison.lhs.range == .init(start: 0, end: 3))
        #expect(comparison.rhs == Query.Expression(.argument(0), range: .init(start: 7, end: 9)))

        let string = try #require(QueryTestSupport.comparison("name BEGINSWITH[c] 'a'"))
        #expect(string.op == .beginsWith && string.caseInsensitive)
        #expect(string.operatorRange == .init(start: 5, end: 18))

        let unicode = try #require(QueryTestSupport.comparison("名前 == 'x'"))
        #expect(unicode.lhs.range == .init(start: 0, end: 6))
        #expect(unicode.rhs.range == .init(start: 10, end: 13))
    }

    @Test("parenthesized predicates and expressions include their parentheses")
    func groupRanges() throws {
        let query = try QueryParser.parse("  (a == 1) && (x + 1) > 2")
        guard case .and(let parts) = query.predicate.kind, case .comparison(let second) = parts[1].kind else {
            Issue.record("not an AND of two parts: \(query)")
            return
        }
        #expect(parts[0].range == .init(start: 2, end: 10))
        #expect(query.predicate.range == .init(start: 2, end: 25))
        #expect(second.lhs.range == .init(start: 14, end: 21))
        guard case .arithmetic(let lhs, .add, let rhs) = second.lhs.kind else {
            Issue.record("not an addition: \(second.lhs)")
            return
        }
        #expect(lhs.range == .init(start: 15, end: 16) && rhs.range == .init(start: 19, end: 20))
    }

    @Test("paths: components, quantifier and ranges")
    func pathComponents() throws {
        let comparison = try #require(QueryTestSupport.comparison("ANY dogs[0]['k'][$1][*][FIRST][LAST].@keys.@values == 1"))
        guard case .keyPath(let path, .anyElement) = comparison.lhs.kind else {
            Issue.record("not a quantified path: \(comparison.lhs)")
            return
        }
        #expect(path.components.map(\.kind) == [
            .property("dogs"), .index(0), .key("k"), .argument(1), .all, .first, .last, .keys, .values,
        ])
        #expect(comparison.lhs.range == .init(start: 0, end: 50))
        #expect(path.range == .init(start: 4, end: 50))
        #expect(path.components[1].range == .init(start: 8, end: 11))

        let links = try #require(QueryTestSupport.comparison("@links.Person.dogs.name == 'x'"))
        guard case .keyPath(let linksPath, nil) = links.lhs.kind else { return }
        #expect(linksPath.components.map(\.kind) == [.backlinks(className: "Person", property: "dogs"), .property("name")])
        #expect(linksPath.components[0].range == .init(start: 0, end: 18))

        let escaped = try #require(QueryTestSupport.comparison("fav\\ item.a\\tb == $K2.x"))
        guard case .keyPath(let escapedPath, nil) = escaped.lhs.kind, case .keyPath(let argumentPath, nil) = escaped.rhs.kind
        else { return }
        #expect(escapedPath.components.map(\.kind) == [.property("fav item"), .property("a\tb")])
        #expect(argumentPath.components.map(\.kind) == [.keyPathArgument(2), .property("x")])
    }

    @Test("collection operators become aggregate and typeOf expressions")
    func aggregateShapes() throws {
        let size = try #require(QueryTestSupport.comparison("items[SIZE] == 2"))
        guard case .aggregate(let path, .count, nil, nil) = size.lhs.kind else {
            Issue.record("not a count: \(size.lhs)")
            return
        }
        #expect(path.components.map(\.kind) == [.property("items")])
        #expect(path.range == .init(start: 0, end: 5) && size.lhs.range == .init(start: 0, end: 11))

        let sum = try #require(QueryTestSupport.comparison("ALL kids.toys.@sum.price > 1"))
        guard case .aggregate(let sumPath, .sum, "price", .allElements) = sum.lhs.kind else {
            Issue.record("not a sum: \(sum.lhs)")
            return
        }
        #expect(sumPath.components.map(\.kind) == [.property("kids"), .property("toys")])

        let all = try #require(QueryTestSupport.comparison("@links.@count == 0"))
        guard case .aggregate(let allPath, .count, nil, nil) = all.lhs.kind else { return }
        #expect(allPath.components.map(\.kind) == [.allBacklinks])

        let type = try #require(QueryTestSupport.comparison("NONE mixed.@type == 'int'"))
        guard case .typeOf(let typePath, .noElement) = type.lhs.kind else {
            Issue.record("not a type: \(type.lhs)")
            return
        }
        #expect(typePath.components.map(\.kind) == [.property("mixed")])
    }

    @Test("subquery variables are path components and lists/BETWEEN keep their elements")
    func subqueryAndListShapes() throws {
        let outer = try #require(QueryTestSupport.comparison("SUBQUERY(items, $x, $x.price > 5).@count > 2"))
        guard case .subquery(let collection, "x", let predicate) = outer.lhs.kind,
              case .comparison(let inner) = predicate.kind, case .keyPath(let innerPath, nil) = inner.lhs.kind else {
            Issue.record("not a subquery: \(outer.lhs)")
            return
        }
        #expect(collection.components.map(\.kind) == [.property("items")])
        #expect(innerPath.components.map(\.kind) == [.variable("x"), .property("price")])

        let between = try #require(QueryTestSupport.comparison("age BETWEEN {18, $0}"))
        guard case .list(let bounds, nil) = between.rhs.kind else { return }
        #expect(between.op == .between)
        #expect(bounds.map(\.kind) == [.constant(.int(18), literal: "18"), .argument(0)])

        let geo = try #require(QueryTestSupport.comparison("loc GEOWITHIN geoCircle([$0, -1.5], 0.25)"))
        guard case .geoCircle(let center, let radius) = geo.rhs.kind else { return }
        #expect(center.longitude.kind == .argument(0) && center.latitude.kind == .number(-1.5))
        #expect(center.altitude == nil && radius.kind == .number(0.25))
        #expect(center.range == .init(start: 24, end: 34))
    }
}
