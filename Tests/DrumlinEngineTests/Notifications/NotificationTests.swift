import DrumlinEngine
import CSQLite
import Testing

/// Collects what a callback received.
final class Received<Change>: @unchecked Sendable {
    var changes: [Change] = []
    func callback(_ change: Change) { changes.append(change) }
}

@Suite struct NotificationTests {
    func people(_ path: String = ":memory:", count: Int = 0) throws -> Database {
        let db = try openPeople(path)
        if count > 0 {
            try db.write {
                for i in 0..<count { try db.create("Person", json: #"{"id": \#(i), "name": "p\#(i)", "age": \#(i)}"#) }
            }
        }
        return db
    }

    @Test func resultsReportInsertionsModificationsAndDeletionsAfterCommit() throws {
        let db = try people(count: 3)
        let received = Received<CollectionChange>()
        let token = try db.objects("Person").observe(received.callback)
        try db.write { try db.create("Person", json: #"{"id": 10, "name": "new"}"#) }
        try db.write { try db.object("Person", primaryKey: 1)!.set("name", to: "renamed") }
        try db.write { try db.object("Person", primaryKey: 0)!.delete() }
        #expect(received.changes == [
            CollectionChange(insertions: [3]),
            CollectionChange(modifications: [1]),
            CollectionChange(deletions: [0]),
        ])
        token.invalidate()
    }

    @Test func assigningAPropertyIsAModificationEvenToTheSameValueButAModifiedUpsertIsNot() throws {
        let db = try people(count: 2)
        let received = Received<CollectionChange>()
        let token = try db.objects("Person").observe(received.callback)
        try db.write { try db.object("Person", primaryKey: 1)!.set("name", to: "p1") }           // Realm: a change
        try db.write { _ = try db.create("Person", json: #"{"id": 0, "name": "p0"}"#, update: .modified) }   // nothing differs
        try db.write { _ = try db.create("Person", json: #"{"id": 0, "name": "new"}"#, update: .modified) }
        #expect(received.changes == [CollectionChange(modifications: [1]), CollectionChange(modifications: [0])])
        _ = token
    }

    @Test func insertionsAppendInCreationOrderWhateverTheirKeys() throws {
        let db = try people(count: 2)
        let all = try db.objects("Person")
        let received = Received<CollectionChange>()
        let token = try all.observe(received.callback)
        try db.write {   // ascending keys: appended without a query
            try db.create("Person", json: #"{"id": 10, "name": "a"}"#)
            try db.create("Person", json: #"{"id": 11, "name": "b"}"#)
        }
        try db.write {   // descending keys: creation order is not key order
            try db.create("Person", json: #"{"id": 5, "name": "c"}"#)
            try db.create("Person", json: #"{"id": 3, "name": "d"}"#)
        }
        try db.write { try db.object("Person", primaryKey: 3)!.set("age", to: 1) }
        try db.write { try db.object("Person", primaryKey: 11)!.set("age", to: 1) }
        #expect(received.changes == [
            CollectionChange(insertions: [2, 3]),
            CollectionChange(insertions: [4, 5]),
            CollectionChange(modifications: [5]),
            CollectionChange(modifications: [3]),
        ])
        #expect(try all.objects.map(\.key) == [0, 1, 10, 11, 5, 3])
        _ = token
    }

    @Test func manyChangesInOneCommitFoldToTheirNetEffect() throws {
        let db = try people(count: 3)
        let received = Received<CollectionChange>()
        let token = try db.objects("Person").observe(received.callback)
        try db.write {
            try db.create("Person", json: #"{"id": 10, "name": "temporary"}"#)
            try db.object("Person", primaryKey: 10)!.set("age", to: 1)
            try db.object("Person", primaryKey: 10)!.delete()                 // inserted then deleted: no trace
            try db.object("Person", primaryKey: 2)!.set("age", to: 5)
            try db.object("Person", primaryKey: 2)!.delete()                  // modified then deleted: deleted
            try db.object("Person", primaryKey: 1)!.set("age", to: 9)
            try db.object("Person", primaryKey: 0)!.set("name", to: "z")      // out of key order
        }
        #expect(received.changes == [CollectionChange(deletions: [2], modifications: [0, 1])])
        _ = token
    }

    @Test func aRolledBackWriteDeliversNothing() throws {
        let db = try people(count: 2)
        let received = Received<CollectionChange>()
        let token = try db.objects("Person").observe(received.callback)
        try db.beginWrite()
        try db.create("Person", json: #"{"id": 5, "name": "x"}"#)
        try db.rollback()
        try db.write { try db.object("Person", primaryKey: 0)!.set("age", to: 40) }
        #expect(received.changes == [CollectionChange(modifications: [0])])
        _ = token
    }

    @Test func aFailedCallInsideAWriteLeavesNoTrace() throws {
        let db = try people(count: 1)
        let received = Received<CollectionChange>()
        let token = try db.objects("Person").observe(received.callback)
        try db.write {
            expectError(.duplicatePrimaryKey) { _ = try db.create("Person", json: #"{"id": 0, "name": "dup"}"#) }
            try db.object("Person", primaryKey: 0)!.set("age", to: 7)
        }
        #expect(received.changes == [CollectionChange(modifications: [0])])
        _ = token
    }

    @Test func sortedResultsReportAMoveAsDeletionAndInsertion() throws {
        let db = try people(count: 4)   // ages 0,1,2,3
        let received = Received<CollectionChange>()
        let token = try db.objects("Person").sorted(by: "age").observe(received.callback)
        try db.write { try db.object("Person", primaryKey: 0)!.set("age", to: 10) }   // moves from first to last
        #expect(received.changes == [CollectionChange(deletions: [0], insertions: [3])])
        _ = token
    }

    @Test func filteredResultsSeeObjectsEnterAndLeave() throws {
        let db = try people(count: 4)
        let adults = try db.objects("Person").filter("age >= 2")   // p2, p3
        let received = Received<CollectionChange>()
        let token = try adults.observe(received.callback)
        try db.write {
            try db.object("Person", primaryKey: 2)!.set("age", to: 0)     // leaves
            try db.object("Person", primaryKey: 0)!.set("age", to: 30)    // enters (first by creation order)
            try db.object("Person", primaryKey: 3)!.set("name", to: "x")  // stays, modified
        }
        #expect(received.changes == [CollectionChange(deletions: [0], insertions: [0], modifications: [1])])
        #expect(try adults.count == 2)
        _ = token
    }

    @Test func keyPathFilterIgnoresOtherProperties() throws {
        let db = try people(count: 2)
        let received = Received<CollectionChange>()
        let token = try db.objects("Person").observe(keyPaths: ["age"], received.callback)
        try db.write { try db.object("Person", primaryKey: 0)!.set("name", to: "other") }
        try db.write { try db.object("Person", primaryKey: 1)!.set("age", to: 99) }
        #expect(received.changes == [CollectionChange(modifications: [1])])
        _ = token
        expectError(.noSuchProperty) { _ = try db.objects("Person").observe(keyPaths: ["nope"]) { _ in } }
    }

    @Test func objectObserverReportsChangedPropertiesWithOldAndNewValuesThenDeletion() throws {
        let db = try people(count: 1)
        let ann = try #require(try db.object("Person", primaryKey: 0))
        let received = Received<ObjectChange>()
        let token = try ann.observe(received.callback)
        try db.write { try ann.setValues([(1, "Ann"), (2, 31)]) }
        try db.write { try ann.delete() }
        try db.write { try db.create("Person", json: #"{"id": 1, "name": "b"}"#) }
        #expect(received.changes == [
            .changed([PropertyChange(name: "name", oldValue: "p0", newValue: "Ann"),
                      PropertyChange(name: "age", oldValue: 0, newValue: 31)]),
            .deleted,
        ])
        _ = token
    }

    @Test func invalidatedOrReleasedTokensStopDelivery() throws {
        let db = try people(count: 1)
        let kept = Received<CollectionChange>()
        let cancelled = Received<CollectionChange>()
        let released = Received<CollectionChange>()
        let token = try db.objects("Person").observe(kept.callback)
        let cancelledToken = try db.objects("Person").observe(cancelled.callback)
        var releasedToken: NotificationToken? = try db.objects("Person").observe(released.callback)
        #expect(releasedToken?.isValid == true)
        cancelledToken.invalidate()
        cancelledToken.invalidate()
        releasedToken = nil
        try db.write { try db.create("Person", json: #"{"id": 9, "name": "x"}"#) }
        #expect(kept.changes.count == 1)
        #expect(cancelled.changes.isEmpty && released.changes.isEmpty)
        #expect(!cancelledToken.isValid)
        _ = (token, releasedToken)
    }

    @Test func writingInsideACallbackIsAClearError() throws {
        let db = try people(count: 1)
        var failure: DrumlinError?
        var refreshed: Bool?
        let token = try db.objects("Person").observe { _ in
            do {
                try db.beginWrite()
            } catch let error as DrumlinError {
                failure = error
            } catch {}
            refreshed = try? db.refresh()
            _ = try? db.objects("Person").count   // reading is fine
        }
        try db.write { try db.create("Person", json: #"{"id": 2, "name": "x"}"#) }
        #expect(failure?.code == .wrongTransactionState)
        #expect(failure?.message == "Cannot begin a write transaction from inside a notification callback: write after the callback returns.")
        #expect(refreshed == false)
        #expect(!db.isInWriteTransaction)
        _ = token
    }

    @Test func registeringInsideAWriteTransactionIsRefused() throws {
        let db = try people(count: 1)
        try db.beginWrite()
        expectError(.wrongTransactionState, "Cannot register notification blocks from within write transactions.") {
            _ = try db.objects("Person").observe { _ in }
        }
        try db.rollback()
    }

    @Test func writeWithoutNotifyingSkipsOneToken() throws {
        let db = try people(count: 1)
        let skipped = Received<CollectionChange>()
        let other = Received<CollectionChange>()
        let skippedToken = try db.objects("Person").observe(skipped.callback)
        let otherToken = try db.objects("Person").observe(other.callback)
        try db.write(withoutNotifying: [skippedToken]) { try db.create("Person", json: #"{"id": 3, "name": "x"}"#) }
        try db.write { try db.create("Person", json: #"{"id": 4, "name": "y"}"#) }
        #expect(skipped.changes == [CollectionChange(insertions: [2])])   // its state moved past the skipped commit
        #expect(other.changes == [CollectionChange(insertions: [1]), CollectionChange(insertions: [2])])
        _ = otherToken
    }

    @Test func otherHandlesCommitsArriveOnRefresh() throws {
        let path = temporaryPath()
        let writer = try people(path, count: 2)
        let observer = try openPeople(path)
        #expect(try observer.hasExternalChanges == false)   // a fresh handle has seen everything
        try writer.write { try writer.create("Person", json: #"{"id": 4, "name": "before"}"#) }
        #expect(try observer.hasExternalChanges == true)
        #expect(try observer.refresh() == true)             // no observer: nothing to deliver
        let received = Received<CollectionChange>()
        let token = try observer.objects("Person").sorted(by: "id").observe(received.callback)
        #expect(try observer.hasExternalChanges == false)
        try writer.write {
            try writer.create("Person", json: #"{"id": 5, "name": "x"}"#)
            try writer.object("Person", primaryKey: 0)!.set("name", to: "changed")
        }
        #expect(received.changes.isEmpty)
        #expect(try observer.hasExternalChanges == true)
        #expect(try observer.refresh() == true)
        #expect(received.changes == [CollectionChange(insertions: [3], modifications: [0])])
        #expect(try observer.hasExternalChanges == false)
        #expect(try observer.refresh() == false)
        #expect(received.changes.count == 1)
        _ = token
    }

    @Test func writersLogOnlyOnceTheFileIsObserved() throws {
        let path = temporaryPath()
        let writer = try people(path, count: 2)
        #expect(sqlRows(path, "SELECT count(*) FROM sqlite_master WHERE name = '_drumlin_changes'") == [["0"]])
        #expect(sqlRows(path, "SELECT count(*) FROM _drumlin_meta WHERE key = 'observed'") == [["0"]])
        let observer = try openPeople(path)
        let received = Received<CollectionChange>()
        let token = try observer.objects("Person").observe(received.callback)
        #expect(sqlRows(path, "SELECT count(*) FROM _drumlin_meta WHERE key = 'observed'") == [["1"]])
        try writer.write { try writer.object("Person", primaryKey: 1)!.set("name", to: "logged") }
        #expect(sqlRows(path, "SELECT count(*) FROM _drumlin_changes") == [["1"]])
        #expect(try observer.refresh())
        #expect(received.changes == [CollectionChange(modifications: [1])])   // exact, not re-read
        _ = token
    }

    @Test func aReadOnlyObserverOfAnUnobservedFileGetsConservativeChanges() throws {
        let path = temporaryPath()
        let writer = try people(path, count: 2)
        var options = OpenOptions()
        options.readOnly = true
        let observer = try Database(path: path, schemaJSON: personSchema, options: options)
        let received = Received<CollectionChange>()
        let token = try observer.objects("Person").observe(received.callback)
        try writer.write { try writer.object("Person", primaryKey: 1)!.set("name", to: "unlogged") }
        #expect(try observer.refresh())
        #expect(received.changes == [CollectionChange(modifications: [0, 1])])
        _ = token
    }

    @Test func aWriterWithoutTheLogGivesAConservativeChangeOnRefresh() throws {
        let path = temporaryPath()
        let db = try people(path, count: 2)
        let received = Received<CollectionChange>()
        let token = try db.objects("Person").observe(received.callback)
        var raw: OpaquePointer?
        sqlite3_open(path, &raw)
        sqlite3_exec(raw, #"UPDATE "Person" SET "name" = 'raw' WHERE "id" = 1; INSERT INTO "Person" ("id", "name", "score", "active", "_drumlin_seq") VALUES (7, 'r', 1.0, 1, 99)"#, nil, nil, nil)
        sqlite3_close(raw)
        #expect(try db.refresh() == true)
        #expect(received.changes == [CollectionChange(insertions: [2], modifications: [0, 1])])
        _ = token
    }

    @Test func observersFarBehindThePrunedLogStillSeeTheRightObjects() throws {
        let path = temporaryPath()
        let writer = try people(path)
        let observer = try openPeople(path)
        let received = Received<CollectionChange>()
        let token = try observer.objects("Person").observe(received.callback)
        for i in 0..<1200 { try writer.write { try writer.create("Person", json: #"{"id": \#(i), "name": "n"}"#) } }
        #expect(try observer.refresh())
        #expect(received.changes.count == 1)
        #expect(received.changes.first?.insertions == Array(0..<1200))
        #expect(sqlRows(path, "SELECT count(*) FROM _drumlin_changes") == [["1024"]] || Int(sqlRows(path, "SELECT count(*) FROM _drumlin_changes")[0][0])! <= 1152)
        _ = token
    }
}

@Suite struct RefinedResultsNotificationTests {
    @Test func limitedResultsLetTheNextObjectInWhenOneLeaves() throws {
        let db = try openPeople()
        try db.write { for i in 0..<4 { try db.create("Person", json: #"{"id": \#(i), "name": "p\#(i)", "age": \#(i)}"#) } }
        let firstTwo = try db.objects("Person").sorted(by: "age").limit(2)     // ages 0, 1
        let received = Received<CollectionChange>()
        let token = try firstTwo.observe(received.callback)
        try db.write { try db.object("Person", primaryKey: 0)!.delete() }     // 2 moves up
        try db.write { try db.object("Person", primaryKey: 3)!.set("age", to: -1) }   // 3 enters first, 2 leaves
        #expect(received.changes == [
            CollectionChange(deletions: [0], insertions: [1]),
            CollectionChange(deletions: [1], insertions: [0]),
        ])
        #expect(try firstTwo.objects.map(\.key) == [3, 1])
        _ = token
    }

    @Test func distinctResultsFollowTheirRepresentatives() throws {
        let db = try openPeople()
        try db.write {
            try db.create("Person", json: #"{"id": 1, "name": "a", "age": 30}"#)
            try db.create("Person", json: #"{"id": 2, "name": "b", "age": 30}"#)
            try db.create("Person", json: #"{"id": 3, "name": "c", "age": 40}"#)
        }
        let byAge = try db.objects("Person").distinct(["age"])                 // 1 (30), 3 (40)
        let received = Received<CollectionChange>()
        let token = try byAge.observe(received.callback)
        try db.write { try db.object("Person", primaryKey: 1)!.delete() }     // 2 now stands for 30
        try db.write { try db.create("Person", json: #"{"id": 4, "name": "d", "age": 50}"#) }
        #expect(received.changes == [
            CollectionChange(deletions: [0], insertions: [0]),
            CollectionChange(insertions: [2]),
        ])
        #expect(try byAge.objects.map(\.key) == [2, 3, 4])
        _ = token
    }

    @Test func backlinksResultsFollowTheLinksToTheirObject() throws {
        let db = try Database(path: ":memory:", schemaJSON: petsSchema)
        try db.write {
            try db.create("Dog", json: #"{"name": "Rex"}"#)
            try db.create("Person", json: #"{"id": 1, "name": "Ann", "dogs": ["Rex"]}"#)
            try db.create("Person", json: #"{"id": 2, "name": "Bob"}"#)
        }
        let owners = try #require(try db.object("Dog", primaryKey: "Rex")).backlinks("owners")
        let received = Received<CollectionChange>()
        let token = try owners.observe(received.callback)
        let rex = ObjectLink(classIndex: try db.classIndex("Dog"), key: try db.object("Dog", primaryKey: "Rex")!.key)
        try db.write { try db.object("Person", primaryKey: 2)!.list("dogs").append(.link(rex)) }
        try db.write { try db.object("Person", primaryKey: 1)!.set("name", to: "Anna") }
        try db.write { try db.object("Person", primaryKey: 1)!.list("dogs").removeAll() }
        #expect(received.changes == [
            CollectionChange(insertions: [1]),
            CollectionChange(modifications: [0]),
            CollectionChange(deletions: [0]),
        ])
        _ = token
    }
}

@Suite struct CollectionNotificationTests {
    func open() throws -> Database {
        let db = try Database(path: ":memory:", schemaJSON: petsSchema)
        try db.write {
            try db.create("Person", json: #"{"id": 1, "name": "Ann", "dogs": [{"name": "Rex"}, {"name": "Bo"}], "tags": ["a"], "byName": {"r": "Rex"}, "address": {"street": "Main"}}"#)
        }
        return db
    }

    @Test func listObserverReportsIndexChangesAndLinkedObjectModifications() throws {
        let db = try open()
        let ann = try #require(try db.object("Person", primaryKey: 1))
        let dogs = try ann.list("dogs")
        let received = Received<CollectionChange>()
        let token = try dogs.observe(received.callback)
        try db.write { try dogs.append(.link(ObjectLink(classIndex: try db.classIndex("Dog"), key: try db.object("Dog", primaryKey: "Rex")!.key))) }
        try db.write { try dogs.remove(at: 0) }
        try db.write { try dogs.move(from: 0, to: 1) }
        try db.write { try db.object("Dog", primaryKey: "Bo")!.set("age", to: 4) }
        #expect(received.changes == [
            CollectionChange(insertions: [2]),
            CollectionChange(deletions: [0]),
            CollectionChange(deletions: [0], insertions: [1]),
            CollectionChange(modifications: [1]),
        ])
        _ = token
    }

    @Test func settingAnElementIsAModificationAndDeletingTheOwnerDeletesAll() throws {
        let db = try open()
        let ann = try #require(try db.object("Person", primaryKey: 1))
        let scores = try ann.list("scores")
        try db.write { try scores.append(1.0); try scores.append(2.0) }
        let received = Received<CollectionChange>()
        let token = try scores.observe(received.callback)
        try db.write { try scores.set(5.0, at: 1) }
        try db.write { try ann.delete() }
        #expect(received.changes == [CollectionChange(modifications: [1]), CollectionChange(deletions: [0, 1])])
        _ = token
    }

    @Test func dictionaryObserverReportsKeys() throws {
        let db = try open()
        let ann = try #require(try db.object("Person", primaryKey: 1))
        let extra = try ann.dictionary("extra")
        try db.write { try extra.set(1, forKey: "a"); try extra.set(2, forKey: "b") }
        let received = Received<DictionaryChange>()
        let token = try extra.observeDictionary(received.callback)
        try db.write {
            try extra.set(3, forKey: "c")
            try extra.set(20, forKey: "b")
            _ = try extra.removeValue(forKey: "a")
        }
        #expect(received.changes == [DictionaryChange(deletions: ["a"], insertions: ["c"], modifications: ["b"])])
        _ = token
    }

    @Test func aChangeToALinkedObjectModifiesTheResultsObjectsLinkingToIt() throws {
        let db = try open()
        try db.write {
            try db.create("Person", json: #"{"id": 2, "name": "Bob", "dog": "Rex"}"#)
            try db.create("Person", json: #"{"id": 3, "name": "Cy"}"#)
        }
        let people = try db.objects("Person")       // Ann (dogs: Rex, Bo), Bob (dog: Rex), Cy
        let received = Received<CollectionChange>()
        let token = try people.observe(received.callback)
        let onlyNames = Received<CollectionChange>()
        let namesToken = try people.observe(keyPaths: ["name"], onlyNames.callback)
        try db.write { try db.object("Dog", primaryKey: "Rex")!.set("age", to: 5) }   // Ann's list and Bob's link
        try db.write { try db.object("Dog", primaryKey: "Bo")!.set("age", to: 2) }    // Ann's list only
        #expect(received.changes == [CollectionChange(modifications: [0, 1]), CollectionChange(modifications: [0])])
        #expect(onlyNames.changes.isEmpty)
        _ = (token, namesToken)
    }

    @Test func embeddedObjectChangesAreReportedOnTheParent() throws {
        let db = try open()
        let ann = try #require(try db.object("Person", primaryKey: 1))
        let address = try #require(try ann.linkedObject("address"))
        let received = Received<ObjectChange>()
        let token = try ann.observe(received.callback)
        try db.write { try address.set("city", to: "Springfield") }
        #expect(received.changes == [.changed([PropertyChange(name: "address", oldValue: try ann.value("address"), newValue: try ann.value("address"))])])
        _ = token
    }
}

