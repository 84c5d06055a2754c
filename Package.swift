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
        .target(name: "DrumlinStorage", dependencies: ["DrumlinSchema", "DrumlinValues", "CSQLite"]),
        .target(name: "DrumlinEngine", dependencies: ["DrumlinStorage", "DrumlinSchema", "DrumlinValues", "CSQLite"]),
        // The Swift face, Realm Swift's API (`import Drumlin`), on top of the engine.
        // Swift 5 language mode, as Realm Swift code is written: model objects are mutable classes
        // confined to a thread, which Swift 6's strict concurrency cannot express.
        .target(name: "Drumlin", dependencies: ["DrumlinEngine", "CDrumlinHeader"],
                swiftSettings: [.swiftLanguageMode(.v5)]),
        // Link-time shims for libdrumlin.so (see its hypotf.c and tools/build-library.sh).
        .target(name: "DrumlinLinkCompat"),
        .target(name: "DrumlinC", dependencies: ["DrumlinEngine", "CDrumlinHeader", "DrumlinLinkCompat"]),
        // One test target for the engine's layers, in folders per layer (its Support/ helpers open
        // databases, which every layer's tests use).
        .testTarget(name: "DrumlinEngineTests",
                    dependencies: ["DrumlinEngine", "DrumlinStorage", "DrumlinSchema", "DrumlinValues", "CSQLite"]),
        .testTarget(name: "DrumlinTests", dependencies: ["Drumlin", "DrumlinEngine"]),
        .testTarget(name: "DrumlinCTests", dependencies: ["DrumlinC", "CDrumlinHeader", "DrumlinEngine"]),
    ]
)
