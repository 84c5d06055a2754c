import DrumlinEngine
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Copies (`writeCopy(to:)`) and frozen snapshots (`frozenSnapshot()`): one committed version,
/// read later and from other threads.
@Suite struct SnapshotTests {
    @Test func frozenSnapshotKeepsItsVersionAfterCommits() throws {
        let db = try openPeople(temporaryPath())
        try db.write { _ = try db.create("Person", json: #"{"id": 1, "name": "Ann"}"#) }
        let frozen = try db.frozenSnapshot()
        try db.write {
            _ = try db.create("Person", json: #"{"id": 2, "name": "Bob"}"#)
            _ = try db.create("Person", json: #"{"id": 1, "name": "Anna"}"#, update: .modified)
        }
        #expect(try db.count("Person") == 2)
        #expect(try frozen.count("Person") == 1)
        #expect(try frozen.object("Person", primaryKey: .int(1))?.value("name") == .string("Ann"))
        #expect(try frozen.object("Person", primaryKey: .int(2)) == nil)
        // Read from another thread: the same version.
        let counted = SnapshotCount()
        let thread = SnapshotThread { counted.value = (try? frozen.count("Person")) ?? -1 }
        thread.join()
        #expect(counted.value == 1)
    }

    @Test func frozenSnapshotIsReadOnlyAndRemovesItsFile() throws {
        let db = try openPeople()
        try db.write { _ = try db.create("Person", json: #"{"id": 1, "name": "Ann"}"#) }
        var frozen: Database? = try db.frozenSnapshot()
        let file = frozen!.path
        #expect(access(file, F_OK) == 0)
        expectError(.readOnly) { try frozen!.write { _ = try frozen!.create("Person", json: #"{"id": 3, "name": "C"}"#) } }
        #expect(try frozen!.count("Person") == 1)
        frozen = nil
        #expect(access(file, F_OK) != 0)
    }

    @Test func freezingInsideAWriteIsRefused() throws {
        let db = try openPeople()
        try db.beginWrite()
        expectError(.wrongTransactionState, "Cannot copy or freeze a database inside a write transaction.") {
            _ = try db.frozenSnapshot()
        }
        try db.rollback()
    }

    @Test func resultsResolveInASnapshotWithTheirFilters() throws {
        let db = try openPeople()
        try db.write {
            for id in 1...4 { _ = try db.create("Person", json: #"{"id": \#(id), "name": "P\#(id)", "age": \#(id * 10)}"#) }
        }
        let live = try db.objects("Person").filter("age >= 20 SORT(age DESC)")
        let frozen = try live.resolved(in: try db.frozenSnapshot())
        try db.write { _ = try db.create("Person", json: #"{"id": 5, "name": "P5", "age": 50}"#) }
        #expect(try live.count == 4)
        #expect(try frozen.count == 3)
        #expect(try frozen.object(at: 0).value("name") == .string("P4"))
    }

    @Test func writeCopyMakesAnOpenableFileAndRefusesAnExistingOne() throws {
        let db = try openPeople()
        try db.write { _ = try db.create("Person", json: #"{"id": 7, "name": "Gil"}"#) }
        let path = temporaryPath("copy.drumlin")
        try db.writeCopy(to: path)
        let copy = try openPeople(path)
        #expect(try copy.count("Person") == 1)
        expectError(.file, "Cannot write a copy to '\(path)': the file already exists.") { try db.writeCopy(to: path) }
    }
}

final class SnapshotCount: @unchecked Sendable { var value = 0 }

/// A joinable thread, without Foundation.
final class SnapshotThread: @unchecked Sendable {
    private var handle = pthread_t()
    private let body: () -> Void

    init(_ body: @escaping () -> Void) {
        self.body = body
        let box = Unmanaged.passRetained(self)
        pthread_create(&handle, nil, { raw in
            let thread = Unmanaged<SnapshotThread>.fromOpaque(raw!).takeRetainedValue()
            thread.body()
            return nil
        }, box.toOpaque())
    }

    func join() { pthread_join(handle, nil) }
}
