import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// What the object verbs share (Database+Create.swift, +Read, +Update, +Delete, and the fast
/// paths beside them): the checks that a class may be written or read, property index checks,
/// the savepoint around writes of several statements, and the error for a deleted object.
extension Database {
    // MARK: Class checks

    func writableClass(_ className: String, mode: UpdateMode = .never) throws(DrumlinError) -> ClassInfo {
        let info = try classInfo(className)
        try checkWritable(info, mode: mode)
        return info
    }

    func checkWritable(_ info: ClassInfo, mode: UpdateMode = .never) throws(DrumlinError) {
        try requireWriteTransaction()
        if info.schema.kind == .asymmetric && mode != .never {
            throw DrumlinError(.notSupported, "Objects of asymmetric type '\(info.name)' are insert-only: the update modes (modified, all) are not supported.")
        }
        if info.isEmbedded {
            throw DrumlinError(.invalidArgument,
                             "Cannot create an object of embedded type '\(info.name)' on its own: assign it to a property of its parent.")
        }
    }

    /// Asymmetric objects are insert-only: they are never read back.
    func readableClass(_ className: String) throws(DrumlinError) -> ClassInfo {
        try readable(try classInfo(className))
    }

    func readable(_ info: ClassInfo) throws(DrumlinError) -> ClassInfo {
        if info.schema.kind == .asymmetric {
            throw DrumlinError(.notSupported, "Objects of asymmetric type '\(info.name)' are insert-only and cannot be read, queried, updated or deleted.")
        }
        return info
    }

    /// Runs a write in a savepoint when it may take more than one statement.
    func atomicallyIfNeeded<R>(_ info: ClassInfo, _ given: [(Int, Input)], _ connection: Connection,
                               _ body: () throws(DrumlinError) -> R) throws(DrumlinError) -> R {
        if info.hasRelationships || given.contains(where: { $0.1.hasNestedWrites }) {
            return try atomically(connection, body)
        }
        return try body()
    }

    // MARK: Payloads

    static func parsePayload(_ text: String) throws(DrumlinError) -> JSON {
        do throws(JSONParseError) {
            return try JSON.parse(text)
        } catch {
            throw DrumlinError(.invalidArgument, error.description)
        }
    }

    func checkIndex(_ info: ClassInfo, _ index: Int) throws(DrumlinError) {
        guard index >= 0, index < info.schema.properties.count else {
            throw DrumlinError(.invalidArgument,
                             "Property index \(index) is out of range for '\(info.name)' (\(info.schema.properties.count) properties).")
        }
    }

    /// Checks the property indexes a write is given: each in range, none twice.
    func checkWriteIndices<S: Sequence<Int>>(_ info: ClassInfo, _ indices: S) throws(DrumlinError) {
        var given = GivenProperties(info)
        for index in indices {
            try checkIndex(info, index)
            try markGiven(info, index, &given)
        }
    }

    /// The index of property `name` of `info`, as a payload names it (its public name exactly).
    func givenIndex(_ info: ClassInfo, named name: String) throws(DrumlinError) -> Int {
        guard let index = info.propertyIndex(name), info.propertyNames[index].isSameName(name) else { throw noSuchProperty(info, name) }
        return index
    }

    /// Marks property `index` as given in `given`; an error when it was given before.
    func markGiven(_ info: ClassInfo, _ index: Int, _ given: inout GivenProperties) throws(DrumlinError) {
        guard given.insert(index) else {
            throw DrumlinError(.invalidArgument, "Property '\(info.name).\(info.propertyNames[index])' is given more than once.")
        }
    }

    // MARK: Errors

    func invalidated(_ info: ClassInfo) -> DrumlinError {
        DrumlinError(.invalidatedObject, "Accessing object of type \(info.name) which has been invalidated or deleted")
    }
}

/// The properties of one class a write has given so far, to refuse one given twice: a bit per
/// property for classes of up to 64 (no allocation per object), else a flag per property.
struct GivenProperties {
    private var bits: UInt64 = 0
    private var flags: [Bool]

    init(_ info: ClassInfo) {
        let count = info.propertyNames.count
        flags = count > 64 ? [Bool](repeating: false, count: count) : []
    }

    /// Adds `index`; false when it was there already.
    mutating func insert(_ index: Int) -> Bool {
        if flags.isEmpty {
            let bit: UInt64 = 1 << UInt64(index)
            if bits & bit != 0 { return false }
            bits |= bit
            return true
        }
        if flags[index] { return false }
        flags[index] = true
        return true
    }
}
