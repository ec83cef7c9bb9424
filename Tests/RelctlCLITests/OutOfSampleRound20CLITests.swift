import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the twentieth and twenty-first out-of-sample rounds (session 78) and round 19's leftovers
/// found reading real repositories, each on a generated repository of the shape that was read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound20CLITests {
    /// matrix-rust-sdk keeps a changelog in each crate, written ahead (`## [Unreleased] -
    /// ReleaseDate`, `[**breaking**]` entries under `### Features`), with untyped or feat-only
    /// subjects. A single project's init reads such a file; a workspace's did not, so matrix-sdk's
    /// breaking ranges were proposed as 0.x patches (4 points of round 19). Where members keep
    /// their own changelog ahead of their latest release, init writes `[versioning] changelog`
    /// with that name, read in each member's folder; a member whose file says nothing ahead keeps
    /// its commits' level.
    @Test func membersChangelogsWrittenAheadGiveTheirLevels() throws {
        let repo = try GitRepository()
        func crate(_ name: String, _ version: String) -> String {
            "[package]\nname = \"\(name)\"\nversion = \"\(version)\"\nedition = \"2021\"\n"
        }
        try repo.commit(
            "Initial import",
            files: [
                "Cargo.toml": "[workspace]\nmembers = [\"crates/*\"]\n",
                "crates/core/Cargo.toml": crate("core", "1.0.0"), "crates/core/src/lib.rs": "0\n",
                "crates/cli/Cargo.toml": crate("cli", "1.0.0"), "crates/cli/src/main.rs": "0\n",
            ])
        try repo.git("tag", "core-v1.0.0")
        try repo.git("tag", "cli-v1.0.0")
        try repo.commit("Tweak the parser", files: ["crates/core/src/lib.rs": "1\n"])
        try repo.commit(
            "Release core 1.1.0",
            files: [
                "crates/core/Cargo.toml": crate("core", "1.1.0"),
                "crates/core/CHANGELOG.md": "# Changelog\n\n## [1.1.0] - 2026-01-02\n\n### Fixed\n\n- The parser.\n",
            ])
        try repo.git("tag", "core-v1.1.0")
        try repo.commit("Tidy the output", files: ["crates/cli/src/main.rs": "1\n"])
        try repo.commit("Release cli 1.0.1", files: ["crates/cli/Cargo.toml": crate("cli", "1.0.1")])
        try repo.git("tag", "cli-v1.0.1")
        // Written ahead: core's next release adds an API; cli's changelog has nothing ahead.
        try repo.commit(
            "Rework the reader",
            files: [
                "crates/core/src/lib.rs": "2\n",
                "crates/core/CHANGELOG.md":
                    "# Changelog\n\n## [Unreleased] - ReleaseDate\n\n### Features\n\n- `Reader::peek` is a new method.\n\n"
                    + "## [1.1.0] - 2026-01-02\n\n### Fixed\n\n- The parser.\n",
            ])
        try repo.commit("Rework the printer", files: ["crates/cli/src/main.rs": "2\n"])
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("[workspace]"), "\(config)")
        #expect(config.contains("changelog = \"CHANGELOG.md\""), "\(config)")
        #expect(config.contains("crates/core/CHANGELOG.md:5"), "\(config)")
        let rows = try OutOfSampleRound15CLITests.rows(repo)
        #expect(rows["crates/core"]?["next"] as? String == "1.2.0", "\(rows)")
        #expect(rows["crates/cli"]?["next"] as? String == "1.0.2", "\(rows)")
    }
}
