internal import DrumlinEngine

/// An ordered list property, as Realm Swift's `List`: `@Persisted var dogs: List<Dog>`.
///
/// Unmanaged, it is a plain array; once its object is managed, it reads and writes the database.
public final class List<Element: RealmCollectionValue>: RandomAccessCollection, _ManagedCopyable, CustomStringConvertible {
    enum Storage {
        case unmanaged([Element])
        case managed(ObjectBase, Int)
    }
    var storage: Storage
    /// Set while a key path is recorded through this list (`\Person.dogs.projectTo.name`).
    var recorder: _KeyPathRecorder?

    /// An empty, unmanaged list.
    public init() { storage = .unmanaged([]) }

    init(owner: ObjectBase, position: Int) { storage = .managed(owner, position) }

    var managed: (owner: ObjectBase, list: EList, context: _RealmContext)? {
        guard case .managed(let owner, let position) = storage, let state = owner._managedState else { return nil }
        do {
            let list = try EList(state.object, propertyIndex: owner._collectionEngineIndex(position, state))
            return (owner, list, state.context)
        } catch {
            _fatal(Realm.Error(error))
        }
    }

    public var realm: Realm? { managed.map { Realm(context: $0.context) } }
    public var isInvalidated: Bool {
        guard case .managed(let owner, _) = storage else { return false }
        return owner.isInvalidated
    }

    // MARK: Collection

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public var count: Int {
        switch storage {
        case .unmanaged(let items): return items.count
        case .managed: return _counted { () throws(EError) in try managed!.list.count }
        }
    }

    public subscript(position: Int) -> Element {
        get {
            switch storage {
            case .unmanaged(let items): return items[position]
            case .managed:
                let (_, list, context) = managed!
                do {
                    return Element._rlmFromRaw(_RawValue(try list.value(at: position)), context)
                } catch {
                    _fatal(Realm.Error(error))
                }
            }
        }
        set { replace(index: position, object: newValue) }
    }

    /// Iterates over the elements as they are when iteration starts, read in one call (not a
    /// count and a read per element).
    public func makeIterator() -> IndexingIterator<[Element]> {
        switch storage {
        case .unmanaged(let items): return items.makeIterator()
        case .managed:
            let (_, list, context) = managed!
            do {
                return try list.values.map { Element._rlmFromRaw(_RawValue($0), context) }.makeIterator()
            } catch {
                _fatal(Realm.Error(error))
            }
        }
    }

    public var description: String { "List<\(Element.self)> [" + map { "\($0)" }.joined(separator: ", ") + "]" }

    // MARK: Mutation

    public func append(_ element: Element) { insert(element, at: count) }

    public func append<S: Sequence>(objectsIn elements: S) where S.Element == Element {
        let items = Array(elements)
        // Values and links of a managed list go to the database in one call; embedded objects
        // are created one by one.
        guard case .managed = storage, items.count > 1, !items.contains(where: { ElementWriter.isEmbedded($0) != nil }) else {
            for element in items { append(element) }
            return
        }
        mutate { _ in } managed: { list, context in
            try list.append(contentsOf: items.map { try ElementWriter.raw($0, context) })
        }
    }

    public func append<S: Sequence>(contentsOf elements: S) where S.Element == Element { append(objectsIn: elements) }

    public func insert(_ element: Element, at index: Int) {
        mutate { items in items.insert(element, at: index) } managed: { list, context in
            if let embedded = ElementWriter.isEmbedded(element) {
                try context.fillEmbedded(embedded) { members throws in
                    try list.insert(json: .object(members), at: index)
                    guard case .link(let link) = try list.value(at: index), let created = try context.database.object(link) else {
                        throw Realm.Error(.internal, "The embedded object was not created.")
                    }
                    return created
                }
            } else {
                try list.insert(try ElementWriter.raw(element, context), at: index)
            }
        }
    }

    public func remove(at index: Int) {
        mutate { items in items.remove(at: index) } managed: { list, _ in try list.remove(at: index) }
    }

    public func removeLast() {
        precondition(count > 0, "Cannot remove the last element of an empty List")
        remove(at: count - 1)
    }

    public func removeFirst() {
        precondition(count > 0, "Cannot remove the first element of an empty List")
        remove(at: 0)
    }

    public func removeAll() {
        mutate { items in items.removeAll() } managed: { list, _ in try list.removeAll() }
    }

    public func move(from: Int, to: Int) {
        mutate { items in items.insert(items.remove(at: from), at: to) } managed: { list, _ in try list.move(from: from, to: to) }
    }

    public func swapAt(_ index1: Int, _ index2: Int) {
        guard index1 != index2 else { return }
        let (low, high) = (Swift.min(index1, index2), Swift.max(index1, index2))
        move(from: high, to: low)
        move(from: low + 1, to: high)
    }

    public func replace(index: Int, object: Element) {
        if managed != nil, ElementWriter.isEmbedded(object) != nil {
            remove(at: index)
            insert(object, at: index)
            return
        }
        mutate { items in items[index] = object } managed: { list, context in
            try list.set(try ElementWriter.raw(object, context), at: index)
        }
    }

    public func index(of element: Element) -> Int? { firstIndex { $0 == element } }

    /// Runs a mutation on the array, or on the database inside a write transaction.
    func mutate(unmanaged: (inout [Element]) -> Void, managed body: (EList, _RealmContext) throws -> Void) {
        switch storage {
        case .unmanaged(var items):
            unmanaged(&items)
            storage = .unmanaged(items)
        case .managed:
            let (_, list, context) = managed!
            do {
                try body(list, context)
            } catch {
                _fatal(Realm.Error(error))
            }
            context.didWrite()
        }
    }

    func _unmanagedCopy() -> Any {
        let copy = List<Element>()
        copy.storage = .unmanaged(Array(self))
        return copy
    }
}

extension List: _Persistable {
    public static var _rlmShape: _PropertyShape {
        var shape = Element._rlmShape
        shape.collection = "list"
        return shape
    }
    public static func _rlmDefaultValue() -> List<Element> { List() }
    public static func _rlmFromRaw(_ raw: _RawValue, _ realm: _RealmContext?) -> List<Element> { List() }
    public func _rlmToRaw(_ realm: _RealmContext?) throws -> _RawValue {
        _RawValue(.list(try map { try $0._rlmToRaw(realm).value }))
    }
    public static func _rlmFromAny(_ value: Any?) -> List<Element>? {
        if let list = value as? List<Element> { return list }
        guard let items = _anyElements(value) else { return nil }
        let list = List()
        for item in items {
            guard let element = Element._rlmFromAny(item) else { return nil }
            list.append(element)
        }
        return list
    }
    public static func _rlmGet(_ object: ObjectBase, _ position: Int) -> List<Element> { List(owner: object, position: position) }
    public static func _rlmSet(_ object: ObjectBase, _ position: Int, _ value: List<Element>) throws {
        let target = List(owner: object, position: position)
        if case .managed(let owner, let p) = value.storage, owner.isSameObject(as: object), p == position { return }
        let items = Array(value)
        target.removeAll()
        target.append(objectsIn: items)
    }
    public static func _rlmRecordingValue(_ recorder: _KeyPathRecorder) -> List<Element> {
        let list = List()
        list.recorder = recorder
        return list
    }
}

extension List: Hashable {
    public static func == (lhs: List<Element>, rhs: List<Element>) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
