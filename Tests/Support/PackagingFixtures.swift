import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlChanges
import RelctlDistribution
import RelctlModel
import RelctlProject
import RelctlRelease

/// A small project shaped like the velostream example: two binaries per target under
/// `target/<triple>/release/`, demo scripts that call `./target/release/velo-*`, a configs tree
/// and a relctl.toml that packages four targets in four formats.
public struct PackagingFixture: Sendable {
    public let directory: TemporaryDirectory
    public var url: URL { directory.url }

    public static let linuxGNU = "x86_64-unknown-linux-gnu"
    public static let linuxMusl = "x86_64-unknown-linux-musl"
    public static let linuxARM = "aarch64-unknown-linux-gnu"
    public static let windows = "x86_64-pc-windows-msvc"
    public static let triples = [linuxGNU, linuxMusl, linuxARM, windows]
    public static let binaries = ["velo-sql", "velo-cli"]

    /// The project, version and build tables every velostream-shaped fixture starts with.
    public static let configHead = """
        [project]
        name = "velostream"

        [[version]]
        path = "Cargo.toml"

        [build]
        binaries = ["velo-sql", "velo-cli"]
        binary-dir = "target/{target}/release"

        """

    public static let config =
        configHead + """
            [[target]]
            triple = "x86_64-unknown-linux-gnu"
            [[target]]
            triple = "x86_64-unknown-linux-musl"
            format = "tar.zst"
            [[target]]
            triple = "aarch64-unknown-linux-gnu"
            format = "tar.xz"
            [[target]]
            triple = "x86_64-pc-windows-msvc"

            [archive]
            name = "{project}-{tag}-{target}"
            files = ["README.md", { from = "LICENSE", to = "LICENSE.txt" }]
            trees = [{ from = "demo", to = "demo" }, { from = "configs", to = "configs" }]
            exclude = ["*.tmp"]

            [[archive.symlink]]
            path = "target/release/{binary}"
            to = "../../bin/{binary}"

            [[archive.symlink]]
            path = "{binary}"
            to = "bin/{binary}"

            """

    /// Longer than ustar's 100-byte name field, so pax headers are needed.
    public static let longPath =
        "configs/nested/deep/" + String(repeating: "long-configuration-name-", count: 6) + "end.yaml"

    /// Non-ASCII, so names must be stored as UTF-8 whatever the locale.
    public static let unicodePath = "demo/données/café-日本.csv"

    /// Files of the project, relative path → (contents, executable).
    public static func files(extraConfig: String = "") -> [(String, String, Bool)] {
        var files: [(String, String, Bool)] = [
            ("Cargo.toml", "[package]\nname = \"velostream\"\nversion = \"1.0.0\"\n", false),
            ("relctl.toml", config + extraConfig, false),
            ("README.md", "# velostream\n", false),
            ("LICENSE", "MIT\n", false),
            ("demo/1brc/run-1brc.sh", "#!/bin/sh\nset -e\n./target/release/velo-sql --demo 1brc\n", true),
            ("demo/1brc/measurements.csv", "station;temp\nOslo;3.1\n", false),
            ("demo/1brc/scratch.tmp", "excluded\n", false),
            (
                "demo/trading/start-demo.sh",
                "#!/bin/sh\nset -e\ncd \"$(dirname \"$0\")\"\n../../target/release/velo-cli trading\ncat data/prices.csv\n",
                true
            ),
            ("demo/shared/data/prices.csv", "ACME,10\n", false),
            ("configs/app.yaml", "port: 8080\n", false),
            ("configs/nested/deep/log.yaml", "level: info\n", false),
            (longPath, "long: true\n", false),
            (unicodePath, "Zürich;9.2\n", false),
        ]
        for triple in triples {
            let suffix = triple.contains("windows") ? ".exe" : ""
            for binary in binaries {
                files.append(
                    ("target/\(triple)/release/\(binary)\(suffix)", "#!/bin/sh\necho \"\(binary) $*\"\n", true))
            }
        }
        return files
    }

    /// Writes the project; `reversed` creates files in the opposite order (different inode and
    /// directory order), `restrictive` drops group/other bits as `umask 077` would.
    public init(reversed: Bool = false, restrictive: Bool = false, mtime: Int? = nil, extraConfig: String = "") throws {
        directory = try TemporaryDirectory(prefix: "relctl-pack")
        var list = Self.files(extraConfig: extraConfig)
        if reversed { list.reverse() }
        for (path, contents, executable) in list {
            _ = try directory.write(path, contents, executable: executable)
        }
        // A link inside the demo tree that stays inside: kept as a link.
        try FileManager.default.createSymbolicLink(
            atPath: url.appendingPathComponent("demo/trading/data").path, withDestinationPath: "../shared/data")
        if restrictive { _ = try sh("chmod -R go-rwx .", in: url) }
        if let mtime { _ = try sh("find . -exec touch -h -d @\(mtime) {} +", in: url) }
    }

    public var dist: URL { url.appendingPathComponent("dist") }

    public func archiveName(_ triple: String, tag: String = "v1.0.0") -> String {
        "velostream-\(tag)-\(triple)"
    }

    /// Every file (not folder) under dist/, hidden ones included, for "nothing left behind" checks.
    public func distContents() throws -> [String] {
        (try folderNames(dist.path)).sorted()
    }
}

extension Packager {
    /// What `relctl package --tag TAG` does: the release resolved once (`.packaging`: the tag
    /// matches the manifests, names HEAD, and gives the clock), then packaged into `outputDirectory`.
    package func package(
        config: RelctlConfig, tag: String, targets: [Target], outputDirectory: URL, jobs: Int? = nil,
        clean: Bool = false
    ) async throws -> [PackagedArtifact] {
        let identity = try await ReleaseIdentity.resolve(tag: tag, config: config, context: context, .packaging)
        return try await package(
            config: config, inputs: identity.packagingInputs, targets: targets, outputDirectory: outputDirectory,
            jobs: jobs, clean: clean, updateManifest: true)
    }
}
