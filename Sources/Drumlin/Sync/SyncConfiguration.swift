/// Where a Realm's asymmetric objects go (Data Ingest, docs/sync.md): a drumlin-sync service and
/// a provider of the tokens it accepts. Set it as `Realm.Configuration.syncConfiguration`.
///
/// Realm Swift makes this from a logged-in `User` of an `App` (`user.flexibleSyncConfiguration()`).
/// Drumlin has no App service: the application's own backend signs the token (a JWT), and
/// `token` returns it, asked on the session's thread before each connection (nil: no token yet;
/// the session reports it and tries again with backoff). See docs/swift.md, "Sync".
///
/// ```swift
/// var configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: "sensors.realm"), objectTypes: [Reading.self])
/// configuration.syncConfiguration = SyncConfiguration(url: "wss://sync.example.com/sync") { fetchTokenFromMyBackend() }
/// ```
public struct SyncConfiguration: Sendable {
    /// The service's WebSocket URL, `ws://` or `wss://`.
    public let url: String
    /// Returns a token for the next connection, or nil when there is none yet.
    public var token: @Sendable () -> String?
    /// A PEM file of the certificate authorities that a `wss://` service's certificate is checked
    /// against; nil: the system's.
    public var caFile: String?
    /// Errors of the session (Realm Swift's `SyncManager.errorHandler`), called on the session's
    /// thread: a service error (with Realm's sync error code and name), an object the service
    /// already had (227, `object_already_exists`, a warning), or the client's own (code 0). A
    /// fatal one (`SyncError.isFatal`) stops the session until `SyncSession.resume()`.
    public var errorHandler: (@Sendable (SyncError, SyncSession?) -> Void)?

    /// `url`: `ws://` or `wss://` (checked when the Realm opens); `token`: see `token`.
    public init(url: String, caFile: String? = nil, errorHandler: (@Sendable (SyncError, SyncSession?) -> Void)? = nil,
                token: @escaping @Sendable () -> String?) {
        self.url = url
        self.caFile = caFile
        self.errorHandler = errorHandler
        self.token = token
    }
}

/// An error a sync session reports (Realm Swift's `SyncError`): Realm's sync error code and name
/// where one fits (docs/sync-protocol.md), with the action Realm pairs with it.
public struct SyncError: Swift.Error, CustomStringConvertible, Equatable, Sendable {
    /// Realm's sync error code (`227` for `object_already_exists`, `203` for a bad token, ...); 0
    /// for the client's own errors (`no_token`, `invalid_url`, `handshake_rejected`, `local_error`).
    public let code: Int
    /// The error's name (`"object_already_exists"`, `"bad_authentication"`, ...).
    public let name: String
    public let message: String
    /// Realm's action: `"Warning"`, `"Transient"` (retried with backoff), `"ApplicationBug"`, ...
    public let action: String
    /// The session stopped on it and waits for `SyncSession.resume()`.
    public let isFatal: Bool

    public init(code: Int, name: String, message: String, action: String, isFatal: Bool) {
        self.code = code
        self.name = name
        self.message = message
        self.action = action
        self.isFatal = isFatal
    }

    public var description: String { "\(name) (\(code)): \(message)" }
    public var localizedDescription: String { message }
}
