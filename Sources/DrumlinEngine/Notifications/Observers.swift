import DrumlinStorage
import DrumlinValues
import Synchronization

/// One registration for change notifications. Delivery stops when the token is invalidated or
/// released. The corresponding C handle is `drumlin_token`.
public final class NotificationToken: @unchecked Sendable {
    private weak var registry: ObserverRegistry?
    let id: Int

    init(registry: ObserverRegistry, id: Int) {
        self.registry = registry
        self.id = id
    }

    /// Stops delivery. Calling it again does nothing. Safe from any thread, also from inside a
    /// callback (the callback running now finishes; no later one starts).
    public func invalidate() {
        registry?.remove(id)
        registry = nil
    }

    public var isValid: Bool { registry?.contains(id) ?? false }

    deinit { registry?.remove(id) }
}

/// What an observer computes, under the database lock, for one batch of changes: the
/// delivery to run once the lock is released, or nil when it has nothing to report.
protocol ChangeObserver: AnyObject {
    func prepare(_ changes: ChangeSet, _ database: Database, _ connection: Connection) throws(DrumlinError) -> (() -> Void)?
}

/// A database's observers, guarded by their own lock so that tokens can be released from any
/// thread, including inside a callback, while the database is busy.
final class ObserverRegistry: @unchecked Sendable {
    private struct State: @unchecked Sendable {
        var observers: [Int: any ChangeObserver] = [:]
        var nextID = 1
    }
    private let state = Mutex(State())

    func add(_ observer: any ChangeObserver) -> NotificationToken {
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.observers[id] = observer
            return id
        }
        return NotificationToken(registry: self, id: id)
    }

    func remove(_ id: Int) {
        // The observer (and the user's callback it holds) is released outside the lock.
        let removed = state.withLock { $0.observers.removeValue(forKey: id) }
        _ = removed
    }

    func removeAll() {
        let removed = state.withLock { state in
            let all = state.observers
            state.observers = [:]
            return all
        }
        _ = removed
    }

    func contains(_ id: Int) -> Bool { state.withLock { $0.observers[id] != nil } }

    var isEmpty: Bool { state.withLock { $0.observers.isEmpty } }

    /// The observers in registration order.
    var all: [(id: Int, observer: any ChangeObserver)] {
        state.withLock { $0.observers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
    }
}

/// Which properties a key-path filter lets through: `nil` (no filter) lets every property.
func propertyFilter(_ keyPaths: [String]?, _ info: ClassInfo, _ database: Database) throws(DrumlinError) -> PropertyMask {
    guard let keyPaths else { return .all }
    var mask = PropertyMask()
    for path in keyPaths {
        let first = path.split(separator: ".", maxSplits: 1).first.map(String.init) ?? path
        guard let index = info.propertyIndex(first) else { throw database.noSuchProperty(info, first) }
        mask.formUnion(PropertyMask(property: index))
    }
    return mask
}

// MARK: Objects

/// One property's change in an object notification. Old and new values are given for properties
/// stored in the object's row (`nil` for lists, sets, dictionaries and backlinks).
public struct PropertyChange: Sendable, Equatable {
    public var name: String
    public var oldValue: Value?
    public var newValue: Value?

    public init(name: String, oldValue: Value?, newValue: Value?) {
        self.name = name
        self.oldValue = oldValue
        self.newValue = newValue
    }
}

/// What happened to an observed object.
public enum ObjectChange: Sendable, Equatable {
    /// Properties changed (in schema order).
    case changed([PropertyChange])
    /// The object was deleted; no further notifications follow.
    case deleted
}

final class ObjectObserver: ChangeObserver {
    let info: ClassInfo
    let key: Int64
    let filter: PropertyMask
    let callback: (ObjectChange) -> Void
    /// The last delivered row values (nil for collection properties).
    private var values: [Value?]
    private var isDeleted = false

    init(_ object: Object, filter: PropertyMask, _ connection: Connection, callback: @escaping (ObjectChange) -> Void) throws(DrumlinError) {
        info = object.info
        key = object.key
        self.filter = filter
        self.callback = callback
        values = try Self.read(object.database, object.info, object.key, connection)
    }

    private static func read(_ database: Database, _ info: ClassInfo, _ key: Int64, _ connection: Connection) throws(DrumlinError) -> [Value?] {
        let columns = info.columnIndexes
        let row = try database.readRow(info, key, connection, indices: columns)
        var values = [Value?](repeating: nil, count: info.schema.properties.count)
        for (i, index) in columns.enumerated() { values[index] = row[i] }
        return values
    }

    func prepare(_ changes: ChangeSet, _ database: Database, _ connection: Connection) throws(DrumlinError) -> (() -> Void)? {
        guard !isDeleted else { return nil }
        let mine = changes[info.index]
        var mask = mine?.modified[key] ?? PropertyMask()
        if changes.unknown || mine?.deleted.contains(key) == true || mine?.inserted.contains(key) == true {
            guard try database.exists(info, key, connection) else {
                isDeleted = true
                let callback = self.callback
                return { callback(.deleted) }
            }
            if changes.unknown {
                mask = PropertyMask(bits: mask.bits | Self.columnMask(info))
            }
        }
        mask = PropertyMask(bits: mask.bits & filter.bits)
        guard !mask.isEmpty else { return nil }
        let newValues = try Self.read(database, info, key, connection)
        var properties: [PropertyChange] = []
        for index in info.schema.properties.indices where mask.contains(index) {
            // The log names the property for certain below index 63; above it (one shared bit) and
            // for unknown changes, a row property counts only if its value differs.
            let certain = index < 63 && mine?.modified[key]?.contains(index) == true
            if !certain && (!info.traits[index].isColumn || newValues[index] == values[index]) { continue }
            properties.append(PropertyChange(name: info.propertyNames[index], oldValue: values[index], newValue: newValues[index]))
        }
        values = newValues
        guard !properties.isEmpty else { return nil }
        let callback = self.callback
        return { callback(.changed(properties)) }
    }

    private static func columnMask(_ info: ClassInfo) -> UInt64 {
        var mask = PropertyMask()
        for index in info.columnIndexes { mask.formUnion(PropertyMask(property: index)) }
        return mask.bits
    }
}

// MARK: Lists and sets

final class CollectionObserver: ChangeObserver {
    let info: ClassInfo
    let owner: Int64
    let property: Int
    let target: ClassInfo?
    let filter: PropertyMask
    let callback: (CollectionChange) -> Void
    private var elements: [HashableValue]
    private var ownerDeleted = false

    init(_ collection: CollectionAccessor, keyPaths: [String]?, _ connection: Connection,
         callback: @escaping (CollectionChange) -> Void) throws(DrumlinError) {
        info = collection.info
        owner = collection.object.key
        property = collection.propertyIndex
        target = info.targets[property]
        let database = collection.database
        filter = try target.map { (target) throws(DrumlinError) in try propertyFilter(keyPaths, target, database) } ?? .all
        self.callback = callback
        elements = try Self.read(database, info, owner, property, connection)
    }

    static func read(_ database: Database, _ info: ClassInfo, _ owner: Int64, _ property: Int,
                     _ connection: Connection) throws(DrumlinError) -> [HashableValue] {
        switch try database.readCollection(info, owner, property, connection) {
        case .list(let items): return items.map(HashableValue.init)
        default: return []
        }
    }

    func prepare(_ changes: ChangeSet, _ database: Database, _ connection: Connection) throws(DrumlinError) -> (() -> Void)? {
        guard !ownerDeleted else { return nil }
        let ownerChanges = changes[info.index]
        if changes.unknown || ownerChanges?.deleted.contains(owner) == true {
            if !(try database.exists(info, owner, connection)) {
                ownerDeleted = true
                let change = CollectionChange(deletions: Array(elements.indices))
                elements = []
                let callback = self.callback
                return change.isEmpty ? nil : { callback(change) }
            }
        }
        let listChanged = changes.unknown || ownerChanges?.modified[owner]?.contains(property) == true
        let targetChanges = target.flatMap { changes[$0.index] }
        let targetModified: (HashableValue) -> Bool = { [filter] element in
            guard case .link(let link) = element.value else { return false }
            if changes.unknown { return true }
            return targetChanges?.modified[link.key]?.intersects(filter) == true
        }
        guard listChanged || !(targetChanges?.modified.isEmpty ?? true) else { return nil }
        let new = listChanged ? try Self.read(database, info, owner, property, connection) : elements
        // A set has no slots: an element removed and another added are a deletion and an insertion.
        let change = CollectionDiff.list(old: elements, new: new, pairsReplaced: info.traits[property].collection == .list,
                                         isModified: targetModified)
        elements = new
        guard !change.isEmpty else { return nil }
        let callback = self.callback
        return { callback(change) }
    }
}

// MARK: Dictionaries

final class DictionaryObserver: ChangeObserver {
    let info: ClassInfo
    let owner: Int64
    let property: Int
    let target: ClassInfo?
    let callback: (DictionaryChange) -> Void
    private var entries: [String: HashableValue]
    private var ownerDeleted = false

    init(_ map: Map, _ connection: Connection, callback: @escaping (DictionaryChange) -> Void) throws(DrumlinError) {
        info = map.info
        owner = map.object.key
        property = map.propertyIndex
        target = info.targets[property]
        self.callback = callback
        entries = try Self.read(map.database, info, owner, property, connection)
    }

    static func read(_ database: Database, _ info: ClassInfo, _ owner: Int64, _ property: Int,
                     _ connection: Connection) throws(DrumlinError) -> [String: HashableValue] {
        guard case .dictionary(let items) = try database.readCollection(info, owner, property, connection) else { return [:] }
        var entries: [String: HashableValue] = [:]
        for (key, value) in items { entries[key] = HashableValue(value: value) }
        return entries
    }

    func prepare(_ changes: ChangeSet, _ database: Database, _ connection: Connection) throws(DrumlinError) -> (() -> Void)? {
        guard !ownerDeleted else { return nil }
        let ownerChanges = changes[info.index]
        var new = entries
        if changes.unknown || ownerChanges?.deleted.contains(owner) == true, !(try database.exists(info, owner, connection)) {
            ownerDeleted = true
            new = [:]
        } else if changes.unknown || ownerChanges?.modified[owner]?.contains(property) == true {
            new = try Self.read(database, info, owner, property, connection)
        }
        let targetChanges = target.flatMap { changes[$0.index] }
        var change = DictionaryChange()
        for key in entries.keys where new[key] == nil { change.deletions.append(key) }
        for (key, value) in new {
            guard let old = entries[key] else {
                change.insertions.append(key)
                continue
            }
            if old != value {
                change.modifications.append(key)
            } else if case .link(let link) = value.value, changes.unknown || targetChanges?.modified[link.key] != nil {
                change.modifications.append(key)
            }
        }
        entries = new
        change.deletions.sort()
        change.insertions.sort()
        change.modifications.sort()
        guard !change.isEmpty else { return nil }
        let callback = self.callback
        return { callback(change) }
    }
}
