internal import DrumlinEngine

/// How one value of a row read goes into a new managed object's storage. The common types are
/// stored straight into their `@Persisted` storage at its offset in the instance, from the value
/// as the row hands it over (no owned engine value, no closure call); the others, and values in
/// another form than the column's usual one, go through the storage's loader closure.
enum SlotLoad {
    case int(offset: Int)
    case bool(offset: Int)
    case double(offset: Int)
    case string(offset: Int)
    case optionalInt(offset: Int)
    case optionalBool(offset: Int)
    case optionalDouble(offset: Int)
    case optionalString(offset: Int)
    /// Only the loader closure.
    case general

    init(_ access: _StorageAccess) {
        let offset = access.offset
        switch access.valueType {
        case is Int.Type: self = .int(offset: offset)
        case is Bool.Type: self = .bool(offset: offset)
        case is Double.Type: self = .double(offset: offset)
        case is String.Type: self = .string(offset: offset)
        case is Int?.Type: self = .optionalInt(offset: offset)
        case is Bool?.Type: self = .optionalBool(offset: offset)
        case is Double?.Type: self = .optionalDouble(offset: offset)
        case is String?.Type: self = .optionalString(offset: offset)
        default: self = .general
        }
    }

    /// Stores `item` into `object`'s storage; false when this load does not take the item's form
    /// (the caller then uses the loader closure).
    @inline(__always)
    func store(_ item: BorrowedValue, into object: ObjectBase, version: UInt64) throws -> Bool {
        switch (self, item) {
        case (.int(let offset), .int(let i)): Self.set(Int(truncatingIfNeeded: i), object, offset, version)
        case (.bool(let offset), .bool(let b)): Self.set(b, object, offset, version)
        case (.double(let offset), .double(let d)): Self.set(d, object, offset, version)
        case (.string(let offset), .text(let bytes)): Self.set(try Self.text(bytes), object, offset, version)
        // An optional's storage is a `Persisted<T?>`: the value is set as a `T?`.
        case (.optionalInt(let offset), .int(let i)): Self.set(Int?(Int(truncatingIfNeeded: i)), object, offset, version)
        case (.optionalBool(let offset), .bool(let b)): Self.set(Bool?(b), object, offset, version)
        case (.optionalDouble(let offset), .double(let d)): Self.set(Double?(d), object, offset, version)
        case (.optionalString(let offset), .text(let bytes)): Self.set(String?(try Self.text(bytes)), object, offset, version)
        case (.optionalInt(let offset), .null): Self.set(Int?.none, object, offset, version)
        case (.optionalBool(let offset), .null): Self.set(Bool?.none, object, offset, version)
        case (.optionalDouble(let offset), .null): Self.set(Double?.none, object, offset, version)
        case (.optionalString(let offset), .null): Self.set(String?.none, object, offset, version)
        default:
            return false
        }
        return true
    }

    private static func text(_ bytes: UnsafeRawBufferPointer) throws -> String {
        guard let text = UTF8Text.string(bytes.bindMemory(to: UInt8.self)) else {
            throw Realm.Error(.invalidArgument, "A string is not valid UTF-8.")
        }
        return text
    }

    @inline(__always)
    private static func set<Value: _Persistable>(_ value: consuming Value, _ object: ObjectBase, _ offset: Int, _ version: UInt64) {
        let storage = Persisted<Value>._storage(of: object, at: offset)
        storage.pointee.value = consume value
        storage.pointee.cacheVersion = version
    }
}

extension SlotLoad {
    /// The current value of `object`'s storage in the form a bulk insert binds without
    /// converting (nil for `.general`: the caller converts through the storage's `raw` closure).
    /// For an unmanaged object (`add` reads its storages).
    @inline(__always)
    func item(of object: ObjectBase) -> BorrowedValue? {
        switch self {
        case .int(let offset): return .int(Int64(Persisted<Int>._storage(of: object, at: offset).pointee._current))
        case .bool(let offset): return .bool(Persisted<Bool>._storage(of: object, at: offset).pointee._current)
        case .double(let offset): return .double(Persisted<Double>._storage(of: object, at: offset).pointee._current)
        case .string(let offset): return .value(.string(Persisted<String>._storage(of: object, at: offset).pointee._current))
        case .optionalInt(let offset):
            return Persisted<Int?>._storage(of: object, at: offset).pointee._current.map { .int(Int64($0)) } ?? .null
        case .optionalBool(let offset):
            return Persisted<Bool?>._storage(of: object, at: offset).pointee._current.map { .bool($0) } ?? .null
        case .optionalDouble(let offset):
            return Persisted<Double?>._storage(of: object, at: offset).pointee._current.map { .double($0) } ?? .null
        case .optionalString(let offset):
            return Persisted<String?>._storage(of: object, at: offset).pointee._current.map { .value(.string($0)) } ?? .null
        case .general: return nil
        }
    }
}
