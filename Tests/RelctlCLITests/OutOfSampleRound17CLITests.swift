import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the seventeenth out-of-sample round (session 75) found reading real repositories, each on
/// a generated repository of the shape that was read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound17CLITests {
    /// watchexec's CLI crate (`watchexec-cli` in `crates/cli`) was tagged `cli-v1.20.6` until 2022,
    /// then by the bare series (`v1.21.0` … `v2.3.3`, the version its manifest holds) while the
    /// library keeps `watchexec-v…`. Its own tags spell it by its short name (`watchexec-` is the
    /// word its siblings share), not the package's:
    /// read by the package name alone it had none, the bare series went to no member, and init
    /// wrote `watchexec-cli = "cli-v{version}"` (8 points, 10 tag spellings).
    @Test func aMemberTaggedByItsShortNameThatMovedToTheBareSeriesTakesIt() throws {
        let repo = try GitRepository()
        func crate(_ name: String, _ version: String) -> String {
            "[package]\nname = \"\(name)\"\nversion = \"\(version)\"\nedition = \"2021\"\n"
        }
        try repo.commit(
            "chore: workspace",
            files: [
                "Cargo.toml": "[workspace]\nmembers = [\"crates/*\"]\n",
                "crates/cli/Cargo.toml": crate("demo-cli", "1.20.4"), "crates/cli/src/main.rs": "fn main() {}\n",
                "crates/lib/Cargo.toml": crate("demo", "1.0.0"), "crates/lib/src/lib.rs": "\n",
                "crates/events/Cargo.toml": crate("demo-events", "1.0.0"), "crates/events/src/lib.rs": "\n",
            ], date: "2022-01-01T00:00:00Z")
        for tag in ["cli-v1.20.4", "demo-v1.0.0", "demo-events-v1.0.0"] { try repo.git("tag", tag) }
        for (index, version) in ["1.20.5", "1.20.6"].enumerated() {
            try repo.commit(
                "release: cli v\(version)", files: ["crates/cli/Cargo.toml": crate("demo-cli", version)],
                date: "2022-0\(index + 2)-01T00:00:00Z")
            try repo.git("tag", "cli-v\(version)")
        }
        for (index, version) in ["1.21.0", "2.0.0", "2.1.0", "2.1.1"].enumerated() {
            try repo.commit(
                "release: cli v\(version)", files: ["crates/cli/Cargo.toml": crate("demo-cli", version)],
                date: "2024-0\(index + 1)-01T00:00:00Z")
            try repo.git("tag", "v\(version)")
        }
        for (index, version) in ["1.1.0", "1.2.0"].enumerated() {
            try repo.commit(
                "release: demo v\(version)", files: ["crates/lib/Cargo.toml": crate("demo", version)],
                date: "2024-0\(index + 6)-01T00:00:00Z")
            try repo.git("tag", "demo-v\(version)")
        }
        try repo.commit("feat(cli): a new flag", files: ["crates/cli/src/main.rs": "fn main() { }\n"], date: "2024-09-01T00:00:00Z")
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("demo-cli = \"v{version}\""), "\(config)")
        let rows = try OutOfSampleRound15CLITests.rows(repo)
        #expect(rows["crates/cli"]?["current"] as? String == "2.1.1", "\(rows)")
        #expect(rows["crates/cli"]?["next"] as? String == "2.2.0", "\(rows)")
        #expect(rows["crates/cli"]?["tag"] as? String == "v2.2.0", "\(rows)")
        #expect(rows["crates/lib"]?["current"] as? String == "1.2.0", "\(rows)")
        #expect(rows["crates/events"]?["current"] as? String == "1.0.0", "\(rows)")
    }
}
