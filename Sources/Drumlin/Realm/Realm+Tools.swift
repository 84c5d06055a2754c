internal import DrumlinEngine

extension Realm {
    /// How much a `Realm.Configuration.logger` hears.
    /// (The engine's levels; their numbers are the C API's `DRUMLIN_LOG_*`.)
    public enum LogLevel: Sendable, Comparable {
        case debug
        case info
        case warning
        case error

        init(_ level: DrumlinEngine.LogLevel) {
            switch level {
            case .debug: self = .debug
            case .info: self = .info
            case .warning: self = .warning
            case .error: self = .error
            }
        }
    }

    /// Writes the objects of every class (or of `className`) to a file of Extended JSON lines, one
    /// object per line (the format `drumlin export` writes and `importObjects` reads); returns how
    /// many. `progress(done, total)` may return false to stop (nothing is written then).
    @discardableResult
    public func exportObjects(to url: URL, className: String? = nil, progress: ((Int, Int) -> Bool)? = nil) throws -> Int {
        do {
            let report = progress.map { report in { (done: Int64, total: Int64) in report(Int(done), Int(total)) } }
            return Int(try context.database.exportNDJSON(to: url.path, className: className, progress: report))
        } catch {
            throw Realm.Error(error)
        }
    }

    /// Reads objects from a file of Extended JSON lines (see `exportObjects`): all or nothing,
    /// unless `batchSize` commits every so many objects; a bad line is an error naming it.
    /// Outside a write transaction. Returns how many objects were created or updated.
    @discardableResult
    public func importObjects(from url: URL, className: String? = nil, update: UpdatePolicy = .error,
                              batchSize: Int = 0, progress: ((Int, Int) -> Bool)? = nil) throws -> Int {
        do {
            let report = progress.map { report in { (done: Int64, total: Int64) in report(Int(done), Int(total)) } }
            let count = try context.database.importNDJSON(from: url.path, className: className, update: update.engineMode,
                                                         batchSize: batchSize, progress: report)
            context.didWrite()
            return Int(count)
        } catch {
            throw Realm.Error(error)
        }
    }

    /// Every broken invariant of the file: SQLite's integrity check, then links, list entries and
    /// backlinks that point at no object, and embedded objects without exactly one owner (empty
    /// when the file is sound), as `drumlin check` reports them.
    public func check() throws -> [String] {
        do {
            return try context.database.check()
        } catch {
            throw Realm.Error(error)
        }
    }

    /// Rewrites the file without its free pages (outside a write transaction).
    public func compact() throws {
        do {
            try context.database.compact()
        } catch {
            throw Realm.Error(error)
        }
    }
}
