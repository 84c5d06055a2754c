import DrumlinStorage

/// Hears every batch of changes delivered to the handle: its own commits that changed something,
/// and, on `refresh()`, other handles' commits (Realm's `realm.observe`, `.didChange`).
final class CommitObserver: ChangeObserver {
    private let callback: () -> Void

    init(_ callback: @escaping () -> Void) { self.callback = callback }

    func prepare(_ changes: ChangeSet, _ database: Database, _ connection: Connection) throws(DrumlinError) -> (() -> Void)? {
        callback
    }
}

extension Database {
    /// Calls `callback` after each commit through this handle that changed something, and after
    /// each `refresh()` that brings other handles' commits: Realm's whole-database notification.
    /// Not from inside a write transaction.
    public func observeCommits(_ callback: @escaping () -> Void) throws(DrumlinError) -> NotificationToken {
        try register { (_) throws(DrumlinError) in CommitObserver(callback) }
    }
}
