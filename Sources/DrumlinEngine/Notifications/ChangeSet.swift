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

/// What changed in one class.
struct ClassChanges: Equatable {
    var inserted = KeyRanges()
    var deleted: Set<Int64> = []
    /// Objects that existed before and after, with the properties that changed.
    var modified: [Int64: PropertyMask] = [:]

    var isEmpty: Bool { inserted.isEmpty && deleted.isEmpty && modified.isEmpty }

    /// Applies a later change on top of this one: an object inserted then deleted leaves no
    /// trace; an object modified then deleted counts as deleted; a new object's modifications
    /// are part of its insertion.
    mutating func noteInserted(_ key: Int64) {
        if deleted.remove(key) != nil {
            // Deleted and inserted again under the same key: to observers it is a change of every property.
            modified[key, default: PropertyMask()].formUnion(.all)
        } else {
            inserted.insert(key)
        }
    }

    mutating func noteDeleted(_ key: Int64) {
        modified[key] = nil
        if !inserted.remove(key) { deleted.insert(key) }
    }

    mutating func noteModified(_ key: Int64, _ mask: PropertyMask) {
        if inserted.contains(key) || deleted.contains(key) { return }
        modified[key, default: PropertyMask()].formUnion(mask)
    }

    mutating func merge(_ later: ClassChanges) {
        for range in later.inserted.ranges {
            if deleted.isEmpty {
                inserted.insert(range)
            } else {
                for key in range { noteInserted(key) }
            }
        }
        for key in later.deleted { noteDeleted(key) }
        for (key, mask) in later.modified { noteModified(key, mask) }
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
