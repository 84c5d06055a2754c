import DrumlinValues

extension Schema {
    /// The schema in normalized long form: every property spelled out as an object, with the
    /// implied parts made explicit (links optional, primary keys indexed, `mapTo` = stored name).
    ///
    /// ```json
    /// [{"name": "Dog", "embedded": false, "asymmetric": false, "properties": {
    ///    "name": {"type": "string", "optional": false, "indexed": false, "mapTo": "name"},
    ///    "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs",
    ///               "optional": false, "indexed": false, "mapTo": "owners"}}}]
    /// ```
    ///
    /// A class gets `mapTo` only when its stored name differs from its name, and `primaryKey` only
    /// when it has one; a property gets `objectType` for collections, links and linkingObjects,
    /// `property` for linkingObjects, `default` when one was given and `presentation` for counters.
    /// Parsing this JSON again gives the same schema, and the same JSON.
    public var normalizedJSON: JSON {
        .array(objectSchemas.map(Schema.normalizedJSON(of:)))
    }

    private static func normalizedJSON(of objectSchema: ObjectSchema) -> JSON {
        var members: [(key: String, value: JSON)] = [("name", .string(objectSchema.name))]
        if objectSchema.storedName != objectSchema.name {
            members.append(("mapTo", .string(objectSchema.storedName)))
        }
        if let primaryKey = objectSchema.primaryKey {
            members.append(("primaryKey", .string(primaryKey)))
        }
        members.append(("embedded", .bool(objectSchema.kind == .embedded)))
        members.append(("asymmetric", .bool(objectSchema.kind == .asymmetric)))
        members.append(("properties", .object(objectSchema.properties.map { ($0.name, normalizedJSON(of: $0)) })))
        return .object(members)
    }

    private static func normalizedJSON(of property: Property) -> JSON {
        var members: [(key: String, value: JSON)] = []
        let elementWord: String? = property.type == .object ? property.objectType : property.type.rawValue
        switch property.type {
        case .linkingObjects:
            // Always a read-only list of objects, however the collection kind was set in code.
            members.append(("type", .string("linkingObjects")))
            members.append(("objectType", .string(property.objectType ?? "")))
            members.append(("property", .string(property.originProperty ?? "")))
        case _ where property.isCollection:
            members.append(("type", .string(property.collection.typeWord ?? "")))
            members.append(("objectType", .string(elementWord ?? "")))
        case .object:
            members.append(("type", .string("object")))
            members.append(("objectType", .string(property.objectType ?? "")))
        default:
            members.append(("type", .string(property.type.rawValue)))
        }
        members.append(("optional", .bool(property.isOptional)))
        let indexed: JSON = switch property.index {
        case .fullText: .string("full-text")
        case .general: .bool(true)
        case .none: .bool(property.isPrimaryKey)
        }
        members.append(("indexed", indexed))
        members.append(("mapTo", .string(property.storedName)))
        if let defaultValue = property.defaultValue {
            members.append(("default", defaultValue))
        }
        if property.isCounter {
            members.append(("presentation", .string("counter")))
        }
        return .object(members)
    }
}
