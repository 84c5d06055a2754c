import CSQLite
import DrumlinStorage
import DrumlinValues
#if canImport(Glibc)
import Glibc
#endif

/// Captures every row this handle's connection inserts, deletes or updates, through SQLite's
/// pre-update hook: object rows give the object key (and, for updates, which columns really
/// changed), collection rows give their owner. Every write path of the engine is covered without
/// each one reporting what it did.
///
/// Events go to a journal so that a savepoint rolled back (`Database.atomically`) can drop its
/// own; the journal becomes a `ChangeSet` at commit.
final class ChangeRecorder {
    enum Role {
        case ignored
        /// A class table: per column (in table order), the property it stores (nil: key or sequence).
        case objects(classIndex: Int, columnProperties: [Int?])
        /// A list, set or dictionary table; its first column is the owner's key.
        case collection(classIndex: Int, property: Int)
    }

    struct Event {
        enum Kind: UInt8 { case insert, delete, modify }
        var kind: Kind
        var classIndex: Int32
        var key: Int64
        var mask: PropertyMask
    }

    private var roles: [String: Role] = [:]
    /// Table name pointers SQLite passed before (they stay put while its schema does), with a
    /// copy of the name to confirm a pointer still means the same table.
    private var byPointer: [UnsafeRawPointer: (name: [CChar], role: Role)] = [:]
    private(set) var events: [Event] = []
    /// Set by the engine's own property writes around their `UPDATE`: the properties it assigns.
    /// The hook then takes them as the change (as Realm, assigning a property is a change even to
    /// the same value) instead of comparing every column, which costs a record unpacking per row.
    var assigning: PropertyMask?

    /// Reads each class table's column order once (at open): the hook itself must not query.
    init(classes: [ClassInfo], connection: Connection) throws(DrumlinError) {
        try setClasses(classes, connection)
    }

    /// Reads the tables' roles again for the classes open now (classes were added to the open
    /// database, or removed by a rollback). Recorded events stay.
    func setClasses(_ classes: [ClassInfo], _ connection: Connection) throws(DrumlinError) {
        roles = [:]
        byPointer = [:]
        lastPointer = nil
        lastName = []
        lastRole = .ignored
        for info in classes {
            var columns: [Int?] = []
            let statement = try connection.statement("SELECT name FROM pragma_table_info(?1) ORDER BY cid")
            statement.bind(info.schema.storedName, at: 1)
            while try statement.step() {
                let column = statement.string(0)
                var property = info.propertyIndex(storedName: column)
                if property == nil, column.hasPrefix("_drumlin_type_") {
                    property = info.propertyIndex(storedName: String(column.dropFirst("_drumlin_type_".count)))
                }
                columns.append(property)
            }
            statement.reset()
            roles[info.schema.storedName] = .objects(classIndex: info.index, columnProperties: columns)
            for (property, table) in info.collectionTables.enumerated() {
                if let table { roles[table.rawName] = .collection(classIndex: info.index, property: property) }
            }
        }
    }

    /// Whether the hook is installed (it costs every row written, so it is there only while the
    /// file is observed).
    private(set) var isInstalled = false

    func install(on connection: Connection) {
        guard !isInstalled else { return }
        sqlite3_preupdate_hook(connection.handle, changeRecorderHook, Unmanaged.passUnretained(self).toOpaque())
        isInstalled = true
    }

    func uninstall(from connection: Connection) {
        guard isInstalled else { return }
        sqlite3_preupdate_hook(connection.handle, nil, nil)
        isInstalled = false
    }

    static func uninstall(from connection: Connection) {
        sqlite3_preupdate_hook(connection.handle, nil, nil)
    }

    var mark: Int { events.count }

    /// Drops the events recorded after `mark` (their savepoint was rolled back).
    func rollBack(to mark: Int) {
        if mark < events.count { events.removeSubrange(mark...) }
    }

    func reset() { events.removeAll(keepingCapacity: events.count < 65_536) }

    /// Notes a change the hook cannot see (a nested mixed collection's rows name no owner).
    func noteModified(_ info: ClassInfo, _ key: Int64, property: Int) {
        events.append(Event(kind: .modify, classIndex: Int32(info.index), key: key, mask: PropertyMask(property: property)))
    }

    /// The last table seen: consecutive rows of one statement skip the lookup.
    private var lastPointer: UnsafeRawPointer?
    private var lastName: [CChar] = []
    private var lastRole = Role.ignored

    private func role(_ name: UnsafePointer<CChar>) -> Role {
        let pointer = UnsafeRawPointer(name)
        if pointer == lastPointer, lastName.withUnsafeBufferPointer({ strcmp($0.baseAddress!, name) }) == 0 {
            return lastRole
        }
        let found = lookUp(name)
        lastPointer = pointer
        lastName = byPointer[pointer]?.name ?? []
        lastRole = found
        return found
    }

    private func lookUp(_ name: UnsafePointer<CChar>) -> Role {
        let pointer = UnsafeRawPointer(name)
        if let cached = byPointer[pointer], cached.name.withUnsafeBufferPointer({ strcmp($0.baseAddress!, name) }) == 0 {
            return cached.role
        }
        let text = String(cString: name)
        let role = roles[text] ?? .ignored
        byPointer[pointer] = (Array(text.utf8CString), role)
        return role
    }

    fileprivate func record(_ db: OpaquePointer, _ op: Int32, _ schema: UnsafePointer<CChar>, _ table: UnsafePointer<CChar>,
                            _ oldKey: Int64, _ newKey: Int64) {
        guard strcmp(schema, "main") == 0 else { return }
        switch role(table) {
        case .ignored:
            return
        case .objects(let classIndex, let columns):
            switch op {
            case SQLITE_INSERT:
                events.append(Event(kind: .insert, classIndex: Int32(classIndex), key: newKey, mask: PropertyMask()))
            case SQLITE_DELETE:
                events.append(Event(kind: .delete, classIndex: Int32(classIndex), key: oldKey, mask: PropertyMask()))
            default:
                if let assigning, oldKey == newKey {
                    events.append(Event(kind: .modify, classIndex: Int32(classIndex), key: newKey, mask: assigning))
                    return
                }
                var mask = PropertyMask()
                let count = Int(sqlite3_preupdate_count(db))
                for column in 0..<Swift.min(count, columns.count) {
                    guard let property = columns[column], !mask.contains(property) else { continue }
                    var old: OpaquePointer?
                    var new: OpaquePointer?
                    guard sqlite3_preupdate_old(db, Int32(column), &old) == SQLITE_OK,
                          sqlite3_preupdate_new(db, Int32(column), &new) == SQLITE_OK else {
                        mask.formUnion(PropertyMask(property: property))
                        continue
                    }
                    if !Self.same(old, new) { mask.formUnion(PropertyMask(property: property)) }
                }
                if oldKey != newKey {
                    events.append(Event(kind: .delete, classIndex: Int32(classIndex), key: oldKey, mask: PropertyMask()))
                    events.append(Event(kind: .insert, classIndex: Int32(classIndex), key: newKey, mask: PropertyMask()))
                } else if !mask.isEmpty {
                    events.append(Event(kind: .modify, classIndex: Int32(classIndex), key: newKey, mask: mask))
                }
            }
        case .collection(let classIndex, let property):
            var owner: OpaquePointer?
            let rc = op == SQLITE_INSERT ? sqlite3_preupdate_new(db, 0, &owner) : sqlite3_preupdate_old(db, 0, &owner)
            guard rc == SQLITE_OK, let owner else { return }
            events.append(Event(kind: .modify, classIndex: Int32(classIndex), key: sqlite3_value_int64(owner),
                                mask: PropertyMask(property: property)))
            if op == SQLITE_UPDATE {
                var newOwner: OpaquePointer?
                if sqlite3_preupdate_new(db, 0, &newOwner) == SQLITE_OK, let newOwner,
                   sqlite3_value_int64(newOwner) != sqlite3_value_int64(owner) {
                    events.append(Event(kind: .modify, classIndex: Int32(classIndex), key: sqlite3_value_int64(newOwner),
                                        mask: PropertyMask(property: property)))
                }
            }
        }
    }

    /// Whether two column values are the same stored value (type and bytes).
    private static func same(_ a: OpaquePointer?, _ b: OpaquePointer?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        let type = sqlite3_value_type(a)
        guard type == sqlite3_value_type(b) else { return false }
        switch type {
        case SQLITE_NULL: return true
        case SQLITE_INTEGER: return sqlite3_value_int64(a) == sqlite3_value_int64(b)
        case SQLITE_FLOAT: return sqlite3_value_double(a).bitPattern == sqlite3_value_double(b).bitPattern
        default:
            let pa = sqlite3_value_blob(a)
            let count = sqlite3_value_bytes(a)
            let pb = sqlite3_value_blob(b)
            guard count == sqlite3_value_bytes(b) else { return false }
            guard count > 0, let pa, let pb else { return true }
            return memcmp(pa, pb, Int(count)) == 0
        }
    }

    // MARK: The change set

    /// The journal as one change set, with changes inside embedded objects reported on the
    /// objects that own them (as Realm does: an embedded object is part of its parent).
    func changeSet(_ classes: [ClassInfo], _ connection: Connection) throws(DrumlinError) -> ChangeSet {
        var byClass: [Int: [ClassChanges.Event]] = [:]
        var lastClass = -1
        var current: [ClassChanges.Event] = []
        for event in events {
            let index = Int(event.classIndex)
            if index != lastClass {
                if lastClass >= 0 { byClass[lastClass, default: []].append(contentsOf: current) }
                current = byClass.removeValue(forKey: index) ?? []
                lastClass = index
            }
            let kind: ClassChanges.Event.Kind = event.kind == .insert ? .insert : event.kind == .delete ? .delete : .modify
            current.append(ClassChanges.Event(kind: kind, key: event.key, mask: event.mask))
        }
        if lastClass >= 0 { byClass[lastClass, default: []].append(contentsOf: current) }
        var changes = ChangeSet()
        for (index, classEvents) in byClass { changes.classes[index] = ClassChanges(folding: classEvents) }
        try attributeEmbeddedChanges(&changes, classes, connection)
        return changes
    }

    /// For each embedded object modified in place, marks the property of its parent that holds
    /// it; repeated for parents that are embedded themselves.
    private func attributeEmbeddedChanges(_ changes: inout ChangeSet, _ classes: [ClassInfo], _ connection: Connection) throws(DrumlinError) {
        var pending: [(ClassInfo, [Int64])] = classes.compactMap { info in
            guard info.isEmbedded, let modified = changes.classes[info.index]?.modified, !modified.isEmpty else { return nil }
            return (info, Array(modified.keys))
        }
        var rounds = 0
        while let (info, keys) = pending.popLast(), rounds < 64 {
            rounds += 1
            let list = "[" + keys.map(String.init).joined(separator: ",") + "]"
            for (origin, property) in info.incoming {
                let sql: String
                if let table = origin.collectionTables[property] {
                    sql = "SELECT DISTINCT owner FROM \(table.name) WHERE value IN (SELECT value FROM json_each(?1))"
                } else {
                    sql = "SELECT \(origin.keyColumn) FROM \(origin.table) WHERE \(quoted(origin.property(property).storedName)) IN (SELECT value FROM json_each(?1))"
                }
                let statement = try connection.statement(sql)
                statement.bind(list, at: 1)
                var parents: [Int64] = []
                while try statement.step() { parents.append(statement.int64(0)) }
                statement.reset()
                guard !parents.isEmpty else { continue }
                let marks = ClassChanges(folding: parents.sorted().map {
                    ClassChanges.Event(kind: .modify, key: $0, mask: PropertyMask(property: property))
                })
                changes.classes[origin.index, default: ClassChanges()].merge(marks)
                if origin.isEmbedded { pending.append((origin, parents)) }
            }
        }
    }
}

/// The C entry point SQLite calls before each row change (see `sqlite3_preupdate_hook`).
private func changeRecorderHook(_ context: UnsafeMutableRawPointer?, _ db: OpaquePointer?, _ op: Int32,
                                _ schema: UnsafePointer<CChar>?, _ table: UnsafePointer<CChar>?,
                                _ oldKey: Int64, _ newKey: Int64) {
    guard let context, let db, let schema, let table else { return }
    Unmanaged<ChangeRecorder>.fromOpaque(context).takeUnretainedValue().record(db, op, schema, table, oldKey, newKey)
}
