// MARK: Codable, as in Realm Swift
//
// `class Dog: Object, Codable` gets its conformance synthesized: each `@Persisted` property is
// coded through its storage (`Persisted: Codable`), collections as arrays and dictionaries. As in
// Realm Swift, decoding makes an unmanaged object, and synthesized encoding works for unmanaged
// objects (a managed object's storages do not know their object: give such a class its own
// `encode(to:)`, or encode an unmanaged copy, `Dog(value: managedDog)`).

extension Persisted: Decodable where Value: Decodable {
    /// The property's value from the decoder; a missing optional is nil (see
    /// `KeyedDecodingContainer.decode(_:forKey:)` below).
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(value: try container.decode(Value.self))
    }
}

extension Persisted: Encodable where Value: Encodable {
    /// The unmanaged value; a managed object's property is an error that says what to do, as in
    /// Realm Swift.
    public func encode(to encoder: Encoder) throws {
        guard cacheVersion == .max else {
            throw EncodingError.invalidValue(Value.self, .init(codingPath: encoder.codingPath, debugDescription: "Only unmanaged Realm objects can be encoded using automatic Codable synthesis. You must explicitly define encode(to:) on your model class to support managed Realm objects."))
        }
        var container = encoder.singleValueContainer()
        try container.encode(_current)
    }
}

/// A property wrapper whose value may be nil: a missing key decodes as nil (Realm Swift's
/// `OptionalCodingWrapper`).
public protocol OptionalCodingWrapper {
    associatedtype WrappedType: ExpressibleByNilLiteral
    init(wrappedValue: WrappedType)
}

extension Persisted: OptionalCodingWrapper where Value: ExpressibleByNilLiteral {}

extension KeyedDecodingContainer {
    /// A missing key of an optional `@Persisted` property decodes as nil.
    public func decode<T>(_ type: T.Type, forKey key: KeyedDecodingContainer<K>.Key) throws -> T where T: Decodable, T: OptionalCodingWrapper {
        try decodeIfPresent(T.self, forKey: key) ?? T(wrappedValue: nil)
    }
}

extension List: Decodable where Element: Decodable {
    /// An unmanaged list of the decoded elements (a JSON array).
    public convenience init(from decoder: Decoder) throws {
        self.init()
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd { append(try container.decode(Element.self)) }
    }
}

extension List: Encodable where Element: Encodable {
    public func encode(to encoder: Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in self { try container.encode(element) }
    }
}

extension MutableSet: Decodable where Element: Decodable {
    /// An unmanaged set of the decoded elements (a JSON array; duplicates are dropped).
    public convenience init(from decoder: Decoder) throws {
        self.init()
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd { insert(try container.decode(Element.self)) }
    }
}

extension MutableSet: Encodable where Element: Encodable {
    public func encode(to encoder: Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in self { try container.encode(element) }
    }
}

extension Map: Decodable where Key: Decodable, Value: Decodable {
    /// An unmanaged map of the decoded entries (a JSON object).
    public convenience init(from decoder: Decoder) throws {
        self.init()
        let container = try decoder.singleValueContainer()
        for (key, value) in try container.decode([Key: Value].self) { self[key] = value }
    }
}

extension Map: Encodable where Key: Encodable, Value: Encodable {
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(reduce(into: [Key: Value]()) { $0[$1.key] = $1.value })
    }
}

extension LinkingObjects: Encodable where Element: Encodable {
    public func encode(to encoder: Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in self { try container.encode(element) }
    }
}

extension Results: Encodable where Element: Encodable {
    public func encode(to encoder: Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in self { try container.encode(element) }
    }
}

extension AnyRealmValue: Codable {
    /// A JSON value as the mixed value it reads as: null, a bool, an integer, a double, a string,
    /// an array (`.list`) or an object (`.dictionary`).
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .none
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([AnyRealmValue].self) {
            self = .list(value)
        } else if let value = try? container.decode([String: AnyRealmValue].self) {
            self = .dictionary(value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Cannot decode an AnyRealmValue: expected null, a bool, a number, a string, an array or an object.")
        }
    }

    /// The value itself (an object as its encoding, when its class is `Encodable`).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .none: try container.encodeNil()
        case .int(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .float(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .data(let value): try container.encode(value)
        case .date(let value): try container.encode(value)
        case .objectId(let value): try container.encode(value)
        case .decimal128(let value): try container.encode(value)
        case .uuid(let value): try container.encode(value)
        case .list(let values): try container.encode(values)
        case .dictionary(let values): try container.encode(values)
        case .object(let object):
            guard let encodable = object as? any Encodable else {
                throw EncodingError.invalidValue(object, .init(codingPath: encoder.codingPath, debugDescription: "The object of an AnyRealmValue is not Encodable."))
            }
            try container.encode(encodable)
        }
    }
}
