/// Key order: reading a class keyed by its int primary key in creation order without a sort.
///
/// A class whose required int primary key is its row key keeps its rows in key order, and their
/// creation order apart, in `_drumlin_seq`. Results come in creation order, so every read of such a
/// class would make SQLite sort what it read. Most programs create objects in increasing key
/// order (ids counting up), and then creation order *is* key order: a read can follow the table,
/// or an index on the filtered column, as it is stored. The `_drumlin_meta` row
/// `key_order:<table>` (`ClassInfo.keyOrderMetaKey`) says that this holds:
///
/// - it is written with the class's table (empty, so in order);
/// - creating an object whose key is not above every key the class had deletes it, in the same
///   transaction (a rollback, or a rolled-back savepoint, restores it with the rest);
/// - a migration that rebuilds a class's table works it out again from the rows.
///
/// A read in key order carries the row's existence as a condition (`ClassInfo.keyOrderGuard`),
/// checked in the read's own snapshot: either the class is in key order, or the read yields nothing
/// and runs again in creation order. No other handle's write can make it wrong.
struct KeyOrderState {
    var ordered: Bool
    /// The greatest key the class has had in this transaction (while `ordered`).
    var maxKey: Int64
}

extension Database {
    /// Before objects of `info` are created in this write transaction: what the key-order check
    /// needs, loaded once per class and transaction.
    func prepareKeyOrder(_ info: ClassInfo, _ connection: Connection) throws(DrumlinError) {
        guard info.hasSequenceColumn, keyOrders[info.index] == nil else { return }
        var state = KeyOrderState(ordered: try storedKeyOrder(info, connection), maxKey: .min)
        if state.ordered {
            let statement = try connection.statement("SELECT max(\(info.keyColumn)) FROM \(info.table)")
            defer { statement.reset() }
            if try statement.step(), !statement.isNull(0) { state.maxKey = statement.int64(0) }
        }
        keyOrders[info.index] = state
    }

    /// After objects of `info` were created with these row keys, in creation order (after
    /// `prepareKeyOrder`): the class leaves key order when a key is not above every earlier one.
    func noteCreated<Keys: Sequence<Int64>>(_ info: ClassInfo, keys: Keys, _ connection: Connection) throws(DrumlinError) {
        guard info.hasSequenceColumn, var state = keyOrders[info.index], state.ordered else { return }
        for key in keys {
            guard key > state.maxKey else {
                state.ordered = false
                try info.unmarkKeyOrdered(connection)
                keyOrderHints[info.index] = false
                break
            }
            state.maxKey = key
        }
        keyOrders[info.index] = state
    }

    /// Whether `info`'s creation order is its key order, as this connection reads the file now;
    /// the reads' hint follows it.
    func storedKeyOrder(_ info: ClassInfo, _ connection: Connection) throws(DrumlinError) -> Bool {
        guard info.hasSequenceColumn else { return false }
        let statement = try connection.statement("SELECT 1 FROM _drumlin_meta WHERE key = ?1")
        defer { statement.reset() }
        statement.bind(info.keyOrderMetaKey, at: 1)
        let ordered = try statement.step()
        keyOrderHints[info.index] = ordered
        return ordered
    }

    /// Whether reads of every object of `info` try key order first.
    func readsInKeyOrder(_ info: ClassInfo) -> Bool {
        info.hasSequenceColumn && keyOrderHints[info.index]
    }

    /// Steps `statement` (bound) to its first row. A read in key order that yields nothing may have
    /// found its class out of key order: then `creationOrder()` gives the same read in creation
    /// order, bound, which is stepped instead (the statement returned is the one to read on).
    func firstRow(_ statement: Statement, byKey: Bool, _ info: ClassInfo, _ connection: Connection,
                  creationOrder: () throws(DrumlinError) -> Statement) throws(DrumlinError) -> (Statement, Bool) {
        if try statement.step() { return (statement, true) }
        guard byKey else { return (statement, false) }
        statement.reset()
        if try storedKeyOrder(info, connection) { return (statement, false) }
        let fallback = try creationOrder()
        return (fallback, try fallback.step())
    }
}
