import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// `[workspace]` members (the contract's "Monorepos: members with their own versions", issue 42):
/// each member's next version from its own tags and the commits touching its folder, as
/// `relctl plan` and `relctl bump --member` give them on generated repositories.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct WorkspacePlanCLITests {
    typealias PlannedMember = MemberPlanDocument.Member

    static func plan(_ repository: GitRepository) throws -> [PlannedMember] {
        let (result, members) = try MemberPlanDocument.run(in: repository.url)
        #expect(result.status == 0, "\(result)")
        return members
    }

    static func cargo(_ name: String, _ version: String) -> String {
        "[package]\nname = \"\(name)\"\nversion = \"\(version)\"\nedition = \"2021\"\n"
    }

    /// Two crates and a chart with a version line of its own, each released once.
    static func workspace(
        extra: String = "", cliVersion: String = "0.3.0", cliConfig: String? = nil
    ) throws
        -> GitRepository
    {
        let repository = try GitRepository()
        var files = [
            "relctl.toml": "[workspace]\nmembers = [\"crates/*\", \"charts/metrics-server\"]\n" + extra,
            "crates/core/Cargo.toml": cargo("core", "1.0.0"),
            "crates/core/src/lib.rs": "pub fn core() {}\n",
            "crates/cli/Cargo.toml": cargo("cli", cliVersion),
            "crates/cli/src/main.rs": "fn main() {}\n",
            "charts/metrics-server/Chart.yaml":
                "apiVersion: v2\nname: metrics-server\ndescription: Metrics\nversion: 3.13.1\nappVersion: \"0.9.0\"\n",
            "charts/metrics-server/values.yaml": "replicas: 1\n",
            "README.md": "# a monorepo\n",
        ]
        if let cliConfig { files["crates/cli/relctl.toml"] = cliConfig }
        try repository.commit("chore: start", files: files)
        for tag in ["core-v1.0.0", "cli-v\(cliVersion)", "metrics-server-v3.13.1"] {
            try repository.git("tag", "-a", tag, "-m", tag)
        }
        return repository
    }

    /// pydantic-core's case: a member counts the commits touching its folder, not the repository's.
    @Test func eachMemberCountsOnlyItsOwnChangesAgainstItsOwnTags() throws {
        let repository = try Self.workspace()
        try repository.commit("feat: core learns a trick", files: ["crates/core/src/lib.rs": "pub fn trick() {}\n"])
        try repository.commit(
            "fix: the chart's replicas", files: ["charts/metrics-server/values.yaml": "replicas: 2\n"])
        try repository.commit("docs: the top README", files: ["README.md": "# a monorepo, documented\n"])
        let members = try Self.plan(repository)
        #expect(members.map(\.path) == ["charts/metrics-server", "crates/cli", "crates/core"], "\(members)")
        let byName = Dictionary(uniqueKeysWithValues: members.map { ($0.name, $0) })
        #expect(
            byName["core"]
                == PlannedMember(
                    name: "core", path: "crates/core", current: "1.0.0", next: "1.1.0", tag: "core-v1.1.0",
                    reason: "feat", commits: 1, branch: nil), "\(members)")
        #expect(
            byName["metrics-server"]
                == PlannedMember(
                    name: "metrics-server", path: "charts/metrics-server", current: "3.13.1", next: "3.13.2",
                    tag: "metrics-server-v3.13.2", reason: "fix", commits: 1, branch: nil), "\(members)")
        #expect(
            byName["cli"]
                == PlannedMember(
                    name: "cli", path: "crates/cli", current: "0.3.0", next: nil, tag: nil, reason: "none", commits: 0,
                    branch: nil), "\(members)")

        // bump --write --member writes that member's manifest only; its plan then waits for the tag.
        let bumped = try relctl(["bump", "--write", "--member", "core"], in: repository.url)
        #expect(bumped.status == 0, "\(bumped)")
        #expect(bumped.stdout == "core 1.1.0\n", "\(bumped)")
        #expect(try repository.directory.read("crates/core/Cargo.toml") == Self.cargo("core", "1.1.0"))
        #expect(try repository.directory.read("crates/cli/Cargo.toml") == Self.cargo("cli", "0.3.0"))
        #expect(
            try repository.directory.read("charts/metrics-server/Chart.yaml").contains("version: 3.13.1"),
            "the chart was not asked for")

        // Without --member: every member with changes.
        try repository.git("checkout", "-q", "--", ".")
        let all = try relctl(["bump"], in: repository.url)
        #expect(all.status == 0 && all.stdout == "metrics-server 3.13.2\ncore 1.1.0\n", "\(all)")
        let unknown = try relctl(["bump", "--member", "cor"], in: repository.url)
        #expect(unknown.status == 2 && unknown.stderr.contains("`core`"), "suggests the member: \(unknown)")
    }

    /// tokio's root: `validate-tag tokio-1.53.1` and `notes --tag tokio-1.53.1` read the tag as the
    /// repository's own (`v{version}`: exit 2, and notes of every commit since the first). A
    /// member's tag at the root names that member, as `release TAG` does.
    @Test func aMembersTagAtTheRootNamesThatMember() throws {
        let repository = try Self.workspace()
        try repository.commit("feat: core learns a trick", files: ["crates/core/src/lib.rs": "pub fn trick() {}\n"])
        try repository.commit("fix: the cli's exit code", files: ["crates/cli/src/main.rs": "fn main() { }\n"])
        #expect(try relctl(["bump", "--write", "--member", "core"], in: repository.url).status == 0)
        let valid = try relctl(["validate-tag", "core-v1.1.0"], in: repository.url)
        #expect(valid.status == 0 && valid.stderr.contains("tag core-v1.1.0 matches 1 manifest"), "\(valid)")
        let mismatch = try relctl(["validate-tag", "core-v1.2.0"], in: repository.url)
        #expect(mismatch.status == 1, "\(mismatch)")
        let unknown = try relctl(["validate-tag", "nothing-v1.0.0"], in: repository.url)
        #expect(unknown.status == 2 && unknown.stderr.contains("`core-v1.2.0`"), "\(unknown)")
        let notes = try relctl(["notes", "--tag", "core-v1.1.0"], in: repository.url)
        #expect(notes.status == 0 && notes.stdout.contains("learns a trick"), "\(notes)")
        #expect(!notes.stdout.contains("exit code") && !notes.stdout.contains("chore: start"), "\(notes)")
    }

    /// A member's own relctl.toml: its name, and `exclude` globs whose changes do not count.
    @Test func aMembersOwnConfigNamesItAndExcludesPaths() throws {
        let repository = try Self.workspace(
            cliConfig: "[project]\nname = \"velo\"\nexclude = [\"docs/*\"]\n\n[[version]]\npath = \"Cargo.toml\"\n")
        try repository.git("tag", "-a", "velo-v0.3.0", "-m", "velo-v0.3.0")
        try repository.commit("feat: notes for the docs", files: ["crates/cli/docs/guide.md": "# guide\n"])
        var velo = try #require(try Self.plan(repository).first { $0.path == "crates/cli" })
        #expect(velo.name == "velo" && velo.current == "0.3.0" && velo.next == nil, "\(velo)")
        try repository.commit("fix: the cli", files: ["crates/cli/src/main.rs": "fn main() { }\n"])
        velo = try #require(try Self.plan(repository).first { $0.path == "crates/cli" })
        #expect(velo.next == "0.3.1" && velo.tag == "velo-v0.3.1" && velo.commits == 1, "\(velo)")
    }

    /// A group releases in lockstep: one version, the highest bump any member needs.
    @Test func aGroupReleasesInLockstep() throws {
        let repository = try Self.workspace(
            extra: "\n[[workspace.group]]\nname = \"sdk\"\nmembers = [\"core\", \"cli\"]\n", cliVersion: "1.0.0")
        try repository.commit("feat: core learns a trick", files: ["crates/core/src/lib.rs": "pub fn trick() {}\n"])
        let members = try Self.plan(repository)
        let cli = try #require(members.first { $0.name == "cli" })
        let core = try #require(members.first { $0.name == "core" })
        #expect(core.next == "1.1.0" && core.reason == "feat", "\(core)")
        #expect(cli.next == "1.1.0" && cli.tag == "cli-v1.1.0" && cli.reason == "group" && cli.commits == 0, "\(cli)")
    }

    /// Bad [workspace] tables and the flows not built for workspaces yet say so (exit 2).
    @Test func badWorkspacesAndUnbuiltFlowsAreRefused() throws {
        let repository = try GitRepository()
        try repository.commit(
            "chore: start",
            files: [
                "relctl.toml":
                    "[workspace]\nmembers = [\"crates/*\", \"missing\"]\ntag-format = \"v{version}\"\n\n[[workspace.group]]\nname = \"sdk\"\nmembers = [\"nobody\"]\n",
                "crates/a/Cargo.toml": Self.cargo("same", "1.0.0"),
                "crates/b/Cargo.toml": Self.cargo("same", "1.0.0"),
            ])
        let checked = try relctl(["plan"], in: repository.url)
        #expect(checked.status == 2, "\(checked)")
        #expect(checked.stderr.contains("must hold `{member}`"), "\(checked)")

        try repository.commit(
            "chore: fix the format",
            files: [
                "relctl.toml":
                    "[workspace]\nmembers = [\"crates/*\", \"missing\"]\n\n[[workspace.group]]\nname = \"sdk\"\nmembers = [\"nobody\"]\n"
            ])
        let planned = try relctl(["plan"], in: repository.url)
        #expect(planned.status == 2, "\(planned)")
        for expected in ["`missing` is not a folder", "both named `same`", "`nobody`, which is no member"] {
            #expect(planned.stderr.contains(expected), "\(expected): \(planned)")
        }

        // A member folder that is a link out of the workspace is refused, naming it.
        let outside = try TemporaryDirectory(prefix: "relctl-outside-member")
        try outside.write("Cargo.toml", Self.cargo("elsewhere", "9.0.0"))
        let linked = try Self.workspace()
        try FileManager.default.createSymbolicLink(
            at: linked.url.appendingPathComponent("crates/elsewhere"), withDestinationURL: outside.url)
        try linked.commit("chore: a link", files: [:])
        let refused = try relctl(["plan"], in: linked.url)
        #expect(refused.status == 2 && refused.stderr.contains("crates/elsewhere"), "\(refused)")
        #expect(refused.stderr.contains("outside"), "\(refused)")

    }
    /// metrics-server's shape (the corpus, issue 42): the application at the root (member `.`)
    /// beside its chart. The root member counts its own commits, not the chart's inside it, its
    /// `exclude` globs work at the top, and its path is `.`.
    @Test func aRootMemberCountsItsOwnCommitsNotTheMembersInsideIt() throws {
        let repository = try GitRepository()
        try repository.commit(
            "chore: start",
            files: [
                "relctl.toml":
                    "[project]\nname = \"app\"\ntag-format = \"v{version}\"\nexclude = [\"docs/*\"]\n\n[workspace]\nmembers = [\".\", \"charts/*\"]\ntag-format = \"{member}-{version}\"\n",
                "VERSION": "0.9.0\n",
                "charts/app/Chart.yaml": "apiVersion: v2\nname: app-chart\nversion: 3.13.1\n",
            ])
        try repository.git("tag", "v0.9.0")
        try repository.git("tag", "app-chart-3.13.1")
        try repository.commit("fix: app fix", files: ["main.go": "package main\n"])
        try repository.commit("feat(helm): chart feature", files: ["charts/app/values.yaml": "a: 1\n"])
        try repository.commit("feat: only docs", files: ["docs/guide.md": "# guide\n"])
        let members = try Self.plan(repository)
        let byName = Dictionary(uniqueKeysWithValues: members.map { ($0.name, $0) })
        #expect(
            byName["app"]
                == PlannedMember(
                    name: "app", path: ".", current: "0.9.0", next: "0.9.1", tag: "v0.9.1", reason: "fix", commits: 1,
                    branch: nil), "\(members)")
        #expect(byName["app-chart"]?.next == "3.14.0" && byName["app-chart"]?.commits == 1, "\(members)")
    }

    /// changesets' shape (the corpus, issue 42): main is a 2.x maintenance line while 3.0.0-next.0
    /// was tagged on another branch; the version bump --write leaves on main is pending.
    @Test func aMaintenanceLinesPendingVersionIsNotHiddenByAHigherReleaseElsewhere() throws {
        let repository = try GitRepository()
        try repository.commit(
            "chore: start",
            files: [
                "relctl.toml":
                    "[workspace]\nmembers = [\"packages/*\"]\ntag-format = \"{member}@{version}\"\n\n[[branch]]\nname = \"main\"\nrange = \"2.x\"\n",
                "packages/cli/package.json": #"{"name":"cli","version":"2.30.0"}"#,
            ])
        try repository.git("tag", "cli@2.30.0")
        try repository.git("checkout", "-q", "-b", "next")
        try repository.commit(
            "feat!: v3", files: ["packages/cli/package.json": #"{"name":"cli","version":"3.0.0-next.0"}"#])
        try repository.git("tag", "cli@3.0.0-next.0")
        try repository.git("checkout", "-q", "main")
        try repository.commit("feat: more", files: ["packages/cli/package.json": #"{"name":"cli","version":"2.31.0"}"#])
        let pending = try relctl(["release", "--pending", "--dry-run"], in: repository.url)
        #expect(pending.status == 0, "\(pending)")
        #expect(pending.stderr.contains("pending: cli@2.31.0"), "\(pending)")
    }

}
