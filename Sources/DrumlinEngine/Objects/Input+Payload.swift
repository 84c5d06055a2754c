import Glibc
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
        var seen = GivenProperties(info)
        for (name, value) in entries {
            let index = try givenIndex(info, named: name)
            try markGiven(info, index, &seen)
            given.append((index, try input(from: value, info, index, form: .payload)))
        }
        return given
    }

    /// The input of property `index` read from packed rows (Python's `marshal`, see
    /// `createMany(classIndex:propertyIndices:marshal:)`): what `input(from:form: .payload)`
    /// makes of the value read, with the same checks and messages. With `borrowing` (a create
    /// in `.never` mode, whose rows are all written before the call returns), a scalar column,
    /// the elements of a list of scalars and an object given as a dict are read in place:
    /// checked by `checkedColumn`, their text left in the input, no `Value` built for them. A
    /// `.column` holds the value as its column stores it: a decimal's canonical text as text.
    /// Errors of reading name the top-level property `top` (this one by default).
    func input(reading reader: inout MarshalReader, _ info: ClassInfo, _ index: Int, borrowing: Bool,
               naming top: (info: ClassInfo, index: Int)? = nil) throws(DrumlinError) -> Input {
        let top = top ?? (info, index)
        let trait = info.traits[index]
        if borrowing, trait.type != .object, trait.type != .mixed, !trait.isComputed {
            if trait.isColumn {
                // A decimal column stores the decimal's canonical text: given so, it is stored
                // as it is (no parse and print).
                if trait.type == .decimal128, let text = reader.canonicalDecimalText() { return .column(.text(text)) }
                let item: BorrowedValue
                do throws(DrumlinError) { item = try reader.item() } catch { throw Self.readingError(error, top.info, top.index) }
                return .column(try checkedColumn(item, trait.type, optional: trait.isOptional,
                                                 Label(className: info.name, propertyName: info.propertyNames[index])))
            }
            if trait.collection == .list, let count = try reader.openList() {
                var elements: [Input] = []
                elements.reserveCapacity(Swift.min(count, 1024))
                for _ in 0..<count {
                    let item: BorrowedValue
                    do throws(DrumlinError) { item = try reader.item() } catch { throw Self.readingError(error, top.info, top.index) }
                    elements.append(.column(try checkedColumn(item, trait.type, optional: trait.isOptional,
                                                              Label(className: info.name, propertyName: info.propertyNames[index]))))
                }
                return .elements(elements)
            }
        }
        if borrowing, trait.type == .object, trait.collection == .single, let target = info.targets[index], reader.openDictionary() {
            return .objectInputs(try decodePayload(target, reading: &reader, naming: top))
        }
        let value: Value
        do throws(DrumlinError) { value = try reader.item().value() } catch { throw Self.readingError(error, top.info, top.index) }
        return try input(from: value, info, index, form: .payload)
    }

    /// The inputs of a nested object's properties read in place from a dict of packed rows
    /// opened with `openDictionary` (what `decodePayload(_:values:)` makes of the same dict).
    private func decodePayload(_ info: ClassInfo, reading reader: inout MarshalReader,
                               naming top: (info: ClassInfo, index: Int)) throws(DrumlinError) -> [(Int, Input)] {
        var given: [(Int, Input)] = []
        given.reserveCapacity(info.propertyNames.count)   // one allocation, not one per doubling
        var seen = GivenProperties(info)
        var expected = 0
        while true {
            let key: UnsafeRawBufferPointer
            do throws(DrumlinError) {
                guard let next = try reader.dictionaryKey() else { break }
                key = next
            } catch {
                throw Self.readingError(error, top.info, top.index)
            }
            // Payloads usually list properties in schema order: try the next one before decoding the name.
            let index: Int
            if expected < info.propertyNames.count, Self.equal(info.propertyNames[expected], key) {
                index = expected
            } else {
                guard let name = UTF8Text.string(key.bindMemory(to: UInt8.self)) else {
                    throw Self.readingError(DrumlinError(.invalidArgument, "A string is not valid UTF-8."), top.info, top.index)
                }
                index = try givenIndex(info, named: name)
            }
            expected = index + 1
            try markGiven(info, index, &seen)
            given.append((index, try input(reading: &reader, info, index, borrowing: true, naming: top)))
        }
        return given
    }

    /// Whether a name's UTF-8 is `bytes`.
    private static func equal(_ name: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var name = name
        return name.withUTF8 { utf8 in
            utf8.count == bytes.count && (utf8.count == 0 || memcmp(utf8.baseAddress!, bytes.baseAddress!, utf8.count) == 0)
        }
    }

    /// An error of reading packed rows named by the property read, as the JSON path names it:
    /// a Python value of a kind no property takes is a type mismatch; a value that cannot be
    /// read (an integer out of range, a decimal's text) is the property's.
    static func readingError(_ error: DrumlinError, _ info: ClassInfo, _ index: Int) -> DrumlinError {
        let name = "'\(info.name).\(info.propertyNames[index])'"
        switch error.code {
        case .typeMismatch:
            return DrumlinError(.typeMismatch, "Type mismatch for property \(name): expected \(info.traits[index].type.rawValue), got \(error.message).")
        case .invalidArgument where !error.message.hasPrefix("Invalid marshal data"):
            return DrumlinError(.invalidArgument, "Property \(name): \(error.message)")
        default:
            return error
        }
    }

    /// What reading the same value from JSON checks (`ExtendedJSON.mixedValue`): nesting depth,
    /// and dictionary keys that Extended JSON could not read back.
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
