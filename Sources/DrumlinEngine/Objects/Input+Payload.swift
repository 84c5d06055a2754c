/// Inputs from a payload already decoded into values (the packed bulk path: Python's `marshal`
/// rows with nested lists, dicts and tagged values). A payload of values means what the same
/// payload means as JSON (`decodePayload`), with the same checks and the same messages: in a link
/// position a dictionary is a nested object, a `.link` an existing object and any other scalar a
/// primary key; a list is a list or set, a dictionary a dictionary; values of mixed properties
/// may nest.
extension Database {
    /// The inputs of one nested object's properties (keys are property names).
    func decodePayload(_ info: ClassInfo, values entries: [(key: String, value: Value)]) throws(DrumlinError) -> [(Int, Input)] {
        var given: [(Int, Input)] = []
        given.reserveCapacity(entries.count)
        var seen = [Bool](repeating: false, count: info.propertyNames.count)
        for (name, value) in entries {
            guard let index = info.propertyIndex(name), info.propertyNames[index] == name else { throw noSuchProperty(info, name) }
            guard !seen[index] else {
                throw DrumlinError(.invalidArgument, "Property '\(info.name).\(name)' is given more than once.")
            }
            seen[index] = true
            given.append((index, try payloadInput(value, info, index)))
        }
        return given
    }

    /// One property's input from a payload value (as `decodeInput` from JSON).
    func payloadInput(_ value: Value, _ info: ClassInfo, _ index: Int) throws(DrumlinError) -> Input {
        let trait = info.traits[index]
        if trait.isColumn, trait.type != .object, trait.type != .mixed {
            let label = Label(className: info.name, propertyName: info.propertyNames[index])
            try Self.checkPayloadValue(value, label)
            return .value(try Self.coerceScalar(value, trait.type, optional: trait.isOptional, nested: false, label))
        }
        let property = info.property(index)
        let label = Self.label(info, property)
        if property.isComputed { throw DrumlinError(.invalidArgument, "Cannot modify read-only property \(label).") }
        switch property.collection {
        case .single:
            return try payloadElement(value, property, optional: property.isOptional, nested: property.type == .mixed, label)
        case .list, .set:
            guard case .list(let items) = value else {
                throw DrumlinError(.typeMismatch, "Type mismatch for property \(label): expected an array, got \(Self.jsonKindName(value)).")
            }
            var elements: [Input] = []
            elements.reserveCapacity(items.count)
            for item in items {
                elements.append(try payloadElement(item, property, optional: property.isOptional,
                                                   nested: property.type == .mixed && property.collection == .list, label))
            }
            return .elements(elements)
        case .dictionary:
            guard case .dictionary(let members) = value else {
                throw DrumlinError(.typeMismatch, "Type mismatch for property \(label): expected a JSON object, got \(Self.jsonKindName(value)).")
            }
            var entries: [(key: String, value: Input)] = []
            var keys = Set<String>()
            for (key, item) in members {
                try Self.checkDictionaryKey(key, label)
                guard keys.insert(key).inserted else {
                    throw DrumlinError(.invalidArgument, "Duplicate key '\(key)' for property \(label).")
                }
                entries.append((key, try payloadElement(item, property, optional: true, nested: property.type == .mixed, label)))
            }
            return .entries(entries)
        }
    }

    private func payloadElement(_ value: Value, _ property: Property, optional: Bool, nested: Bool,
                                _ label: Label) throws(DrumlinError) -> Input {
        if property.type == .object {
            switch value {
            case .null:
                guard optional || property.collection == .dictionary else {
                    throw DrumlinError(.notNullable, "Invalid null value for non-nullable property \(label).")
                }
                return .value(.null)
            case .dictionary(let members): return .objectValues(members)
            case .link: return .value(value)
            default:
                try Self.checkPayloadValue(value, label)
                return .primaryKey(value)
            }
        }
        try Self.checkPayloadValue(value, label)
        return .value(try Self.coerceScalar(value, property.type, optional: optional, nested: nested, label))
    }

    /// What reading the same value from JSON checks (`ExtendedJSON.mixedValue`): nesting depth,
    /// dictionary keys that Extended JSON could not read back, and links inside nested values.
    static func checkPayloadValue(_ value: Value, _ label: Label) throws(DrumlinError) {
        func check(_ value: Value, depth: Int) throws(DrumlinError) {
            switch value {
            case .list(let items):
                guard depth < ExtendedJSON.maximumMixedDepth else { throw ExtendedJSON.nestingLimit() }
                for item in items { try check(item, depth: depth + 1) }
            case .dictionary(let entries):
                guard depth < ExtendedJSON.maximumMixedDepth else { throw ExtendedJSON.nestingLimit() }
                var keys = Set<String>()
                for (key, item) in entries {
                    if key.hasPrefix("$") {
                        throw DrumlinError(.invalidArgument, "Invalid key '\(key)' in a dictionary of a mixed value: keys cannot start with '$' (objects with '$' keys are Extended JSON values such as {\"$oid\": ...}).")
                    }
                    guard keys.insert(key).inserted else { throw DrumlinError(.invalidArgument, "Duplicate key '\(key)' in a dictionary.") }
                    try check(item, depth: depth + 1)
                }
            case .link where depth > 0:
                throw DrumlinError(.notSupported, "A link cannot be stored inside a nested list or dictionary of a mixed value.")
            default:
                break
            }
        }
        switch value {
        case .list, .dictionary:
            do throws(DrumlinError) { try check(value, depth: 0) } catch {
                throw DrumlinError(error.code, "Property \(label): \(error.message)", sqliteCode: error.sqliteCode)
            }
        default:
            return
        }
    }

    /// The kind JSON would have called this value in a message: the same payload gives the same
    /// message on both paths.
    static func jsonKindName(_ value: Value) -> String {
        switch value {
        case .list: "array"
        case .dictionary, .decimal, .data, .date, .objectId, .uuid, .link: "object"
        case .float: "double"
        default: value.typeName
        }
    }
}
