/// A value per class, by class index: what a dictionary keyed by class index holds, in an array
/// (an index is small and dense), so the bulk paths' per-object lookups hash nothing.
struct ClassTable<Value> {
    private var slots: [Value?] = []

    subscript(classIndex: Int) -> Value? {
        get { classIndex < slots.count ? slots[classIndex] : nil }
        set {
            if classIndex >= slots.count {
                guard newValue != nil else { return }
                slots.append(contentsOf: repeatElement(nil, count: classIndex + 1 - slots.count))
            }
            slots[classIndex] = newValue
        }
    }

    /// The value of a class, made from `value` first if there is none; changed in place (a
    /// dictionary or set held here is not copied to be changed).
    subscript(classIndex: Int, default value: @autoclosure () -> Value) -> Value {
        get { self[classIndex] ?? value() }
        _modify {
            if classIndex >= slots.count {
                slots.append(contentsOf: repeatElement(nil, count: classIndex + 1 - slots.count))
            }
            if slots[classIndex] == nil { slots[classIndex] = value() }
            yield &slots[classIndex]!
        }
    }

    /// The classes with a value, and their values, by class index.
    var entries: [(classIndex: Int, value: Value)] {
        slots.indices.compactMap { index in slots[index].map { (index, $0) } }
    }

    mutating func removeAll() { slots.removeAll(keepingCapacity: true) }
}
