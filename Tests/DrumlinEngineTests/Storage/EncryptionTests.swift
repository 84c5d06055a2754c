@testable import DrumlinEngine
import DrumlinCrypt
import DrumlinValues
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Encryption at rest (issue 50, docs/encryption.md): the cipher layer against published vectors,
/// no plaintext on disk, the key's errors, and tampering.
@Suite struct EncryptionTests {
    static let key: [UInt8] = (0..<64).map { UInt8(($0 * 7 + 3) & 0xFF) }
    static let otherKey: [UInt8] = (0..<64).map { UInt8(($0 * 11 + 5) & 0xFF) }

    static func options(_ key: [UInt8]? = key) throws -> OpenOptions {
        var options = OpenOptions()
        options.encryptionKey = try key.map { try EncryptionKey(bytes: $0) }
        return options
    }

    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    // MARK: - Known answers

    /// NIST SP 800-38A, F.5.5 (CTR-AES256.Encrypt) and F.5.6 (Decrypt: the same operation).
    @Test func aes256CtrMatchesNistSP800_38A() {
        let key = Self.hex("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4")
        let counter = Self.hex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")
        let plain = Self.hex("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
                             + "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710")
        let cipher = Self.hex("601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c5"
                              + "2b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6")
        var out = [UInt8](repeating: 0, count: plain.count)
        #expect(dlcrypt_aes256_ctr(key, counter, plain, plain.count, &out) == 0)
        #expect(out == cipher)
        #expect(dlcrypt_aes256_ctr(key, counter, cipher, cipher.count, &out) == 0)
        #expect(out == plain)
    }

    /// RFC 4231, test cases 1, 2, 3 and 6 (HMAC-SHA-224).
    @Test func hmacSha224MatchesRfc4231() {
        let cases: [([UInt8], [UInt8], String)] = [
            ([UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8), "896fb1128abbdf196832107cd49df33f47b4b1169912ba4f53684b22"),
            (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8), "a30e01098bc6dbbf45690f3a7e9e6d0f8bbea2a39e6148008fd05e44"),
            ([UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50), "7fb3cb3588c6c1f6ffa9694d7d6ad2649365b0c1f65d69d1ec8333ea"),
            ([UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
             "95e9a0db962095adaebe9b2d6f0dbce2d499f112f2d2b7273fa6870e"),
        ]
        for (key, message, expected) in cases {
            var out = [UInt8](repeating: 0, count: 28)
            #expect(dlcrypt_hmac_sha224(key, key.count, message, message.count, &out) == 0)
            #expect(out == Self.hex(expected))
        }
    }

    // MARK: - Opening

    @Test func anEncryptedFileReopensWithItsKeyAndStartsWithTheEncryptedMagic() throws {
        let path = temporaryPath()
        do {
            let db = try Database(path: path, schemaJSON: personSchema, options: Self.options())
            try db.write { try db.create("Person", json: #"{"id": 1, "name": "Ann"}"#) }
            db.close()
        }
        let db = try Database(path: path, schemaJSON: personSchema, options: Self.options())
        #expect(try db.object("Person", primaryKey: 1)?.value("name") == .string("Ann"))
        #expect(Array(Self.bytes(path).prefix(16)) == Array("DrumlinEncrypted".utf8))
        // By the stored schema too.
        let stored = try Database(path: path, options: Self.options())
        #expect(try stored.count("Person") == 1)
    }

    @Test func aKeyOfAnotherLengthIsInvalid() {
        expectError(.invalidArgument, "An encryption key must be 64 bytes long, got 63.") {
            _ = try EncryptionKey(bytes: [UInt8](repeating: 1, count: 63))
        }
        expectError(.invalidArgument, "An encryption key must be 64 bytes long, got 0.") { _ = try EncryptionKey(bytes: []) }
    }

    @Test func aWrongKeyNoKeyOrAKeyForAPlainFileIsDecryptionFailedAndChangesNothing() throws {
        let path = temporaryPath()
        do {
            let db = try Database(path: path, schemaJSON: personSchema, options: Self.options())
            try db.write { try db.create("Person", json: #"{"id": 1, "name": "Ann"}"#) }
            db.close()
        }
        let before = Self.snapshot(path)
        expectError(.decryptionFailed, "Realm file decryption failed: the encryption key is not the key of '\(path)'; it was left unchanged.") {
            _ = try Database(path: path, schemaJSON: personSchema, options: Self.options(Self.otherKey))
        }
        expectError(.decryptionFailed, "Realm file decryption failed: '\(path)' is encrypted; open it with its encryption key. It was left unchanged.") {
            _ = try Database(path: path, schemaJSON: personSchema)
        }
        expectError(.decryptionFailed) { _ = try Database(path: path, options: OpenOptions()) }
        #expect(Self.snapshot(path) == before)

        let plain = temporaryPath()
        do {
            let db = try openPeople(plain)
            try db.write { try db.create("Person", json: #"{"id": 1, "name": "Ann"}"#) }
            db.close()
        }
        let plainBefore = Self.snapshot(plain)
        expectError(.decryptionFailed, "Realm file decryption failed: '\(plain)' is not encrypted; open it without an encryption key (or encrypt a copy with writeCopy). It was left unchanged.") {
            _ = try Database(path: plain, schemaJSON: personSchema, options: Self.options())
        }
        #expect(Self.snapshot(plain) == plainBefore)
    }

    // MARK: - No plaintext on disk

    @Test func noMarkerReachesAnyFileWhileOpenOrAfterClosing() throws {
        let directory = temporaryDirectory()
        let path = directory + "/secret.drumlin"
        let markers = (0..<50).map { "MARKER-\($0)-confidential-\(String(repeating: "x", count: $0))" }
        let db = try Database(path: path, schemaJSON: personSchema, options: Self.options())
        try db.write {
            for (index, marker) in markers.enumerated() {
                try db.create("Person", json: #"{"id": \#(index), "name": "\#(marker)", "email": "\#(marker)@example.com"}"#)
            }
        }
        // A second connection to the same file: the -wal and -shm are in use.
        let reader = try Database(path: path, schemaJSON: personSchema, options: Self.options())
        #expect(try reader.object("Person", primaryKey: 49)?.value("name") == .string(markers[49]))
        let open = Self.files(directory)
        #expect(open.contains("secret.drumlin-wal") && open.contains("secret.drumlin-shm"))
        #expect(Self.markersFound(directory, markers + ["confidential", "example.com"]) == [])
        try db.compact()
        db.close()
        reader.close()
        #expect(Self.markersFound(directory, markers + ["confidential", "example.com"]) == [])
        // The same data unencrypted has the markers in plain sight (the search can find them).
        let plain = temporaryDirectory()
        let plainDB = try openPeople(plain + "/plain.drumlin")
        try plainDB.write { try plainDB.create("Person", json: #"{"id": 1, "name": "\#(markers[3])"}"#) }
        #expect(Self.markersFound(plain, [markers[3]]) == [markers[3]])
    }

    // MARK: - Tampering

    /// 100 single-bit flips at random offsets of the database file: each open-and-read either
    /// fails with CORRUPT or reads exactly the data written. Never other data, never a crash.
    @Test func flippedBitsInTheFileAreCorruptOrHarmless() throws {
        let source = temporaryDirectory()
        let path = source + "/t.drumlin"
        let expected = try Self.fill(path, count: 300)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let size = Self.bytes(path).count
        #expect(size > 4096 * 4)
        var outcomes = (corrupt: 0, harmless: 0)
        for _ in 0..<100 {
            let offset = Int(Self.next(&state) % UInt64(size))
            let bit = UInt8(1 << (Self.next(&state) % 8))
            let copy = temporaryDirectory() + "/t.drumlin"
            var bytes = Self.bytes(path)
            bytes[offset] ^= bit
            Self.write(bytes, to: copy)
            Self.checkOutcome(copy, expected: expected, flipped: "file byte \(offset)", outcomes: &outcomes)
        }
        #expect(outcomes.corrupt + outcomes.harmless == 100)
        #expect(outcomes.corrupt > 0)
    }

    /// 100 single-bit flips in the page images of the write-ahead log (a copy taken while the
    /// writer is open, as after a crash). Each is CORRUPT or the data committed; the last commit
    /// is a separate one whose loss is allowed: a damaged last frame reads as a torn write, the
    /// log ending before it, as SQLite does for a damaged checksum (docs/encryption.md).
    @Test func flippedBitsInTheLogsPagesAreCorruptOrHarmless() throws {
        let source = temporaryDirectory()
        let path = source + "/w.drumlin"
        let db = try Database(path: path, schemaJSON: personSchema, options: Self.options())
        var expected: [Int: String] = [:]
        for batch in 0..<4 {
            try db.write {
                for index in batch * 50..<(batch + 1) * 50 {
                    expected[index] = "person \(index) " + String(repeating: "w", count: index % 40)
                    try db.create("Person", json: #"{"id": \#(index), "name": "\#(expected[index]!)"}"#)
                }
            }
        }
        try db.write { try db.create("Person", json: #"{"id": 100000, "name": "last commit"}"#) }
        let file = Self.bytes(path)
        let log = Self.bytes(path + "-wal")
        let frames = (log.count - 32) / (24 + 4096)
        #expect(frames > 4)
        var state: UInt64 = 0xD1B5_4A32_D192_ED03
        var outcomes = (corrupt: 0, harmless: 0)
        for _ in 0..<100 {
            let frame = Int(Self.next(&state) % UInt64(frames))
            let offset = 32 + frame * (24 + 4096) + 24 + Int(Self.next(&state) % 4096)
            let copy = temporaryDirectory() + "/w.drumlin"
            Self.write(file, to: copy)
            var damaged = log
            damaged[offset] ^= UInt8(1 << (Self.next(&state) % 8))
            Self.write(damaged, to: copy + "-wal")
            Self.checkOutcome(copy, expected: expected, flipped: "log frame \(frame + 1) byte \(offset)", outcomes: &outcomes)
        }
        #expect(outcomes.corrupt + outcomes.harmless == 100)
        #expect(outcomes.corrupt > 50)
        db.close()
    }

    @Test func aDamagedPageIsCorruptNamingThePage() throws {
        let path = temporaryPath()
        _ = try Self.fill(path, count: 300)
        var bytes = Self.bytes(path)
        let page = bytes.count / 4096 - 1    // the last page, a table page or an index page
        bytes[page * 4096 + 100] ^= 0x10
        Self.write(bytes, to: path)
        do {
            let db = try Database(path: path, schemaJSON: personSchema, options: Self.options())
            for index in 0..<300 { _ = try db.object("Person", primaryKey: .int(Int64(index)))?.value("name") }
            _ = try db.objects("Person").filter("email CONTAINS 'q'").count
            Issue.record("the damaged page was never read")
        } catch let error as DrumlinError {
            #expect(error.code == .corrupt)
            #expect(error.message.contains("Page \(page + 1) of '\(path)' failed authentication"), "\(error.message)")
        }
    }

    /// Page 1 is read as SQLite opens the file (its header): damage there fails the open itself.
    @Test func aDamagedFirstPageFailsTheOpenWithCorruptNamingPage1() throws {
        let path = temporaryPath()
        _ = try Self.fill(path, count: 10)
        var bytes = Self.bytes(path)
        bytes[1000] ^= 0x04
        Self.write(bytes, to: path)
        expectError(.corrupt) { _ = try Database(path: path, schemaJSON: personSchema, options: Self.options()) }
        do {
            _ = try Database(path: path, schemaJSON: personSchema, options: Self.options())
        } catch let error as DrumlinError {
            #expect(error.message.hasPrefix("The encrypted file is damaged: Page 1 of '\(path)' failed authentication"), "\(error.message)")
        }
        #expect(Self.bytes(path) == bytes)
    }

    // MARK: - Helpers

    static func fill(_ path: String, count: Int) throws -> [Int: String] {
        let db = try Database(path: path, schemaJSON: personSchema, options: options())
        var expected: [Int: String] = [:]
        try db.write {
            for index in 0..<count {
                expected[index] = "person \(index) " + String(repeating: "v", count: index % 60)
                try db.create("Person", json: #"{"id": \#(index), "name": "\#(expected[index]!)", "email": "e\#(index)@q"}"#)
            }
        }
        db.close()
        return expected
    }

    static func checkOutcome(_ path: String, expected: [Int: String], flipped: String,
                             outcomes: inout (corrupt: Int, harmless: Int)) {
        do {
            let db = try Database(path: path, schemaJSON: personSchema, options: options())
            defer { db.close() }
            for (index, name) in expected {
                let read = try db.object("Person", primaryKey: .int(Int64(index)))?.value("name")
                #expect(read == .string(name), "\(flipped): object \(index) read \(String(describing: read))")
            }
            let count = try db.count("Person")
            #expect(count == expected.count || count == expected.count + 1, "\(flipped): \(count) objects")
            outcomes.harmless += 1
        } catch let error as DrumlinError {
            #expect(error.code == .corrupt, "\(flipped): \(error)")
            outcomes.corrupt += 1
        } catch {
            Issue.record("\(flipped): \(error)")
        }
    }

    static func next(_ state: inout UInt64) -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state >> 17
    }

    static func bytes(_ path: String) -> [UInt8] {
        guard let file = fopen(path, "rb") else { return [] }
        defer { fclose(file) }
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n == 0 { break }
            result += buffer[0..<n]
        }
        return result
    }

    static func write(_ bytes: [UInt8], to path: String) {
        let file = fopen(path, "wb")!
        _ = fwrite(bytes, 1, bytes.count, file)
        fclose(file)
    }

    static func files(_ directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Every file beside `path` (the database, -wal, -shm, journals) and its bytes.
    static func snapshot(_ path: String) -> [String: [UInt8]] {
        let directory = String(path[..<path.lastIndex(of: "/")!])
        var result: [String: [UInt8]] = [:]
        for name in files(directory) { result[name] = bytes(directory + "/" + name) }
        return result
    }

    /// The markers found in any byte of any file of `directory`.
    static func markersFound(_ directory: String, _ markers: [String]) -> [String] {
        let contents = files(directory).map { bytes(directory + "/" + $0) }
        return markers.filter { marker in
            let needle = Array(marker.utf8)
            return contents.contains { haystack in
                guard haystack.count >= needle.count else { return false }
                for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
                    if Array(haystack[start..<start + needle.count]) == needle { return true }
                }
                return false
            }
        }
    }
}
