// swift-tools-version:6.0
import PackageDescription

// The Swift harnesses of `make bench`: the Person and Task workloads through the Swift model API
// (`import Drumlin`), and the same workloads through GRDB.swift (the peer a Swift user would pick
// instead: its Codable records and its raw `Row` API), each an executable of its own so each runs
// in its own process. GRDB is a dependency of this package only, never of the root package.
let package = Package(
    name: "drumlin-bench-swift",
    dependencies: [
        .package(name: "drumlin", path: "../.."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        .executableTarget(name: "drumlin-bench-swift", dependencies: [.product(name: "Drumlin", package: "drumlin")],
                          swiftSettings: [.swiftLanguageMode(.v5)]),
        .executableTarget(name: "grdb-bench-swift", dependencies: [.product(name: "GRDB", package: "GRDB.swift")],
                          swiftSettings: [.swiftLanguageMode(.v5)]),
    ]
)
