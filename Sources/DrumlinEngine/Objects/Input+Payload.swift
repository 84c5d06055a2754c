import DrumlinSchema
import DrumlinStorage
import DrumlinValues

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
            given.append((index, try input(from: value, info, index, form: .payload)))
        }
        return given
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
