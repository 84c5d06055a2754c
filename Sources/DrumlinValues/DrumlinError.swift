/// An error from the Drumlin engine: a stable numeric code (the same numbers as the C API's
/// `DRUMLIN_ERR_*` constants) and a human-readable message that names the class and property
/// involved wherever there is one.
///
/// Match on codes with `catch let error as DrumlinError where error.code == .duplicatePrimaryKey`,
/// or use the static pattern helpers: `catch DrumlinError.duplicatePrimaryKey`.
public struct DrumlinError: Error, CustomStringConvertible, Sendable, Equatable {
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible, CaseIterable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        // The numbers and names of include/drumlin.h's DRUMLIN_ERR_* codes, which are part of the C
        // ABI (explicit, append-only). The engine cannot import the header; a code added, renumbered
        // or renamed on either side fails Tests/DrumlinCTests/StatusCodeTests.swift.
        public static let misuse = Code(rawValue: 2)
        public static let invalidArgument = Code(rawValue: 3)
        public static let schema = Code(rawValue: 4)
        public static let migrationRequired = Code(rawValue: 5)
        public static let migrationFailed = Code(rawValue: 6)
        public static let noSuchClass = Code(rawValue: 7)
        public static let noSuchProperty = Code(rawValue: 8)
        public static let typeMismatch = Code(rawValue: 9)
        public static let notNullable = Code(rawValue: 10)
        public static let missingValue = Code(rawValue: 11)
        public static let duplicatePrimaryKey = Code(rawValue: 12)
        public static let primaryKeyImmutable = Code(rawValue: 13)
        public static let wrongTransactionState = Code(rawValue: 14)
        public static let invalidatedObject = Code(rawValue: 15)
        public static let query = Code(rawValue: 16)
        public static let notSupported = Code(rawValue: 17)
        public static let readOnly = Code(rawValue: 18)
        public static let file = Code(rawValue: 19)
        public static let corrupt = Code(rawValue: 20)
        public static let busy = Code(rawValue: 21)
        public static let limit = Code(rawValue: 22)
        public static let callback = Code(rawValue: 23)
        public static let `internal` = Code(rawValue: 24)
        public static let decryptionFailed = Code(rawValue: 25)
        public static let timeout = Code(rawValue: 26)
        public static let sync = Code(rawValue: 27)

        /// Every error code, in the header's order.
        public static let allCases: [Code] = [
            .misuse, .invalidArgument, .schema, .migrationRequired, .migrationFailed, .noSuchClass,
            .noSuchProperty, .typeMismatch, .notNullable, .missingValue, .duplicatePrimaryKey,
            .primaryKeyImmutable, .wrongTransactionState, .invalidatedObject, .query, .notSupported,
            .readOnly, .file, .corrupt, .busy, .limit, .callback, .internal, .decryptionFailed, .timeout, .sync,
        ]

        /// The header's name without its `DRUMLIN_ERR_` prefix, e.g. "DUPLICATE_PRIMARY_KEY".
        public var name: String {
            switch self {
            case .misuse: "MISUSE"
            case .invalidArgument: "INVALID_ARGUMENT"
            case .schema: "SCHEMA"
            case .migrationRequired: "MIGRATION_REQUIRED"
            case .migrationFailed: "MIGRATION_FAILED"
            case .noSuchClass: "NO_SUCH_CLASS"
            case .noSuchProperty: "NO_SUCH_PROPERTY"
            case .typeMismatch: "TYPE_MISMATCH"
            case .notNullable: "NOT_NULLABLE"
            case .missingValue: "MISSING_VALUE"
            case .duplicatePrimaryKey: "DUPLICATE_PRIMARY_KEY"
            case .primaryKeyImmutable: "PRIMARY_KEY_IMMUTABLE"
            case .wrongTransactionState: "WRONG_TRANSACTION_STATE"
            case .invalidatedObject: "INVALIDATED_OBJECT"
            case .query: "QUERY"
            case .notSupported: "NOT_SUPPORTED"
            case .readOnly: "READ_ONLY"
            case .file: "FILE"
            case .corrupt: "CORRUPT"
            case .busy: "BUSY"
            case .limit: "LIMIT"
            case .callback: "CALLBACK"
            case .internal: "INTERNAL"
            case .decryptionFailed: "DECRYPTION_FAILED"
            case .timeout: "TIMEOUT"
            case .sync: "SYNC"
            default: "UNKNOWN(\(rawValue))"
            }
        }

        public var description: String { name }

        /// Lets `catch DrumlinError.duplicatePrimaryKey` match by code.
        public static func ~= (code: Code, error: any Error) -> Bool {
            (error as? DrumlinError)?.code == code
        }
    }

    public var code: Code
    public var message: String
    /// The SQLite result code behind this error, when SQLite reported it.
    public var sqliteCode: Int32?

    public init(_ code: Code, _ message: String, sqliteCode: Int32? = nil) {
        self.code = code
        self.message = message
        self.sqliteCode = sqliteCode
    }

    public var description: String { "DrumlinError.\(code.name): \(message)" }

    public static let misuse = Code.misuse
    public static let invalidArgument = Code.invalidArgument
    public static let schema = Code.schema
    public static let migrationRequired = Code.migrationRequired
    public static let migrationFailed = Code.migrationFailed
    public static let noSuchClass = Code.noSuchClass
    public static let noSuchProperty = Code.noSuchProperty
    public static let typeMismatch = Code.typeMismatch
    public static let notNullable = Code.notNullable
    public static let missingValue = Code.missingValue
    public static let duplicatePrimaryKey = Code.duplicatePrimaryKey
    public static let primaryKeyImmutable = Code.primaryKeyImmutable
    public static let wrongTransactionState = Code.wrongTransactionState
    public static let invalidatedObject = Code.invalidatedObject
    public static let query = Code.query
    public static let notSupported = Code.notSupported
    public static let readOnly = Code.readOnly
    public static let file = Code.file
    public static let corrupt = Code.corrupt
    public static let busy = Code.busy
    public static let limit = Code.limit
    public static let callback = Code.callback
    public static let `internal` = Code.internal
    public static let decryptionFailed = Code.decryptionFailed
    public static let timeout = Code.timeout
    public static let sync = Code.sync
}
