import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// A live dictionary property: string keys, ordered by key. The C handle is `drumlin_dict`.
public final class Map: CollectionAccessor, @unchecked Sendable {
    public init(_ object: Object, _ name: String) throws(DrumlinError) {
        guard let index = object.info.propertyIndex(name) else { throw object.database.noSuchProperty(object.info, name) }
        try super.init(object, index, .dictionary)
    }

    public init(_ object: Object, propertyIndex: Int) throws(DrumlinError) {
        try object.database.checkIndex(object.info, propertyIndex)
        try super.init(object, propertyIndex, .dictionary)
    }

    public var entries: [(key: String, value: Value)] {
        get throws(DrumlinError) {
            try access { (connection) throws(DrumlinError) -> [(key: String, value: Value)] in
                guard case .dictionary(let entries) = try database.readCollection(info, object.key, propertyIndex, connection) else { return [] }
                return entries
            }
        }
    }

    public var keys: [String] {
        get throws(DrumlinError) { try entries.map(\.key) }
    }

    /// The value for `key`, or nil when there is no such key (a present key may hold `.null`).
    public func value(forKey key: String) throws(DrumlinError) -> Value? {
        try access { (connection) throws(DrumlinError) -> Value? in
            try database.readElement(info, object.key, propertyIndex, key: key, connection)
        }
    }

    public subscript(key: String) -> Value? {
        get throws(DrumlinError) { try value(forKey: key) }
    }

    /// Sets `key` (a replaced embedded object is deleted).
    public func set(_ value: Value, forKey key: String) throws(DrumlinError) {
        try access(writing: true) { (connection) throws(DrumlinError) in
            try Database.checkDictionaryKey(key, Database.label(info, property))
            try database.setDictionaryValue(info, propertyIndex, table, object.key, key, try element(value, connection), connection)
        }
    }

    /// Sets every key of a JSON object to its value (each as `set(json:forKey:)` takes it), in
    /// one call, all or nothing.
    public func set(json entries: [(key: String, value: JSON)]) throws(DrumlinError) {
        guard !entries.isEmpty else { return }
        let label = Database.label(info, property)
        try access(writing: true) { (connection) throws(DrumlinError) in
            for (key, value) in entries {
                try Database.checkDictionaryKey(key, label)
                try database.setDictionaryValue(info, propertyIndex, table, object.key, key, try element(json: value, connection), connection)
            }
        }
    }

    /// Sets `key` to a new object (embedded, or created from the payload).
    public func set(json: JSON, forKey key: String) throws(DrumlinError) {
        try access(writing: true) { (connection) throws(DrumlinError) in
            try Database.checkDictionaryKey(key, Database.label(info, property))
            try database.setDictionaryValue(info, propertyIndex, table, object.key, key, try element(json: json, connection), connection)
        }
    }

    /// Removes `key`; returns whether it was there.
    @discardableResult
    public func removeValue(forKey key: String) throws(DrumlinError) -> Bool {
        try access(writing: true) { (connection) throws(DrumlinError) -> Bool in
            try database.removeDictionaryValue(info, propertyIndex, table, object.key, key, connection)
        }
    }
}
