import Drumlin
import Foundation
import Testing

/// List's range and offset mutations, unmanaged and managed (the same results both ways).
@Suite struct ListRangeTests {
    class Shelf: Object {
        @Persisted var books: List<String>
    }

    /// The list of `shelf`, managed in a write transaction when `managed`.
    func run(managed: Bool, _ start: [String], _ body: (List<String>) -> Void) throws -> [String] {
        let shelf = Shelf()
        shelf.books.append(objectsIn: start)
        guard managed else {
            body(shelf.books)
            return Array(shelf.books)
        }
        let realm = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: "ranges-\(UUID())", objectTypes: [Shelf.self]))
        try realm.write {
            realm.add(shelf)
            body(shelf.books)
        }
        return Array(realm.objects(Shelf.self).first!.books)
    }

    @Test(arguments: [false, true]) func rangeMutations(managed: Bool) throws {
        #expect(try run(managed: managed, ["a", "d"]) { $0.insert(contentsOf: ["b", "c"], at: 1) } == ["a", "b", "c", "d"])
        #expect(try run(managed: managed, ["a", "b", "c", "d"]) { $0.removeSubrange(1 ..< 3) } == ["a", "d"])
        #expect(try run(managed: managed, ["a", "b", "c"]) { $0.replaceSubrange(0 ..< 2, with: ["x", "y", "z"]) } == ["x", "y", "z", "c"])
        #expect(try run(managed: managed, ["a", "b", "c", "d"]) { $0.remove(atOffsets: IndexSet([0, 2])) } == ["b", "d"])
    }

    @Test(arguments: [false, true]) func moveFromOffsetsMatchesSwiftUIs(managed: Bool) throws {
        // Destinations are indices before the move, as MutableCollection.move(fromOffsets:toOffset:).
        #expect(try run(managed: managed, ["a", "b", "c", "d", "e"]) { $0.move(fromOffsets: IndexSet([0]), toOffset: 3) } == ["b", "c", "a", "d", "e"])
        #expect(try run(managed: managed, ["a", "b", "c", "d", "e"]) { $0.move(fromOffsets: IndexSet([1, 3]), toOffset: 5) } == ["a", "c", "e", "b", "d"])
        #expect(try run(managed: managed, ["a", "b", "c", "d", "e"]) { $0.move(fromOffsets: IndexSet([3, 4]), toOffset: 0) } == ["d", "e", "a", "b", "c"])
        #expect(try run(managed: managed, ["a", "b", "c"]) { $0.move(fromOffsets: IndexSet([1]), toOffset: 1) } == ["a", "b", "c"])
    }
}
