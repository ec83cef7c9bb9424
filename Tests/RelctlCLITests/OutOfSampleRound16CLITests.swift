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
