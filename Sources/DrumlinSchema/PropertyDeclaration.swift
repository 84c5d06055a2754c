import DrumlinValues

/// Reads one property declaration of a JSON schema into a normalized `Property`: either the
/// shorthand string (`"int"`, `"int?[]"`, `"Dog{}"`, `"counter"`) or the long form object
/// (`{"type": "list", "objectType": "int", "optional": true}`).
///
/// The grammar, the normalization (links always optional, lists and sets of objects never, mixed
/// always, a primary key implicitly indexed) and the wording of every problem follow realm-js's
/// schema normalization and validation, so a schema that realm-js accepts is accepted
/// here with the same meaning, and one it rejects is rejected with the same words. Cross-class
/// rules (does `Dog` exist, is the origin a link) belong to the validator, not here.
struct PropertyDeclaration {
    let className: String
    let propertyName: String
    let isPrimaryKey: Bool

    /// One grammar problem. `message` is realm-js's text without the
    /// `Invalid type declaration for property 'p' on 'C': ` prefix, which `prefixedMessage` adds.
    struct Problem: Error {
        let message: String
        package init(_ message: String) { self.message = message }
    }

    static let longFormKeys: Set<String> = [
        "type", "objectType", "optional", "indexed", "mapTo", "default", "property", "presentation", "name",
    ]

    func prefixedMessage(_ problem: Problem) -> String {
        "Invalid type declaration for property '\(propertyName)' on '\(className)': \(problem.message)"
    }

    func parse(_ declaration: JSON) throws(Problem) -> Property {
        switch declaration {
        case .string(let shorthand):
            return try parseShorthand(shorthand)
        case .object(let members):
            return try parseLongForm(members)
        default:
            throw Problem("Expected '\(propertyName)' on '\(className)' to be a string or an object, got \(declaration.javaScriptDescription)")
        }
    }

    // MARK: - Shorthand: base optional? collection?

    private func parseShorthand(_ declaration: String) throws(Problem) -> Property {
        guard !declaration.isEmpty else { throw Problem("The type must be specified.") }
        var rest = declaration
        var collection = CollectionKind.single
        if let (kind, suffix) = Self.collectionSuffix(of: rest) {
            collection = kind
            rest = Self.droppingLast(2, of: rest)
            guard !rest.isEmpty else { throw Problem("The element type must be specified (Example: 'int\(suffix)')") }
            guard Self.collectionSuffix(of: rest) == nil else { throw Problem("Nested collections are not supported.") }
        }
        var isOptional = false
        if rest.utf8.last == UInt8(ascii: "?") {
            isOptional = true
            rest = Self.droppingLast(1, of: rest)
            guard !rest.isEmpty else { throw Problem("The type must be specified. (Examples: 'int?' and 'int?[]')") }
            guard Self.collectionSuffix(of: rest) == nil else {
                throw Problem("Collections cannot be optional. To allow elements of the collection to be optional, use '?' after the element type. (Examples: 'int?[]', 'int?{}', and 'int?<>')")
            }
        }

        var property = Property(name: propertyName, type: .int, collection: collection, isOptional: isOptional,
                                index: isPrimaryKey ? .general : .none, isPrimaryKey: isPrimaryKey)
        if let primitive = Self.primitiveType(named: rest) {
            property.type = primitive
        } else if Self.collectionKind(named: rest) != nil {
            throw Problem("Cannot use the collection name \(rest). (Examples: 'int[]' (list), 'int{}' (dictionary), and 'int<>' (set))")
        } else if rest == "object" {
            throw Problem("To define a relationship, use either 'MyObjectType' or { type: 'object', objectType: 'MyObjectType' }")
        } else if rest == "linkingObjects" {
            throw Problem("To define an inverse relationship, use { type: 'linkingObjects', objectType: 'MyObjectType', property: 'myObjectTypesProperty' }")
        } else if rest == "counter" {
            guard collection == .single else { throw Problem("Counters cannot be used in collections.") }
            guard !isPrimaryKey else { throw Problem("Counters cannot be primary keys.") }
            property.isCounter = true
        } else {
            property.type = .object
            property.objectType = rest
        }

        if Self.isImplicitlyOptional(property) {
            property.isOptional = true
        } else if Self.isImplicitlyRequired(property) && isOptional {
            throw Problem("User-defined types in lists and sets are always non-optional and cannot be made optional. Remove '?' or change the type.")
        }
        return property
    }

    // MARK: - Long form

    private func parseLongForm(_ members: [(key: String, value: JSON)]) throws(Problem) -> Property {
        let duplicates = Self.duplicateKeys(members)
        guard duplicates.isEmpty else {
            throw Problem("Duplicate field(s) found on the schema for property '\(propertyName)' on '\(className)': '\(duplicates.joined(separator: "', '"))'.")
        }
        let declaration = JSON.object(members)

        // Value types first, then unknown keys, as realm-js's validate.ts does.
        let type: String
        switch declaration["type"] {
        case nil: throw Problem("'type' must be specified.")
        case .string(let word)?: type = word
        case let other?: throw expected("type", "a string", got: other)
        }
        let objectType = try optionalString("objectType", in: declaration)
        let optional = try optionalBool("optional", in: declaration)
        let origin = try optionalString("property", in: declaration)
        let mapTo = try optionalString("mapTo", in: declaration)
        let declaredName = try optionalString("name", in: declaration)
        var index: IndexKind?
        switch declaration["indexed"] {
        case nil: index = nil
        case .bool(let flag)?: index = flag ? .general : IndexKind.none
        case .string("full-text")?: index = .fullText
        case _?: throw Problem("Expected '\(propertyName).indexed' on '\(className)' to be a boolean or 'full-text'.")
        }
        var isCounter = false
        switch declaration["presentation"] {
        case nil: break
        case .string("counter")?: isCounter = true
        case _?: throw Problem("Expected '\(propertyName).presentation' on '\(className)' to be 'counter'.")
        }
        let unexpected = members.map(\.key).filter { !Self.longFormKeys.contains($0) }
        guard unexpected.isEmpty else {
            throw Problem("Unexpected field(s) found on the schema for property '\(propertyName)' on '\(className)': '\(unexpected.joined(separator: "', '"))'.")
        }
        if let declaredName, declaredName != propertyName {
            throw Problem("'name' is '\(declaredName)' but the property is declared under the key '\(propertyName)'. Remove 'name', or use 'mapTo' to store the property under another name.")
        }

        // Meaning.
        guard !type.isEmpty else { throw Problem("'type' must be specified.") }
        try rejectShorthand(in: type)
        try rejectShorthand(in: objectType)

        var property = Property(name: propertyName, storedName: mapTo, type: .int,
                                defaultValue: declaration["default"], isCounter: isCounter)
        if let primitive = Self.primitiveType(named: type) {
            guard objectType == nil else { throw Problem("'objectType' cannot be defined when 'type' is '\(type)'.") }
            property.type = primitive
        } else if let collection = Self.collectionKind(named: type) {
            property.collection = collection
            if objectType == "counter" || isCounter { throw Problem("Counters cannot be used in collections.") }
            if let element = objectType.flatMap(Self.primitiveType(named:)) {
                property.type = element
            } else if let target = objectType, Self.isUserDefined(target) {
                property.type = .object
                property.objectType = target
            } else {
                throw Problem("A \(type) must contain only primitive or user-defined types specified through 'objectType'.")
            }
        } else if type == "object" || type == "linkingObjects" {
            guard let target = objectType, Self.isUserDefined(target) else {
                throw Problem("A user-defined type must be specified through 'objectType'.")
            }
            property.objectType = target
            property.type = type == "object" ? .object : .linkingObjects
            if type == "linkingObjects" {
                guard let origin, !origin.isEmpty else {
                    throw Problem("The linking object's property name must be specified through 'property'.")
                }
                property.originProperty = origin
            }
        } else if type == "counter" {
            throw Problem("To define a counter, use 'counter' or { type: 'int', presentation: 'counter' }")
        } else {
            throw Problem("If you meant to define a relationship, use { type: 'object', objectType: '\(type)' } or { type: 'linkingObjects', objectType: '\(type)', property: 'The \(type) property' }")
        }
        if type != "linkingObjects" && origin != nil {
            throw Problem("'property' can only be specified if 'type' is 'linkingObjects'.")
        }
        if isCounter && type != "int" {
            throw Problem("Counters can only be used when 'type' is 'int'.")
        }

        if Self.isImplicitlyOptional(property) {
            if optional == false {
                throw Problem(property.type == .mixed
                    ? "'mixed' types are always optional and cannot be made non-optional."
                    : "User-defined types as standalone objects and in dictionaries are always optional and cannot be made non-optional.")
            }
            property.isOptional = true
        } else if Self.isImplicitlyRequired(property) {
            if optional == true {
                throw Problem("User-defined types in lists and sets are always non-optional and cannot be made optional.")
            }
            property.isOptional = false
        } else {
            property.isOptional = optional ?? false
        }

        property.index = index ?? IndexKind.none
        if isPrimaryKey {
            if index == IndexKind.none { throw Problem("Primary keys must always be indexed.") }
            if index == .fullText { throw Problem("Primary keys cannot be full-text indexed.") }
            if isCounter { throw Problem("Counters cannot be primary keys.") }
            property.index = .general
            property.isPrimaryKey = true
        }
        return property
    }

    private func expected(_ key: String, _ kind: String, got value: JSON) -> Problem {
        Problem("Expected '\(propertyName).\(key)' on '\(className)' to be \(kind), got \(value.javaScriptDescription)")
    }

    private func optionalString(_ key: String, in declaration: JSON) throws(Problem) -> String? {
        switch declaration[key] {
        case nil: return nil
        case .string(let value)?: return value
        case let other?: throw expected(key, "a string", got: other)
        }
    }

    private func optionalBool(_ key: String, in declaration: JSON) throws(Problem) -> Bool? {
        switch declaration[key] {
        case nil: return nil
        case .bool(let value)?: return value
        case let other?: throw expected(key, "a boolean", got: other)
        }
    }

    /// `type` and `objectType` take bare words in the long form: `"int[]"` or `"string?"` there is an error.
    private func rejectShorthand(in word: String?) throws(Problem) {
        guard var word, !word.isEmpty else { return }
        var shorthands: [String] = []
        if let (_, suffix) = Self.collectionSuffix(of: word) {
            shorthands.append(suffix)
            word = Self.droppingLast(2, of: word)
        }
        if word.utf8.last == UInt8(ascii: "?") { shorthands.append("?") }
        guard shorthands.isEmpty else {
            throw Problem("Cannot use shorthand '\(shorthands.joined(separator: "' and '"))' in 'type' or 'objectType' when defining property objects.")
        }
    }

    // MARK: - Words

    static func primitiveType(named word: String) -> PropertyType? {
        guard let type = PropertyType(rawValue: word), type != .object, type != .linkingObjects else { return nil }
        return type
    }

    static func collectionKind(named word: String) -> CollectionKind? {
        switch word {
        case "list": .list
        case "set": .set
        case "dictionary": .dictionary
        default: nil
        }
    }

    /// A class name: anything but a primitive, a collection name, `object`, `linkingObjects` or `counter`.
    static func isUserDefined(_ word: String) -> Bool {
        !word.isEmpty && primitiveType(named: word) == nil && collectionKind(named: word) == nil
            && word != "object" && word != "linkingObjects" && word != "counter"
    }

    static func collectionSuffix(of word: String) -> (CollectionKind, String)? {
        let bytes = Array(word.utf8.suffix(2))
        guard bytes.count == 2 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (UInt8(ascii: "["), UInt8(ascii: "]")): return (.list, "[]")
        case (UInt8(ascii: "{"), UInt8(ascii: "}")): return (.dictionary, "{}")
        case (UInt8(ascii: "<"), UInt8(ascii: ">")): return (.set, "<>")
        default: return nil
        }
    }

    /// Drops trailing ASCII suffix bytes, so the result is always valid UTF-8.
    static func droppingLast(_ count: Int, of word: String) -> String {
        String(decoding: word.utf8.dropLast(count), as: UTF8.self)
    }

    /// Links to a single object, dictionaries of objects and anything mixed can always hold null.
    static func isImplicitlyOptional(_ property: Property) -> Bool {
        property.type == .mixed || (property.type == .object && (property.collection == .single || property.collection == .dictionary))
    }

    /// Lists and sets of objects, and linking objects, never hold null.
    static func isImplicitlyRequired(_ property: Property) -> Bool {
        property.type == .linkingObjects || (property.type == .object && (property.collection == .list || property.collection == .set))
    }

    static func duplicateKeys(_ members: [(key: String, value: JSON)]) -> [String] {
        var seen: Set<String> = []
        var duplicates: [String] = []
        for member in members where !seen.insert(member.key).inserted && !duplicates.contains(member.key) {
            duplicates.append(member.key)
        }
        return duplicates
    }
}
