import Drumlin
import Testing

/// `realm.schema`, `ObjectSchema`, `Property` and `PropertyType`, as Realm Swift reflects a schema.
@Suite struct SchemaReflectionTests {
    @Test func propertiesCarryRealmsTypesAndFlags() throws {
        let realm = try seedRealm()
        let dog = try #require(realm.schema["SeedDog"])
        #expect(dog.className == "SeedDog")
        #expect(ObjectIdentifier(dog.objectClass) == ObjectIdentifier(SeedDog.self))
        #expect(dog.isEmbedded == false)
        #expect(dog.primaryKeyProperty?.name == "_id")
        #expect(dog.primaryKeyProperty?.type == .objectId)
        #expect(dog.primaryKeyProperty?.isPrimary == true)
        #expect(dog.properties.map(\.type) == [.objectId, .string, .string, .int, .date, .string, .object])
        #expect(dog["age"]?.isOptional == true)
        #expect(dog["name"]?.isIndexed == true)
        #expect(dog["owner"]?.objectClassName == "SeedPerson")
        #expect(dog["nothing"] == nil)
        let person = try #require(realm.schema["SeedPerson"])
        #expect(person["firstName"]?.columnName == "first_name")
        #expect(person["firstName"]?.publicName == "firstName")
        #expect(person["heightCm"]?.type == .float)
        #expect(person["dogs"]?.isArray == true && person["dogs"]?.type == .object)
        #expect(person["tags"]?.isSet == true && person["tags"]?.type == .string)
        #expect(person["scores"]?.isMap == true && person["scores"]?.type == .int)
        #expect(person["clubs"]?.type == .linkingObjects)
        #expect(person["clubs"]?.linkOriginPropertyName == "members")
        #expect(realm.schema["SeedAddress"]?.isEmbedded == true)
        #expect(realm.schema["SeedAddress"].map { ObjectIdentifier($0.objectClass) } == ObjectIdentifier(SeedAddress.self))
        #expect(PropertyType.UUID.rawValue == 12 && PropertyType.any.rawValue == 9 && PropertyType.decimal128.rawValue == 11)
    }

    @Test func schemasCompareByContent() throws {
        let one = try seedRealm("one")
        let two = try seedRealm("two")
        #expect(one.schema == two.schema)
        #expect(one.schema["SeedDog"] == two.schema["SeedDog"])
        #expect(one.schema["SeedDog"] != one.schema["SeedPerson"])
        #expect(one.schema["SeedDog"]?["name"] == two.schema["SeedDog"]?["name"])
        #expect(one.schema["SeedDog"]?["name"] != one.schema["SeedDog"]?["breed"])
        #expect(one.schema.objectSchema.map(\.className) == one.schema.objectSchema.map(\.className).sorted())
        #expect(SeedDog().objectSchema == one.schema["SeedDog"])
    }

    @Test func descriptionsFollowRealmsLayout() throws {
        let realm = try seedRealm()
        let name = try #require(realm.schema["SeedDog"]?["name"])
        #expect(name.description == """
        name {
        \ttype = string;
        \tcolumnName = name;
        \tobjectClassName = (null);
        \tlinkOriginPropertyName = (null);
        \tindexed = YES;
        \tisPrimary = NO;
        \tarray = NO;
        \tset = NO;
        \tdictionary = NO;
        \toptional = NO;
        }
        """)
        let dog = try #require(realm.schema["SeedDog"])
        #expect(dog.description.hasPrefix("SeedDog {\n\t_id {\n\t\ttype = object id;"))
        #expect(realm.schema.description.hasPrefix("Schema {\n\tSeedAddress {"))
    }
}
