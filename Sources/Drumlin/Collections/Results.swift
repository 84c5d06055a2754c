internal import DrumlinEngine

/// Live query results, as Realm Swift's `Results`: every object of a class, filtered, sorted,
/// distinct. A `RandomAccessCollection`: iterate it, index it, take `first`, `last`, `count`.
public struct Results<Element: RealmCollectionValue>: RandomAccessCollection, CustomStringConvertible {
    enum Source {
        case all(ObjectBase.Type)
        case dynamic(HandleClass)
        case engine(EResults, ObjectBase.Type)
    }
    let context: _RealmContext
    let source: Source
    /// For results of a projection class: makes the projection of each object.
    let projecting: ((ObjectBase) -> Element)?

    init(context: _RealmContext, source: Source) {
        self.context = context
        self.source = source
        if let projection = Element.self as? _ProjectionMaking.Type {
            projecting = { projection._project($0) as! Element }
        } else {
            projecting = nil
        }
    }

    /// The element for an object of the results: the object, or its projection.
    @inline(__always)
    func element(_ object: ObjectBase) -> Element {
        if let projecting { return projecting(object) }
        return object as! Element
    }

    var objectType: ObjectBase.Type {
        switch source {
        case .all(let type): return type
        case .dynamic(let handleClass): return handleClass.meta.type
        case .engine(_, let type): return type
        }
    }

    func engineResults() throws -> EResults {
        switch source {
        case .all(let type):
            let handleClass = try context.handleClass(type)
            do { return try context.database.objects(handleClass.meta.name) } catch { throw Realm.Error(error) }
        case .dynamic(let handleClass):
            do { return try context.database.objects(handleClass.meta.name) } catch { throw Realm.Error(error) }
        case .engine(let results, _):
            return results
        }
    }

    var results: EResults {
        do { return try engineResults() } catch { _fatal(error) }
    }

    func derived(_ body: (EResults) throws(EError) -> EResults) -> Results<Element> {
        do {
            return Results(context: context, source: .engine(try body(results), objectType))
        } catch {
            _fatal(Realm.Error(error))
        }
    }

    public var realm: Realm? { Realm(context: context) }
    public var isInvalidated: Bool { context.database.isClosed }

    // MARK: Collection

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }
    public var count: Int { _counted { () throws(EError) in try results.count } }
    /// Whether there is no object: for a class or its filters, SQLite stops at the first object
    /// (the collection's default would count them all).
    public var isEmpty: Bool { _counted { () throws(EError) in try results.isEmpty } }

    public subscript(position: Int) -> Element {
        do {
            let object = try results.object(at: position)
            return element(wrap(object))
        } catch {
            _fatal(Realm.Error(error))
        }
    }

    /// The last object, or nil: read alone for results of a class not read by position since
    /// the last change (the collection's default would read every key to count, then the last).
    public var last: Element? {
        do {
            return try results.last().map { element(wrap($0)) }
        } catch {
            _fatal(Realm.Error(error))
        }
    }

    func wrap(_ object: EObject) -> ObjectBase {
        if case .dynamic = source { return context.wrap(object, as: DynamicObject.self) }
        return context.wrap(object, as: objectType)
    }

    public var description: String { "Results<\(Element.self)> (\(count) objects)" }

    /// Iterates in pages of rows read together, each object with its row already read (so a
    /// loop over results costs one read per page, not one per object and property).
    public func makeIterator() -> Iterator { Iterator(results: self) }

    public struct Iterator: IteratorProtocol {
        let results: Results<Element>
        var buffer: [Element] = []
        var index = 0
        var position = 0
        var finished = false

        init(results: Results<Element>) { self.results = results }

        public mutating func next() -> Element? {
            if index == buffer.count {
                guard !finished else { return nil }
                let asked = position == 0 ? 64 : 1024
                buffer = results.page(from: position, count: asked)
                index = 0
                position += buffer.count
                // A page shorter than asked for is the last: the loop ends there, with no read of
                // an empty page after it (which a query of few matches would pay on every loop).
                finished = buffer.count < asked
                if buffer.isEmpty { return nil }
            }
            defer { index += 1 }
            return buffer[index]
        }
    }

    /// The objects mapped in order, read in pages as by iteration.
    public func map<T>(_ transform: (Element) throws -> T) rethrows -> [T] {
        var result: [T] = []
        var iterator = makeIterator()
        while let element = iterator.next() { result.append(try transform(element)) }
        return result
    }

    /// The objects at `start ..< start + count` (fewer at the end), each with its row.
    func page(from start: Int, count: Int) -> [Element] {
        do {
            let handleClass: HandleClass
            switch source {
            case .dynamic(let dynamic): handleClass = dynamic
            default: handleClass = try context.handleClass(objectType)
            }
            let dynamic: Bool
            if case .dynamic = source { dynamic = true } else { dynamic = false }
            var page: [Element] = []
            page.reserveCapacity(count)
            // A class whose row values all go into storages: each row goes straight into a new
            // object's storages, as a read by primary key does.
            let plan = dynamic ? nil : handleClass.rowFill
            var failure: (any Swift.Error)?
            _ = try results.forEachRow(from: start, maxRows: count, handleClass.rowEngineIndices) { (row) throws(EError) in
                if let plan {
                    guard failure == nil else { return }
                    let instance = context.readInstance(of: handleClass, as: objectType, key: row.key)
                    failure = try context.fill(instance, from: row, plan)
                    page.append(element(instance))
                    return
                }
                var values: [EValue] = []
                values.reserveCapacity(row.count)
                try row.forEach { (_, value) throws(EError) in values.append(try value.value()) }
                let object = dynamic ? context.wrap(row.object, as: DynamicObject.self, row: values)
                                     : context.wrap(row.object, as: objectType, row: values)
                page.append(element(object))
            }
            if let failure { throw failure }
            return page
        } catch {
            _fatal(Realm.Error(error))
        }
    }

    /// The objects in a range of positions.
    public func objects(at indexes: IndexSet) -> [Element] { indexes.map { self[$0] } }

    // MARK: Queries

    /// Objects matching a query in the engine's query language (Realm's), with `%@` (or `$0`)
    /// arguments: `filter("age > %@ AND name BEGINSWITH %@", 2, "R")`.
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> { filter(predicateFormat, arguments: args) }

    func filter(_ predicateFormat: String, arguments: [Any]) -> Results<Element> {
        let (text, values) = QueryArguments.prepare(predicateFormat, arguments, context)
        return derived { (results) throws(EError) in try results.filter(text, values) }
    }

    /// Sorted by a property (Swift name, or a path through links).
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Element> {
        sorted(by: [SortDescriptor(keyPath: keyPath, ascending: ascending)])
    }

    public func sorted<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Iterator.Element == SortDescriptor {
        let keys = keyPaths.map { (keyPath: $0.keyPath, ascending: $0.ascending) }
        return derived { (results) throws(EError) in try results.sorted(by: keys) }
    }

    /// Only the first object of each distinct combination of the properties.
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Iterator.Element == String {
        let paths = Array(keyPaths)
        return derived { (results) throws(EError) in try results.distinct(paths) }
    }

    /// The first position of `object`: for a stored object of these results' class and realm, one
    /// read of the results' keys (no object made per element); otherwise by comparing elements.
    public func index(of object: Element) -> Int? {
        if projecting == nil, let stored = object as? ObjectBase, let state = stored._managedState {
            guard state.context === context, state.object.classIndex == results.classIndex else { return nil }
            do { return try results.index(ofKey: state.object.key) } catch { _fatal(Realm.Error(error)) }
        }
        return firstIndex { $0 == object }
    }

    // MARK: Aggregates

    public func min<T: _Persistable>(ofProperty property: String) -> T? { aggregate(.min, property) }
    public func max<T: _Persistable>(ofProperty property: String) -> T? { aggregate(.max, property) }
    public func sum<T: _Persistable>(ofProperty property: String) -> T { aggregate(.sum, property) ?? T._rlmDefaultValue() }
    public func average<T: _Persistable>(ofProperty property: String) -> T? { aggregate(.avg, property) }

    func aggregate<T: _Persistable>(_ op: EResults.Aggregate, _ property: String) -> T? {
        do {
            let value = try results.aggregate(op, property)
            if case .null = value { return nil }
            return T._rlmFromRawIfPossible(_RawValue(value), context)
        } catch {
            _fatal(Realm.Error(error))
        }
    }
}

extension Results where Element: ObjectBase {
    /// Objects matching a typed query: `where { $0.age > 2 && $0.name.starts(with: "R") }`.
    public func `where`(_ isIncluded: (Query<Element>) -> Query<Bool>) -> Results<Element> {
        let (text, arguments) = isIncluded(Query<Element>()).predicate()
        return filter(text, arguments: arguments)
    }

    public func sorted<V: Comparable>(by keyPath: KeyPath<Element, V>, ascending: Bool = true) -> Results<Element> {
        sorted(byKeyPath: _name(for: keyPath), ascending: ascending)
    }

    public func min<V: _Persistable>(of keyPath: KeyPath<Element, V>) -> V? { min(ofProperty: _name(for: keyPath)) }
    public func max<V: _Persistable>(of keyPath: KeyPath<Element, V>) -> V? { max(ofProperty: _name(for: keyPath)) }
    public func sum<V: _Persistable>(of keyPath: KeyPath<Element, V>) -> V { sum(ofProperty: _name(for: keyPath)) }
    public func average<V: _Persistable>(of keyPath: KeyPath<Element, V>) -> V? { average(ofProperty: _name(for: keyPath)) }

    public func index(matching isIncluded: (Query<Element>) -> Query<Bool>) -> Int? {
        let matching = self.where(isIncluded)
        guard let first = matching.first else { return nil }
        return index(of: first)
    }

    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == PartialKeyPath<Element> {
        distinct(by: keyPaths.map { _name(for: $0) })
    }
}

/// A sort key: a property (Swift name or path) and a direction.
public struct SortDescriptor: Sendable, Hashable, ExpressibleByStringLiteral {
    public let keyPath: String
    public let ascending: Bool

    public init(keyPath: String, ascending: Bool = true) {
        self.keyPath = keyPath
        self.ascending = ascending
    }

    public init<Root: ObjectBase, Value>(keyPath: KeyPath<Root, Value>, ascending: Bool = true) {
        self.init(keyPath: _name(for: keyPath), ascending: ascending)
    }

    public init(stringLiteral keyPath: String) { self.init(keyPath: keyPath) }

    public var reversed: SortDescriptor { SortDescriptor(keyPath: keyPath, ascending: !ascending) }
}

/// Query arguments: Swift values converted to engine values; `%@` placeholders numbered as `$n`.
enum QueryArguments {
    static func prepare(_ format: String, _ arguments: [Any], _ context: _RealmContext) -> (String, [EValue]) {
        var text = ""
        var bound: [Any] = []
        var next = 0
        var index = format.startIndex
        while index < format.endIndex {
            let character = format[index]
            let following = format.index(after: index)
            if character == "%", following < format.endIndex, format[following] == "@" || format[following] == "K" {
                if next < arguments.count {
                    if format[following] == "K" {
                        text += "\(arguments[next])"
                    } else if let shape = arguments[next] as? any RLMGeospatial {
                        // A shape goes into the text as the engine's shape literal.
                        text += shape._queryText
                    } else {
                        text += "$\(bound.count)"
                        bound.append(arguments[next])
                    }
                }
                next += 1
                index = format.index(after: following)
                continue
            }
            text.append(character)
            index = following
        }
        if next == 0 { bound = arguments }
        let arguments = bound
        let values = arguments.map { argument -> EValue in
            if let object = argument as? ObjectBase, let state = object._managedState {
                return .link(ObjectLink(classIndex: state.object.classIndex, key: state.object.key))
            }
            do {
                return try AnyConversion.engineValue(argument, nil)
            } catch {
                _fatal(error)
            }
        }
        return (text, values)
    }
}
