@testable import DrumlinEngine
import DrumlinValues
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `writeCopy(to:encryptionKey:)`: adding, changing and removing encryption (issue 50,
/// docs/encryption.md), and frozen snapshots of an encrypted database.
@Suite struct EncryptionCopyTests {
    static let key: [UInt8] = (0..<64).map { UInt8(($0 * 7 + 3) & 0xFF) }
    static let otherKey: [UInt8] = (0..<64).map { UInt8(($0 * 11 + 5) & 0xFF) }

    static func options(_ key: [UInt8]?) throws -> OpenOptions {
        var options = OpenOptions()
        options.encryptionKey = try key.map { try EncryptionKey(bytes: $0) }
        return options
    }

    static func fill(_ path: String, key: [UInt8]?) throws {
        let db = try Database(path: path, schemaJSON: personSchema, options: options(key))
        defer { db.close() }
        try db.write {
            for id in 1...300 { try db.create("Person", json: #"{"id": \#(id), "name": "marker-\#(id)-private"}"#) }
        }
    }

    /// The names of every Person, in key order, read with `key`.
    static func names(_ path: String, key: [UInt8]?) throws -> [String] {
        let db = try Database(path: path, schemaJSON: personSchema, options: options(key))
        defer { db.close() }
        return try (1...300).map { id in
            guard case .string(let name)? = try db.object("Person", primaryKey: .int(Int64(id)))?.value("name") else { return "?" }
            return name
        }
    }

    static let expected = (1...300).map { "marker-\($0)-private" }

    /// Byte 20 of SQLite's header: the bytes reserved at the end of each page.
    static func reservedBytes(_ path: String) -> UInt8 {
        EncryptionTests.bytes(path)[20]
    }

    static func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        guard haystack.count >= pattern.count else { return false }
        for start in 0...(haystack.count - pattern.count) where haystack[start] == pattern[0] {
            if Array(haystack[start..<start + pattern.count]) == pattern { return true }
        }
        return false
    }

    @Test(arguments: [(nil, EncryptionCopyTests.key), (EncryptionCopyTests.key, EncryptionCopyTests.otherKey),
                      (EncryptionCopyTests.key, nil), (EncryptionCopyTests.key, EncryptionCopyTests.key)] as [([UInt8]?, [UInt8]?)])
    func aCopyHoldsEveryObjectUnderItsOwnKeyAndTheSourceIsUnchanged(source: [UInt8]?, target: [UInt8]?) throws {
        let directory = temporaryDirectory()
        let path = directory + "/source.drumlin", copy = directory + "/copy.drumlin"
        try Self.fill(path, key: source)
        let before = EncryptionTests.bytes(path)
        let db = try Database(path: path, schemaJSON: personSchema, options: Self.options(source))
        try db.writeCopy(to: copy, encryptionKey: target.map { try EncryptionKey(bytes: $0) })
        db.close()
        #expect(try Self.names(copy, key: target) == Self.expected)
        #expect(EncryptionTests.bytes(path) == before)
        let data = EncryptionTests.bytes(copy)
        #expect(Array(data.prefix(16)) == Array((target == nil ? "SQLite format 3\0" : "DrumlinEncrypted").utf8))
        #expect(Self.contains(data, "marker-1-private") == (target == nil))
        // A decrypted copy keeps the 44 reserved bytes (SQLite cannot take them away). (An
        // encrypted copy's header is ciphertext past its magic: its reserve shows in every page
        // reading back whole, below.)
        if target == nil { #expect(Self.reservedBytes(copy) == 44) }
        if target != nil {
            expectError(.decryptionFailed) { _ = try Database(path: copy, schemaJSON: personSchema, options: Self.options(nil)) }
        }
        if let source, source != target {
            expectError(.decryptionFailed) { _ = try Database(path: copy, schemaJSON: personSchema, options: Self.options(source)) }
        }
        // The copy is a database of its own, in write-ahead-log mode: written, checked, compacted.
        let reopened = try Database(path: copy, schemaJSON: personSchema, options: Self.options(target))
        try reopened.write { try reopened.create("Person", json: #"{"id": 301, "name": "new"}"#) }
        #expect(try reopened.check() == [])
        try reopened.compact()
        #expect(try reopened.count("Person") == 301)
        #expect(try reopened.connection?.scalarText("PRAGMA journal_mode") == "wal")
        reopened.close()
    }

    /// Encrypting a copy asks SQLite for 44 reserved bytes on the source's connection for the copy
    /// only: a compact of the plain source afterwards keeps it without them.
    @Test func thePlainSourceKeepsNoReservedBytesAfterAnEncryptedCopy() throws {
        let directory = temporaryDirectory()
        let path = directory + "/plain.drumlin"
        try Self.fill(path, key: nil)
        let db = try Database(path: path, schemaJSON: personSchema)
        try db.writeCopy(to: directory + "/copy.drumlin", encryptionKey: EncryptionKey(bytes: Self.key))
        try db.write { try db.create("Person", json: #"{"id": 400, "name": "after"}"#) }
        try db.compact()
        db.close()
        #expect(Self.reservedBytes(path) == 0)
        #expect(try Self.names(path, key: nil) == Self.expected)
    }

    @Test func anInMemoryDatabaseCopiesToAnEncryptedFile() throws {
        let copy = temporaryPath()
        let db = try Database(path: ":memory:", schemaJSON: personSchema)
        try db.write {
            for id in 1...300 { try db.create("Person", json: #"{"id": \#(id), "name": "marker-\#(id)-private"}"#) }
        }
        try db.writeCopy(to: copy, encryptionKey: EncryptionKey(bytes: Self.key))
        #expect(try Self.names(copy, key: Self.key) == Self.expected)
    }

    @Test func refusalsLeaveNoFile() throws {
        let directory = temporaryDirectory()
        let path = directory + "/source.drumlin", copy = directory + "/copy.drumlin"
        try Self.fill(path, key: Self.key)
        let db = try Database(path: path, schemaJSON: personSchema, options: Self.options(Self.key))
        defer { db.close() }
        expectError(.invalidArgument, "An encryption key must be 64 bytes long, got 63.") {
            try db.writeCopy(to: copy, encryptionKey: EncryptionKey(bytes: Self.key.prefix(63)))
        }
        expectError(.file, "Cannot write a copy to '\(directory)': it is a directory; give the path of a new file.") {
            try db.writeCopy(to: directory, encryptionKey: EncryptionKey(bytes: Self.otherKey))
        }
        expectError(.file, "Cannot write a copy to '\(path)': the file already exists.") { try db.writeCopy(to: path) }
        expectError(.invalidArgument, "Cannot write a copy to ':memory:': give the path of a new file.") { try db.writeCopy(to: ":memory:") }
        expectError(.file, "Cannot write a copy to '\(directory)/no/copy.drumlin': its directory does not exist.") {
            try db.writeCopy(to: directory + "/no/copy.drumlin")
        }
        try db.beginWrite()
        expectError(.wrongTransactionState, "Cannot copy or freeze a database inside a write transaction.") { try db.writeCopy(to: copy) }
        try db.rollback()
        #expect(access(copy, F_OK) != 0)
        var entries: [String] = []
        if let dir = opendir(directory) {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                if !name.hasPrefix(".") { entries.append(name) }
            }
            closedir(dir)
        }
        #expect(entries.sorted() == ["source.drumlin", "source.drumlin-shm", "source.drumlin-wal"])
    }

    /// A copy whose source page fails authentication: CORRUPT naming the page, and no copy left.
    @Test func aDamagedSourcePageFailsTheCopyAndLeavesNothing() throws {
        let directory = temporaryDirectory()
        let path = directory + "/source.drumlin", copy = directory + "/copy.drumlin"
        try Self.fill(path, key: Self.key)
        var data = EncryptionTests.bytes(path)
        let last = data.count / 4096  // a page of Person rows or their index, which opening does not read
        #expect(last > 3)
        data[(last - 1) * 4096 + 100] ^= 0x01
        let file = fopen(path, "wb")!
        fwrite(data, 1, data.count, file)
        fclose(file)
        let db = try Database(path: path, schemaJSON: personSchema, options: Self.options(Self.key))
        defer { db.close() }
        var thrown: DrumlinError?
        do throws(DrumlinError) {
            try db.writeCopy(to: copy, encryptionKey: nil)
        } catch {
            thrown = error
        }
        #expect(thrown?.code == .corrupt)
        #expect(thrown?.message.contains("Page \(last) of '\(path)' failed authentication") == true, "\(String(describing: thrown))")
        #expect(access(copy, F_OK) != 0)
    }

    /// A frozen snapshot of an encrypted database is a temporary file encrypted with its key.
    @Test func aFrozenSnapshotOfAnEncryptedDatabaseIsEncrypted() throws {
        let path = temporaryPath()
        try Self.fill(path, key: Self.key)
        let db = try Database(path: path, schemaJSON: personSchema, options: Self.options(Self.key))
        defer { db.close() }
        let frozen = try db.frozenSnapshot()
        #expect(try frozen.count("Person") == 300)
        let file = try #require(frozen.ownedFile)
        let data = EncryptionTests.bytes(file)
        #expect(Array(data.prefix(16)) == Array("DrumlinEncrypted".utf8))
        #expect(!Self.contains(data, "marker-"))
    }
}
