import Dispatch

/// What `Results`, `List`, `MutableSet` and `LinkingObjects` have in common, as Realm Swift's
/// `RealmCollection`: code written against it takes any of them.
///
/// ```swift
/// func names<C: RealmCollection>(_ dogs: C) -> [String] where C.Element == Dog { dogs.map(\.name) }
/// ```
public protocol RealmCollection: RandomAccessCollection, ThreadConfined, CustomStringConvertible where Index == Int {
    var count: Int { get }
    /// `.initial` with the collection, then `.update` after each change (see `Results.observe`).
    func observe(keyPaths: [String]?, on queue: DispatchQueue?,
                 _ block: @escaping (RealmCollectionChange<Self>) -> Void) -> NotificationToken
}

extension Results: RealmCollection {}
extension List: RealmCollection {}
extension MutableSet: RealmCollection {}
extension LinkingObjects: RealmCollection {}

/// Any `RealmCollection` of `Element`, behind one type, as Realm Swift's `AnyRealmCollection`.
public struct AnyRealmCollection<Element: RealmCollectionValue>: RealmCollection {
    public typealias Index = Int

    private let countOf: () -> Int
    private let elementAt: (Int) -> Element
    private let realmOf: () -> Realm?
    private let invalidated: () -> Bool
    private let frozen: () -> Bool
    private let describe: () -> String
    private let freezing: () -> AnyRealmCollection
    private let thawing: () -> AnyRealmCollection?
    private let handover: () -> _Handover
    private let observing: ([String]?, DispatchQueue?, @escaping (RealmCollectionChange<AnyRealmCollection>) -> Void) -> NotificationToken

    /// Wraps a collection; the wrapper reads and observes it.
    public init<C: RealmCollection>(_ base: C) where C.Element == Element {
        countOf = { base.count }
        elementAt = { base[$0] }
        realmOf = { base.realm }
        invalidated = { base.isInvalidated }
        frozen = { base.isFrozen }
        describe = { base.description }
        freezing = { AnyRealmCollection(base.freeze()) }
        thawing = { base.thaw().map { AnyRealmCollection($0) } }
        handover = {
            let inner = base._handover()
            return _Handover { realm in (inner.resolve(realm) as? C).map { AnyRealmCollection($0) } }
        }
        observing = { keyPaths, queue, block in
            base.observe(keyPaths: keyPaths, on: queue) { change in
                switch change {
                case .initial(let collection):
                    block(.initial(AnyRealmCollection(collection)))
                case .update(let collection, let deletions, let insertions, let modifications):
                    block(.update(AnyRealmCollection(collection), deletions: deletions, insertions: insertions, modifications: modifications))
                case .error(let error):
                    block(.error(error))
                }
            }
        }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { countOf() }
    public var count: Int { countOf() }
    public subscript(position: Int) -> Element { elementAt(position) }
    public var realm: Realm? { realmOf() }
    public var isInvalidated: Bool { invalidated() }
    public var isFrozen: Bool { frozen() }
    public var description: String { describe() }
    public func freeze() -> AnyRealmCollection { freezing() }
    public func thaw() -> AnyRealmCollection? { thawing() }
    public func _handover() -> _Handover { handover() }

    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<AnyRealmCollection>) -> Void) -> NotificationToken {
        observing(keyPaths, queue, block)
    }
}
