internal import DrumlinEngine

/// An unordered set property without duplicates, as Realm Swift's `MutableSet`.
public final class MutableSet<Element: RealmCollectionValue>: RandomAccessCollection, _ManagedCopyable, CustomStringConvertible {
    enum Storage {
        case unmanaged([Element])
        case managed(ObjectBase, Int)
    }
    var storage: Storage

    public init() { storage = .unmanaged([]) }
    init(owner: ObjectBase, position: Int) { storage = .managed(owner, position) }

    var managed: (set: ESet, context: _RealmContext)? {
        guard case .managed(let owner, let position) = storage, let state = owner._managedState else { return nil }
        do {
            return (try ESet(state.object, propertyIndex: owner._collectionEngineIndex(position, state)), state.context)
        } catch {
            _fatal(Realm.Error(error))
        }
    }

    public var realm: Realm? { managed.map { Realm(context: $0.context) } }
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public var count: Int {
        switch storage {
        case .unmanaged(let items): return items.count
        case .managed: return _counted { () throws(EError) in try managed!.set.count }
        }
    }

    public subscript(position: Int) -> Element {
        switch storage {
        case .unmanaged(let items): return items[position]
        case .managed:
            let (set, context) = managed!
            do {
                return Element._rlmFromRaw(_RawValue(try set.value(at: position)), context)
            } catch {
                _fatal(Realm.Error(error))
            }
        }
    }

    /// Iterates over the elements as they are when iteration starts, read in one call (not a
    /// count and a read per element).
    public func makeIterator() -> IndexingIterator<[Element]> {
        switch storage {
        case .unmanaged(let items): return items.makeIterator()
        case .managed:
            let (set, context) = managed!
            do {
                return try set.values.map { Element._rlmFromRaw(_RawValue($0), context) }.makeIterator()
            } catch {
                _fatal(Realm.Error(error))
            }
        }
    }

    public var description: String { "MutableSet<\(Element.self)> {" + map { "\($0)" }.joined(separator: ", ") + "}" }

    public func contains(_ element: Element) -> Bool {
        switch storage {
        case .unmanaged(let items): return items.contains(element)
        case .managed:
            let (set, context) = managed!
            guard let raw = try? ElementWriter.raw(element, context) else { return false }
            return (try? set.contains(raw)) ?? false
        }
    }

    public func insert(_ element: Element) {
        mutate { items in if !items.contains(element) { items.append(element) } } managed: { set, context in
            _ = try set.insert(try ElementWriter.raw(element, context))
        }
    }

    public func insert<S: Sequence>(objectsIn elements: S) where S.Element == Element {
        for element in Array(elements) { insert(element) }
    }

    public func remove(_ element: Element) {
        mutate { items in items.removeAll { $0 == element } } managed: { set, context in
            _ = try set.remove(try ElementWriter.raw(element, context))
        }
    }

    public func removeAll() {
        mutate { items in items.removeAll() } managed: { set, _ in try set.removeAll() }
    }

    public func isSubset<S: Sequence>(of other: S) -> Bool where S.Element == Element {
        let others = Array(other)
        return allSatisfy { others.contains($0) }
    }

    public func intersects<S: Sequence>(_ other: S) -> Bool where S.Element == Element {
        Array(other).contains { contains($0) }
    }

    /// Keeps only the elements also in `other`.
    public func formIntersection<S: Sequence>(_ other: S) where S.Element == Element {
        let others = Array(other)
        for element in Array(self) where !others.contains(element) { remove(element) }
    }

    /// Adds the elements of `other`.
    public func formUnion<S: Sequence>(_ other: S) where S.Element == Element { insert(objectsIn: other) }

    /// Removes the elements of `other`.
    public func subtract<S: Sequence>(_ other: S) where S.Element == Element {
        for element in Array(other) { remove(element) }
    }

    func mutate(unmanaged: (inout [Element]) -> Void, managed body: (ESet, _RealmContext) throws -> Void) {
        switch storage {
        case .unmanaged(var items):
            unmanaged(&items)
            storage = .unmanaged(items)
        case .managed:
            let (set, context) = managed!
            do {
                try body(set, context)
            } catch {
                _fatal(Realm.Error(error))
            }
            context.didWrite()
        }
    }

    func _unmanagedCopy() -> Any {
        let copy = MutableSet<Element>()
        copy.storage = .unmanaged(Array(self))
        return copy
    }
}

extension MutableSet: _Persistable {
    public static var _rlmShape: _PropertyShape {
        var shape = Element._rlmShape
        shape.collection = "set"
        return shape
    }
    public static func _rlmDefaultValue() -> MutableSet<Element> { MutableSet() }
    public static func _rlmFromRaw(_ raw: _RawValue, _ realm: _RealmContext?) -> MutableSet<Element> { MutableSet() }
    public func _rlmToRaw(_ realm: _RealmContext?) throws -> _RawValue {
        _RawValue(.list(try map { try $0._rlmToRaw(realm).value }))
    }
    public static func _rlmFromAny(_ value: Any?) -> MutableSet<Element>? {
        if let set = value as? MutableSet<Element> { return set }
        guard let items = _anyElements(value) else { return nil }
        let set = MutableSet()
        for item in items {
            guard let element = Element._rlmFromAny(item) else { return nil }
            set.insert(element)
        }
        return set
    }
    public static func _rlmGet(_ object: ObjectBase, _ position: Int) -> MutableSet<Element> { MutableSet(owner: object, position: position) }
    public static func _rlmSet(_ object: ObjectBase, _ position: Int, _ value: MutableSet<Element>) throws {
        if case .managed(let owner, let p) = value.storage, owner.isSameObject(as: object), p == position { return }
        let items = Array(value)
        let target = MutableSet(owner: object, position: position)
        target.removeAll()
        target.insert(objectsIn: items)
    }
}

extension MutableSet: Hashable {
    public static func == (lhs: MutableSet<Element>, rhs: MutableSet<Element>) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
