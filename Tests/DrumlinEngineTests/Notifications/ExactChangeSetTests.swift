@testable import DrumlinEngine
import Testing

/// Issue #45: change sets are exact (item 1), and a callback reads the version its change set
/// describes (item 2). The random operation sequences are in bindings/python/tests/test_changeset_property.py.
@Suite struct ExactChangeSetTests {
    static let schema = """
    [{"name": "Holder", "primaryKey": "id", "properties": {"id": "int", "xs": "int[]", "tags": "string<>"}}]
    """

    func holder(_ path: String = ":memory:", xs: [Int]) throws -> (Database, Object) {
        let db = try Database(path: path, schemaJSON: Self.schema)
        try db.write { try db.create("Holder", json: #"{"id": 1, "xs": \#(xs)}"#) }
        return (db, try #require(try db.object("Holder", primaryKey: 1)))
    }

    @Test func deletingTwoElementsAndAppendingIsTwoDeletionsAndAnInsertion() throws {
        // [1, 2, 3, 4] -> [2, 4, 5]: it was deletions [0], modifications [2], which gives [2, 3, 5].
        let (db, owner) = try holder(xs: [1, 2, 3, 4])
        let xs = try owner.list("xs")
        let received = Received<CollectionChange>()
        let token = try xs.observe(received.callback)
        try db.write {
            try xs.remove(at: 0)
            try xs.remove(at: 1)
            try xs.append(.int(5))
        }
        #expect(try xs.values == [.int(2), .int(4), .int(5)])
        #expect(received.changes == [CollectionChange(deletions: [0, 2], insertions: [2])])
        _ = token
    }

    @Test func aReplacedSlotIsAModificationOnlyWhereItIsOneSlot() throws {
        let (db, owner) = try holder(xs: [1, 2, 3])
        let xs = try owner.list("xs")
        let received = Received<CollectionChange>()
        let token = try xs.observe(received.callback)
        try db.write { try xs.set(.int(9), at: 1) }                          // [1, 9, 3]
        try db.write { try xs.remove(at: 0); try xs.append(.int(7)) }         // [9, 3, 7]
        try db.write { try xs.set(.int(8), at: 0); try xs.set(.int(6), at: 2) }   // [8, 3, 6]
        #expect(received.changes == [
            CollectionChange(modifications: [1]),
            CollectionChange(deletions: [0], insertions: [2]),
            CollectionChange(modifications: [0, 2]),
        ])
        _ = token
    }

    @Test func pairingKeepsEachDeletionAndInsertionInItsGap() {
        // Old [a b c d], new [b x d]: b and d are kept; c and x share the gap between them.
        var change = CollectionChange(deletions: [0, 2], insertions: [1])
        CollectionDiff.pairReplaced(&change, oldCount: 4, newCount: 3)
        #expect(change == CollectionChange(deletions: [0], modifications: [1]))
        // Old [a b c d], new [b d e]: the deletion of c and the insertion of e are in different gaps.
        change = CollectionChange(deletions: [0, 2], insertions: [2])
        CollectionDiff.pairReplaced(&change, oldCount: 4, newCount: 3)
        #expect(change == CollectionChange(deletions: [0, 2], insertions: [2]))
        // Old [a b], new [x y z]: every slot replaced, one more inserted.
        change = CollectionChange(deletions: [0, 1], insertions: [0, 1, 2])
        CollectionDiff.pairReplaced(&change, oldCount: 2, newCount: 3)
        #expect(change == CollectionChange(insertions: [2], modifications: [0, 1]))
    }

    @Test func aSetReportsAnElementReplacedAsADeletionAndAnInsertion() throws {
        let db = try Database(path: ":memory:", schemaJSON: Self.schema)
        try db.write { try db.create("Holder", json: #"{"id": 1, "tags": ["a", "b", "c"]}"#) }
        let tags = try #require(try db.object("Holder", primaryKey: 1)).mutableSet("tags")
        let received = Received<CollectionChange>()
        let token = try tags.observe(received.callback)
        try db.write { _ = try tags.remove(.string("b")); _ = try tags.insert(.string("d")) }
        #expect(try tags.values == [.string("a"), .string("c"), .string("d")])
        #expect(received.changes == [CollectionChange(deletions: [1], insertions: [2])])
        _ = token
    }

    @Test func aCallbackReadsTheVersionItsChangeSetDescribes() throws {
        let path = temporaryPath("versions.drumlin")
        let (observer, owner) = try holder(path, xs: [])
        let writer = try Database(path: path, schemaJSON: Self.schema)
        let written = try #require(try writer.object("Holder", primaryKey: 1)).list("xs")
        let xs = try owner.list("xs")
        var seen: [[Value]] = []
        var changes: [CollectionChange] = []
        let token = try xs.observe { change in
            // Another handle commits, then the callback reads: still the delivered version.
            try? writer.write { try written.insert(.int(0), at: 0) }
            seen.append((try? xs.values) ?? [])
            changes.append(change)
        }
        try observer.write { try xs.append(.int(1)) }                   // delivered on commit
        #expect(try xs.values == [.int(0), .int(1)])                    // after it: the latest
        #expect(try observer.refresh())                                 // the writer's commit
        #expect(seen == [[.int(1)], [.int(0), .int(1)]])
        #expect(changes == [CollectionChange(insertions: [0]), CollectionChange(insertions: [0])])
        #expect(try xs.count == 3)
        token.invalidate()
        writer.close()
        observer.close()
    }

    @Test func compactingInsideACallbackIsRefused() throws {
        let path = temporaryPath("compact.drumlin")
        let (db, owner) = try holder(path, xs: [])
        let xs = try owner.list("xs")
        var failure: DrumlinError?
        let token = try xs.observe { _ in
            do throws(DrumlinError) { try db.compact() } catch { failure = error }
        }
        try db.write { try xs.append(.int(1)) }
        #expect(failure?.code == .wrongTransactionState)
        #expect(failure?.message == "Cannot compact from inside a notification callback: compact after the callback returns.")
        try db.compact()
        #expect(try xs.values == [.int(1)])
        token.invalidate()
    }
}
