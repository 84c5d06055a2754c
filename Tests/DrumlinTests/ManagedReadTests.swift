import Drumlin
import Foundation
import Testing

/// Every common property type, required and optional, plus types that take the general route.
final class ReadSample: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var count = 0
    @Persisted var flag = false
    @Persisted var ratio = 0.0
    @Persisted var label = ""
    @Persisted var maybeCount: Int?
    @Persisted var maybeFlag: Bool?
    @Persisted var maybeRatio: Double?
    @Persisted var maybeLabel: String?
    @Persisted var small: Int8 = 0
    @Persisted var stamp = Date(timeIntervalSince1970: 0)
    @Persisted var amount: Decimal128?
}

private func sampleRealm(_ name: String = #function) throws -> Realm {
    try Realm(configuration: Realm.Configuration(inMemoryIdentifier: name + "\(UInt64.random(in: 0 ... .max))",
                                                 objectTypes: [ReadSample.self]))
}

private func sample(_ id: Int, filled: Bool) -> ReadSample {
    let object = ReadSample()
    object.id = id
    object.count = -id
    object.flag = id % 2 == 1
    object.ratio = Double(id) / 4
    object.label = "label \(id) — ü"
    if filled {
        object.maybeCount = id * 10
        object.maybeFlag = false
        object.maybeRatio = 0.5
        object.maybeLabel = "a longer text than fifteen bytes \(id)"
    }
    object.small = -8
    object.stamp = Date(timeIntervalSince1970: 1_700_000_000.25)
    object.amount = filled ? try! Decimal128(string: "1.5") : nil
    return object
}

/// Reads by primary key (the row goes straight into the storages), and adds in bulk (the storages
/// go straight into the insert), for every common type and for the general route.
@Suite struct ManagedReadTests {
    @Test func storagesStaySmall() {
        // One storage per property in every model instance.
        #expect(MemoryLayout<Persisted<Int>>.size <= 32)
        #expect(MemoryLayout<Persisted<String>>.size <= 40)
    }

    @Test func everyTypeReadsBackByPrimaryKey() throws {
        let realm = try sampleRealm()
        try realm.write { realm.add([sample(1, filled: true), sample(2, filled: false)]) }
        let full = try #require(realm.object(ofType: ReadSample.self, forPrimaryKey: 1))
        #expect(full.count == -1 && full.flag && full.ratio == 0.25 && full.label == "label 1 — ü")
        #expect(full.maybeCount == 10 && full.maybeFlag == false && full.maybeRatio == 0.5)
        #expect(full.maybeLabel == "a longer text than fifteen bytes 1")
        #expect(full.small == -8 && full.stamp == Date(timeIntervalSince1970: 1_700_000_000.25))
        #expect(try full.amount == Decimal128(string: "1.5"))
        let empty = try #require(realm.object(ofType: ReadSample.self, forPrimaryKey: 2))
        #expect(empty.maybeCount == nil && empty.maybeFlag == nil && empty.maybeRatio == nil && empty.maybeLabel == nil)
        #expect(empty.amount == nil && !empty.flag)
        #expect(realm.object(ofType: ReadSample.self, forPrimaryKey: 3) == nil)
    }

    @Test func doublesKeepTheirBits() throws {
        let realm = try sampleRealm()
        let object = sample(1, filled: true)
        object.ratio = -0.0
        object.maybeRatio = .nan
        try realm.write { realm.add([object]) }
        let read = try #require(realm.object(ofType: ReadSample.self, forPrimaryKey: 1))
        #expect(read.ratio == 0 && read.ratio.sign == .minus)
        #expect(read.maybeRatio?.isNaN == true)
    }

    @Test func aReadObjectSeesLaterWritesAndItsDeletion() throws {
        let realm = try sampleRealm()
        try realm.write { realm.add([sample(1, filled: true)]) }
        let read = try #require(realm.object(ofType: ReadSample.self, forPrimaryKey: 1))
        let again = try #require(realm.object(ofType: ReadSample.self, forPrimaryKey: 1))
        #expect(read.isSameObject(as: again))
        try realm.write { again.label = "changed"; again.maybeCount = nil }
        #expect(read.label == "changed" && read.maybeCount == nil)
        try realm.write { realm.delete(realm.objects(ReadSample.self)) }
        #expect(read.isInvalidated)
        #expect(again.isInvalidated)
    }

    /// An object read by primary key makes its managed state only when something needs more
    /// than its properties: each use that does still sees the object it was read as.
    @Test func aReadObjectIsManagedForEveryUse() throws {
        let realm = try sampleRealm()
        try realm.write { realm.add([sample(1, filled: true), sample(2, filled: false)]) }
        let first = try #require(realm.object(ofType: ReadSample.self, forPrimaryKey: 1))
        #expect(first.realm != nil && !first.isInvalidated)
        let second = try #require(realm.object(ofType: ReadSample.self, forPrimaryKey: 2))
        #expect(!first.isSameObject(as: second))
        #expect(realm.objects(ReadSample.self).index(of: second) == 1)
        var changes: [String] = []
        let token = second.observe { change in
            if case .change(_, let properties) = change { changes.append(properties.map(\.name).joined(separator: ",")) }
        }
        try realm.write { second.label = "observed" }
        #expect(changes == ["label"])
        token.invalidate()
        try realm.write { realm.delete(first) }
        #expect(first.isInvalidated && !second.isInvalidated)
        #expect(realm.objects(ReadSample.self).map(\.id) == [2])
    }

    /// Writes through an object read by primary key, of every type, go to the stored object (one
    /// write by object key for plain columns, the general write for the others).
    @Test func writesThroughAReadObjectReachTheStoredObject() throws {
        let realm = try sampleRealm()
        try realm.write { realm.add([sample(1, filled: true)]) }
        let read = try #require(realm.object(ofType: ReadSample.self, forPrimaryKey: 1))
        try realm.write {
            read.count = 42
            read.flag = false
            read.ratio = -2.5
            read.label = "a label longer than fifteen bytes"
            read.maybeCount = nil
            read.maybeFlag = true
            read.maybeRatio = nil
            read.maybeLabel = nil
            read.small = 7
            read.stamp = Date(timeIntervalSince1970: 5)
            read.amount = try Decimal128(string: "2.50")
        }
        #expect(read.count == 42 && !read.flag && read.ratio == -2.5 && read.label == "a label longer than fifteen bytes")
        let again = try #require(realm.object(ofType: ReadSample.self, forPrimaryKey: 1))
        #expect(again.count == 42 && !again.flag && again.ratio == -2.5 && again.label == "a label longer than fifteen bytes")
        #expect(again.maybeCount == nil && again.maybeFlag == true && again.maybeRatio == nil && again.maybeLabel == nil)
        #expect(again.small == 7 && again.stamp == Date(timeIntervalSince1970: 5))
        #expect(try again.amount == Decimal128(string: "2.50"))
        #expect(realm.objects(ReadSample.self).filter("count == 42 AND label BEGINSWITH 'a label'").count == 1)
    }

    @Test func anAddedObjectIsManagedWithItsValues() throws {
        let realm = try sampleRealm()
        let objects = (1 ... 100).map { sample($0, filled: $0 % 3 == 0) }
        try realm.write { realm.add(objects) }
        #expect(objects.allSatisfy { $0.realm != nil })
        #expect(realm.objects(ReadSample.self).count == 100)
        #expect(realm.objects(ReadSample.self).filter("maybeLabel == nil").count == 67)
        #expect(realm.objects(ReadSample.self).where { $0.maybeCount == 30 }.first?.label == "label 3 — ü")
        #expect(realm.objects(ReadSample.self).sum(ofProperty: "count") as Int == -5050)
        // Each added object is the stored one: same object, writes through it, deletion.
        let read = try #require(realm.object(ofType: ReadSample.self, forPrimaryKey: 7))
        #expect(objects[6].isSameObject(as: read) && !objects[6].isSameObject(as: objects[7]))
        try realm.write { objects[6].label = "through the added object" }
        #expect(read.label == "through the added object")
        try realm.write { realm.delete(objects[7]) }
        #expect(objects[7].isInvalidated && !objects[6].isInvalidated)
        #expect(realm.objects(ReadSample.self).count == 99)
        // Added again with update: the same objects, their values replaced.
        let again = (1 ... 3).map { sample($0, filled: false) }
        try realm.write { realm.add(again, update: .modified) }
        #expect(again[0].isSameObject(as: objects[0]) && objects[0].label == again[0].label)
        #expect(realm.objects(ReadSample.self).count == 99)
    }
}

final class Tagged: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var tags: List<String>
    @Persisted var numbers: MutableSet<Int>
}

@Suite struct CollectionIterationTests {
    /// Results iterate in pages (64 objects, then 1024): every object once, in order, across page
    /// ends; a page shorter than asked for is the last, so an object added by the loop's body
    /// after it was read is not visited (the loop sees the results as they were when it read them).
    @Test func resultsIterateAcrossPagesAndEndAtAShortPage() throws {
        let realm = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: "pages\(UInt64.random(in: 0 ... .max))",
                                                                 objectTypes: [Tagged.self]))
        try realm.write {
            for id in 1 ... 1100 {
                let object = Tagged()
                object.id = id
                realm.add(object)
            }
        }
        for count in [0, 1, 63, 64, 65, 1088, 1089, 1100] {
            let results = realm.objects(Tagged.self).filter("id <= %@", count)
            var seen: [Int] = []
            for object in results { seen.append(object.id) }
            #expect(seen == Array(0 ..< count).map { $0 + 1 }, "\(count) objects")
            #expect(results.map(\.id).count == count)
        }
        let few = realm.objects(Tagged.self).filter("id <= 3")
        var visited: [Int] = []
        for object in few {
            visited.append(object.id)
            if object.id == 3 {
                try realm.write {
                    let late = Tagged()
                    late.id = -1
                    realm.add(late)
                }
            }
        }
        #expect(visited == [1, 2, 3])
        #expect(few.count == 4)
    }

    @Test func listsAndSetsIterateTheirElementsInOrder() throws {
        let realm = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: "iteration\(UInt64.random(in: 0 ... .max))",
                                                                 objectTypes: [Tagged.self]))
        let object = Tagged()
        object.id = 1
        object.tags.append(objectsIn: ["b", "a", "c"])
        object.numbers.insert(objectsIn: [3, 1, 2])
        #expect(Array(object.tags) == ["b", "a", "c"])
        try realm.write { realm.add(object) }
        let read = try #require(realm.object(ofType: Tagged.self, forPrimaryKey: 1))
        var seen: [String] = []
        for tag in read.tags { seen.append(tag) }
        #expect(seen == ["b", "a", "c"])
        #expect(read.tags.map { $0.uppercased() } == ["B", "A", "C"])
        #expect(Set(read.numbers) == [1, 2, 3])
        try realm.write { read.tags.remove(at: 1); read.tags.append("d") }
        #expect(Array(read.tags) == ["b", "c", "d"])
        try realm.write { read.tags.append(objectsIn: ["e", "f", "g"]) }
        #expect(Array(read.tags) == ["b", "c", "d", "e", "f", "g"])
        let empty = Tagged()
        empty.id = 2
        try realm.write { realm.add(empty) }
        #expect(Array(try #require(realm.object(ofType: Tagged.self, forPrimaryKey: 2)).tags).isEmpty)
    }
}
