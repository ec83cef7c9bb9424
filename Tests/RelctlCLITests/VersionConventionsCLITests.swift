import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Issues 54 and 63: version conventions read as the project's maintainers read them, on
/// generated repositories shaped like the projects that showed them (alacritty, wasmtime, the
/// changesets `version-3` line). Each drives the built binary through `bump`, `plan` and `notes`.
/// Every commit changes a file: empty commits share one patch id, which `--cherry-pick` would drop.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct VersionConventionsCLITests {
    static func cargo(_ version: String) -> String {
        "[package]\nname = \"alacritty\"\nversion = \"\(version)\"\nedition = \"2021\"\n"
    }

    static let config = """
        [project]
        name = "alacritty"

        [[version]]
        path = "Cargo.toml"
        kind = "cargo"

        [[branch]]
        name = "next"
        prerelease = "rc"

        """

    static func bump(_ repository: GitRepository, _ arguments: [String] = []) throws -> (RunResult, String) {
        let result = try relctl(["bump"] + arguments, in: repository.url)
        #expect(result.status == 0, "\(result)")
        return (result, result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// alacritty and wasmtime: `0.18.0-dev` in Cargo.toml after `v0.17.0` means the next release
    /// is 0.18.0 (as PEP 440's `.dev` does); `-pre` and `-alpha.0` alike. Never `0.18.0-dev`.
    @Test func aDevelopmentMarkerInTheManifestGivesItsFinal() throws {
        for marker in ["0.18.0-dev", "0.18.0-pre", "0.18.0-alpha.0", "0.18.0-dev.2"] {
            let repository = try GitRepository()
            try repository.commit(
                "chore: 0.17.0", files: ["relctl.toml": Self.config, "Cargo.toml": Self.cargo("0.17.0")])
            try repository.git("tag", "-a", "v0.17.0", "-m", "v0.17.0")
            try repository.commit("chore: start 0.18", files: ["Cargo.toml": Self.cargo(marker)])
            try repository.commit("fix: a bug", files: ["src/a.txt": "a\n"])
            let (result, next) = try Self.bump(repository)
            #expect(next == "0.18.0", "\(marker): \(result)")
            let planned = try MemberPlanDocument.run(in: repository.url).members.first
            #expect(planned?.next == "0.18.0" && planned?.tag == "v0.18.0", "\(marker): \(String(describing: planned))")
            if marker == "0.18.0-dev" {
                // Nor is it a release waiting for its tag.
                let pending = try relctl(["release", "--pending", "--dry-run"], in: repository.url)
                #expect(
                    pending.status == 0
                        && (pending.stdout + pending.stderr).contains("a development version of 0.18.0"),
                    "\(pending)")
            }
            let (written, _) = try Self.bump(repository, ["--write"])
            #expect(written.stdout.hasPrefix("0.18.0\n"), "\(written)")
            #expect(try repository.directory.read("Cargo.toml").contains("version = \"0.18.0\"\n"), "\(marker)")
            #expect(try relctl(["validate-tag", "v0.18.0"], in: repository.url).status == 0, "\(marker)")
        }
    }

    /// An `-rc.N` left in the manifest after its tag (`v2.0.0-rc.1`) is promoted to its final, not
    /// repeated or counted on (issue 63); on a prerelease line the rule counts on (`2.0.0-rc.2`).
    @Test func aReleasedPrereleaseInTheManifestIsPromoted() throws {
        let repository = try GitRepository()
        try repository.commit("chore: 1.9.0", files: ["relctl.toml": Self.config, "Cargo.toml": Self.cargo("1.9.0")])
        try repository.git("tag", "-a", "v1.9.0", "-m", "v1.9.0")
        try repository.commit("feat!: new api", files: ["Cargo.toml": Self.cargo("2.0.0-rc.1")])
        try repository.git("tag", "-a", "v2.0.0-rc.1", "-m", "v2.0.0-rc.1")
        try repository.commit("fix: after the rc", files: ["src/a.txt": "a\n"])
        let (result, next) = try Self.bump(repository)
        #expect(next == "2.0.0", "\(result)")
        // Named as what was compared: 2.0.0-rc.1 itself is below the commits' 2.0.0-rc.2.
        #expect(
            result.stderr.contains("Cargo.toml holds 2.0.0-rc.1 (2.0.0's prerelease, released already), above 2.0.0-rc.2"),
            "says why: \(result)")

        try repository.git("checkout", "-q", "-b", "next")
        let (onLine, rc) = try Self.bump(repository)
        #expect(rc == "2.0.0-rc.2", "the prerelease line counts on: \(onLine)")

        // Not yet tagged, the manifest's prerelease is the release in preparation, as before.
        try repository.git("checkout", "-q", "main")
        try repository.commit("chore: rc.2", files: ["Cargo.toml": Self.cargo("2.0.0-rc.2")])
        let (prepared, named) = try Self.bump(repository)
        #expect(named == "2.0.0-rc.2", "\(prepared)")
    }

    /// alacritty's 68 tags spell prereleases `-rc1`, `-rc2`: on a `prerelease = "rc"` branch after
    /// `v0.17.0-rc1` the next is `0.17.0-rc2` (not `0.17.0-rc1.1`), and the first of a new version
    /// is `-rc1`; on a branch without a rule, `rc1` in its own history counts on as `rc2`.
    @Test func gluedPrereleaseCountersKeepTheirSpelling() throws {
        let repository = try GitRepository()
        try repository.commit("chore: 0.16.0", files: ["relctl.toml": Self.config, "Cargo.toml": Self.cargo("0.16.0")])
        try repository.git("tag", "-a", "v0.16.0", "-m", "v0.16.0")
        try repository.git("checkout", "-q", "-b", "next")
        try repository.commit("feat: a feature", files: ["src/a.txt": "a\n"])
        let (first, rc1) = try Self.bump(repository)
        #expect(rc1 == "0.17.0-rc.1", "no glued spelling yet: \(first)")
        try repository.git("tag", "-a", "v0.17.0-rc1", "-m", "v0.17.0-rc1")
        try repository.commit("fix: a fix", files: ["src/b.txt": "b\n"])
        let (second, rc2) = try Self.bump(repository)
        #expect(rc2 == "0.17.0-rc2", "\(second)")
        let planned = try MemberPlanDocument.run(in: repository.url).members.first
        #expect(planned?.next == "0.17.0-rc2" && planned?.tag == "v0.17.0-rc2", "\(String(describing: planned))")
        try repository.git("tag", "-a", "v0.17.0-rc2", "-m", "v0.17.0-rc2")
        try repository.git("tag", "-a", "v0.17.0", "-m", "v0.17.0")
        try repository.commit("feat: another", files: ["src/c.txt": "c\n"])
        let (third, newBase) = try Self.bump(repository)
        #expect(newBase == "0.18.0-rc1", "the project's spelling for a new version: \(third)")

        // No rule: the rc in the branch's own history counts on in its spelling.
        try repository.git("checkout", "-q", "-b", "plain", "v0.17.0-rc1")
        try repository.commit("fix: plain", files: ["src/d.txt": "d\n"])
        try repository.directory.write(
            "relctl.toml", "[project]\nname = \"alacritty\"\n\n[[version]]\npath = \"Cargo.toml\"\nkind = \"cargo\"\n")
        try repository.git("tag", "-d", "v0.17.0", "v0.17.0-rc2")
        let (plain, counted) = try Self.bump(repository)
        #expect(counted == "0.17.0-rc2", "\(plain)")
    }

    /// changesets' `version-3` line: `3.0.0-next.N` tagged on another branch while main ships 2.x
    /// never lifts main, which has no rule naming `next`: bump, plan and notes count from v2.5.0.
    @Test func anotherLinesPrereleasesDoNotLiftABranch() throws {
        let repository = try GitRepository()
        let config = "[project]\nname = \"cli\"\n"
        try repository.commit("feat: two", files: ["relctl.toml": config])
        try repository.git("tag", "-a", "v2.5.0", "-m", "v2.5.0")
        try repository.git("checkout", "-q", "-b", "version-3")
        try repository.commit("feat!: three", files: ["src/three.txt": "3\n"])
        for n in 0...3 {
            try repository.commit("fix: next \(n)", files: ["src/next.txt": "\(n)\n"])
            try repository.git("tag", "-a", "v3.0.0-next.\(n)", "-m", "v3.0.0-next.\(n)")
        }
        try repository.git("checkout", "-q", "main")
        try repository.commit("fix: on main", files: ["src/main.txt": "main\n"])
        let (result, next) = try Self.bump(repository)
        #expect(next == "2.5.1", "\(result)")
        let planned = try MemberPlanDocument.run(in: repository.url).members.first
        #expect(planned?.next == "2.5.1" && planned?.current == "2.5.0", "\(String(describing: planned))")
        let notes = try relctl(["notes"], in: repository.url)
        #expect(notes.status == 0 && notes.stdout.contains("on main"), "\(notes)")
        #expect(!notes.stdout.contains("three") && !notes.stdout.contains("next 1"), "main's own changes: \(notes)")

        // A rule naming `next` makes it a line of the project: main stays above it, as before.
        try repository.directory.write(
            "relctl.toml", config + "\n[[branch]]\nname = \"version-3\"\nprerelease = \"next\"\n")
        let (ruled, above) = try Self.bump(repository)
        #expect(above != "2.5.1" && above.hasPrefix("3.0.0"), "\(ruled)")
    }
}

/// Issue 54 (item 10): a chart at the project's own folder (`[[chart]] path = "."`) whose
/// `Chart.yaml` is also a `[[version]]`: one file, read once, never "another" manifest.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct ChartAtTheRootCLITests {
    @Test func theChartsOwnFileIsNotAnotherManifest() throws {
        let repository = try GitRepository()
        try repository.commit(
            "chore: start",
            files: [
                "Chart.yaml": "apiVersion: v2\nname: app\nversion: 1.2.0\nappVersion: \"7.0.1\"\n",
                "relctl.toml":
                    "[project]\nname = \"app\"\n\n[[version]]\npath = \"Chart.yaml\"\nkind = \"helm\"\n\n[[chart]]\npath = \".\"\n",
            ])
        try repository.git("tag", "-a", "v1.2.0", "-m", "v1.2.0")
        let check = try relctl(["check"], in: repository.url)
        #expect(check.status == 0, "\(check)")
        #expect(!check.stderr.contains("./Chart.yaml") && !check.stderr.contains("disagree"), "\(check)")
        #expect((check.stdout + check.stderr).contains("(1 manifest,"), "\(check)")
        #expect(try relctl(["validate-tag", "v1.2.0"], in: repository.url).status == 0)
    }
}
