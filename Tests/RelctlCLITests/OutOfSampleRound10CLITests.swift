import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the tenth out-of-sample round of the back-test found (session 68: jmoiron/sqlx, …), each
/// on a generated repository of the shape that was read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound10CLITests {
    /// A Go module at the repository's top, named `sqlx` by its origin, tagged `sqlx-v1.0` and
    /// `sqlx-v1.1` in its first years and then `v1.2.0`, `v1.3.0`, … over the following years.
    /// `years` is how long the bare releases went on after the named ones.
    func renamedSeries(bareReleases: Int, years: Int) throws -> GitRepository {
        let repo = try GitRepository()
        try repo.git("remote", "add", "origin", "https://github.com/acme/sqlx.git")
        try repo.commit("first", files: ["go.mod": "module github.com/acme/sqlx\n\ngo 1.20\n", "sqlx.go": "package sqlx\n"], date: "2014-04-29T10:00:00Z")
        try repo.git("tag", "sqlx-v1.0")
        try repo.commit("more", files: ["sqlx.go": "package sqlx\n// 1.1\n"], date: "2015-01-10T10:00:00Z")
        try repo.git("tag", "sqlx-v1.1")
        // Spread over `years` from 2015: the newest bare release that many years after the named ones.
        let step = Double(years) * 365 * 86_400 / Double(bareReleases)
        for index in 1...bareReleases {
            let date = Date(timeIntervalSince1970: 1_420_884_000 + step * Double(index))
            try repo.commit("change \(index)", files: ["sqlx.go": "package sqlx\n// \(index)\n"], date: ISO8601DateFormatter().string(from: date))
            try repo.git("tag", "v1.\(index + 1).0")
        }
        try repo.commit("fixes #688", files: ["sqlx.go": "package sqlx\n// next\n"], date: "2024-06-01T10:00:00Z")
        return repo
    }

    /// jmoiron/sqlx: init wrote `{project}-v{version}` for its two tags of 2014-15 and proposed
    /// `sqlx-v1.1.1` at each of its last 7 release points, whose tags were `v1.3.0` … `v1.4.0`.
    /// A project at the repository's top owns its bare tags: a named series they left behind for
    /// years is not its current series.
    @Test func aProjectsOldNamedTagsLeftBehindByItsBareReleasesAreNotItsSeries() throws {
        let repo = try renamedSeries(bareReleases: 4, years: 6)
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("tag-format = \"v{version}\""), "\(config)")
        let plan = try relctl(["plan", "--json"], in: repo.url)
        let members = try #require(try BacktestFindingsCLITests.field(plan.stdout, "members") as? [[String: Any]], "\(plan)")
        #expect(members.first?["current"] as? String == "1.5.0" && members.first?["tag"] as? String == "v1.5.1", "\(plan)")
    }

    /// The rule needs years: bare tags a project made soon after its named ones (a year here) may
    /// be another thing's, and the named series stays, as before.
    @Test func namedTagsFollowedSoonByBareOnesKeepTheirSeries() throws {
        let repo = try renamedSeries(bareReleases: 4, years: 1)
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("tag-format = \"{project}-v{version}\""), "\(config)")
    }

    /// TanStack form: changesets' `fixed` group releases `@tanstack/form-core` with every release of
    /// its group, changes or not (ten points with no commit of its own, 4 of 10); init read the
    /// changesets but not the group. It writes `[[workspace.group]]` now, and form-core follows
    /// its group's fix; a package outside the group (devtools) does not, nor does a package of
    /// the group that is never tagged (biome's platform packages): its commits would size the
    /// group's release.
    @Test func changesetsFixedGroupsAreWorkspaceGroups() throws {
        let repo = try GitRepository()
        let manifest = { (name: String, version: String) in
            "{\n  \"name\": \"@acme/\(name)\",\n  \"version\": \"\(version)\"\n}\n"
        }
        try repo.commit(
            "chore: release",
            files: [
                "package.json": "{\n  \"name\": \"root\",\n  \"private\": true,\n  \"workspaces\": [\"packages/*\"]\n}\n",
                ".changeset/config.json": """
                    {"fixed": [["@acme/form-*", "@acme/react-form"]], "linked": [], "ignore": []}
                    """,
                "packages/form-core/package.json": manifest("form-core", "1.2.0"),
                "packages/form-core/index.js": "core\n",
                "packages/react-form/package.json": manifest("react-form", "1.2.0"),
                "packages/react-form/index.js": "react\n",
                "packages/devtools/package.json": manifest("devtools", "0.3.0"),
                "packages/devtools/index.js": "devtools\n",
                "packages/form-linux/package.json": manifest("form-linux", "0.0.0"),
                "packages/form-linux/index.js": "linux\n",
            ], date: "2026-01-01T10:00:00Z")
        for tag in ["@acme/form-core@1.2.0", "@acme/react-form@1.2.0", "@acme/devtools@0.3.0"] { try repo.git("tag", tag) }
        try repo.commit("fix(react-form): keep the field's id", files: ["packages/react-form/index.js": "react 2\n"], date: "2026-01-02T10:00:00Z")
        try repo.commit("feat(form-linux): a new binary", files: ["packages/form-linux/index.js": "linux 2\n"], date: "2026-01-03T10:00:00Z")
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("[[workspace.group]]\nname = \"form-core\"\nmembers = [\"form-core\", \"react-form\"]"), "\(config)")
        let plan = try relctl(["plan", "--json"], in: repo.url)
        #expect(plan.status == 0, "\(plan)")
        let members = try #require(try BacktestFindingsCLITests.field(plan.stdout, "members") as? [[String: Any]], "\(plan)")
        let rows = Dictionary(uniqueKeysWithValues: members.map { ($0["name"] as? String ?? "", $0) })
        #expect(rows["form-core"]?["next"] as? String == "1.2.1" && rows["form-core"]?["reason"] as? String == "group", "\(plan)")
        #expect(rows["react-form"]?["next"] as? String == "1.2.1", "\(plan)")
        #expect(rows["devtools"]?["next"] is NSNull, "\(plan)")
    }
}
