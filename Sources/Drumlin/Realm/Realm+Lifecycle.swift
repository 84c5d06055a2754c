internal import DrumlinEngine

// MARK: Files, copies, migrations and whole-Realm notifications

extension Realm {
    /// Whether the file of a configuration exists (false for an in-memory configuration).
    public static func fileExists(for config: Configuration) -> Bool {
        guard config.inMemoryIdentifier == nil else { return false }
        return FileManager.default.fileExists(atPath: (config.fileURL ?? Configuration.defaultFileURL).path)
    }

    /// Opens the file of a configuration, running its migration if its schema version calls for
    /// one, and closes it again; throws what opening it would throw.
    public static func performMigration(for configuration: Configuration = Configuration.defaultConfiguration) throws {
        try prepareFile(for: configuration)
        _ = try _RealmContext(configuration: configuration, types: configuration.objectTypes ?? ClassMeta.registeredTypes)
    }

    /// What happens before a file is first opened: the checks of settings that go together, and
    /// the seed file copied where there is no file yet.
    static func prepareFile(for configuration: Configuration) throws {
        if configuration.shouldCompactOnLaunch != nil && configuration.readOnly {
            throw Realm.Error(.invalidArgument, "Cannot set `shouldCompactOnLaunch` when `readOnly` is set.")
        }
        guard let seed = configuration.seedFilePath, configuration.inMemoryIdentifier == nil else { return }
        let url = configuration.fileURL ?? Configuration.defaultFileURL
        let manager = FileManager.default
        guard !manager.fileExists(atPath: url.path) else { return }
        guard manager.fileExists(atPath: seed.path) else {
            throw Realm.Error(.file, "Cannot copy the seed file '\(seed.path)': the file does not exist.", fileURL: seed)
        }
        do {
            try manager.copyItem(at: seed, to: url)
        } catch {
            throw Realm.Error(.file, "Cannot copy the seed file '\(seed.path)' to '\(url.path)': \(error.localizedDescription)", fileURL: url)
        }
    }

    /// Writes the committed state to a new file (which must not exist: `Realm.Error.fileExists`),
    /// encrypted with `encryptionKey` (64 bytes) or, without one, plain, whatever this Realm's
    /// file is: Realm's way to add, change or remove encryption (docs/encryption.md). Not inside a
    /// write transaction; nothing is left at `fileURL` when it fails.
    public func writeCopy(toFile fileURL: URL, encryptionKey: Data? = nil) throws {
        do {
            let key = try encryptionKey.map { try EncryptionKey(bytes: $0) }
            try context.database.writeCopy(to: fileURL.path, encryptionKey: key)
        } catch {
            throw Realm.Error(error, fileURL: fileURL)
        }
    }

    /// Writes the committed state to the file of `configuration` (which must not exist), so that
    /// it opens with that configuration: encrypted with its `encryptionKey`, if any.
    public func writeCopy(configuration: Configuration) throws {
        guard configuration.inMemoryIdentifier == nil else {
            throw Realm.Error(.invalidArgument, "Cannot write a copy to an in-memory configuration: give it a fileURL.")
        }
        try writeCopy(toFile: configuration.fileURL ?? Configuration.defaultFileURL, encryptionKey: configuration.encryptionKey)
    }

    /// Ends this thread's use of the Realm's current state: an open write transaction is rolled
    /// back (as Realm does, with its warning), and every value managed objects and collections
    /// of this handle cached is dropped, so their next reads read the file.
    public func invalidate() {
        if isInWriteTransaction { cancelWrite() }
        context.didWrite()
    }

    /// Realm's `autorefresh` (true by default). Reads always see the latest commits of every
    /// handle; changes of other threads and processes are delivered to observers by `refresh()`
    /// (and by the next write), as on a Realm thread without a run loop (see docs/swift.md).
    public var autorefresh: Bool {
        get { context.autorefresh }
        nonmutating set { context.autorefresh = newValue }
    }

    /// What a whole-Realm notification says, as Realm Swift's `Realm.Notification`.
    public enum Notification: String, Sendable {
        /// The Realm changed: a commit on this handle, or other handles' commits brought by
        /// `refresh()`.
        case didChange = "RLMRealmDidChangeNotification"
        /// Other handles committed and this one was not refreshed (see docs/swift.md: Drumlin
        /// reads the latest commits at once, so it does not post this one).
        case refreshRequired = "RLMRealmRefreshRequiredNotification"
    }

    public typealias NotificationBlock = (_ notification: Notification, _ realm: Realm) -> Void

    /// Calls `block` with `.didChange` after each commit through this handle that changed
    /// something and after each `refresh()` that brings other handles' commits, on the thread
    /// that committed or refreshed. Not inside a write transaction.
    public func observe(_ block: @escaping NotificationBlock) -> NotificationToken {
        do {
            let token = try context.database.observeCommits { [weak context] in
                guard let context else { return }
                block(.didChange, Realm(context: context))
            }
            return NotificationToken(token)
        } catch {
            _fatal(Realm.Error(error))
        }
    }

    /// A write may not begin in a frozen Realm, nor while more frozen versions than the
    /// configuration's `maximumNumberOfActiveVersions` are alive.
    func checkWritable() throws {
        if isFrozen {
            throw Realm.Error(.wrongTransactionState, "Can't perform transactions on a frozen Realm")
        }
        if let limit = configuration.maximumNumberOfActiveVersions {
            let active = ActiveVersion.count(configuration.identity) + 1
            if active > limit {
                throw Realm.Error(.limit, "Number of active versions (\(active)) in the Realm exceeded the limit of \(limit)")
            }
        }
    }
}

extension _RealmContext {
    /// Compacts the file when the configuration's `shouldCompactOnLaunch` says so (its first
    /// open in the process).
    func compactIfAsked() throws {
        guard let should = configuration.shouldCompactOnLaunch, configuration.inMemoryIdentifier == nil else { return }
        do {
            let size = try database.storageSize()
            if should(Int(size.total), Int(size.used)) { try database.compact() }
        } catch {
            throw Realm.Error(error)
        }
    }
}

/// The schema version stored in a file, without opening it for use (`Realm.Error.fileNotFound`
/// when there is no file); an encrypted file needs its `encryptionKey` (docs/encryption.md).
public func schemaVersionAtURL(_ fileURL: URL, encryptionKey: Data? = nil) throws -> UInt64 {
    guard FileManager.default.fileExists(atPath: fileURL.path) else {
        throw Realm.Error(.file, "Cannot read the schema version of '\(fileURL.path)': the file does not exist.", fileURL: fileURL)
    }
    do {
        var options = OpenOptions(readOnly: true)
        options.encryptionKey = try encryptionKey.map { try EncryptionKey(bytes: $0) }
        let database = try EDatabase(path: fileURL.path, options: options)
        defer { database.close() }
        return database.schemaVersion
    } catch {
        throw Realm.Error(error, fileURL: fileURL)
    }
}

extension Realm.Configuration: Equatable {
    /// Equal when they open the same file the same way: the file (or in-memory identifier), the
    /// settings, the model classes and the seed file; closures (`migrationBlock`,
    /// `shouldCompactOnLaunch`, `logger`) count only by being set or not.
    public static func == (lhs: Realm.Configuration, rhs: Realm.Configuration) -> Bool {
        func types(_ types: [ObjectBase.Type]?) -> Set<ObjectIdentifier>? { types.map { Set($0.map(ObjectIdentifier.init)) } }
        return lhs.identity == rhs.identity && lhs.readOnly == rhs.readOnly && lhs.schemaVersion == rhs.schemaVersion
            && lhs.deleteRealmIfMigrationNeeded == rhs.deleteRealmIfMigrationNeeded
            && types(lhs.objectTypes) == types(rhs.objectTypes) && lhs.seedFilePath == rhs.seedFilePath
            && lhs.maximumNumberOfActiveVersions == rhs.maximumNumberOfActiveVersions
            && lhs.busyTimeout == rhs.busyTimeout && lhs.durableAgainstPowerLoss == rhs.durableAgainstPowerLoss
            && lhs.quickCheckOnOpen == rhs.quickCheckOnOpen && lhs.slowQueryThreshold == rhs.slowQueryThreshold
            && lhs.encryptionKey == rhs.encryptionKey
            && (lhs.migrationBlock == nil) == (rhs.migrationBlock == nil)
            && (lhs.shouldCompactOnLaunch == nil) == (rhs.shouldCompactOnLaunch == nil)
            && (lhs.logger == nil) == (rhs.logger == nil)
    }
}
