import Logging
import PostgresNIO

/// The service's own tables, in the schema `drumlin_sync`, and their upgrades. Each entry is one
/// version; `migrate` applies the missing ones in one transaction under an advisory lock, so two
/// instances (or a deploy racing a running service) never apply one twice.
enum Migrations {
    static let schemaName = "drumlin_sync"

    static let versions: [[String]] = [
        // 1: Data Ingest. `clients` holds each client's last integrated upload sequence number,
        // updated in the same transaction as the batch's rows (exactly once); `classes` records
        // each synced class's mapping as clients declared it.
        [
            """
            CREATE TABLE drumlin_sync.clients (
              client_id text PRIMARY KEY,
              user_id text NOT NULL,
              last_seq bigint NOT NULL DEFAULT 0 CHECK (last_seq >= 0),
              objects_inserted bigint NOT NULL DEFAULT 0,
              created_at timestamptz NOT NULL DEFAULT now(),
              last_upload_at timestamptz
            )
            """,
            """
            CREATE TABLE drumlin_sync.classes (
              class_name text PRIMARY KEY,
              table_schema text NOT NULL,
              table_name text NOT NULL,
              kind text NOT NULL CHECK (kind IN ('topLevel', 'asymmetric')),
              definition jsonb NOT NULL,
              updated_at timestamptz NOT NULL DEFAULT now(),
              UNIQUE (table_schema, table_name)
            )
            """,
        ],
    ]

    static var latest: Int { versions.count }

    /// The advisory lock key of schema changes (migrations and class tables): one fixed number.
    static let lockKey: Int64 = 0x6472_756d_6c69_6e    // "drumlin"

    /// Applies the missing versions; returns (before, after).
    static func migrate(_ client: PostgresClient, logger: Logger) async throws -> (Int, Int) {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
            try await connection.query("CREATE SCHEMA IF NOT EXISTS drumlin_sync", logger: logger)
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS drumlin_sync.schema_version (
                  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
                  version integer NOT NULL,
                  migrated_at timestamptz NOT NULL DEFAULT now())
                """, logger: logger)
            let before = try await currentVersion(connection, logger: logger)
            guard before <= latest else {
                throw StartupError("the drumlin_sync tables are at version \(before), newer than this drumlin-sync knows (\(latest)): run a newer drumlin-sync")
            }
            for version in (before + 1)...max(before + 1, latest) where version <= latest {
                for statement in versions[version - 1] {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
            }
            try await connection.query("""
                INSERT INTO drumlin_sync.schema_version (version) VALUES (\(latest))
                ON CONFLICT (singleton) DO UPDATE SET version = EXCLUDED.version, migrated_at = now()
                """, logger: logger)
            return (before, latest)
        }
    }

    /// The version `serve` finds; it refuses to start unless it is `latest`.
    static func check(_ client: PostgresClient, logger: Logger) async throws {
        let found = try await client.withConnection { connection in
            let exists = try await connection.query("SELECT to_regclass('drumlin_sync.schema_version') IS NOT NULL", logger: logger)
            for try await (present) in exists.decode(Bool.self) where !present { return 0 }
            return try await currentVersion(connection, logger: logger)
        }
        guard found == latest else {
            if found < latest {
                throw StartupError("the drumlin_sync tables are at version \(found), this drumlin-sync needs \(latest): run `drumlin-sync migrate` first")
            }
            throw StartupError("the drumlin_sync tables are at version \(found), newer than this drumlin-sync knows (\(latest)): run a newer drumlin-sync")
        }
    }

    private static func currentVersion(_ connection: PostgresConnection, logger: Logger) async throws -> Int {
        let rows = try await connection.query("SELECT version FROM drumlin_sync.schema_version", logger: logger)
        for try await version in rows.decode(Int.self) { return version }
        return 0
    }
}

/// A problem that stops `migrate` or `serve` before they do anything: printed, exit status 1.
struct StartupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
