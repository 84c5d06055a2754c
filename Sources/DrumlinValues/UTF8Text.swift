/// Text as UTF-8 bytes, checked once. Text is mostly ASCII: an eight-bytes-at-a-time scan finds
/// that, and ASCII then takes `String(decoding:)`'s fast path. Only other text takes
/// `String(validating:)`, which is generic here and looks up type metadata on every call.
public enum UTF8Text {
    /// Whether the bytes are all ASCII.
    @inlinable
    public static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        let raw = UnsafeRawPointer(base)
        var i = 0
        while i + 8 <= count {
            if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            i += 8
        }
        while i < count {
            if base[i] >= 0x80 { return false }
            i += 1
        }
        return true
    }

    /// The bytes as a String, or nil when they are not valid UTF-8.
    @inlinable
    public static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if isASCII(bytes) { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Whether the bytes are valid UTF-8.
    @inlinable
    public static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let text = bytes.bindMemory(to: UInt8.self)
        return isASCII(text) || String(validating: text, as: UTF8.self) != nil
    }
}
