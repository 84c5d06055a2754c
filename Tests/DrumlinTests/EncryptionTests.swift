import Drumlin
import Testing

/// `Realm.Configuration(encryptionKey:)` and `schemaVersionAtURL(_:encryptionKey:)` (docs/encryption.md).
@Suite struct EncryptionTests {
    let key = Data((0..<64).map { UInt8($0 * 3 & 0xFF) })

    func configuration(_ url: URL, key: Data?, version: UInt64 = 0) -> Realm.Configuration {
        Realm.Configuration(fileURL: url, encryptionKey: key, schemaVersion: version, objectTypes: [SeedBook.self])
    }

    @Test func anEncryptedRealmOpensOnlyWithItsKey() throws {
        let url = URL(fileURLWithPath: "/tmp/drumlin-encrypted-\(UInt64.random(in: 0 ... .max)).realm")
        let encrypted = configuration(url, key: key, version: 3)
        defer { _ = try? Realm.deleteFiles(for: encrypted) }
        do {
            let realm = try Realm(configuration: encrypted)
            try realm.write { realm.create(SeedBook.self, value: ["id": 1, "title": "Private diary", "pages": 12]) }
            #expect(realm.object(ofType: SeedBook.self, forPrimaryKey: 1)?.title == "Private diary")
        }
        let bytes = try Data(contentsOf: url)
        #expect(bytes.prefix(16) == Data("DrumlinEncrypted".utf8))
        #expect(bytes.range(of: Data("Private diary".utf8)) == nil)
        #expect(try schemaVersionAtURL(url, encryptionKey: key) == 3)

        let wrong = #expect(throws: Realm.Error.self) { _ = try Realm(configuration: configuration(url, key: Data(count: 64), version: 3)) }
        #expect(wrong?.codeName == "DECRYPTION_FAILED")
        #expect(wrong?.message == "Realm file decryption failed: the encryption key is not the key of '\(url.path)'; it was left unchanged.")
        let none = #expect(throws: Realm.Error.self) { _ = try schemaVersionAtURL(url) }
        #expect(none?.codeName == "DECRYPTION_FAILED")
        let short = #expect(throws: Realm.Error.self) { _ = try Realm(configuration: configuration(url, key: Data(count: 32), version: 3)) }
        #expect(short?.codeName == "INVALID_ARGUMENT")
        #expect(short?.message == "An encryption key must be 64 bytes long, got 32.")
        #expect(try Data(contentsOf: url) == bytes)
    }

    func temporaryURL(_ name: String) -> URL {
        URL(fileURLWithPath: "/tmp/drumlin-\(name)-\(UInt64.random(in: 0 ... .max)).realm")
    }

    /// Realm's `writeCopy(toFile:encryptionKey:)` and `writeCopy(configuration:)`: adding,
    /// changing and removing the key.
    @Test func writeCopyEncryptsRekeysAndDecrypts() throws {
        let other = Data((0..<64).map { UInt8(255 - $0) })
        let plainURL = temporaryURL("plain"), encryptedURL = temporaryURL("encrypted")
        let rekeyedURL = temporaryURL("rekeyed"), decryptedURL = temporaryURL("decrypted")
        let plain = configuration(plainURL, key: nil, version: 2)
        defer {
            for url in [plainURL, encryptedURL, rekeyedURL, decryptedURL] {
                _ = try? Realm.deleteFiles(for: configuration(url, key: nil))
            }
        }
        do {
            let realm = try Realm(configuration: plain)
            try realm.write {
                for id in 1...40 { realm.create(SeedBook.self, value: ["id": id, "title": "Diary \(id)", "pages": id]) }
            }
            try realm.writeCopy(toFile: encryptedURL, encryptionKey: key)
            let exists = #expect(throws: Realm.Error.self) { try realm.writeCopy(toFile: encryptedURL, encryptionKey: other) }
            #expect(exists?.code == .fileExists)
            let short = #expect(throws: Realm.Error.self) { try realm.writeCopy(toFile: rekeyedURL, encryptionKey: Data(count: 63)) }
            #expect(short?.codeName == "INVALID_ARGUMENT")
            #expect(short?.message == "An encryption key must be 64 bytes long, got 63.")
            #expect(!FileManager.default.fileExists(atPath: rekeyedURL.path))
        }
        #expect(try Data(contentsOf: encryptedURL).prefix(16) == Data("DrumlinEncrypted".utf8))
        #expect(try Data(contentsOf: encryptedURL).range(of: Data("Diary 1".utf8)) == nil)
        #expect(try schemaVersionAtURL(encryptedURL, encryptionKey: key) == 2)
        do {
            let realm = try Realm(configuration: configuration(encryptedURL, key: key, version: 2))
            #expect(realm.objects(SeedBook.self).count == 40)
            try realm.writeCopy(configuration: configuration(rekeyedURL, key: other, version: 2))
        }
        let old = #expect(throws: Realm.Error.self) { _ = try Realm(configuration: configuration(rekeyedURL, key: key, version: 2)) }
        #expect(old?.codeName == "DECRYPTION_FAILED")
        do {
            let realm = try Realm(configuration: configuration(rekeyedURL, key: other, version: 2))
            #expect(realm.objects(SeedBook.self).sorted(byKeyPath: "id").map(\.title) == (1...40).map { "Diary \($0)" })
            try realm.writeCopy(toFile: decryptedURL)
        }
        #expect(try Data(contentsOf: decryptedURL).prefix(16) == Data("SQLite format 3\0".utf8))
        let realm = try Realm(configuration: configuration(decryptedURL, key: nil, version: 2))
        #expect(realm.objects(SeedBook.self).count == 40)
    }

    /// A frozen Realm of an encrypted file reads its version from a temporary copy, encrypted too.
    @Test func aFrozenEncryptedRealmReadsItsVersion() throws {
        let url = temporaryURL("frozen")
        let encrypted = configuration(url, key: key)
        defer { _ = try? Realm.deleteFiles(for: encrypted) }
        let realm = try Realm(configuration: encrypted)
        try realm.write { realm.create(SeedBook.self, value: ["id": 1, "title": "Kept", "pages": 1]) }
        let frozen = realm.freeze()
        try realm.write { realm.create(SeedBook.self, value: ["id": 2, "title": "Later", "pages": 2]) }
        #expect(frozen.objects(SeedBook.self).count == 1)
        #expect(realm.objects(SeedBook.self).count == 2)
    }
}
