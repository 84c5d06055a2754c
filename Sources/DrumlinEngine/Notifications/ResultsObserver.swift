import DrumlinStorage
import DrumlinValues

/// Observes a `Results`: keeps the object keys it delivered last and, for each batch of changes,
/// decides from what changed whether the query must run again. A modification of properties the
/// query does not read, or a deletion, is mapped to indexes without running it; an insertion, a
/// change to a property the query filters or sorts on, or a change another class it reads
/// through a link runs the query once and diffs the keys.
final class ResultsObserver: ChangeObserver {
    let results: Results
    let filter: PropertyMask
    let dependency: Dependency
    let callback: (CollectionChange) -> Void
    private var keys: [Int64]
    private var indexOfKey: [Int64: Int] = [:]
    private var indexIsCurrent = false
    /// Whether `keys` holds an object more than once (results of a list that repeats it): then
    /// `indexOfKey` names one of its indexes only, and indexes are found by reading `keys`.
    private var hasDuplicates = false

    /// What a query reads.
    struct Dependency {
        /// Properties of the results' class read by filters, sorts and distinct.
        var properties = PropertyMask()
        /// Whether it reads other classes (link paths, backlinks, subqueries, aggregates over links).
        var otherClasses = false
        /// LIMIT or DISTINCT: a deletion can let another object in.
        var deletionsReshape = false
    }

    init(_ results: Results, keyPaths: [String]?, _ connection: Connection, callback: @escaping (CollectionChange) -> Void) throws(DrumlinError) {
        self.results = results
        filter = try propertyFilter(keyPaths, results.info, results.database)
        dependency = Self.dependency(of: results)
        self.callback = callback
        keys = try results.keys(connection)
        rebuildIndex()
    }

    private func rebuildIndex() {
        indexOfKey = Dictionary(minimumCapacity: keys.count)
        for (i, key) in keys.enumerated() { indexOfKey[key] = i }
        hasDuplicates = indexOfKey.count != keys.count
        indexIsCurrent = true
    }

    /// Whether the results read every object of the class (each once).
    private var isEveryObject: Bool {
        if case .all = results.base { return true }
        return false
    }

    func prepare(_ changes: ChangeSet, _ database: Database, _ connection: Connection) throws(DrumlinError) -> (() -> Void)? {
        let info = results.info
        let own = changes[info.index]
        if !indexIsCurrent { rebuildIndex() }
        let linked = try linkedChanges(changes, connection)
        let isModified: (Int64) -> Bool = { [filter] key in
            changes.unknown || own?.modified[key]?.intersects(filter) == true || linked.contains(key)
        }
        let change: CollectionChange
        if let own, case .all = results.base, results.steps.isEmpty, !changes.unknown, own.deleted.isEmpty,
           !own.inserted.isEmpty, own.insertedInKeyOrder {
            // Every object of the class, in creation order: the new ones come last, in the order
            // they were created, which the log says is key order. No query.
            var modifications: [Int] = []
            for (key, mask) in own.modified where mask.intersects(filter) {
                if let i = indexOfKey[key] { modifications.append(i) }
            }
            for key in linked where own.modified[key]?.intersects(filter) != true {
                if let i = indexOfKey[key] { modifications.append(i) }
            }
            let start = keys.count
            keys.reserveCapacity(start + own.inserted.count)
            own.inserted.forEach { keys.append($0) }
            indexIsCurrent = false
            change = CollectionChange(deletions: [], insertions: Array(start..<keys.count), modifications: modifications.sorted())
        } else if needsQuery(changes) {
            let new: [Int64]
            do throws(DrumlinError) {
                new = try results.keys(connection)
            } catch where error.code == .invalidatedObject {
                new = []    // the list's or backlinks' owner was deleted
            }
            if hasDuplicates || (!isEveryObject && Set(new).count != new.count) {
                // An object more than once (a list's results): matched by occurrence, never
                // paired as a replaced slot (results have none).
                change = CollectionDiff.list(old: keys, new: new, pairsReplaced: false, isModified: isModified)
            } else {
                change = CollectionDiff.unique(old: keys, oldIndex: indexOfKey, new: new, isModified: isModified)
            }
            keys = new
            indexIsCurrent = false
        } else {
            var deletions: [Int] = []
            var modifications: [Int] = []
            if hasDuplicates {
                // An object more than once: every index of it.
                let deleted = own?.deleted
                for (i, key) in keys.enumerated() {
                    if deleted?.contains(key) == true {
                        deletions.append(i)
                    } else if own?.modified[key]?.intersects(filter) == true || linked.contains(key) {
                        modifications.append(i)
                    }
                }
            } else {
                if let deleted = own?.deleted, !deleted.isEmpty {
                    for key in deleted { if let i = indexOfKey[key] { deletions.append(i) } }
                }
                if let modified = own?.modified {
                    for (key, mask) in modified where mask.intersects(filter) {
                        if let i = indexOfKey[key] { modifications.append(i) }
                    }
                }
                for key in linked where own?.modified[key]?.intersects(filter) != true {
                    if let i = indexOfKey[key] { modifications.append(i) }
                }
            }
            if !deletions.isEmpty {
                deletions.sort()
                let gone = Set(deletions)
                // Modifications are indexes in the new state: shift them past the deleted rows.
                modifications = modifications.filter { !gone.contains($0) }.map { i in i - deletions.prefix { $0 < i }.count }
                var remaining: [Int64] = []
                remaining.reserveCapacity(keys.count - deletions.count)
                for (i, key) in keys.enumerated() where !gone.contains(i) { remaining.append(key) }
                keys = remaining
                indexIsCurrent = false
            }
            modifications.sort()
            change = CollectionChange(deletions: deletions, insertions: [], modifications: modifications)
        }
        guard !change.isEmpty else { return nil }
        let callback = self.callback
        return { callback(change) }
    }

    /// The objects of the results' class whose linked objects (one link away, through a to-one
    /// link or a list, set or dictionary of links among the filtered properties) changed: as
    /// Realm, a change to a linked object is a modification of the objects linking to it.
    /// Embedded objects are already reported on their parent (ChangeRecorder).
    private func linkedChanges(_ changes: ChangeSet, _ connection: Connection) throws(DrumlinError) -> Set<Int64> {
        guard !changes.unknown else { return [] }
        let info = results.info
        var found: Set<Int64> = []
        for (property, target) in info.targets.enumerated() {
            guard let target, !target.isEmbedded, info.traits[property].type == .object, filter.contains(property),
                  let modified = changes[target.index]?.modified, !modified.isEmpty else { continue }
            let list = "[" + modified.keys.map(String.init).joined(separator: ",") + "]"
            let sql: String
            if let table = info.collectionTables[property] {
                sql = "SELECT DISTINCT owner FROM \(table.name) WHERE value IN (SELECT value FROM json_each(?1))"
            } else {
                sql = "SELECT \(info.keyColumn) FROM \(info.table) WHERE \(quoted(info.property(property).storedName)) IN (SELECT value FROM json_each(?1))"
            }
            let statement = try connection.statement(sql)
            defer { statement.reset() }
            statement.bind(list, at: 1)
            while try statement.step() { found.insert(statement.int64(0)) }
        }
        return found
    }

    /// Whether the changes can alter which objects the results hold, or their order.
    private func needsQuery(_ changes: ChangeSet) -> Bool {
        if changes.unknown { return true }
        let info = results.info
        let own = changes[info.index]
        switch results.base {
        case .all:
            if own?.inserted.isEmpty == false { return true }
        case .list(let owner, let table):
            if let (ownerInfo, _) = results.owner, let ownerChanges = changes[ownerInfo.index],
               let property = ownerInfo.collectionTables.firstIndex(where: { $0?.rawName == table.rawName }) {
                if ownerChanges.modified[owner]?.contains(property) == true || ownerChanges.deleted.contains(owner) { return true }
            }
        case .backlinks(let origin, let property, _):
            if let originChanges = changes[origin.index] {
                if !originChanges.inserted.isEmpty || !originChanges.deleted.isEmpty
                    || originChanges.modified.values.contains(where: { $0.contains(property) }) { return true }
            }
            if let (ownerInfo, ownerKey) = results.owner, changes[ownerInfo.index]?.deleted.contains(ownerKey) == true { return true }
        case .snapshot:
            return false
        }
        if dependency.otherClasses && changes.touchesOtherThan(info.index) { return true }
        guard let own else { return false }
        if dependency.deletionsReshape && !own.deleted.isEmpty { return true }
        if !dependency.properties.isEmpty && own.modified.values.contains(where: { $0.intersects(dependency.properties) }) {
            return true
        }
        return false
    }

    // MARK: What a query reads

    static func dependency(of results: Results) -> Dependency {
        var dependency = Dependency()
        let info = results.info
        func path(_ keyPath: Query.KeyPath) {
            guard let first = keyPath.components.first else { return }
            switch first.kind {
            case .property(let name):
                guard let index = info.propertyIndex(name) else {
                    dependency.otherClasses = true
                    dependency.properties = .all
                    return
                }
                dependency.properties.formUnion(PropertyMask(property: index))
                let type = info.traits[index].type
                if keyPath.components.count > 1 && (type == .object || type == .linkingObjects) { dependency.otherClasses = true }
                if type == .linkingObjects { dependency.otherClasses = true }
            default:
                dependency.otherClasses = true
                dependency.properties = .all
            }
        }
        func expression(_ node: Query.Expression) {
            switch node.kind {
            case .keyPath(let keyPath, _), .typeOf(let keyPath, _):
                path(keyPath)
            case .aggregate(let keyPath, _, let property, _):
                path(keyPath)
                if property != nil { dependency.otherClasses = true }
            case .list(let items, _):
                for item in items { expression(item) }
            case .subquery(let collection, _, let inner):
                path(collection)
                dependency.otherClasses = true
                predicate(inner)
            case .arithmetic(let lhs, _, let rhs):
                expression(lhs)
                expression(rhs)
            default:
                break
            }
        }
        func predicate(_ node: Query.Predicate) {
            switch node.kind {
            case .and(let items), .or(let items): for item in items { predicate(item) }
            case .not(let inner): predicate(inner)
            case .comparison(let comparison):
                expression(comparison.lhs)
                expression(comparison.rhs)
            case .truePredicate, .falsePredicate: break
            }
        }
        for step in results.steps {
            switch step {
            case .filter(let filter, _, _):
                predicate(filter)
            case .postfix(let clause, _, _):
                switch clause.kind {
                case .sort(let keys): keys.forEach { path($0.path) }
                case .distinct(let paths):
                    paths.forEach(path)
                    dependency.deletionsReshape = true
                case .limit: dependency.deletionsReshape = true
                }
            }
        }
        return dependency
    }
}
