internal import DrumlinEngine

/// Values of properties known only by name (dynamic objects, subscripts): engine values to Swift
/// values and back.
enum AnyConversion {
    static func swiftValue(_ value: EValue, _ context: _RealmContext?) -> Any? {
        switch value {
        case .null: return nil
        case .bool(let b): return b
        case .int(let i): return Int(i)
        case .float(let f): return f
        case .double(let d): return d
        case .decimal(let d): return Decimal128(raw: d)
        case .string(let s): return s
        case .data(let bytes): return Data(bytes)
        case .date(let t): return Date(timestamp: t)
        case .objectId(let id): return ObjectId(raw: id)
        case .uuid(let u): return UUID(uuidString: u.string)
        case .link(let link):
            guard let context else { return nil }
            return context.object(link, as: DynamicObject.self)
        case .list(let items): return items.map { swiftValue($0, context) }
        case .dictionary(let entries):
            var result: [String: Any?] = [:]
            for (key, item) in entries { result[key] = swiftValue(item, context) }
            return result
        }
    }

    static func engineValue(_ value: Any?, _ context: _RealmContext?) throws -> EValue {
        guard let value else { return .null }
        // The common types first: a cast to one type is cheap, a cast to a protocol is not.
        switch value {
        case let v as String: return .string(v)
        case let v as Int: return .int(Int64(v))
        case let v as Double: return .double(v)
        case let v as Bool: return .bool(v)
        default: break
        }
        if let optional = value as? any _OptionalProtocol {
            return optional._isNil ? .null : try engineValue(optional._unwrapped, context)
        }
        switch value {
        case let v as Bool: return .bool(v)
        case let v as Int: return .int(Int64(v))
        case let v as any BinaryInteger: return .int(Int64(v))
        case let v as Float: return .float(v)
        case let v as Double: return .double(v)
        case let v as Decimal128: return .decimal(v.raw)
        case let v as String: return .string(v)
        case let v as Data: return .data([UInt8](v))
        case let v as Date: return .date(v.timestamp)
        case let v as ObjectId: return .objectId(v.raw)
        case let v as UUID: return .uuid(UUIDValue(string: v.uuidString)!)
        case let v as AnyRealmValue: return try v._rlmToRaw(context).value
        case let v as ObjectBase:
            guard let context else { throw Realm.Error(.invalidArgument, "An object can be linked only from a managed object.") }
            return try context.linkValue(to: v)
        case let v as [Any?]: return .list(try v.map { try engineValue($0, context) })
        case let v as [String: Any?]:
            return .dictionary(try v.sorted { $0.key < $1.key }.map { ($0.key, try engineValue($0.value, context)) })
        default:
            throw Realm.Error(.typeMismatch, "Unsupported value '\(value)' of type \(type(of: value)).")
        }
    }
}
