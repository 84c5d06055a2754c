import DrumlinSyncProtocol
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import Metrics
import NIOCore
import PostgresNIO
import Prometheus

/// `drumlin-sync serve`: the HTTP server with `/sync` (WebSocket), `/health` and `/metrics`.
struct SyncServer {
    let settings: Settings

    func run() async throws {
        let logger = bootstrapLogging(try settings.logLevel)
        let url = try settings.required("postgres", flag: "--postgres")
        let keyFile = try settings.required("jwtPublicKey", flag: "--jwt-public-key")
        let limits = try settings.limits
        let (host, port) = try settings.listenAddress()
        let verifier = try await TokenVerifier.load(publicKeyFile: keyFile, audience: settings.values["jwtAudience"],
                                                    issuer: settings.values["jwtIssuer"])
        // The tables must be at this build's version before any client is served.
        try await withPostgres(url, logger: logger) { client in
            try await withTimeout(.seconds(30), "PostgreSQL") {
                do {
                    try await Migrations.check(client, logger: logger)
                } catch let error as PSQLError {
                    throw StartupError("PostgreSQL: \(error.serverInfo?[.message] ?? "\(error.code)")")
                }
            }
        }

        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let metrics = ServiceMetrics()
        let postgres = PostgresClient(configuration: try Settings.postgresConfiguration(url), backgroundLogger: logger)
        let store = Store(client: postgres, tableSchema: settings.values["tableSchema"] ?? "public", logger: logger)

        let router = Router(context: BasicWebSocketRequestContext.self)
        router.get("/health") { _, _ -> Response in
            do {
                try await withTimeout(.seconds(3), "PostgreSQL") { try await store.ping() }
                return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "ok\n")))
            } catch {
                let reason = (error as? PSQLError).map { $0.serverInfo?[.message] ?? "\($0.code)" } ?? "\(error)"
                return Response(status: .serviceUnavailable, body: .init(byteBuffer: ByteBuffer(string: "postgres: \(reason)\n")))
            }
        }
        router.get("/metrics") { _, _ -> Response in
            var text: [UInt8] = []
            registry.emit(into: &text)
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(bytes: text)))
        }
        router.ws(RouterPath(stringLiteral: SyncProtocol.path), shouldUpgrade: { request, _ in
            let offered = request.headers[values: .secWebSocketProtocol]
                .flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
            guard offered.contains(SyncProtocol.subprotocol) else {
                logger.notice("subprotocol refused", metadata: ["offered": .string(offered.joined(separator: ", "))])
                throw HTTPError(.badRequest, message: "\(SyncErrorCode.syncProtocolNegotiationFailed.name) (\(SyncErrorCode.syncProtocolNegotiationFailed.rawValue)): the service speaks \(SyncProtocol.subprotocol); offer it in Sec-WebSocket-Protocol\n")
            }
            return .upgrade([.secWebSocketProtocol: SyncProtocol.subprotocol])
        }) { inbound, outbound, context in
            var sessionLogger = logger
            sessionLogger[metadataKey: "session"] = .string(UUID().uuidString.lowercased())
            try await Session(store: store, verifier: verifier, limits: limits, metrics: metrics, logger: sessionLogger)
                .run(inbound: inbound, outbound: outbound)
        }

        let app = Application(
            router: router,
            server: .http1WebSocketUpgrade(
                webSocketRouter: router,
                configuration: .init(ws: WebSocketServerConfiguration(maxFrameSize: limits.maxFrameBytes))),
            configuration: .init(address: .hostname(host, port: port), serverName: "drumlin-sync"),
            services: [postgres],
            onServerRunning: { channel in
                logger.info("listening", metadata: ["address": "\(channel.localAddress.map { "\($0)" } ?? "\(host):\(port)")",
                                                    "maxFrameBytes": "\(limits.maxFrameBytes)"])
            },
            logger: logger)
        try await app.runService()
    }
}
