import DrumlinEngine
import CDrumlinHeader
#if canImport(Glibc)
import Glibc
#endif

/// Converts a `drumlin_value` passed in by a caller into an engine `Value` (copying every byte).
func value(from c: drumlin_value) throws(DrumlinError) -> Value {
    switch c.type {
    case DRUMLIN_TYPE_NULL: return .null
    case DRUMLIN_TYPE_INT: return .int(c.`as`.integer)
    case DRUMLIN_TYPE_BOOL: return .bool(c.`as`.boolean != 0)
    case DRUMLIN_TYPE_FLOAT: return .float(c.`as`.fnum)
    case DRUMLIN_TYPE_DOUBLE: return .double(c.`as`.dnum)
    case DRUMLIN_TYPE_STRING:
        let s = c.`as`.string
        if s.size == 0 { return .string("") }
        guard let data = s.data else { throw misuse("A string value has a NULL data pointer and a non-zero size.") }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: s.size)
        guard let text = UTF8Text.string(bytes) else {
            throw DrumlinError(.invalidArgument, "A string value is not valid UTF-8.")
        }
        return .string(text)
    case DRUMLIN_TYPE_BINARY:
        let b = c.`as`.binary
        if b.size == 0 { return .data([]) }
        guard let data = b.data else { throw misuse("A binary value has a NULL data pointer and a non-zero size.") }
        return .data(Array(UnsafeBufferPointer(start: data, count: b.size)))
    case DRUMLIN_TYPE_TIMESTAMP:
        let t = c.`as`.timestamp
        guard t.nanoseconds >= 0, t.nanoseconds < 1_000_000_000 else {
            throw DrumlinError(.invalidArgument, "A timestamp's nanoseconds must be in 0...999999999, got \(t.nanoseconds).")
        }
        return .date(Timestamp(seconds: t.seconds, nanoseconds: t.nanoseconds))
    case DRUMLIN_TYPE_DECIMAL128:
        return .decimal(Decimal128(high: c.`as`.decimal128.w.1, low: c.`as`.decimal128.w.0))
    case DRUMLIN_TYPE_OBJECT_ID:
        var bytes = c.`as`.object_id.bytes
        let oid = withUnsafeBytes(of: &bytes) { ObjectId(bytes: $0) }
        guard let oid else { throw DrumlinError(.internal, "ObjectId conversion failed.") }
        return .objectId(oid)
    case DRUMLIN_TYPE_UUID:
        var bytes = c.`as`.uuid.bytes
        let uuid = withUnsafeBytes(of: &bytes) { UUIDValue(bytes: $0) }
        guard let uuid else { throw DrumlinError(.internal, "UUID conversion failed.") }
        return .uuid(uuid)
    case DRUMLIN_TYPE_LINK:
        return .link(ObjectLink(classIndex: Int(c.`as`.link.class_index), key: c.`as`.link.key))
    default:
        throw DrumlinError(.invalidArgument, "Unknown drumlin_value type \(c.type).")
    }
}

/// Converts a caller's `drumlin_value` without copying: strings and binaries stay borrowed from
/// the caller (for the bulk path, which binds them before returning).
func borrowed(from c: drumlin_value) throws(DrumlinError) -> BorrowedValue {
    switch c.type {
    case DRUMLIN_TYPE_NULL: return .null
    case DRUMLIN_TYPE_INT: return .int(c.`as`.integer)
    case DRUMLIN_TYPE_BOOL: return .bool(c.`as`.boolean != 0)
    case DRUMLIN_TYPE_DOUBLE: return .double(c.`as`.dnum)
    case DRUMLIN_TYPE_STRING:
        let s = c.`as`.string
        if s.size == 0 { return .text(UnsafeRawBufferPointer(start: nil, count: 0)) }
        guard let data = s.data else { throw misuse("A string value has a NULL data pointer and a non-zero size.") }
        return .text(UnsafeRawBufferPointer(start: data, count: s.size))
    case DRUMLIN_TYPE_BINARY:
        let b = c.`as`.binary
        if b.size == 0 { return .bytes(UnsafeRawBufferPointer(start: nil, count: 0)) }
        guard let data = b.data else { throw misuse("A binary value has a NULL data pointer and a non-zero size.") }
        return .bytes(UnsafeRawBufferPointer(start: data, count: b.size))
    default:
        return .value(try value(from: c))
    }
}

/// Writes an engine `Value` into a caller's `drumlin_value`. Strings and binaries are copied into
/// buffers owned by `handle` (borrowed by the caller until the next call on it).
func store(_ value: Value, into out: UnsafeMutablePointer<drumlin_value>, borrowing handle: BorrowingHandle) throws(DrumlinError) {
    var c = drumlin_value()
    switch value {
    case .null: c.type = DRUMLIN_TYPE_NULL
    case .int(let i): c.type = DRUMLIN_TYPE_INT; c.`as`.integer = i
    case .bool(let b): c.type = DRUMLIN_TYPE_BOOL; c.`as`.boolean = b ? 1 : 0
    case .float(let f): c.type = DRUMLIN_TYPE_FLOAT; c.`as`.fnum = f
    case .double(let d): c.type = DRUMLIN_TYPE_DOUBLE; c.`as`.dnum = d
    case .string(var s):
        c.type = DRUMLIN_TYPE_STRING
        guard let (pointer, count) = s.withUTF8({ copy(UnsafeRawBufferPointer($0), handle) }) else { throw outOfMemory() }
        c.`as`.string = drumlin_string(data: pointer.assumingMemoryBound(to: CChar.self), size: count)
    case .data(let bytes):
        c.type = DRUMLIN_TYPE_BINARY
        guard let (pointer, count) = bytes.withUnsafeBytes({ copy($0, handle) }) else { throw outOfMemory() }
        c.`as`.binary = drumlin_binary(data: UnsafePointer(pointer.assumingMemoryBound(to: UInt8.self)), size: count)
    case .date(let t):
        c.type = DRUMLIN_TYPE_TIMESTAMP
        c.`as`.timestamp = drumlin_timestamp(seconds: t.seconds, nanoseconds: t.nanoseconds)
    case .decimal(let d):
        c.type = DRUMLIN_TYPE_DECIMAL128
        c.`as`.decimal128.w = (d.low, d.high)
    case .objectId(let oid):
        c.type = DRUMLIN_TYPE_OBJECT_ID
        withUnsafeMutableBytes(of: &c.`as`.object_id.bytes) { $0.copyBytes(from: oid.bytes) }
    case .uuid(let uuid):
        c.type = DRUMLIN_TYPE_UUID
        withUnsafeMutableBytes(of: &c.`as`.uuid.bytes) { $0.copyBytes(from: uuid.bytes) }
    case .link(let link):
        c.type = DRUMLIN_TYPE_LINK
        c.`as`.link = drumlin_link(class_index: Int32(truncatingIfNeeded: link.classIndex), key: link.key)
    case .list:
        c.type = DRUMLIN_TYPE_LIST
    case .dictionary:
        c.type = DRUMLIN_TYPE_DICTIONARY
    }
    out.pointee = c
}

/// Copies bytes into `handle`'s arena (borrowed by the caller until the next call on it).
private func copy(_ bytes: UnsafeRawBufferPointer, _ handle: BorrowingHandle) -> (UnsafeMutableRawPointer, Int)? {
    handle.lend(bytes).map { ($0, bytes.count) }
}

/// Writes a borrowed value into a caller's `drumlin_value`, copying text and bytes into `handle`.
func store(_ value: BorrowedValue, into out: UnsafeMutablePointer<drumlin_value>, borrowing handle: BorrowingHandle) throws(DrumlinError) {
    var c = drumlin_value()
    switch value {
    case .null: c.type = DRUMLIN_TYPE_NULL
    case .int(let i): c.type = DRUMLIN_TYPE_INT; c.`as`.integer = i
    case .bool(let b): c.type = DRUMLIN_TYPE_BOOL; c.`as`.boolean = b ? 1 : 0
    case .double(let d): c.type = DRUMLIN_TYPE_DOUBLE; c.`as`.dnum = d
    case .text(let bytes):
        guard let pointer = handle.lend(bytes) else { throw outOfMemory() }
        c.type = DRUMLIN_TYPE_STRING
        c.`as`.string = drumlin_string(data: pointer.assumingMemoryBound(to: CChar.self), size: bytes.count)
    case .bytes(let bytes):
        guard let pointer = handle.lend(bytes) else { throw outOfMemory() }
        c.type = DRUMLIN_TYPE_BINARY
        c.`as`.binary = drumlin_binary(data: UnsafePointer(pointer.assumingMemoryBound(to: UInt8.self)), size: bytes.count)
    case .value(let value):
        try store(value, into: out, borrowing: handle)
        return
    }
    out.pointee = c
}

/// Reads `count` values from a caller's array.
func values(_ pointer: UnsafePointer<drumlin_value>?, _ count: Int) throws(DrumlinError) -> [Value] {
    guard count > 0 else { return [] }
    guard let pointer else { throw misuse("values must not be NULL when count is not 0.") }
    var result: [Value] = []
    result.reserveCapacity(count)
    for i in 0..<count { result.append(try value(from: pointer[i])) }
    return result
}

func indices(_ pointer: UnsafePointer<Int32>?, _ count: Int) throws(DrumlinError) -> [Int] {
    guard count > 0 else { return [] }
    guard let pointer else { throw misuse("property_indices must not be NULL when count is not 0.") }
    if let existing = pthread_getspecific(indicesMemoKey) {
        return Unmanaged<IndicesMemo>.fromOpaque(existing)._withUnsafeGuaranteedRef { $0.indices(pointer, count) }
    }
    let memo = IndicesMemo()
    pthread_setspecific(indicesMemoKey, Unmanaged.passRetained(memo).toOpaque())
    return memo.indices(pointer, count)
}

/// The property indexes last converted on this thread: a loop of calls passing the same indexes
/// (the usual read or update loop) gets the same array back, allocating nothing. Compared by
/// content on every call, replaced when they differ; a caller's array is never changed in place.
private final class IndicesMemo {
    private var raw: UnsafeMutablePointer<Int32>?
    private var rawCount = 0
    private var converted: [Int] = []

    deinit { free(raw) }

    func indices(_ pointer: UnsafePointer<Int32>, _ count: Int) -> [Int] {
        if count == rawCount, let raw, memcmp(raw, pointer, count * MemoryLayout<Int32>.stride) == 0 {
            return converted
        }
        free(raw)
        raw = nil
        rawCount = 0
        converted = (0..<count).map { Int(pointer[$0]) }
        if let copy = malloc(count * MemoryLayout<Int32>.stride)?.assumingMemoryBound(to: Int32.self) {
            copy.update(from: pointer, count: count)
            raw = copy
            rawCount = count
        }
        return converted
    }
}

private let indicesMemoKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { (memo) in
        if let memo { Unmanaged<IndicesMemo>.fromOpaque(memo).release() }
    }
    return key
}()

func outOfMemory() -> DrumlinError { DrumlinError(.limit, "Out of memory.") }

/// Appends every row of `results` to a packed result, as a list of tuples.
func packRows(_ results: Results, _ indices: [Int], into writer: inout MarshalWriter) throws(DrumlinError) {
    _ = try packRows(into: &writer, indices) { (visit) throws(DrumlinError) -> Bool in
        try results.forEachRow(indices, visit)
        return true
    }
}

/// Appends the rows `read` visits to a packed result, as a list of tuples; returns what `read`
/// returns (false: it read nothing, and the writer holds only the list header).
func packRows(into writer: inout MarshalWriter, _ indices: [Int],
              _ read: ((ObjectRow) throws(DrumlinError) -> Void) throws(DrumlinError) -> Bool) throws(DrumlinError) -> Bool {
    writer.beginList(0)
    var rows = 0
    var names = PackedNames()
    let done = try read { (row) throws(DrumlinError) in
        try packValues(row, names: &names, into: &writer)
        rows += 1
    }
    writer.patchList(at: 0, count: rows)
    return done
}

/// Checks the arguments of a packed read; returns `out_size`, set to 0 until the read succeeds.
func packedOutput(_ count: Int, _ buffer: UnsafeMutableRawPointer?, _ capacity: Int,
                  _ outSize: UnsafeMutablePointer<Int>?) throws(DrumlinError) -> UnsafeMutablePointer<Int> {
    guard let outSize else { throw misuse("out_size must not be NULL.") }
    outSize.pointee = 0
    guard count >= 0, capacity >= 0 else { throw DrumlinError(.invalidArgument, "count and capacity must not be negative.") }
    guard capacity == 0 || buffer != nil else { throw misuse("buffer must not be NULL when capacity is not 0.") }
    return outSize
}

/// Reports a packed result's size; the bytes are already in the caller's buffer when they fit.
func finishPacked(_ writer: MarshalWriter, _ outSize: UnsafeMutablePointer<Int>) {
    outSize.pointee = writer.count
}

// MARK: - Arguments and collection JSON, shared by several sections

func updateMode(_ raw: Int32) throws(DrumlinError) -> UpdateMode {
    guard let mode = UpdateMode(rawValue: raw) else {
        throw DrumlinError(.invalidArgument, "update_mode must be DRUMLIN_UPDATE_NEVER, _MODIFIED or _ALL, got \(raw).")
    }
    return mode
}

/// Parses a JSON argument straight from the caller's bytes.
func jsonArgument(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(DrumlinError) -> JSON {
    guard let pointer else { throw misuse("\(name) must not be NULL.") }
    do {
        return try JSON.parse(cString: pointer)
    } catch {
        throw DrumlinError(error.isNestingLimit ? .limit : .invalidArgument, "\(name): \(error.description)")
    }
}

/// Query arguments: a JSON array (NULL for none).
func queryArguments(_ db: Database, _ argsJSON: UnsafePointer<CChar>?) throws(DrumlinError) -> [Value] {
    guard let argsJSON else { return [] }
    if let values = ExtendedJSON.plainValues(cString: argsJSON) { return values }
    guard case .array(let items) = try jsonArgument(argsJSON, "args_json") else {
        throw DrumlinError(.invalidArgument, "args_json must be a JSON array of the query's arguments.")
    }
    return try db.queryArguments(extendedJSON: items)
}

func results(_ db: Database, _ className: UnsafePointer<CChar>?, _ query: UnsafePointer<CChar>?,
             _ argsJSON: UnsafePointer<CChar>?) throws(DrumlinError) -> Results {
    let all = try db.objects(try string(className, "class_name"))
    guard query != nil else {
        if argsJSON != nil { _ = try queryArguments(db, argsJSON) }
        return all
    }
    return try all.filter(try string(query, "query"), try queryArguments(db, argsJSON))
}

func objectSchema(_ db: Database, _ className: UnsafePointer<CChar>?) throws(DrumlinError) -> ObjectSchema {
    let index = try db.classIndex(try string(className, "class_name"))
    return db.schema.objectSchemas[index]
}

func required<T>(_ pointer: UnsafePointer<T>?, _ name: String) throws(DrumlinError) -> T {
    guard let pointer else { throw misuse("\(name) must not be NULL.") }
    return pointer.pointee
}

func jsonText(_ accessor: CollectionAccessor) throws(DrumlinError) -> String {
    var writer = JSONWriter()
    if let map = accessor as? Map {
        writer.writeByte(UInt8(ascii: "{"))
        for (i, entry) in try map.entries.enumerated() {
            if i > 0 { writer.writeByte(UInt8(ascii: ",")) }
            writer.writeString(entry.key)
            writer.writeByte(UInt8(ascii: ":"))
            writer.writeRaw(try elementJSON(entry.value, accessor))
        }
        writer.writeByte(UInt8(ascii: "}"))
    } else {
        writer.writeByte(UInt8(ascii: "["))
        for (i, value) in try accessor.values.enumerated() {
            if i > 0 { writer.writeByte(UInt8(ascii: ",")) }
            writer.writeRaw(try elementJSON(value, accessor))
        }
        writer.writeByte(UInt8(ascii: "]"))
    }
    return writer.string
}

/// Elements print like object properties: links as the target object's JSON when embedded,
/// else the target's primary key (object key without one).
func elementJSON(_ value: Value, _ accessor: CollectionAccessor) throws(DrumlinError) -> String {
    // A mixed element holding a link prints as {"$link": {"class": ..., "key": ...}}.
    if accessor.property.type == .mixed { return accessor.object.database.mixedJSON(value) }
    guard case .link(let link) = value, let target = try accessor.object.database.object(link) else { return value.extendedJSON }
    if target.objectSchema.kind == .embedded { return try target.jsonText() }
    return try target.primaryKey.map { $0.extendedJSON } ?? String(target.key)
}
