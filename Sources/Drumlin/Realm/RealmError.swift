internal import DrumlinEngine

extension Realm {
    /// An error from the database, as Realm Swift's `Realm.Error`: Realm's `code`
    /// (`Realm.Error.Code`, matched in `catch Realm.Error.fileNotFound`), Drumlin's status code
    /// (`statusCode`, the C API's `DRUMLIN_ERR_*` number, and `codeName`), and a message naming
    /// the file, class or property involved.
    ///
    /// ```swift
    /// do {
    ///     _ = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: "/nowhere/x.realm"), readOnly: true))
    /// } catch Realm.Error.fileNotFound {
    ///     print("no such file")
    /// } catch {
    ///     print(error)
    /// }
    /// ```
    public struct Error: Swift.Error, CustomStringConvertible, Equatable, Sendable {
        /// Realm's error codes, with Realm's raw values (`RLMError`).
        public enum Code: Int, Sendable, Equatable {
            case fail = 1
            case fileAccess = 2
            case filePermissionDenied = 3
            case fileExists = 4
            case fileNotFound = 5
            case fileFormatUpgradeRequired = 6
            case incompatibleLockFile = 8
            case addressSpaceExhausted = 9
            case schemaMismatch = 10
            case alreadyOpen = 12
            case invalidInput = 13
            case outOfDiskSpace = 14
            case incompatibleSession = 15
            case unsupportedFileFormatVersion = 16
            case multipleSyncAgents = 17
            case subscriptionFailed = 18
            case fileOperationFailed = 19
            case invalidDatabase = 20
            case incompatibleHistories = 21
            case noSubscriptionForWrite = 22

            /// `catch Realm.Error.fileNotFound`: matches a `Realm.Error` with this code.
            public static func ~= (code: Code, error: Swift.Error) -> Bool {
                (error as? Realm.Error)?.code == code
            }
        }

        public static let fail = Code.fail
        public static let fileAccess = Code.fileAccess
        public static let filePermissionDenied = Code.filePermissionDenied
        public static let fileExists = Code.fileExists
        public static let fileNotFound = Code.fileNotFound
        public static let fileFormatUpgradeRequired = Code.fileFormatUpgradeRequired
        public static let incompatibleLockFile = Code.incompatibleLockFile
        public static let addressSpaceExhausted = Code.addressSpaceExhausted
        public static let schemaMismatch = Code.schemaMismatch
        public static let alreadyOpen = Code.alreadyOpen
        public static let invalidInput = Code.invalidInput
        public static let outOfDiskSpace = Code.outOfDiskSpace
        public static let incompatibleSession = Code.incompatibleSession
        public static let unsupportedFileFormatVersion = Code.unsupportedFileFormatVersion
        public static let multipleSyncAgents = Code.multipleSyncAgents
        public static let subscriptionFailed = Code.subscriptionFailed
        public static let fileOperationFailed = Code.fileOperationFailed
        public static let invalidDatabase = Code.invalidDatabase
        public static let incompatibleHistories = Code.incompatibleHistories
        public static let noSubscriptionForWrite = Code.noSubscriptionForWrite

        /// Realm's code for this error.
        public let code: Code
        /// Drumlin's status code, as in include/drumlin.h (`DRUMLIN_ERR_*`).
        public let statusCode: Int32
        /// The status code's name (`"DUPLICATE_PRIMARY_KEY"`, `"QUERY"`, ...).
        public let codeName: String
        public let message: String
        /// The file involved, when there is one.
        public let fileURL: URL?

        /// Realm's `Realm.Error.callFailed`.
        public static let callFailed = Realm.Error(.fail, userInfo: [NSLocalizedDescriptionKey: "Call failed"])

        /// An error with Realm's code; the message is `userInfo[NSLocalizedDescriptionKey]`, the
        /// file `userInfo[NSFilePathErrorKey]`.
        public init(_ code: Code, userInfo: [String: Any] = [:]) {
            self.code = code
            statusCode = EError.Code.callback.rawValue
            codeName = EError.Code.callback.name
            message = userInfo[NSLocalizedDescriptionKey] as? String ?? "\(code)"
            fileURL = (userInfo[NSFilePathErrorKey] as? String).map { URL(fileURLWithPath: $0) }
        }

        init(_ code: EError.Code, _ message: String, fileURL: URL? = nil) {
            self.code = Self.realmCode(code, message)
            statusCode = code.rawValue
            codeName = code.name
            self.message = message
            self.fileURL = fileURL
        }

        init(_ error: any Swift.Error, fileURL: URL? = nil) {
            if let error = error as? Realm.Error {
                self = error
            } else if let error = error as? EError {
                self.init(error.code, error.message, fileURL: fileURL)
            } else {
                self.init(.callback, "\(error)", fileURL: fileURL)
            }
        }

        /// Realm's code for an engine error (docs/swift.md, "Errors").
        static func realmCode(_ code: EError.Code, _ message: String) -> Code {
            switch code {
            case .file:
                if message.hasSuffix("the file does not exist.") || message.contains("(give a schema to create it)") { return .fileNotFound }
                if message.hasSuffix("the file already exists.") { return .fileExists }
                if message.lowercased().contains("permission denied") { return .filePermissionDenied }
                return .fileAccess
            case .decryptionFailed: return .fileAccess   // realm-core's DecryptionFailed is a FileAccessError
            case .schema, .migrationRequired, .migrationFailed: return .schemaMismatch
            case .corrupt: return .invalidDatabase
            case .invalidArgument, .typeMismatch, .notNullable, .missingValue, .noSuchClass, .noSuchProperty, .query, .limit:
                return .invalidInput
            default: return .fail
            }
        }

        public var description: String { "\(codeName): \(message)" }
        public var localizedDescription: String { message }
        /// Realm's `userInfo`: the message, and the file's path when there is one.
        public var userInfo: [String: Any] {
            var info: [String: Any] = [NSLocalizedDescriptionKey: message]
            if let fileURL { info[NSFilePathErrorKey] = fileURL.path }
            return info
        }
        public var errorCode: Int { code.rawValue }

        /// As in Realm: errors with the same code are equal.
        public static func == (lhs: Error, rhs: Error) -> Bool { lhs.code == rhs.code }
    }
}
