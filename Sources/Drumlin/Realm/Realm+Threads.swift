internal import DrumlinEngine

// MARK: Frozen objects and thread-safe references
//
// A frozen Realm is a read-only snapshot of the file's committed state when it was frozen (the
// engine's `frozenSnapshot()`): its objects and collections read that version, from any thread,
// for as long as they live. Freezing twice with nothing written in between gives the same frozen
// Realm. A `ThreadSafeReference` carries what identifies an object or collection (its class, its
// object key, its query) to another thread, where `realm.resolve(_:)` finds it in that thread's
// Realm.

/// What can be frozen, thawed and handed to another thread, as Realm Swift's `ThreadConfined`:
/// objects, `Results`, `List`, `MutableSet`, `Map` and `LinkingObjects`.
public protocol ThreadConfined {
    /// The Realm it belongs to (nil while unmanaged).
    var realm: Realm? { get }
    var isInvalidated: Bool { get }
    /// Whether it reads a frozen version (`freeze()`).
    var isFrozen: Bool { get }
    /// The same object or collection in a frozen Realm: the version as it is now, readable from
    /// any thread, never changing.
    func freeze() -> Self
    /// The live object or collection of a frozen one, in this thread's Realm (nil when it no
    /// longer exists); a live one is returned as it is.
    func thaw() -> Self?
    /// How to find it again in another Realm of the same file (implementation detail).
    func _handover() -> _Handover
}

/// Finds an object or collection again in another Realm of the same file (implementation detail
/// of `ThreadSafeReference`, `freeze()` and `thaw()`).
public struct _Handover: @unchecked Sendable {
    let resolve: (Realm) -> Any?
}

/// A reference to an object or collection that another thread resolves in its own Realm, as
/// Realm Swift's `ThreadSafeReference`: resolved once.
///
/// ```swift
/// let reference = ThreadSafeReference(to: dog)
/// DispatchQueue.global().async {
///     let realm = try! Realm(configuration: configuration)
///     if let dog = realm.resolve(reference) { print(dog.name) }
/// }
/// ```
public struct ThreadSafeReference<Confined: ThreadConfined>: @unchecked Sendable {
    private final class Box: @unchecked Sendable {
        var handover: _Handover?
        let lock = NSLock()
        init(_ handover: _Handover) { self.handover = handover }
    }
    private let box: Box

    /// A reference to a managed object or collection; stops the program for an unmanaged one, as
    /// Realm does.
    public init(to threadConfined: Confined) {
        guard threadConfined.realm != nil else {
            _fatal(Realm.Error(.invalidArgument, "Cannot construct reference to unmanaged object, which can be passed across threads directly"))
        }
        box = Box(threadConfined._handover())
    }

    /// True once resolved (a reference resolves once).
    public var isInvalidated: Bool { box.lock.withLock { box.handover == nil } }

    fileprivate func take() -> _Handover {
        let taken = box.lock.withLock { () -> _Handover? in
            defer { box.handover = nil }
            return box.handover
        }
        guard let taken else { _fatal(Realm.Error(.invalidArgument, "Can only resolve a thread safe reference once.")) }
        return taken
    }
}

extension Realm {
    /// The object or collection of a reference made on another thread, in this Realm; nil when it
    /// was deleted meanwhile.
    public func resolve<Confined: ThreadConfined>(_ reference: ThreadSafeReference<Confined>) -> Confined? {
        reference.take().resolve(self) as? Confined
    }

    /// Whether this Realm is frozen.
    public var isFrozen: Bool { context.isFrozen }

    /// A frozen Realm: the committed state of the file as it is now, read-only, readable from any
    /// thread. Not inside a write transaction.
    public func freeze() -> Realm {
        do {
            return Realm(context: try context.frozen())
        } catch {
            _fatal(Realm.Error(error))
        }
    }

    /// The live Realm of this thread for a frozen one (a live one is returned as it is).
    public func thaw() -> Realm {
        guard isFrozen else { return self }
        do {
            return try Realm(configuration: configuration)
        } catch {
            _fatal(Realm.Error(error))
        }
    }
}

/// `thaw()` and `freeze()` through a handover: the same object or collection in `realm`.
private func moved<T: ThreadConfined>(_ value: T, to realm: Realm) -> T? {
    value._handover().resolve(realm) as? T
}

private func frozenRealm(_ realm: Realm?, _ what: String) -> Realm {
    guard let realm else { _fatal(Realm.Error(.invalidArgument, "Unmanaged \(what) cannot be frozen.")) }
    return realm.freeze()
}

extension _RealmContext {
    /// The object of class `type` (`className` for dynamic objects) with object key `key` in
    /// this handle, or nil when it does not exist.
    func object(_ type: ObjectBase.Type, className: String, key: Int64) -> ObjectBase? {
        do {
            let handleClass = type == DynamicObject.self ? try self.handleClass(named: className) : try self.handleClass(type)
            guard let object = try database.object(ObjectLink(classIndex: handleClass.engineClassIndex, key: key)) else { return nil }
            return wrap(object, of: handleClass, as: type)
        } catch {
            _fatal(Realm.Error(error))
        }
    }
}

extension ObjectBase: ThreadConfined {
    public var isFrozen: Bool { _managedState?.context.isFrozen ?? false }

    public func _handover() -> _Handover {
        guard let state = _managedState else {
            _fatal(Realm.Error(.invalidArgument, "Cannot hand over an unmanaged object."))
        }
        if !state.object.isValid {
            _fatal(Realm.Error(.invalidatedObject, "Object has been deleted or invalidated."))
        }
        let type = Swift.type(of: self)
        let className = state.handleClass.meta.name
        let key = state.object.key
        return _Handover { realm in realm.context.object(type, className: className, key: key) }
    }

    /// This object in a frozen Realm (itself when frozen already); stops the program for an
    /// unmanaged or deleted object, as Realm does.
    public func freeze() -> Self {
        if isFrozen { return self }
        guard let frozen = moved(self, to: frozenRealm(realm, "objects")) else {
            _fatal(Realm.Error(.invalidatedObject, "Object has been deleted or invalidated."))
        }
        return frozen
    }

    /// The live object of a frozen one in this thread's Realm; nil when it was deleted since.
    public func thaw() -> Self? {
        guard let realm else { return self }
        guard realm.isFrozen else { return self }
        return moved(self, to: realm.thaw())
    }
}

extension Results.Source {
    /// The same source in another handle of the file.
    func resolved(in context: _RealmContext) throws -> Results.Source {
        switch self {
        case .all: return self
        case .dynamic(let handleClass): return .dynamic(try context.handleClass(named: handleClass.meta.name))
        case .engine(let results, let type):
            do {
                return .engine(try results.resolved(in: context.database), type)
            } catch {
                throw Realm.Error(error)
            }
        }
    }
}

extension Results: ThreadConfined {
    public var isFrozen: Bool { context.isFrozen }

    public func _handover() -> _Handover {
        let source = self.source
        return _Handover { realm in
            do {
                return Results(context: realm.context, source: try source.resolved(in: realm.context))
            } catch {
                _fatal(Realm.Error(error))
            }
        }
    }

    /// These results in a frozen Realm: the objects as they are now, never changing.
    public func freeze() -> Results {
        if isFrozen { return self }
        return moved(self, to: Realm(context: context).freeze())!
    }

    /// The live results of frozen ones, in this thread's Realm.
    public func thaw() -> Results? {
        guard isFrozen else { return self }
        return moved(self, to: Realm(context: context).thaw())
    }
}

/// The handover of a collection property: its owner's, then the property at `position`.
private func memberHandover<T>(_ owner: ObjectBase?, _ position: Int, _ make: @escaping (ObjectBase, Int) -> T) -> _Handover {
    guard let owner else { _fatal(Realm.Error(.invalidArgument, "Cannot hand over an unmanaged collection.")) }
    let ownerHandover = owner._handover()
    return _Handover { realm in (ownerHandover.resolve(realm) as? ObjectBase).map { make($0, position) } }
}

extension List: ThreadConfined {
    private var owner: ObjectBase? {
        if case .managed(let owner, _) = storage { return owner } else { return nil }
    }
    public var isFrozen: Bool { owner?.isFrozen ?? false }

    public func _handover() -> _Handover {
        guard case .managed(let owner, let position) = storage else { return memberHandover(nil, 0) { List(owner: $0, position: $1) } }
        return memberHandover(owner, position) { List(owner: $0, position: $1) }
    }

    /// This list in a frozen Realm: its elements as they are now.
    public func freeze() -> List {
        if isFrozen { return self }
        return moved(self, to: frozenRealm(realm, "lists"))!
    }

    public func thaw() -> List? {
        guard isFrozen, let realm else { return self }
        return moved(self, to: realm.thaw())
    }
}

extension MutableSet: ThreadConfined {
    public var isInvalidated: Bool { owner?.isInvalidated ?? false }
    private var owner: ObjectBase? {
        if case .managed(let owner, _) = storage { return owner } else { return nil }
    }
    public var isFrozen: Bool { owner?.isFrozen ?? false }

    public func _handover() -> _Handover {
        guard case .managed(let owner, let position) = storage else { return memberHandover(nil, 0) { MutableSet(owner: $0, position: $1) } }
        return memberHandover(owner, position) { MutableSet(owner: $0, position: $1) }
    }

    /// This set in a frozen Realm: its elements as they are now.
    public func freeze() -> MutableSet {
        if isFrozen { return self }
        return moved(self, to: frozenRealm(realm, "sets"))!
    }

    public func thaw() -> MutableSet? {
        guard isFrozen, let realm else { return self }
        return moved(self, to: realm.thaw())
    }
}

extension Map: ThreadConfined {
    public var isInvalidated: Bool { owner?.isInvalidated ?? false }
    private var owner: ObjectBase? {
        if case .managed(let owner, _) = storage { return owner } else { return nil }
    }
    public var isFrozen: Bool { owner?.isFrozen ?? false }

    public func _handover() -> _Handover {
        guard case .managed(let owner, let position) = storage else { return memberHandover(nil, 0) { Map(owner: $0, position: $1) } }
        return memberHandover(owner, position) { Map(owner: $0, position: $1) }
    }

    /// This map in a frozen Realm: its entries as they are now.
    public func freeze() -> Map {
        if isFrozen { return self }
        return moved(self, to: frozenRealm(realm, "maps"))!
    }

    public func thaw() -> Map? {
        guard isFrozen, let realm else { return self }
        return moved(self, to: realm.thaw())
    }
}

extension LinkingObjects: ThreadConfined {
    public var isFrozen: Bool { owner?.isFrozen ?? false }
    public var isInvalidated: Bool { owner?.isInvalidated ?? false }

    public func _handover() -> _Handover {
        memberHandover(owner, position) { LinkingObjects(owner: $0, position: $1) }
    }

    /// These linking objects in a frozen Realm: as they are now.
    public func freeze() -> LinkingObjects {
        if isFrozen { return self }
        return moved(self, to: frozenRealm(realm, "linking objects"))!
    }

    public func thaw() -> LinkingObjects? {
        guard isFrozen, let realm else { return self }
        return moved(self, to: realm.thaw())
    }
}

/// A property that holds an object or collection for use from any thread, as Realm Swift's
/// `@ThreadSafe`: each read finds it again in the reading thread's Realm of the same file (nil
/// when it was deleted, or when nil was stored).
///
/// ```swift
/// final class Holder { @ThreadSafe var dog: Dog? }
/// ```
@propertyWrapper
public final class ThreadSafe<T: ThreadConfined>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (handover: _Handover, configuration: Realm.Configuration)?

    public init(wrappedValue: T?) { set(wrappedValue) }

    public var wrappedValue: T? {
        get {
            guard let (handover, configuration) = lock.withLock({ stored }) else { return nil }
            do {
                return handover.resolve(try Realm(configuration: configuration)) as? T
            } catch {
                _fatal(Realm.Error(error))
            }
        }
        set { set(newValue) }
    }

    private func set(_ value: T?) {
        let new = value.map { value -> (_Handover, Realm.Configuration) in
            guard let realm = value.realm else {
                _fatal(Realm.Error(.invalidArgument, "Only managed objects may be wrapped as thread safe."))
            }
            return (value._handover(), realm.configuration)
        }
        lock.withLock { stored = new }
    }
}

extension Projection: ThreadConfined {
    public var isFrozen: Bool { rootObject.isFrozen }

    public func _handover() -> _Handover {
        let root = rootObject._handover()
        let type = Swift.type(of: self)
        return _Handover { realm in (root.resolve(realm) as? Root).map { type.init(projecting: $0) } }
    }

    /// The projection of the frozen object: its values as they are now, from any thread.
    public func freeze() -> Self {
        if isFrozen { return self }
        return Self(projecting: rootObject.freeze())
    }

    /// The projection of the live object in this thread's Realm; nil when it was deleted since.
    public func thaw() -> Self? {
        guard isFrozen else { return self }
        return rootObject.thaw().map { Self(projecting: $0) }
    }
}
