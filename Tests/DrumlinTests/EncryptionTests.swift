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
}
