import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// The bundled example (Examples/velostream, what `make demo` releases) as a new user meets it:
/// its release writes the npm packages and wheels of its five targets (issue 61), the real npm
/// and pip install them offline and the command runs, and `relctl checksum` over the folder (CI's
/// merge step) lists them exactly as the release did.
@Suite(.serialized, .timeLimit(.minutes(30)), .removesTemporaries) struct ExampleRegistriesCLITests {
    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/velostream")

    /// A git repository holding a copy of the example, as scripts/demo makes one.
    static func copyOfExample(editing edit: (String) -> String = { $0 }) throws -> GitRepository {
        let repository = try GitRepository()
        let copied = try run("cp", ["-R", example.path + "/.", repository.url.path])
        try #require(copied.status == 0, "\(copied)")
        _ = try sh("rm -rf target dist", in: repository.url)
        let config = try repository.directory.read("relctl.toml")
        try repository.directory.write("relctl.toml", edit(config))
        try repository.commit("feat: velostream 1.0.0")
        return repository
    }

    static let npmPackages = [
        "acme-velostream-linux-x64-musl-1.0.0.tgz", "acme-velostream-linux-arm64-musl-1.0.0.tgz",
        "acme-velostream-darwin-x64-1.0.0.tgz", "acme-velostream-darwin-arm64-1.0.0.tgz",
        "acme-velostream-win32-x64-1.0.0.tgz", "acme-velostream-1.0.0.tgz",
    ]
    static let wheels = [
        "velostream-1.0.0-py3-none-musllinux_1_2_x86_64.whl", "velostream-1.0.0-py3-none-musllinux_1_2_aarch64.whl",
        "velostream-1.0.0-py3-none-macosx_10_12_x86_64.whl", "velostream-1.0.0-py3-none-macosx_11_0_arm64.whl",
        "velostream-1.0.0-py3-none-win_amd64.whl",
    ]

    /// The `name → sha256` lines of a SHA256SUMS whose names satisfy `keep`.
    static func lines(_ sums: URL, _ keep: (String) -> Bool) throws -> [String: String] {
        var found: [String: String] = [:]
        for line in try String(contentsOf: sums, encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let name = fields.last.map(String.init), keep(name) { found[name] = String(fields[0]) }
        }
        return found
    }

    static func manifest(_ folder: URL) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("manifest.json")))
                as? [String: Any])
    }

    /// `artifacts` or `packages` of a manifest as `name → [target, format, sha256]`.
    static func entries(_ manifest: [String: Any], _ key: String) -> [String: [String]] {
        var found: [String: [String]] = [:]
        for entry in manifest[key] as? [[String: Any]] ?? [] {
            found[entry["name"] as? String ?? ""] = [
                entry["target"] as? String ?? "?", entry["format"] as? String ?? "?", entry["sha256"] as? String ?? "?",
            ]
        }
        return found
    }

    /// The release's lists rebuilt by `relctl checksum` over a copy of dist/ without them (what CI's
    /// merge job has) must list `names` as the release did, in SHA256SUMS and manifest.json.
    static func expectChecksumRebuildsTheLists(of dist: URL, in project: URL, names: Set<String>) throws {
        let merged = project.appendingPathComponent("merged")
        let copied = try sh(
            "mkdir -p \"$M\" && cp -R \"$D\"/. \"$M\"/ && rm -f \"$M/SHA256SUMS\" \"$M/manifest.json\"",
            environment: ["M": merged.path, "D": dist.path])
        try #require(copied.status == 0, "\(copied)")
        let rebuilt = try relctl(["checksum", "merged"], in: project)
        try #require(rebuilt.status == 0, "\(rebuilt)")
        let released = try lines(dist.appendingPathComponent("SHA256SUMS")) { names.contains($0) }
        #expect(Set(released.keys) == names, "the release lists \(released.keys.sorted())")
        let listed = try lines(merged.appendingPathComponent("SHA256SUMS")) { names.contains($0) }
        #expect(listed == released, "relctl checksum lists \(listed.keys.sorted())\n\(rebuilt)")
        let before = try manifest(dist)
        let after = try manifest(merged)
        for key in ["artifacts", "packages"] {
            let kept = entries(before, key).filter { names.contains($0.key) }
            #expect(entries(after, key).filter { names.contains($0.key) } == kept, "\(key) of manifest.json")
        }
        #expect(after["tag"] as? String == before["tag"] as? String)
        let check = try sh("sha256sum -c --quiet SHA256SUMS", in: merged)
        #expect(check.status == 0, "\(check)")
    }

    /// npm with its own empty cache and config, and no registry it could reach.
    static func npm(_ arguments: [String], home: URL) throws -> RunResult {
        try run(
            "npm",
            arguments + ["--offline", "--registry", "http://127.0.0.1:9/", "--no-audit", "--no-fund", "--no-update-notifier"],
            in: home,
            environment: [
                "HOME": home.path, "npm_config_cache": home.appendingPathComponent("cache").path,
                "npm_config_userconfig": home.appendingPathComponent("npmrc").path,
            ])
    }

    @Test func theExamplesReleaseWritesWheelsAndNpmPackagesThatInstallOfflineAndRun() throws {
        let project = try Self.copyOfExample()
        let released = try relctl(["release", "v1.0.0"], in: project.url)
        try #require(released.status == 0, "\(released)")
        let dist = project.url.appendingPathComponent("dist")
        let sums = try Self.lines(dist.appendingPathComponent("SHA256SUMS")) { _ in true }
        for name in Self.npmPackages + Self.wheels {
            #expect(sums[name] != nil, "\(name) is not in SHA256SUMS: \(sums.keys.sorted())")
        }
        let manifest = try Self.manifest(dist)
        let artifacts = Self.entries(manifest, "artifacts")
        #expect(artifacts["acme-velostream-linux-x64-musl-1.0.0.tgz"]?.prefix(2) == ["x86_64-unknown-linux-musl", "npm"])
        #expect(artifacts["acme-velostream-1.0.0.tgz"]?.prefix(2) == ["", "npm"])
        #expect(Set(Self.entries(manifest, "packages").keys) == Set(Self.wheels), "\(manifest["packages"] ?? "none")")
        // The Helm chart is a .tgz too, and stays what it was.
        #expect(sums["velostream-1.0.0.tgz"] != nil && artifacts["velostream-1.0.0.tgz"] == nil)
        let check = try sh("sha256sum -c --quiet SHA256SUMS", in: dist)
        #expect(check.status == 0, "\(check)")

        // The example builds musl (static) Linux binaries only: its Linux packages carry no `libc`,
        // so npm installs them on a glibc system too, where they run.
        let musl = try sh("tar -xzOf acme-velostream-linux-x64-musl-1.0.0.tgz package/package.json", in: dist)
        #expect(musl.status == 0 && !musl.stdout.contains("libc"), "\(musl)")

        // npm, offline: the main package and this machine's platform package; the command runs.
        let home = try TemporaryDirectory(prefix: "relctl-npm-home")
        let prefix = try TemporaryDirectory(prefix: "relctl-npm-prefix")
        let installed = try Self.npm(
            [
                "install", "-g", "--prefix", prefix.path, dist.appendingPathComponent("acme-velostream-1.0.0.tgz").path,
                dist.appendingPathComponent("acme-velostream-linux-x64-musl-1.0.0.tgz").path,
            ], home: home.url)
        try #require(installed.status == 0, "\(installed)")
        for binary in ["velo-sql", "velo-cli", "velo-1brc"] {
            let ran = try run(prefix.url.appendingPathComponent("bin/\(binary)").path, ["--help"])
            #expect(
                ran.status == 0 && ran.stdout.hasPrefix("\(binary) 1.0.0 (x86_64-unknown-linux-musl")
                    && ran.stdout.hasSuffix(" --help\n"), "\(ran)")
        }

        // pip, offline from --find-links dist/. pip installs a musllinux wheel only where it
        // takes the musl tag: on this machine (glibc), by naming the platform, into a folder.
        let wheels = Self.wheels.map { dist.appendingPathComponent($0).path }
        let twine = try run("twine", ["check", "--strict"] + wheels)
        #expect(twine.status == 0 && !(twine.stdout + twine.stderr).contains("WARNING"), "\(twine)")
        let contents = try run("check-wheel-contents", wheels)
        #expect(contents.status == 0, "\(contents)")
        let target = try TemporaryDirectory(prefix: "relctl-pip-target")
        let pip = try run(
            "python3",
            [
                "-m", "pip", "install", "--no-index", "--find-links", dist.path, "--disable-pip-version-check",
                "--platform", "musllinux_1_2_x86_64", "--only-binary=:all:", "--target", target.path, "velostream==1.0.0",
            ])
        try #require(pip.status == 0, "\(pip)")
        #expect(pip.stdout.contains("velostream-1.0.0"), "\(pip)")
        let ran = try run(target.url.appendingPathComponent("bin/velo-sql").path, ["select", "1"])
        #expect(ran.status == 0 && ran.stdout.hasPrefix("velo-sql 1.0.0 (x86_64-unknown-linux-musl"), "\(ran)")
        #expect(ran.stdout.hasSuffix(" select 1\n"), "\(ran)")

        // CI's merge step: `relctl checksum` over the folder lists them as the release did.
        // (The wheels' SBOMs with them, as `[sbom]` makes one per wheel by default.)
        let sboms = Self.wheels.map { $0 + ".cdx.json" }
        #expect(sboms.allSatisfy { sums[$0] != nil }, "\(sums.keys.sorted())")
        try Self.expectChecksumRebuildsTheLists(
            of: dist, in: project.url, names: Set(Self.npmPackages + Self.wheels + sboms))
    }

    /// What a CI build job does (`relctl package` for its own target): its npm package, the main
    /// package (the same bytes from every job) and its wheel, beside its archive, as the release
    /// writes them.
    @Test func packageWritesEachTargetsNpmPackageAndWheelAsTheReleaseDoes() throws {
        let project = try Self.copyOfExample()
        let released = try relctl(["release", "v1.0.0"], in: project.url)
        try #require(released.status == 0, "\(released)")
        let dist = project.url.appendingPathComponent("dist")
        for (folder, target) in [("ci-a", "x86_64-unknown-linux-musl"), ("ci-b", "aarch64-apple-darwin")] {
            let packaged = try relctl(
                ["package", "--tag", "v1.0.0", "--target", target, "--out", folder], in: project.url)
            try #require(packaged.status == 0, "\(packaged)")
        }
        for (folder, name) in [
            ("ci-a", "acme-velostream-linux-x64-musl-1.0.0.tgz"), ("ci-a", "acme-velostream-1.0.0.tgz"),
            ("ci-a", "velostream-1.0.0-py3-none-musllinux_1_2_x86_64.whl"),
            ("ci-b", "acme-velostream-darwin-arm64-1.0.0.tgz"), ("ci-b", "acme-velostream-1.0.0.tgz"),
            ("ci-b", "velostream-1.0.0-py3-none-macosx_11_0_arm64.whl"),
        ] {
            let written = try Data(contentsOf: project.url.appendingPathComponent("\(folder)/\(name)"))
            #expect(written == (try Data(contentsOf: dist.appendingPathComponent(name))), "\(folder)/\(name)")
        }
        #expect(!FileManager.default.fileExists(atPath: project.url.appendingPathComponent("ci-a/acme-velostream-darwin-arm64-1.0.0.tgz").path))
    }
}
