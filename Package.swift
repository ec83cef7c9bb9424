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

// RELCTL_STATIC=1 (relctl's own release build, scripts/build-release): on Linux, libarchive and
// libsodium are linked from the Debian -dev packages' static archives, with what libarchive.a
// pulls in (`pkg-config --static --libs libarchive`: nettle, acl, lzma, zstd, lz4, bz2, zlib,
// libxml2 and its ICU), so the released binary needs no -dev package and, with
// `--static-swift-stdlib`, no Swift toolchain (docs/releasing-relctl.md). A plain `swift build`
// leaves this unset and links the shared libraries through pkg-config, as before.
#if os(Linux)
let staticCLibraries = Context.environment["RELCTL_STATIC"] == "1"
#else
let staticCLibraries = false
#endif
// The static archives, each before what it needs (the linker reads them left to right, and SwiftPM
// names each library once: libxml2 comes before the lzma and zlib both it and libarchive need).
let staticArchives = [
    "archive", "nettle", "acl", "xml2", "icui18n", "icuuc", "icudata", "lzma", "zstd", "lz4", "bz2", "z", "sodium",
]
// RELCTL_STATIC_CURL_LIB (scripts/build-release): the folder of the libcurl.a that
// scripts/build-static-curl builds with its OpenSSL and zlib. FoundationNetworking, linked by
// `--static-swift-stdlib`, asks for `-lcurl`; this folder, given to swiftc as `-L` on the link
// only, comes before the system's library folders, so that finds the static archive instead of
// the distribution's libcurl.so.4 and the binary needs no libcurl package.
let staticCurlFolder = staticCLibraries ? Context.environment["RELCTL_STATIC_CURL_LIB"] : nil
let cLibraryLinks: [LinkerSetting] =
    staticCLibraries
    ? staticArchives.map { .linkedLibrary(":lib\($0).a", .when(platforms: [.linux])) }
        + ["stdc++", "m", "pthread", "dl"].map { .linkedLibrary($0, .when(platforms: [.linux])) }
    : [.linkedLibrary("archive"), .linkedLibrary("sodium")]

let package = Package(
    name: "relctl",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "relctl", targets: ["relctl"]),
        // The layers, lowest first; each imports only the ones below it (the compiler enforces
        // it: a target can only import what it depends on). docs/architecture.md draws them.
        .library(name: "RelctlBasics", targets: ["RelctlBasics"]),
        .library(name: "RelctlModel", targets: ["RelctlModel"]),
        .library(name: "RelctlArtifacts", targets: ["RelctlArtifacts"]),
        .library(name: "RelctlChanges", targets: ["RelctlChanges"]),
        .library(name: "RelctlDistribution", targets: ["RelctlDistribution"]),
        .library(name: "RelctlProject", targets: ["RelctlProject"]),
        .library(name: "RelctlRelease", targets: ["RelctlRelease"]),
        // The command line with its extension point (`RelctlCLI.main(extensions:)`).
        .library(name: "RelctlCommands", targets: ["RelctlCommands"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        // DER for Authenticode: PKCS#12 read, PKCS#7 SignedData and RFC 3161 requests written. Already
        // resolved as swift-crypto's own dependency, so it adds no checkout.
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CArchive",
            pkgConfig: staticCLibraries ? nil : "libarchive",
            // Homebrew's libarchive is keg-only (macOS ships one): SwiftPM finds its .pc in
            // `$(brew --prefix)/opt/libarchive/lib/pkgconfig` because the formula is named here.
            providers: [.apt(["libarchive-dev"]), .brew(["libarchive"])]
        ),
        // No pkgConfig on Linux: its `-ldeflate` would link the shared library, and RelctlArtifacts
        // links the static one instead (see its linkerSettings).
        .systemLibrary(
            name: "CDeflate",
            pkgConfig: deflatePkgConfig,
            providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]
        ),
        .systemLibrary(
            name: "CSodium",
            pkgConfig: staticCLibraries ? nil : "libsodium",
            providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]
        ),
        // Infrastructure with no release knowledge: the filesystem door, paths, child processes,
        // HTTP with its credential policy, git, diagnostics and the command context.
        .target(name: "RelctlBasics"),
        // What a project declares and what a release is: relctl.toml's model, versions and tag
        // formats, manifests and companions, tag validation, the matrix, the release identity.
        .target(
            name: "RelctlModel",
            dependencies: [
                "RelctlBasics",
                "RelctlTOML",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The files a release makes: builds, archives, checksums, SBOMs, deb/rpm and their
        // repositories, images, installers, signatures, provenance, reading archives back. The
        // only target that links the C libraries.
        .target(
            name: "RelctlArtifacts",
            dependencies: [
                "RelctlBasics",
                "RelctlModel",
                "CArchive",
                "CDeflate",
                "CSodium",
                .product(name: "Crypto", package: "swift-crypto"),
                // RSA repository keys (`_RSA.Signing`, PKCS#1 v1.5): the product's current name;
                // `_CryptoExtras` is its deprecated alias.
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                "RelctlTOML",
            ],
            linkerSettings: [
                // The system's libdeflate, statically: Debian 12's libdeflate.a compresses 10-20%
                // faster than its libdeflate.so (measured on the benchmark's tar stream, same
                // version 1.14), and compression is most of `relctl package`'s CPU time.
                .linkedLibrary(":libdeflate.a", .when(platforms: [.linux])),
                .linkedLibrary("deflate", .when(platforms: [.macOS])),
            ] + cLibraryLinks
        ),
        // What changed: the tag history, commits classified, the next version, notes, changelogs.
        .target(
            name: "RelctlChanges",
            dependencies: [
                "RelctlBasics",
                "RelctlModel",
                "RelctlArtifacts",
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
        // Where a release goes: forges (GitHub, GitLab, Gitea), assets, release requests, channels
        // (Homebrew, Scoop, Nix, Helm, AUR, winget, plugins).
        .target(
            name: "RelctlDistribution",
            dependencies: [
                "RelctlBasics",
                "RelctlModel",
                "RelctlArtifacts",
                "RelctlChanges",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The project as a whole: relctl.toml read with every registry, workspace members and their
        // plans, the starter config and checks, CI generation, extensions.
        .target(
            name: "RelctlProject",
            dependencies: ["RelctlBasics", "RelctlModel", "RelctlArtifacts", "RelctlChanges", "RelctlDistribution"]
        ),
        // Orchestration: the release pipeline and its stages, the train, reproduce.
        .target(
            name: "RelctlRelease",
            dependencies: [
                "RelctlBasics",
                "RelctlModel",
                "RelctlArtifacts",
                "RelctlChanges",
                "RelctlDistribution",
                "RelctlProject",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(name: "RelctlBuildInfo"),
        .target(
            name: "RelctlTOML",
            dependencies: [.product(name: "TOMLKit", package: "TOMLKit")]
        ),
        // The command line: argument parsing and printing only, one file per subcommand. A library,
        // so a package that adds its own extensions builds the same CLI (Examples/relctl-gradle).
        .target(
            name: "RelctlCommands",
            dependencies: [
                "RelctlBasics",
                "RelctlModel",
                "RelctlArtifacts",
                "RelctlChanges",
                "RelctlDistribution",
                "RelctlProject",
                "RelctlRelease",
                "RelctlBuildInfo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The release build's own libcurl (RELCTL_STATIC_CURL_LIB above); main.swift points its
        // OpenSSL at the distribution's CA bundle.
        .executableTarget(
            name: "relctl", dependencies: ["RelctlCommands"],
            swiftSettings: staticCurlFolder == nil ? [] : [.define("RELCTL_STATIC_CURL")],
            linkerSettings: staticCurlFolder.map { [.unsafeFlags(["-L", $0])] } ?? []
        ),
        .target(
            name: "RelctlTestSupport",
            dependencies: [
                "RelctlBasics", "RelctlModel", "RelctlArtifacts", "RelctlChanges", "RelctlDistribution",
                "RelctlProject", "RelctlRelease",
            ],
            path: "Tests/Support",
            // The API stand-ins and the workflow runners are run with python3 from their source paths;
            // the write-fault shim is compiled with gcc by the test that loads it.
            exclude: [
                "github_standin.py", "workflow_runner.py", "gitlab_pipeline_runner.py", "forge_standin.py",
                "gitlab_standin.py", "gitea_standin.py", "pulls_standin.py", "npm_registry_standin.py", "write_faults.c",
            ]
        ),
        // The parser fuzzer's driver (scripts/fuzz); the fuzzer itself is in RelctlTestSupport, so
        // the suite runs it too (docs/security.md, "Fuzzing").
        .executableTarget(name: "relctl-fuzz", dependencies: ["RelctlTestSupport"], path: "Tests/Fuzz"),
        // Swift Testing traits for the suites (kept apart: the fuzzer's executable does not link Testing).
        .target(name: "RelctlTestTraits", dependencies: ["RelctlTestSupport"], path: "Tests/Traits"),
        .testTarget(
            name: "RelctlCoreTests",
            dependencies: [
                "RelctlBasics", "RelctlModel", "RelctlArtifacts", "RelctlChanges", "RelctlDistribution",
                "RelctlProject", "RelctlRelease", "RelctlTestSupport", "RelctlTestTraits",
            ]
        ),
        .testTarget(
            name: "RelctlCLITests",
            dependencies: [
                "RelctlBasics", "RelctlModel", "RelctlArtifacts", "RelctlChanges", "RelctlDistribution",
                "RelctlProject", "RelctlRelease", "RelctlTestSupport", "RelctlTestTraits",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
