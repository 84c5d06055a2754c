import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// A live object: a handle to one stored object that always reads the current state (committed,
/// or this handle's own uncommitted writes). Accessing a deleted object is
/// `DrumlinError.invalidatedObject`; using one whose database was closed is `DrumlinError.misuse`.
///
/// Two `Object`s for the same stored object compare equal.
public final class Object: @unchecked Sendable, Equatable, Hashable, CustomStringConvertible {
    public let database: Database
    let info: ClassInfo
    /// The object key: stable for the object's lifetime, unique within its class.
    public let key: Int64

    init(database: Database, info: ClassInfo, key: Int64) {
        self.database = database
        self.info = info
        self.key = key
    }

    public var className: String { info.name }

    /// Runs `body` serialized with the database's other calls. Asymmetric objects are insert-only:
    /// a handle to one (returned by a create) can be released, but not read or written.
    /// A call that only reads (`reading`) may run in the read transaction the database holds
    /// between reads (`Database.serializedRead`).
    func access<R>(reading: Bool = false, _ body: (Connection) throws(DrumlinError) -> R) throws(DrumlinError) -> R {
        if info.isRemoved { throw Database.removedClass(info) }
        if info.schema.kind == .asymmetric {
            throw DrumlinError(.notSupported, "Objects of asymmetric type '\(info.name)' are insert-only and cannot be read, queried, updated or deleted.")
        }
        return reading ? try database.serializedRead(body) : try database.serialized(body)
    }
    public var objectSchema: ObjectSchema { info.schema }
    public var classIndex: Int { info.index }
    /// The object as a link value: what a link property, or a mixed value, stores.
    public var link: Value { .link(ObjectLink(classIndex: info.index, key: key)) }

    public static func == (lhs: Object, rhs: Object) -> Bool {
        lhs.database === rhs.database && lhs.info === rhs.info && lhs.key == rhs.key
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(database))
        hasher.combine(info.index)
        hasher.combine(key)
    }

    public var description: String {
        (try? jsonText()).map { "\(className)\($0)" } ?? "\(className)(invalid)"
    }

    /// Whether the object still exists (false after it was deleted or its database closed).
    public var isValid: Bool {
        (try? database.serializedRead { (connection) throws(DrumlinError) in try database.exists(info, key, connection) }) ?? false
    }

    /// Reads a property by public or stored name.
    public subscript(name: String) -> Value {
        get throws(DrumlinError) { try value(name) }
    }

    /// Reads a property by public or stored name. The corresponding C function is `drumlin_object_get`.
    public func value(_ name: String) throws(DrumlinError) -> Value {
        guard let index = info.propertyIndex(name) else { throw database.noSuchProperty(info, name) }
        return try value(at: index)
    }

    /// Reads a property by index. The corresponding C function is `drumlin_object_get_at`.
    public func value(at index: Int) throws(DrumlinError) -> Value {
        try access(reading: true) { (connection) throws(DrumlinError) in
            try database.readRow(info, key, connection, indices: [index])[0]
        }
    }

    /// Reads several properties in one database read. The corresponding C function is
    /// `drumlin_object_get_values`.
    public func values(at indices: [Int]) throws(DrumlinError) -> [Value] {
        try access(reading: true) { (connection) throws(DrumlinError) in
            try database.readRow(info, key, connection, indices: indices)
        }
    }

    /// The primary key value, or nil when the class has none.
    public var primaryKey: Value? {
        get throws(DrumlinError) {
            guard let pk = info.primaryKeyIndex else { return nil }
            return try value(at: pk)
        }
    }

    /// Writes a property (inside a write transaction). The corresponding C function is `drumlin_object_set`.
    public func set(_ name: String, to value: Value) throws(DrumlinError) {
        guard let index = info.propertyIndex(name) else { throw database.noSuchProperty(info, name) }
        try set(at: index, to: value)
    }

    /// Writes a property by index. The corresponding C function is `drumlin_object_set_at`.
    public func set(at index: Int, to value: Value) throws(DrumlinError) {
        try setValues([(index, value)])
    }

    /// Writes several properties, all or nothing. The corresponding C function is
    /// `drumlin_object_set_values`.
    public func setValues(_ assignments: [(index: Int, value: Value)]) throws(DrumlinError) {
        try access { (connection) throws(DrumlinError) in
            try database.requireWriteTransaction()
            var given: [(Int, Input)] = []
            for (index, value) in assignments {
                try database.checkIndex(info, index)
                given.append((index, try database.input(from: value, info, index)))
            }
            try database.atomicallyIfNeeded(info, given, connection) { () throws(DrumlinError) in
                try database.update(info, key, given, mode: .all, connection)
            }
        }
    }

    /// Writes the properties of a JSON object, all or nothing. The corresponding C function is
    /// `drumlin_object_update_json`.
    public func update(json: JSON) throws(DrumlinError) {
        try access { (connection) throws(DrumlinError) in
            try database.requireWriteTransaction()
            let given = try database.decodePayload(info, json)
            try database.atomicallyIfNeeded(info, given, connection) { () throws(DrumlinError) in
                try database.update(info, key, given, mode: .all, connection)
            }
        }
    }

    public func update(json text: String) throws(DrumlinError) {
        try update(json: try Database.parsePayload(text))
    }

    /// Deletes the object (inside a write transaction). The corresponding C function is
    /// `drumlin_object_delete`.
    public func delete() throws(DrumlinError) {
        try access { (connection) throws(DrumlinError) in
            try database.requireWriteTransaction()
            _ = try database.readable(info)
            // Clearing mixed values that hold the object and deleting it go together.
            var atomic = info.hasRelationships
            if !atomic { atomic = try database.isHeldByMixedValues(info, key, connection) }
            if atomic {
                try database.atomically(connection) { () throws(DrumlinError) in try database.deleteObject(info, key, connection) }
            } else {
                try database.deleteObject(info, key, connection, heldByMixedValues: false)
            }
        }
    }

    /// The object as Extended JSON: links as the target's primary key (object key without one),
    /// or as nested objects `depth` levels deep; embedded objects always nested.
    /// The corresponding C function is `drumlin_object_to_json`.
    public func jsonText(depth: Int = 0) throws(DrumlinError) -> String {
        try access(reading: true) { (connection) throws(DrumlinError) in
            var writer = JSONWriter()
            try database.writeJSON(info, key, depth: max(depth, 0), connection, to: &writer)
            return writer.string
        }
    }

    /// The object a to-one link property, or a mixed property holding a link, points at, or nil.
    public func linkedObject(_ name: String) throws(DrumlinError) -> Object? {
        guard let index = info.propertyIndex(name) else { throw database.noSuchProperty(info, name) }
        let property = info.property(index)
        if property.type == .mixed, property.collection == .single {
            let value = try value(at: index)
            switch value {
            case .link(let link): return try database.object(link)
            case .null: return nil
            default: throw DrumlinError(.typeMismatch, "Property '\(info.name).\(property.name)' holds a \(value.typeName), not a link.")
            }
        }
        guard property.type == .object, property.collection == .single else {
            throw DrumlinError(.typeMismatch, "Property '\(info.name).\(property.name)' is not a link to one object.")
        }
        guard case .link(let link) = try value(at: index) else { return nil }
        return try database.object(link)
    }

    /// The objects linking here through a linkingObjects property (once per link).
    public func linkingObjects(_ name: String) throws(DrumlinError) -> [Object] {
        guard let index = info.propertyIndex(name) else { throw database.noSuchProperty(info, name) }
        return try access(reading: true) { (connection) throws(DrumlinError) in
            let (origin, originIndex) = try database.backlinkOrigin(info, index)
            _ = try database.readable(origin)
            guard try database.exists(info, key, connection) else { throw database.invalidated(info) }
            return try database.linkingKeys(origin, originIndex, to: key, connection).map {
                Object(database: database, info: origin, key: $0)
            }
        }
    }

    /// The objects of class `className` linking here through its property `property`
    /// (Realm's `@links.Class.property`).
    public func linkingObjects(_ className: String, property: String) throws(DrumlinError) -> [Object] {
        let origin = try database.readable(try database.classInfo(className))
        guard let originIndex = origin.propertyIndex(property), origin.targets[originIndex] === info,
              origin.property(originIndex).type == .object else {
            throw DrumlinError(.noSuchProperty, "No property '\(property)' found in type '\(className)' which links to type '\(info.name)'")
        }
        return try access(reading: true) { (connection) throws(DrumlinError) in
            try database.linkingKeys(origin, originIndex, to: key, connection).map {
                Object(database: database, info: origin, key: $0)
            }
        }
    }
}
