@_spi(Reflection) import Swift

/// A `Persisted` storage type, which makes the access to a storage of its type at an offset.
protocol _PersistedStorageType {
    static func _storageAccess(at offset: Int) -> _StorageAccess
}

extension Persisted: _PersistedStorageType {
    static func _storageAccess(at offset: Int) -> _StorageAccess { _access(at: offset) }
}

extension ClassMeta {
    /// Learns the offset of every `@Persisted` storage of the class at once, from the Swift
    /// runtime's field records (`_forEachField`, base class fields first, as `storages(of:)`
    /// orders them): so that values given by name to an unmanaged object (`init(value:)`,
    /// subscripts) go into its storages, where Codable synthesis and key-path reads find them.
    func learnAllStorages() {
        guard knownStorageCount < properties.count else { return }
        var found: [(label: String, offset: Int, type: _PersistedStorageType.Type)] = []
        _ = _forEachField(of: type, options: .classType) { name, offset, fieldType, _ in
            if let storageType = fieldType as? _PersistedStorageType.Type {
                found.append((String(cString: name), offset, storageType))
            }
            return true
        }
        // Positions follow the labels of the storages reflection lists, in the same order.
        let prototype = type.init()
        prototype._isPrototype = true
        let labels = Self.storages(of: prototype).map(\.0)
        guard labels.count == properties.count else { return }
        for field in found {
            guard let position = labels.firstIndex(of: field.label) else { continue }
            learn(offset: field.offset, position: position, access: field.type._storageAccess(at: field.offset))
        }
    }
}
