import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Issue 63: the relctl bugs the back-test (`scripts/backtest`) found on real histories, each
/// rebuilt as a generated repository of the same shape and driven through the built binary the
/// way a new user would (`init`, then `bump`/`plan`).
@Suite(.removesTemporaries, .timeLimit(.minutes(20))) struct BacktestFindingsCLITests {
    @discardableResult
    static func commit(
        _ repo: GitRepository, _ message: String, day: Int, files: [String: String] = [:]
    ) throws -> String {
        try repo.commit(message, files: files, date: String(format: "2026-01-%02dT10:00:00Z", day))
    }

    static func field(_ json: String, _ key: String) throws -> Any? {
        (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?[key]
    }

    /// httpx: a `1.0.0b0` tagged on master in 2019, then master went on releasing 0.x finals
    /// (0.24.0 … 0.28.1). The beta is abandoned: the latest release is the newest final, and the
    /// next is its patch, not `1.0.0b1`. A prerelease the branch has not left (no final after it)
    /// still counts: its line continues.
    @Test func prereleaseFollowedByLowerFinalsOnTheBranchIsAbandoned() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "pyproject.toml", "[project]\nname = \"httpx\"\ndynamic = [\"version\"]\n\n[tool.hatch.version]\npath = \"httpx/__version__.py\"\n")
        try repo.directory.write("httpx/__version__.py", "__version__ = \"0.9.0\"\n")
        try Self.commit(repo, "Version 0.9.0", day: 1)
        try repo.git("tag", "0.9.0")
        try Self.commit(repo, "Version 1.0.0b0", day: 2, files: ["httpx/__version__.py": "__version__ = \"1.0.0b0\"\n"])
        try repo.git("tag", "1.0.0b0")
        try Self.commit(repo, "Back to the 0.x line", day: 3, files: ["a.py": "a\n"])
        try Self.commit(repo, "Version 0.10.0", day: 4, files: ["httpx/__version__.py": "__version__ = \"0.10.0\"\n"])
        try repo.git("tag", "0.10.0")
        try Self.commit(repo, "Fix a crash on empty bodies", day: 5, files: ["b.py": "b\n"])

        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try Self.field(bump.stdout, "previous") as? String == "0.10.0", "not the 2019 beta: \(bump)")
        #expect(try Self.field(bump.stdout, "next") as? String == "0.10.1", "\(bump)")
        let notes = try relctl(["notes", "--json"], in: repo.url)
        #expect(try Self.field(notes.stdout, "previous") as? String == "0.10.0", "\(notes)")

        // A beta the branch has not left behind is still the latest release.
        let live = try GitRepository()
        try live.directory.write("relctl.toml", "[project]\nname = \"live\"\ntag-format = \"{version}\"\n")
        try Self.commit(live, "chore: start", day: 1)
        try live.git("tag", "0.9.0")
        try Self.commit(live, "feat: the new api", day: 2)
        try live.git("tag", "1.0.0-beta.0")
        try Self.commit(live, "fix: after the beta", day: 3)
        let next = try relctl(["bump", "--json"], in: live.url)
        #expect(try Self.field(next.stdout, "previous") as? String == "1.0.0-beta.0", "\(next)")
        #expect(try Self.field(next.stdout, "next") as? String == "1.0.0-beta.1", "\(next)")
    }
}
