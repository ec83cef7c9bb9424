import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the sixteenth out-of-sample round (session 74) found reading real repositories, each on a
/// generated repository of the shape that was read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound16CLITests {
    /// rxjs' pull-request template leaves `BREAKING CHANGE: N/A` in commit bodies (a `docs:` typo
    /// fix on its 7.x line): read as a breaking change, plan refused the branch's range with exit 1.
    /// A footer whose whole value says there is none breaks nothing; one that says what breaks does.
    @Test(arguments: [("N/A", "7.5.7"), ("none", "7.5.7"), ("the `fo` operator is removed", "8.0.0")])
    func aBreakingChangeFooterSayingNoneBreaksNothing(value: String, expected: String) throws {
        let repo = try GitRepository()
        try repo.commit("chore(publish): 7.5.6", files: ["package.json": "{\"name\":\"demo\",\"version\":\"7.5.6\"}\n"])
        try repo.git("tag", "7.5.6")
        try repo.commit(
            "docs(ReplaySubject): typo 'fo' should be 'of' (#6970)\n\nDescription: typo\n\nBREAKING CHANGE: \(value)\n\nRelated issue (if exists): N/A",
            files: ["a.md": "a\n"])
        _ = try OutOfSampleRound15CLITests.initialise(repo)
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try BacktestFindingsCLITests.field(bump.stdout, "next") as? String == expected, "\(bump)")
    }
}

extension OutOfSampleRound16CLITests {
    /// Chart repositories bump `version:` in the pull request (codecentric's keycloakx: `bump
    /// chart to 7.1.5` after the range's feats, released as 7.1.5; relctl proposed 7.2.0, three
    /// points; bjw-s' app-template the same). A final version written after every change that
    /// calls for more is the release in preparation; a feat after it lifts it, as before.
    @Test(arguments: [false, true])
    func aChartVersionWrittenAfterTheFeatsIsTheRelease(featAfter: Bool) throws {
        let repo = try GitRepository()
        func chart(_ name: String, _ version: String) -> String {
            "apiVersion: v2\nname: \(name)\nversion: \(version)\nappVersion: \"1.0\"\n"
        }
        try repo.commit(
            "feat(app): first charts",
            files: [
                "charts/app/Chart.yaml": chart("app", "1.0.0"), "charts/other/Chart.yaml": chart("other", "2.0.0"),
                "charts/app/values.yaml": "a: 1\n", "charts/other/values.yaml": "a: 1\n",
            ])
        try repo.git("tag", "app-1.0.0")
        try repo.git("tag", "other-2.0.0")
        try repo.commit(
            "fix(app): a fix, bump chart to 1.0.1",
            files: ["charts/app/Chart.yaml": chart("app", "1.0.1"), "charts/app/values.yaml": "b: 1\n"])
        try repo.git("tag", "app-1.0.1")
        try repo.commit("feat(app): add extra ports", files: ["charts/app/values.yaml": "c: 1\n"])
        try repo.commit(
            "fix(app): update image, bump chart to 1.0.2",
            files: ["charts/app/Chart.yaml": chart("app", "1.0.2"), "charts/app/values.yaml": "d: 1\n"])
        try repo.commit("fix(app): typo", files: ["charts/app/values.yaml": "e: 1\n"])
        if featAfter { try repo.commit("feat(app): a later feature", files: ["charts/app/values.yaml": "f: 1\n"]) }
        _ = try OutOfSampleRound15CLITests.initialise(repo)
        let rows = try OutOfSampleRound15CLITests.rows(repo)
        #expect(rows["charts/app"]?["next"] as? String == (featAfter ? "1.1.0" : "1.0.2"), "\(rows)")
        #expect(rows["charts/app"]?["tag"] as? String == (featAfter ? "app-1.1.0" : "app-1.0.2"), "\(rows)")
        #expect(rows["charts/other"]?["next"] == nil || rows["charts/other"]?["next"] is NSNull, "\(rows)")
    }

    /// A version bumped right after the release (a project that moves to the next patch at once)
    /// is no decision about the changes that came after it: they decide, as before.
    @Test func aVersionBumpedRightAfterTheReleaseDoesNotHoldBackLaterFeats() throws {
        let repo = try GitRepository()
        try repo.commit("chore: release 1.0.0", files: ["Cargo.toml": "[package]\nname = \"demo\"\nversion = \"1.0.0\"\n"])
        try repo.git("tag", "v1.0.0")
        try repo.commit("chore: start 1.0.1", files: ["Cargo.toml": "[package]\nname = \"demo\"\nversion = \"1.0.1\"\n"])
        try repo.commit("feat: a new flag", files: ["src/lib.rs": "pub fn a() {}\n"])
        _ = try OutOfSampleRound15CLITests.initialise(repo)
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try BacktestFindingsCLITests.field(bump.stdout, "next") as? String == "1.1.0", "\(bump)")
    }
}
