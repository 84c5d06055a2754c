/// A class or property name compared byte for byte, as Realm compares names and SQLite compares
/// identifiers (apart from ASCII case). Swift's `String` equality treats canonically equivalent
/// text as equal (a composed "é" and "e" followed by a combining accent): a dictionary keyed by
/// `String` would find the stored class "Café" (decomposed) for the name "Café" (composed),
/// whose table SQLite does not have. Every lookup of a name goes through this.
public struct ExactName: Hashable, Sendable {
    public let bytes: [UInt8]
    @inlinable public init(_ name: String) { bytes = Array(name.utf8) }
    @inlinable public init<Bytes: Sequence<UInt8>>(bytes: Bytes) { self.bytes = Array(bytes) }
}

extension String {
    /// Whether two names are the same bytes (see `ExactName`).
    @inlinable public func isSameName(_ other: String) -> Bool { utf8.elementsEqual(other.utf8) }
}
