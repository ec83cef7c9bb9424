// swift-tools-version: 6.2
import PackageDescription

// A relctl of your own: the same command line, built with one more manifest reader. It depends
// on relctl's libraries by path here; another project would name relctl's git URL and a version.
let package = Package(
    name: "relctl-gradle",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "relctl", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "relctl-gradle",
            dependencies: [
                .product(name: "RelctlCommands", package: "relctl"),
                .product(name: "RelctlBasics", package: "relctl"),
                .product(name: "RelctlModel", package: "relctl"),
                .product(name: "RelctlArtifacts", package: "relctl"),
                .product(name: "RelctlDistribution", package: "relctl"),
                .product(name: "RelctlProject", package: "relctl"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
