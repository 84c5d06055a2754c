internal import DrumlinEngine

/// The classes of a database, as Realm Swift's `Schema`.
public struct Schema: CustomStringConvertible, Sendable {
    public let objectSchema: [ObjectSchema]

    init(_ objectSchema: [ObjectSchema]) { self.objectSchema = objectSchema }

    public subscript(className: String) -> ObjectSchema? { objectSchema.first { $0.className == className } }
    public var description: String { objectSchema.map(\.description).joined(separator: "\n") }
}

/// One class of a schema, as Realm Swift's `ObjectSchema`.
public struct ObjectSchema: CustomStringConvertible, Sendable {
    public let className: String
    public let properties: [Property]
    public let primaryKeyProperty: Property?
    public let isEmbedded: Bool
    public let isAsymmetric: Bool

    init(_ meta: ClassMeta) {
        className = meta.name
        properties = meta.properties.map(Property.init)
        primaryKeyProperty = meta.primaryKeyPosition.map { Property(meta.properties[$0]) }
        isEmbedded = meta.kind == .embedded
        isAsymmetric = meta.kind == .asymmetric
    }

    /// A stored class without a model class (a database opened by its stored schema).
    init(stored schema: DrumlinEngine.ObjectSchema) {
        className = schema.name
        properties = schema.properties.map(Property.init(stored:))
        primaryKeyProperty = schema.properties.first(where: \.isPrimaryKey).map(Property.init(stored:))
        isEmbedded = schema.kind == .embedded
        isAsymmetric = schema.kind == .asymmetric
    }

    public subscript(propertyName: String) -> Property? { properties.first { $0.name == propertyName } }
    public var description: String {
        "\(className) {\n" + properties.map { "\t\($0)" }.joined(separator: "\n") + "\n}"
    }
}

/// One property of a class, as Realm Swift's `Property`.
public struct Property: CustomStringConvertible, Sendable, Equatable {
    /// The Swift name.
    public let name: String
    /// The stored name (`propertiesMapping()`), the Swift name when there is none.
    public let columnName: String
    /// The schema's type word: `int`, `string`, `object`, `linkingObjects`, ...
    public let typeName: String
    public let objectClassName: String?
    public let linkOriginPropertyName: String?
    public let isOptional: Bool
    public let isArray: Bool
    public let isSet: Bool
    public let isMap: Bool
    public let isIndexed: Bool
    public let isPrimary: Bool

    init(_ meta: PropertyMeta) {
        name = meta.name
        columnName = meta.storedName ?? meta.name
        typeName = meta.shape.type
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
        typeName = property.type == .decimal128 ? "decimal128" : property.type.rawValue
        objectClassName = property.objectType
        linkOriginPropertyName = property.originProperty
        isOptional = property.isOptional
        isArray = property.collection == .list
        isSet = property.collection == .set
        isMap = property.collection == .dictionary
        isIndexed = property.index != .none || property.isPrimaryKey
        isPrimary = property.isPrimaryKey
    }

    public var description: String {
        "\(name) {type = \(typeName); columnName = \(columnName); indexed = \(isIndexed ? "YES" : "NO"); isPrimary = \(isPrimary ? "YES" : "NO"); optional = \(isOptional ? "YES" : "NO")}"
    }
}
