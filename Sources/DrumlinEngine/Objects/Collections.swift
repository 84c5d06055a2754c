import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// What the live collection accessors share: the owning object and the property.
public class CollectionAccessor: @unchecked Sendable {
    public let object: Object
    public let propertyIndex: Int
    let table: CollectionTable
    var database: Database { object.database }
    var info: ClassInfo { object.info }

    init(_ object: Object, _ index: Int, _ kind: CollectionKind) throws(DrumlinError) {
        let property = object.info.property(index)
        guard property.collection == kind, let table = object.info.collectionTables[index] else {
            throw DrumlinError(.typeMismatch, "Property '\(object.info.name).\(property.name)' is not a \(kind.typeWord ?? "collection").")
        }
        self.object = object
        self.propertyIndex = index
        self.table = table
    }

    public var property: Property { info.property(propertyIndex) }

    /// Runs `body` with the owner checked to still exist (and, for writes, a write transaction).
    func access<R>(writing: Bool = false, _ body: (Connection) throws(DrumlinError) -> R) throws(DrumlinError) -> R {
        try object.access { (connection) throws(DrumlinError) -> R in
            if writing { try database.requireWriteTransaction() }
            guard try database.exists(info, object.key, connection) else { throw database.invalidated(info) }
            guard writing else { return try body(connection) }
            return try database.atomically(connection) { () throws(DrumlinError) -> R in
                let result = try body(connection)
                try database.validateGeoPoint(info, object.key, connection)
                return result
            }
        }
    }

    /// A checked element value for this collection (links resolved, nested objects created).
    func element(_ value: Value, _ connection: Connection) throws(DrumlinError) -> Value {
        let input: Input
        switch property.collection {
        case .dictionary: input = try database.input(from: .dictionary([("k", value)]), info, propertyIndex)
        default: input = try database.input(from: .list([value]), info, propertyIndex)
        }
        switch input {
        case .elements(let items): return try database.resolveColumn(items[0], info, propertyIndex, mode: .never, connection)
        case .entries(let entries): return try database.resolveColumn(entries[0].value, info, propertyIndex, mode: .never, connection)
        default: throw DrumlinError(.internal, "Unexpected element input.")
        }
    }

    /// A new embedded or linked object from a JSON payload, as an element value.
    func element(json: JSON, _ connection: Connection) throws(DrumlinError) -> Value {
        let label = Database.label(info, property)
        do throws(DrumlinError) {
            return try elementUnlabelled(json: json, connection)
        } catch where !error.message.hasPrefix("Property '") && !error.message.contains(label.description) {
            throw DrumlinError(error.code, "Property \(label): \(error.message)", sqliteCode: error.sqliteCode)
        }
    }

    private func elementUnlabelled(json: JSON, _ connection: Connection) throws(DrumlinError) -> Value {
        guard property.type == .object else {
            return try element(try Value(extendedJSON: json), connection)
        }
        let input: Input
        switch json {
        case .null:
            return try element(.null, connection)
        case .object(let members) where Database.isLinkJSON(json):
            input = .value(.link(try database.linkJSON(members[0].value)))
        case .object where (try ExtendedJSON.wrapped(json)) == nil:
            input = .object(json)
        default:
            input = .primaryKey(try Value(extendedJSON: json))
        }
        return try database.resolveColumn(input, info, propertyIndex, mode: .never, connection)
    }

    public var count: Int {
        get throws(DrumlinError) { try access { (connection) throws(DrumlinError) in try database.collectionCount(table, object.key, connection) } }
    }

    /// All elements (links as `.link` values).
    public var values: [Value] {
        get throws(DrumlinError) {
            try access { (connection) throws(DrumlinError) -> [Value] in
                switch try database.readCollection(info, object.key, propertyIndex, connection) {
                case .list(let items): return items
                case .dictionary(let entries): return entries.map(\.value)
                default: return []
                }
            }
        }
    }

    /// Removes every element (deleting embedded objects it owns).
    public func removeAll() throws(DrumlinError) {
        try access(writing: true) { (connection) throws(DrumlinError) in
            try database.clearCollection(info, object.key, propertyIndex, connection)
        }
    }
}

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
            for i in 0 ..< count { try insert(try make(i, connection), start + i, connection) }
        }
    }

    /// Inserts at `index` (`Int.max` appends).
    public func insert(_ value: Value, at index: Int) throws(DrumlinError) {
        try access(writing: true) { (connection) throws(DrumlinError) in
            let count = try database.collectionCount(table, object.key, connection)
            let position = index == Int.max ? count : index
            try checkPosition(position, count: count, inclusive: true)
            let element = try element(value, connection)
            try insert(element, position, connection)
        }
    }

    /// Inserts a new object (embedded, or created from the payload) at `index` (`Int.max` appends).
    public func insert(json: JSON, at index: Int) throws(DrumlinError) {
        try access(writing: true) { (connection) throws(DrumlinError) in
            let count = try database.collectionCount(table, object.key, connection)
            let position = index == Int.max ? count : index
            try checkPosition(position, count: count, inclusive: true)
            let element = try element(json: json, connection)
            try insert(element, position, connection)
        }
    }

    private func insert(_ element: Value, _ position: Int, _ connection: Connection) throws(DrumlinError) {
        try database.insertListElement(table, object.key, shiftingAt: position, element, connection)
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
            guard from != to else { return }
            let park = try connection.statement("UPDATE \(table.name) SET position = -1 WHERE owner = ?1 AND position = ?2")
            park.bind(object.key, at: 1)
            park.bind(Int64(from), at: 2)
            try park.run()
            let sql = from < to
                ? "UPDATE \(table.name) SET position = position - 1 WHERE owner = ?1 AND position > ?2 AND position <= ?3"
                : "UPDATE \(table.name) SET position = position + 1 WHERE owner = ?1 AND position >= ?3 AND position < ?2"
            let shift = try connection.statement(sql)
            shift.bind(object.key, at: 1)
            shift.bind(Int64(from), at: 2)
            shift.bind(Int64(to), at: 3)
            try shift.run()
            let place = try connection.statement("UPDATE \(table.name) SET position = ?2 WHERE owner = ?1 AND position = -1")
            place.bind(object.key, at: 1)
            place.bind(Int64(to), at: 2)
            try place.run()
        }
    }

    /// The first index of `value`, or nil.
    public func firstIndex(of value: Value) throws(DrumlinError) -> Int? {
        try values.firstIndex(of: value)
    }
}

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

extension Object {
    public func list(_ name: String) throws(DrumlinError) -> List { try List(self, name) }
    public func mutableSet(_ name: String) throws(DrumlinError) -> MutableSet { try MutableSet(self, name) }
    public func dictionary(_ name: String) throws(DrumlinError) -> Map { try Map(self, name) }
}
