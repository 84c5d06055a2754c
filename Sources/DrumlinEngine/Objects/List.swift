import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// A live list property: ordered, duplicates allowed. The C handle is `drumlin_list`.
public final class List: CollectionAccessor, @unchecked Sendable {
    public init(_ object: Object, _ name: String) throws(DrumlinError) {
        guard let index = object.info.propertyIndex(name) else { throw object.database.noSuchProperty(object.info, name) }
        try super.init(object, index, .list)
    }

    public init(_ object: Object, propertyIndex: Int) throws(DrumlinError) {
        try object.database.checkIndex(object.info, propertyIndex)
        try super.init(object, propertyIndex, .list)
    }

    private func checkPosition(_ index: Int, count: Int, inclusive: Bool = false) throws(DrumlinError) {
        guard index >= 0, inclusive ? index <= count : index < count else {
            throw DrumlinError(.invalidArgument, "Index \(index) is out of bounds for list '\(info.name).\(property.name)' of size \(count).")
        }
    }

    public subscript(index: Int) -> Value {
        get throws(DrumlinError) { try value(at: index) }
    }

    public func value(at index: Int) throws(DrumlinError) -> Value {
        try access { (connection) throws(DrumlinError) -> Value in
            guard let value = try database.readElement(info, object.key, propertyIndex, position: index, connection) else {
                try checkPosition(index, count: try database.collectionCount(table, object.key, connection))
                return .null
            }
            return value
        }
    }

    public func append(_ value: Value) throws(DrumlinError) {
        try insert(value, at: Int.max)
    }

    /// Appends `values` in one call, all or nothing (one count and one savepoint for all of
    /// them, not one per element).
    public func append(contentsOf values: [Value]) throws(DrumlinError) {
        try insertElements(values.count, at: Int.max) { (i, connection) throws(DrumlinError) in try element(values[i], connection) }
    }

    /// Inserts `count` elements made by `make` at `index` (`Int.max` appends): one count, one
    /// savepoint, all or nothing.
    private func insertElements(_ count: Int, at index: Int,
                                _ make: (Int, Connection) throws(DrumlinError) -> Value) throws(DrumlinError) {
        guard count > 0 else { return }
        try access(writing: true) { (connection) throws(DrumlinError) in
            let size = try database.collectionCount(table, object.key, connection)
            let start = index == Int.max ? size : index
            try checkPosition(start, count: size, inclusive: true)
            // The elements from `start` on move once, by `count`: in a list keyed by position the
            // new ones go at the end and the range is rotated; otherwise they fill the gap.
            let keyed = table.isKeyedByPosition
            if start < size, !keyed { try database.shiftPositions(table, object.key, from: start, by: count, connection) }
            for i in 0 ..< count {
                try database.insertListElement(table, object.key, position: (keyed ? size : start) + i, try make(i, connection), connection)
            }
            if start < size, keyed { try database.rotateList(table, object.key, start...(size + count - 1), by: count, connection) }
        }
    }

    /// Inserts at `index` (`Int.max` appends).
    public func insert(_ value: Value, at index: Int) throws(DrumlinError) {
        try access(writing: true) { (connection) throws(DrumlinError) in
            let count = try database.collectionCount(table, object.key, connection)
            let position = index == Int.max ? count : index
            try checkPosition(position, count: count, inclusive: true)
            let element = try element(value, connection)
            try insert(element, position, count: count, connection)
        }
    }

    /// Inserts a new object (embedded, or created from the payload) at `index` (`Int.max` appends).
    public func insert(json: JSON, at index: Int) throws(DrumlinError) {
        try access(writing: true) { (connection) throws(DrumlinError) in
            let count = try database.collectionCount(table, object.key, connection)
            let position = index == Int.max ? count : index
            try checkPosition(position, count: count, inclusive: true)
            let element = try element(json: json, connection)
            try insert(element, position, count: count, connection)
        }
    }

    /// Inserts at `position` of a list of `count` elements: at the end, no position moves.
    private func insert(_ element: Value, _ position: Int, count: Int, _ connection: Connection) throws(DrumlinError) {
        if position == count {
            try database.insertListElement(table, object.key, position: position, element, connection)
        } else {
            try database.insertListElement(table, object.key, shiftingAt: position, count: count, element, connection)
        }
    }

    /// Replaces the element at `index` (a replaced embedded object is deleted).
    public func set(_ value: Value, at index: Int) throws(DrumlinError) {
        try access(writing: true) { (connection) throws(DrumlinError) in
            try checkPosition(index, count: try database.collectionCount(table, object.key, connection))
            let element = try element(value, connection)
            try remove(index, connection, renumber: false)
            try database.insertListElement(table, object.key, position: index, element, connection)
        }
    }

    /// Inserts values given as JSON (each as `insert(json:at:)` takes it) at `index` (`Int.max`
    /// appends), in one call, all or nothing.
    public func insert(json items: [JSON], at index: Int) throws(DrumlinError) {
        try insertElements(items.count, at: index) { (i, connection) throws(DrumlinError) in try element(json: items[i], connection) }
    }

    /// Replaces the element at `index` with a value given as JSON (for a list of objects: a new
    /// object, a primary key, or `{"$link": ...}`), in one step: if the value is refused, the
    /// list is unchanged.
    public func set(json: JSON, at index: Int) throws(DrumlinError) {
        try access(writing: true) { (connection) throws(DrumlinError) in
            try checkPosition(index, count: try database.collectionCount(table, object.key, connection))
            let element = try element(json: json, connection)
            try remove(index, connection, renumber: false)
            try database.insertListElement(table, object.key, position: index, element, connection)
        }
    }

    public func remove(at index: Int) throws(DrumlinError) {
        try access(writing: true) { (connection) throws(DrumlinError) in
            try checkPosition(index, count: try database.collectionCount(table, object.key, connection))
            try remove(index, connection, renumber: true)
        }
    }

    private func remove(_ index: Int, _ connection: Connection, renumber: Bool) throws(DrumlinError) {
        try database.removeListElement(info, propertyIndex, table, object.key, position: index, renumber: renumber, connection)
    }

    /// Moves the element at `from` so that it ends up at `to`.
    public func move(from: Int, to: Int) throws(DrumlinError) {
        try access(writing: true) { (connection) throws(DrumlinError) in
            let count = try database.collectionCount(table, object.key, connection)
            try checkPosition(from, count: count)
            try checkPosition(to, count: count)
            try database.moveListElement(table, object.key, from: from, to: to, connection)
        }
    }

    /// The first index of `value`, or nil.
    public func firstIndex(of value: Value) throws(DrumlinError) -> Int? {
        try values.firstIndex(of: value)
    }
}
