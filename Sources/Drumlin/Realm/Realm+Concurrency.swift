import Synchronization

/// Swift concurrency, as Realm Swift offers it: actor-isolated Realms, `asyncWrite`,
/// `asyncRefresh`, `writeAsync` and friends, and the changes of collections and objects as
/// `AsyncStream`s.
///
/// An actor-isolated Realm is a handle of its own for that actor (not the handle of the thread
/// the actor happens to run on): the actor's serial execution is what confines it, as in Realm
/// Swift. Linux has no run loop, so the "asynchronous" writes of `writeAsync` and
/// `beginAsyncWrite` run at once on the calling thread (see docs/swift.md).
extension Realm {
    /// Opens a Realm isolated to `actor`: use it (and its objects) only from code isolated to
    /// that actor. Realm values opened for one actor and configuration share one handle.
    public init<A: Actor>(configuration: Realm.Configuration = .defaultConfiguration, actor: A) async throws {
        try Task.checkCancellation()
        context = try _RealmContext.shared(for: configuration, confinement: "actor-\(UInt(bitPattern: ObjectIdentifier(actor)))")
    }

    /// Opens a Realm isolated to the calling actor (`Realm.open()` inside an actor method or on
    /// the main actor).
    public static func open(configuration: Realm.Configuration = .defaultConfiguration,
                            _isolation actor: isolated any Actor = #isolation) async throws -> Realm {
        try await Realm(configuration: configuration, actor: actor)
    }

    /// Runs `block` in a write transaction, from async code: committed when it returns, rolled
    /// back when it throws (the error is rethrown). A cancelled task writes nothing and throws
    /// `CancellationError`.
    @discardableResult
    public func asyncWrite<Result>(_isolation actor: isolated any Actor = #isolation, _ block: () throws -> Result) async throws -> Result {
        try Task.checkCancellation()
        return try write(block)
    }

    /// Delivers what other handles committed to this handle's observers; whether anything changed.
    @discardableResult
    public func asyncRefresh(_isolation actor: isolated any Actor = #isolation) async -> Bool {
        refresh()
    }

    /// Identifies a write of `writeAsync` / `beginAsyncWrite` / `commitAsyncWrite`.
    public typealias AsyncTransactionId = UInt32

    /// Runs `block` in a write transaction and commits it, then calls `onComplete` with nil or
    /// the commit's error. Here the write runs at once, on the calling thread.
    @discardableResult
    public func writeAsync(_ block: @escaping () -> Void, onComplete: ((Swift.Error?) -> Void)? = nil) -> AsyncTransactionId {
        let id = beginAsyncWrite(block)
        guard isInWriteTransaction else { return id }
        return commitAsyncWrite(onComplete)
    }

    /// Begins a write transaction and runs `block` in it; the block ends it with
    /// `commitAsyncWrite` (or `cancelWrite`).
    @discardableResult
    public func beginAsyncWrite(_ asyncWriteBlock: @escaping () -> Void) -> AsyncTransactionId {
        beginWrite()
        let id = AsyncWrites.next()
        asyncWriteBlock()
        return id
    }

    /// Commits the write transaction and calls `onComplete` with nil or the commit's error.
    @discardableResult
    public func commitAsyncWrite(allowGrouping: Bool = false, _ onComplete: ((Swift.Error?) -> Void)? = nil) -> AsyncTransactionId {
        let id = AsyncWrites.next()
        do {
            try commitWrite()
            onComplete?(nil)
        } catch {
            onComplete?(error)
        }
        return id
    }

    /// Cancels a write of `writeAsync` that has not run yet. Every such write has run by the
    /// time its id is returned here, so this changes nothing; an id never issued is an error.
    public func cancelAsyncWrite(_ asyncTransactionId: AsyncTransactionId) throws {
        guard AsyncWrites.issued(asyncTransactionId) else {
            throw Realm.Error(.invalidArgument, "No asynchronous write with id \(asyncTransactionId) was begun.")
        }
    }

    /// Whether a write of `writeAsync` is waiting or running: never, once the call has returned.
    public var isPerformingAsynchronousWriteOperations: Bool { false }
}

/// The ids of asynchronous writes, unique in the process.
enum AsyncWrites {
    private static let last = Atomic<UInt32>(0)
    static func next() -> Realm.AsyncTransactionId { last.add(1, ordering: .relaxed).newValue }
    static func issued(_ id: Realm.AsyncTransactionId) -> Bool { id != 0 && id <= last.load(ordering: .relaxed) }
}

extension RealmCollection {
    /// The collection's changes as an `AsyncStream`: `.initial` first, then one `.update` per
    /// delivery (a commit of this handle, or `refresh()` / `asyncRefresh()` bringing others').
    /// The registration ends when the stream's consumer stops.
    public func changes(keyPaths: [String]? = nil) -> AsyncStream<RealmCollectionChange<Self>> {
        AsyncStream { continuation in
            let token = observe(keyPaths: keyPaths, on: nil) { continuation.yield($0) }
            continuation.onTermination = { _ in token.invalidate() }
        }
    }
}

extension _ObjectObservable where Self: ObjectBase {
    /// The object's changes as an `AsyncStream`; it finishes after `.deleted`.
    public func changes(keyPaths: [String]? = nil) -> AsyncStream<ObjectChange<Self>> {
        AsyncStream { continuation in
            let token = observe(keyPaths: keyPaths, on: nil) { change in
                continuation.yield(change)
                if case .deleted = change { continuation.finish() }
            }
            continuation.onTermination = { _ in token.invalidate() }
        }
    }
}
