import DrumlinSyncProtocol
import DrumlinValues
import Foundation
import Logging
import PostgresNIO

/// The service's settings: each a flag, an environment variable (`DRUMLIN_SYNC_<NAME>`) or a key of
/// the JSON file given by `--config`; a flag wins over the environment, which wins over the file
/// (docs/sync.md, "Settings").
struct Settings {
    static let keys = ["postgres", "listen", "jwtPublicKey", "jwtAudience", "jwtIssuer", "tableSchema",
                       "maxFrameBytes", "maxObjectsPerBatch", "logLevel"]

    var values: [String: String] = [:]

    /// `flags` holds the flags given (by key); `configPath` the --config flag.
    init(flags: [String: String?], configPath: String?, environment: [String: String]) throws {
        if let path = configPath ?? environment["DRUMLIN_SYNC_CONFIG"] {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw StartupError("cannot read the config file '\(path)'")
            }
            let json: JSON
            do { json = try JSON.parse(text) } catch { throw StartupError("the config file '\(path)' is not JSON: \(error)") }
            guard let members = json.objectMembers else { throw StartupError("the config file '\(path)' must hold a JSON object") }
            for (key, value) in members {
                guard Self.keys.contains(key) else {
                    throw StartupError("unknown setting '\(key)' in '\(path)'; the settings are \(Self.keys.joined(separator: ", "))")
                }
                switch value {
                case .string(let s): values[key] = s
                case .int(let i): values[key] = String(i)
                default: throw StartupError("setting '\(key)' in '\(path)' must be a string or an integer")
                }
            }
        }
        for key in Self.keys {
            if let value = environment[Self.environmentName(key)] { values[key] = value }
            if let flag = flags[key], let value = flag { values[key] = value }
        }
    }

    static func environmentName(_ key: String) -> String {
        var name = "DRUMLIN_SYNC_"
        for c in key {
            if c.isUppercase { name += "_" }
            name += c.uppercased()
        }
        return name
    }

    func required(_ key: String, flag: String) throws -> String {
        guard let value = values[key], !value.isEmpty else {
            throw StartupError("no \(flag) given (or \(Self.environmentName(key)), or \"\(key)\" in the --config file)")
        }
        return value
    }

    func integer(_ key: String, default value: Int, minimum: Int) throws -> Int {
        guard let text = values[key] else { return value }
        guard let parsed = Int(text), parsed >= minimum else {
            throw StartupError("setting \(key) must be an integer of at least \(minimum), got '\(text)'")
        }
        return parsed
    }

    var logLevel: Logger.Level {
        get throws {
            let text = values["logLevel"] ?? "info"
            guard let level = Logger.Level(rawValue: text) else {
                throw StartupError("log level '\(text)' is not one of trace, debug, info, notice, warning, error, critical")
            }
            return level
        }
    }

    var limits: SyncLimits {
        get throws {
            SyncLimits(maxFrameBytes: try integer("maxFrameBytes", default: 16 << 20, minimum: 1024),
                       maxObjectsPerBatch: try integer("maxObjectsPerBatch", default: 10_000, minimum: 1))
        }
    }

    /// `HOST:PORT` (`[::1]:8080` for IPv6).
    func listenAddress() throws -> (host: String, port: Int) {
        let text = values["listen"] ?? "127.0.0.1:8080"
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            throw StartupError("listen address '\(text)' is not HOST:PORT")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host.isEmpty ? "0.0.0.0" : host, port)
    }

    /// libpq's URL form: `postgres://user:password@host:port/database?host=/socket/dir&sslmode=disable|prefer|require`.
    static func postgresConfiguration(_ url: String) throws -> PostgresClient.Configuration {
        guard let parts = URLComponents(string: url), parts.scheme == "postgres" || parts.scheme == "postgresql" else {
            throw StartupError("the PostgreSQL URL '\(url)' is not postgres://user[:password]@host[:port]/database")
        }
        let query = Dictionary((parts.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { _, last in last }
        let user = parts.user?.removingPercentEncoding ?? query["user"] ?? "postgres"
        let password = parts.password?.removingPercentEncoding ?? query["password"]
        var database = String(parts.path.dropFirst())
        if database.isEmpty { database = query["dbname"] ?? user }
        let port = parts.port ?? Int(query["port"] ?? "") ?? 5432
        let tls: PostgresClient.Configuration.TLS
        switch query["sslmode"] ?? "prefer" {
        case "disable": tls = .disable
        case "prefer", "allow": tls = .prefer(.makeClientConfiguration())
        case "require", "verify-ca", "verify-full": tls = .require(.makeClientConfiguration())
        case let other: throw StartupError("sslmode '\(other)' is not disable, prefer or require")
        }
        var configuration: PostgresClient.Configuration
        if let socketDirectory = query["host"], socketDirectory.hasPrefix("/") {
            configuration = .init(unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: user,
                                  password: password, database: database)
        } else {
            guard let host = parts.host, !host.isEmpty else { throw StartupError("the PostgreSQL URL '\(url)' names no host") }
            configuration = .init(host: host, port: port, username: user, password: password, database: database, tls: tls)
        }
        configuration.options.maximumConnections = 16
        return configuration
    }
}

/// Runs `body` with a limit; the error (a StartupError, also used by sessions) says what timed out.
func withTimeout<T: Sendable>(_ limit: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            throw StartupError("\(what) did not answer within \(limit.components.seconds) s")
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}
