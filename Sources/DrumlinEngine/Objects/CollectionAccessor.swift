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
        try object.access(reading: !writing) { (connection) throws(DrumlinError) -> R in
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
            let value = property.type == .mixed ? try database.mixedValue(extendedJSON: json) : try Value(extendedJSON: json)
            return try element(value, connection)
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

/// An object's collection properties (List.swift, MutableSet.swift, Map.swift).
extension Object {
    public func list(_ name: String) throws(DrumlinError) -> List { try List(self, name) }
    public func mutableSet(_ name: String) throws(DrumlinError) -> MutableSet { try MutableSet(self, name) }
    public func dictionary(_ name: String) throws(DrumlinError) -> Map { try Map(self, name) }
}
