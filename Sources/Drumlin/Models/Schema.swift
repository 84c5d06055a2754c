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

    public var description: String {
        "\(name) {type = \(typeName); columnName = \(columnName); indexed = \(isIndexed ? "YES" : "NO"); isPrimary = \(isPrimary ? "YES" : "NO"); optional = \(isOptional ? "YES" : "NO")}"
    }
}
