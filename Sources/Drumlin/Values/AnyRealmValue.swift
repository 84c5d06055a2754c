internal import DrumlinEngine

/// A value of any type (Realm's mixed): `@Persisted var value: AnyRealmValue`.
public enum AnyRealmValue: Hashable {
    case none
    case int(Int)
    case bool(Bool)
    case float(Float)
    case double(Double)
    case string(String)
    case data(Data)
    case date(Date)
    case objectId(ObjectId)
    case decimal128(Decimal128)
    case uuid(UUID)
    /// A link to an object (read back as a `DynamicObject` unless the class is known).
    case object(ObjectBase)
    /// A nested list.
    indirect case list([AnyRealmValue])
    /// A nested dictionary.
    indirect case dictionary([String: AnyRealmValue])

    public var intValue: Int? { if case .int(let v) = self { return v }; return nil }
    public var boolValue: Bool? { if case .bool(let v) = self { return v }; return nil }
    public var floatValue: Float? { if case .float(let v) = self { return v }; return nil }
    public var doubleValue: Double? { if case .double(let v) = self { return v }; return nil }
    public var stringValue: String? { if case .string(let v) = self { return v }; return nil }
    public var dataValue: Data? { if case .data(let v) = self { return v }; return nil }
    public var dateValue: Date? { if case .date(let v) = self { return v }; return nil }
    public var objectIdValue: ObjectId? { if case .objectId(let v) = self { return v }; return nil }
    public var decimal128Value: Decimal128? { if case .decimal128(let v) = self { return v }; return nil }
    public var uuidValue: UUID? { if case .uuid(let v) = self { return v }; return nil }
    public var listValue: [AnyRealmValue]? { if case .list(let v) = self { return v }; return nil }
    public var dictionaryValue: [String: AnyRealmValue]? { if case .dictionary(let v) = self { return v }; return nil }
    public func object<T: ObjectBase>(_ objectType: T.Type) -> T? { if case .object(let v) = self { return v as? T }; return nil }
    public var dynamicObject: DynamicObject? { if case .object(let v) = self { return v as? DynamicObject }; return nil }

    public static func fromArray(_ array: [AnyRealmValue]) -> AnyRealmValue { .list(array) }
    public static func fromDictionary(_ dictionary: [String: AnyRealmValue]) -> AnyRealmValue { .dictionary(dictionary) }

    init(raw: EValue, _ context: _RealmContext?) {
        switch raw {
        case .null: self = .none
        case .bool(let v): self = .bool(v)
        case .int(let v): self = .int(Int(v))
        case .float(let v): self = .float(v)
        case .double(let v): self = .double(v)
        case .decimal(let v): self = .decimal128(Decimal128(raw: v))
        case .string(let v): self = .string(v)
        case .data(let v): self = .data(Data(v))
        case .date(let v): self = .date(Date(timestamp: v))
        case .objectId(let v): self = .objectId(ObjectId(raw: v))
        case .uuid(let v): self = UUID(uuidString: v.string).map { .uuid($0) } ?? .none
        case .link(let link):
            if let context {
                let type = context.handleClass(engineIndex: link.classIndex)?.meta.type ?? DynamicObject.self
                self = .object(context.object(link, as: type))
            } else {
                self = .none
            }
        case .list(let items): self = .list(items.map { AnyRealmValue(raw: $0, context) })
        case .dictionary(let entries):
            var result: [String: AnyRealmValue] = [:]
            for (key, value) in entries { result[key] = AnyRealmValue(raw: value, context) }
            self = .dictionary(result)
        }
    }

    var raw: EValue {
        get throws { try raw(in: nil) }
    }

    /// The engine value; an object must be a managed object of `context` (when given). Embedded,
    /// asymmetric and deleted objects are refused by the engine when the value is stored.
    func raw(in context: _RealmContext?) throws -> EValue {
            switch self {
            case .none: return .null
            case .int(let v): return .int(Int64(v))
            case .bool(let v): return .bool(v)
            case .float(let v): return .float(v)
            case .double(let v): return .double(v)
            case .string(let v): return .string(v)
            case .data(let v): return .data([UInt8](v))
            case .date(let v): return .date(v.timestamp)
            case .objectId(let v): return .objectId(v.raw)
            case .decimal128(let v): return .decimal(v.raw)
            case .uuid(let v): return .uuid(UUIDValue(string: v.uuidString)!)
            case .object(let object):
                guard let state = object._managedState else {
                    throw Realm.Error(.invalidArgument, "A mixed value can hold only a managed object: add the \(type(of: object)) object to the Realm first.")
                }
                if let context, state.context !== context {
                    throw Realm.Error(.invalidArgument, "A mixed value can hold only an object of its own Realm: the \(type(of: object)) object belongs to another Realm.")
                }
                return .link(ObjectLink(classIndex: state.object.classIndex, key: state.object.key))
            case .list(let items): return .list(try items.map { try $0.raw(in: context) })
            case .dictionary(let entries): return .dictionary(try entries.sorted { $0.key < $1.key }.map { ($0.key, try $0.value.raw(in: context)) })
            }
    }
}

extension AnyRealmValue: RealmCollectionValue {
    public static var _rlmShape: _PropertyShape { _PropertyShape("mixed", optional: true) }
    public static func _rlmDefaultValue() -> AnyRealmValue { .none }
    public static func _rlmFromRaw(_ raw: _RawValue, _ realm: _RealmContext?) -> AnyRealmValue { AnyRealmValue(raw: raw.value, realm) }
    public func _rlmToRaw(_ realm: _RealmContext?) throws -> _RawValue { _RawValue(try raw(in: realm)) }
    public static func _rlmFromAny(_ value: Any?) -> AnyRealmValue? {
        guard let value else { return AnyRealmValue.none }
        if let typed = value as? AnyRealmValue { return typed }
        guard let raw = try? AnyConversion.engineValue(value, nil) else { return nil }
        return AnyRealmValue(raw: raw, nil)
    }
}
