import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the third out-of-sample round of the back-test found (session 61: rustls, bytes,
/// serde_json, crossbeam, tonic, rand, gin, testify, logrus, echo, the OpenTelemetry collector,
/// caddy, setuptools, virtualenv, fastapi, jsonschema, hypothesis, pdm and more), each on a
/// generated repository of the shape that was read wrong.
@Suite(.timeLimit(.minutes(20)), .removesTemporaries)
struct OutOfSampleRound3CLITests {
    @discardableResult
    static func commit(
        _ repo: GitRepository, _ message: String, day: Int, files: [String: String] = [:]
    ) throws -> String {
        try BacktestFindingsCLITests.commit(repo, message, day: day, files: files)
    }

    static func field(_ json: String, _ key: String) throws -> Any? { try BacktestFindingsCLITests.field(json, key) }

    /// setuptools' `maint/75.3`: main released 75.4.0 … 75.9.1 and then went on to 84.0.0. init
    /// wrote `range = "75.x"`, so bump counted from 75.9.1, which the branch does not contain, and
    /// proposed 75.9.2; the name gives the minor line and the branch releases 75.3.1.
    @Test func aMaintenanceBranchNamedForAMinorWhoseMajorWentOnIsThatMinorsLine() throws {
        let repo = try GitRepository()
        func manifest(_ version: String) -> [String: String] {
            ["pyproject.toml": "[project]\nname = \"setuptools\"\nversion = \"\(version)\"\n"]
        }
        var day = 1
        for version in ["75.3.0", "75.4.0", "75.9.1", "84.0.0"] {
            try Self.commit(repo, "Bump version: \(version)", day: day, files: manifest(version))
            try repo.git("tag", "v" + version)
            day += 1
        }
        try repo.git("checkout", "-q", "-b", "maint/75.3", "v75.3.0")
        try Self.commit(repo, "fix: a security backport", day: day, files: ["setuptools/a.py": "a\n"])
        let made = try relctl(["init", "--quiet"], in: repo.url)
        #expect(made.status == 0, "\(made)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("[[branch]]\nname = \"maint/75.3\"\nrange = \"75.3.x\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "75.3.1", "\(bump)")
    }

    /// rustls tags `v/0.23.33`, its post-quantum crate `rustls-post-quantum-v/0.2.1`: init read
    /// none of them ("no version tag yet") and plan proposed `v0.1.0`-like first releases.
    @Test func initReadsTagsWithASlashAfterTheV() throws {
        let repo = try GitRepository()
        func manifest(_ version: String) -> [String: String] {
            ["Cargo.toml": "[package]\nname = \"rustls\"\nversion = \"\(version)\"\nedition = \"2021\"\n"]
        }
        try Self.commit(repo, "Prepare 0.23.32", day: 1, files: manifest("0.23.32"))
        try repo.git("tag", "v/0.23.32")
        try Self.commit(repo, "Prepare 0.23.33", day: 2, files: manifest("0.23.33"))
        try repo.git("tag", "v/0.23.33")
        // The manifest moved on to a development version: no tag names what it holds.
        try Self.commit(repo, "fix: a handshake bug", day: 3, files: manifest("0.24.0-dev.1"))
        let made = try relctl(["init", "--quiet"], in: repo.url)
        #expect(made.status == 0, "\(made)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("tag-format = \"v/{version}\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "current") as? String == "0.23.33", "\(bump)")
        #expect(try Self.field(bump.stdout, "tag") as? String == "v/0.24.0", "\(bump)")
    }
}
