import DrumlinStorage

/// The change log in the file: one row per commit that changed objects, in `_drumlin_changes`
/// (`seq` ascending, `data` a blob in the format below). Every handle appends its own commits, so
/// a handle in another thread or process learns on `refresh()` exactly which objects and
/// properties changed, without comparing rows. The log keeps the newest `ChangeLog.retained`
/// commits; an observer further behind re-reads everything.
///
/// Blob format (version 1), integers as LEB128 varints, keys zigzag-encoded:
///
///     1, class count, then per class:
///       table name (length, UTF-8), property count, property stored names (length, UTF-8)...,
///       inserted range count, (first key, length - 1)..., 1 if they were created in key order
///       (else 0), deleted count, keys...,
///       modified run count, (first key, length - 1, mask)...   (consecutive keys, one mask)
///
/// Classes and properties travel by stored name, so handles opened with different (compatible)
/// schemas understand each other; bit `i` of a mask is the writer's property `i`.
enum ChangeLog {
    static let table = "_drumlin_changes"
    static let createSQL = "CREATE TABLE IF NOT EXISTS _drumlin_changes (seq INTEGER PRIMARY KEY, data BLOB NOT NULL)"
    static let retained: Int64 = 1024
    static let formatVersion: UInt64 = 1
    /// The most modified objects one decoded entry may name (a hostile blob cannot make a reader allocate more).
    static let maximumModified = 1 << 26

    static func encode(_ changes: ChangeSet, classes: [ClassInfo]) -> [UInt8] {
        var out: [UInt8] = []
        func put(_ value: UInt64) {
            var v = value
            repeat {
                var byte = UInt8(v & 0x7F)
                v >>= 7
                if v != 0 { byte |= 0x80 }
                out.append(byte)
            } while v != 0
        }
        func put(signed value: Int64) { put(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }
        func put(_ text: String) {
            let bytes = Array(text.utf8)
            put(UInt64(bytes.count))
            out.append(contentsOf: bytes)
        }
        put(formatVersion)
        let present = changes.classes.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }
        put(UInt64(present.count))
        for (index, change) in present {
            let info = classes[index]
            put(info.schema.storedName)
            put(UInt64(info.schema.properties.count))
            for property in info.schema.properties { put(property.storedName) }
            put(UInt64(change.inserted.ranges.count))
            for range in change.inserted.ranges {
                put(signed: range.lowerBound)
                put(UInt64(bitPattern: range.upperBound &- range.lowerBound))
            }
            put(change.insertedInKeyOrder ? 1 : 0)
            put(UInt64(change.deleted.count))
            for key in change.deleted { put(signed: key) }
            // Runs of consecutive keys with one mask: a loop that sets one property of many
            // objects logs a few runs, not an entry per object.
            var runs: [(first: Int64, length: UInt64, mask: PropertyMask)] = []
            for (key, mask) in change.modified {
                if let last = runs.last, last.mask == mask, key == last.first &+ Int64(last.length) {
                    runs[runs.count - 1].length += 1
                } else {
                    runs.append((key, 1, mask))
                }
            }
            put(UInt64(runs.count))
            for run in runs {
                put(signed: run.first)
                put(run.length - 1)
                put(run.mask.bits)
            }
        }
        return out
    }

    /// Decodes one log entry for a handle whose classes are `classes` (found by stored name).
    /// Classes this handle does not know are skipped. A malformed blob is `nil`: the caller
    /// treats the change as unknown instead of trusting it.
    static func decode(_ bytes: UnsafeRawBufferPointer, classes byStoredName: [String: ClassInfo]) -> ChangeSet? {
        var offset = 0
        func get() -> UInt64? {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while offset < bytes.count, shift < 64 {
                let byte = bytes[offset]
                offset += 1
                result |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return result }
                shift += 7
            }
            return nil
        }
        func getSigned() -> Int64? {
            guard let raw = get() else { return nil }
            return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
        }
        func getCount() -> Int? {
            guard let raw = get(), raw <= UInt64(bytes.count) else { return nil }
            return Int(raw)
        }
        func getText() -> String? {
            guard let length = getCount(), offset + length <= bytes.count else { return nil }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
            offset += length
            return text
        }
        guard get() == formatVersion, let classCount = getCount() else { return nil }
        var changes = ChangeSet()
        for _ in 0..<classCount {
            guard let name = getText(), let propertyCount = getCount() else { return nil }
            var propertyNames: [String] = []
            for _ in 0..<propertyCount {
                guard let property = getText() else { return nil }
                propertyNames.append(property)
            }
            let info = byStoredName[name]
            // The writer's property i is this handle's property map[i] (nil: unknown here).
            let map: [Int?] = propertyNames.map { name in info.flatMap { $0.propertyIndex(storedName: name) } }
            var change = ClassChanges()
            guard let rangeCount = getCount() else { return nil }
            var previous: Int64?
            for _ in 0..<rangeCount {
                guard let first = getSigned(), let extra = get(), extra < UInt64(Int64.max),
                      case let (last, overflow) = first.addingReportingOverflow(Int64(extra)), !overflow,
                      previous.map({ first > $0 }) ?? true else { return nil }
                change.inserted.insert(first...last)
                previous = last
            }
            guard let inKeyOrder = get(), inKeyOrder <= 1 else { return nil }
            change.insertedInKeyOrder = inKeyOrder == 1
            // Keys are written ascending; anything else is not a log entry this code wrote.
            guard let deletedCount = getCount() else { return nil }
            var deleted: [Int64] = []
            for _ in 0..<deletedCount {
                guard let key = getSigned(), deleted.last.map({ key > $0 }) ?? true else { return nil }
                deleted.append(key)
            }
            change.deleted = SortedKeys(deleted)
            guard let runCount = getCount() else { return nil }
            var modified: [ModifiedKeys.Entry] = []
            for _ in 0..<runCount {
                guard let first = getSigned(), let extra = get(), extra < UInt64(Int32.max), let bits = get(),
                      modified.last.map({ first > $0.key }) ?? true,
                      case let (last, overflow) = first.addingReportingOverflow(Int64(extra)), !overflow else { return nil }
                // A run longer than any commit could write is not an entry this code wrote.
                guard modified.count + Int(extra) < maximumModified else { return nil }
                let mask = translate(PropertyMask(bits: bits), map)
                for key in first...last { modified.append(ModifiedKeys.Entry(key: key, mask: mask)) }
            }
            change.modified = ModifiedKeys(modified)
            if let info { changes.classes[info.index] = change }
        }
        guard offset == bytes.count else { return nil }
        return changes
    }

    /// A writer's mask in this handle's property indexes.
    private static func translate(_ mask: PropertyMask, _ map: [Int?]) -> PropertyMask {
        if mask == .all { return .all }
        var result = PropertyMask()
        for (writerIndex, localIndex) in map.enumerated() where mask.contains(writerIndex) {
            if let localIndex { result.formUnion(PropertyMask(property: localIndex)) }
        }
        return result
    }
}

extension ClassInfo {
    /// The property stored under `storedName` (the change log names properties that way).
    func propertyIndex(storedName: String) -> Int? {
        schema.properties.firstIndex { $0.storedName.isSameName(storedName) }
    }
}
