import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// What a write assigns to one property, decoded and type-checked but not yet stored. Links may
/// still need their target created (`object`) or looked up (`primaryKey`). (Not `indirect`: the
/// recursive cases hold arrays, so an input needs no box of its own.)
enum Input {
    /// A checked scalar, a mixed value (possibly nested), a `.link` to an existing object, or null.
    case value(Value)
    /// A checked value of a scalar column or collection element as its column stores it (a
    /// decimal may be its canonical text), its text or bytes borrowed from a bulk call's input
    /// (the packed path in `.never` mode: valid until the call returns).
    case column(BorrowedValue)
    /// A nested object payload: created, or upserted in the update modes when its type has a
    /// primary key. For an embedded type, always a new embedded object.
    case object(JSON)
    /// The same as `object`, from a payload of values (the packed bulk path).
    case objectValues([(key: String, value: Value)])
    /// The same as `object`, its properties' inputs already decoded (the packed bulk path).
    case objectInputs([(Int, Input)])
    /// An existing object by primary key (by object key for types without one).
    case primaryKey(Value)
    /// The elements of a list or set.
    case elements([Input])
    /// The entries of a dictionary.
    case entries([(key: String, value: Input)])

    var hasNestedWrites: Bool {
        switch self {
        case .value(let value): if case .list = value { return true }; if case .dictionary = value { return true }; return false
        case .column: return false
        case .object, .objectValues, .objectInputs, .primaryKey, .elements, .entries: return true
        }
    }
}

extension Database {
    static func label(_ info: ClassInfo, _ property: Property) -> Label { Label(className: info.name, propertyName: property.name) }

    /// Decodes a JSON object into inputs by property index.
    func decodePayload(_ info: ClassInfo, _ json: JSON) throws(DrumlinError) -> [(Int, Input)] {
        guard case .object(let members) = json, (try? ExtendedJSON.wrapped(json)) == nil else {
            throw DrumlinError(.invalidArgument, "Expected a JSON object for '\(info.name)', got \(json.kindName).")
        }
        var given: [(Int, Input)] = []
        given.reserveCapacity(members.count)
        var seen = GivenProperties(info)
        var expected = 0
        for (name, valueJSON) in members {
            // Payloads usually list properties in schema order: try the next one before hashing.
            let index: Int
            if expected < info.propertyNames.count, info.propertyNames[expected].isSameName(name) {
                index = expected
            } else {
                index = try givenIndex(info, named: name)
            }
            expected = index + 1
            try markGiven(info, index, &seen)
            let trait = info.traits[index]
            if trait.isColumn, trait.type != .object, trait.type != .mixed, !Self.isLinkJSON(valueJSON) {
                // The common case, without copying the Property: a scalar column.
                let value = try Self.decodeValue(valueJSON, Label(className: info.name, propertyName: name))
                given.append((index, .value(try Coercion.scalar(value, trait.type, optional: trait.isOptional, nested: false,
                                                                 Label(className: info.name, propertyName: name)))))
                continue
            }
            given.append((index, try decodeInput(valueJSON, info, index)))
        }
        return given
    }

    func decodeInput(_ json: JSON, _ info: ClassInfo, _ index: Int) throws(DrumlinError) -> Input {
        let property = info.property(index)
        let label = Self.label(info, property)
        if property.isComputed { throw DrumlinError(.invalidArgument, "Cannot modify read-only property \(label).") }
        switch property.collection {
        case .single:
            return try decodeElement(json, info, property, optional: property.isOptional, nested: property.type == .mixed)
        case .list, .set:
            guard case .array(let items) = json else {
                throw DrumlinError(.typeMismatch, "Type mismatch for property \(label): expected an array, got \(json.kindName).")
            }
            var elements: [Input] = []
            elements.reserveCapacity(items.count)
            for item in items {
                elements.append(try decodeElement(item, info, property, optional: property.isOptional,
                                                  nested: property.type == .mixed && property.collection == .list))
            }
            return .elements(elements)
        case .dictionary:
            guard case .object(let members) = json, (try? ExtendedJSON.wrapped(json)) == nil else {
                throw DrumlinError(.typeMismatch, "Type mismatch for property \(label): expected a JSON object, got \(json.kindName).")
            }
            var entries: [(key: String, value: Input)] = []
            var keys = Set<String>()
            for (key, item) in members {
                try Self.checkDictionaryKey(key, label)
                guard keys.insert(key).inserted else {
                    throw DrumlinError(.invalidArgument, "Duplicate key '\(key)' for property \(label).")
                }
                entries.append((key, try decodeElement(item, info, property, optional: true, nested: property.type == .mixed)))
            }
            return .entries(entries)
        }
    }

    /// Realm's dictionary key rules: not empty... keys may be any string but cannot contain '.'
    /// or start with '$' (they would be ambiguous in query paths and Extended JSON).
    static func checkDictionaryKey(_ key: String, _ label: Label) throws(DrumlinError) {
        if key.contains(".") || key.hasPrefix("$") {
            throw DrumlinError(.invalidArgument, "Invalid key '\(key)' for dictionary property \(label): keys cannot contain '.' or start with '$'.")
        }
    }

    /// One value (a single property's, or one element of a collection). `{"$link": {"class":
    /// ..., "key": ...}}` names an existing object wherever a value goes, as a typed `.link`
    /// does: checked as one (a link position checks the class and that the object exists; any
    /// other type refuses it as a type mismatch).
    private func decodeElement(_ json: JSON, _ info: ClassInfo, _ property: Property, optional: Bool,
                               nested: Bool) throws(DrumlinError) -> Input {
        let label = Self.label(info, property)
        if case .object(let members) = json, Self.isLinkJSON(json) {
            let link: ObjectLink
            do throws(DrumlinError) {
                link = try linkJSON(members[0].value)
            } catch {
                throw DrumlinError(error.code, "Property \(label): \(error.message)")
            }
            if property.type == .object || property.type == .mixed { return .value(.link(link)) }
            return .value(try Coercion.scalar(.link(link), property.type, optional: optional, nested: nested, label))
        }
        if property.type == .object {
            switch json {
            case .null:
                guard optional || property.collection == .dictionary else {
                    throw DrumlinError(.notNullable, "Invalid null value for non-nullable property \(label).")
                }
                return .value(.null)
            case .object:
                if let key = try ExtendedJSON.wrapped(json) { return .primaryKey(key) }
                return .object(json)
            default:
                return .primaryKey(try Self.decodeValue(json, label))
            }
        }
        let value = property.type == .mixed ? try decodeMixed(json, label) : try Self.decodeValue(json, label)
        return .value(try Coercion.scalar(value, property.type, optional: optional, nested: nested, label))
    }

    /// A mixed value, with `{"$link": ...}` naming an object at any depth of its nested lists
    /// and dictionaries.
    func decodeMixed(_ json: JSON, _ label: Label) throws(DrumlinError) -> Value {
        do throws(DrumlinError) {
            return try mixedValue(extendedJSON: json)
        } catch {
            throw DrumlinError(error.code, "Property \(label): \(error.message)")
        }
    }

    static func decodeValue(_ json: JSON, _ label: Label) throws(DrumlinError) -> Value {
        do throws(DrumlinError) {
            return try ExtendedJSON.mixedValue(json)
        } catch {
            throw DrumlinError(error.code, "Property \(label): \(error.message)")
        }
    }

    /// How a value given for a property is read. `.typed`: as the Swift and C APIs give it, links
    /// as `.link` values. `.payload`: as a decoded payload (Python's packed rows), which means what
    /// the same payload means as JSON, with the JSON path's messages: in a link position a
    /// dictionary is a nested object, a `.link` an existing object and another scalar a primary
    /// key (see Input+Payload.swift).
    enum ValueForm {
        case typed
        case payload
    }

    /// The input of one property from a value in `form`.
    func input(from value: Value, _ info: ClassInfo, _ index: Int, form: ValueForm = .typed) throws(DrumlinError) -> Input {
        let trait = info.traits[index]
        if trait.isColumn, trait.type != .object, trait.type != .mixed {
            let label = Label(className: info.name, propertyName: info.propertyNames[index])
            if form == .payload { try Self.checkPayloadValue(value, label) }
            return .value(try Coercion.scalar(value, trait.type, optional: trait.isOptional, nested: false, label))
        }
        // The property's traits, not its `Property` (a copy of its strings per value).
        let property = trait
        let label = Label(className: info.name, propertyName: info.propertyNames[index])
        if property.isComputed { throw DrumlinError(.invalidArgument, "Cannot modify read-only property \(label).") }
        // The payload form names kinds as JSON does, so both paths give one message.
        func mismatch(_ typed: String, _ json: String) -> DrumlinError {
            form == .typed
                ? DrumlinError(.typeMismatch, "Type mismatch for property \(label): expected \(typed), got \(value.typeName).")
                : DrumlinError(.typeMismatch, "Type mismatch for property \(label): expected \(json), got \(Self.jsonKindName(value)).")
        }
        switch property.collection {
        case .single:
            return try element(value, info, index, optional: property.isOptional, nested: property.type == .mixed, label, form)
        case .list, .set:
            guard case .list(let items) = value else { throw mismatch("a list", "an array") }
            var elements: [Input] = []
            elements.reserveCapacity(items.count)
            for item in items {
                elements.append(try element(item, info, index, optional: property.isOptional,
                                            nested: property.type == .mixed && property.collection == .list, label, form))
            }
            return .elements(elements)
        case .dictionary:
            guard case .dictionary(let entries) = value else { throw mismatch("a dictionary", "a JSON object") }
            var result: [(key: String, value: Input)] = []
            var keys = Set<String>()
            for (key, item) in entries {
                try Self.checkDictionaryKey(key, label)
                guard keys.insert(key).inserted else { throw DrumlinError(.invalidArgument, "Duplicate key '\(key)' for property \(label).") }
                result.append((key, try element(item, info, index, optional: true, nested: property.type == .mixed, label, form)))
            }
            return .entries(result)
        }
    }

    private func element(_ value: Value, _ info: ClassInfo, _ index: Int, optional: Bool, nested: Bool,
                         _ label: Label, _ form: ValueForm) throws(DrumlinError) -> Input {
        let property = info.traits[index]
        if property.type == .object {
            switch value {
            case .null:
                guard optional || property.collection == .dictionary else {
                    throw DrumlinError(.notNullable, "Invalid null value for non-nullable property \(label).")
                }
                return .value(.null)
            case .link: return .value(value)
            // A dictionary is a new object of the target class, from its values (an embedded
            // object, as the Swift face gives one with its parent's row).
            case .dictionary(let members): return .objectValues(members)
            default:
                guard form == .payload else {
                    throw DrumlinError(.typeMismatch, "Type mismatch for property \(label): expected a link to '\(info.property(index).objectType ?? "")', got \(value.typeName).")
                }
                try Self.checkPayloadValue(value, label)
                return .primaryKey(value)
            }
        }
        switch form {
        case .typed: if nested, Self.nestingDepth(value) > ExtendedJSON.maximumMixedDepth { throw ExtendedJSON.nestingLimit() }
        case .payload: try Self.checkPayloadValue(value, label)
        }
        return .value(try Coercion.scalar(value, property.type, optional: optional, nested: nested, label))
    }

    static func nestingDepth(_ value: Value) -> Int {
        switch value {
        case .list(let items): return 1 + (items.map(nestingDepth).max() ?? 0)
        case .dictionary(let entries): return 1 + (entries.map { nestingDepth($0.value) }.max() ?? 0)
        default: return 0
        }
    }

    /// The default of a property as an input (defaults were validated at open).
    func defaultInput(_ info: ClassInfo, _ index: Int) -> Input? {
        guard let json = info.property(index).defaultValue else { return nil }
        return try? decodeInput(json, info, index)
    }
}
