@testable import DrumlinEngine
import Testing

let querySchema = """
[
 {"name": "Person", "primaryKey": "id", "properties": {
    "id": "int", "name": "string", "age": "int?", "score": "double?", "balance": "decimal128?",
    "active": "bool", "born": "date?", "oid": "objectId?", "tag": "uuid?", "photo": "data?",
    "bio": {"type": "string", "optional": true, "indexed": "full-text"},
    "city": {"type": "string", "optional": true, "indexed": true},
    "dog": "Dog", "dogs": "Dog[]", "tags": "string<>", "scores": "int[]", "extra": "mixed{}", "anything": "mixed",
    "home": "Place"}},
 {"name": "Dog", "primaryKey": "name", "properties": {
    "name": "string", "age": "int", "toys": "Toy[]",
    "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs"}}},
 {"name": "Toy", "properties": {"label": "string", "price": "double"}},
 {"name": "Place", "embedded": true, "properties": {"name": "string", "location": "Point"}},
 {"name": "Point", "embedded": true, "properties": {"type": "string", "coordinates": "double[]"}}
]
"""

/// Six people, four dogs, some toys: small enough to reason about every answer.
func peopleFixture() throws -> Database {
    let db = try Database(path: ":memory:", schemaJSON: querySchema)
    try db.write {
        try db.createMany("Dog", json: """
            [{"name": "Rex", "age": 3, "toys": [{"label": "ball", "price": 2.5}, {"label": "rope", "price": 4}]},
             {"name": "Bo", "age": 7, "toys": [{"label": "bone", "price": 10}]},
             {"name": "Cy", "age": 1}, {"name": "Dot", "age": 12}]
            """)
        try db.createMany("Person", json: """
            [{"id": 1, "name": "Ann", "age": 31, "score": 1.5, "balance": {"$numberDecimal": "10.50"}, "active": true,
              "born": {"$date": "1990-05-01T00:00:00Z"}, "bio": "Loves hiking in the Alps", "city": "Zürich",
              "dog": "Rex", "dogs": ["Rex", "Bo"], "tags": ["a", "b"], "scores": [1, 2, 3], "extra": {"k": 1, "s": "x"},
              "anything": 3, "home": {"name": "Z", "location": {"type": "Point", "coordinates": [8.54, 47.37]}}},
             {"id": 2, "name": "bob", "age": 17, "score": 9.0, "balance": {"$numberDecimal": "0.1"}, "active": false,
              "born": {"$date": "2007-01-01T00:00:00Z"}, "bio": "Café owner, loves coffee", "city": "Paris",
              "dogs": ["Cy"], "tags": ["b"], "scores": [], "anything": "3", "extra": {"k": 2},
              "home": {"name": "P", "location": {"type": "Point", "coordinates": [2.35, 48.86]}}},
             {"id": 3, "name": "Ánna", "age": null, "active": true, "dogs": [], "anything": 3.0, "bio": "hiker and skier"},
             {"id": 4, "name": "Dave", "age": 45, "score": -2, "active": false, "dog": "Dot", "dogs": ["Dot", "Rex", "Bo"],
              "scores": [10], "anything": {"$numberDecimal": "3"}, "city": "Zurich"},
             {"id": 5, "name": "eve", "age": 31, "active": true, "anything": [1, 2], "tags": []},
             {"id": 6, "name": "Finn", "age": 62, "active": true, "anything": null, "photo": {"$binary": {"base64": "AQID", "subType": "00"}}}]
            """)
    }
    return db
}

func ids(_ results: Results) throws -> [Int64] {
    try results.objects.map { object in
        guard case .int(let id) = try object["id"] else { return -1 }
        return id
    }
}

@Suite struct QueryTests {
    let db: Database
    init() throws { db = try peopleFixture() }

    func q(_ query: String, _ args: [Value] = []) throws -> [Int64] {
        try ids(db.query("Person", query, args))
    }

    @Test func comparisonsOnEveryScalarType() throws {
        #expect(try q("age > 30") == [1, 4, 5, 6])
        #expect(try q("age == nil") == [3])
        #expect(try q("age != 31") == [2, 3, 4, 6])
        #expect(try q("score >= 1.5") == [1, 2])
        #expect(try q("score < 0") == [4])
        #expect(try q("balance > 1") == [1])
        #expect(try q("balance == 0.1") == [2])
        #expect(try q("active == true") == [1, 3, 5, 6])
        #expect(try q("born < $0", [.date(Timestamp(iso8601: "2000-01-01T00:00:00Z")!)]) == [1])
        #expect(try q("born > 1995-01-01@00:00:00") == [2])
        #expect(try q("photo == bin('\u{01}\u{02}\u{03}')") == [6])
        #expect(try q("age == $0 AND active == $1", [31, true]) == [1, 5])
        #expect(try q("TRUEPREDICATE") == [1, 2, 3, 4, 5, 6])
        #expect(try q("FALSEPREDICATE") == [])
        #expect(try q("NOT (age > 30) OR name == 'Finn'") == [2, 3, 6])
    }

    @Test func numbersCompareAcrossTypes() throws {
        #expect(try q("age == 31.0") == [1, 5])
        #expect(try q("score == 9") == [2])
        #expect(try q("balance < 10.6 AND balance > 10.4") == [1])
    }

    @Test func stringOperators() throws {
        #expect(try q("name BEGINSWITH 'A'") == [1])
        #expect(try q("name BEGINSWITH[c] 'a'") == [1])      // [c] folds case, not accents: 'Ánna' differs
        #expect(try q("name BEGINSWITH[c] 'á'") == [3])
        #expect(try q("name ==[c] 'BOB'") == [2])
        #expect(try q("name ENDSWITH 'e'") == [4, 5])
        #expect(try q("name CONTAINS[c] 'nn'") == [1, 3, 6])
        #expect(try q("name LIKE '?ve'") == [5])
        #expect(try q("name LIKE[c] 'a*'") == [1])
        #expect(try q("city CONTAINS NULL") == [1, 2, 3, 4, 5, 6])
        #expect(try q("city LIKE NULL") == [3, 5, 6])
        #expect(try q("city ==[c] 'zürich'") == [1])
    }

    @Test func linksAndNullTraversal() throws {
        #expect(try q("dog.name == 'Rex'") == [1])
        #expect(try q("dog.age > 5") == [4])
        #expect(try q("dog == nil") == [2, 3, 5, 6])
        #expect(try q("dog.name == nil") == [2, 3, 5, 6])
        #expect(try q("dog == $0", ["Dot"]) == [4])
        #expect(try q("home.name == 'P'") == [2])
    }

    @Test func toManyPathsAndQuantifiers() throws {
        #expect(try q("dogs.age > 5") == [1, 4])
        #expect(try q("ANY dogs.name == 'Rex'") == [1, 4])
        #expect(try q("ALL dogs.age > 2") == [1, 3, 4, 5, 6])
        #expect(try q("NONE dogs.age > 2") == [2, 3, 5, 6])
        #expect(try q("dogs.toys.label == 'bone'") == [1, 4])
        #expect(try q("'b' IN tags") == [1, 2])
        #expect(try q("scores > 2") == [1, 4])
        #expect(try q("ALL scores > 2") == [2, 3, 4, 5, 6])
    }

    @Test func listsSetsAndDictionaries() throws {
        #expect(try q("scores[0] == 1") == [1])
        #expect(try q("scores[LAST] == 3") == [1])
        #expect(try q("scores[FIRST] == 10") == [4])
        #expect(try q("dogs[1].name == 'Rex'") == [4])
        #expect(try q("tags.@count == 2") == [1])
        #expect(try q("extra['k'] == 2") == [2])
        #expect(try q("extra.k == 1") == [1])
        #expect(try q("extra.@keys == 's'") == [1])
        #expect(try q("extra.@values == 'x'") == [1])
        #expect(try q("extra.@count == 1") == [2])
        #expect(try q("extra[$0] == 1", ["k"]) == [1])
    }

    @Test func aggregatesOverCollections() throws {
        #expect(try q("dogs.@count == 3") == [4])
        #expect(try q("dogs.@size > 0") == [1, 2, 4])
        #expect(try q("scores.@sum == 6") == [1])
        #expect(try q("scores.@sum == 0") == [2, 3, 5, 6])
        #expect(try q("scores.@avg == 2") == [1])
        #expect(try q("scores.@max == 10") == [4])
        #expect(try q("scores.@min == nil") == [2, 3, 5, 6])
        #expect(try q("dogs.@sum.age == 10") == [1])
        #expect(try q("dogs.@max.age > 10") == [4])
        #expect(try q("name.@size == 3") == [1, 2, 5])
    }

    @Test func sortDistinctLimitInWrittenOrder() throws {
        #expect(try q("TRUEPREDICATE SORT(age DESC)") == [6, 4, 1, 5, 2, 3])
        #expect(try q("TRUEPREDICATE SORT(age ASC, name DESC)") == [3, 2, 5, 1, 4, 6])
        #expect(try q("active == true SORT(age ASC) LIMIT(2)") == [3, 1])
        #expect(try q("TRUEPREDICATE LIMIT(3) SORT(age DESC)") == [1, 2, 3])
        #expect(try q("TRUEPREDICATE DISTINCT(age)") == [1, 2, 3, 4, 6])
        #expect(try q("TRUEPREDICATE SORT(name ASC) DISTINCT(active) SORT(id DESC)") == [4, 1])
        let people = try db.objects("Person").filter("age != nil").sorted(by: [("age", false), ("name", true)]).limit(3)
        #expect(try ids(people) == [6, 4, 1])
        #expect(try ids(db.objects("Person").sorted(by: "dog.age DESC, id")) == [4, 1, 2, 3, 5, 6])
    }

    @Test func aSortThenLimitKeepsTheFirstRowsOfTheWholeSort() throws {
        // SORT followed by LIMIT is compiled as one top-n read: the same rows in the same order as
        // the whole sort cut after n, ties (equal ages, nulls) broken by the order before it.
        let predicates = ["TRUEPREDICATE", "active == true", "age != nil", "FALSEPREDICATE"]
        let sorts = ["SORT(age ASC)", "SORT(age DESC)", "SORT(active ASC, age DESC)", "SORT(dog.age ASC)",
                     "SORT(anything ASC)", "SORT(name DESC) DISTINCT(active)", "DISTINCT(age) SORT(age DESC)"]
        for predicate in predicates {
            for sort in sorts {
                let whole = try q("\(predicate) \(sort)")
                for n in [0, 1, 2, 5, 6, 10] {
                    #expect(try q("\(predicate) \(sort) LIMIT(\(n))") == Array(whole.prefix(n)), "\(predicate) \(sort) LIMIT(\(n))")
                }
                #expect(try q("\(predicate) \(sort) LIMIT(3) SORT(id DESC)") == whole.prefix(3).sorted(by: >))
            }
        }
        let sorted = try db.objects("Person").sorted(by: [("age", true)]).limit(4)
        #expect(try ids(sorted) == [3, 2, 1, 5])
        #expect(try ids(sorted.filter("active == true")) == [3, 1, 5])
        #expect(try sorted.count == 4)
    }

    @Test func filtersAndASortReadTheTableStraightInTheSameOrder() throws {
        // Filters over the class, then a SORT (and a LIMIT), read the class's table itself, keys
        // and rows alike. The same steps over a snapshot of the filtered objects take the general
        // route (their rows joined back to the table): both give the same objects in the same
        // order, in key order and (after objects created out of it) in creation order.
        func rowKeys(_ results: Results) throws -> [Int64] {
            var keys: [Int64] = []
            _ = try results.forEachRow(from: 0, maxRows: .max, [0]) { (row) throws(DrumlinError) in keys.append(row.key) }
            return keys
        }
        let filters = [["TRUEPREDICATE"], ["active == true"], ["age != nil", "score == nil OR score < 5"],
                       ["age > 0", "name != 'x'", "dogs.@count > 0"]]
        let sorts: [[(keyPath: String, ascending: Bool)]] = [
            [("age", true)], [("age", false), ("name", true)], [("dog.age", true)], [("active", true), ("score", false)],
        ]
        func check() throws {
            for chain in filters {
                var direct = try db.objects("Person")
                for filter in chain { direct = try direct.filter(filter) }
                let general = try direct.snapshot()
                #expect(try rowKeys(direct) == general.objects.map(\.key), "\(chain)")
                for sort in sorts {
                    let sorted = try direct.sorted(by: sort)
                    let expected = try general.sorted(by: sort).objects.map(\.key)
                    #expect(try sorted.objects.map(\.key) == expected, "\(chain) \(sort)")
                    #expect(try rowKeys(sorted) == expected, "\(chain) \(sort)")
                    for n in [0, 1, 3, 10] {
                        #expect(try rowKeys(sorted.limit(n)) == Array(expected.prefix(n)), "\(chain) \(sort) \(n)")
                        #expect(try sorted.limit(n).objects.map(\.key) == Array(expected.prefix(n)), "\(chain) \(sort) \(n)")
                    }
                    // A filter after the sort, a second sort (its ties in the first's order), a
                    // DISTINCT after either, and the last object of each: as the general route.
                    let pairs: [(Results, Results)] = [
                        (try sorted.filter("active == true"), try general.sorted(by: sort).filter("active == true")),
                        (try sorted.sorted(by: [("active", false)]), try general.sorted(by: sort).sorted(by: [("active", false)])),
                        (try sorted.sorted(by: [("active", true)]).limit(2), try general.sorted(by: sort).sorted(by: [("active", true)]).limit(2)),
                        (try sorted.distinct(["active"]), try general.sorted(by: sort).distinct(["active"])),
                        (try direct.distinct(["active"]), try general.distinct(["active"])),
                        (try direct.distinct(["age"]).sorted(by: sort), try general.distinct(["age"]).sorted(by: sort)),
                    ]
                    for (index, (fast, slow)) in pairs.enumerated() {
                        let want = try slow.objects.map(\.key)
                        #expect(try fast.last()?.key == want.last, "\(chain) \(sort) pair \(index)")
                        #expect(try rowKeys(fast) == want, "\(chain) \(sort) pair \(index)")
                        #expect(try fast.objects.map(\.key) == want, "\(chain) \(sort) pair \(index)")
                    }
                }
            }
            #expect(try q("age > 0 AND active == true SORT(age DESC) LIMIT(2)") == [6, 1])
        }
        try check()
        try db.write {
            try db.createMany("Person", json: #"[{"id": 9, "name": "Ivo", "age": 31, "active": true}, {"id": 7, "name": "Gil", "age": 5, "active": true}]"#)
        }
        try check()
        #expect(try q("age > 0 AND active == true SORT(age DESC) LIMIT(4)") == [6, 1, 5, 9])  // ties: creation order
    }

    @Test func theLastObjectIsTheLastOfTheKeys() throws {
        // Results of a class read their last object alone (their order reversed); lists,
        // backlinks and snapshots read their keys. Every one gives the last of the keys in order.
        func check() throws {
            let ann = try #require(try db.object("Person", primaryKey: .int(1)))
            let rex = try #require(try db.object("Dog", primaryKey: .string("Rex")))
            let every: [Results] = [
                try db.objects("Person"), try db.query("Person", "active == true"),
                try db.query("Person", "age > 0 SORT(age ASC)"), try db.query("Person", "TRUEPREDICATE SORT(age DESC)"),
                try db.query("Person", "TRUEPREDICATE SORT(name ASC) LIMIT(3)"), try db.query("Person", "TRUEPREDICATE DISTINCT(active)"),
                try db.query("Person", "age > 100"), try db.query("Person", "TRUEPREDICATE LIMIT(0)"),
                try db.objects("Person").filter("age != nil").filter("active == true").sorted(by: "name DESC"),
                try db.query("Person", "TRUEPREDICATE SORT(active ASC)"), try db.query("Person", "TRUEPREDICATE SORT(active DESC)"),
                try db.query("Person", "age != 45 SORT(dog.age DESC, age ASC)"), try db.query("Person", "TRUEPREDICATE SORT(age ASC) DISTINCT(active) SORT(name ASC)"),
                try db.objects("Person").sorted(by: "active").filter("age > 20"),
                try ann.list("dogs").results(), try rex.backlinks("owners"), try db.query("Person", "active == true").snapshot(),
            ]
            for (position, results) in every.enumerated() {
                let alone = try results.last()?.key  // before any read of the keys
                let keys = try results.objects.map(\.key)
                #expect(alone == keys.last, "results \(position)")
                #expect(try results.last()?.key == keys.last)  // with the keys read
            }
        }
        try check()
        try db.write {
            try db.createMany("Person", json: #"[{"id": 9, "name": "Ivo", "age": 31, "active": true}, {"id": 7, "name": "Gil", "age": 5, "active": true}]"#)
        }
        try check()
        #expect(try db.objects("Person").last()?.key == db.object("Person", primaryKey: .int(7))?.key)
    }

    @Test func aCountOfTheClassOrAFilterIsTheNumberOfObjectsItReads() throws {
        // Counts of the class and of filters are SQLite's (no list of keys): always the number of
        // objects a read finds, in the write's own state too, and the same once keys were read.
        let predicates = ["TRUEPREDICATE", "age > 30", "active == true AND age != nil", "FALSEPREDICATE", "dogs.age > 5"]
        func check() throws {
            for predicate in predicates {
                #expect(try db.query("Person", predicate).count == q(predicate).count, "\(predicate)")
                // Sorted, the same objects: counted, tested for emptiness and summed without the sort.
                let sorted = try db.query("Person", "\(predicate) SORT(name DESC)").filter("id > 0").sorted(by: "age")
                let keys = try q(predicate)
                #expect(try sorted.count == keys.count && sorted.isEmpty == keys.isEmpty, "\(predicate)")
                #expect(try sorted.sum("age") == db.query("Person", predicate).sum("age"), "\(predicate)")
                #expect(try sorted.max("born") == db.query("Person", predicate).max("born"), "\(predicate)")
                #expect(try ids(sorted).count == keys.count && sorted.count == keys.count)  // from the keys now
            }
            let all = try db.objects("Person")
            #expect(try all.count == ids(all).count)
            #expect(try all.count == ids(all).count)  // from the keys now
            #expect(try all.filter("age > 30").filter("active == true").count == q("age > 30 AND active == true").count)
        }
        try check()
        try db.write {
            try db.createMany("Person", json: #"[{"id": 7, "name": "Gil", "age": 40, "active": true}, {"id": 8, "name": "Hal", "active": false}]"#)
            try db.object("Person", primaryKey: 1)!.delete()
            try check()
            #expect(try db.objects("Person").count == 7)
        }
        try check()
        #expect(try db.query("Person", "age > 30").count == 4)
    }

    @Test func theFirstObjectIsReadAlone() throws {
        // object(at: 0) before the keys are read is a read of the first object only: the same
        // object as the whole read's first, and the same error when there is none.
        for predicate in ["TRUEPREDICATE", "age > 30", "age > 30 SORT(name DESC)", "TRUEPREDICATE SORT(age ASC) DISTINCT(active)",
                          "dogs.age > 5 SORT(dog.age DESC)", "TRUEPREDICATE LIMIT(2) SORT(id DESC)"] {
            let first = try db.query("Person", predicate).object(at: 0)
            #expect(try first["id"] == .int(q(predicate)[0]), "\(predicate)")
        }
        let dogs = try db.object("Person", primaryKey: 4)!.list("dogs").results()
        #expect(try dogs.object(at: 0)["name"] == .string("Dot"))
        let none = try db.query("Person", "age > 100")
        #expect(throws: DrumlinError.self) { _ = try none.object(at: 0) }
        do { _ = try none.object(at: 0) } catch { #expect(error.message == "Index 0 is out of bounds for results of size 0.") }
    }

    @Test func emptinessIsWhetherAReadFindsAnObject() throws {
        // EXISTS for the class and its filters; the keys for the rest; the write's own state too.
        func check() throws {
            for predicate in ["TRUEPREDICATE", "age > 30", "age > 100", "FALSEPREDICATE", "dogs.age > 5",
                              "age > 30 SORT(name ASC)", "age > 100 SORT(name ASC) LIMIT(1)", "TRUEPREDICATE LIMIT(0)"] {
                #expect(try db.query("Person", predicate).isEmpty == q(predicate).isEmpty, "\(predicate)")
            }
        }
        try check()
        let old = try db.query("Person", "age > 60")
        #expect(try !old.isEmpty)
        _ = try ids(old)  // keys kept: answered from them while nothing changes
        #expect(try !old.isEmpty)
        try db.write {
            try db.object("Person", primaryKey: 6)!.delete()
            #expect(try old.isEmpty)
            try check()
        }
        #expect(try old.isEmpty && db.query("Person", "age > 60").isEmpty)
    }

    @Test func backlinksAndSubqueries() throws {
        let dogs = try db.query("Dog", "@links.Person.dogs.@count == 2")
        #expect(try dogs.objects.map { try $0["name"] } == ["Rex", "Bo"])
        #expect(try db.query("Dog", "owners.name == 'Dave'").count == 3)
        #expect(try db.query("Dog", "@links.@count == 0").objects.map { try $0["name"] } == [])
        #expect(try db.query("Dog", "owners.@count == 0").objects.isEmpty)
        #expect(try q("SUBQUERY(dogs, $d, $d.age > 2 AND $d.name BEGINSWITH 'R').@count > 0") == [1, 4])
        #expect(try q("SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price > 3).@count > 0).@count == 2") == [1, 4])
    }

    @Test func inAndBetween() throws {
        #expect(try q("age IN {17, 45}") == [2, 4])
        #expect(try q("age IN $0", [.list([31, 62])]) == [1, 5, 6])
        #expect(try q("name IN[c] {'ANN', 'EVE'}") == [1, 5])
        #expect(try q("age BETWEEN {17, 31}") == [1, 2, 5])
        #expect(try q("ALL scores BETWEEN {1, 3}") == [1, 2, 3, 5, 6])
        #expect(try q("age == ANY {31, 99}") == [1, 5])
        #expect(try q("age == NONE {31, 17, 45}") == [3, 6])
    }

    @Test func mixedValues() throws {
        #expect(try q("anything == 3") == [1, 3, 4])
        #expect(try q("anything == '3'") == [2])
        #expect(try q("anything.@type == 'string'") == [2])
        #expect(try q("anything.@type == 'numeric'") == [1, 3, 4])
        #expect(try q("anything.@type == 'double'") == [3])
        #expect(try q("anything.@type == 'list'") == [5])
        #expect(try q("anything == nil") == [6])
        #expect(try q("anything[1] == 2") == [5])
        #expect(try q("anything[*] == 1") == [5])
        #expect(try q("anything > 2.5") == [1, 3, 4])
    }

    @Test func arithmetic() throws {
        #expect(try q("age * 2 > 80") == [4, 6])
        #expect(try q("age + 1 == 32") == [1, 5])
        #expect(try q("age / 0 > 1") == [1, 2, 4, 5, 6])   // the largest integer, as Realm (3: null age)
        #expect(try q("(age - 1) * 2 == 32") == [2])
    }

    @Test func fullTextSearch() throws {
        #expect(try q("bio TEXT 'loves'") == [1, 2])
        #expect(try q("bio TEXT 'LOVES alps'") == [1])
        #expect(try q("bio TEXT 'hik*'") == [1, 3])
        #expect(try q("bio TEXT 'hik* -skier'") == [1])
        #expect(try q("bio TEXT 'cafe'") == [2])
        try db.write { try db.object("Person", primaryKey: 3)!.set("bio", to: "now a café regular") }
        #expect(try q("bio TEXT 'cafe'") == [2, 3])
        try db.write { try db.object("Person", primaryKey: 2)!.delete() }
        #expect(try q("bio TEXT 'cafe'") == [3])
        expectError(.query) { _ = try q("name TEXT 'x'") }
        expectError(.query) { _ = try q("bio TEXT ''") }
        expectError(.query) { _ = try q("bio TEXT 'a -a'") }
    }

    @Test func geoWithin() throws {
        #expect(try q("home.location GEOWITHIN geoBox([0, 40], [10, 50])") == [1, 2])
        #expect(try q("home.location GEOWITHIN geoBox([5, 40], [10, 50])") == [1])
        // 100 km around Zürich, in radians.
        #expect(try q("home.location GEOWITHIN geoCircle([8.5, 47.4], $0)", [.double(100 / 6378.1)]) == [1])
        #expect(try q("home.location GEOWITHIN geoCircle([$0, $1], 0.2)", [.double(2.3), .double(48.9)]) == [1, 2])
        #expect(try q("home.location GEOWITHIN geoCircle([$0, $1], 0.01)", [.double(2.3), .double(48.9)]) == [2])
        #expect(try q("home.location GEOWITHIN geoPolygon({[0, 45], [10, 45], [10, 50], [0, 50], [0, 45]})") == [1, 2])
        #expect(try q("home.location GEOWITHIN geoPolygon({[0, 45], [10, 45], [10, 50], [0, 50], [0, 45]}, {[8, 47], [9, 47], [9, 48], [8, 48], [8, 47]})") == [2])
        expectError(.query) { _ = try q("home.location GEOWITHIN geoPolygon({[0, 45], [10, 45], [10, 50]})") }
        expectError(.query) { _ = try q("home.location GEOWITHIN geoBox([0, 95], [10, 50])") }
        expectError(.query) { _ = try q("name GEOWITHIN geoBox([0, 40], [10, 50])") }
    }

    @Test func publicAndStoredNamesBothResolve() throws {
        let mapped = try Database(path: ":memory:", schemaJSON: #"[{"name": "P", "mapTo": "people", "properties": {"firstName": {"type": "string", "mapTo": "first_name"}}}]"#)
        try mapped.write { try mapped.create("P", json: #"{"firstName": "A"}"#) }
        #expect(try mapped.query("P", "firstName == 'A'").count == 1)
        #expect(try mapped.query("P", "first_name == 'A'").count == 1)
        #expect(try mapped.query("people", "first_name == 'B'").count == 0)
    }

    @Test func errorsPointAtTheProblem() throws {
        expectError(.query, "Invalid predicate: 'age >': syntax error, unexpected end of input, expecting a value at position 6") { _ = try q("age >") }
        expectError(.query, "'Person' has no property 'agee' (at position 1)") { _ = try q("agee > 3") }
        expectError(.query, "Unsupported comparison between type 'int' and type 'string' (at position 1)") { _ = try q("age == 'x'") }
        expectError(.query) { _ = try q("age == $1", [1]) }
        do {
            _ = try q("age == $1", [1])
        } catch let error as DrumlinError {
            #expect(error.message.contains("$1 is missing"))
        }
        expectError(.query) { _ = try q("age BEGINSWITH 'a'") }
        expectError(.query) { _ = try q("SUBQUERY(scores, $s, $s > 1).@count > 0") }
        expectError(.query) { _ = try q("TRUEPREDICATE SORT(dogs.name ASC)") }
    }

    @Test func aggregatesOfTheClassOfFiltersAndOfSortedResults() throws {
        // The class and its filters read the table; the rest join their rows to it: the same sums.
        #expect(try db.objects("Person").sum("age") == .int(31 + 17 + 45 + 31 + 62))
        let chained = try db.objects("Person").filter("age > 40 OR active == false").filter("age < 50")  // ids 2, 4
        #expect(try chained.sum("age") == .int(17 + 45) && chained.count == 2 && ids(chained) == [2, 4])
        #expect(try db.objects("Person").average("age") == .double(Double(31 + 17 + 45 + 31 + 62) / 5))
        #expect(try db.objects("Person").filter("active == true").filter("age > 20").sum("age") == .int(31 + 31 + 62))
        #expect(try db.query("Person", "age > 20 SORT(age DESC) LIMIT(2)").sum("age") == .int(62 + 45))
        #expect(try db.query("Person", "dogs.age > 5").max("age") == .int(45))
        #expect(try db.objects("Person").min("score") == .double(-2))
    }

    @Test func resultsAreLiveAndAggregate() throws {
        let adults = try db.query("Person", "age >= 18")
        #expect(try adults.count == 4)
        try db.write { try db.create("Person", json: #"{"id": 7, "name": "Gus", "age": 20, "active": true}"#) }
        #expect(try adults.count == 5)
        #expect(try adults.sum("age") == .int(31 + 45 + 31 + 62 + 20))
        #expect(try adults.min("age") == .int(20))
        #expect(try adults.max("score") == .double(1.5))
        #expect(try adults.average("age") == .double(Double(31 + 45 + 31 + 62 + 20) / 5))
        let none = try db.query("Person", "age > 100")
        #expect(try none.sum("age") == .int(0))
        #expect(try none.min("age") == .null)
        #expect(try none.average("age") == .null)
        let frozen = try adults.snapshot()
        try db.write { _ = try db.query("Person", "name == 'Gus'").deleteAll() }
        #expect(try adults.count == 4)
        #expect(try frozen.count == 4)
        #expect(try db.query("Person", "age > 40").jsonText().hasPrefix(#"[{"id":4,"name":"Dave""#))
    }

    @Test func listsAndBacklinksCanBeFilteredAndSorted() throws {
        let dave = try #require(try db.object("Person", primaryKey: 4))
        let dogs = try dave.list("dogs").results()
        #expect(try dogs.objects.map { try $0["name"] } == ["Dot", "Rex", "Bo"])
        #expect(try dogs.filter("age < 10").objects.map { try $0["name"] } == ["Rex", "Bo"])
        #expect(try dogs.sorted(by: "age").objects.map { try $0["name"] } == ["Rex", "Bo", "Dot"])
        let rex = try #require(try db.object("Dog", primaryKey: "Rex"))
        #expect(try ids(rex.backlinks("owners").filter("age > 40")) == [4])
    }

    @Test func indexesAreUsedForEqualityOnIndexedPropertiesAndPrimaryKeys() throws {
        let path = temporaryPath()
        let file = try Database(path: path, schemaJSON: querySchema)
        try file.write { try file.create("Dog", json: #"{"name": "Rex", "age": 1}"#) }
        #expect(try file.explainQueryPlan("Person", "city == 'Paris'").contains { $0.contains("INDEX _drumlin_idx_6_Person_city (city=?)") })
        #expect(try file.explainQueryPlan("Dog", "name == 'Rex'").contains { $0.contains("INDEX _drumlin_pk_3_Dog_name (name=?)") })
        #expect(try file.explainQueryPlan("Person", "id == 3").contains { $0.contains("USING INTEGER PRIMARY KEY") })
        #expect(!(try file.explainQueryPlan("Person", "city == 'Paris'").contains { $0.hasPrefix("SCAN t0") }))
        // A list of values, written or as one argument, short or long: one IN, read from the index.
        let long = Value.list((0..<40).map { .string("c\($0)") })
        for (query, arguments) in [("city IN {'Paris', 'Bern'}", []), ("city IN $0", [Value.list([.string("Paris")])]),
                                   ("city == ANY {$0, $1}", [Value.string("Paris"), .string("Bern")]), ("city IN $0", [long])] {
            let plan = try file.explainQueryPlan("Person", query, arguments)
            #expect(plan.contains { $0.contains("INDEX _drumlin_idx_6_Person_city (city=?)") } && !plan.contains { $0.hasPrefix("SCAN t0") },
                    "\(query): \(plan)")
        }
    }

    /// A new file with a Person in each city (ids 1, 2, ... in order) and one without (id 99).
    func peopleIn(_ cities: [String]) throws -> Database {
        let file = try Database(path: temporaryPath(), schemaJSON: querySchema)
        try file.write {
            for (index, city) in cities.enumerated() {
                try file.create("Person", json: #"{"id": \#(index + 1), "name": "n", "active": true, "city": \#(Value.string(city).extendedJSON)}"#)
            }
            try file.create("Person", json: #"{"id": 99, "name": "n", "active": true}"#)
        }
        return file
    }

    @Test func beginsWithIsARangeOfTheIndexWithTheSameMatches() throws {
        #expect(QueryCompiler.prefixEnd("abc") == "abd" && QueryCompiler.prefixEnd("a\u{D7FF}") == "a\u{E000}")
        #expect(QueryCompiler.prefixEnd("a\u{10FFFF}\u{10FFFF}") == "b" && QueryCompiler.prefixEnd("\u{10FFFF}") == nil)
        #expect(QueryCompiler.prefixEnd("") == nil && QueryCompiler.prefixEnd("z\u{FFFF}") == "z\u{10000}")
        let cities = ["Paris", "Par", "Pa", "París", "Parz", "P", "", "Q", "a\u{10FFFF}", "a\u{10FFFF}x", "b", "\u{D7FF}", "\u{E000}", "Zürich"]
        let file = try peopleIn(cities)
        func cityIDs(_ query: String, _ arguments: [Value]) throws -> [Int64] { try ids(file.query("Person", query, arguments)) }
        for prefix in ["Par", "P", "", "a\u{10FFFF}", "a", "\u{D7FF}", "Z", "Pa", "x", "París"] {
            let want = cities.enumerated().filter { $0.element.hasPrefix(prefix) || prefix.isEmpty }.map { Int64($0.offset + 1) }
            #expect(try cityIDs("city BEGINSWITH $0", [.string(prefix)]) == want, "\(prefix)")  // a template, after the first
            #expect(try cityIDs("city BEGINSWITH '\(prefix)'", []) == want, "\(prefix)")
            #expect(try cityIDs("NOT city BEGINSWITH $0", [.string(prefix)]) == ([Int64](1...Int64(cities.count)) + [99]).filter { !want.contains($0) })
        }
        let plan = try file.explainQueryPlan("Person", "city BEGINSWITH $0", [.string("Par")])
        #expect(plan.contains { $0.contains("INDEX _drumlin_idx_6_Person_city (city>? AND city<?)") }, "\(plan)")
        #expect(try cityIDs("city BEGINSWITH[c] $0", [.string("par")]) == [1, 2, 4, 5])  // case-insensitive: the function alone
    }

    @Test func likeIsARangeOfItsLiteralBeginningWithTheSameMatches() throws {
        #expect(QueryCompiler.likePrefix("Par*s") == "Par" && QueryCompiler.likePrefix("P?r") == "P")
        #expect(QueryCompiler.likePrefix("*a") == "" && QueryCompiler.likePrefix("Paris") == "Paris")
        let cities = ["Paris", "Par", "Pa", "París", "Parz", "P", "", "Q", "a\u{10FFFF}", "a\u{10FFFF}x", "b", "Zürich", "Pa*is", "paris"]
        let file = try peopleIn(cities)
        func cityIDs(_ query: String, _ arguments: [Value]) throws -> [Int64] { try ids(file.query("Person", query, arguments)) }
        // What the patterns match, as Realm's LIKE does (`*` any run, `?` one character).
        let expected: [(String, [Int64])] = [
            ("Par*", [1, 2, 4, 5]), ("Par", [2]), ("P?r*", [1, 2, 4, 5]), ("Pa*is", [1, 13]), ("*is", [1, 13, 14]),
            ("?aris", [1, 14]), ("", [7]), ("*", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]),
            ("a\u{10FFFF}*", [9, 10]), ("Zü*", [12]), ("Pa\u{10FFFF}*", []), ("Par?", [5]),
        ]
        for (pattern, want) in expected {
            #expect(try cityIDs("city LIKE $0", [.string(pattern)]) == want, "\(pattern)")  // a template, after the first
            #expect(try cityIDs("city LIKE '\(pattern)'", []) == want, "\(pattern)")
            #expect(try cityIDs("NOT city LIKE $0", [.string(pattern)]) == ([Int64](1...Int64(cities.count)) + [99]).filter { !want.contains($0) },
                    "\(pattern)")
        }
        for (pattern, range) in [("Par*", true), ("P?r", true), ("*is", false), ("?aris", false)] {
            let plan = try file.explainQueryPlan("Person", "city LIKE $0", [.string(pattern)])
            #expect(plan.contains { $0.contains("INDEX _drumlin_idx_6_Person_city (city>? AND city<?)") } == range, "\(pattern): \(plan)")
        }
        #expect(try cityIDs("city LIKE[c] $0", [.string("par*")]) == [1, 2, 4, 5, 14])  // case-insensitive: the function alone
    }

    @Test func aComparisonThroughALinkIsTheSetOfKeysItHolds() throws {
        // `dog.x OP value` is `t0.dog IN (SELECT key FROM Dog WHERE x OP value)` for comparisons a
        // null value fails: null links match none of them, and `!=`, `== nil` and NOT keep theirs.
        // Ann's dog is Rex (3), Dave's Dot (12); the others have none.
        let expected: [(String, [Value], [Int64])] = [
            ("dog.name == $0", [.string("Rex")], [1]), ("dog.name ==[c] $0", [.string("rEX")], [1]),
            ("dog.age > 3", [], [4]), ("dog.age >= 3", [], [1, 4]), ("dog.age < 100", [], [1, 4]), ("dog.age <= 3.5", [], [1]),
            ("dog.name BEGINSWITH 'D'", [], [4]), ("dog.name ENDSWITH 'x'", [], [1]), ("dog.name CONTAINS[c] 'O'", [], [4]),
            ("dog.name LIKE 'R?x'", [], [1]), ("dog.name IN {'Rex', 'Dot'}", [], [1, 4]),
            ("dog.name != $0", [.string("Rex")], [2, 3, 4, 5, 6]), ("NOT dog.name == 'Rex'", [], [2, 3, 4, 5, 6]),
            ("NOT dog.age > 3", [], [1, 2, 3, 5, 6]), ("dog.name == nil", [], [2, 3, 5, 6]), ("dog.age == $0", [.int(12)], [4]),
            ("home.name == 'Z'", [], [1]), ("dog.age > 3 OR age == 17", [], [2, 4]),
        ]
        for (query, arguments, want) in expected {
            #expect(try q(query, arguments) == want, "\(query)")
        }
        let path = temporaryPath()
        let file = try Database(path: path, schemaJSON: querySchema)
        let plan = try file.explainQueryPlan("Person", "dog.name == $0", [.string("Rex")])
        #expect(plan.contains { $0.contains("_drumlin_pk_3_Dog_name (name=?)") } && !plan.contains { $0.contains("CORRELATED") }, "\(plan)")
    }

    @Test func aComparisonThroughSeveralLinksIsTheSetOfKeysTheFirstHolds() throws {
        // `project.owner.name == $0` is the keys of the projects whose owner matches, one join per
        // hop; a null link anywhere on the path matches none of these comparisons, and `!=`,
        // `== nil` and NOT keep their subqueries (a null link matches them).
        let file = try Database(path: temporaryPath(), schemaJSON: """
            [{"name": "User", "primaryKey": "id", "properties": {"id": "int", "name": {"type": "string", "indexed": true}}},
             {"name": "Project", "primaryKey": "id", "properties": {"id": "int", "title": "string", "owner": "User?"}},
             {"name": "Task", "primaryKey": "id", "properties": {"id": "int", "project": "Project?"}}]
            """)
        try file.write {
            _ = try file.create("User", json: #"{"id": 1, "name": "ann"}"#)
            _ = try file.create("User", json: #"{"id": 2, "name": "bob"}"#)
            _ = try file.create("Project", json: #"{"id": 1, "title": "p1", "owner": 1}"#)
            _ = try file.create("Project", json: #"{"id": 2, "title": "p2", "owner": 2}"#)
            _ = try file.create("Project", json: #"{"id": 3, "title": "p3"}"#)
            for (task, project) in [(1, "1"), (2, "2"), (3, "3"), (4, "null"), (5, "1")] {
                _ = try file.create("Task", json: #"{"id": \#(task), "project": \#(project)}"#)
            }
        }
        let expected: [(String, [Value], [Int64])] = [
            ("project.owner.name == 'ann'", [], [1, 5]), ("project.owner.name == $0", [.string("bob")], [2]),
            ("project.owner.name ==[c] $0", [.string("ANN")], [1, 5]), ("project.owner.name BEGINSWITH 'a'", [], [1, 5]),
            ("project.owner.name LIKE '?ob'", [], [2]), ("project.owner.id > 1", [], [2]), ("project.owner.id >= 1", [], [1, 2, 5]),
            ("project.owner.name != 'ann'", [], [2, 3, 4]), ("NOT project.owner.name == 'ann'", [], [2, 3, 4]),
            ("project.owner.name == nil", [], [3, 4]), ("project.title == 'p1'", [], [1, 5]),
            ("project.owner.name == 'ann' OR id == 4", [], [1, 4, 5]), ("project.owner.name == 'nobody'", [], []),
        ]
        for (query, arguments, want) in expected {
            #expect(try ids(file.query("Task", query, arguments)) == want, "\(query)")
        }
        let plan = try file.explainQueryPlan("Task", "project.owner.name == $0", [.string("ann")])
        #expect(plan.contains { $0.contains("INDEX _drumlin_idx_4_User_name (name=?)") } && !plan.contains { $0.contains("CORRELATED") },
                "\(plan)")
    }

    @Test func listsOfValuesMatchAsTheirComparisonsDo() throws {
        // `x IN {…}` is one IN, and `NOT`, `NONE` and nulls give what the OR of the comparisons does.
        #expect(try q("name IN {'Ann', 'eve', 'nobody'}") == [1, 5])
        #expect(try q("age IN {31, 17}") == [1, 2, 5])
        #expect(try q("age IN {31.0, 62}") == [1, 5, 6])
        #expect(try q("NOT age IN {31, 17}") == [3, 4, 6])
        #expect(try q("age == NONE {31, 17}") == [3, 4, 6])
        #expect(try q("age IN {nil, 17}") == [2, 3])
        #expect(try q("NOT (age IN {31, 17})") == q("NOT (age == 31 OR age == 17)"))
        #expect(try q("city IN $0", [.list([.string("Paris"), .string("Zürich")])]) == [1, 2])
        #expect(try q("active IN {true}") == [1, 3, 5, 6])
    }
}

/// Regressions for bugs found by the Python query suite.
@Suite struct QueryRegressionTests {
    let db: Database
    init() throws {
        db = try Database(path: ":memory:", schemaJSON: """
            [{"name": "N", "primaryKey": "id", "properties": {"id": "int", "d": "decimal128?", "ds": "decimal128[]", "f": "float?", "i": "int?",
               "home": "Place"}},
             {"name": "Place", "embedded": true, "properties": {"name": "string"}}]
            """)
        try db.write {
            try db.createMany("N", json: """
                [{"id": 1, "d": {"$numberDecimal": "12345678901234567890.123"}, "ds": [{"$numberDecimal": "0.1"}, {"$numberDecimal": "0.2"}], "f": 0.1, "i": 4611686018427387904},
                 {"id": 2, "d": {"$numberDecimal": "12345678901234567890.124"}, "ds": [], "f": 2.5, "i": 4611686018427387904},
                 {"id": 3, "d": {"$numberDecimal": "1E+400"}, "i": 1}]
                """)
        }
    }

    @Test func decimalAggregatesAreExact() throws {
        let all = try db.objects("N")
        #expect(try all.max("d") == .decimal(Decimal128(string: "1E+400")!))
        #expect(try all.min("d") == .decimal(Decimal128(string: "12345678901234567890.123")!))
        #expect(try db.query("N", "id < 3").sum("d") == .decimal(Decimal128(string: "24691357802469135780.247")!))
        #expect(try ids(db.query("N", "ds.@sum == 0.3")) == [1])
        #expect(try ids(db.query("N", "ds.@avg == 0.15")) == [1])
        #expect(try ids(db.query("N", "ds.@max == 0.2")) == [1])
    }

    @Test func decimalsSortAndGroupByValue() throws {
        #expect(try ids(db.query("N", "TRUEPREDICATE SORT(d DESC)")) == [3, 2, 1])
        #expect(try ids(db.query("N", "TRUEPREDICATE DISTINCT(d)")) == [1, 2, 3])
    }

    @Test func integerSumOverflowIsALimitError() throws {
        expectError(.limit) { _ = try db.objects("N").sum("i") }
    }

    @Test func floatPropertiesMatchDoubleLiterals() throws {
        #expect(try ids(db.query("N", "f == 0.1")) == [1])
        #expect(try ids(db.query("N", "f == $0", [.double(0.1)])) == [1])
    }

    @Test func geoShapeArgumentsAreChecked() throws {
        let geo = try Database(path: ":memory:", schemaJSON: querySchema)
        for bad in [#"{"box": [[0,40],[10,91]]}"#, #"{"circle": [[0,40], -1]}"#, #"{"polygon": [[[0,0],[1,0],[1,1]]]}"#] {
            expectError(.query) { _ = try geo.query("Person", "home.location GEOWITHIN $0", [.string(bad)]).count }
        }
    }

    @Test func embeddedClassesCannotBeQueriedAlone() throws {
        expectError(.invalidArgument) { _ = try db.objects("Place") }
    }

    @Test func resultsStayLiveInsideAWriteTransaction() throws {
        let results = try db.query("N", "id > 0")
        try db.beginWrite()
        #expect(try results.count == 3)
        try db.create("N", json: #"{"id": 9}"#)
        #expect(try results.count == 4)
        try db.object("N", primaryKey: 9)!.delete()
        #expect(try results.count == 3)
        try db.rollback()
    }
}
