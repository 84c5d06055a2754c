import DrumlinEngine
import DrumlinSync
import CDrumlinHeader
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

// The C layer only translates: unwrap handles, convert values, call the engine, map errors. Every
// export runs inside `capi`, so no Swift error crosses into C; no export force-unwraps or indexes
// unchecked, so no Swift trap can abort the host process.

/// Thread-local last error: the message as a malloc'ed C string, the code beside it.
private let lastMessageKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { free($0) }
    return key
}()

private let lastCodeKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()

func setLastError(_ code: Int32, _ message: String) {
    let previous = pthread_getspecific(lastMessageKey)
    pthread_setspecific(lastMessageKey, strdup(message).map { UnsafeMutableRawPointer($0) })
    free(previous)
    pthread_setspecific(lastCodeKey, UnsafeRawPointer(bitPattern: UInt(UInt32(bitPattern: code))))
}

@inline(__always) func clearLastError() {
    if pthread_getspecific(lastCodeKey) != nil {
        pthread_setspecific(lastCodeKey, nil)
        let previous = pthread_getspecific(lastMessageKey)
        pthread_setspecific(lastMessageKey, nil)
        free(previous)
    }
}

func lastErrorCode() -> Int32 {
    Int32(bitPattern: UInt32(truncatingIfNeeded: UInt(bitPattern: pthread_getspecific(lastCodeKey))))
}

func lastErrorMessage() -> UnsafePointer<CChar>? {
    pthread_getspecific(lastMessageKey).map { UnsafePointer($0.assumingMemoryBound(to: CChar.self)) }
}

/// The barrier around every export: records the outcome as the thread's last error.
@inline(__always)
func capi(_ body: () throws(DrumlinError) -> Int32) -> Int32 {
    do {
        let status = try body()
        clearLastError()
        return status
    } catch {
        setLastError(error.code.rawValue, error.message)
        return error.code.rawValue
    }
}

func misuse(_ message: String) -> DrumlinError { DrumlinError(.misuse, message) }

/// A required C string argument.
func string(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(DrumlinError) -> String {
    guard let pointer else { throw misuse("\(name) must not be NULL.") }
    guard let value = String(validatingCString: pointer) else {
        throw DrumlinError(.invalidArgument, "\(name) is not valid UTF-8.")
    }
    return value
}

/// A malloc'ed copy of a Swift string for a `char **out_json` result (freed with drumlin_free).
func mallocString(_ value: String) throws(DrumlinError) -> UnsafeMutablePointer<CChar> {
    var value = value
    let copy: UnsafeMutablePointer<CChar>? = value.withUTF8 { utf8 in
        guard let memory = malloc(utf8.count + 1) else { return nil }
        if let base = utf8.baseAddress { memcpy(memory, base, utf8.count) }
        memory.storeBytes(of: 0, toByteOffset: utf8.count, as: UInt8.self)
        return memory.assumingMemoryBound(to: CChar.self)
    }
    guard let copy else { throw DrumlinError(.limit, "Out of memory.") }
    return copy
}

// MARK: - Handles

/// What a `drumlin_db *` points at. Live handles are registered so that a closed (freed) handle
/// passed back in is recognized and refused instead of being dereferenced.
final class DatabaseHandle: BorrowingHandle {
    let database: Database
    /// C strings handed out by introspection; valid until the handle is closed.
    var classNames: [Int: UnsafeMutablePointer<CChar>] = [:]
    var propertyStrings: [String: UnsafeMutablePointer<CChar>] = [:]

    /// The sync session (Exports+Sync.swift), stopped by drumlin_close before the database closes.
    var syncSession: SyncSession?

    init(_ database: Database) { self.database = database }

    deinit {
        syncSession?.stop()
        for pointer in classNames.values { free(pointer) }
        for pointer in propertyStrings.values { free(pointer) }
    }

    /// Borrowed strings of `drumlin_object_find_values` without an object handle live here until
    /// the next such call; calls from several threads take turns on them.
    let borrowGuard = Mutex<Int>(0)

    func cString(_ value: String) -> UnsafePointer<CChar> {
        if let existing = propertyStrings[value] { return UnsafePointer(existing) }
        let copy = (try? mallocString(value)) ?? strdup("")!
        propertyStrings[value] = copy
        return UnsafePointer(copy)
    }
}

private let liveDatabases = Mutex<Set<UInt>>([])

/// Bumped (under the registry's lock) each time a database handle leaves the registry: a thread's
/// memo of the last handle it found live is trusted only while the generation is unchanged, so a
/// steady loop of calls on one handle skips the registry's lock and hash, and a closed handle is
/// never taken for live (not even when a new handle gets its address).
private let registryGeneration = Atomic<UInt>(0)

private struct HandleMemo {
    var address: UInt
    var generation: UInt
}

private let handleMemoKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { free($0) }
    return key
}()

func registerDatabase(_ handle: DatabaseHandle) -> OpaquePointer {
    let pointer = Unmanaged.passRetained(handle).toOpaque()
    liveDatabases.withLock { _ = $0.insert(UInt(bitPattern: pointer)) }
    return OpaquePointer(pointer)
}

/// Removes a handle from the registry; returns it (still retained) when it was live.
func unregisterDatabase(_ pointer: OpaquePointer) -> Unmanaged<DatabaseHandle>? {
    let removed = liveDatabases.withLock { (live) -> Bool in
        guard live.remove(UInt(bitPattern: UnsafeRawPointer(pointer))) != nil else { return false }
        registryGeneration.add(1, ordering: .releasing)
        return true
    }
    return removed ? Unmanaged<DatabaseHandle>.fromOpaque(UnsafeRawPointer(pointer)) : nil
}

func databaseHandle(_ pointer: OpaquePointer?) throws(DrumlinError) -> DatabaseHandle {
    guard let pointer else { throw misuse("The database handle is NULL.") }
    let address = UInt(bitPattern: UnsafeRawPointer(pointer))
    // Read before the registry: a handle removed after this read bumps the generation past it.
    let generation = registryGeneration.load(ordering: .acquiring)
    let memo = pthread_getspecific(handleMemoKey)?.assumingMemoryBound(to: HandleMemo.self)
    if let memo, memo.pointee.address == address, memo.pointee.generation == generation {
        return Unmanaged<DatabaseHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }
    let live = liveDatabases.withLock { $0.contains(address) }
    guard live else { throw misuse("The database handle is closed or invalid.") }
    if let memo {
        memo.pointee = HandleMemo(address: address, generation: generation)
    } else if let fresh = malloc(MemoryLayout<HandleMemo>.stride) {
        fresh.initializeMemory(as: HandleMemo.self, to: HandleMemo(address: address, generation: generation))
        pthread_setspecific(handleMemoKey, fresh)
    }
    return Unmanaged<DatabaseHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
}

func database(_ pointer: OpaquePointer?) throws(DrumlinError) -> Database {
    let db = try databaseHandle(pointer).database
    if db.isClosed { throw misuse("The database is closed.") }
    return db
}

/// A handle that lends out strings and binaries: copies live in an arena until the next call on
/// the handle, or until it is released. The arena keeps its memory between calls, so a steady
/// read loop allocates nothing.
class BorrowingHandle {
    // A handle is used by one thread at a time (its lent values live until its next call: see
    // the header's threading rules; the db handle's arena is behind `borrowGuard`), so the
    // runtime exclusivity checks are skipped on this hot path.
    @exclusivity(unchecked) private var chunks: [(memory: UnsafeMutableRawPointer, capacity: Int)] = []
    @exclusivity(unchecked) private var used = 0

    deinit { for chunk in chunks { free(chunk.memory) } }

    func releaseBorrowed() {
        used = 0
        guard chunks.count > 1 else { return }
        // Several chunks were needed: replace them with one that holds as much.
        let total = chunks.reduce(0) { $0 + $1.capacity }
        for chunk in chunks { free(chunk.memory) }
        chunks.removeAll(keepingCapacity: true)
        if let memory = malloc(total) { chunks.append((memory, total)) }
    }

    /// Copies `bytes` (plus a NUL, so strings are also C strings) into the arena.
    func lend(_ bytes: UnsafeRawBufferPointer) -> UnsafeMutableRawPointer? {
        let need = bytes.count + 1
        // Every loan starts 16-byte aligned (malloc's alignment), so a loan of an array of
        // integers (drumlin_changes_indices) is aligned for its element type.
        used = (used + 15) & ~15
        if chunks.isEmpty || used + need > chunks[chunks.count - 1].capacity {
            let capacity = Swift.max(need, 4096, (chunks.last?.capacity ?? 0) * 2)
            guard let memory = malloc(capacity) else { return nil }
            chunks.append((memory, capacity))
            used = 0
        }
        let destination = chunks[chunks.count - 1].memory + used
        if let base = bytes.baseAddress, bytes.count > 0 { memcpy(destination, base, bytes.count) }
        destination.storeBytes(of: 0, toByteOffset: bytes.count, as: UInt8.self)
        used += need
        return destination
    }
}

/// What a `drumlin_object *` points at.
final class ObjectHandle: BorrowingHandle {
    let object: Object
    init(_ object: Object) { self.object = object }
}

/// What `drumlin_list *`, `drumlin_set *` and `drumlin_dict *` point at.
final class CollectionHandle: BorrowingHandle {
    let accessor: CollectionAccessor
    init(_ accessor: CollectionAccessor) { self.accessor = accessor }
}

/// What a `drumlin_results *` points at.
final class ResultsHandle: BorrowingHandle {
    let results: Results
    init(_ results: Results) { self.results = results }
}

func collectionHandle<T: CollectionAccessor>(_ pointer: OpaquePointer?, _ type: T.Type, _ what: String) throws(DrumlinError) -> (CollectionHandle, T) {
    guard let pointer else { throw misuse("The \(what) handle is NULL.") }
    let handle = Unmanaged<CollectionHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    guard let accessor = handle.accessor as? T else { throw misuse("The handle is not a \(what).") }
    if accessor.object.database.isClosed { throw misuse("The \(what)'s database is closed.") }
    handle.releaseBorrowed()
    return (handle, accessor)
}

func resultsHandle(_ pointer: OpaquePointer?) throws(DrumlinError) -> ResultsHandle {
    guard let pointer else { throw misuse("The results handle is NULL.") }
    let handle = Unmanaged<ResultsHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    if handle.results.database.isClosed { throw misuse("The results' database is closed.") }
    handle.releaseBorrowed()
    return handle
}

func retained(_ handle: AnyObject) -> OpaquePointer {
    OpaquePointer(Unmanaged.passRetained(handle).toOpaque())
}

func release(_ pointer: OpaquePointer?) {
    guard let pointer else { return }
    Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(pointer)).release()
}

func objectHandle(_ pointer: OpaquePointer?) throws(DrumlinError) -> ObjectHandle {
    guard let pointer else { throw misuse("The object handle is NULL.") }
    let handle = Unmanaged<ObjectHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    if handle.object.database.isClosed { throw misuse("The object's database is closed.") }
    handle.releaseBorrowed()
    return handle
}

func newObjectHandle(_ object: Object) -> OpaquePointer {
    OpaquePointer(Unmanaged.passRetained(ObjectHandle(object)).toOpaque())
}

final class OptionsHandle {
    var options = OpenOptions()
    /// Sync (drumlin_options_set_sync, Exports+Sync.swift): a session starts with each database opened.
    var sync: SyncOptions?
}

func optionsHandle(_ pointer: OpaquePointer?) throws(DrumlinError) -> OptionsHandle {
    guard let pointer else { throw misuse("The options handle is NULL.") }
    return Unmanaged<OptionsHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
}

// MARK: - Shared by several sections: collection handles, callback options

func openCollection<T: CollectionAccessor>(_ object: OpaquePointer?, _ propertyName: UnsafePointer<CChar>?,
                                           _ out: UnsafeMutablePointer<OpaquePointer?>?,
                                           _ make: (Object, String) throws(DrumlinError) -> T) -> Int32 {
    capi { () throws(DrumlinError) in
        out?.pointee = nil
        let handle = try objectHandle(object)
        guard let out else { throw misuse("The out handle must not be NULL.") }
        out.pointee = retained(CollectionHandle(try make(handle.object, try string(propertyName, "property_name"))))
        return DRUMLIN_OK
    }
}

/// Sets a callback option. `install` returns whether a sink now owns the userdata (it frees it
/// when released); otherwise, or when the options handle is bad, `free_userdata` runs now:
/// exactly once either way.
func setCallbackOption(_ options: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ freeUserdata: drumlin_free_fn?,
                       install: (OptionsHandle) -> Bool) throws(DrumlinError) -> Int32 {
    let handle: OptionsHandle
    do throws(DrumlinError) {
        handle = try optionsHandle(options)
    } catch {
        freeUserdata?(userdata)
        throw error
    }
    if !install(handle) { freeUserdata?(userdata) }
    return DRUMLIN_OK
}
