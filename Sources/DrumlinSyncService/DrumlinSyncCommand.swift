import ArgumentParser
import Foundation
import Logging
import PostgresNIO

/// `drumlin-sync migrate` and `drumlin-sync serve` (docs/sync.md).
@main
struct DrumlinSyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drumlin-sync",
        abstract: "The Drumlin sync service: Data Ingest from Drumlin clients into PostgreSQL.",
        subcommands: [Migrate.self, Serve.self])
}

struct SharedOptions: ParsableArguments {
    @Option(help: "PostgreSQL URL, postgres://user@host:port/database (env DRUMLIN_SYNC_POSTGRES)")
    var postgres: String?
    @Option(help: "A JSON file of settings (env DRUMLIN_SYNC_CONFIG)")
    var config: String?
    @Option(help: "trace, debug, info, notice, warning, error or critical (env DRUMLIN_SYNC_LOG_LEVEL)")
    var logLevel: String?
}

extension SharedOptions {
    func settings(_ flags: [String: String?] = [:]) throws -> Settings {
        var all = flags
        all["postgres"] = postgres
        all["logLevel"] = logLevel
        return try Settings(flags: all, configPath: config, environment: ProcessInfo.processInfo.environment)
    }
}

/// Runs a command's body, printing a StartupError as one line and exiting with status 1.
func reportingStartupErrors(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as StartupError {
        FileHandle.standardError.write(Data("drumlin-sync: \(error.description)\n".utf8))
        throw ExitCode.failure
    }
}

func bootstrapLogging(_ level: Logger.Level) -> Logger {
    LoggingSystem.bootstrap { label in JSONLogHandler(label: label, logLevel: level) }
    return Logger(label: "drumlin-sync")
}

/// A PostgresClient running for the duration of `body`.
func withPostgres<T: Sendable>(_ url: String, logger: Logger, _ body: @escaping @Sendable (PostgresClient) async throws -> T) async throws -> T {
    let client = PostgresClient(configuration: try Settings.postgresConfiguration(url), backgroundLogger: logger)
    return try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { await client.run(); return nil }
        defer { group.cancelAll() }
        return try await body(client)
    }
}

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create or upgrade the service's tables (schema drumlin_sync); safe to run again.")

    @OptionGroup var shared: SharedOptions

    func run() async throws {
        try await reportingStartupErrors {
            let settings = try shared.settings()
            let logger = bootstrapLogging(try settings.logLevel)
            let url = try settings.required("postgres", flag: "--postgres")
            let (before, after) = try await withPostgres(url, logger: logger) { client in
                try await withTimeout(.seconds(30), "PostgreSQL") {
                    do {
                        return try await Migrations.migrate(client, logger: logger)
                    } catch let error as PSQLError {
                        throw StartupError("PostgreSQL: \(error.serverInfo?[.message] ?? "\(error.code)")")
                    }
                }
            }
            print(before == after ? "drumlin_sync tables are at version \(after)" : "drumlin_sync tables migrated from version \(before) to \(after)")
        }
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the sync protocol on /sync, with /health and /metrics.")

    @OptionGroup var shared: SharedOptions
    @Option(help: "HOST:PORT to listen on (env DRUMLIN_SYNC_LISTEN; default 127.0.0.1:8080)")
    var listen: String?
    @Option(help: "PEM public key that verifies clients' JWTs: RSA (RS256) or EC P-256 (ES256) (env DRUMLIN_SYNC_JWT_PUBLIC_KEY)")
    var jwtPublicKey: String?
    @Option(help: "Required JWT audience ('aud'), if set (env DRUMLIN_SYNC_JWT_AUDIENCE)")
    var jwtAudience: String?
    @Option(help: "Required JWT issuer ('iss'), if set (env DRUMLIN_SYNC_JWT_ISSUER)")
    var jwtIssuer: String?
    @Option(help: "PostgreSQL schema of the class tables (env DRUMLIN_SYNC_TABLE_SCHEMA; default public)")
    var tableSchema: String?
    @Option(help: "Largest WebSocket frame or message, in bytes (env DRUMLIN_SYNC_MAX_FRAME_BYTES; default 16777216)")
    var maxFrameBytes: String?
    @Option(help: "Most objects in one upload batch (env DRUMLIN_SYNC_MAX_OBJECTS_PER_BATCH; default 10000)")
    var maxObjectsPerBatch: String?

    func run() async throws {
        try await reportingStartupErrors {
            let settings = try shared.settings([
                "listen": listen, "jwtPublicKey": jwtPublicKey, "jwtAudience": jwtAudience, "jwtIssuer": jwtIssuer,
                "tableSchema": tableSchema, "maxFrameBytes": maxFrameBytes, "maxObjectsPerBatch": maxObjectsPerBatch,
            ])
            try await SyncServer(settings: settings).run()
        }
    }
}
