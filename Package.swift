// swift-tools-version:6.0
// Drumlin — SPDX-License-Identifier: Apache-2.0 (see LICENSE)
import PackageDescription

let package = Package(
    name: "drumlin",
    products: [
        // Swift users: `import Drumlin`.
        .library(name: "Drumlin", targets: ["Drumlin"]),
        // C and Python users: libdrumlin.so, whose ABI is include/drumlin.h.
        .library(name: "drumlin", type: .dynamic, targets: ["DrumlinC"]),
        // The sync service (docs/sync.md): `drumlin-sync migrate|serve`. Its server packages are
        // built only for this product; libdrumlin.so and `import Drumlin` never link them.
        .executable(name: "drumlin-sync", targets: ["DrumlinSyncService"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", exact: "2.8.1"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/vapor/jwt-kit", exact: "5.8.0"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    ],
    targets: [
        // System SQLite through a module map (Linux has no `import SQLite3`).
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // include/drumlin.h as a Clang module: DrumlinC takes its types from the public header,
        // and assigns every export to the header's declaration, so drift fails the build.
        .systemLibrary(name: "CDrumlinHeader", path: "Sources/CDrumlinHeader"),
        // The engine, in layers whose dependencies run one way (Tests/packaging/test_target_graph.py):
        // values (Value, JSON, decimals, errors) <- schema (declarations, validation, coercion)
        // <- storage (SQLite connection and statements, table layout, SQL functions)
        // <- DrumlinEngine (Database: opening and migrating files, objects, queries, notifications).
        // No Foundation (libdrumlin.so ships without it). Its API is for the C layer and the Swift
        // face, not for users; what only those need is `package`.
        .target(name: "DrumlinValues"),
        .target(name: "DrumlinSchema", dependencies: ["DrumlinValues"]),
        // The encrypting SQLite VFS (docs/encryption.md), in C over OpenSSL's libcrypto: engine code
        // below the storage layer.
        .target(name: "DrumlinCrypt", dependencies: ["CSQLite"], linkerSettings: [.linkedLibrary("crypto")]),
        .target(name: "DrumlinStorage", dependencies: ["DrumlinSchema", "DrumlinValues", "CSQLite", "DrumlinCrypt"]),
        .target(name: "DrumlinEngine", dependencies: ["DrumlinStorage", "DrumlinSchema", "DrumlinValues", "CSQLite"]),
        // The Swift face, Realm Swift's API (`import Drumlin`), on top of the engine.
        // Swift 5 language mode, as Realm Swift code is written: model objects are mutable classes
        // confined to a thread, which Swift 6's strict concurrency cannot express.
        // Its sync session (`Realm.Configuration.syncConfiguration`, docs/swift.md) is DrumlinSync's.
        .target(name: "Drumlin", dependencies: ["DrumlinEngine", "DrumlinSync", "CDrumlinHeader"],
                swiftSettings: [.swiftLanguageMode(.v5)]),
        // Link-time shims for libdrumlin.so (see its hypotf.c and tools/build-library.sh).
        .target(name: "DrumlinLinkCompat"),
        .target(name: "DrumlinC", dependencies: ["DrumlinEngine", "DrumlinSync", "CDrumlinHeader", "DrumlinLinkCompat"]),
        // The sync protocol's frames and their JSON codec (docs/sync-protocol.md), shared by the
        // service and the engine-side client. No Foundation, no NIO: only the engine's JSON.
        .target(name: "DrumlinSyncProtocol", dependencies: ["DrumlinValues"]),
        // The sync client's WebSocket/TLS transport (docs/sync.md): libwebsockets (Debian's
        // libwebsockets-dev, OpenSSL 3) through a module map, a C target that owns its contexts and
        // callbacks and offers a blocking connection, and its Swift face. No Foundation.
        .systemLibrary(
            name: "CWebSockets",
            path: "Sources/CWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"])]
        ),
        .target(name: "DrumlinWebSocket", dependencies: ["CWebSockets"],
                linkerSettings: [.linkedLibrary("crypto")]),   // the certificate verify reason (OpenSSL 3)
        .target(name: "DrumlinSyncTransport", dependencies: ["DrumlinWebSocket"]),
        // The sync client (docs/sync.md, "The upload queue and the session"): one session thread per
        // database opened with sync, uploading its asymmetric objects through the transport. Above
        // the engine (it uses the engine's upload queue), below the C exports. No Foundation.
        .target(name: "DrumlinSync", dependencies: ["DrumlinEngine", "DrumlinSyncProtocol", "DrumlinSyncTransport", "DrumlinValues"]),
        // drumlin-sync, the stateless service between clients and PostgreSQL. It reads schemas and
        // Extended JSON with the engine's own code (DrumlinSchema, DrumlinValues); nothing in the
        // engine depends on it.
        .executableTarget(
            name: "DrumlinSyncService",
            dependencies: [
                "DrumlinSyncProtocol", "DrumlinSchema", "DrumlinValues",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // A Swift client of Data Ingest that Tests/sync runs against the service (test_client_swift.py);
        // `make test-sync` builds it (`swift build --product SwiftIngestClient`). Not a product.
        .executableTarget(name: "SwiftIngestClient", dependencies: ["Drumlin"], path: "Tests/sync/clients/swift",
                          swiftSettings: [.swiftLanguageMode(.v5)]),
        // One test target for the engine's layers, in folders per layer (its Support/ helpers open
        // databases, which every layer's tests use).
        .testTarget(name: "DrumlinEngineTests",
                    dependencies: ["DrumlinEngine", "DrumlinStorage", "DrumlinSchema", "DrumlinValues", "CSQLite", "DrumlinCrypt"]),
        .testTarget(name: "DrumlinTests", dependencies: ["Drumlin", "DrumlinEngine"]),
        .testTarget(name: "DrumlinCTests", dependencies: ["DrumlinC", "CDrumlinHeader", "DrumlinEngine"]),
        .testTarget(name: "DrumlinSyncProtocolTests", dependencies: ["DrumlinSyncProtocol", "DrumlinValues"]),
        .testTarget(name: "DrumlinSyncTransportTests", dependencies: ["DrumlinSyncTransport"]),
    ]
)
