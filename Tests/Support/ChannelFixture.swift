import Foundation

/// A velostream-shaped project for the channel tests: five targets (Linux musl and GNU/arm64, both
/// macOS CPUs, Windows) with prebuilt stand-in binaries, a Helm chart, and every built-in channel
/// configured; `packageAndChecksum()` makes the release's archives and SHA256SUMS as CI does.
public struct ChannelFixture: Sendable {
    public let directory: TemporaryDirectory
    public var url: URL { directory.url }
    public var dist: URL { url.appendingPathComponent("dist") }

    public static let triples = [
        "x86_64-unknown-linux-musl", "aarch64-unknown-linux-gnu", "x86_64-apple-darwin", "aarch64-apple-darwin",
        "x86_64-pc-windows-msvc",
    ]
    /// The download folder the channels point at (the release's URLs in real life).
    public static let baseURL = "https://downloads.example.com/velostream/v1.0.0/"
    public static let environment = ["SOURCE_DATE_EPOCH": "1700000000", "INSTALLER_BASE_URL": baseURL]

    /// `channels` replaces the channel tables (default: chart, nix, homebrew and scoop to `tap`/`bucket`).
    public init(channels: String? = nil, tap: String = "/nonexistent/tap.git", bucket: String = "/nonexistent/bucket.git")
        throws
    {
        directory = try TemporaryDirectory(prefix: "relctl-channels")
        var config = PackagingFixture.configHead + """

            [archive]
            files = ["README.md"]


            """
        for triple in Self.triples { config += "[[target]]\ntriple = \"\(triple)\"\n" }
        config +=
            channels ?? """

            [[chart]]
            path = "charts/velostream"

            [nix]
            enabled = true

            [homebrew]
            tap = "\(tap)"
            description = "Streaming SQL engine"
            license = "Apache-2.0"

            [scoop]
            bucket = "\(bucket)"
            description = "Streaming SQL engine"
            license = "Apache-2.0"

            """
        _ = try directory.write("relctl.toml", config)
        _ = try directory.write("Cargo.toml", "[package]\nname = \"velostream\"\nversion = \"1.0.0\"\n")
        _ = try directory.write("README.md", "# velostream\n")
        for triple in Self.triples {
            let suffix = triple.contains("windows") ? ".exe" : ""
            for binary in ["velo-sql", "velo-cli"] {
                _ = try directory.write(
                    "target/\(triple)/release/\(binary)\(suffix)", "#!/bin/sh\necho \(binary)\n", executable: true)
            }
        }
        _ = try directory.write(
            "charts/velostream/Chart.yaml",
            "apiVersion: v2\nname: velostream\ndescription: Streaming SQL engine\nversion: 1.0.0\nappVersion: \"1.0.0\"\n")
    }

    public func packageAndChecksum() throws {
        let packaged = try relctl(["package", "--tag", "v1.0.0"], in: url, environment: Self.environment)
        guard packaged.status == 0 else { throw TestFailure("package failed: \(packaged)") }
        let summed = try relctl(["checksum"], in: url, environment: Self.environment)
        guard summed.status == 0 else { throw TestFailure("checksum failed: \(summed)") }
    }

    /// `HEX  NAME` lines of dist/SHA256SUMS, by name.
    public func sums() throws -> [String: String] {
        var sums: [String: String] = [:]
        for line in try String(contentsOf: dist.appendingPathComponent("SHA256SUMS"), encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            sums[String(parts[1].dropFirst())] = String(parts[0])
        }
        return sums
    }

    /// The SHA-256 of a file in dist/ as GNU `sha256sum` computes it: the digest a channel file
    /// must carry, found without relctl (its SHA256SUMS is what is being checked, not the judge).
    public func sha256sum(_ name: String) throws -> String {
        let result = try run("sha256sum", ["--", name], in: dist)
        let hex = result.stdout.prefix(64)
        guard result.status == 0, hex.count == 64, hex.allSatisfy(\.isHexDigit) else {
            throw TestFailure("sha256sum \(name) failed: \(result)")
        }
        return String(hex)
    }

    /// A fixture file of the channel tests (Tests/Fixtures/channels/NAME).
    public static func fixture(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/channels").appendingPathComponent(name)
    }
}
