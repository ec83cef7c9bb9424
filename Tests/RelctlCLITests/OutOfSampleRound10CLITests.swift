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
    /// Without `goModule`, the project is a Python package of that name (no version in its manifest).
    func renamedSeries(bareReleases: Int, years: Int, goModule: Bool = true) throws -> GitRepository {
        let repo = try GitRepository()
        try repo.git("remote", "add", "origin", "https://github.com/acme/sqlx.git")
        let manifest =
            goModule
            ? ["go.mod": "module github.com/acme/sqlx\n\ngo 1.20\n"]
            : ["pyproject.toml": "[project]\nname = \"sqlx\"\ndynamic = [\"version\"]\n"]
        try repo.commit("first", files: manifest.merging(["sqlx.go": "package sqlx\n"]) { a, _ in a }, date: "2014-04-29T10:00:00Z")
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
    /// be another thing's, and the named series stays, as before. Not at a Go module's top, which
    /// the go tool resolves by its `v` tags alone (k8up, round 32).
    @Test func namedTagsFollowedSoonByBareOnesKeepTheirSeries() throws {
        let repo = try renamedSeries(bareReleases: 4, years: 1, goModule: false)
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("tag-format = \"{project}-v{version}\""), "\(config)")
        let module = try renamedSeries(bareReleases: 4, years: 1)
        #expect(try relctl(["init", "--quiet"], in: module.url).status == 0)
        let moduleConfig = try module.directory.read("relctl.toml")
        #expect(moduleConfig.contains("tag-format = \"v{version}\""), "\(moduleConfig)")
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

    /// traefik's chart keeps a `v39.0` line whose releases are patches, features backported
    /// included: `plan` refused each `feat` there (exit 1, 8 of its 10 points). A line whose
    /// earlier release already shipped a feature inside its range gets `keep-in-range = true` from
    /// init, and bump proposes the patch, saying which commit asked for more.
    @Test func aMaintenanceLineThatShipsFeaturesAsPatchesKeepsItsRange() throws {
        let repo = try GitRepository()
        let chart = { (version: String) in "apiVersion: v2\nname: app\nversion: \(version)\n" }
        try repo.commit("feat: the chart", files: ["Chart.yaml": chart("3.0.0"), "values.yaml": "a: 1\n"], date: "2026-01-01T10:00:00Z")
        try repo.git("tag", "v3.0.0")
        try repo.git("checkout", "-q", "-b", "v3.0")
        try repo.commit("feat(deployment): support templating for podLabels", files: ["values.yaml": "a: 2\n"], date: "2026-01-02T10:00:00Z")
        try repo.commit("chore(release): publish 3.0.1", files: ["Chart.yaml": chart("3.0.1")], date: "2026-01-03T10:00:00Z")
        try repo.git("tag", "v3.0.1")
        try repo.git("checkout", "-q", "main")
        try repo.commit("feat!: values renamed", files: ["values.yaml": "b: 1\n"], date: "2026-01-04T10:00:00Z")
        try repo.commit("chore(release): publish 4.0.0", files: ["Chart.yaml": chart("4.0.0")], date: "2026-01-05T10:00:00Z")
        try repo.git("tag", "v4.0.0")
        try repo.git("checkout", "-q", "v3.0")
        try repo.commit("feat: allow IBM cloud values", files: ["values.yaml": "a: 3\n"], date: "2026-01-06T10:00:00Z")
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("range = \"3.0.x\"\nkeep-in-range = true   # v3.0.1 shipped a minor's changes inside 3.0.x on this line"), "\(config)")
        try repo.commit("chore: relctl", files: ["relctl.toml": config], date: "2026-01-07T10:00:00Z")
        let bump = try relctl(["bump"], in: repo.url)
        #expect(bump.status == 0 && bump.stdout == "3.0.2\n", "\(bump)")
        #expect(bump.stderr.contains("calls for a minor, which would leave 3.0.x on `v3.0`: a patch inside the range (keep-in-range)"), "\(bump)")
        // Without the key the line refuses the feature, as before.
        try repo.directory.write("relctl.toml", config.replacingOccurrences(of: "keep-in-range = true", with: "# kept out"))
        let refused = try relctl(["bump"], in: repo.url)
        #expect(refused.status == 1 && refused.stderr.contains("releases within 3.0.x, but commit"), "\(refused)")
    }

    /// The key belongs to a maintenance line: on a prerelease line it is refused, naming it.
    @Test func keepInRangeOnAPrereleaseLineIsRefused() throws {
        let repo = try GitRepository()
        try repo.commit(
            "feat: start",
            files: ["relctl.toml": "[project]\nname = \"demo\"\n\n[[branch]]\nname = \"next\"\nprerelease = \"rc\"\nkeep-in-range = true\n"])
        let check = try relctl(["bump"], in: repo.url)
        #expect(check.status == 2, "\(check)")
        #expect(check.stderr.contains("`keep-in-range` is for a maintenance line (`range`)"), "\(check)")
    }

    /// An npm workspace of `core` 5.0.0 and `auth` 7.0.3 naming core `^5.0.0` as its peer (and
    /// `app` 2.1.0 depending on auth, with a CHANGELOG.md, when `app`), all tagged, then a commit to
    /// core with a changeset giving it `level`; `.changeset/config.json` holds `options`.
    func peerWorkspace(options: String = "", level: String, app: Bool = false) throws -> GitRepository {
        let repo = try GitRepository()
        let manifest = { (name: String, version: String, extra: String) in
            "{\n  \"name\": \"@acme/\(name)\",\n  \"version\": \"\(version)\"\(extra)\n}\n"
        }
        var files = [
            "package.json": "{\n  \"name\": \"root\",\n  \"private\": true,\n  \"workspaces\": [\"packages/*\"]\n}\n",
            ".changeset/config.json": "{\"linked\": []\(options.isEmpty ? "" : ", " + options)}\n",
            "packages/core/package.json": manifest("core", "5.0.0", ""),
            "packages/core/index.js": "core\n",
            "packages/auth/package.json": manifest("auth", "7.0.3", ",\n  \"peerDependencies\": {\"@acme/core\": \"^5.0.0\"}"),
            "packages/auth/index.js": "auth\n",
        ]
        var tags = ["@acme/core@5.0.0", "@acme/auth@7.0.3"]
        if app {
            files["packages/app/package.json"] = manifest("app", "2.1.0", ",\n  \"dependencies\": {\"@acme/auth\": \"^7.0.3\"}")
            files["packages/app/index.js"] = "app\n"
            files["packages/app/CHANGELOG.md"] = "# Changelog\n"
            tags.append("@acme/app@2.1.0")
        }
        try repo.commit("chore: release", files: files, date: "2026-01-01T10:00:00Z")
        for tag in tags { try repo.git("tag", tag) }
        try repo.commit(
            "Change the core",
            files: [
                "packages/core/index.js": "core 2\n",
                ".changeset/change-core.md": "---\n\"@acme/core\": \(level)\n---\n\nChange the core.\n",
            ], date: "2026-01-02T10:00:00Z")
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        return repo
    }

    /// keystone: `@keystone-6/auth` names `@keystone-6/core` `^5.0.0` as a peer; changesets released
    /// core 6.0.0 and auth 8.0.0 with it (a peer leaving its range is a major of the dependent in
    /// changesets), where relctl proposed auth's patch. Under `fragments = "changesets"` relctl
    /// follows changesets' rule; `bumpVersionsWithWorkspaceProtocolOnly` (sveltejs/kit) keeps a
    /// plain range out of it, and the dependent gets relctl's own patch.
    @Test func aPeerLeavingItsRangeIsAMajorOfTheDependentUnderChangesets() throws {
        func plan(_ options: String) throws -> [String: [String: Any]] {
            let repo = try peerWorkspace(options: options, level: "major")
            let planned = try relctl(["plan", "--json"], in: repo.url)
            #expect(planned.status == 0, "\(planned)")
            let members = try #require(try BacktestFindingsCLITests.field(planned.stdout, "members") as? [[String: Any]], "\(planned)")
            return Dictionary(uniqueKeysWithValues: members.map { ($0["name"] as? String ?? "", $0) })
        }
        let outOfRange = try plan(#""___experimentalUnsafeOptions_WILL_CHANGE_IN_PATCH": {"onlyUpdatePeerDependentsWhenOutOfRange": true}"#)
        #expect(outOfRange["core"]?["next"] as? String == "6.0.0")
        #expect(outOfRange["auth"]?["next"] as? String == "8.0.0" && outOfRange["auth"]?["reason"] as? String == "dependency")
        let workspaceOnly = try plan(#""bumpVersionsWithWorkspaceProtocolOnly": true"#)
        #expect(workspaceOnly["core"]?["next"] as? String == "6.0.0")
        #expect(workspaceOnly["auth"]?["next"] as? String == "7.0.4", "relctl's own rule: a patch with the range raised")
    }

    /// A member raised to a major by changesets' peer rule is a release its own dependents follow:
    /// `app` depends on `auth`, and its notes name the version auth is released at (8.0.0), not
    /// the patch the dependency pass gave auth before the peer rule.
    @Test func aDependentOfAPeerRaisedMemberNamesItsMajor() throws {
        let repo = try peerWorkspace(level: "minor", app: true)
        let written = try relctl(["bump", "--write"], in: repo.url)
        #expect(written.status == 0, "\(written)")
        #expect(try repo.directory.read("packages/auth/package.json").contains("\"version\": \"8.0.0\""))
        let changelog = try repo.directory.read("packages/app/CHANGELOG.md")
        #expect(changelog.contains("- auth 8.0.0"), "\(changelog)")
    }
}
