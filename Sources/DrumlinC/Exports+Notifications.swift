import DrumlinEngine
import CDrumlinHeader
#if canImport(Glibc)
import Glibc
#endif

// The exports of drumlin.h's section "Notifications".

/// A C callback and its userdata: `free_userdata` runs once, when the engine lets go of the
/// observer (token released, database closed).
final class ChangeSink: @unchecked Sendable {
    let function: drumlin_changes_fn
    let userdata: UnsafeMutableRawPointer?
    let freeUserdata: drumlin_free_fn?

    init(_ function: drumlin_changes_fn, _ userdata: UnsafeMutableRawPointer?, _ freeUserdata: drumlin_free_fn?) {
        self.function = function
        self.userdata = userdata
        self.freeUserdata = freeUserdata
    }

    deinit { freeUserdata?(userdata) }

    func deliver(_ changes: ChangesHandle) {
        withExtendedLifetime(changes) {
            function(userdata, OpaquePointer(Unmanaged.passUnretained(changes).toOpaque()))
        }
    }
}

/// What a `drumlin_changes *` points at during a callback: the change, with its index lists and
/// strings laid out for C.
final class ChangesHandle: BorrowingHandle {
    enum Kind { case collection, dictionary, object }
    let kind: Kind
    var lists: [[Int]] = [[], [], []]
    var keys: [[UnsafePointer<CChar>?]] = [[], [], []]
    var deleted = false
    var names: [UnsafePointer<CChar>?] = []
    var values: [(old: Value?, new: Value?)] = []
    private var strings: [UnsafeMutablePointer<CChar>] = []

    init(_ change: CollectionChange) {
        kind = .collection
        lists = [change.deletions, change.insertions, change.modifications]
    }

    init(_ change: DictionaryChange) {
        kind = .dictionary
        super.init()
        keys = [change.deletions, change.insertions, change.modifications].map { $0.map { UnsafePointer(own($0)) } }
    }

    init(_ change: ObjectChange) {
        kind = .object
        super.init()
        switch change {
        case .deleted:
            deleted = true
        case .changed(let properties):
            names = properties.map { UnsafePointer(own($0.name)) }
            values = properties.map { ($0.oldValue, $0.newValue) }
        }
    }

    private func own(_ text: String) -> UnsafeMutablePointer<CChar> {
        let copy = strdup(text)!
        strings.append(copy)
        return copy
    }

    deinit { for pointer in strings { free(pointer) } }
}

private func changesHandle(_ pointer: OpaquePointer?) throws(DrumlinError) -> ChangesHandle {
    guard let pointer else { throw misuse("The changes handle is NULL.") }
    return Unmanaged<ChangesHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
}

/// `key_paths_json`: NULL, or a JSON array of strings.
private func keyPaths(_ json: UnsafePointer<CChar>?) throws(DrumlinError) -> [String]? {
    guard let json else { return nil }
    let text = try string(json, "key_paths_json")
    guard case .array(let items) = try jsonArgument(json, "key_paths_json") else {
        throw DrumlinError(.invalidArgument, "key_paths_json must be a JSON array of property names, got \(text.prefix(80)).")
    }
    var paths: [String] = []
    for item in items {
        guard case .string(let path) = item else {
            throw DrumlinError(.invalidArgument, "key_paths_json must be a JSON array of property names, got \(text.prefix(80)).")
        }
        paths.append(path)
    }
    return paths
}

/// The common shape of the observe exports: free_userdata runs even when registering fails.
private func observe(_ fn: drumlin_changes_fn?, _ userdata: UnsafeMutableRawPointer?, _ freeUserdata: drumlin_free_fn?,
                     _ outToken: UnsafeMutablePointer<OpaquePointer?>?,
                     _ register: (ChangeSink) throws(DrumlinError) -> NotificationToken) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let fn else {
            freeUserdata?(userdata)
            throw misuse("fn must not be NULL.")
        }
        guard let outToken else {
            freeUserdata?(userdata)
            throw misuse("out_token must not be NULL.")
        }
        let sink = ChangeSink(fn, userdata, freeUserdata)   // frees userdata when released, also on failure below
        let token = try register(sink)
        outToken.pointee = retained(token)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_results_observe")
public func drumlin_results_observe(_ results: OpaquePointer?, _ keyPathsJSON: UnsafePointer<CChar>?, _ fn: drumlin_changes_fn?,
                                    _ userdata: UnsafeMutableRawPointer?, _ freeUserdata: drumlin_free_fn?,
                                    _ outToken: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    observe(fn, userdata, freeUserdata, outToken) { (sink) throws(DrumlinError) in
        let handle = try resultsHandle(results)
        return try handle.results.observe(keyPaths: try keyPaths(keyPathsJSON)) { sink.deliver(ChangesHandle($0)) }
    }
}

@_cdecl("drumlin_object_observe")
public func drumlin_object_observe(_ object: OpaquePointer?, _ keyPathsJSON: UnsafePointer<CChar>?, _ fn: drumlin_changes_fn?,
                                   _ userdata: UnsafeMutableRawPointer?, _ freeUserdata: drumlin_free_fn?,
                                   _ outToken: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    observe(fn, userdata, freeUserdata, outToken) { (sink) throws(DrumlinError) in
        let handle = try objectHandle(object)
        return try handle.object.observe(keyPaths: try keyPaths(keyPathsJSON)) { sink.deliver(ChangesHandle($0)) }
    }
}

@_cdecl("drumlin_list_observe")
public func drumlin_list_observe(_ list: OpaquePointer?, _ keyPathsJSON: UnsafePointer<CChar>?, _ fn: drumlin_changes_fn?,
                                 _ userdata: UnsafeMutableRawPointer?, _ freeUserdata: drumlin_free_fn?,
                                 _ outToken: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    observe(fn, userdata, freeUserdata, outToken) { (sink) throws(DrumlinError) in
        let (_, accessor) = try collectionHandle(list, List.self, "list")
        return try accessor.observe(keyPaths: try keyPaths(keyPathsJSON)) { sink.deliver(ChangesHandle($0)) }
    }
}

@_cdecl("drumlin_set_observe")
public func drumlin_set_observe(_ set: OpaquePointer?, _ keyPathsJSON: UnsafePointer<CChar>?, _ fn: drumlin_changes_fn?,
                                _ userdata: UnsafeMutableRawPointer?, _ freeUserdata: drumlin_free_fn?,
                                _ outToken: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    observe(fn, userdata, freeUserdata, outToken) { (sink) throws(DrumlinError) in
        let (_, accessor) = try collectionHandle(set, MutableSet.self, "set")
        return try accessor.observe(keyPaths: try keyPaths(keyPathsJSON)) { sink.deliver(ChangesHandle($0)) }
    }
}

@_cdecl("drumlin_dict_observe")
public func drumlin_dict_observe(_ dict: OpaquePointer?, _ fn: drumlin_changes_fn?, _ userdata: UnsafeMutableRawPointer?,
                                 _ freeUserdata: drumlin_free_fn?, _ outToken: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    observe(fn, userdata, freeUserdata, outToken) { (sink) throws(DrumlinError) in
        let (_, accessor) = try collectionHandle(dict, Map.self, "dictionary")
        return try accessor.observeDictionary { sink.deliver(ChangesHandle($0)) }
    }
}

@_cdecl("drumlin_token_release")
public func drumlin_token_release(_ token: OpaquePointer?) {
    guard let token else { return }
    let unmanaged = Unmanaged<NotificationToken>.fromOpaque(UnsafeRawPointer(token))
    unmanaged.takeUnretainedValue().invalidate()
    unmanaged.release()
}

@_cdecl("drumlin_changes_indices")
public func drumlin_changes_indices(_ changes: OpaquePointer?, _ kind: Int32, _ outIndices: UnsafeMutablePointer<UnsafePointer<Int>?>?,
                                    _ outCount: UnsafeMutablePointer<Int>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let handle = try changesHandle(changes)
        guard let outIndices, let outCount else { throw misuse("out_indices and out_count must not be NULL.") }
        guard (0...2).contains(kind) else { throw DrumlinError(.invalidArgument, "Unknown change kind \(kind): use DRUMLIN_CHANGE_DELETIONS, _INSERTIONS or _MODIFICATIONS.") }
        let list = handle.lists[Int(kind)]
        outCount.pointee = list.count
        outIndices.pointee = list.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { base in
                handle.lend(UnsafeRawBufferPointer(start: base, count: buffer.count * MemoryLayout<Int>.stride))
            }.map { UnsafePointer($0.assumingMemoryBound(to: Int.self)) }
        }
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_changes_keys")
public func drumlin_changes_keys(_ changes: OpaquePointer?, _ kind: Int32,
                                 _ outKeys: UnsafeMutablePointer<UnsafePointer<UnsafePointer<CChar>?>?>?,
                                 _ outCount: UnsafeMutablePointer<Int>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let handle = try changesHandle(changes)
        guard let outKeys, let outCount else { throw misuse("out_keys and out_count must not be NULL.") }
        guard (0...2).contains(kind) else { throw DrumlinError(.invalidArgument, "Unknown change kind \(kind): use DRUMLIN_CHANGE_DELETIONS, _INSERTIONS or _MODIFICATIONS.") }
        let keys = handle.keys[Int(kind)]
        outCount.pointee = keys.count
        outKeys.pointee = keys.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { base in
                handle.lend(UnsafeRawBufferPointer(start: base, count: buffer.count * MemoryLayout<UnsafePointer<CChar>?>.stride))
            }.map { UnsafePointer($0.assumingMemoryBound(to: UnsafePointer<CChar>?.self)) }
        }
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_changes_deleted")
public func drumlin_changes_deleted(_ changes: OpaquePointer?, _ outDeleted: UnsafeMutablePointer<Int32>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let handle = try changesHandle(changes)
        guard let outDeleted else { throw misuse("out_deleted must not be NULL.") }
        outDeleted.pointee = handle.deleted ? 1 : 0
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_changes_properties")
public func drumlin_changes_properties(_ changes: OpaquePointer?,
                                       _ outNames: UnsafeMutablePointer<UnsafePointer<UnsafePointer<CChar>?>?>?,
                                       _ outCount: UnsafeMutablePointer<Int>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let handle = try changesHandle(changes)
        guard let outNames, let outCount else { throw misuse("out_names and out_count must not be NULL.") }
        outCount.pointee = handle.names.count
        outNames.pointee = handle.names.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { base in
                handle.lend(UnsafeRawBufferPointer(start: base, count: buffer.count * MemoryLayout<UnsafePointer<CChar>?>.stride))
            }.map { UnsafePointer($0.assumingMemoryBound(to: UnsafePointer<CChar>?.self)) }
        }
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_changes_property_values")
public func drumlin_changes_property_values(_ changes: OpaquePointer?, _ index: Int, _ outOld: UnsafeMutablePointer<drumlin_value>?,
                                            _ outNew: UnsafeMutablePointer<drumlin_value>?,
                                            _ outHasValues: UnsafeMutablePointer<Int32>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let handle = try changesHandle(changes)
        guard let outOld, let outNew else { throw misuse("out_old and out_new must not be NULL.") }
        guard index >= 0, index < handle.values.count else {
            throw DrumlinError(.invalidArgument, "Property change index \(index) is out of bounds (\(handle.values.count) changed properties).")
        }
        let (old, new) = handle.values[index]
        try store(old ?? .null, into: outOld, borrowing: handle)
        try store(new ?? .null, into: outNew, borrowing: handle)
        outHasValues?.pointee = old == nil && new == nil ? 0 : 1
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_refresh")
public func drumlin_refresh(_ db: OpaquePointer?, _ outChanged: UnsafeMutablePointer<Int32>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let changed = try database(db).refresh()
        outChanged?.pointee = changed ? 1 : 0
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_has_changes")
public func drumlin_has_changes(_ db: OpaquePointer?, _ outChanged: UnsafeMutablePointer<Int32>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outChanged else { throw misuse("out_changed must not be NULL.") }
        outChanged.pointee = try database(db).hasExternalChanges ? 1 : 0
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_commit_without_notifying")
public func drumlin_commit_without_notifying(_ db: OpaquePointer?, _ tokens: UnsafePointer<OpaquePointer?>?, _ count: Int) -> Int32 {
    capi { () throws(DrumlinError) in
        let database = try database(db)
        guard count >= 0, count == 0 || tokens != nil else { throw misuse("tokens must not be NULL when count > 0.") }
        var skipped: [NotificationToken] = []
        for i in 0..<count {
            guard let token = tokens?[i] else { throw misuse("tokens[\(i)] is NULL.") }
            skipped.append(Unmanaged<NotificationToken>.fromOpaque(UnsafeRawPointer(token)).takeUnretainedValue())
        }
        try database.commit(withoutNotifying: skipped)
        return DRUMLIN_OK
    }
}
