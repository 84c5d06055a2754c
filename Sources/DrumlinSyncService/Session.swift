import DrumlinSchema
import DrumlinSyncProtocol
import DrumlinValues
import HummingbirdWebSocket
import Logging

/// One client's WebSocket session: `hello`, then `upload` frames handled one at a time, in the
/// order sent (docs/sync-protocol.md). The next frame is read only after the previous one was
/// answered, so a client that sends ahead is held back by TCP, not buffered here.
struct Session {
    let store: Store
    let verifier: TokenVerifier
    let limits: SyncLimits
    let metrics: ServiceMetrics
    var logger: Logger

    /// What `hello` established.
    struct Established {
        let clientId: String
        let userId: String
        let schema: Schema
        let mappings: [String: ClassMapping]
    }

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        metrics.sessionsActive.increment()
        metrics.sessionsTotal.increment()
        defer { metrics.sessionsActive.decrement() }
        var logger = self.logger
        var established: Established?
        do {
            for try await message in inbound.messages(maxSize: limits.maxFrameBytes) {
                guard case .text(let text) = message else {
                    throw SyncError(.badSyntax, "binary frames are not part of protocol \(SyncProtocol.version): send each frame as JSON text")
                }
                switch try FrameCodec.decodeClientFrame(text) {
                case .hello(let hello):
                    guard established == nil else { throw SyncError(.badMessageOrder, "hello was sent twice; a session sends it once, first") }
                    let (session, lastSeq) = try await start(hello)
                    established = session
                    logger[metadataKey: "client"] = .string(session.clientId)
                    logger[metadataKey: "user"] = .string(session.userId)
                    let welcome = Welcome(sessionId: logger[metadataKey: "session"]?.description ?? "",
                                          userId: session.userId, lastSeq: lastSeq, limits: limits)
                    try await outbound.write(.text(FrameCodec.encode(.welcome(welcome))))
                    logger.info("session started", metadata: ["lastSeq": "\(lastSeq)"])
                case .upload(let upload):
                    guard let session = established else {
                        throw SyncError(.badMessageOrder, "upload \(upload.seq) was sent before hello; a session starts with hello", seq: upload.seq)
                    }
                    let ack = try await integrate(upload, session, logger: logger)
                    try await outbound.write(.text(FrameCodec.encode(.ack(ack))))
                }
            }
            // The client closed, or the WebSocket layer ended the connection (a frame over
            // maxFrameBytes is refused from its header with close code 1009).
            logger.info("session ended")
        } catch let error as SyncError {
            metrics.errors(error.code).increment()
            logger.notice("session error", metadata: ["error": .string(error.code.name), "code": "\(error.code.rawValue)",
                                                      "message": .string(error.message)])
            try? await outbound.write(.text(FrameCodec.encode(.error(error))))
            try? await outbound.close(.unknown(error.code.closeCode), reason: error.code.name)
            return
        } catch {
            // The WebSocket layer's own errors (a message over maxFrameBytes: it closes with 1009;
            // a broken connection): it ends the connection itself.
            metrics.connectionErrors.increment()
            logger.notice("connection ended", metadata: ["reason": .string("\(error)")])
            throw error
        }
    }

    /// Checks the token, the client id and the schema, makes the tables ready and registers the
    /// client.
    private func start(_ hello: Hello) async throws(SyncError) -> (Established, Int64) {
        let userId = try await verifier.userId(of: hello.token)
        guard Self.isValidClientId(hello.clientId) else {
            throw SyncError(.badSyntax, "hello frame: 'clientId' must be 1-128 characters of A-Z a-z 0-9 . _ : -")
        }
        let schema: Schema
        do throws(DrumlinError) {
            schema = try Schema(json: hello.schema)
        } catch {
            throw SyncError(.invalidSchemaChange, "the hello schema is not valid: \(error.message)")
        }
        var mappings: [String: ClassMapping] = [:]
        var ordered: [ClassMapping] = []
        for objectSchema in schema.objectSchemas where objectSchema.kind != .embedded {
            let mapping = try ClassMapping(objectSchema, in: schema, tableSchema: store.tableSchema)
            mappings[objectSchema.name] = mapping
            ordered.append(mapping)
        }
        guard !ordered.isEmpty else {
            throw SyncError(.invalidSchemaChange, "the hello schema has no class to sync (embedded classes travel inside their parents)")
        }
        var definitions: [String: String] = [:]
        for entry in hello.schema.arrayElements ?? [] {
            if case .string(let name)? = entry["name"] {
                var writer = JSONWriter()
                writer.write(entry)
                definitions[name] = writer.string
            }
        }
        do {
            let (store, clientId, tableMappings, classDefinitions) = (self.store, hello.clientId, ordered, definitions)
            let (changes, lastSeq) = try await withTimeout(Self.postgresTimeout, "PostgreSQL") {
                (try await store.ensureTables(tableMappings, definitions: classDefinitions),
                 try await store.registerClient(clientId, userId: userId))
            }
            for change in changes { logger.info("schema", metadata: ["change": .string(change)]) }
            return (Established(clientId: hello.clientId, userId: userId, schema: schema, mappings: mappings), lastSeq)
        } catch {
            throw SyncError.from(postgres: error)
        }
    }

    private func integrate(_ upload: Upload, _ session: Established, logger: Logger) async throws(SyncError) -> Ack {
        let seq = upload.seq
        guard seq >= 1 else { throw SyncError(.badClientVersion, "upload sequence numbers start at 1, got \(seq)", seq: seq) }
        guard upload.objectCount <= limits.maxObjectsPerBatch else {
            throw SyncError(.limitsExceeded, "upload \(seq) holds \(upload.objectCount) objects; the limit is \(limits.maxObjectsPerBatch) a batch", seq: seq)
        }
        var groups: [Store.EncodedGroup] = []
        for group in upload.inserts {
            guard let mapping = session.mappings[group.className] else {
                let known = session.mappings.keys.sorted().map { "'\($0)'" }.joined(separator: ", ")
                throw SyncError(.badChangeset, "upload \(seq): class '\(group.className)' is not in this session's schema (hello declared \(known))", seq: seq)
            }
            guard mapping.objectSchema.kind == .asymmetric else {
                throw SyncError(.badChangeset, "upload \(seq): class '\(group.className)' is not asymmetric; protocol \(SyncProtocol.version) uploads asymmetric objects (Data Ingest) only", seq: seq)
            }
            let rows = try RowEncoder(schema: session.schema, mapping: mapping).encode(group.objects, seq: seq)
            groups.append(Store.EncodedGroup(mapping: mapping, rows: rows))
        }
        let started = ContinuousClock.now
        let ack: Ack
        do {
            let (store, clientId, encoded) = (self.store, session.clientId, groups)
            ack = try await withTimeout(Self.postgresTimeout, "PostgreSQL") {
                try await store.integrate(clientId: clientId, seq: seq, groups: encoded)
            }
        } catch {
            metrics.batches("rejected").increment()
            throw SyncError.from(postgres: error, seq: seq)
        }
        let elapsed = (ContinuousClock.now - started).components
        metrics.batchTime.recordNanoseconds(elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000)
        if ack.duplicate {
            metrics.batches("duplicate").increment()
            logger.info("batch already integrated", metadata: ["seq": "\(seq)"])
        } else {
            metrics.batches("inserted").increment()
            metrics.objectsInserted.increment(by: ack.inserted)
            logger.info("batch integrated", metadata: ["seq": "\(seq)", "objects": "\(ack.inserted)", "existing": "\(ack.existing.count)"])
        }
        return ack
    }

    /// How long a session waits for PostgreSQL (a connection, a transaction) before it reports
    /// `other_session_error` (try again) instead of holding the client.
    static let postgresTimeout: Duration = .seconds(15)

    static func isValidClientId(_ id: String) -> Bool {
        (1...128).contains(id.utf8.count) && id.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
                || c == UInt8(ascii: ".") || c == UInt8(ascii: "_") || c == UInt8(ascii: ":") || c == UInt8(ascii: "-")
        }
    }
}
