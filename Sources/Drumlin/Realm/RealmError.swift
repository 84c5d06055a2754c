internal import DrumlinEngine

extension Realm {
    /// An error from the database: a status code (the C API's `DRUMLIN_ERR_*` numbers) and a
    /// message naming the class and property involved.
    public struct Error: Swift.Error, CustomStringConvertible, Equatable, Sendable {
        /// The status code, as in include/drumlin.h.
        public let code: Int32
        /// The code's name (`"DUPLICATE_PRIMARY_KEY"`, `"QUERY"`, ...).
        public let codeName: String
        public let message: String

        init(_ code: EError.Code, _ message: String) {
            self.code = code.rawValue
            codeName = code.name
            self.message = message
        }

        init(_ error: any Swift.Error) {
            if let error = error as? Realm.Error {
                self = error
            } else if let error = error as? EError {
                self.init(error.code, error.message)
            } else {
                self.init(.callback, "\(error)")
            }
        }

        public var description: String { "\(codeName): \(message)" }
        public var localizedDescription: String { message }
    }
}
