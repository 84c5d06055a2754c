import Testing
@testable import DrumlinEngine
@testable import DrumlinSchema
@testable import DrumlinStorage
@testable import DrumlinValues
#if canImport(Glibc)
import Glibc
#endif

/// Small helpers shared by the schema tests.
enum SchemaFixture {
    static let header = "Schema validation failed due to the following errors:"

    /// The error `Schema(jsonText:)` throws, or nil when the schema is accepted.
    static func error(_ text: String) -> DrumlinError? {
        do {
            _ = try Schema(jsonText: text)
            return nil
        } catch {
            return error
        }
    }

    /// The `- ` lines of a validation failure; a message without the header comes back whole.
    static func problems(of error: DrumlinError?) -> [String] {
        guard let message = error?.message else { return [] }
        let parts = message.split(separator: "\n- ", omittingEmptySubsequences: false).map(String.init)
        guard parts.first == header else { return [message] }
        return Array(parts.dropFirst())
    }

    static func problems(_ text: String) -> [String] {
        problems(of: error(text))
    }

    static func problems(_ schema: Schema) -> [String] {
        do {
            try schema.validate()
            return []
        } catch {
            return problems(of: error)
        }
    }

    static func json(_ text: String) -> JSON {
        do { return try JSON.parse(text) } catch { Issue.record("bad test JSON: \(error)"); return .null }
    }

    /// `T` with one property `p` declared as `declaration`, next to a `Person` it may link to.
    static func singleProperty(_ declaration: String, primaryKey: Bool = false) -> String {
        let key = primaryKey ? #""primaryKey": "p", "# : ""
        return #"[{"name": "T", \#(key)"properties": {"p": \#(declaration)}}, {"name": "Person", "properties": {}}]"#
    }
}

@Suite struct SchemaParsingTests {
    static let specExample = #"""
    [
      {"name": "Person", "primaryKey": "_id", "properties": {
         "_id": "objectId",
         "name": {"type": "string", "indexed": true},
         "bio": {"type": "string", "indexed": "full-text", "optional": true},
         "age": "int?",
         "firstName": {"type": "string", "mapTo": "first_name", "default": ""},
         "tags": "string<>", "scores": "double[]", "extra": "mixed{}", "anything": "mixed",
         "dog": "Dog", "dogs": "Dog[]", "address": "Address", "location": "GeoPoint"}},
      {"name": "Dog", "properties": {"name": "string",
         "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs"}}},
      {"name": "Address", "embedded": true, "properties": {"street": "string", "city": "string?"}},
      {"name": "GeoPoint", "embedded": true, "properties": {"type": "string", "coordinates": "double[]"}},
      {"name": "Reading", "asymmetric": true, "primaryKey": "_id",
       "properties": {"_id": "uuid", "deviceId": "string", "value": "double"}}
    ]
    """#

    static let specExampleNormalized = #"""
    [
      {"name": "Person", "primaryKey": "_id", "embedded": false, "asymmetric": false, "properties": {
        "_id": {"type": "objectId", "optional": false, "indexed": true, "mapTo": "_id"},
        "name": {"type": "string", "optional": false, "indexed": true, "mapTo": "name"},
        "bio": {"type": "string", "optional": true, "indexed": "full-text", "mapTo": "bio"},
        "age": {"type": "int", "optional": true, "indexed": false, "mapTo": "age"},
        "firstName": {"type": "string", "optional": false, "indexed": false, "mapTo": "first_name", "default": ""},
        "tags": {"type": "set", "objectType": "string", "optional": false, "indexed": false, "mapTo": "tags"},
        "scores": {"type": "list", "objectType": "double", "optional": false, "indexed": false, "mapTo": "scores"},
        "extra": {"type": "dictionary", "objectType": "mixed", "optional": true, "indexed": false, "mapTo": "extra"},
        "anything": {"type": "mixed", "optional": true, "indexed": false, "mapTo": "anything"},
        "dog": {"type": "object", "objectType": "Dog", "optional": true, "indexed": false, "mapTo": "dog"},
        "dogs": {"type": "list", "objectType": "Dog", "optional": false, "indexed": false, "mapTo": "dogs"},
        "address": {"type": "object", "objectType": "Address", "optional": true, "indexed": false, "mapTo": "address"},
        "location": {"type": "object", "objectType": "GeoPoint", "optional": true, "indexed": false, "mapTo": "location"}}},
      {"name": "Dog", "embedded": false, "asymmetric": false, "properties": {
        "name": {"type": "string", "optional": false, "indexed": false, "mapTo": "name"},
        "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs", "optional": false, "indexed": false, "mapTo": "owners"}}},
      {"name": "Address", "embedded": true, "asymmetric": false, "properties": {
        "street": {"type": "string", "optional": false, "indexed": false, "mapTo": "street"},
        "city": {"type": "string", "optional": true, "indexed": false, "mapTo": "city"}}},
      {"name": "GeoPoint", "embedded": true, "asymmetric": false, "properties": {
        "type": {"type": "string", "optional": false, "indexed": false, "mapTo": "type"},
        "coordinates": {"type": "list", "objectType": "double", "optional": false, "indexed": false, "mapTo": "coordinates"}}},
      {"name": "Reading", "primaryKey": "_id", "embedded": false, "asymmetric": true, "properties": {
        "_id": {"type": "uuid", "optional": false, "indexed": true, "mapTo": "_id"},
        "deviceId": {"type": "string", "optional": false, "indexed": false, "mapTo": "deviceId"},
        "value": {"type": "double", "optional": false, "indexed": false, "mapTo": "value"}}}
    ]
    """#

    static let realmNotesExample = #"""
    [
     {"name":"Person","primaryKey":"_id","properties":{
       "_id":"objectId","name":{"type":"string","indexed":true},"bio":{"type":"string","indexed":"full-text"},
       "age":"int?","tags":"string<>","scores":"double[]","meta":"mixed{}","any":"mixed",
       "dog":"Dog","dogs":"Dog[]","address":"Address","home":"MyGeoPoint",
       "created":{"type":"date","optional":true,"mapTo":"created_at"},
       "visits":{"type":"int","presentation":"counter","default":0}}},
     {"name":"Dog","properties":{"name":"string",
       "owners":{"type":"linkingObjects","objectType":"Person","property":"dogs"}}},
     {"name":"Address","embedded":true,"properties":{"street":"string","city":"string?"}},
     {"name":"MyGeoPoint","embedded":true,"properties":{"type":"string","coordinates":"double[]"}},
     {"name":"Sensor","asymmetric":true,"primaryKey":"_id","properties":{"_id":"uuid","v":"double"}}
    ]
    """#

    @Test func specExampleNormalizesToTheLongForm() throws {
        let schema = try Schema(jsonText: Self.specExample)
        #expect(schema.normalizedJSON == SchemaFixture.json(Self.specExampleNormalized))
        #expect(schema.objectSchemas.map(\.kind) == [.topLevel, .topLevel, .embedded, .embedded, .asymmetric])
        let person = try #require(schema["Person"])
        #expect(person.primaryKey == "_id")
        #expect(person.primaryKeyProperty?.isPrimaryKey == true)
        #expect(person.property(named: "firstName")?.storedName == "first_name")
        #expect(person.property(named: "bio")?.index == .fullText)
        let owners = try #require(schema["Dog"]?.property(named: "owners"))
        #expect(owners.type == .linkingObjects && owners.collection == .single)
        #expect(owners.objectType == "Person" && owners.originProperty == "dogs")
    }

    @Test func realmNotesExampleNormalizesToTheLongForm() throws {
        let schema = try Schema(jsonText: Self.realmNotesExample)
        let person = try #require(schema.normalizedJSON.arrayElements?.first)
        #expect(person["properties"]?["created"] == SchemaFixture.json(
            #"{"type": "date", "optional": true, "indexed": false, "mapTo": "created_at"}"#))
        #expect(person["properties"]?["visits"] == SchemaFixture.json(
            #"{"type": "int", "optional": false, "indexed": false, "mapTo": "visits", "default": 0, "presentation": "counter"}"#))
        #expect(person["properties"]?["bio"] == SchemaFixture.json(
            #"{"type": "string", "optional": false, "indexed": "full-text", "mapTo": "bio"}"#))
        #expect(person["properties"]?["meta"] == SchemaFixture.json(
            #"{"type": "dictionary", "objectType": "mixed", "optional": true, "indexed": false, "mapTo": "meta"}"#))
        #expect(schema["Sensor"]?.kind == .asymmetric)
        #expect(schema["Person"]?.property(named: "visits")?.isCounter == true)
    }

    @Test(arguments: [specExample, realmNotesExample])
    func normalizingTheNormalizedFormIsIdentity(_ text: String) throws {
        let once = try Schema(jsonText: text).normalizedJSON
        let twice = try Schema(json: once).normalizedJSON
        #expect(once == twice)
        #expect(try Schema(jsonText: once.text).normalizedJSON.text == once.text)
    }

    static let shorthandTable: [(String, String)] = [
        (#""string""#, #"{"type": "string", "optional": false}"#),
        (#""string?""#, #"{"type": "string", "optional": true}"#),
        (#""string[]""#, #"{"type": "list", "objectType": "string", "optional": false}"#),
        (#""string?[]""#, #"{"type": "list", "objectType": "string", "optional": true}"#),
        (#""string{}""#, #"{"type": "dictionary", "objectType": "string", "optional": false}"#),
        (#""string?{}""#, #"{"type": "dictionary", "objectType": "string", "optional": true}"#),
        (#""string<>""#, #"{"type": "set", "objectType": "string", "optional": false}"#),
        (#""string?<>""#, #"{"type": "set", "objectType": "string", "optional": true}"#),
        (#""int?[]""#, #"{"type": "list", "objectType": "int", "optional": true}"#),
        (#""bool""#, #"{"type": "bool", "optional": false}"#),
        (#""float""#, #"{"type": "float", "optional": false}"#),
        (#""double?""#, #"{"type": "double", "optional": true}"#),
        (#""decimal128""#, #"{"type": "decimal128", "optional": false}"#),
        (#""objectId""#, #"{"type": "objectId", "optional": false}"#),
        (#""uuid?""#, #"{"type": "uuid", "optional": true}"#),
        (#""data""#, #"{"type": "data", "optional": false}"#),
        (#""date?""#, #"{"type": "date", "optional": true}"#),
        (#""mixed""#, #"{"type": "mixed", "optional": true}"#),
        (#""mixed?""#, #"{"type": "mixed", "optional": true}"#),
        (#""mixed[]""#, #"{"type": "list", "objectType": "mixed", "optional": true}"#),
        (#""mixed?[]""#, #"{"type": "list", "objectType": "mixed", "optional": true}"#),
        (#""mixed{}""#, #"{"type": "dictionary", "objectType": "mixed", "optional": true}"#),
        (#""mixed<>""#, #"{"type": "set", "objectType": "mixed", "optional": true}"#),
        (#""counter""#, #"{"type": "int", "optional": false, "presentation": "counter"}"#),
        (#""counter?""#, #"{"type": "int", "optional": true, "presentation": "counter"}"#),
        (#""Person""#, #"{"type": "object", "objectType": "Person", "optional": true}"#),
        (#""Person?""#, #"{"type": "object", "objectType": "Person", "optional": true}"#),
        (#""Person[]""#, #"{"type": "list", "objectType": "Person", "optional": false}"#),
        (#""Person<>""#, #"{"type": "set", "objectType": "Person", "optional": false}"#),
        (#""Person{}""#, #"{"type": "dictionary", "objectType": "Person", "optional": true}"#),
        (#""Person?{}""#, #"{"type": "dictionary", "objectType": "Person", "optional": true}"#),
        // Long forms normalize to the same canonical shapes.
        (#"{"type": "list", "objectType": "string"}"#, #"{"type": "list", "objectType": "string", "optional": false}"#),
        (#"{"type": "set", "objectType": "string", "optional": true}"#, #"{"type": "set", "objectType": "string", "optional": true}"#),
        (#"{"type": "mixed"}"#, #"{"type": "mixed", "optional": true}"#),
        (#"{"type": "dictionary", "objectType": "mixed"}"#, #"{"type": "dictionary", "objectType": "mixed", "optional": true}"#),
        (#"{"type": "object", "objectType": "Person"}"#, #"{"type": "object", "objectType": "Person", "optional": true}"#),
        (#"{"type": "list", "objectType": "Person", "optional": false}"#, #"{"type": "list", "objectType": "Person", "optional": false}"#),
        (#"{"type": "dictionary", "objectType": "Person"}"#, #"{"type": "dictionary", "objectType": "Person", "optional": true}"#),
        (#"{"type": "int", "presentation": "counter", "optional": true}"#, #"{"type": "int", "optional": true, "presentation": "counter"}"#),
        (#"{"type": "string", "indexed": true}"#, #"{"type": "string", "optional": false, "indexed": true}"#),
        (#"{"type": "string", "indexed": false}"#, #"{"type": "string", "optional": false}"#),
        (#"{"type": "string", "indexed": "full-text"}"#, #"{"type": "string", "optional": false, "indexed": "full-text"}"#),
        (#"{"type": "string", "name": "p"}"#, #"{"type": "string", "optional": false}"#),
    ]

    /// The expected long form with `indexed: false` and `mapTo: "p"` filled in where not given.
    static func expectedLongForm(_ partial: String) -> JSON {
        let members = SchemaFixture.json(partial).objectMembers ?? []
        var result = members.filter { $0.key != "presentation" }
        if !result.contains(where: { $0.key == "indexed" }) { result.append(("indexed", .bool(false))) }
        result.append(("mapTo", .string("p")))
        result += members.filter { $0.key == "presentation" }
        return .object(result)
    }

    @Test(arguments: shorthandTable)
    func declarationNormalizes(_ declaration: String, _ expected: String) throws {
        let schema = try Schema(jsonText: SchemaFixture.singleProperty(declaration))
        let normalized = try #require(schema.normalizedJSON.arrayElements?.first?["properties"]?["p"])
        #expect(normalized == Self.expectedLongForm(expected))
        // And the long form is a fixed point.
        let again = try Schema(json: schema.normalizedJSON).normalizedJSON
        #expect(again == schema.normalizedJSON)
    }

    @Test func primaryKeyIsImplicitlyIndexed() throws {
        for declaration in [#""string""#, #""string?""#, #"{"type": "int"}"#, #"{"type": "uuid", "indexed": true}"#] {
            let schema = try Schema(jsonText: SchemaFixture.singleProperty(declaration, primaryKey: true))
            let property = try #require(schema["T"]?.property(named: "p"))
            #expect(property.isPrimaryKey && property.index == .general)
            #expect(schema.normalizedJSON.arrayElements?.first?["properties"]?["p"]?["indexed"] == .bool(true))
        }
    }

    @Test func counterShorthandIsAnIntWithCounterPresentation() throws {
        let schema = try Schema(jsonText: SchemaFixture.singleProperty(#""counter?""#))
        let property = try #require(schema["T"]?.property(named: "p"))
        #expect(property.type == .int && property.isCounter && property.isOptional)
    }

    @Test func mapToOnClassAndPropertyGivesStoredNames() throws {
        let schema = try Schema(jsonText: #"""
            [{"name": "Person", "mapTo": "people", "properties": {
                "firstName": {"type": "string", "mapTo": "first_name"}, "age": "int"}}]
            """#)
        let person = try #require(schema["Person"])
        #expect(person.storedName == "people")
        #expect(person.property(named: "firstName")?.storedName == "first_name")
        #expect(person.property(named: "age")?.storedName == "age")
        let normalized = schema.normalizedJSON
        #expect(normalized == SchemaFixture.json(#"""
            [{"name": "Person", "mapTo": "people", "embedded": false, "asymmetric": false, "properties": {
                "firstName": {"type": "string", "optional": false, "indexed": false, "mapTo": "first_name"},
                "age": {"type": "int", "optional": false, "indexed": false, "mapTo": "age"}}}]
            """#))
        #expect(try Schema(json: normalized).normalizedJSON == normalized)
    }

    @Test func classMapToEqualToTheNameIsLeftOutOfTheLongForm() throws {
        let schema = try Schema(jsonText: #"[{"name": "Dog", "mapTo": "Dog", "properties": {}}]"#)
        #expect(schema.normalizedJSON.arrayElements?.first?["mapTo"] == nil)
    }

    @Test func defaultIsKeptAsWritten() throws {
        let schema = try Schema(jsonText: #"""
            [{"name": "Event", "properties": {
                "at": {"type": "date", "default": {"$date": "2024-01-01T00:00:00Z"}},
                "title": {"type": "string", "default": "untitled"},
                "note": {"type": "string", "optional": true, "default": null}}}]
            """#)
        let event = try #require(schema["Event"])
        #expect(event.property(named: "at")?.defaultValue == SchemaFixture.json(#"{"$date": "2024-01-01T00:00:00Z"}"#))
        #expect(event.property(named: "title")?.defaultValue == .string("untitled"))
        #expect(event.property(named: "note")?.defaultValue == .null)
        #expect(schema.normalizedJSON.arrayElements?.first?["properties"]?["note"]?["default"] == .null)
    }

    @Test func readingWithoutValidationChecksTheGrammarOnly() throws {
        let partial = SchemaFixture.json(#"[{"name": "Person", "properties": {"dog": "Dog"}}]"#)
        let schema = try Schema(json: partial, validating: false)
        #expect(schema["Person"]?.property(named: "dog")?.objectType == "Dog")
        #expect(throws: DrumlinError.self) { try Schema(json: partial) }
        let malformed = SchemaFixture.json(#"[{"name": "Person", "properties": {"dog": "Dog[][]"}}]"#)
        #expect(throws: DrumlinError.self) { try Schema(json: malformed, validating: false) }
    }

    @Test func emptySchemaIsAccepted() throws {
        #expect(try Schema(jsonText: "[]").objectSchemas.isEmpty)
    }

    // MARK: - Grammar errors

    static let shorthandErrors: [(String, String)] = [
        (#""""#, "The type must be specified."),
        (#""?""#, "The type must be specified. (Examples: 'int?' and 'int?[]')"),
        (#""?[]""#, "The type must be specified. (Examples: 'int?' and 'int?[]')"),
        (#""[]""#, "The element type must be specified (Example: 'int[]')"),
        (#""{}""#, "The element type must be specified (Example: 'int{}')"),
        (#""<>""#, "The element type must be specified (Example: 'int<>')"),
        (#""[][]""#, "Nested collections are not supported."),
        (#""{}[]""#, "Nested collections are not supported."),
        (#""[]<>""#, "Nested collections are not supported."),
        (#""int[][]""#, "Nested collections are not supported."),
        (#""[]?""#, "Collections cannot be optional. To allow elements of the collection to be optional, use '?' after the element type. (Examples: 'int?[]', 'int?{}', and 'int?<>')"),
        (#""int[]?""#, "Collections cannot be optional. To allow elements of the collection to be optional, use '?' after the element type. (Examples: 'int?[]', 'int?{}', and 'int?<>')"),
        (#""list""#, "Cannot use the collection name list. (Examples: 'int[]' (list), 'int{}' (dictionary), and 'int<>' (set))"),
        (#""dictionary""#, "Cannot use the collection name dictionary. (Examples: 'int[]' (list), 'int{}' (dictionary), and 'int<>' (set))"),
        (#""set""#, "Cannot use the collection name set. (Examples: 'int[]' (list), 'int{}' (dictionary), and 'int<>' (set))"),
        (#""list[]""#, "Cannot use the collection name list. (Examples: 'int[]' (list), 'int{}' (dictionary), and 'int<>' (set))"),
        (#""Person?[]""#, "User-defined types in lists and sets are always non-optional and cannot be made optional. Remove '?' or change the type."),
        (#""Person?<>""#, "User-defined types in lists and sets are always non-optional and cannot be made optional. Remove '?' or change the type."),
        (#""object""#, "To define a relationship, use either 'MyObjectType' or { type: 'object', objectType: 'MyObjectType' }"),
        (#""linkingObjects""#, "To define an inverse relationship, use { type: 'linkingObjects', objectType: 'MyObjectType', property: 'myObjectTypesProperty' }"),
        (#""counter[]""#, "Counters cannot be used in collections."),
        (#""counter?{}""#, "Counters cannot be used in collections."),
        (#""counter<>""#, "Counters cannot be used in collections."),
    ]

    static let longFormErrors: [(String, String)] = [
        (#"{}"#, "'type' must be specified."),
        (#"{"type": ""}"#, "'type' must be specified."),
        (#"{"type": 5}"#, "Expected 'p.type' on 'T' to be a string, got a number"),
        (#"{"type": "string", "objectType": "string"}"#, "'objectType' cannot be defined when 'type' is 'string'."),
        (#"{"type": "list"}"#, "A list must contain only primitive or user-defined types specified through 'objectType'."),
        (#"{"type": "dictionary"}"#, "A dictionary must contain only primitive or user-defined types specified through 'objectType'."),
        (#"{"type": "set"}"#, "A set must contain only primitive or user-defined types specified through 'objectType'."),
        (#"{"type": "list", "objectType": "list"}"#, "A list must contain only primitive or user-defined types specified through 'objectType'."),
        (#"{"type": "Person"}"#, "If you meant to define a relationship, use { type: 'object', objectType: 'Person' } or { type: 'linkingObjects', objectType: 'Person', property: 'The Person property' }"),
        (#"{"type": "object"}"#, "A user-defined type must be specified through 'objectType'."),
        (#"{"type": "object", "objectType": "string"}"#, "A user-defined type must be specified through 'objectType'."),
        (#"{"type": "object", "objectType": "Person", "optional": false}"#, "User-defined types as standalone objects and in dictionaries are always optional and cannot be made non-optional."),
        (#"{"type": "dictionary", "objectType": "Person", "optional": false}"#, "User-defined types as standalone objects and in dictionaries are always optional and cannot be made non-optional."),
        (#"{"type": "mixed", "optional": false}"#, "'mixed' types are always optional and cannot be made non-optional."),
        (#"{"type": "list", "objectType": "mixed", "optional": false}"#, "'mixed' types are always optional and cannot be made non-optional."),
        (#"{"type": "list", "objectType": "Person", "optional": true}"#, "User-defined types in lists and sets are always non-optional and cannot be made optional."),
        (#"{"type": "set", "objectType": "Person", "optional": true}"#, "User-defined types in lists and sets are always non-optional and cannot be made optional."),
        (#"{"type": "linkingObjects"}"#, "A user-defined type must be specified through 'objectType'."),
        (#"{"type": "linkingObjects", "objectType": "Person"}"#, "The linking object's property name must be specified through 'property'."),
        (#"{"type": "linkingObjects", "objectType": "Person", "property": ""}"#, "The linking object's property name must be specified through 'property'."),
        (#"{"type": "linkingObjects", "objectType": "Person", "property": "tasks", "optional": true}"#, "User-defined types in lists and sets are always non-optional and cannot be made optional."),
        (#"{"type": "object", "objectType": "Person", "property": "tasks"}"#, "'property' can only be specified if 'type' is 'linkingObjects'."),
        (#"{"type": "int?"}"#, "Cannot use shorthand '?' in 'type' or 'objectType' when defining property objects."),
        (#"{"type": "int?[]"}"#, "Cannot use shorthand '[]' and '?' in 'type' or 'objectType' when defining property objects."),
        (#"{"type": "int", "objectType": "[]"}"#, "Cannot use shorthand '[]' in 'type' or 'objectType' when defining property objects."),
        (#"{"type": "list", "objectType": "int?"}"#, "Cannot use shorthand '?' in 'type' or 'objectType' when defining property objects."),
        (#"{"type": "string", "indexed": 22}"#, "Expected 'p.indexed' on 'T' to be a boolean or 'full-text'."),
        (#"{"type": "string", "indexed": "fulltext"}"#, "Expected 'p.indexed' on 'T' to be a boolean or 'full-text'."),
        (#"{"type": "string", "optional": "yes"}"#, "Expected 'p.optional' on 'T' to be a boolean, got a string"),
        (#"{"type": "list", "objectType": 5}"#, "Expected 'p.objectType' on 'T' to be a string, got a number"),
        (#"{"type": "linkingObjects", "objectType": "Person", "property": false}"#, "Expected 'p.property' on 'T' to be a string, got a boolean"),
        (#"{"type": "string", "mapTo": null}"#, "Expected 'p.mapTo' on 'T' to be a string, got null"),
        (#"{"type": "string", "name": []}"#, "Expected 'p.name' on 'T' to be a string, got an array"),
        (#"{"type": "string", "foo": 1, "bar": 2}"#, "Unexpected field(s) found on the schema for property 'p' on 'T': 'foo', 'bar'."),
        (#"{"type": "string", "type": "int"}"#, "Duplicate field(s) found on the schema for property 'p' on 'T': 'type'."),
        (#"{"type": "string", "name": "q"}"#, "'name' is 'q' but the property is declared under the key 'p'. Remove 'name', or use 'mapTo' to store the property under another name."),
        (#"{"type": "int", "presentation": "percent"}"#, "Expected 'p.presentation' on 'T' to be 'counter'."),
        (#"{"type": "string", "presentation": "counter"}"#, "Counters can only be used when 'type' is 'int'."),
        (#"{"type": "list", "objectType": "int", "presentation": "counter"}"#, "Counters cannot be used in collections."),
        (#"{"type": "list", "objectType": "counter"}"#, "Counters cannot be used in collections."),
        (#"{"type": "counter"}"#, "To define a counter, use 'counter' or { type: 'int', presentation: 'counter' }"),
        (#"5"#, "Expected 'p' on 'T' to be a string or an object, got a number"),
        (#"["int"]"#, "Expected 'p' on 'T' to be a string or an object, got an array"),
        (#"null"#, "Expected 'p' on 'T' to be a string or an object, got null"),
    ]

    @Test(arguments: shorthandErrors + longFormErrors)
    func malformedDeclarationIsRejected(_ declaration: String, _ message: String) {
        let error = SchemaFixture.error(SchemaFixture.singleProperty(declaration))
        #expect(error?.code == .schema)
        #expect(SchemaFixture.problems(of: error) == ["Invalid type declaration for property 'p' on 'T': \(message)"])
    }

    static let primaryKeyErrors: [(String, String)] = [
        (#"{"type": "string", "indexed": false}"#, "Primary keys must always be indexed."),
        (#"{"type": "string", "indexed": "full-text"}"#, "Primary keys cannot be full-text indexed."),
        (#""counter""#, "Counters cannot be primary keys."),
        (#"{"type": "int", "presentation": "counter"}"#, "Counters cannot be primary keys."),
    ]

    @Test(arguments: primaryKeyErrors)
    func malformedPrimaryKeyIsRejected(_ declaration: String, _ message: String) {
        let problems = SchemaFixture.problems(SchemaFixture.singleProperty(declaration, primaryKey: true))
        #expect(problems == ["Invalid type declaration for property 'p' on 'T': \(message)"])
    }

    static let objectSchemaErrors: [(String, String)] = [
        (#"[5]"#, "Invalid schema for unnamed object: Expected 'object schema' to be an object, got a number"),
        (#"[["A"]]"#, "Invalid schema for unnamed object: Expected 'object schema' to be an object, got an array"),
        (#"[{"properties": {}}]"#, "Invalid schema for unnamed object: 'name' must be specified."),
        (#"[{"name": "", "properties": {}}]"#, "Invalid schema for unnamed object: 'name' must be specified."),
        (#"[{"name": 5, "properties": {}}]"#, "Invalid schema for unnamed object: Expected 'name' on object schema to be a string, got a number"),
        (#"[{"name": "A"}]"#, "Invalid schema for object 'A': 'properties' must be specified."),
        (#"[{"name": "A", "properties": [{"name": "x", "type": "int"}]}]"#, "Invalid schema for object 'A': Array of properties are no longer supported. Use an object instead."),
        (#"[{"name": "A", "properties": "x"}]"#, "Invalid schema for object 'A': Expected 'properties' on 'A' to be an object, got a string"),
        (#"[{"name": "A", "primaryKey": 5, "properties": {}}]"#, "Invalid schema for object 'A': Expected 'primaryKey' on 'A' to be a string, got a number"),
        (#"[{"name": "A", "embedded": "yes", "properties": {}}]"#, "Invalid schema for object 'A': Expected 'embedded' on 'A' to be a boolean, got a string"),
        (#"[{"name": "A", "asymmetric": 1, "properties": {}}]"#, "Invalid schema for object 'A': Expected 'asymmetric' on 'A' to be a boolean, got a number"),
        (#"[{"name": "A", "mapTo": true, "properties": {}}]"#, "Invalid schema for object 'A': Expected 'mapTo' on 'A' to be a string, got a boolean"),
        (#"[{"name": "A", "ctor": 1, "foo": {}, "properties": {}}]"#, "Invalid schema for object 'A': Unexpected field(s) found on the schema for object 'A': 'ctor', 'foo'."),
        (#"[{"name": "A", "name": "B", "properties": {}}]"#, "Invalid schema for object 'A': Duplicate field(s) found on the schema for object 'A': 'name'."),
        (#"[{"name": "A", "primaryKey": "id", "properties": {"x": "int"}}]"#, "Invalid schema for object 'A': 'id' is set as the primary key field but was not found in 'properties'."),
        (#"[{"name": "A", "embedded": true, "asymmetric": true, "properties": {}}]"#, "Invalid schema for object 'A': Cannot be both asymmetric and embedded."),
    ]

    @Test(arguments: objectSchemaErrors)
    func malformedObjectSchemaIsRejected(_ text: String, _ message: String) {
        let error = SchemaFixture.error(text)
        #expect(error?.code == .schema)
        #expect(SchemaFixture.problems(of: error) == [message])
    }

    @Test(arguments: [
        (#"{}"#, "Invalid schema: expected an array of object schemas, got an object."),
        (#""Person""#, "Invalid schema: expected an array of object schemas, got a string."),
        (#"null"#, "Invalid schema: expected an array of object schemas, got null."),
    ])
    func topLevelMustBeAnArray(_ text: String, _ message: String) {
        let error = SchemaFixture.error(text)
        #expect(error == DrumlinError(.schema, message))
    }

    @Test func malformedJSONTextNamesTheParseError() throws {
        let error = try #require(SchemaFixture.error(#"[{"name": "A", "properties": {]"#))
        #expect(error.code == .schema)
        #expect(error.message.hasPrefix("Invalid schema JSON: Invalid JSON at byte 30: "))
    }

    @Test func everyGrammarProblemIsReportedTogether() {
        let problems = SchemaFixture.problems(#"""
            [{"name": "A", "primaryKey": "id", "extra": 1, "properties": {"a": "int[][]", "b": {"type": "list"}, "ok": "int"}},
             {"properties": {}},
             {"name": "B", "properties": {"c": "Person?[]", "d": {"type": "string", "indexed": "yes"}}},
             {"name": "Person", "properties": {}}]
            """#)
        #expect(problems == [
            "Invalid schema for object 'A': Unexpected field(s) found on the schema for object 'A': 'extra'.",
            "Invalid schema for object 'A': 'id' is set as the primary key field but was not found in 'properties'.",
            "Invalid type declaration for property 'a' on 'A': Nested collections are not supported.",
            "Invalid type declaration for property 'b' on 'A': A list must contain only primitive or user-defined types specified through 'objectType'.",
            "Invalid schema for unnamed object: 'name' must be specified.",
            "Invalid type declaration for property 'c' on 'B': User-defined types in lists and sets are always non-optional and cannot be made optional. Remove '?' or change the type.",
            "Invalid type declaration for property 'd' on 'B': Expected 'd.indexed' on 'B' to be a boolean or 'full-text'.",
        ])
    }

    @Test func aMalformedOriginIsNotReportedTwice() {
        // The origin `dogs` is malformed; its linkingObjects property must not add "does not exist".
        let problems = SchemaFixture.problems(#"""
            [{"name": "Person", "properties": {"dogs": "Dog[][]"}},
             {"name": "Dog", "properties": {"owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs"}}}]
            """#)
        #expect(problems == ["Invalid type declaration for property 'dogs' on 'Person': Nested collections are not supported."])
    }

    // MARK: - Hostile names

    @Test func namesWithQuotesSemicolonsSpacesAndEmojiAreKeptVerbatim() throws {
        let text = #"""
            [{"name": "Robert'); DROP TABLE \"Students\";--", "primaryKey": "naïve 🐕 id", "properties": {
                "naïve 🐕 id": "string", "a;b": "int", "with space": "bool?", "\"quoted\"": "Robert'); DROP TABLE \"Students\";--"}}]
            """#
        let schema = try Schema(jsonText: text)
        let objectSchema = try #require(schema.objectSchemas.first)
        #expect(objectSchema.name == #"Robert'); DROP TABLE "Students";--"#)
        #expect(objectSchema.storedName == objectSchema.name)
        #expect(objectSchema.properties.map(\.storedName) == ["naïve 🐕 id", "a;b", "with space", #""quoted""#])
        #expect(objectSchema.property(named: #""quoted""#)?.objectType == objectSchema.name)
        #expect(try Schema(json: schema.normalizedJSON).normalizedJSON == schema.normalizedJSON)
    }

    @Test func namesWithNULAreRejected() {
        let problems = SchemaFixture.problems(#"""
            [{"name": "A\u0000B", "properties": {"x\u0000": "int", "y": {"type": "int", "mapTo": "y\u0000"}}}]
            """#)
        #expect(problems == [
            "Invalid name: type 'A\\0B' contains a NUL character.",
            "Invalid name: property 'A\\0B.x\\0' contains a NUL character.",
            "Invalid name: the stored name 'y\\0' of property 'A\\0B.y' contains a NUL character.",
        ])
    }

    // MARK: - docs/schema.md

    /// Every complete schema in the user guide parses, or, when a `text` block follows it, fails
    /// with exactly that message.
    @Test func schemaGuideExamplesBehaveAsDocumented() throws {
        let guidePath = String(#filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(4)
            .joined(separator: "/")) + "/docs/schema.md"
        let guide = try #require(Self.readFile(guidePath), "cannot read \(guidePath)")
        let blocks = Self.fencedBlocks(guide)
        var checked = 0
        for (index, block) in blocks.enumerated() where block.language == "json" && block.text.first == "[" {
            let next = index + 1 < blocks.count ? blocks[index + 1] : nil
            let error = SchemaFixture.error(block.text)
            if let next, next.language == "text", next.followsDirectly {
                #expect(error?.message == next.text, "example at line \(block.line)")
            } else {
                #expect(error == nil, "example at line \(block.line): \(error?.message ?? "")")
            }
            checked += 1
        }
        #expect(checked >= 10)
    }

    struct FencedBlock {
        let language: String
        let text: String
        let line: Int
        /// Only blank lines separate this block from the previous one.
        let followsDirectly: Bool
    }

    static func fencedBlocks(_ markdown: String) -> [FencedBlock] {
        var blocks: [FencedBlock] = []
        var open: (language: String, line: Int, lines: [Substring])?
        var onlyBlankSinceLastBlock = false
        for (number, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if var current = open {
                if line == "```" {
                    blocks.append(FencedBlock(language: current.language, text: current.lines.joined(separator: "\n"),
                                              line: current.line, followsDirectly: onlyBlankSinceLastBlock))
                    open = nil
                    onlyBlankSinceLastBlock = true
                } else {
                    current.lines.append(line)
                    open = current
                }
            } else if line.hasPrefix("```") {
                open = (String(line.dropFirst(3)), number + 1, [])
            } else if !line.allSatisfy({ $0 == " " }) {
                onlyBlankSinceLastBlock = false
            }
        }
        return blocks
    }

    static func readFile(_ path: String) -> String? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
