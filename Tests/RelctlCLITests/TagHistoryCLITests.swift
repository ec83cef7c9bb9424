import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Issue 40, the tag-history half: versions come from the tag history (PRODUCT "Round 4"). Each
/// test rebuilds the shape of a real project's history (pydantic, k9s, swift-format, a monorepo
/// member) on a generated repository and drives the built binary through `init`, `validate-tag`,
/// `bump` and `notes` the way a new user would.
@Suite(.removesTemporaries, .timeLimit(.minutes(45))) struct TagHistoryCLITests {
    /// A commit on `day` (of January 2026), so tags made on it are that old.
    @discardableResult
    static func commit(
        _ repo: GitRepository, _ message: String, day: Int, files: [String: String] = [:]
    ) throws
        -> String
    {
        try repo.commit(message, files: files, date: String(format: "2026-01-%02dT10:00:00Z", day))
    }

    /// The subjects `notes --json` lists, in order.
    static func subjects(_ json: String) throws -> [String] {
        let document = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let sections = document?["sections"] as? [[String: Any]] ?? []
        return sections.flatMap { ($0["entries"] as? [[String: Any]] ?? []).compactMap { $0["summary"] as? String } }
    }

    static func field(_ json: String, _ key: String) throws -> Any? {
        (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?[key]
    }

    /// pydantic: an old `V0.17`, forty-one two-number tags (`v0.1` … `v2.0`), then `v2.x.y` releases
    /// and PEP 440 prereleases (`v2.14.0a1`, `v2.14.0b1`); the version in `pydantic/version.py`.
    static func pydantic() throws -> GitRepository {
        let repo = try GitRepository()
        try repo.directory.write(
            "pyproject.toml",
            "[project]\nname = \"pydantic\"\ndynamic = [\"version\"]\n\n[tool.hatch.version]\npath = \"pydantic/version.py\"\n"
        )
        try repo.directory.write("pydantic/version.py", "VERSION = '2.14.0b1'\n")
        try commit(repo, "chore: start", day: 1)
        try repo.git("tag", "V0.17")
        for (index, tag) in ["v0.18", "v1.0", "v1.9.0", "v2.0"].enumerated() {
            try commit(repo, "fix: old \(index)", day: 2 + index)
            try repo.git("tag", tag)
        }
        for (index, tag) in ["v2.12.5", "v2.13.0", "v2.13.4", "v2.14.0a1"].enumerated() {
            try commit(repo, "feat: release \(index)", day: 10 + index)
            try repo.git("tag", tag)
        }
        try commit(repo, "feat: shipped in the beta", day: 20)
        try repo.git("tag", "v2.14.0b1")
        return repo
    }

    /// Findings 2, 3 and 12: `init` takes the format and scheme from the most recent releases
    /// (`v{version}`, SemVer), not from the one old `V0.17` or the two-number `v2.0`; `validate-tag`
    /// accepts the project's own PEP 440 tag; `bump` spells the next prerelease as those tags do.
    @Test func pydanticInitReadsTheRecentReleasesAndBumpSpellsPEP440() throws {
        let repo = try Self.pydantic()
        try Self.commit(repo, "fix: after the beta", day: 21)
        let initialised = try relctl(["init"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("tag-format = \"v{version}\""), "not V{version}: \(config)")
        #expect(!config.contains("calver"), "v2.0 among SemVer tags is no calendar version: \(config)")
        #expect(config.contains("path = \"pydantic/version.py\"") && config.contains("kind = \"python\""), "\(config)")

        let own = try relctl(["validate-tag", "v2.14.0b1"], in: repo.url)
        #expect(own.status == 0, "the project's own PEP 440 tag: \(own)")
        let spelledSemVer = try relctl(["validate-tag", "v2.14.0-beta.1"], in: repo.url)
        #expect(spelledSemVer.status == 0, "the same version in SemVer's spelling: \(spelledSemVer)")
        #expect(try relctl(["validate-tag", "v2.13.4"], in: repo.url).status == 1, "a real mismatch stays one")

        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try Self.field(bump.stdout, "previous") as? String == "v2.14.0b1", "\(bump)")
        #expect(try Self.field(bump.stdout, "next") as? String == "2.14.0-beta.2", "\(bump)")
        #expect(try Self.field(bump.stdout, "tag") as? String == "v2.14.0b2", "spelled as the recent tags: \(bump)")
        let write = try relctl(["bump", "--write"], in: repo.url)
        #expect(write.status == 0, "\(write)")
        #expect(try repo.directory.read("pydantic/version.py") == "VERSION = '2.14.0b2'\n")
        #expect(try relctl(["validate-tag", "v2.14.0b2"], in: repo.url).status == 0)
    }

    /// Finding 6: `notes` starts at the PEP 440 prerelease `bump` counts from, not at the previous
    /// final; and both count the same changes.
    @Test func pep440PrereleaseIsThePreviousReleaseOfNotesAndBump() throws {
        let repo = try Self.pydantic()
        try repo.directory.write(
            "relctl.toml",
            "[project]\nname = \"pydantic\"\n\n[[version]]\npath = \"pydantic/version.py\"\nkind = \"python\"\n")
        for index in 1...3 { try Self.commit(repo, "fix: after the beta \(index)", day: 21 + index) }
        let notes = try relctl(["notes", "--json"], in: repo.url)
        #expect(notes.status == 0, "\(notes)")
        #expect(try Self.field(notes.stdout, "previous") as? String == "v2.14.0b1", "\(notes)")
        #expect(
            try Self.subjects(notes.stdout) == ["after the beta 1", "after the beta 2", "after the beta 3"],
            "\(notes.stdout)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "previous") as? String == "v2.14.0b1", "\(bump)")
        #expect(try Self.field(bump.stdout, "commits") as? Int == 3, "the same three changes: \(bump)")
        // The beta's own notes start at the alpha, the release before it.
        let beta = try relctl(["notes", "--tag", "v2.14.0b1", "--json"], in: repo.url)
        #expect(try Self.field(beta.stdout, "previous") as? String == "v2.14.0a1", "\(beta)")
        #expect(try Self.subjects(beta.stdout) == ["shipped in the beta"], "\(beta.stdout)")
    }

    /// Finding 10: `notes --changelog` puts the new section above a `## v2.14.0b1` section (newest
    /// first), and recognises a PEP 440 heading as the release it names.
    @Test func changelogReadsPEP440Headings() throws {
        let repo = try Self.pydantic()
        try repo.directory.write(
            "relctl.toml",
            "[project]\nname = \"pydantic\"\n\n[[version]]\npath = \"pydantic/version.py\"\nkind = \"python\"\n")
        let history = "# History\n\n## v2.14.0b1 (2026-01-20)\n\n* the beta\n\n## v2.13.4 (2026-01-12)\n\n* a fix\n"
        try repo.directory.write("HISTORY.md", history)
        try Self.commit(repo, "feat: after the beta", day: 22)
        let final = try relctl(["notes", "--tag", "v2.14.0", "--changelog", "HISTORY.md"], in: repo.url)
        #expect(final.status == 0, "\(final)")
        let text = try repo.directory.read("HISTORY.md")
        let headings = text.split(separator: "\n").filter { $0.hasPrefix("## ") }.map { String($0.prefix(13)) }
        #expect(headings == ["## v2.14.0 (2", "## v2.14.0b1 ", "## v2.13.4 (2"], "newest first: \(text)")

        // A second beta's section goes above the first one, its heading spelled as its tag.
        try repo.directory.write("HISTORY.md", history)
        let beta = try relctl(["notes", "--tag", "v2.14.0b2", "--changelog", "HISTORY.md"], in: repo.url)
        #expect(beta.status == 0, "\(beta)")
        let betaText = try repo.directory.read("HISTORY.md")
        let betaHeadings = betaText.split(separator: "\n").filter { $0.hasPrefix("## ") }.map { String($0.prefix(13)) }
        #expect(betaHeadings == ["## v2.14.0b2 ", "## v2.14.0b1 ", "## v2.13.4 (2"], "\(betaText)")
    }

    /// Finding 4 (k9s): the latest release is tagged on a commit off the branch. `bump` counts the
    /// `feat:`s since it (a minor, not a patch above it), and `notes` lists neither what that
    /// release shipped nor the release commit's patch when it lands on main.
    @Test func latestReleaseOffTheBranch() throws {
        let repo = try GitRepository()
        try Self.commit(repo, "chore: start", day: 1)
        try repo.git("tag", "v0.50.0")
        try Self.commit(repo, "feat: shipped in 0.51.0", day: 2)
        try Self.commit(repo, "fix: also shipped in 0.51.0", day: 3)
        // The release commit is made on a branch of its own and tagged there.
        try repo.git("checkout", "-q", "-b", "release-0.51.0")
        let release = try Self.commit(
            repo, "fix: the release's own fix", day: 4, files: ["release.txt": "the release's change\n"])
        try repo.git("tag", "v0.51.0")
        try repo.git("checkout", "-q", "main")
        try Self.commit(repo, "feat: new on main", day: 5)
        // The release branch's patch is applied on main as a commit of its own.
        try repo.git("cherry-pick", release)
        try Self.commit(repo, "fix: also new", day: 6)

        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try Self.field(bump.stdout, "previous") as? String == "v0.51.0", "\(bump)")
        #expect(try Self.field(bump.stdout, "next") as? String == "0.52.0", "a feat landed since 0.51.0: \(bump)")
        #expect(try Self.field(bump.stdout, "commits") as? Int == 2, "\(bump)")
        #expect(bump.stderr.contains("v0.51.0 is not an ancestor of HEAD"), "said once: \(bump)")
        let notes = try relctl(["notes", "--json"], in: repo.url)
        #expect(notes.status == 0, "\(notes)")
        #expect(try Self.field(notes.stdout, "previous") as? String == "v0.51.0", "\(notes)")
        #expect(try Self.subjects(notes.stdout) == ["new on main", "also new"], "\(notes.stdout)")
    }

    /// tokio's LTS lines: a fix released first on the older line (`1.51.1`, tagged after `1.52.0`)
    /// and merged forward into `1.52.x` is new to 1.52 and is its next patch's change; and a feat
    /// picked from `main` onto `1.x` and released there after `2.0.0` is still new to 2.x. A lower
    /// release tagged after the latest is another line's, not one this line already shipped.
    @Test func aLowerLinesLaterReleaseDoesNotHideChangesNewToThisLine() throws {
        let repo = try GitRepository()
        try Self.commit(repo, "feat: start", day: 1)
        try repo.git("tag", "v1.51.0")
        try repo.git("branch", "1.51.x")
        try Self.commit(repo, "feat: new api", day: 2, files: ["api.txt": "api\n"])
        try repo.git("tag", "v1.52.0")
        try repo.git("checkout", "-q", "-b", "1.52.x")
        try repo.git("checkout", "-q", "1.51.x")
        try Self.commit(repo, "fix: underflow in len()", day: 3, files: ["len.txt": "len\n"])
        try repo.git("tag", "v1.51.1")
        try repo.git("checkout", "-q", "1.52.x")
        try repo.git("merge", "-q", "--no-ff", "-m", "Merge 'v1.51.1' into '1.52.x'", "1.51.x")

        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try Self.field(bump.stdout, "previous") as? String == "v1.52.0", "\(bump)")
        #expect(try Self.field(bump.stdout, "commits") as? Int == 1, "the forward-merged fix: \(bump)")
        #expect(!bump.stderr.contains("no commits"), "\(bump)")
        let notes = try relctl(["notes", "--json"], in: repo.url)
        #expect(notes.status == 0, "\(notes)")
        #expect(try Self.subjects(notes.stdout) == ["underflow in len()"], "\(notes.stdout)")

        let backport = try GitRepository()
        try Self.commit(backport, "feat: start", day: 1)
        try backport.git("tag", "v1.9.0")
        try backport.git("branch", "1.x")
        try Self.commit(backport, "feat!: the 2.0 api", day: 2, files: ["api.txt": "2\n"])
        try backport.git("tag", "v2.0.0")
        let feature = try Self.commit(backport, "feat: export as csv", day: 3, files: ["csv.txt": "csv\n"])
        try backport.git("checkout", "-q", "1.x")
        try backport.git(
            ["cherry-pick", feature],
            environment: ["GIT_AUTHOR_DATE": "2026-01-04T10:00:00Z", "GIT_COMMITTER_DATE": "2026-01-04T10:00:00Z"])
        try backport.git("tag", "v1.10.0")
        try backport.git("checkout", "-q", "main")
        let main = try relctl(["bump", "--json"], in: backport.url)
        #expect(main.status == 0, "\(main)")
        #expect(try Self.field(main.stdout, "next") as? String == "2.1.0", "1.x shipping the pick hides nothing from 2.x: \(main)")
        let mainNotes = try relctl(["notes", "--json"], in: backport.url)
        #expect(try Self.subjects(mainNotes.stdout) == ["export as csv"], "\(mainNotes.stdout)")
    }

    /// Finding 5 (swift-format): releases are made only on release branches, which receive
    /// cherry-picks from main. On main, `bump` proposes above the latest of them, never a patch of
    /// the last release main contains; `notes` leave out the picks that release shipped.
    @Test func releasesOnlyOnReleaseBranches() throws {
        let repo = try GitRepository()
        try repo.directory.write("relctl.toml", "[project]\nname = \"swift-format\"\ntag-format = \"{version}\"\n")
        try Self.commit(repo, "chore: start", day: 1)
        try repo.git("tag", "510.0.0")
        try Self.commit(repo, "feat: in 600", day: 2, files: ["a.txt": "a\n"])
        try repo.git("checkout", "-q", "-b", "release/6.0")
        try Self.commit(repo, "fix: release branch only", day: 3, files: ["b.txt": "b\n"])
        try repo.git("checkout", "-q", "main")
        let picked = try Self.commit(repo, "fix: picked into 6.0", day: 4, files: ["c.txt": "c\n"])
        try repo.git("checkout", "-q", "release/6.0")
        try repo.git("cherry-pick", picked)
        try repo.git("tag", "600.0.0")
        try repo.git("checkout", "-q", "main")
        try Self.commit(repo, "feat: after 600", day: 5, files: ["d.txt": "d\n"])

        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try Self.field(bump.stdout, "previous") as? String == "600.0.0", "\(bump)")
        #expect(try Self.field(bump.stdout, "next") as? String == "600.1.0", "not 510.0.1: \(bump)")
        let notes = try relctl(["notes", "--json"], in: repo.url)
        #expect(try Self.field(notes.stdout, "previous") as? String == "600.0.0", "\(notes)")
        #expect(try Self.subjects(notes.stdout) == ["after 600"], "the pick shipped in 600.0.0: \(notes.stdout)")
    }

    /// Finding 7 (pydantic-core inside pydantic): a project whose relctl.toml is in a folder of the
    /// repository counts only the commits touching that folder, in `bump` and `notes` alike.
    @Test func memberFolderCountsOnlyItsOwnCommits() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "pydantic-core/relctl.toml",
            "[project]\nname = \"pydantic-core\"\ntag-format = \"core-v{version}\"\n\n[[version]]\npath = \"pyproject.toml\"\n"
        )
        try repo.directory.write(
            "pydantic-core/pyproject.toml", "[project]\nname = \"pydantic-core\"\nversion = \"2.46.0\"\n")
        try Self.commit(repo, "chore: start", day: 1)
        try repo.git("tag", "core-v2.46.0")
        try repo.git("tag", "v2.13.0")
        try Self.commit(repo, "feat: pydantic only", day: 2, files: ["pydantic/main.py": "x = 1\n"])
        try Self.commit(repo, "fix(core): a core fix", day: 3, files: ["pydantic-core/src/lib.rs": "fn a() {}\n"])
        try Self.commit(repo, "feat!: pydantic breaks", day: 4, files: ["pydantic/main.py": "x = 2\n"])
        try Self.commit(repo, "docs: both", day: 5, files: ["pydantic/README": "p\n", "pydantic-core/README": "c\n"])
        let member = repo.url.appendingPathComponent("pydantic-core")

        let bump = try relctl(["bump", "--json"], in: member)
        #expect(bump.status == 0, "\(bump)")
        #expect(try Self.field(bump.stdout, "previous") as? String == "core-v2.46.0", "\(bump)")
        #expect(try Self.field(bump.stdout, "next") as? String == "2.46.1", "only a fix touched the core: \(bump)")
        #expect(try Self.field(bump.stdout, "commits") as? Int == 2, "\(bump)")
        let notes = try relctl(["notes", "--json"], in: member)
        #expect(notes.status == 0, "\(notes)")
        #expect(try Self.subjects(notes.stdout) == ["a core fix", "both"], "\(notes.stdout)")
        // The repository's root project still counts everything.
        let root = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(root.stdout, "next") as? String == "3.0.0", "\(root)")
    }

    /// The corpus's one break (pydantic's `pydantic-core` folder): `init` there wrote the
    /// repository's `v{version}`, although the folder releases as `core-v…`, a prefix its package
    /// name does not spell. The tag naming the version its manifest holds says which series it is.
    @Test func initInAMemberFolderFindsTheSeriesNamingItsVersion() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "pydantic-core/pyproject.toml", "[project]\nname = \"pydantic-core\"\nversion = \"2.46.4\"\n")
        try repo.directory.write("pyproject.toml", "[project]\nname = \"pydantic\"\nversion = \"2.13.4\"\n")
        try Self.commit(repo, "chore: start", day: 1)
        try repo.git("tag", "core-v2.46.4")
        for (day, tag) in [(2, "v2.13.2"), (3, "v2.13.3"), (4, "v2.13.4")] {
            try Self.commit(repo, "fix: pydantic \(day)", day: day, files: ["pydantic/main.py": "x = \(day)\n"])
            try repo.git("tag", tag)
        }
        try Self.commit(repo, "fix(core): a core fix", day: 5, files: ["pydantic-core/src/lib.rs": "fn a() {}\n"])
        let member = repo.url.appendingPathComponent("pydantic-core")
        let initialized = try relctl(["init"], in: member)
        #expect(initialized.status == 0, "\(initialized)")
        let config = try repo.directory.read("pydantic-core/relctl.toml")
        #expect(config.contains("tag-format = \"core-v{version}\""), "\(config)")
        try Self.commit(repo, "chore: relctl", day: 6)
        let valid = try relctl(["validate-tag", "core-v2.46.4"], in: member)
        #expect(valid.status == 0, "\(valid)")
        let bump = try relctl(["bump", "--json"], in: member)
        #expect(try Self.field(bump.stdout, "previous") as? String == "core-v2.46.4", "\(bump)")
        #expect(try Self.field(bump.stdout, "tag") as? String == "core-v2.46.5", "\(bump)")
        // At the top, the repository's own series still wins.
        try FileManager.default.removeItem(at: member.appendingPathComponent("relctl.toml"))
        let top = try relctl(["init"], in: repo.url)
        #expect(top.status == 0, "\(top)")
        #expect(try repo.directory.read("relctl.toml").contains("tag-format = \"v{version}\""))
    }

    /// metrics-server's chart folder: `init` there checks the chart's own `version` (not the
    /// application's tags) and takes the chart's tag series, `metrics-server-helm-chart-X`.
    @Test func initInAChartFolderFollowsTheChartsOwnLine() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "charts/metrics-server/Chart.yaml",
            "apiVersion: v2\nname: metrics-server\ndescription: Metrics\nversion: 3.13.1\nappVersion: 0.8.1\n")
        try repo.directory.write("go.mod", "module sigs.k8s.io/metrics-server\n")
        try Self.commit(repo, "chore: start", day: 1)
        try repo.git("tag", "metrics-server-helm-chart-3.13.1")
        try repo.git("tag", "v0.8.1")
        try Self.commit(repo, "fix: the chart", day: 2, files: ["charts/metrics-server/values.yaml": "replicas: 2\n"])
        let chart = repo.url.appendingPathComponent("charts/metrics-server")
        let initialized = try relctl(["init"], in: chart)
        #expect(initialized.status == 0, "\(initialized)")
        let config = try repo.directory.read("charts/metrics-server/relctl.toml")
        #expect(config.contains("tag-format = \"{project}-helm-chart-{version}\""), "\(config)")
        #expect(config.contains("path = \"Chart.yaml\"") && config.contains("kind = \"helm\""), "\(config)")
        try Self.commit(repo, "chore: relctl", day: 3)
        let valid = try relctl(["validate-tag", "metrics-server-helm-chart-3.13.1"], in: chart)
        #expect(valid.status == 0, "\(valid)")
        let bump = try relctl(["bump", "--json"], in: chart)
        #expect(try Self.field(bump.stdout, "tag") as? String == "metrics-server-helm-chart-3.13.2", "\(bump)")
    }

    /// The regressions: a junk `vV9.0.0` is no release of `v{version}`, a stray `v7.0.0-finalx` no
    /// release of `{version}`; `bump` says what it ignored, once, and never proposes a version a
    /// tag names in another spelling.
    @Test func oddTagsAreNotReleases() throws {
        let repo = try GitRepository()
        try Self.commit(repo, "chore: start", day: 1)
        try repo.git("tag", "v1.2.0")
        try repo.git("tag", "vV9.0.0")
        try Self.commit(repo, "fix: one", day: 2)
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "previous") as? String == "v1.2.0", "\(bump)")
        #expect(try Self.field(bump.stdout, "next") as? String == "1.2.1", "not 9.0.1: \(bump)")
        #expect(bump.stderr.components(separatedBy: "vV9.0.0").count == 2, "named once: \(bump.stderr)")
        let notes = try relctl(["notes", "--json"], in: repo.url)
        #expect(try Self.field(notes.stdout, "previous") as? String == "v1.2.0", "\(notes)")

        let bare = try GitRepository()
        try bare.directory.write("relctl.toml", "[project]\nname = \"bare\"\ntag-format = \"{version}\"\n")
        try Self.commit(bare, "chore: start", day: 1)
        try bare.git("tag", "6.1.0")
        try Self.commit(bare, "fix: stray", day: 2)
        try bare.git("tag", "v7.0.0-finalx")
        try bare.git("tag", "v6.2.0")
        try Self.commit(bare, "feat: one", day: 3)
        let next = try relctl(["bump", "--json"], in: bare.url)
        #expect(next.status == 0, "\(next)")
        // 6.2.0 is tagged `v6.2.0`: another spelling, no release of the format, but a final the
        // branch contains, so the latest release (issue 63, express's `v5.0.0`); the next minor is 6.3.0.
        #expect(try Self.field(next.stdout, "previous") as? String == "v6.2.0", "\(next)")
        #expect(try Self.field(next.stdout, "next") as? String == "6.3.0", "not 7.0.0-finalx.1: \(next)")
        #expect(
            next.stderr.contains("`v7.0.0-finalx`") && next.stderr.contains("`v6.2.0`")
                && next.stderr.components(separatedBy: "not a release of").count == 2,
            "one line says what was ignored: \(next.stderr)")
        let bareNotes = try relctl(["notes", "--json"], in: bare.url)
        #expect(try Self.field(bareNotes.stdout, "previous") as? String == "v6.2.0", "\(bareNotes)")
        #expect(try Self.subjects(bareNotes.stdout) == ["one"], "`stray` shipped in v6.2.0: \(bareNotes.stdout)")
    }
}
