// swift-tools-version:6.0
import PackageDescription

// A real SwiftPM consumer of Cairn: depends on the repository by path and imports `Cairn`.
let package = Package(
    name: "cairn-swift-example",
    dependencies: [.package(name: "cairn", path: "../..")],
    targets: [
        .executableTarget(name: "quickstart", dependencies: [.product(name: "Cairn", package: "cairn")]),
    ]
)
