import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the twelfth out-of-sample round of the back-test found (session 70: aws-lambda-rust-runtime,
/// mise, towncrier, …), each on a generated repository of the shape that was read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound12CLITests {
    /// aws-lambda-rust-runtime's Cargo workspace: the crate `lambda_runtime` lives in
    /// `lambda-runtime/` and is tagged `lambda-runtime-0.11.1`, its name spelled with dashes.
    /// init wrote `{member}-{version}` alone, and plan found no release of it (current null,
    /// proposing the manifest's version again under the tag `lambda_runtime-0.11.0`).
    @Test func aCrateTaggedWithItsNameSpelledWithDashesIsReleasedByThoseTags() throws {
        let repo = try GitRepository()
        let crate = { (name: String, version: String) in MonorepoShapesCLITests.crate(name, version) }
        try repo.commit(
            "first",
            files: [
                "Cargo.toml": "[workspace]\nmembers = [\"lambda-runtime\", \"lambda-extension\"]\n",
                "lambda-runtime/Cargo.toml": crate("lambda_runtime", "0.11.0"), "lambda-runtime/src/lib.rs": "\n",
                "lambda-extension/Cargo.toml": crate("lambda-extension", "0.10.0"),
                "lambda-extension/src/lib.rs": "\n",
            ])
        try repo.git("tag", "lambda-runtime-0.11.0")
        try repo.git("tag", "lambda-extension-0.10.0")
        try repo.commit("fix: trace id", files: ["lambda-runtime/src/lib.rs": "// fixed\n"])

        let (config, members) = try BacktestFindingsCLITests.initialisedPlan(repo)
        #expect(config.contains("lambda_runtime = \"lambda-runtime-{version}\""), "\(config)")
        let runtime = try #require(members.first { $0["name"] as? String == "lambda_runtime" }, "\(members)")
        #expect(
            runtime["current"] as? String == "0.11.0" && runtime["tag"] as? String == "lambda-runtime-0.11.1",
            "\(members)")
    }

    /// mise: a Cargo workspace whose root crate is tagged `v2026.8.0` and whose members
    /// `vfox-v2026.8.0`: calendar versions, the month's release count last. init wrote no
    /// `version-scheme`, and a `feat` in August gave 2026.9.0 (1 of 10 back-test points); the
    /// member, even with the root's scheme set by hand, was still read as SemVer.
    @Test func aWorkspaceOfCalendarTagsIsCalendarVersionedMemberByMember() throws {
        let repo = try GitRepository()
        let crate = { (name: String, version: String) in MonorepoShapesCLITests.crate(name, version) }
        let files = [
            "Cargo.toml": crate("mise", "2026.7.2") + "\n[workspace]\nmembers = [\".\", \"crates/vfox\"]\n",
            "src/main.rs": "fn main() {}\n", "crates/vfox/Cargo.toml": crate("vfox", "2026.7.2"),
            "crates/vfox/src/lib.rs": "\n",
        ]
        try repo.commit("chore: release 2026.7.2", files: files, date: "2026-07-20T10:00:00Z")
        try repo.git("tag", "v2026.7.2")
        try repo.git("tag", "vfox-v2026.7.2")
        var bumped = files
        for path in ["Cargo.toml", "crates/vfox/Cargo.toml"] {
            bumped[path] = files[path]?.replacingOccurrences(of: "2026.7.2", with: "2026.8.0")
        }
        try repo.commit("chore: release 2026.8.0", files: bumped, date: "2026-08-01T10:00:00Z")
        try repo.git("tag", "v2026.8.0")
        try repo.git("tag", "vfox-v2026.8.0")
        try repo.commit(
            "feat: registry entries", files: ["src/main.rs": "fn main() { }\n", "crates/vfox/src/lib.rs": "// new\n"],
            date: "2026-08-03T10:00:00Z")

        let (config, members) = try BacktestFindingsCLITests.initialisedPlan(repo)
        #expect(config.contains("version-scheme = \"calver\""), "\(config)")
        let mise = try #require(members.first { $0["name"] as? String == "mise" }, "\(members)")
        #expect(mise["next"] as? String == "2026.8.1" && mise["tag"] as? String == "v2026.8.1", "\(members)")
        let vfox = try #require(members.first { $0["name"] as? String == "vfox" }, "\(members)")
        #expect(vfox["next"] as? String == "2026.8.1" && vfox["tag"] as? String == "vfox-v2026.8.1", "\(members)")
    }

    /// towncrier: calendar versions `YY.M.P`. After its candidate `24.7.1rc1`, a fix made in July
    /// is the candidate's final, 24.7.1, as its version file and NEWS say; relctl proposed 24.7.2
    /// (the date's 24.7.0 is below the candidate, and the next patch was taken past it).
    @Test func aCalendarCandidateWithinItsMonthIsPromoted() throws {
        let repo = try GitRepository()
        try repo.directory.write("pyproject.toml", "[project]\nname = \"towncrier\"\ndynamic = [\"version\"]\n")
        for (version, date) in [
            ("23.10.0", "2023-10-23"), ("23.11.0", "2023-11-08"), ("24.7.0", "2024-07-06"), ("24.7.1rc1", "2024-07-30"),
        ] {
            try repo.commit("Release \(version)", files: ["NEWS.rst": version + "\n"], date: date + "T10:00:00Z")
            try repo.git("tag", version)
        }
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        #expect(try repo.directory.read("relctl.toml").contains("version-scheme = \"calver\""))
        try repo.commit("Fix the build of the docs", files: ["docs.py": "x\n"], date: "2024-07-31T10:00:00Z")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try BacktestFindingsCLITests.field(bump.stdout, "next") as? String == "24.7.1", "\(bump)")
    }

    /// towncrier at 23.11.0: its five newest tags all fall in 2023, and
    /// `YY.M.P` named after the month is read as calendar versions only over two years at least
    /// (a SemVer project at major 23 in 2023 is none): init wrote no `version-scheme`, and plan
    /// proposed 23.10.1. The years are read from the ten newest tags then, its 22.x among them.
    @Test func calendarMonthsAreReadWhenTheNewestTagsShareAYear() throws {
        let repo = try GitRepository()
        try repo.directory.write("pyproject.toml", "[project]\nname = \"towncrier\"\ndynamic = [\"version\"]\n")
        for (version, date) in [
            ("22.8.0", "2022-08-29"), ("22.12.0rc1", "2022-12-14"), ("22.12.0", "2022-12-21"), ("23.1.0", "2023-01-10"),
            ("23.6.0rc1", "2023-06-01"), ("23.6.0", "2023-06-06"), ("23.10.0rc1", "2023-10-15"),
            ("23.10.0", "2023-10-23"),
        ] {
            try repo.commit("Release \(version)", files: ["NEWS.rst": version + "\n"], date: date + "T10:00:00Z")
            try repo.git("tag", version)
        }
        try repo.commit("Add a config option", files: ["a.py": "a\n"], date: "2023-11-07T10:00:00Z")
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        #expect(try repo.directory.read("relctl.toml").contains("version-scheme = \"calver\""))
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try BacktestFindingsCLITests.field(bump.stdout, "next") as? String == "23.11.0", "\(bump)")
    }
}
