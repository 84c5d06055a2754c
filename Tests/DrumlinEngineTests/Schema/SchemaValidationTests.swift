import Testing
@testable import DrumlinEngine
@testable import DrumlinSchema
@testable import DrumlinStorage
@testable import DrumlinValues

@Suite struct SchemaValidationTests {
    /// `Person` and `Dog` in code, valid as given; tests break one thing at a time.
    static func people(_ personProperties: [Property] = [], dogProperties: [Property] = []) -> Schema {
        Schema([
            ObjectSchema(name: "Person", properties: [Property(name: "name", type: .string)] + personProperties),
            ObjectSchema(name: "Dog", properties: [Property(name: "name", type: .string)] + dogProperties),
        ])
    }

    @Test func validSchemaBuiltInCodePasses() throws {
        let schema = Self.people([
            Property(name: "dog", type: .object, objectType: "Dog", isOptional: true),
            Property(name: "dogs", type: .object, collection: .list, objectType: "Dog"),
            Property(name: "extra", type: .mixed, collection: .dictionary, isOptional: true),
        ], dogProperties: [
            Property(name: "owners", type: .linkingObjects, objectType: "Person", originProperty: "dogs"),
        ])
        try schema.validate()
    }

    @Test func linkingObjectsMayAlsoBeBuiltAsAList() throws {
        try Self.people([Property(name: "dogs", type: .object, collection: .list, objectType: "Dog")], dogProperties: [
            Property(name: "owners", type: .linkingObjects, collection: .list, objectType: "Person", originProperty: "dogs"),
        ]).validate()
    }

    // MARK: - Schema level

    @Test func s1TypeNamesAreUnique() {
        #expect(SchemaFixture.problems(#"[{"name": "A", "properties": {}}, {"name": "A", "properties": {}}]"#)
            == ["Type 'A' appears more than once in the schema."])
    }

    @Test func s2CycleOfOneEmbeddedTypeIsRejected() {
        #expect(SchemaFixture.problems(#"""
            [{"name": "Top", "properties": {"e": "E"}},
             {"name": "E", "embedded": true, "properties": {"self": "E[]"}}]
            """#) == ["Cycles containing embedded objects are not currently supported: 'E.self'"])
    }

    @Test func s2CycleThroughSeveralEmbeddedTypesIsReportedForEach() {
        #expect(SchemaFixture.problems(#"""
            [{"name": "Top", "properties": {"a": "A"}},
             {"name": "A", "embedded": true, "properties": {"toB": "B[]"}},
             {"name": "B", "embedded": true, "properties": {"toA": "A"}}]
            """#) == [
                "Cycles containing embedded objects are not currently supported: 'A.toB.toA'",
                "Cycles containing embedded objects are not currently supported: 'B.toA.toB'",
            ])
    }

    @Test func s2RunsOnlyWhenNothingElseIsWrong() {
        #expect(SchemaFixture.problems(#"""
            [{"name": "Top", "properties": {"e": "E", "bad": "Missing"}},
             {"name": "E", "embedded": true, "properties": {"self": "E"}}]
            """#) == ["Property 'Top.bad' of type 'object' has unknown object type 'Missing'"])
    }

    // MARK: - Object level

    @Test func o1StoredPropertyNamesAreUnique() {
        #expect(SchemaFixture.problems(#"""
            [{"name": "T", "properties": {"x": "int", "p": {"type": "int", "mapTo": "x"}}}]
            """#) == ["Property 'x' appears more than once in the schema for type 'T'."])
    }

    @Test func o2AliasesAreUnique() {
        #expect(SchemaFixture.problems(#"""
            [{"name": "T", "properties": {"a": {"type": "int", "mapTo": "x"}, "a": {"type": "int", "mapTo": "y"}}}]
            """#) == ["Alias 'a' appears more than once in the schema for type 'T'."])
    }

    @Test func o3AliasMustNotEqualAnotherStoredName() {
        #expect(SchemaFixture.problems(#"""
            [{"name": "T", "properties": {"name": {"type": "string", "mapTo": "first_name"}, "x": {"type": "string", "mapTo": "name"}}}]
            """#) == ["Property 'T.first_name' has an alias 'name' that conflicts with a property of the same name."])
    }

    @Test func o4EmbeddedTypeHasNoPrimaryKey() {
        #expect(SchemaFixture.problems(#"""
            [{"name": "Top", "properties": {"e": "E"}},
             {"name": "E", "embedded": true, "primaryKey": "id", "properties": {"id": "int"}}]
            """#) == ["Embedded object type 'E' cannot have a primary key."])
    }

    @Test func o5DeclaredPrimaryKeyExists() {
        let schema = Schema([ObjectSchema(name: "T", primaryKey: "id", properties: [Property(name: "x", type: .int)])])
        #expect(SchemaFixture.problems(schema) == ["Specified primary key 'T.id' does not exist."])
    }

    @Test func asymmetricTypesAreAllowedLocally() throws {
        try Schema(jsonText: #"[{"name": "Reading", "asymmetric": true, "primaryKey": "_id", "properties": {"_id": "uuid"}}]"#).validate()
    }

    // MARK: - Property level

    @Test func p1LinkingObjectsMustBeAList() {
        let schema = Schema([ObjectSchema(name: "T", properties: [
            Property(name: "link", type: .object, objectType: "T", isOptional: true),
            Property(name: "incoming", type: .linkingObjects, collection: .set, objectType: "T", originProperty: "link"),
        ])])
        #expect(SchemaFixture.problems(schema) == ["Linking Objects property 'T.incoming' must be an array."])
    }

    @Test func p2ListsSetsOfObjectsAndLinkingObjectsCannotBeNullable() {
        let schema = Self.people([
            Property(name: "dogs", type: .object, collection: .list, objectType: "Dog", isOptional: true),
            Property(name: "dogSet", type: .object, collection: .set, objectType: "Dog", isOptional: true),
        ], dogProperties: [
            Property(name: "owners", type: .linkingObjects, objectType: "Person", originProperty: "dogs", isOptional: true),
        ])
        #expect(SchemaFixture.problems(schema) == [
            "Property 'Person.dogs' of type 'array' cannot be nullable.",
            "Property 'Person.dogSet' of type 'set' cannot be nullable.",
            "Property 'Dog.owners' of type 'linking objects' cannot be nullable.",
        ])
    }

    @Test func p3LinksAndDictionariesOfObjectsMustBeNullable() {
        let schema = Self.people([
            Property(name: "dog", type: .object, objectType: "Dog"),
            Property(name: "dogsByName", type: .object, collection: .dictionary, objectType: "Dog"),
        ])
        #expect(SchemaFixture.problems(schema) == [
            "Property 'Person.dog' of type 'object' must be nullable.",
            "Property 'Person.dogsByName' of type 'object' must be nullable.",
        ])
    }

    @Test func p4MixedMustBeNullable() {
        let schema = Self.people([
            Property(name: "any", type: .mixed),
            Property(name: "anyList", type: .mixed, collection: .list),
        ])
        #expect(SchemaFixture.problems(schema) == [
            "Property 'Person.any' of type 'Mixed' must be nullable.",
            "Property 'Person.anyList' of type 'Mixed' must be nullable.",
        ])
    }

    @Test(arguments: [
        (#""double""#, "double"), (#""mixed""#, "mixed"), (#""bool""#, "bool"), (#""date""#, "date"),
        (#""decimal128""#, "decimal"), (#""data""#, "data"), (#""int[]""#, "array"), (#""Person""#, "object"),
    ])
    func p5PrimaryKeyTypes(_ declaration: String, _ word: String) {
        #expect(SchemaFixture.problems(SchemaFixture.singleProperty(declaration, primaryKey: true))
            == ["Property 'T.p' of type '\(word)' cannot be made the primary key."])
    }

    @Test(arguments: [#""int""#, #""int?""#, #""string""#, #""string?""#, #""objectId""#, #""objectId?""#, #""uuid""#, #""uuid?""#])
    func p5AllowedPrimaryKeyTypes(_ declaration: String) throws {
        try Schema(jsonText: SchemaFixture.singleProperty(declaration, primaryKey: true)).validate()
    }

    @Test func p6OnlyOnePrimaryKey() {
        let schema = Schema([ObjectSchema(name: "T", primaryKey: "a", properties: [
            Property(name: "a", type: .int, index: .general, isPrimaryKey: true),
            Property(name: "b", type: .string, index: .general, isPrimaryKey: true),
        ])])
        #expect(SchemaFixture.problems(schema) == [
            "Properties 'b' and 'a' are both marked as the primary key of 'T'.",
            "Property 'T.b' is marked as a primary key, but the primary key of 'T' is 'a'.",
        ])
    }

    @Test(arguments: [
        (#"{"type": "double", "indexed": true}"#, "double"),
        (#"{"type": "float", "indexed": true}"#, "float"),
        (#"{"type": "data", "indexed": true}"#, "data"),
        (#"{"type": "decimal128", "indexed": true}"#, "decimal"),
        (#"{"type": "set", "objectType": "int", "indexed": true}"#, "set"),
        (#"{"type": "list", "objectType": "int", "indexed": true}"#, "array"),
        (#"{"type": "dictionary", "objectType": "string", "indexed": true}"#, "dictionary"),
        (#"{"type": "object", "objectType": "Person", "indexed": true}"#, "object"),
    ])
    func p7OnlyIndexableTypesCanBeIndexed(_ declaration: String, _ word: String) {
        #expect(SchemaFixture.problems(SchemaFixture.singleProperty(declaration))
            == ["Property 'T.p' of type '\(word)' cannot be indexed."])
    }

    @Test(arguments: ["bool", "int", "string", "date", "objectId", "uuid", "mixed"])
    func p7IndexableTypes(_ type: String) throws {
        try Schema(jsonText: SchemaFixture.singleProperty(#"{"type": "\#(type)", "indexed": true}"#)).validate()
        try Schema(jsonText: SchemaFixture.singleProperty(#"{"type": "list", "objectType": "string", "indexed": true}"#)).validate()
    }

    @Test func p8OriginOnlyOnLinkingObjects() {
        let schema = Schema([ObjectSchema(name: "T", properties: [Property(name: "p", type: .int, originProperty: "x")])])
        #expect(SchemaFixture.problems(schema) == ["Property 'T.p' of type 'int' cannot have an origin property name."])
    }

    @Test func p9LinkingObjectsNeedAnOrigin() {
        let schema = Schema([ObjectSchema(name: "T", properties: [Property(name: "p", type: .linkingObjects, objectType: "T")])])
        #expect(SchemaFixture.problems(schema) == ["Property 'T.p' of type 'linking objects' must have an origin property name."])
    }

    @Test func p10ObjectTypeOnlyOnLinks() {
        let schema = Schema([ObjectSchema(name: "T", properties: [
            Property(name: "p", type: .int, objectType: "T"),
            Property(name: "q", type: .int, collection: .list, objectType: "T"),
            Property(name: "r", type: .string, collection: .dictionary, objectType: "T"),
        ])])
        #expect(SchemaFixture.problems(schema) == [
            "Property 'T.p' of type 'int' cannot have an object type.",
            "Property 'T.q' of type 'array<int>' cannot have an object type.",
            "Property 'T.r' of type 'dictionary<string, string>' cannot have an object type.",
        ])
    }

    @Test func p11LinkTargetsExist() {
        #expect(SchemaFixture.problems(#"""
            [{"name": "T", "properties": {"a": "Cat", "b": "Cat[]", "c": "Cat{}",
              "d": {"type": "linkingObjects", "objectType": "Cat", "property": "t"}}}]
            """#) == [
                "Property 'T.a' of type 'object' has unknown object type 'Cat'",
                "Property 'T.b' of type 'array' has unknown object type 'Cat'",
                "Property 'T.c' of type 'dictionary' has unknown object type 'Cat'",
                "Property 'T.d' of type 'linking objects' has unknown object type 'Cat'",
            ])
    }

    @Test func p12SetsCannotHoldEmbeddedObjects() {
        #expect(SchemaFixture.problems(#"""
            [{"name": "T", "properties": {"p": "E<>"}}, {"name": "E", "embedded": true, "properties": {"x": "int"}}]
            """#) == ["Set property 'T.p' cannot contain embedded object type 'E'. Set semantics are not applicable to embedded objects."])
    }

    @Test func p13NothingLinksToAnAsymmetricType() {
        #expect(SchemaFixture.problems(#"""
            [{"name": "T", "properties": {"p": "R", "q": "R[]"}},
             {"name": "R", "asymmetric": true, "properties": {"x": "int"}}]
            """#) == [
                "Property 'T.p' of type 'object' cannot be a link to an asymmetric object.",
                "Property 'T.q' of type 'array' cannot be a link to an asymmetric object.",
            ])
    }

    static func linkingObjects(origin: String) -> String {
        #"""
        [{"name": "Person", "properties": {"name": "string", "dogs": "Dog[]", "cat": "Cat"}},
         {"name": "Cat", "properties": {"name": "string"}},
         {"name": "Dog", "properties": {"owners": {"type": "linkingObjects", "objectType": "Person", "property": "\#(origin)"}}}]
        """#
    }

    @Test func p14OriginExists() {
        #expect(SchemaFixture.problems(Self.linkingObjects(origin: "nope"))
            == ["Property 'Person.nope' declared as origin of linking objects property 'Dog.owners' does not exist"])
    }

    @Test func p15OriginIsALink() {
        #expect(SchemaFixture.problems(Self.linkingObjects(origin: "name"))
            == ["Property 'Person.name' declared as origin of linking objects property 'Dog.owners' is not a link"])
    }

    @Test func p16OriginLinksBack() {
        #expect(SchemaFixture.problems(Self.linkingObjects(origin: "cat"))
            == ["Property 'Person.cat' declared as origin of linking objects property 'Dog.owners' links to type 'Cat'"])
        #expect(SchemaFixture.problems(Self.linkingObjects(origin: "dogs")) == [])
    }

    // MARK: - Allowed (realm-core's tests)

    @Test func embeddedObjectsInListsAndDictionaries() throws {
        try Schema(jsonText: #"""
            [{"name": "T", "properties": {"l": "E[]", "d": "E{}", "one": "E"}}, {"name": "E", "embedded": true, "properties": {"x": "int"}}]
            """#).validate()
    }

    @Test func linksFromEmbeddedToTopLevelAndLoopsThroughTopLevel() throws {
        try Schema(jsonText: #"""
            [{"name": "TopA", "properties": {"toTopB": "TopB", "toEmbeddedB": "EmbeddedB", "self": "TopA"}},
             {"name": "TopB", "properties": {"toTopA": "TopA"}},
             {"name": "EmbeddedA", "embedded": true, "properties": {"toB": "TopB[]"}},
             {"name": "EmbeddedB", "embedded": true, "properties": {"toA": "EmbeddedA", "toTop": "TopA"}}]
            """#).validate()
    }

    @Test func distinctPathsToAnEmbeddedTypeAreNotALoop() throws {
        try Schema(jsonText: #"""
            [{"name": "Top", "properties": {"a": "A", "b": "B"}},
             {"name": "A", "embedded": true, "properties": {"c": "C", "b": "B"}},
             {"name": "B", "embedded": true, "properties": {"c": "C"}},
             {"name": "C", "embedded": true, "properties": {"x": "int"}}]
            """#).validate()
    }

    @Test func linkingObjectsOnEmbeddedTypes() throws {
        try Schema(jsonText: #"""
            [{"name": "Origin", "properties": {"items": "Target[]"}},
             {"name": "Target", "embedded": true, "properties": {"value": "int",
               "incoming": {"type": "linkingObjects", "objectType": "Origin", "property": "items"}}}]
            """#).validate()
    }

    @Test func asymmetricTypesMayLinkToEmbeddedAndTopLevelTypes() throws {
        try Schema(jsonText: #"""
            [{"name": "Reading", "asymmetric": true, "primaryKey": "_id", "properties": {"_id": "uuid", "where": "Place", "device": "Device"}},
             {"name": "Place", "embedded": true, "properties": {"type": "string", "coordinates": "double[]"}},
             {"name": "Device", "properties": {"name": "string"}}]
            """#).validate()
    }

    // MARK: - Indexes, counters, primary keys built in code

    @Test func fullTextOnlyOnStrings() {
        #expect(SchemaFixture.problems(SchemaFixture.singleProperty(#"{"type": "int", "indexed": "full-text"}"#))
            == ["Property 'T.p' of type 'int' cannot be full-text indexed."])
        #expect(SchemaFixture.problems(SchemaFixture.singleProperty(#"{"type": "list", "objectType": "string", "indexed": "full-text"}"#))
            == ["Property 'T.p' of type 'array' cannot be full-text indexed."])
    }

    @Test func codeBuiltPrimaryKeyRules() {
        let schema = Schema([
            ObjectSchema(name: "A", primaryKey: "id", properties: [Property(name: "id", type: .string, index: .fullText, isPrimaryKey: true)]),
            ObjectSchema(name: "B", primaryKey: "id", properties: [Property(name: "id", type: .int, isPrimaryKey: true, isCounter: true)]),
            ObjectSchema(name: "C", primaryKey: "id", properties: [Property(name: "id", type: .int)]),
            ObjectSchema(name: "D", properties: [Property(name: "id", type: .int, isPrimaryKey: true)]),
        ])
        #expect(SchemaFixture.problems(schema) == [
            "Primary key 'A.id' cannot be full-text indexed.",
            "Primary key 'B.id' cannot be a counter.",
            "Primary key 'C.id' is not marked as a primary key (isPrimaryKey).",
            "Property 'D.id' is marked as a primary key, but 'D' has no primary key.",
        ])
    }

    @Test func codeBuiltCountersAreSingleInts() {
        let schema = Schema([ObjectSchema(name: "T", properties: [
            Property(name: "a", type: .string, isCounter: true),
            Property(name: "b", type: .int, collection: .list, isCounter: true),
        ])])
        #expect(SchemaFixture.problems(schema) == [
            "Property 'T.a' of type 'string' cannot be a counter.",
            "Property 'T.b' of type 'array' cannot be a counter.",
        ])
    }

    // MARK: - Defaults

    @Test func defaultsAreRejectedOnLinksCollectionsAndLinkingObjects() {
        #expect(SchemaFixture.problems(#"""
            [{"name": "Person", "properties": {
                "dog": {"type": "object", "objectType": "Dog", "default": null},
                "tags": {"type": "list", "objectType": "string", "default": []},
                "scores": {"type": "dictionary", "objectType": "int", "default": {}},
                "dogs": "Dog[]"}},
             {"name": "Dog", "properties": {
                "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs", "default": 1}}}]
            """#) == [
                "Property 'Person.dog' of type 'object' cannot have a default value.",
                "Property 'Person.tags' of type 'array' cannot have a default value.",
                "Property 'Person.scores' of type 'dictionary' cannot have a default value.",
                "Property 'Dog.owners' of type 'linking objects' cannot have a default value.",
            ])
    }

    @Test func wellTypedDefaultsPass() throws {
        try Schema(jsonText: #"""
            [{"name": "T", "properties": {
                "count": {"type": "int", "default": 0}, "name": {"type": "string", "default": ""},
                "ratio": {"type": "double", "default": 0.5}, "flag": {"type": "bool", "default": true},
                "visits": {"type": "int", "presentation": "counter", "default": 0},
                "note": {"type": "string", "optional": true, "default": null}}}]
            """#).validate()
    }

    @Test func illTypedDefaultIsReportedWithTheOthers() throws {
        let problems = SchemaFixture.problems(#"""
            [{"name": "T", "properties": {"count": {"type": "int", "default": "many"}, "bad": "Missing"}}]
            """#)
        try #require(problems.count == 2)
        #expect(problems[0].contains("'T.count'"))
        #expect(problems[1] == "Property 'T.bad' of type 'object' has unknown object type 'Missing'")
    }

    // MARK: - Drumlin's naming rules

    @Test func namesStartingWithDrumlinAreReserved() {
        #expect(SchemaFixture.problems(#"""
            [{"name": "_drumlinThing", "properties": {"_drumlin_x": "int", "y": {"type": "int", "mapTo": "_DRUMLIN_y"}}},
             {"name": "Other", "mapTo": "_drumlin_other", "properties": {}}]
            """#) == [
                "Reserved name: type '_drumlinThing' starts with '_drumlin', which is reserved for Drumlin's internal use.",
                "Reserved name: property '_drumlinThing._drumlin_x' starts with '_drumlin', which is reserved for Drumlin's internal use.",
                "Reserved name: the stored name '_DRUMLIN_y' of property '_drumlinThing.y' starts with '_drumlin', which is reserved for Drumlin's internal use.",
                "Reserved name: the stored name '_drumlin_other' of type 'Other' starts with '_drumlin', which is reserved for Drumlin's internal use.",
            ])
        #expect(SchemaFixture.problems(#"[{"name": "drumlin", "properties": {"_cair": "int", "x_drumlin": "int"}}]"#) == [])
    }

    @Test func storedClassNamesAreAtMost57Bytes() {
        let fits = String(repeating: "a", count: 57)
        let tooLong = String(repeating: "🐕", count: 15)  // 60 UTF-8 bytes
        #expect(SchemaFixture.problems(#"[{"name": "\#(fits)", "properties": {}}]"#) == [])
        #expect(SchemaFixture.problems(#"[{"name": "\#(tooLong)", "properties": {}}, {"name": "Short", "mapTo": "\#(fits)b", "properties": {}}]"#) == [
            "Name too long: the stored name of type '\(tooLong)' is 60 UTF-8 bytes; the limit is 57.",
            "Name too long: the stored name of type 'Short' is 58 UTF-8 bytes; the limit is 57.",
        ])
    }

    @Test func storedPropertyNamesAreAtMost63Bytes() {
        let fits = String(repeating: "p", count: 63)
        #expect(SchemaFixture.problems(#"[{"name": "T", "properties": {"\#(fits)": "int", "short": {"type": "int", "mapTo": "\#(fits)q"}}}]"#) == [
            "Name too long: the stored name of property 'T.short' is 64 UTF-8 bytes; the limit is 63.",
        ])
    }

    @Test func emptyNamesAreRejected() {
        #expect(SchemaFixture.problems(#"""
            [{"name": "T", "mapTo": "", "properties": {"": "int", "x": {"type": "int", "mapTo": ""}}}]
            """#) == [
                "Empty name: the stored name (mapTo) of type 'T' is empty.",
                "Empty name: type 'T' has a property with an empty name.",
                "Empty name: the stored name (mapTo) of property 'T.x' is empty.",
            ])
        let schema = Schema([ObjectSchema(name: "", properties: [])])
        #expect(SchemaFixture.problems(schema) == ["Empty name: type names cannot be empty."])
    }

    @Test func storedNamesThatDifferOnlyInCaseClash() {
        #expect(SchemaFixture.problems(#"""
            [{"name": "person", "properties": {"name": "string", "Name": "string", "x": {"type": "int", "mapTo": "NAME"}}},
             {"name": "Person", "properties": {}},
             {"name": "People", "mapTo": "person", "properties": {}}]
            """#) == [
                "Name clash: the stored names of types 'person' ('person') and 'Person' ('Person') differ only in letter case; SQLite names are case-insensitive.",
                "Name clash: types 'person' and 'People' are both stored as 'person'.",
                "Name clash: the stored names of properties 'person.name' ('name') and 'person.Name' ('Name') differ only in letter case; SQLite names are case-insensitive.",
                "Name clash: the stored names of properties 'person.name' ('name') and 'person.x' ('NAME') differ only in letter case; SQLite names are case-insensitive.",
            ])
    }

    @Test func nonASCIILettersAreNotFolded() throws {
        try Schema(jsonText: #"[{"name": "Äpfel", "properties": {"ä": "int", "Ä": "int"}}, {"name": "äpfel", "properties": {}}]"#).validate()
    }

    // MARK: - Everything at once

    @Test func grammarAndValidationProblemsAreReportedTogether() throws {
        let error = try #require(SchemaFixture.error(#"""
            [{"name": "Person", "primaryKey": "_id", "properties": {"_id": "double", "pet": "Cat", "tags": "string[][]"}},
             {"name": "Address", "embedded": true, "primaryKey": "id", "properties": {"id": "int"}},
             {"name": "Person", "properties": {}},
             {"name": "_drumlin", "properties": {}}]
            """#))
        #expect(error == DrumlinError(.schema, """
            Schema validation failed due to the following errors:
            - Invalid type declaration for property 'tags' on 'Person': Nested collections are not supported.
            - Type 'Person' appears more than once in the schema.
            - Property 'Person._id' of type 'double' cannot be made the primary key.
            - Property 'Person.pet' of type 'object' has unknown object type 'Cat'
            - Embedded object type 'Address' cannot have a primary key.
            - Reserved name: type '_drumlin' starts with '_drumlin', which is reserved for Drumlin's internal use.
            """))
    }

    @Test func validateReportsEveryProblemOfACodeBuiltSchema() {
        let schema = Schema([
            ObjectSchema(name: "A", kind: .embedded, primaryKey: "id", properties: [
                Property(name: "id", type: .int, index: .general, isPrimaryKey: true),
                Property(name: "b", type: .object, objectType: "B"),
            ]),
        ])
        #expect(SchemaFixture.problems(schema) == [
            "Property 'A.b' of type 'object' must be nullable.",
            "Property 'A.b' of type 'object' has unknown object type 'B'",
            "Embedded object type 'A' cannot have a primary key.",
        ])
    }
}
