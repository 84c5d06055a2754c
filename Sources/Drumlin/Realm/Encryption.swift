internal import DrumlinEngine

/// The schema version stored in the file at `fileURL`, which must exist; an encrypted file needs
/// its `encryptionKey` (Realm Swift's `schemaVersionAtURL`). Reads the file only.
public func schemaVersionAtURL(_ fileURL: URL, encryptionKey: Data? = nil) throws -> UInt64 {
    do {
        var options = OpenOptions(readOnly: true)
        options.encryptionKey = try encryptionKey.map { try EncryptionKey(bytes: $0) }
        let database = try EDatabase(path: fileURL.path, options: options)
        defer { database.close() }
        return database.schemaVersion
    } catch {
        throw Realm.Error(error)
    }
}
