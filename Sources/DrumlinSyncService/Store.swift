import DrumlinSyncProtocol
import DrumlinValues
import Logging
import PostgresNIO

/// Everything the service knows, read from and written to PostgreSQL: nothing is kept between
/// sessions in memory, so any instance can serve any client.
struct Store: Sendable {
    let client: PostgresClient
    let tableSchema: String
    let logger: Logger

    // MARK: Transactions

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws (the
    /// error passes through as it is).
    func transaction<T: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await client.withConnection { connection in
            try await connection.query("BEGIN", logger: logger)
            let result: T
            do {
                result = try await body(connection)
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
            try await connection.query("COMMIT", logger: logger)
            return result
        }
    }

    // MARK: Class tables

    /// Creates the tables of classes PostgreSQL lacks and adds the columns of new properties, in
    /// one transaction under the schema lock; a change that is not additive changes nothing and
    /// is `invalid_schema_change`.
    func ensureTables(_ mappings: [ClassMapping], definitions: [String: String]) async throws -> [String] {
        try await transaction { connection in
            var changes: [String] = []
            try await connection.query("SELECT pg_advisory_xact_lock(\(Migrations.lockKey))", logger: logger)
            for mapping in mappings {
                let kind = mapping.objectSchema.kind == .asymmetric ? "asymmetric" : "topLevel"
                let recorded = try await connection.query(
                    "SELECT kind, table_name FROM drumlin_sync.classes WHERE class_name = \(mapping.className)", logger: logger)
                for try await (recordedKind, recordedTable) in recorded.decode((String, String).self) {
                    if recordedKind != kind {
                        throw SyncError(.invalidSchemaChange, "class '\(mapping.className)' is \(kind) in this schema but \(recordedKind) on the server: a class cannot change between asymmetric and not")
                    }
                    if recordedTable != mapping.tableName {
                        throw SyncError(.invalidSchemaChange, "class '\(mapping.className)' maps to table '\(mapping.tableName)' in this schema but to '\(recordedTable)' on the server")
                    }
                }
                let existing = try await columns(of: mapping, connection)
                if existing.isEmpty {
                    try await connection.query(PostgresQuery(unsafeSQL: mapping.createStatement), logger: logger)
                    changes.append("created table \(mapping.qualifiedTable)")
                } else {
                    guard try await hasUniqueKey(mapping, connection) else {
                        throw SyncError(.invalidSchemaChange, "table \(mapping.qualifiedTable) exists without a primary key or unique index on \"_id\"")
                    }
                    for column in mapping.columns {
                        if let type = existing[column.name] {
                            if type != column.sqlType {
                                throw SyncError(.invalidSchemaChange, "class '\(mapping.className)': column \"\(column.name)\" is \(type) on the server but \(column.sqlType) in this schema; changing a property's type is not an additive change")
                            }
                        } else {
                            try await connection.query(PostgresQuery(unsafeSQL: mapping.addColumnStatement(column)), logger: logger)
                            changes.append("added column \(mapping.qualifiedTable).\(SQL.identifier(column.name))")
                        }
                    }
                }
                let definition = definitions[mapping.className] ?? "{}"
                try await connection.query("""
                    INSERT INTO drumlin_sync.classes (class_name, table_schema, table_name, kind, definition)
                    VALUES (\(mapping.className), \(tableSchema), \(mapping.tableName), \(kind), \(definition)::jsonb)
                    ON CONFLICT (class_name) DO UPDATE SET definition = EXCLUDED.definition, updated_at = now()
                    WHERE drumlin_sync.classes.definition IS DISTINCT FROM EXCLUDED.definition
                    """, logger: logger)
            }
            return changes
        }
    }

    private func columns(of mapping: ClassMapping, _ connection: PostgresConnection) async throws -> [String: String] {
        let rows = try await connection.query("""
            SELECT a.attname::text, format_type(a.atttypid, a.atttypmod)
            FROM pg_attribute a
            WHERE a.attrelid = to_regclass(\(mapping.qualifiedTable)) AND a.attnum > 0 AND NOT a.attisdropped
            """, logger: logger)
        var found: [String: String] = [:]
        for try await (name, type) in rows.decode((String, String).self) { found[name] = type }
        return found
    }

    private func hasUniqueKey(_ mapping: ClassMapping, _ connection: PostgresConnection) async throws -> Bool {
        let rows = try await connection.query("""
            SELECT count(*) FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
            WHERE i.indrelid = to_regclass(\(mapping.qualifiedTable)) AND i.indisunique AND i.indnatts = 1
              AND i.indpred IS NULL AND a.attname = '_id'
            """, logger: logger)
        for try await count in rows.decode(Int.self) { return count > 0 }
        return false
    }

    // MARK: Clients

    /// Registers a client id for its user (the first user to use it owns it); returns the last
    /// upload sequence number integrated for it.
    func registerClient(_ clientId: String, userId: String) async throws -> Int64 {
        try await transaction { connection in
            try await connection.query("""
                INSERT INTO drumlin_sync.clients (client_id, user_id) VALUES (\(clientId), \(userId))
                ON CONFLICT (client_id) DO NOTHING
                """, logger: logger)
            let rows = try await connection.query(
                "SELECT user_id, last_seq FROM drumlin_sync.clients WHERE client_id = \(clientId)", logger: logger)
            for try await (owner, lastSeq) in rows.decode((String, Int64).self) {
                guard owner == userId else {
                    throw SyncError(.permissionDenied, "client id '\(clientId)' belongs to another user; a client file is bound to the user who first synced it")
                }
                return lastSeq
            }
            throw SyncError(.otherSessionError, "client id '\(clientId)' was not registered")
        }
    }

    // MARK: Batches

    struct EncodedGroup: Sendable {
        let mapping: ClassMapping
        let rows: RowEncoder.Rows
    }

    /// Integrates a batch exactly once: its rows and the client's new sequence number commit in
    /// one transaction, or nothing does (docs/sync-protocol.md, "Exactly once").
    func integrate(clientId: String, seq: Int64, groups: [EncodedGroup]) async throws -> Ack {
        try await transaction { connection in
            let rows = try await connection.query(
                "SELECT last_seq FROM drumlin_sync.clients WHERE client_id = \(clientId) FOR UPDATE", logger: logger)
            var lastSeq: Int64?
            for try await value in rows.decode(Int64.self) { lastSeq = value }
            guard let lastSeq else { throw SyncError(.otherSessionError, "client id '\(clientId)' is not registered", seq: seq) }
            if seq <= lastSeq { return Ack(seq: seq, duplicate: true) }
            guard seq == lastSeq + 1 else {
                throw SyncError(.badClientVersion, "upload \(seq) arrived after \(lastSeq): \(seq == lastSeq + 2 ? "batch \(lastSeq + 1) was" : "batches \(lastSeq + 1) to \(seq - 1) were") never integrated; a client sends its batches in order and resends each until acknowledged", seq: seq)
            }
            var inserted = 0
            var existing: [JSON] = []
            for group in groups {
                let names = group.mapping.columns.map { SQL.identifier($0.name) }.joined(separator: ", ")
                let table = group.mapping.qualifiedTable
                var query = PostgresQuery(unsafeSQL: """
                    INSERT INTO \(table) (\(names)) SELECT \(names) FROM jsonb_populate_recordset(NULL::\(table), $1::jsonb)
                    ON CONFLICT ("_id") DO NOTHING RETURNING "_id"::text
                    """)
                query.binds.append(group.rows.json, context: .default)
                let returned = try await connection.query(query, logger: logger)
                var keys: [String: Int] = [:]
                for try await key in returned.decode(String.self) {
                    keys[key, default: 0] += 1
                    inserted += 1
                }
                // An object whose key was not inserted (or was inserted by an earlier copy in this
                // batch) found its row already there.
                for (text, json) in zip(group.rows.keyTexts, group.rows.keys) {
                    if let count = keys[text], count > 0 { keys[text] = count - 1 } else { existing.append(json) }
                }
            }
            try await connection.query("""
                UPDATE drumlin_sync.clients SET last_seq = \(seq), objects_inserted = objects_inserted + \(inserted),
                  last_upload_at = now() WHERE client_id = \(clientId)
                """, logger: logger)
            return Ack(seq: seq, inserted: inserted, existing: existing)
        }
    }

    /// Whether PostgreSQL answers (the health check).
    func ping() async throws {
        try await client.query("SELECT 1", logger: logger)
    }
}

extension SyncError {
    /// A PostgreSQL failure as the protocol reports it: data the server refuses (SQLSTATE classes
    /// 22 and 23: a value out of range, a constraint) is the batch's fault, `bad_changeset`;
    /// anything else (no connection, a restart) is `other_session_error`, worth a retry.
    static func from(postgres error: any Error, seq: Int64? = nil) -> SyncError {
        if let sync = error as? SyncError { return sync }
        if let timeout = error as? StartupError {
            return SyncError(.otherSessionError, "\(timeout.description); the batch was not integrated", seq: seq)
        }
        if let psql = error as? PSQLError {
            let message = psql.serverInfo?[.message] ?? "\(psql.code)"
            let state = psql.serverInfo?[.sqlState] ?? ""
            if state.hasPrefix("22") || state.hasPrefix("23") {
                return SyncError(.badChangeset, "PostgreSQL refused the batch: \(message)", seq: seq)
            }
            return SyncError(.otherSessionError, "PostgreSQL: \(message)", seq: seq)
        }
        return SyncError(.otherSessionError, "PostgreSQL: \(error)", seq: seq)
    }
}
