// swift-tools-version:6.0
import PackageDescription

// The Swift harness of `make bench`: the Person workload through the Swift model API (`import Drumlin`).
let package = Package(
    name: "drumlin-bench-swift",
    dependencies: [.package(name: "drumlin", path: "../..")],
    targets: [
        .executableTarget(name: "drumlin-bench-swift", dependencies: [.product(name: "Drumlin", package: "drumlin")],
                          swiftSettings: [.swiftLanguageMode(.v5)]),
    ]
)
