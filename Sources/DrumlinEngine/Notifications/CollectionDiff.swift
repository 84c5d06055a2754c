import DrumlinValues

/// What changed in an ordered collection (results, a list, a set), as Realm reports it:
/// `deletions` are indices in the old state, `insertions` and `modifications` indices in the new
/// state, each ascending. An element that moved is a deletion at its old index plus an insertion
/// at its new one; an element that stayed and changed is a modification.
public struct CollectionChange: Sendable, Equatable {
    public var deletions: [Int]
    public var insertions: [Int]
    public var modifications: [Int]

    public init(deletions: [Int] = [], insertions: [Int] = [], modifications: [Int] = []) {
        self.deletions = deletions
        self.insertions = insertions
        self.modifications = modifications
    }

    public var isEmpty: Bool { deletions.isEmpty && insertions.isEmpty && modifications.isEmpty }
}

/// What changed in a dictionary, by key: keys removed, keys added, keys whose value changed.
public struct DictionaryChange: Sendable, Equatable {
    public var deletions: [String]
    public var insertions: [String]
    public var modifications: [String]

    public init(deletions: [String] = [], insertions: [String] = [], modifications: [String] = []) {
        self.deletions = deletions
        self.insertions = insertions
        self.modifications = modifications
    }

    public var isEmpty: Bool { deletions.isEmpty && insertions.isEmpty && modifications.isEmpty }
}

enum CollectionDiff {
    /// The change from `old` to `new`, whose elements are unique (object keys of results).
    /// Elements kept in the same relative order are found as a longest increasing subsequence of
    /// their old positions, so a small change to a large collection reports only what moved.
    static func unique<Element: Hashable>(old: [Element], oldIndex: [Element: Int], new: [Element],
                                          isModified: (Element) -> Bool) -> CollectionChange {
        if old.isEmpty { return CollectionChange(insertions: Array(new.indices)) }
        if new.isEmpty { return CollectionChange(deletions: Array(old.indices)) }
        var inBoth: [(new: Int, old: Int)] = []
        var insertions: [Int] = []
        var seen = [Bool](repeating: false, count: old.count)
        for (n, element) in new.enumerated() {
            if let o = oldIndex[element] {
                inBoth.append((n, o))
                seen[o] = true
            } else {
                insertions.append(n)
            }
        }
        var deletions: [Int] = []
        for (o, kept) in seen.enumerated() where !kept { deletions.append(o) }
        let stays = longestIncreasing(inBoth.map(\.old))
        var modifications: [Int] = []
        for (i, pair) in inBoth.enumerated() {
            if stays[i] {
                if isModified(new[pair.new]) { modifications.append(pair.new) }
            } else {
                deletions.append(pair.old)
                insertions.append(pair.new)
            }
        }
        deletions.sort()
        insertions.sort()
        return CollectionChange(deletions: deletions, insertions: insertions, modifications: modifications)
    }

    /// The change between two lists that may repeat elements: the common prefix and suffix are
    /// kept, and the middle is matched by a longest common subsequence (for middles up to
    /// `lcsLimit` cells; beyond, each element is told apart by its occurrence number and matched
    /// as unique). With `pairsReplaced` (lists, not sets), a slot whose element was replaced in
    /// place is a modification, as Realm reports `list[i] = x`: between two kept elements, the
    /// first deleted old element and the first inserted new one are one slot, and so on
    /// (`pairReplaced`), so the change stays exact.
    static func list<Element: Hashable>(old: [Element], new: [Element], pairsReplaced: Bool = true,
                                        isModified: (Element) -> Bool) -> CollectionChange {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
              old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        let a = Array(old[prefix..<(old.count - suffix)])
        let b = Array(new[prefix..<(new.count - suffix)])
        var change: CollectionChange
        if a.count * b.count <= lcsLimit {
            change = commonSubsequence(a, b, isModified: isModified)
        } else {
            change = byOccurrence(a, b, isModified: isModified)
        }
        change.deletions = change.deletions.map { $0 + prefix }
        change.insertions = change.insertions.map { $0 + prefix }
        change.modifications = change.modifications.map { $0 + prefix }
        for i in 0..<prefix where isModified(new[i]) { change.modifications.append(i) }
        for i in (new.count - suffix)..<new.count where isModified(new[i]) { change.modifications.append(i) }
        change.deletions.sort()
        change.insertions.sort()
        if pairsReplaced { pairReplaced(&change, oldCount: old.count, newCount: new.count) }
        change.modifications = Array(Set(change.modifications)).sorted()
        return change
    }

    /// Turns deletions and insertions that are one slot into modifications. The kept elements
    /// (old indices not deleted) are, in order, the new indices not inserted; between two of them
    /// (a gap), the i-th deleted old element and the i-th inserted new element take the same
    /// place, so reporting the new index as modified instead still applies exactly. A deletion
    /// and an insertion in different gaps are never one slot, whatever their indices.
    static func pairReplaced(_ change: inout CollectionChange, oldCount: Int, newCount: Int) {
        guard !change.deletions.isEmpty, !change.insertions.isEmpty else { return }
        var deletions: [Int] = [], insertions: [Int] = [], replaced: [Int] = []
        var d = 0, i = 0, o = 0, n = 0
        while o < oldCount || n < newCount {
            let firstDeletion = d, firstInsertion = i
            while d < change.deletions.count, change.deletions[d] == o { d += 1; o += 1 }
            while i < change.insertions.count, change.insertions[i] == n { i += 1; n += 1 }
            let pairs = Swift.min(d - firstDeletion, i - firstInsertion)
            replaced.append(contentsOf: change.insertions[firstInsertion..<(firstInsertion + pairs)])
            deletions.append(contentsOf: change.deletions[(firstDeletion + pairs)..<d])
            insertions.append(contentsOf: change.insertions[(firstInsertion + pairs)..<i])
            guard o < oldCount, n < newCount else { break }
            o += 1  // a kept element: old index o is new index n
            n += 1
        }
        change.deletions = deletions
        change.insertions = insertions
        change.modifications.append(contentsOf: replaced)
    }

    static let lcsLimit = 1 << 22

    /// Dynamic-programming LCS; ties keep the later old elements, so moving one element forward
    /// reads as its deletion and insertion.
    private static func commonSubsequence<Element: Hashable>(_ a: [Element], _ b: [Element], isModified: (Element) -> Bool) -> CollectionChange {
        let n = a.count, m = b.count
        var table = [Int32](repeating: 0, count: (n + 1) * (m + 1))
        for i in 1...max(n, 1) where n > 0 {
            for j in 1...max(m, 1) where m > 0 {
                table[i * (m + 1) + j] = a[i - 1] == b[j - 1]
                    ? table[(i - 1) * (m + 1) + j - 1] + 1
                    : max(table[(i - 1) * (m + 1) + j], table[i * (m + 1) + j - 1])
            }
        }
        var change = CollectionChange()
        var i = n, j = m
        while i > 0 || j > 0 {
            if i > 0, j > 0, a[i - 1] == b[j - 1] {
                if isModified(b[j - 1]) { change.modifications.append(j - 1) }
                i -= 1
                j -= 1
            } else if j > 0, i == 0 || table[i * (m + 1) + j - 1] >= table[(i - 1) * (m + 1) + j] {
                change.insertions.append(j - 1)
                j -= 1
            } else {
                change.deletions.append(i - 1)
                i -= 1
            }
        }
        change.deletions.reverse()
        change.insertions.reverse()
        change.modifications.reverse()
        return change
    }

    private static func byOccurrence<Element: Hashable>(_ a: [Element], _ b: [Element], isModified: (Element) -> Bool) -> CollectionChange {
        func occurrences(_ elements: [Element]) -> [Occurrence<Element>] {
            var counts: [Element: Int] = [:]
            return elements.map { element in
                let number = counts[element, default: 0]
                counts[element] = number + 1
                return Occurrence(element: element, number: number)
            }
        }
        let oldOccurrences = occurrences(a)
        var oldIndex: [Occurrence<Element>: Int] = [:]
        for (i, occurrence) in oldOccurrences.enumerated() { oldIndex[occurrence] = i }
        return unique(old: oldOccurrences, oldIndex: oldIndex, new: occurrences(b)) { isModified($0.element) }
    }

    /// An element told apart from its repeats by how many came before it.
    struct Occurrence<Element: Hashable>: Hashable {
        var element: Element
        var number: Int
    }

    /// Marks the elements of one longest strictly increasing subsequence (patience sorting,
    /// O(n log n)).
    static func longestIncreasing(_ values: [Int]) -> [Bool] {
        var tails: [Int] = []          // indexes into values: the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (i, value) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let mid = (low + high) / 2
                if values[tails[mid]] < value { low = mid + 1 } else { high = mid }
            }
            if low > 0 { previous[i] = tails[low - 1] }
            if low == tails.count { tails.append(i) } else { tails[low] = i }
        }
        var marks = [Bool](repeating: false, count: values.count)
        var i = tails.last ?? -1
        while i >= 0 {
            marks[i] = true
            i = previous[i]
        }
        return marks
    }
}

/// A `Value` usable as a dictionary key, with the same equality as `Value`.
struct HashableValue: Hashable {
    let value: Value

    static func == (lhs: HashableValue, rhs: HashableValue) -> Bool { lhs.value == rhs.value }

    func hash(into hasher: inout Hasher) { Self.hash(value, into: &hasher) }

    private static func hash(_ value: Value, into hasher: inout Hasher) {
        switch value {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .int(let i): hasher.combine(i)
        case .float(let f): hasher.combine(f == 0 ? 0 : UInt64(f.bitPattern))   // 0.0 == -0.0
        case .double(let d): hasher.combine(d == 0 ? 0 : d.bitPattern)
        case .decimal(let d): hasher.combine(d)
        case .string(let s): hasher.combine(s)
        case .data(let d): hasher.combine(d)
        case .date(let t): hasher.combine(t)
        case .objectId(let o): hasher.combine(o)
        case .uuid(let u): hasher.combine(u)
        case .link(let l): hasher.combine(l)
        case .list(let items):
            hasher.combine(items.count)
            for item in items { hash(item, into: &hasher) }
        case .dictionary(let entries):
            hasher.combine(entries.count)
            for entry in entries {
                hasher.combine(entry.key)
                hash(entry.value, into: &hasher)
            }
        }
    }
}
