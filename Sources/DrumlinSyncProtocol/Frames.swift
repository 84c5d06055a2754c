import DrumlinValues

/// The protocol versions this module speaks, as WebSocket subprotocol names.
public enum SyncProtocol {
    public static let version = 1
    public static let subprotocol = "drumlin-sync.1"
    public static let path = "/sync"
}

/// What the service enforces, announced in `welcome` so a client never meets them.
public struct SyncLimits: Sendable, Equatable {
    public var maxFrameBytes: Int
    public var maxObjectsPerBatch: Int

    public init(maxFrameBytes: Int = 16 << 20, maxObjectsPerBatch: Int = 10_000) {
        self.maxFrameBytes = maxFrameBytes
        self.maxObjectsPerBatch = maxObjectsPerBatch
    }
}

/// The first frame of a session.
public struct Hello: Sendable, Equatable {
    public var token: String
    public var clientId: String
    /// The synced classes in Drumlin's JSON schema format (a JSON array of object schemas).
    public var schema: JSON

    public init(token: String, clientId: String, schema: JSON) {
        self.token = token
        self.clientId = clientId
        self.schema = schema
    }
}

/// Objects of one class in an upload batch, each as Extended JSON.
public struct InsertGroup: Sendable, Equatable {
    public var className: String
    public var objects: [JSON]

    public init(className: String, objects: [JSON]) {
        self.className = className
        self.objects = objects
    }
}

/// A numbered batch of asymmetric objects.
public struct Upload: Sendable, Equatable {
    public var seq: Int64
    public var inserts: [InsertGroup]

    public init(seq: Int64, inserts: [InsertGroup]) {
        self.seq = seq
        self.inserts = inserts
    }

    public var objectCount: Int { inserts.reduce(0) { $0 + $1.objects.count } }
}

public struct Welcome: Sendable, Equatable {
    public var sessionId: String
    public var userId: String
    public var lastSeq: Int64
    public var limits: SyncLimits

    public init(sessionId: String, userId: String, lastSeq: Int64, limits: SyncLimits) {
        self.sessionId = sessionId
        self.userId = userId
        self.lastSeq = lastSeq
        self.limits = limits
    }
}

public struct Ack: Sendable, Equatable {
    public var seq: Int64
    /// True when the batch had been integrated before (its first ack was lost): nothing written.
    public var duplicate: Bool
    public var inserted: Int
    /// The `_id`s (Extended JSON) of objects whose primary key was already in their table.
    public var existing: [JSON]

    public init(seq: Int64, duplicate: Bool = false, inserted: Int = 0, existing: [JSON] = []) {
        self.seq = seq
        self.duplicate = duplicate
        self.inserted = inserted
        self.existing = existing
    }
}

/// A frame a client sends.
public enum ClientFrame: Sendable, Equatable {
    case hello(Hello)
    case upload(Upload)
}

/// A frame the service sends.
public enum ServerFrame: Sendable, Equatable {
    case welcome(Welcome)
    case ack(Ack)
    case error(SyncError)
}
