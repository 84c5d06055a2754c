// swift-tools-version:6.0
import PackageDescription

// A real SwiftPM consumer of Drumlin: depends on the repository by path and imports `Drumlin`.
let package = Package(
    name: "drumlin-swift-example",
    dependencies: [.package(name: "drumlin", path: "../..")],
    targets: [
        .executableTarget(name: "quickstart", dependencies: [.product(name: "Drumlin", package: "drumlin")]),
    ]
)
