import DrumlinValues

/// The scalar or link type of a property, or of a collection's elements.
public enum PropertyType: String, Sendable, CaseIterable {
    case bool, int, float, double, decimal128, string, data, date, objectId, uuid, mixed
    /// A link to another object type (`objectType` names it).
    case object
    /// An inverse relationship, computed from links in `objectType.originProperty`.
    case linkingObjects

    /// Types that can carry a general (non-full-text) index, as in Realm.
    public var isIndexable: Bool {
        switch self {
        case .bool, .int, .string, .date, .objectId, .uuid, .mixed: true
        default: false
        }
    }

    /// Types allowed as a primary key (each may be optional).
    public var isPrimaryKeyType: Bool {
        switch self {
        case .int, .string, .objectId, .uuid: true
        default: false
        }
    }

    /// Realm's word for the type in validation messages (`string_for_property_type`).
    public var realmName: String {
        switch self {
        case .bool: "bool"
        case .int: "int"
        case .float: "float"
        case .double: "double"
        case .decimal128: "decimal"
        case .string: "string"
        case .data: "data"
        case .date: "date"
        case .objectId: "object id"
        case .uuid: "uuid"
        case .mixed: "mixed"
        case .object: "object"
        case .linkingObjects: "linking objects"
        }
    }
}

/// Whether a property holds one value or a collection of them.
public enum CollectionKind: String, Sendable {
    case single
    case list
    case set
    case dictionary

    /// Realm's word for the collection in validation messages.
    public var realmName: String? {
        switch self {
        case .single: nil
        case .list: "array"
        case .set: "set"
        case .dictionary: "dictionary"
        }
    }

    /// The long-form `type` word for a collection (`list`, `set`, `dictionary`).
    public var typeWord: String? {
        switch self {
        case .single: nil
        case .list: "list"
        case .set: "set"
        case .dictionary: "dictionary"
        }
    }
}

/// The kind of index on a property.
public enum IndexKind: Sendable, Equatable {
    case none
    case general
    case fullText
}

/// One property of an object schema, in normalized form.
public struct Property: Sendable {
    /// The public name: used in code, payloads and queries.
    public var name: String
    /// The stored (column) name: `mapTo` when given, otherwise `name`.
    public var storedName: String
    /// The scalar type, `.object` for a link, `.linkingObjects` for an inverse relationship. For a
    /// collection this is the element type.
    public var type: PropertyType
    public var collection: CollectionKind
    /// The linked class for `.object` and `.linkingObjects` (public name as written).
    public var objectType: String?
    /// For `.linkingObjects`: the property of `objectType` that links here.
    public var originProperty: String?
    /// Whether the value (or, for collections, each element) may be null.
    public var isOptional: Bool
    public var index: IndexKind
    public var isPrimaryKey: Bool
    /// The `default` value as written in the schema (Extended JSON), applied when a create omits it.
    public var defaultValue: JSON?
    /// `presentation: "counter"` (or the `counter` shorthand): an int meant for increments.
    public var isCounter: Bool

    public init(name: String, storedName: String? = nil, type: PropertyType, collection: CollectionKind = .single,
                objectType: String? = nil, originProperty: String? = nil, isOptional: Bool = false,
                index: IndexKind = .none, isPrimaryKey: Bool = false, defaultValue: JSON? = nil,
                isCounter: Bool = false) {
        self.name = name
        self.storedName = storedName ?? name
        self.type = type
        self.collection = collection
        self.objectType = objectType
        self.originProperty = originProperty
        self.isOptional = isOptional
        self.index = index
        self.isPrimaryKey = isPrimaryKey
        self.defaultValue = defaultValue
        self.isCounter = isCounter
    }

    public var isLink: Bool { type == .object }
    public var isCollection: Bool { collection != .single }
    /// Computed properties have no storage of their own.
    public var isComputed: Bool { type == .linkingObjects }
    /// A single (non-collection, non-computed) value kept in a column of the class's table.
    public var isColumn: Bool { collection == .single && type != .linkingObjects }

    /// Realm's type word for messages: the collection word for collections, else the element type.
    public var realmTypeName: String { collection.realmName ?? type.realmName }
}

/// What kind of object a schema describes.
public enum ObjectKind: String, Sendable {
    /// An ordinary object that can be created, queried and deleted on its own.
    case topLevel
    /// Owned by exactly one parent slot; deleted with its parent or when replaced.
    case embedded
    /// Insert-only: kept in an outbox, never read back.
    case asymmetric
}

/// One object type of a schema, in normalized form.
public struct ObjectSchema: Sendable {
    /// The public class name.
    public var name: String
    /// The stored (table) name: the schema's `mapTo` when given, otherwise `name`.
    public var storedName: String
    public var kind: ObjectKind
    /// The public name of the primary key property, if any.
    public var primaryKey: String?
    /// Properties in the order the schema lists them (persisted and computed together).
    public var properties: [Property]

    public init(name: String, storedName: String? = nil, kind: ObjectKind = .topLevel, primaryKey: String? = nil,
                properties: [Property]) {
        self.name = name
        self.storedName = storedName ?? name
        self.kind = kind
        self.primaryKey = primaryKey
        self.properties = properties
    }

    public func property(named name: String) -> Property? {
        properties.first { $0.name.isSameName(name) }
    }

    public var primaryKeyProperty: Property? {
        primaryKey.flatMap { pk in properties.first { $0.name == pk } }
    }
}

/// A whole schema: the object types an application works with.
public struct Schema: Sendable {
    public var objectSchemas: [ObjectSchema]

    public init(_ objectSchemas: [ObjectSchema]) {
        self.objectSchemas = objectSchemas
    }

    public subscript(name: String) -> ObjectSchema? {
        objectSchemas.first { $0.name == name }
    }
}
