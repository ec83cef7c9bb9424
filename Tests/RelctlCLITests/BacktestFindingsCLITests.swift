import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Issue 63: the relctl bugs the back-test (`scripts/backtest`) found on real histories, each
/// rebuilt as a generated repository of the same shape and driven through the built binary the
/// way a new user would (`init`, then `bump`/`plan`).
@Suite(.removesTemporaries, .timeLimit(.minutes(30))) struct BacktestFindingsCLITests {
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

    /// Twisted: the package is `Twisted`, its tags `twisted-22.1.0` … `twisted-24.7.0`, its version
    /// in no manifest. `init` reads the tags as the project's series (its name in another case)
    /// and `bump` counts from the newest.
    @Test func initReadsTagsNamedAfterTheProjectInAnotherCase() throws {
        let repo = try GitRepository()
        // The version is incremental's `Version("Twisted", 24, 3, 0)`: no manifest names it.
        try repo.directory.write("pyproject.toml", "[project]\nname = \"Twisted\"\ndynamic = [\"version\"]\n")
        for (day, version) in ["22.1.0", "23.8.0", "24.3.0"].enumerated() {
            try Self.commit(repo, "Release \(version)", day: day + 1, files: ["NEWS.rst": version + "\n"])
            try repo.git("tag", "twisted-\(version)")
        }
        try Self.commit(repo, "Remove a deprecated module", day: 10, files: ["a.py": "a\n"])
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("tag-format = \"twisted-{version}\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "previous") as? String == "twisted-24.3.0", "\(bump)")
        #expect(try Self.field(bump.stdout, "tag") as? String == "twisted-24.3.1", "\(bump)")

        // Twisted in 2022: pyproject.toml names no project; setup.cfg's `[metadata]` does.
        let older = try GitRepository()
        try older.directory.write("pyproject.toml", "[build-system]\nrequires = [\"setuptools\"]\n")
        try older.directory.write("setup.cfg", "[metadata]\nname = Twisted\nversion = attr: twisted.__version__\n")
        try Self.commit(older, "Release 22.4.0", day: 1)
        try older.git("tag", "twisted-22.4.0")
        try Self.commit(older, "Fix a conch bug", day: 2, files: ["a.py": "a\n"])
        let olderInit = try relctl(["init", "--quiet"], in: older.url)
        #expect(olderInit.status == 0, "\(olderInit)")
        let olderConfig = try older.directory.read("relctl.toml")
        #expect(olderConfig.contains("name = \"Twisted\"") && olderConfig.contains("tag-format = \"twisted-{version}\""), "\(olderConfig)")
    }

    /// yargs: 176 `v*` tags, and two old `yargs-v16.2.1`, `yargs-v7.1.2` of 2021. The series the
    /// recent history uses (the one whose tag names the version package.json holds; ten bare
    /// releases since the named ones) wins over the two named after the package.
    @Test func initPrefersTheSeriesNamingTheManifestVersionOverOldNamedTags() throws {
        let repo = try GitRepository()
        func manifest(_ version: String) -> [String: String] {
            ["package.json": "{\n  \"name\": \"yargs\",\n  \"version\": \"\(version)\"\n}\n"]
        }
        try Self.commit(repo, "chore: release 16.2.0", day: 1, files: manifest("16.2.0"))
        try repo.git("tag", "v16.2.0")
        try Self.commit(repo, "fix: a backport", day: 2, files: ["a.js": "a\n"])
        try repo.git("tag", "yargs-v16.2.1")
        try repo.git("tag", "yargs-v7.1.2")
        for minor in 0...9 {
            let version = minor == 9 ? "17.5.0" : "17.0.\(minor)"
            try Self.commit(repo, "chore: release \(version)", day: 3 + minor, files: manifest(version))
            try repo.git("tag", "v\(version)")
        }
        try Self.commit(repo, "fix: strict mode with async middleware", day: 20, files: ["b.js": "b\n"])
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("tag-format = \"v{version}\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "previous") as? String == "v17.5.0", "\(bump)")
        #expect(try Self.field(bump.stdout, "next") as? String == "17.5.1", "\(bump)")

        // On the 17.x.x branch the manifest holds `17.5.1-candidate.0`, which no tag names: the ten
        // bare releases since the named tags still make `v{version}` the series.
        try FileManager.default.removeItem(at: repo.url.appendingPathComponent("relctl.toml"))
        try Self.commit(repo, "chore: bump version for prerelease", day: 21, files: manifest("17.5.1-candidate.0"))
        let again = try relctl(["init", "--quiet"], in: repo.url)
        #expect(again.status == 0, "\(again)")
        let second = try repo.directory.read("relctl.toml")
        #expect(second.contains("tag-format = \"v{version}\""), "\(second)")
    }

    /// ripgrep: the root Cargo.toml is the `ripgrep` package and a `[workspace]` of `crates/*`.
    /// Cargo counts the root package as a member; so does `init`: `plan` has a `.` row, released
    /// by the bare `14.1.0` tags, counting only the commits outside the other members.
    @Test func initKeepsTheRootPackageOfACargoWorkspace() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "Cargo.toml",
            "[package]\nname = \"ripgrep\"\nversion = \"14.1.0\"\n\n[workspace]\nmembers = [\"crates/globset\", \"crates/ignore\"]\n")
        try repo.directory.write("crates/core/main.rs", "fn main() {}\n")
        try repo.directory.write("crates/ignore/Cargo.toml", "[package]\nname = \"ignore\"\nversion = \"0.4.22\"\n")
        try repo.directory.write("crates/ignore/src/lib.rs", "\n")
        try repo.directory.write("crates/globset/Cargo.toml", "[package]\nname = \"globset\"\nversion = \"0.4.14\"\n")
        try repo.directory.write("crates/globset/src/lib.rs", "\n")
        try Self.commit(repo, "14.1.0", day: 1)
        try repo.git("tag", "14.1.0")
        try repo.git("tag", "ignore-0.4.22")
        try repo.git("tag", "globset-0.4.14")
        try Self.commit(repo, "ignore: fix a crash", day: 2, files: ["crates/ignore/src/lib.rs": "// fixed\n"])
        try Self.commit(repo, "core: fix the --files output", day: 3, files: ["crates/core/main.rs": "fn main() { }\n"])

        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let (plan, members) = try MemberPlanDocument.run(in: repo.url)
        #expect(plan.status == 0, "\(plan)")
        let root = members.first { $0.path == "." }
        #expect(root?.name == "ripgrep", "\(plan.stdout)")
        #expect(root?.current == "14.1.0" && root?.next == "14.1.1" && root?.tag == "14.1.1", "\(plan.stdout)")
        #expect(root?.commits == 1, "only the commit outside crates/ignore: \(plan.stdout)")
        let ignore = members.first { $0.path == "crates/ignore" }
        #expect(ignore?.next == "0.4.23" && ignore?.tag == "ignore-0.4.23", "\(plan.stdout)")
    }
}
