import Drumlin
import Foundation
import Testing

/// `class X: Object, Codable`: synthesized conformances, JSON round trips, and decoded objects
/// added to a Realm.
@Suite struct CodableTests {
    class Toy: EmbeddedObject, Codable {
        @Persisted var kind = ""
    }

    class CodableDog: Object, Codable {
        @Persisted(primaryKey: true) var _id: ObjectId
        @Persisted var name = ""
        @Persisted var nickname: String?
        @Persisted var age = 0
        @Persisted var weight: Decimal128
        @Persisted var tags: List<String>
        @Persisted var friends: MutableSet<Int>
        @Persisted var scores: Map<String, Double>
        @Persisted var extra: AnyRealmValue
        @Persisted var toy: Toy?
    }

    static let json = """
    {"_id": "65f1c0ffee0123456789abcd", "name": "Rex", "age": 3, "weight": "12.5",
     "tags": ["a", "b"], "friends": [1, 2, 2], "scores": {"x": 1.5}, "extra": {"k": [1, "two", null]},
     "toy": {"kind": "ball"}}
    """

    @Test func decodesJSONStraightIntoAnObject() throws {
        let dog = try JSONDecoder().decode(CodableDog.self, from: Data(Self.json.utf8))
        #expect(dog._id == (try ObjectId(string: "65f1c0ffee0123456789abcd")))
        #expect(dog.name == "Rex" && dog.age == 3 && dog.nickname == nil)
        #expect(dog.weight == Decimal128(stringLiteral: "12.5"))
        #expect(Array(dog.tags) == ["a", "b"])
        #expect(Set(dog.friends) == [1, 2] && dog.friends.count == 2)
        #expect(dog.scores["x"] == 1.5)
        #expect(dog.extra == .dictionary(["k": .list([.int(1), .string("two"), .none])]))
        #expect(dog.toy?.kind == "ball")
        // And it is an ordinary unmanaged object: it can be added.
        let realm = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: "codable-\(UUID())", objectTypes: [CodableDog.self, Toy.self]))
        try realm.write { realm.add(dog) }
        let stored = try #require(realm.objects(CodableDog.self).first)
        #expect(stored.tags.count == 2 && stored.toy?.kind == "ball" && stored.weight == dog.weight)
    }

    @Test func roundTripsThroughJSON() throws {
        let dog = CodableDog()
        dog._id = ObjectId.generate()
        dog.name = "Fido"
        dog.nickname = "F"
        dog.tags.append("x")
        dog.scores["y"] = 2
        dog.extra = .int(7)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(dog)
        let back = try JSONDecoder().decode(CodableDog.self, from: data)
        #expect(back._id == dog._id && back.name == "Fido" && back.nickname == "F")
        #expect(Array(back.tags) == ["x"] && back.scores["y"] == 2 && back.extra == .int(7))
        #expect(String(decoding: try encoder.encode(back), as: UTF8.self) == String(decoding: data, as: UTF8.self))
    }

    @Test func valuesGivenByNameAreEncoded() throws {
        // init(value:) writes the storages, so the synthesized encoding sees the values.
        let dog = CodableDog(value: ["name": "Byname", "age": 9, "tags": ["t"]])
        let object = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(dog)) as? [String: Any]
        #expect(object?["name"] as? String == "Byname")
        #expect(object?["age"] as? Int == 9)
        #expect(object?["tags"] as? [String] == ["t"])
    }

    @Test func aWrongTypeIsADecodingError() {
        let bad = #"{"_id": "65f1c0ffee0123456789abcd", "name": 5, "age": 3, "weight": "1", "tags": [], "friends": [], "scores": {}, "extra": null}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(CodableDog.self, from: Data(bad.utf8)) }
    }
}
