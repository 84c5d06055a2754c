import CSQLite
import DrumlinCrypt
import DrumlinValues
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Connection {
    /// Writes the committed state of this connection's main database to `destination` (absent or
    /// empty) with SQLite's `VACUUM INTO`, through the encrypting VFS with `encryptionKey` (64
    /// bytes) or the default VFS without one, whatever this connection's own file is. An
    /// encrypted file's pages keep their last 44 bytes for IV and tag (docs/encryption.md): a
    /// plain database copied into an encrypted file is given 4096-byte pages with those reserved
    /// bytes for the copy (asked for on this connection during the copy only); an encrypted
    /// database copied into a plain file keeps them, unused (SQLite cannot take reserved bytes
    /// away), about 1 % of its size. Not inside a transaction. Leaves whatever it wrote on failure:
    /// the caller removes it.
    package func vacuumInto(_ destination: String, encryptionKey: UnsafeRawBufferPointer?) throws(DrumlinError) {
        var vfs: UnsafeMutableRawPointer?
        var vfsName = [CChar](repeating: 0, count: 32)
        if let encryptionKey {
            guard encryptionKey.count == Int(DRUMLIN_CRYPT_KEY_SIZE), let base = encryptionKey.baseAddress,
                  let made = dlcrypt_vfs_create(base.assumingMemoryBound(to: UInt8.self), &vfsName) else {
                throw DrumlinError(.file, "the encryption layer could not start (OpenSSL's libcrypto failed or memory ran out)")
            }
            vfs = made
        } else if let plain = sqlite3_vfs_find(nil), let name = plain.pointee.zName {
            vfsName = Array(UnsafeBufferPointer(start: name, count: min(strlen(name), 31))) + [0]
        }
        defer { dlcrypt_vfs_release(vfs) }
        let vfsString = vfsName.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let uri = Self.fileURI(destination) + "?vfs=" + vfsString
        var reserve: Int32 = -1
        sqlite3_file_control(handle, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserve)
        let pageSize = Int64(try scalarText("PRAGMA main.page_size") ?? "") ?? 0
        let reshape = encryptionKey != nil && (reserve < DRUMLIN_CRYPT_RESERVE || pageSize != Int64(DRUMLIN_CRYPT_PAGE_SIZE))
        if reshape {
            // `page_size` first: setting it also sets the wanted reserve back to 0.
            try execute("PRAGMA main.page_size = \(DRUMLIN_CRYPT_PAGE_SIZE)")
            _ = dlcrypt_reserve_bytes(handle)
        }
        defer {
            if reshape {
                if pageSize > 0 { try? execute("PRAGMA main.page_size = \(pageSize)") }
                var back = max(reserve, 0)
                sqlite3_file_control(handle, "main", SQLITE_FCNTL_RESERVE_BYTES, &back)
            }
        }
        if encryptionKey != nil || isEncrypted { dlcrypt_clear_failure() }
        try execute("VACUUM INTO '\(uri.replacing("'", with: "''"))'")
    }

    /// `path` as an SQLite URI (`file:` and the path, every byte but unreserved ones and `/`
    /// percent-encoded, so no character of the path is read as URI syntax), without a query.
    package static func fileURI(_ path: String) -> String {
        var uri = "file:"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "-"),
                 UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                uri.unicodeScalars.append("%")
                uri.unicodeScalars.append(digits[Int(byte >> 4)])
                uri.unicodeScalars.append(digits[Int(byte & 15)])
            }
        }
        return uri
    }
}
