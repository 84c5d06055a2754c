internal import DrumlinEngine

/// The classes of a database, as Realm Swift's `Schema`: `realm.schema`.
public struct Schema: CustomStringConvertible, Equatable, Sendable {
    /// Every class, in name order.
    public let objectSchema: [ObjectSchema]

    init(_ objectSchema: [ObjectSchema]) { self.objectSchema = objectSchema.sorted { $0.className < $1.className } }

    /// The class of that name, or nil.
    public subscript(className: String) -> ObjectSchema? { objectSchema.first { $0.className == className } }

    public var description: String {
        "Schema {\n" + objectSchema.map { "\t" + $0.description.replacingOccurrences(of: "\n", with: "\n\t") }.joined(separator: "\n") + "\n}"
    }
}

/// One class of a schema, as Realm Swift's `ObjectSchema`. Two are equal when they describe the
/// same class the same way (name, kind, properties), as in Realm.
public struct ObjectSchema: CustomStringConvertible, Equatable, @unchecked Sendable {
    public let className: String
    /// The managed properties, in declaration order.
    public let properties: [Property]
    public let primaryKeyProperty: Property?
    public let isEmbedded: Bool
    public let isAsymmetric: Bool
    /// The model class; `DynamicObject` for a stored class no model class describes.
    public let objectClass: AnyClass

    init(_ meta: ClassMeta) {
        className = meta.name
        properties = meta.properties.map(Property.init)
        primaryKeyProperty = meta.primaryKeyPosition.map { Property(meta.properties[$0]) }
        isEmbedded = meta.kind == .embedded
        isAsymmetric = meta.kind == .asymmetric
        objectClass = meta.type
    }

    /// A stored class without a model class (a database opened by its stored schema).
    init(stored schema: DrumlinEngine.ObjectSchema) {
        className = schema.name
        properties = schema.properties.map(Property.init(stored:))
        primaryKeyProperty = schema.properties.first(where: \.isPrimaryKey).map(Property.init(stored:))
        isEmbedded = schema.kind == .embedded
        isAsymmetric = schema.kind == .asymmetric
        objectClass = DynamicObject.self
    }

    /// The property of that (Swift) name, or nil.
    public subscript(propertyName: String) -> Property? { properties.first { $0.name == propertyName } }

    public var description: String {
        "\(className) {\n" + properties.map { "\t" + $0.description.replacingOccurrences(of: "\n", with: "\n\t") }.joined(separator: "\n") + "\n}"
    }

    public static func == (lhs: ObjectSchema, rhs: ObjectSchema) -> Bool {
        lhs.className == rhs.className && lhs.properties == rhs.properties && lhs.isEmbedded == rhs.isEmbedded
            && lhs.isAsymmetric == rhs.isAsymmetric && lhs.primaryKeyProperty?.name == rhs.primaryKeyProperty?.name
    }
}

/// The type of a property, as Realm Swift's `PropertyType` (the element type for collections).
/// Realm's raw values.
public enum PropertyType: Int, Sendable, CustomStringConvertible {
    case int = 0
    case bool = 1
    case string = 2
    case data = 3
    case date = 4
    case float = 5
    case double = 6
    case object = 7
    case linkingObjects = 8
    case any = 9
    case objectId = 10
    case decimal128 = 11
    case UUID = 12

    /// From the schema's type word (`int`, `uuid`, `mixed`, ...).
    init(schemaType: String) {
        switch schemaType {
        case "bool": self = .bool
        case "string": self = .string
        case "data": self = .data
        case "date": self = .date
        case "float": self = .float
        case "double": self = .double
        case "object": self = .object
        case "linkingObjects": self = .linkingObjects
        case "mixed": self = .any
        case "objectId": self = .objectId
        case "decimal128", "decimal": self = .decimal128
        case "uuid": self = .UUID
        default: self = .int
        }
    }

    public var description: String {
        switch self {
        case .int: "int"
        case .bool: "bool"
        case .string: "string"
        case .data: "data"
        case .date: "date"
        case .float: "float"
        case .double: "double"
        case .object: "object"
        case .linkingObjects: "linking objects"
        case .any: "mixed"
        case .objectId: "object id"
        case .decimal128: "decimal128"
        case .UUID: "uuid"
        }
    }
}

/// One property of a class, as Realm Swift's `Property`.
public struct Property: CustomStringConvertible, Sendable, Equatable {
    /// The Swift name.
    public let name: String
    /// The stored name (`propertiesMapping()`), the Swift name when there is none.
    public let columnName: String
    /// The type (of the elements, for a collection).
    public let type: PropertyType
    /// The target class of a link, a collection of objects or linking objects.
    public let objectClassName: String?
    /// For linking objects: the link property they follow back.
    public let linkOriginPropertyName: String?
    public let isOptional: Bool
    public let isArray: Bool
    public let isSet: Bool
    public let isMap: Bool
    /// Indexed (a primary key is indexed).
    public let isIndexed: Bool
    public let isPrimary: Bool

    /// The stored name, as Realm's `publicName` is the Swift one when a mapping renames it.
    public var publicName: String { name }

    init(_ meta: PropertyMeta) {
        name = meta.name
        columnName = meta.storedName ?? meta.name
        type = PropertyType(schemaType: meta.shape.type)
        objectClassName = meta.shape.objectType?.className()
        linkOriginPropertyName = meta.options.originProperty
        isOptional = meta.shape.isOptional
        isArray = meta.shape.collection == "list"
        isSet = meta.shape.collection == "set"
        isMap = meta.shape.collection == "dictionary"
        isIndexed = meta.options.indexed || meta.options.primaryKey
        isPrimary = meta.options.primaryKey
    }

    init(stored property: DrumlinEngine.Property) {
        name = property.name
        columnName = property.storedName
        type = PropertyType(schemaType: property.type.rawValue)
        objectClassName = property.objectType
        linkOriginPropertyName = property.originProperty
        isOptional = property.isOptional
        isArray = property.collection == .list
        isSet = property.collection == .set
        isMap = property.collection == .dictionary
        isIndexed = property.index != .none || property.isPrimaryKey
        isPrimary = property.isPrimaryKey
    }

    /// Realm's layout: the name, then one `key = value;` line per attribute.
    public var description: String {
        func yes(_ flag: Bool) -> String { flag ? "YES" : "NO" }
        return """
        \(name) {
        \ttype = \(type);
        \tcolumnName = \(columnName);
        \tobjectClassName = \(objectClassName ?? "(null)");
        \tlinkOriginPropertyName = \(linkOriginPropertyName ?? "(null)");
        \tindexed = \(yes(isIndexed));
        \tisPrimary = \(yes(isPrimary));
        \tarray = \(yes(isArray));
        \tset = \(yes(isSet));
        \tdictionary = \(yes(isMap));
        \toptional = \(yes(isOptional));
        }
        """
    }
}
