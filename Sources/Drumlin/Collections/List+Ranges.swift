// MARK: List's range and offset mutations, as Realm Swift's `List` (its MutableCollection and
// RangeReplaceableCollection methods, and SwiftUI's offset-based ones), on top of `insert`,
// `remove(at:)` and `move(from:to:)`: one element at a time, in the database inside a write
// transaction for a managed list.

extension List {
    /// Inserts `newElements` at `index`, in order.
    public func insert<C: Collection>(contentsOf newElements: C, at index: Int) where C.Element == Element {
        precondition(index >= 0 && index <= count, "Index \(index) is out of bounds (count \(count)).")
        for (offset, element) in newElements.enumerated() { insert(element, at: index + offset) }
    }

    /// Removes the elements in `bounds`.
    public func removeSubrange(_ bounds: Range<Int>) {
        precondition(bounds.lowerBound >= 0 && bounds.upperBound <= count, "Range \(bounds) is out of bounds (count \(count)).")
        for index in bounds.reversed() { remove(at: index) }
    }

    /// Replaces the elements in `subrange` with `newElements` (which may be more or fewer).
    public func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C) where C.Element == Element {
        removeSubrange(subrange)
        insert(contentsOf: newElements, at: subrange.lowerBound)
    }

    /// Removes the elements at `offsets` (SwiftUI's `onDelete`).
    public func remove(atOffsets offsets: IndexSet) {
        for index in offsets.reversed() { remove(at: index) }
    }

    /// Moves the elements at `offsets` to before the element at `destination` (an index in the
    /// list before the move; `count` moves them to the end), keeping their order, as
    /// `MutableCollection.move(fromOffsets:toOffset:)` (SwiftUI's `onMove`).
    public func move(fromOffsets offsets: IndexSet, toOffset destination: Int) {
        let total = count
        precondition(destination >= 0 && destination <= total, "Offset \(destination) is out of bounds (count \(total)).")
        let moving = offsets.filter { $0 < total }
        let before = (0 ..< destination).filter { !offsets.contains($0) }
        let after = (destination ..< total).filter { !offsets.contains($0) }
        let target = before + moving + after
        // Each position in turn gets its element, by one `move(from:to:)` where needed.
        var current = Array(0 ..< total)
        for (position, original) in target.enumerated() {
            let from = current.firstIndex(of: original)!
            guard from != position else { continue }
            move(from: from, to: position)
            current.insert(current.remove(at: from), at: position)
        }
    }
}
