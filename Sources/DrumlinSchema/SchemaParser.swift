import DrumlinValues

extension Schema {
    /// Parses, normalizes and validates a schema written as JSON text in Realm JS's format (plus
    /// Drumlin's class-level `mapTo`).
    ///
    /// Text that is not JSON fails with `Invalid schema JSON: <where and why>`. Everything else that
    /// is wrong is reported at once, one line per problem, in a single `.schema` error:
    /// `Schema validation failed due to the following errors:\n- <problem>\n- <problem>`.
    public init(jsonText: String) throws(DrumlinError) {
        let json: JSON
        do throws(JSONParseError) {
            json = try JSON.parse(jsonText)
        } catch {
            throw DrumlinError(.schema, "Invalid schema JSON: \(error.description)")
        }
        try self.init(json: json)
    }

    /// Parses, normalizes and validates a schema given as a parsed JSON array of object schemas.
    ///
    /// Grammar problems (realm-js's wording, e.g. `Invalid type declaration for property 'age' on
    /// 'Person': Nested collections are not supported.`) and validation problems (realm-core's
    /// wording plus Drumlin's own rules, see `validate()`) are collected together and thrown as one
    /// `.schema` error.
    public init(json: JSON) throws(DrumlinError) {
        try self.init(json: json, validating: true)
    }

    /// `validating: false` checks the grammar only (every declaration must still be well formed):
    /// for reading back definitions Drumlin stored itself, which were validated when they were written
    /// and may name classes that are no longer stored.
    package init(json: JSON, validating: Bool) throws(DrumlinError) {
        guard case .array(let entries) = json else {
            throw DrumlinError(.schema, "Invalid schema: expected an array of object schemas, got \(json.javaScriptDescription).")
        }
        var reader = SchemaJSONReader()
        let objectSchemas = entries.compactMap { reader.readObjectSchema($0) }
        self.init(objectSchemas)
        var problems = reader.problems
        if validating {
            collectValidationProblems(into: &problems, alreadyReported: reader.reported)
        }
        if !problems.isEmpty { throw Schema.validationFailure(listing: problems) }
    }
}

/// Declarations whose problems the grammar already reported, so that validation does not report
/// them a second time in other words (a primary key that "does not exist" because its declaration
/// was dropped, the origin of a linkingObjects property whose declaration was malformed).
struct ReportedDeclarations {
    struct PropertyKey: Hashable {
        let className: String
        let propertyName: String
    }

    /// Classes whose `properties` could not be read at all.
    var classes: Set<String> = []
    /// Properties whose declaration was rejected (and left out of the parsed schema).
    var properties: Set<PropertyKey> = []

    func contains(className: String, propertyName: String) -> Bool {
        classes.contains(className) || properties.contains(PropertyKey(className: className, propertyName: propertyName))
    }
}

/// Reads the object schemas of a JSON schema one by one, collecting every problem instead of
/// stopping at the first. A class without a usable name, or a property whose declaration is
/// malformed, is reported and left out; everything else is kept so that validation can still
/// find the remaining problems.
struct SchemaJSONReader {
    static let objectSchemaKeys: Set<String> = ["name", "primaryKey", "embedded", "asymmetric", "properties", "mapTo"]

    private(set) var problems: [String] = []
    private(set) var reported = ReportedDeclarations()

    mutating func readObjectSchema(_ entry: JSON) -> ObjectSchema? {
        guard case .object(let members) = entry else {
            problems.append("Invalid schema for unnamed object: Expected 'object schema' to be an object, got \(entry.javaScriptDescription)")
            return nil
        }
        let name: String
        switch entry["name"] {
        case .string(let value)? where !value.isEmpty:
            name = value
        case nil, .string?:
            problems.append("Invalid schema for unnamed object: 'name' must be specified.")
            return nil
        case let other?:
            problems.append("Invalid schema for unnamed object: Expected 'name' on object schema to be a string, got \(other.javaScriptDescription)")
            return nil
        }
        func report(_ message: String) {
            problems.append("Invalid schema for object '\(name)': \(message)")
        }

        let duplicates = PropertyDeclaration.duplicateKeys(members)
        if !duplicates.isEmpty {
            report("Duplicate field(s) found on the schema for object '\(name)': '\(duplicates.joined(separator: "', '"))'.")
        }
        let primaryKey = Self.readString("primaryKey", of: entry, className: name, report: report)
        let mapTo = Self.readString("mapTo", of: entry, className: name, report: report)
        let embedded = Self.readBool("embedded", of: entry, className: name, report: report) ?? false
        let asymmetric = Self.readBool("asymmetric", of: entry, className: name, report: report) ?? false
        let unexpected = members.map(\.key).filter { !Self.objectSchemaKeys.contains($0) }
        if !unexpected.isEmpty {
            report("Unexpected field(s) found on the schema for object '\(name)': '\(unexpected.joined(separator: "', '"))'.")
        }

        var declarations: [(key: String, value: JSON)] = []
        switch entry["properties"] {
        case .object(let properties)?:
            declarations = properties
        case nil:
            report("'properties' must be specified.")
        case .array?:
            report("Array of properties are no longer supported. Use an object instead.")
        case let other?:
            report("Expected 'properties' on '\(name)' to be an object, got \(other.javaScriptDescription)")
        }
        let propertiesReadable = entry["properties"]?.objectMembers != nil
        if !propertiesReadable {
            reported.classes.insert(name)
        }
        if let primaryKey, propertiesReadable, !declarations.contains(where: { $0.key == primaryKey }) {
            report("'\(primaryKey)' is set as the primary key field but was not found in 'properties'.")
            reported.properties.insert(.init(className: name, propertyName: primaryKey))
        }
        if embedded && asymmetric {
            report("Cannot be both asymmetric and embedded.")
        }

        var properties: [Property] = []
        for (propertyName, value) in declarations {
            let declaration = PropertyDeclaration(className: name, propertyName: propertyName,
                                                  isPrimaryKey: propertyName == primaryKey)
            do throws(PropertyDeclaration.Problem) {
                properties.append(try declaration.parse(value))
            } catch {
                problems.append(declaration.prefixedMessage(error))
                reported.properties.insert(.init(className: name, propertyName: propertyName))
            }
        }
        // Both flags set was reported above; top-level is the kind that adds no follow-up problems.
        let kind: ObjectKind = embedded == asymmetric ? .topLevel : embedded ? .embedded : .asymmetric
        return ObjectSchema(name: name, storedName: mapTo, kind: kind, primaryKey: primaryKey, properties: properties)
    }

    private static func readString(_ key: String, of entry: JSON, className: String, report: (String) -> Void) -> String? {
        switch entry[key] {
        case nil: return nil
        case .string(let value)?: return value
        case let other?:
            report("Expected '\(key)' on '\(className)' to be a string, got \(other.javaScriptDescription)")
            return nil
        }
    }

    private static func readBool(_ key: String, of entry: JSON, className: String, report: (String) -> Void) -> Bool? {
        switch entry[key] {
        case nil: return nil
        case .bool(let value)?: return value
        case let other?:
            report("Expected '\(key)' on '\(className)' to be a boolean, got \(other.javaScriptDescription)")
            return nil
        }
    }
}
