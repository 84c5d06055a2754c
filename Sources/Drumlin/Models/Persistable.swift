internal import DrumlinEngine

/// An engine value: what the persistable types convert to and from. Implementation detail of
/// `@Persisted`; not for use in application code.
public struct _RawValue {
    var value: EValue
    init(_ value: EValue) { self.value = value }
}

/// A value as a row read hands it over: numbers unboxed, text borrowed from the row (valid only
/// during the call that receives it). Implementation detail of `@Persisted`.
public struct _RawItem {
    var item: BorrowedValue
    init(_ item: BorrowedValue) { self.item = item }
    init(_ value: EValue) { item = .value(value) }
    /// The owned form (text checked as UTF-8).
    func raw() throws -> _RawValue { _RawValue(try item.value()) }
}

/// Where a property's type sits in the schema: the type word of the JSON schema, the linked
/// class, optionality and collection kind. Implementation detail of `@Persisted`.
public struct _PropertyShape {
    var type: String
    var objectType: ObjectBase.Type?
    var isOptional: Bool
    var collection: String?
    var isComputed: Bool = false

    init(_ type: String, objectType: ObjectBase.Type? = nil, optional: Bool = false, collection: String? = nil) {
        self.type = type
        self.objectType = objectType
        self.isOptional = optional
        self.collection = collection
    }

    /// Stored in the object's row (read with the row, written with `create`), not in a side table.
    var isRowValue: Bool { collection == nil && !isComputed }
}

/// A type that can be the value of a `@Persisted` property or an element of a Realm collection.
/// Drumlin provides the conformances (numbers, strings, dates, objects, optionals, collections,
/// `PersistableEnum`, `CustomPersistable`); the requirements are implementation details.
public protocol _Persistable {
    static var _rlmShape: _PropertyShape { get }
    /// The value of a property declared without an initial value.
    static func _rlmDefaultValue() -> Self
    /// Converts a stored value (never fails: the schema guarantees the type).
    static func _rlmFromRaw(_ raw: _RawValue, _ realm: _RealmContext?) -> Self
    /// Converts a stored value, nil when it does not convert (`FailableCustomPersistable`).
    static func _rlmFromRawIfPossible(_ raw: _RawValue, _ realm: _RealmContext?) -> Self?
    /// Converts a value as a row read hands it over (what a managed object's storages are loaded
    /// from); the plain types read it without making an owned engine value first.
    static func _rlmFromItem(_ item: _RawItem, _ realm: _RealmContext?) throws -> Self
    /// `_rlmFromItem`, nil when the value does not convert (`FailableCustomPersistable`).
    static func _rlmFromItemIfPossible(_ item: _RawItem, _ realm: _RealmContext?) throws -> Self?
    /// Converts a value given as `Any` (`init(value:)`, `create(_:value:)`, subscripts): the type
    /// itself, or a form that converts without loss (an `Int` for a `Double`, a dictionary for an
    /// object, an array for a list).
    static func _rlmFromAny(_ value: Any?) -> Self?
    /// The value a key-path recorder returns for this property (links return a recording object,
    /// so that paths through them are recorded too).
    static func _rlmRecordingValue(_ recorder: _KeyPathRecorder) -> Self
    /// Converts to a stored value; an unmanaged object in a link position is added to `realm`.
    func _rlmToRaw(_ realm: _RealmContext?) throws -> _RawValue
    /// Whether a managed object keeps values of this type in its storage between reads (values,
    /// not links, collections or mixed values).
    static var _rlmCacheable: Bool { get }
    /// Reads the property at `position` of a managed object.
    static func _rlmGet(_ object: ObjectBase, _ position: Int) -> Self
    /// Writes the property at `position` of a managed object (inside a write transaction).
    static func _rlmSet(_ object: ObjectBase, _ position: Int, _ value: Self) throws
}

extension _Persistable {
    public static var _rlmCacheable: Bool { false }

    public static func _rlmRecordingValue(_ recorder: _KeyPathRecorder) -> Self { _rlmDefaultValue() }

    public static func _rlmFromAny(_ value: Any?) -> Self? {
        guard let value else { return nil }
        if let typed = value as? Self { return typed }
        if let number = value as? any BinaryInteger {
            switch _rlmShape.type {
            case "int": return Self._rlmFromRawIfPossible(_RawValue(.int(Int64(number))), nil)
            case "double": return Self._rlmFromRawIfPossible(_RawValue(.double(Double(number))), nil)
            case "float": return Self._rlmFromRawIfPossible(_RawValue(.float(Float(number))), nil)
            default: return nil
            }
        }
        let floating: Double? = (value as? Double) ?? (value as? Float).map(Double.init)
        if let floating {
            switch _rlmShape.type {
            case "float": return Self._rlmFromRawIfPossible(_RawValue(.float(Float(floating))), nil)
            case "double": return Self._rlmFromRawIfPossible(_RawValue(.double(floating)), nil)
            // A whole number written as a floating-point literal (`["id": 1, "height": Float(1.5)]`
            // makes every number a Float) converts when nothing is lost.
            case "int": return Int64(exactly: floating).flatMap { Self._rlmFromRawIfPossible(_RawValue(.int($0)), nil) }
            default: return nil
            }
        }
        return nil
    }

    public static func _rlmFromRawIfPossible(_ raw: _RawValue, _ realm: _RealmContext?) -> Self? {
        _rlmFromRaw(raw, realm)
    }

    public static func _rlmFromItem(_ item: _RawItem, _ realm: _RealmContext?) throws -> Self {
        _rlmFromRaw(try item.raw(), realm)
    }

    public static func _rlmFromItemIfPossible(_ item: _RawItem, _ realm: _RealmContext?) throws -> Self? {
        try _rlmFromItem(item, realm)
    }

    public static func _rlmGet(_ object: ObjectBase, _ position: Int) -> Self {
        _rlmFromRaw(object._rowValue(position), object._context)
    }

    public static func _rlmSet(_ object: ObjectBase, _ position: Int, _ value: Self) throws {
        try object._setRowValue(position, value._rlmToRaw(object._context))
    }
}

/// A value stored as a primitive (everything but objects and collections).
public protocol _PersistablePrimitive: _Persistable {}

extension _PersistablePrimitive {
    public static var _rlmCacheable: Bool { true }
}

// MARK: - Primitive types

extension Bool: _PersistablePrimitive {
    public static var _rlmShape: _PropertyShape { _PropertyShape("bool") }
    public static func _rlmDefaultValue() -> Bool { false }
    public static func _rlmFromRaw(_ raw: _RawValue, _ realm: _RealmContext?) -> Bool {
        if case .bool(let b) = raw.value { return b }
        return false
    }
    public static func _rlmFromItem(_ item: _RawItem, _ realm: _RealmContext?) throws -> Bool {
        if case .bool(let b) = item.item { return b }
        return _rlmFromRaw(try item.raw(), realm)
    }
    public func _rlmToRaw(_ realm: _RealmContext?) throws -> _RawValue { _RawValue(.bool(self)) }
}

/// The integer types all store as `int` (64 bits); reads convert with truncation only if a value
/// written by another program does not fit.
public protocol _PersistableInteger: _PersistablePrimitive, FixedWidthInteger {}

extension _PersistableInteger {
    public static var _rlmShape: _PropertyShape { _PropertyShape("int") }
    public static func _rlmDefaultValue() -> Self { 0 }
    public static func _rlmFromRaw(_ raw: _RawValue, _ realm: _RealmContext?) -> Self {
        switch raw.value {
        case .int(let i): return Self(truncatingIfNeeded: i)
        case .double(let d): return Self(exactly: d) ?? 0
        default: return 0
        }
    }
    public static func _rlmFromItem(_ item: _RawItem, _ realm: _RealmContext?) throws -> Self {
        if case .int(let i) = item.item { return Self(truncatingIfNeeded: i) }
        return _rlmFromRaw(try item.raw(), realm)
    }
    public func _rlmToRaw(_ realm: _RealmContext?) throws -> _RawValue { _RawValue(.int(Int64(self))) }
}

extension Int: _PersistableInteger {}
extension Int8: _PersistableInteger {}
extension Int16: _PersistableInteger {}
extension Int32: _PersistableInteger {}
extension Int64: _PersistableInteger {}

extension Float: _PersistablePrimitive {
    public static var _rlmShape: _PropertyShape { _PropertyShape("float") }
    public static func _rlmDefaultValue() -> Float { 0 }
    public static func _rlmFromRaw(_ raw: _RawValue, _ realm: _RealmContext?) -> Float {
        switch raw.value {
        case .float(let f): return f
        case .double(let d): return Float(d)
        case .int(let i): return Float(i)
        default: return 0
        }
    }
    public func _rlmToRaw(_ realm: _RealmContext?) throws -> _RawValue { _RawValue(.float(self)) }
}

extension Double: _PersistablePrimitive {
    public static var _rlmShape: _PropertyShape { _PropertyShape("double") }
    public static func _rlmDefaultValue() -> Double { 0 }
    public static func _rlmFromRaw(_ raw: _RawValue, _ realm: _RealmContext?) -> Double {
        switch raw.value {
        case .double(let d): return d
        case .float(let f): return Double(f)
        case .int(let i): return Double(i)
        default: return 0
        }
    }
    public static func _rlmFromItem(_ item: _RawItem, _ realm: _RealmContext?) throws -> Double {
        if case .double(let d) = item.item { return d }
        return _rlmFromRaw(try item.raw(), realm)
    }
    public func _rlmToRaw(_ realm: _RealmContext?) throws -> _RawValue { _RawValue(.double(self)) }
}

extension String: _PersistablePrimitive {
    public static var _rlmShape: _PropertyShape { _PropertyShape("string") }
    public static func _rlmDefaultValue() -> String { "" }
    public static func _rlmFromRaw(_ raw: _RawValue, _ realm: _RealmContext?) -> String {
        if case .string(let s) = raw.value { return s }
        return ""
    }
    public static func _rlmFromItem(_ item: _RawItem, _ realm: _RealmContext?) throws -> String {
        if case .text(let bytes) = item.item {
            guard let text = UTF8Text.string(bytes.bindMemory(to: UInt8.self)) else {
                throw Realm.Error(.invalidArgument, "A string is not valid UTF-8.")
            }
            return text
        }
        return _rlmFromRaw(try item.raw(), realm)
    }
    public func _rlmToRaw(_ realm: _RealmContext?) throws -> _RawValue { _RawValue(.string(self)) }
}

extension Data: _PersistablePrimitive {
    public static var _rlmShape: _PropertyShape { _PropertyShape("data") }
    public static func _rlmDefaultValue() -> Data { Data() }
    public static func _rlmFromRaw(_ raw: _RawValue, _ realm: _RealmContext?) -> Data {
        if case .data(let bytes) = raw.value { return Data(bytes) }
        return Data()
    }
    public func _rlmToRaw(_ realm: _RealmContext?) throws -> _RawValue { _RawValue(.data([UInt8](self))) }
}

extension Date: _PersistablePrimitive {
    public static var _rlmShape: _PropertyShape { _PropertyShape("date") }
    /// Realm's default for a date declared without a value: the Unix epoch.
    public static func _rlmDefaultValue() -> Date { Date(timeIntervalSince1970: 0) }
    public static func _rlmFromRaw(_ raw: _RawValue, _ realm: _RealmContext?) -> Date {
        if case .date(let t) = raw.value { return Date(timestamp: t) }
        return Date(timeIntervalSince1970: 0)
    }
    public func _rlmToRaw(_ realm: _RealmContext?) throws -> _RawValue { _RawValue(.date(timestamp)) }
}

extension Date {
    /// Nanosecond precision both ways, as Realm stores dates.
    init(timestamp t: Timestamp) {
        self.init(timeIntervalSince1970: TimeInterval(t.seconds) + TimeInterval(t.nanoseconds) / 1e9)
    }

    var timestamp: Timestamp {
        let interval = timeIntervalSince1970
        var seconds = interval.rounded(.down)
        var nanos = ((interval - seconds) * 1e9).rounded()
        if nanos >= 1e9 { seconds += 1; nanos -= 1e9 }
        return Timestamp(seconds: Int64(seconds), nanoseconds: Int32(nanos))
    }
}

extension UUID: _PersistablePrimitive {
    public static var _rlmShape: _PropertyShape { _PropertyShape("uuid") }
    public static func _rlmDefaultValue() -> UUID { UUID() }
    public static func _rlmFromRaw(_ raw: _RawValue, _ realm: _RealmContext?) -> UUID {
        if case .uuid(let u) = raw.value { return UUID(uuidString: u.string) ?? UUID() }
        return UUID()
    }
    public func _rlmToRaw(_ realm: _RealmContext?) throws -> _RawValue {
        _RawValue(.uuid(UUIDValue(string: uuidString)!))
    }
}

extension ObjectId: _PersistablePrimitive {
    public static var _rlmShape: _PropertyShape { _PropertyShape("objectId") }
    /// A new unique id, as Realm gives a primary key declared without a value.
    public static func _rlmDefaultValue() -> ObjectId { .generate() }
    public static func _rlmFromRaw(_ raw: _RawValue, _ realm: _RealmContext?) -> ObjectId {
        if case .objectId(let id) = raw.value { return ObjectId(raw: id) }
        return ObjectId()
    }
    public func _rlmToRaw(_ realm: _RealmContext?) throws -> _RawValue { _RawValue(.objectId(raw)) }
}

extension Decimal128: _PersistablePrimitive {
    public static var _rlmShape: _PropertyShape { _PropertyShape("decimal128") }
    public static func _rlmDefaultValue() -> Decimal128 { Decimal128() }
    public static func _rlmFromRaw(_ raw: _RawValue, _ realm: _RealmContext?) -> Decimal128 {
        if case .decimal(let d) = raw.value { return Decimal128(raw: d) }
        return Decimal128()
    }
    public func _rlmToRaw(_ realm: _RealmContext?) throws -> _RawValue { _RawValue(.decimal(raw)) }
}

// MARK: - Optionals

extension Optional: _Persistable where Wrapped: _Persistable {
    public static var _rlmShape: _PropertyShape {
        var shape = Wrapped._rlmShape
        shape.isOptional = true
        return shape
    }
    public static func _rlmDefaultValue() -> Wrapped? { nil }
    public static func _rlmRecordingValue(_ recorder: _KeyPathRecorder) -> Wrapped? { Wrapped._rlmRecordingValue(recorder) }
    public static var _rlmCacheable: Bool { Wrapped._rlmCacheable }
    public static func _rlmFromAny(_ value: Any?) -> Wrapped?? {
        guard let value else { return .some(nil) }
        if let optional = value as? any _OptionalProtocol, optional._isNil { return .some(nil) }
        if value is NSNull { return .some(nil) }
        return Wrapped._rlmFromAny(value).map { .some($0) }
    }
    public static func _rlmFromRaw(_ raw: _RawValue, _ realm: _RealmContext?) -> Wrapped? {
        if case .null = raw.value { return nil }
        return Wrapped._rlmFromRawIfPossible(raw, realm)
    }
    public static func _rlmFromItem(_ item: _RawItem, _ realm: _RealmContext?) throws -> Wrapped? {
        switch item.item {
        case .null, .value(.null): return nil
        default: return try Wrapped._rlmFromItemIfPossible(item, realm)
        }
    }
    public static func _rlmSet(_ object: ObjectBase, _ position: Int, _ value: Wrapped?) throws {
        guard let value else { return try object._setRowValue(position, _RawValue(.null)) }
        try Wrapped._rlmSet(object, position, value)
    }
    public func _rlmToRaw(_ realm: _RealmContext?) throws -> _RawValue {
        guard let self else { return _RawValue(.null) }
        return try self._rlmToRaw(realm)
    }
}

extension Optional: _PersistablePrimitive where Wrapped: _PersistablePrimitive {}

// MARK: - Enums and custom types

/// An enum stored as its raw value (a string or an integer), as in Realm Swift:
/// `enum Status: String, PersistableEnum { case open, done }`. A property of the enum type
/// declared without a value starts at the first case.
public protocol PersistableEnum: _PersistablePrimitive, RawRepresentable, CaseIterable, Hashable
    where RawValue: _PersistablePrimitive {}

extension PersistableEnum {
    public static var _rlmShape: _PropertyShape { RawValue._rlmShape }
    public static func _rlmDefaultValue() -> Self { allCases.first! }
    public static func _rlmFromRaw(_ raw: _RawValue, _ realm: _RealmContext?) -> Self {
        Self(rawValue: RawValue._rlmFromRaw(raw, realm)) ?? allCases.first!
    }
    public func _rlmToRaw(_ realm: _RealmContext?) throws -> _RawValue { try rawValue._rlmToRaw(realm) }
    /// A stored value that is no case's raw value does not convert (a number given as `Any`
    /// converts through here too).
    public static func _rlmFromRawIfPossible(_ raw: _RawValue, _ realm: _RealmContext?) -> Self? {
        RawValue._rlmFromRawIfPossible(raw, realm).flatMap(Self.init(rawValue:))
    }
    /// The enum itself, or its raw value (Realm Swift stores the raw value, and takes it in
    /// `create(_:value:)` and `init(value:)`); a raw value of no case does not convert.
    public static func _rlmFromAny(_ value: Any?) -> Self? {
        guard let value else { return nil }
        if let typed = value as? Self { return typed }
        return RawValue._rlmFromAny(value).flatMap(Self.init(rawValue:))
    }
}

/// A type stored as another persistable type, converted both ways (Realm's "type projection"):
/// `extension URL: CustomPersistable { public typealias PersistedType = String ... }`.
public protocol CustomPersistable: _PersistablePrimitive {
    associatedtype PersistedType: _PersistablePrimitive
    init(persistedValue: PersistedType)
    var persistableValue: PersistedType { get }
}

extension CustomPersistable {
    public static var _rlmShape: _PropertyShape { PersistedType._rlmShape }
    public static func _rlmDefaultValue() -> Self { Self(persistedValue: PersistedType._rlmDefaultValue()) }
    public static func _rlmFromRaw(_ raw: _RawValue, _ realm: _RealmContext?) -> Self {
        Self(persistedValue: PersistedType._rlmFromRaw(raw, realm))
    }
    public func _rlmToRaw(_ realm: _RealmContext?) throws -> _RawValue { try persistableValue._rlmToRaw(realm) }
}

/// A `CustomPersistable` whose conversion from the stored value can fail. A stored value that
/// does not convert stops the program on read (as Realm Swift does); use an optional property to
/// read such values as nil instead.
public protocol FailableCustomPersistable: _PersistablePrimitive {
    associatedtype PersistedType: _PersistablePrimitive
    init?(persistedValue: PersistedType)
    var persistableValue: PersistedType { get }
}

extension FailableCustomPersistable {
    public static var _rlmShape: _PropertyShape { PersistedType._rlmShape }
    public static func _rlmDefaultValue() -> Self {
        guard let value = Self(persistedValue: PersistedType._rlmDefaultValue()) else {
            preconditionFailure("\(Self.self) has no value for the default \(PersistedType.self); give the property an initial value")
        }
        return value
    }
    public static func _rlmFromRawIfPossible(_ raw: _RawValue, _ realm: _RealmContext?) -> Self? {
        Self(persistedValue: PersistedType._rlmFromRaw(raw, realm))
    }
    public static func _rlmFromItemIfPossible(_ item: _RawItem, _ realm: _RealmContext?) throws -> Self? {
        Self(persistedValue: try PersistedType._rlmFromItem(item, realm))
    }
    public static func _rlmFromRaw(_ raw: _RawValue, _ realm: _RealmContext?) -> Self {
        let stored = PersistedType._rlmFromRaw(raw, realm)
        guard let value = Self(persistedValue: stored) else {
            preconditionFailure("Failed to convert persisted value '\(stored)' to type '\(Self.self)' in a non-optional context.")
        }
        return value
    }
    public func _rlmToRaw(_ realm: _RealmContext?) throws -> _RawValue { try persistableValue._rlmToRaw(realm) }
}
