internal import DrumlinEngine
import Dispatch

typealias ENotificationToken = DrumlinEngine.NotificationToken
typealias ECollectionChange = DrumlinEngine.CollectionChange

/// Keeps a change notification registered, as Realm Swift's `NotificationToken`: notifications
/// stop when `invalidate()` is called or the token is released.
public final class NotificationToken: @unchecked Sendable {
    private(set) var engine: ENotificationToken?

    init(_ engine: ENotificationToken?) { self.engine = engine }

    /// Stops the notifications. Calling it again does nothing.
    public func invalidate() {
        engine?.invalidate()
        engine = nil
    }

    deinit { engine?.invalidate() }
}

/// What a collection notification reports, as Realm Swift's `RealmCollectionChange`: first
/// `.initial` with the collection (delivered by `observe` before it returns), then `.update`
/// after each commit or `refresh()` that changes it. `deletions` are indices in the old
/// collection; `insertions` and `modifications` indices in the new one.
public enum RealmCollectionChange<CollectionType> {
    case initial(CollectionType)
    case update(CollectionType, deletions: [Int], insertions: [Int], modifications: [Int])
    case error(Swift.Error)
}

/// What a dictionary notification reports, as Realm Swift's `RealmMapChange`, by key.
public enum RealmMapChange<Collection> {
    case initial(Collection)
    case update(Collection, deletions: [String], insertions: [String], modifications: [String])
    case error(Swift.Error)
}

/// One changed property of an observed object, as Realm Swift's `PropertyChange`. Values are given
/// for properties stored in the object's row (nil for lists, sets, maps and backlinks).
public struct PropertyChange {
    public let name: String
    public let oldValue: Any?
    public let newValue: Any?
}

/// What an object notification reports, as Realm Swift's `ObjectChange`.
public enum ObjectChange<T> {
    case error(Swift.Error)
    case change(T, [PropertyChange])
    case deleted
}

/// Runs a delivery where the observer asked: at once (on the committing or refreshing thread),
/// or asynchronously on `queue`.
private func dispatch(_ queue: DispatchQueue?, _ work: @escaping () -> Void) {
    guard let queue else { return work() }
    let delivery = Delivery(work: work)
    queue.async { delivery.work() }
}

/// A delivery sent to the observer's queue. Realm's contract: the block runs on the queue it was
/// registered for, and what it captures is the caller's to share safely (as in Realm Swift).
private struct Delivery: @unchecked Sendable {
    let work: () -> Void
}

/// Registers an engine observer; a refused registration (inside a write transaction, an unknown
/// key path) stops the program with the engine's message, as Realm raises there.
private func registered(_ body: () throws(EError) -> ENotificationToken) -> NotificationToken {
    do {
        return NotificationToken(try body())
    } catch {
        _fatal(Realm.Error(error))
    }
}

// MARK: Results

extension Results {
    /// Calls `block` with `.initial(self)` now, then `.update` after each commit through this
    /// handle and each `realm.refresh()` that brings other handles' changes. With `keyPaths`,
    /// only changes to those properties count as modifications.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<Results<Element>>) -> Void) -> NotificationToken {
        let results = self
        let context = self.context
        let token = registered { () throws(EError) in
            try self.results.observe(keyPaths: keyPaths) { change in
                context.didWrite()   // rows cached by managed objects predate this change
                dispatch(queue) {
                    block(.update(results, deletions: change.deletions, insertions: change.insertions, modifications: change.modifications))
                }
            }
        }
        dispatch(queue) { block(.initial(results)) }
        return token
    }

    /// `observe` with key paths written as Swift key paths: `observe(keyPaths: [\Dog.name])`.
    public func observe(keyPaths: [PartialKeyPath<Element>], on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<Results<Element>>) -> Void) -> NotificationToken
        where Element: ObjectBase
    {
        observe(keyPaths: keyPaths.map { _name(for: $0) }, on: queue, block)
    }

    /// The changes as an `AsyncStream`: `.initial` first, then one `.update` per delivery. The
    /// registration ends when the stream's consumer stops.
    public func changes(keyPaths: [String]? = nil) -> AsyncStream<RealmCollectionChange<Results<Element>>> {
        AsyncStream { continuation in
            let token = observe(keyPaths: keyPaths) { continuation.yield($0) }
            continuation.onTermination = { _ in token.invalidate() }
        }
    }
}

extension LinkingObjects {
    /// Observes the objects linking here, as `Results.observe`.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<LinkingObjects<Element>>) -> Void) -> NotificationToken {
        guard let results else { _fatal(Realm.Error(.invalidArgument, "Only managed objects' linking objects can be observed.")) }
        let collection = self
        return results.observe(keyPaths: keyPaths, on: queue) { change in
            switch change {
            case .initial: block(.initial(collection))
            case .update(_, let deletions, let insertions, let modifications):
                block(.update(collection, deletions: deletions, insertions: insertions, modifications: modifications))
            case .error(let error): block(.error(error))
            }
        }
    }
}

// MARK: Lists, sets, maps

private func observeCollection<C>(_ collection: C, _ accessor: DrumlinEngine.CollectionAccessor, _ context: _RealmContext,
                                  keyPaths: [String]?, queue: DispatchQueue?,
                                  _ block: @escaping (RealmCollectionChange<C>) -> Void) -> NotificationToken {
    let token = registered { () throws(EError) in
        try accessor.observe(keyPaths: keyPaths) { change in
            context.didWrite()
            dispatch(queue) {
                block(.update(collection, deletions: change.deletions, insertions: change.insertions, modifications: change.modifications))
            }
        }
    }
    dispatch(queue) { block(.initial(collection)) }
    return token
}

extension List {
    /// Observes the list: `.initial`, then index changes (for lists of objects, a change to an
    /// element's properties is a modification).
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<List<Element>>) -> Void) -> NotificationToken {
        guard let (_, list, context) = managed else { _fatal(Realm.Error(.invalidArgument, "Only lists of managed objects can be observed.")) }
        return observeCollection(self, list, context, keyPaths: keyPaths, queue: queue, block)
    }
}

extension MutableSet {
    /// Observes the set: `.initial`, then index changes in the set's order.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<MutableSet<Element>>) -> Void) -> NotificationToken {
        guard let (set, context) = managed else { _fatal(Realm.Error(.invalidArgument, "Only sets of managed objects can be observed.")) }
        return observeCollection(self, set, context, keyPaths: keyPaths, queue: queue, block)
    }
}

extension Map {
    /// Observes the map: `.initial`, then the keys deleted, inserted and modified.
    public func observe(on queue: DispatchQueue? = nil, _ block: @escaping (RealmMapChange<Map<Key, Value>>) -> Void) -> NotificationToken {
        guard let (map, context) = managed else { _fatal(Realm.Error(.invalidArgument, "Only maps of managed objects can be observed.")) }
        let collection = self
        let token = registered { () throws(EError) in
            try map.observeDictionary { change in
                context.didWrite()
                dispatch(queue) {
                    block(.update(collection, deletions: change.deletions, insertions: change.insertions, modifications: change.modifications))
                }
            }
        }
        dispatch(queue) { block(.initial(collection)) }
        return token
    }
}

// MARK: Objects

/// Gives `observe` its `Self`-typed change (`ObjectChange<Dog>` for a `Dog`).
public protocol _ObjectObservable: AnyObject {}

extension ObjectBase: _ObjectObservable {}

extension _ObjectObservable where Self: ObjectBase {
    /// Calls `block` with `.change(object, properties)` after each commit or `refresh()` that
    /// changes the object's properties (only `keyPaths`, when given), and `.deleted` once when it
    /// is deleted.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (ObjectChange<Self>) -> Void) -> NotificationToken {
        guard let state = _managedState else {
            _fatal(Realm.Error(.invalidArgument, "Only managed objects can be observed: add the object to a realm first."))
        }
        let context = state.context
        return registered { () throws(EError) in
            try state.object.observe(keyPaths: keyPaths) { [weak self] change in
                context.didWrite()
                switch change {
                case .deleted:
                    dispatch(queue) { block(.deleted) }
                case .changed(let properties):
                    guard let self else { return }
                    let converted = properties.map { property in
                        PropertyChange(name: property.name,
                                       oldValue: property.oldValue.flatMap { AnyConversion.swiftValue($0, context) },
                                       newValue: property.newValue.flatMap { AnyConversion.swiftValue($0, context) })
                    }
                    dispatch(queue) { block(.change(self, converted)) }
                }
            }
        }
    }

    /// `observe` with Swift key paths: `dog.observe(keyPaths: [\Dog.name]) { ... }`.
    public func observe(keyPaths: [PartialKeyPath<Self>], on queue: DispatchQueue? = nil,
                        _ block: @escaping (ObjectChange<Self>) -> Void) -> NotificationToken {
        observe(keyPaths: keyPaths.map { _name(for: $0) }, on: queue, block)
    }
}

// MARK: Realm

extension Realm {
    /// Whether another handle, thread or process committed since this handle last refreshed:
    /// a cheap check before `refresh()`.
    public var hasExternalChanges: Bool {
        (try? context.database.hasExternalChanges) ?? false
    }
}
