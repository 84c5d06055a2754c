import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// A live set property: unique elements, in insertion order. The C handle is `drumlin_set`.
public final class MutableSet: CollectionAccessor, @unchecked Sendable {
    public init(_ object: Object, _ name: String) throws(DrumlinError) {
        guard let index = object.info.propertyIndex(name) else { throw object.database.noSuchProperty(object.info, name) }
        try super.init(object, index, .set)
    }

    public init(_ object: Object, propertyIndex: Int) throws(DrumlinError) {
        try object.database.checkIndex(object.info, propertyIndex)
        try super.init(object, propertyIndex, .set)
    }

    /// The element at `index` in insertion order.
    public func value(at index: Int) throws(DrumlinError) -> Value {
        try access { (connection) throws(DrumlinError) -> Value in
            guard index >= 0, let value = try database.readElement(info, object.key, propertyIndex, position: index, connection) else {
                let count = try database.collectionCount(table, object.key, connection)
                throw DrumlinError(.invalidArgument, "Index \(index) is out of bounds for a set of size \(count).")
            }
            return value
        }
    }

    public func contains(_ value: Value) throws(DrumlinError) -> Bool {
        try access { (connection) throws(DrumlinError) -> Bool in
            guard let element = try? element(value, connection) else { return false }
            return try database.setContains(table, object.key, element, connection)
        }
    }

    /// Inserts `value`; returns false when it was already there.
    @discardableResult
    public func insert(_ value: Value) throws(DrumlinError) -> Bool {
        try access(writing: true) { (connection) throws(DrumlinError) -> Bool in
            try database.insertSetElement(table, object.key, try element(value, connection), connection)
        }
    }

    /// Inserts a value given as JSON (for a set of objects: a new object, a primary key, or
    /// `{"$link": ...}`); returns false when it was already there.
    @discardableResult
    public func insert(json: JSON) throws(DrumlinError) -> Bool {
        try access(writing: true) { (connection) throws(DrumlinError) -> Bool in
            try database.insertSetElement(table, object.key, try element(json: json, connection), connection)
        }
    }

    /// Inserts values given as JSON (each as `insert(json:)` takes it), in one call, all or
    /// nothing; returns how many were not there before.
    @discardableResult
    public func insert(json items: [JSON]) throws(DrumlinError) -> Int {
        guard !items.isEmpty else { return 0 }
        return try access(writing: true) { (connection) throws(DrumlinError) -> Int in
            var inserted = 0
            for item in items where try database.insertSetElement(table, object.key, try element(json: item, connection), connection) {
                inserted += 1
            }
            return inserted
        }
    }

    /// Removes `value`; returns whether it was there.
    @discardableResult
    public func remove(_ value: Value) throws(DrumlinError) -> Bool {
        try access(writing: true) { (connection) throws(DrumlinError) -> Bool in
            guard let element = try? element(value, connection) else { return false }
            return try database.removeSetElement(table, object.key, element, connection)
        }
    }
}
