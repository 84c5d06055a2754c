/// The errors of the sync protocol, with Realm's sync error names and codes where one fits
/// (docs/sync-protocol.md, "error"). After an error frame the service closes the WebSocket with
/// close code `4000 + code`.
public enum SyncErrorCode: Int, Sendable, CaseIterable {
    case unknownMessage = 102
    case badSyntax = 103
    case limitsExceeded = 104
    case badMessageOrder = 109
    case syncProtocolNegotiationFailed = 114
    case otherSessionError = 201
    case tokenExpired = 202
    case badAuthentication = 203
    case permissionDenied = 206
    case badClientVersion = 210
    case badChangeset = 212
    case invalidSchemaChange = 225

    /// Realm's name for the error (`token_expired`).
    public var name: String {
        switch self {
        case .unknownMessage: "unknown_message"
        case .badSyntax: "bad_syntax"
        case .limitsExceeded: "limits_exceeded"
        case .badMessageOrder: "bad_message_order"
        case .syncProtocolNegotiationFailed: "sync_protocol_negotiation_failed"
        case .otherSessionError: "other_session_error"
        case .tokenExpired: "token_expired"
        case .badAuthentication: "bad_authentication"
        case .permissionDenied: "permission_denied"
        case .badClientVersion: "bad_client_version"
        case .badChangeset: "bad_changeset"
        case .invalidSchemaChange: "invalid_schema_change"
        }
    }

    /// What the client should do (Realm's `action` values).
    public var action: String {
        switch self {
        case .unknownMessage, .badSyntax, .limitsExceeded, .badMessageOrder, .syncProtocolNegotiationFailed:
            "ProtocolViolation"
        case .otherSessionError: "Transient"
        case .tokenExpired: "RefreshUser"
        case .badAuthentication: "LogOutUser"
        case .permissionDenied, .badChangeset, .invalidSchemaChange: "ApplicationBug"
        case .badClientVersion: "ClientReset"
        }
    }

    /// Whether reconnecting (with backoff) can succeed without a change on the client's side
    /// beyond a new token.
    public var tryAgain: Bool {
        switch self {
        case .otherSessionError, .tokenExpired: true
        default: false
        }
    }

    /// The WebSocket close code that follows the error frame.
    public var closeCode: UInt16 { UInt16(4000 + rawValue) }

    public init?(name: String) {
        guard let found = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = found
    }
}

/// A protocol error: its code and a message for people.
public struct SyncError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: SyncErrorCode
    public var message: String
    /// The upload the error is about, when it is about one.
    public var seq: Int64?

    public init(_ code: SyncErrorCode, _ message: String, seq: Int64? = nil) {
        self.code = code
        self.message = message
        self.seq = seq
    }

    public var description: String { "\(code.name) (\(code.rawValue)): \(message)" }
}
