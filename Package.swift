// swift-tools-version: 6.2
import PackageDescription

// libdeflate has no pkg-config on Linux (below); on macOS Homebrew puts it under `brew --prefix`
// (/opt/homebrew on Apple silicon), off the compiler's default paths, and its libdeflate.pc
// names them. The manifest is evaluated on the machine that builds, so `os(macOS)` is the host.
#if os(macOS)
let deflatePkgConfig: String? = "libdeflate"
#else
let deflatePkgConfig: String? = nil
#endif

let package = Package(
    name: "relctl",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "relctl", targets: ["relctl"]),
        .library(name: "RelctlCore", targets: ["RelctlCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CArchive",
            pkgConfig: "libarchive",
            // Homebrew's libarchive is keg-only (macOS ships one): SwiftPM finds its .pc in
            // `$(brew --prefix)/opt/libarchive/lib/pkgconfig` because the formula is named here.
            providers: [.apt(["libarchive-dev"]), .brew(["libarchive"])]
        ),
        // No pkgConfig on Linux: its `-ldeflate` would link the shared library, and RelctlCore
        // links the static one instead (see its linkerSettings).
        .systemLibrary(
            name: "CDeflate",
            pkgConfig: deflatePkgConfig,
            providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]
        ),
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]
        ),
        .target(
            name: "RelctlCore",
            dependencies: [
                "CArchive",
                "CDeflate",
                "CSodium",
                .product(name: "Crypto", package: "swift-crypto"),
                "RelctlTOML",
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            linkerSettings: [
                // The system's libdeflate, statically: Debian 12's libdeflate.a compresses 10-20%
                // faster than its libdeflate.so (measured on the benchmark's tar stream, same
                // version 1.14), and compression is most of `relctl package`'s CPU time.
                .linkedLibrary(":libdeflate.a", .when(platforms: [.linux])),
                .linkedLibrary("deflate", .when(platforms: [.macOS])),
            ]
        ),
        .target(name: "RelctlBuildInfo"),
        .target(
            name: "RelctlTOML",
            dependencies: [.product(name: "TOMLKit", package: "TOMLKit")]
        ),
        .executableTarget(
            name: "relctl",
            dependencies: [
                "RelctlCore",
                "RelctlBuildInfo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "RelctlTestSupport",
            dependencies: ["RelctlCore"],
            path: "Tests/Support",
            // The API stand-ins and the workflow runner are run with python3 from their source paths.
            exclude: [
                "github_standin.py", "workflow_runner.py", "forge_standin.py", "gitlab_standin.py", "gitea_standin.py",
            ]
        ),
        .testTarget(
            name: "RelctlCoreTests",
            dependencies: ["RelctlCore", "RelctlTestSupport"]
        ),
        .testTarget(
            name: "RelctlCLITests",
            dependencies: ["RelctlCore", "RelctlTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
