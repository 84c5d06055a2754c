/// Which properties of one object changed: bit `i` is property `i`. Bit 63 stands for every
/// property from index 63 on (classes that wide are rare; observers re-check those by value).
struct PropertyMask: Equatable {
    var bits: UInt64 = 0

    static let all = PropertyMask(bits: .max)

    init(bits: UInt64 = 0) { self.bits = bits }
    init(property index: Int) { bits = 1 << UInt64(Swift.min(index, 63)) }

    func contains(_ index: Int) -> Bool { bits & (1 << UInt64(Swift.min(index, 63))) != 0 }
    func intersects(_ other: PropertyMask) -> Bool { bits & other.bits != 0 }
    var isEmpty: Bool { bits == 0 }
    mutating func formUnion(_ other: PropertyMask) { bits |= other.bits }
}

/// Object keys as sorted, disjoint closed ranges: a bulk insert of consecutive keys costs one
/// range, not one set entry per object.
struct KeyRanges: Equatable {
    private(set) var ranges: [ClosedRange<Int64>] = []

    var isEmpty: Bool { ranges.isEmpty }
    var count: Int { ranges.reduce(0) { $0 + Int($1.upperBound - $1.lowerBound) + 1 } }

    /// Adds a key; appending the key after the last range extends it in O(1).
    mutating func insert(_ key: Int64) {
        if let last = ranges.last {
            if key == last.upperBound &+ 1 && key > last.upperBound {
                ranges[ranges.count - 1] = last.lowerBound...key
                return
            }
            if key > last.upperBound {
                ranges.append(key...key)
                return
            }
        } else {
            ranges.append(key...key)
            return
        }
        guard !contains(key) else { return }
        let at = ranges.firstIndex { $0.lowerBound > key } ?? ranges.count
        ranges.insert(key...key, at: at)
        coalesce(around: at)
    }

    mutating func insert(_ range: ClosedRange<Int64>) {
        if let last = ranges.last, range.lowerBound > last.upperBound {
            if range.lowerBound == last.upperBound &+ 1 {
                ranges[ranges.count - 1] = last.lowerBound...range.upperBound
            } else {
                ranges.append(range)
            }
            return
        }
        if ranges.isEmpty { ranges.append(range); return }
        var key = range.lowerBound
        while true {
            insert(key)
            if key == range.upperBound { break }
            key += 1
        }
    }

    private mutating func coalesce(around at: Int) {
        var i = Swift.max(at - 1, 0)
        while i + 1 < ranges.count {
            if ranges[i].upperBound &+ 1 >= ranges[i + 1].lowerBound && ranges[i].upperBound < Int64.max {
                ranges[i] = ranges[i].lowerBound...Swift.max(ranges[i].upperBound, ranges[i + 1].upperBound)
                ranges.remove(at: i + 1)
            } else if i > at {
                break
            } else {
                i += 1
            }
        }
    }

    func contains(_ key: Int64) -> Bool {
        var low = 0, high = ranges.count - 1
        while low <= high {
            let mid = (low + high) / 2
            if key < ranges[mid].lowerBound { high = mid - 1 } else if key > ranges[mid].upperBound { low = mid + 1 } else { return true }
        }
        return false
    }

    /// Removes a key; returns whether it was there.
    @discardableResult
    mutating func remove(_ key: Int64) -> Bool {
        guard let i = ranges.firstIndex(where: { $0.contains(key) }) else { return false }
        let range = ranges[i]
        var pieces: [ClosedRange<Int64>] = []
        if range.lowerBound < key { pieces.append(range.lowerBound...(key - 1)) }
        if key < range.upperBound { pieces.append((key + 1)...range.upperBound) }
        ranges.replaceSubrange(i...i, with: pieces)
        return true
    }

    func forEach(_ body: (Int64) throws -> Void) rethrows {
        for range in ranges { for key in range { try body(key) } }
    }
}

/// Object keys in ascending order, searched by bisection: built once per change set from the
/// recorder's events or a log entry (no hashing per key).
struct SortedKeys: Sequence, Equatable {
    private(set) var keys: [Int64] = []

    init(_ keys: [Int64] = []) { self.keys = keys }

    var isEmpty: Bool { keys.isEmpty }
    var count: Int { keys.count }
    func makeIterator() -> IndexingIterator<[Int64]> { keys.makeIterator() }

    func contains(_ key: Int64) -> Bool { SortedKeys.position(of: key, in: keys, key: { $0 }) != nil }

    /// The index of `key` in an ascending array, by bisection.
    static func position<T>(of key: Int64, in items: [T], key keyOf: (T) -> Int64) -> Int? {
        var low = 0, high = items.count - 1
        while low <= high {
            let mid = (low + high) / 2
            let found = keyOf(items[mid])
            if key < found { high = mid - 1 } else if key > found { low = mid + 1 } else { return mid }
        }
        return nil
    }
}

/// Modified objects in ascending key order, each with the properties that changed.
struct ModifiedKeys: Sequence, Equatable {
    struct Entry: Equatable {
        var key: Int64
        var mask: PropertyMask
    }
    private(set) var entries: [Entry] = []

    init(_ entries: [Entry] = []) { self.entries = entries }

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }
    var keys: [Int64] { entries.map(\.key) }
    var values: LazyMapSequence<[Entry], PropertyMask> { entries.lazy.map(\.mask) }
    func makeIterator() -> LazyMapSequence<[Entry], (key: Int64, mask: PropertyMask)>.Iterator {
        entries.lazy.map { (key: $0.key, mask: $0.mask) }.makeIterator()
    }

    subscript(key: Int64) -> PropertyMask? {
        SortedKeys.position(of: key, in: entries, key: \.key).map { entries[$0].mask }
    }
}

/// What changed in one class: objects inserted, deleted, and modified (those that existed before
/// and after, with the properties that changed).
struct ClassChanges: Equatable {
    var inserted = KeyRanges()
    /// Whether the objects were created in ascending key order (then `inserted`, read in key
    /// order, is also creation order, and results of every object append them as they are).
    var insertedInKeyOrder = true
    var deleted = SortedKeys()
    var modified = ModifiedKeys()

    var isEmpty: Bool { inserted.isEmpty && deleted.isEmpty && modified.isEmpty }

    /// One change to one object, in the order they happened.
    struct Event {
        enum Kind: UInt8 { case insert, delete, modify }
        var kind: Kind
        var key: Int64
        var mask: PropertyMask
    }

    /// The net effect of `events` (in the order they happened): an object inserted then deleted
    /// leaves no trace; modified then deleted counts as deleted; a new object's modifications are
    /// part of its insertion; deleted and inserted again under the same key is a change of every
    /// property. Events usually come in key order (bulk inserts, loops over objects): then no
    /// sort is needed.
    init(folding events: [Event]) {
        var lastInserted = Int64.min
        for event in events where event.kind == .insert {
            if event.key <= lastInserted { insertedInKeyOrder = false }
            lastInserted = event.key
        }
        var order = Array(events.indices)
        var sorted = true
        for i in events.indices.dropFirst() where events[i].key < events[i - 1].key {
            sorted = false
            break
        }
        if !sorted { order.sort { events[$0].key != events[$1].key ? events[$0].key < events[$1].key : $0 < $1 } }
        enum State { case none, inserted, deleted, modified }
        var deletedKeys: [Int64] = []
        var modifiedEntries: [ModifiedKeys.Entry] = []
        var i = 0
        while i < order.count {
            let key = events[order[i]].key
            var state = State.none
            var mask = PropertyMask()
            while i < order.count, events[order[i]].key == key {
                let event = events[order[i]]
                switch event.kind {
                case .insert:
                    if state == .deleted {
                        state = .modified
                        mask = .all
                    } else if state == .none {
                        state = .inserted
                    }
                case .delete:
                    state = state == .inserted ? .none : .deleted
                    mask = PropertyMask()
                case .modify:
                    if state == .none || state == .modified {
                        state = .modified
                        mask.formUnion(event.mask)
                    }
                }
                i += 1
            }
            switch state {
            case .none: break
            case .inserted: inserted.insert(key)
            case .deleted: deletedKeys.append(key)
            case .modified: modifiedEntries.append(ModifiedKeys.Entry(key: key, mask: mask))
            }
        }
        deleted = SortedKeys(deletedKeys)
        modified = ModifiedKeys(modifiedEntries)
    }

    init() {}

    /// This change as the events that produce it (to fold a later change on top).
    var events: [Event] {
        var result: [Event] = []
        result.reserveCapacity(deleted.count + modified.count)
        for range in inserted.ranges { for key in range { result.append(Event(kind: .insert, key: key, mask: PropertyMask())) } }
        for key in deleted { result.append(Event(kind: .delete, key: key, mask: PropertyMask())) }
        for entry in modified.entries { result.append(Event(kind: .modify, key: entry.key, mask: entry.mask)) }
        return result
    }

    mutating func merge(_ later: ClassChanges) {
        if isEmpty {
            self = later
            return
        }
        let inOrder = insertedInKeyOrder && later.insertedInKeyOrder
            && (inserted.ranges.last.map { last in later.inserted.ranges.first.map { $0.lowerBound > last.upperBound } ?? true } ?? true)
        self = ClassChanges(folding: events + later.events)
        insertedInKeyOrder = inOrder && insertedInKeyOrder
    }
}

/// What one or more commits changed, by class index of the observing handle. `unknown` says the
/// change log could not tell (it was pruned, or a writer that keeps no log committed): observers
/// then re-read everything and report conservatively.
struct ChangeSet {
    var classes: [Int: ClassChanges] = [:]
    var unknown = false

    var isEmpty: Bool { !unknown && classes.values.allSatisfy(\.isEmpty) }

    subscript(classIndex: Int) -> ClassChanges? { classes[classIndex] }

    mutating func merge(_ later: ChangeSet) {
        unknown = unknown || later.unknown
        for (index, changes) in later.classes {
            if classes[index] == nil {
                classes[index] = changes
            } else {
                classes[index]!.merge(changes)
            }
        }
    }

    /// Whether anything changed in a class other than `classIndex`.
    func touchesOtherThan(_ classIndex: Int) -> Bool {
        unknown || classes.contains { $0.key != classIndex && !$0.value.isEmpty }
    }
}
