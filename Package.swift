// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "cairn",
    products: [
        // Swift users: `import Cairn`.
        .library(name: "Cairn", targets: ["Cairn"]),
        // C and Python users: libcairn.so, whose ABI is include/cairn.h.
        .library(name: "cairn", type: .dynamic, targets: ["CairnC"]),
    ],
    targets: [
        // System SQLite through a module map (Linux has no `import SQLite3`).
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // include/cairn.h as a Clang module: CairnC takes its types from the public header,
        // and assigns every export to the header's declaration, so drift fails the build.
        .systemLibrary(name: "CCairnHeader", path: "Sources/CCairnHeader"),
        .target(name: "Cairn", dependencies: ["CSQLite"]),
        .target(name: "CairnC", dependencies: ["Cairn", "CCairnHeader"]),
        .testTarget(name: "CairnTests", dependencies: ["Cairn", "CSQLite"]),
        .testTarget(name: "CairnCTests", dependencies: ["CairnC", "CCairnHeader", "Cairn"]),
    ]
)
