import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// `relctl release-pr` end to end on each forge's stand-in (pulls_standin.py behind the GitHub,
/// GitLab and Gitea stand-ins), with real git and a bare remote the stand-ins read branches from.
/// Not serialized: each test has its own repository, remote and stand-in, and none decides on a
/// clock, so the tests overlap their waits on the stand-ins (issue 62).
@Suite(.timeLimit(.minutes(45)), .removesTemporaries) struct ReleasePRCLITests {
    /// One forge's stand-in behind one interface.
    struct Forge: Sendable {
        var id: String
        var github: GitHubStandIn?
        var other: ForgeStandIn?

        init(_ id: String, remote: URL) throws {
            self.id = id
            switch id {
            case "github": github = try GitHubStandIn(tags: [], gitDirectory: remote)
            case "gitlab": other = try ForgeStandIn(.gitlab, tags: [], gitDirectory: remote)
            default: other = try ForgeStandIn(.gitea, tags: [], gitDirectory: remote)
            }
        }

        var environment: [String: String] {
            var environment = [
                "GITHUB_TOKEN": "", "GH_TOKEN": "", "GITHUB_REPOSITORY": "", "GITLAB_TOKEN": "", "CI_JOB_TOKEN": "",
                "GITEA_TOKEN": "", "CI_PROJECT_PATH": "", "CI_DEFAULT_BRANCH": "", "GITLAB_API_URL": "",
                "CI_API_V4_URL": "", "GITEA_API_URL": "", "GITEA_SERVER_URL": "", "RELCTL_HTTP_RETRIES": "",
            ]
            let own = github?.environment() ?? other?.environment() ?? [:]
            for (key, value) in own { environment[key] = value }
            return environment
        }

        var configLine: String { github != nil ? "github = \"acme/velostream\"" : other?.configLine ?? "" }

        func pulls(_ seed: String? = nil) async throws -> [StandInPull] {
            if let github { return try await github.pulls(seed) }
            return try await other?.pulls(seed) ?? []
        }

        func setFaults(_ json: String) async throws {
            if let github { try await github.setFaults(json) } else { try await other?.setFaults(json) }
        }

        /// (method, kind, status, fault) of every API request, in order.
        func requests() async throws -> [(String, String?, Int, String?)] {
            if let github { return try await github.log().map { ($0.method, $0.kind, $0.status, $0.fault) } }
            return try await other?.log().map { ($0.method, $0.kind, $0.status, $0.fault) } ?? []
        }

        func stop() {
            github?.stop()
            other?.stop()
        }
    }

    /// A project at v1.0.0 with one `feat:` after it, pushed to a bare remote, and a stand-in.
    struct Project {
        var repo: GitRepository
        var remote: TemporaryDirectory
        var forge: Forge

        /// A repository set up by the test itself.
        init(repo: GitRepository, remote: TemporaryDirectory, forge: Forge) {
            (self.repo, self.remote, self.forge) = (repo, remote, forge)
        }

        init(forge id: String) throws {
            repo = try GitRepository()
            remote = try repo.addBareRemote()
            forge = try Forge(id, remote: remote.url)
            try repo.commit(
                "feat: initial",
                files: [
                    "relctl.toml":
                        "[project]\nname = \"velostream\"\n\n[[version]]\npath = \"VERSION\"\n\n[publish]\n\(forge.configLine)\n",
                    "VERSION": "1.0.0\n", "CHANGELOG.md": "# Changelog\n", ".gitignore": "dist/\n",
                ])
            try repo.git("tag", "v1.0.0")
            try repo.commit("feat: add streaming", files: ["stream.txt": "s\n"])
            try repo.git("push", "-q", "origin", "main", "--tags")
        }

        func relctl(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> RunResult {
            var environment = forge.environment
            for (key, value) in extra { environment[key] = value }
            let url = repo.url
            let fixed = environment
            return try await TemporaryScope.blocking {
                try RelctlTestSupport.relctl(["release-pr"] + arguments, in: url, environment: fixed)
            }
        }

        func remote(_ arguments: String...) throws -> String {
            let result = try run("git", ["--git-dir", remote.path] + arguments, in: remote.url)
            return result.status == 0 ? result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) : ""
        }

        /// Commits on main and pushes, as a merged change would arrive.
        func land(_ message: String, file: String) throws {
            try repo.commit(message, files: [file: message + "\n"])
            try repo.git("push", "-q", "origin", "main")
        }

        func ours(_ pulls: [StandInPull]) -> [StandInPull] {
            pulls.filter { $0.head == "relctl/release" && $0.fork == nil }
        }
    }

    static let forges = ["github", "gitlab", "gitea"]

    @Test(arguments: forges) func opensUpdatesRefusesForeignCommitsAndCloses(_ id: String) async throws {
        let project = try Project(forge: id)
        defer { project.forge.stop() }
        _ = try await project.forge.pulls(#"{"unrelated": 75}"#)

        // Dry run: reads the forge, changes nothing anywhere.
        let dry = try await project.relctl(["--dry-run"])
        #expect(dry.status == 0, "\(dry)")
        #expect(dry.stderr.contains("would push relctl/release"), "\(dry)")
        #expect(try project.remote("branch", "--list", "relctl/*").isEmpty)
        #expect(project.ours(try await project.forge.pulls()).isEmpty)
        #expect(try await project.forge.requests().allSatisfy { $0.0 == "GET" })
        #expect(try project.repo.git("status", "--porcelain").isEmpty)
        #expect(try project.repo.git("worktree", "list").split(separator: "\n").count == 1)

        // Open: one request, the branch one commit on main holding the written plan.
        let opened = try await project.relctl([])
        #expect(opened.status == 0, "\(opened)")
        var ours = project.ours(try await project.forge.pulls())
        #expect(ours.count == 1 && ours.first?.state == "open" && ours.first?.base == "main", "\(ours)")
        #expect(ours.first?.title == "chore: release v1.1.0")
        #expect(ours.first?.body.contains("| velostream | 1.0.0 | 1.1.0 | v1.1.0 | feat | 1 |") == true)
        #expect(ours.first?.body.contains("add streaming") == true)
        let main = try project.repo.git("rev-parse", "main")
        #expect(try project.remote("rev-parse", "relctl/release^") == main)
        #expect(try project.remote("show", "relctl/release:VERSION") == "1.1.0")
        #expect(try project.remote("show", "relctl/release:CHANGELOG.md").contains("add streaming"))
        #expect(try project.remote("log", "-1", "--format=%s", "relctl/release") == "chore: release v1.1.0")
        #expect(try project.repo.directory.read("VERSION") == "1.0.0\n", "the checkout is untouched")
        let number = try #require(ours.first?.number)

        // Unchanged: the same commit, nothing pushed, nothing edited.
        let tip = try project.remote("rev-parse", "relctl/release")
        let again = try await project.relctl([])
        #expect(again.status == 0 && again.stderr.contains("up to date"), "\(again)")
        #expect(try project.remote("rev-parse", "relctl/release") == tip)
        #expect(project.ours(try await project.forge.pulls()).first?.edits == 0)

        // More commits: still one request, rebuilt on the new head, its body updated.
        try project.land("fix: handle empty frames", file: "frames.txt")
        let updated = try await project.relctl([])
        #expect(updated.status == 0, "\(updated)")
        ours = project.ours(try await project.forge.pulls())
        #expect(ours.count == 1 && ours.first?.number == number && ours.first?.state == "open", "\(ours)")
        #expect(ours.first?.body.contains("handle empty frames") == true)
        #expect(try project.remote("rev-parse", "relctl/release^") == (try project.repo.git("rev-parse", "main")))

        // A maintainer's commit on the branch is never lost: exit 1 naming it, the branch as it was.
        let work = try project.repo.git("rev-parse", "HEAD")
        try project.repo.git("checkout", "-q", "-b", "edit")
        try project.repo.git("fetch", "-q", "origin", "relctl/release")
        try project.repo.git("reset", "-q", "--hard", "FETCH_HEAD")
        let theirs = try project.repo.commit("docs: note the migration", files: ["NOTE.md": "read me\n"])
        try project.repo.git("push", "-q", "origin", "edit:relctl/release")
        try project.repo.git("checkout", "-q", "main")
        #expect(try project.repo.git("rev-parse", "HEAD") == work)
        let refused = try await project.relctl([])
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains(String(theirs.prefix(12))) && refused.stderr.contains("--force"), "\(refused)")
        #expect(try project.remote("rev-parse", "relctl/release") == theirs)
        let forced = try await project.relctl(["--force"])
        #expect(forced.status == 0, "\(forced)")
        #expect(try project.remote("rev-parse", "relctl/release^") == work)

        // Nothing to release (the head was released by hand): the request closes, the branch goes.
        try project.repo.git("tag", "v1.1.0")
        try project.repo.git("push", "-q", "origin", "v1.1.0")
        let closed = try await project.relctl([])
        #expect(closed.status == 0, "\(closed)")
        ours = project.ours(try await project.forge.pulls())
        #expect(ours.count == 1 && ours.first?.state == "closed", "\(ours)")
        #expect(try project.remote("branch", "--list", "relctl/*").isEmpty)
        #expect(try await project.forge.pulls().filter { $0.state == "open" }.count == 75, "unrelated ones untouched")
    }

    /// Issue 55: a fork's request from a branch also named `relctl/release` is not relctl's. It is
    /// never updated, adopted or closed; relctl opens its own beside it and says so.
    @Test(arguments: forges) func aForksRequestFromABranchOfTheSameNameIsNeverRelctls(_ id: String) async throws {
        let project = try Project(forge: id)
        defer { project.forge.stop() }
        let forkBody = "mallory's changes"
        _ = try await project.forge.pulls(
            #"{"fork": {"owner": "mallory", "head": "relctl/release", "base": "main", "title": "chore: release v1.1.0", "body": "\#(forkBody)"}}"#
        )
        let fork = try #require(try await project.forge.pulls().first { $0.fork != nil })
        func forkUntouched() async throws {
            let now = try #require(try await project.forge.pulls().first { $0.number == fork.number })
            #expect(now.state == "open" && now.edits == 0, "\(now)")
            #expect(now.title == fork.title && now.body == forkBody, "\(now)")
        }

        let dry = try await project.relctl(["--dry-run"])
        #expect(dry.status == 0 && dry.stderr.contains("and open a"), "\(dry)")
        #expect(!dry.stderr.contains("#\(fork.number)") || dry.stderr.contains("fork"), "\(dry)")

        let opened = try await project.relctl([])
        #expect(opened.status == 0, "\(opened)")
        // GitLab and Gitea list the fork's request too (their filter is the branch name): relctl says it leaves it.
        // GitHub's `head=OWNER:BRANCH` filter never returns it.
        #expect(
            id == "github" || (opened.stderr.contains("#\(fork.number)") && opened.stderr.contains("fork")),
            "\(opened)")
        let ours = project.ours(try await project.forge.pulls())
        #expect(ours.count == 1 && ours.first?.number != fork.number, "\(ours)")
        #expect(ours.first?.title == "chore: release v1.1.0" && ours.first?.state == "open", "\(ours)")
        try await forkUntouched()

        // Again: relctl's own request is up to date; the fork's is still not touched.
        let again = try await project.relctl([])
        #expect(again.status == 0 && again.stderr.contains("up to date"), "\(again)")
        try await forkUntouched()

        // Nothing to release: relctl closes its own request only.
        try project.repo.git("tag", "v1.1.0")
        try project.repo.git("push", "-q", "origin", "v1.1.0")
        let closed = try await project.relctl([])
        #expect(closed.status == 0, "\(closed)")
        #expect(project.ours(try await project.forge.pulls()).first?.state == "closed")
        try await forkUntouched()
    }

    /// Issue 62: the open request is found by its head branch, not its title. A `feat!:` after the
    /// first request changes the version: the same request's title moves from v1.1.0 to v2.0.0.
    @Test(arguments: forges) func aBreakingChangeAfterTheRequestRetitlesTheSameRequest(_ id: String) async throws {
        let project = try Project(forge: id)
        defer { project.forge.stop() }
        let opened = try await project.relctl([])
        #expect(opened.status == 0, "\(opened)")
        let first = try #require(project.ours(try await project.forge.pulls()).first, "\(opened)")
        #expect(first.title == "chore: release v1.1.0")

        try project.land("feat!: drop the version 1 frame format", file: "frames.txt")
        let updated = try await project.relctl([])
        #expect(updated.status == 0, "\(updated)")
        let ours = project.ours(try await project.forge.pulls())
        #expect(ours.count == 1 && ours.first?.number == first.number && ours.first?.state == "open", "\(ours)")
        #expect(ours.first?.title == "chore: release v2.0.0", "\(ours)")
        #expect(ours.first?.edits == 1, "\(ours)")
        #expect(
            ours.first?.body.contains("| velostream | 1.0.0 | 2.0.0 | v2.0.0 | breaking | 2 |") == true,
            "\(ours.first?.body ?? "")")
        #expect(try project.remote("show", "relctl/release:VERSION") == "2.0.0")
    }

    /// Merged as each forge can (a merge commit, a squash, a rebase), the request's versions are
    /// what the base branch holds: release-pr raises nothing more, the release tags the merge
    /// commit, and then there is nothing to release.
    @Test(arguments: forges, ["merge", "squash", "rebase"])
    func aMergedRequestIsReleasedOnTheMergeCommitOnce(_ id: String, _ method: String) async throws {
        let project = try Project(forge: id)
        defer { project.forge.stop() }
        let opened = try await project.relctl([])
        #expect(opened.status == 0, "\(opened)")
        let number = try #require(project.ours(try await project.forge.pulls()).first?.number)
        // The base moves on before the merge, so every method makes a commit of its own.
        try project.land("docs: explain frames", file: "FRAMES.md")
        let repo = project.repo
        try repo.git("fetch", "-q", "origin", "relctl/release")
        switch method {
        case "merge":
            try repo.git("merge", "-q", "--no-ff", "-m", "Merge request #\(number) from relctl/release", "FETCH_HEAD")
        case "squash":
            try repo.git("merge", "-q", "--squash", "FETCH_HEAD")
            try repo.git("commit", "-q", "-m", "chore: release v1.1.0 (#\(number))")
        default:
            try repo.git("cherry-pick", "FETCH_HEAD")
        }
        try repo.git("push", "-q", "origin", "main")
        _ = try await project.forge.pulls("{\"merge\": \(number)}")
        let merged = try repo.git("rev-parse", "HEAD")
        #expect(try repo.directory.read("VERSION") == "1.1.0\n")

        // Pending on the base: no second request, nothing new raised.
        let pending = try await project.relctl([])
        #expect(pending.status == 0 && pending.stderr.contains("release --pending"), "\(pending)")
        #expect(project.ours(try await project.forge.pulls()).filter { $0.state == "open" }.isEmpty)

        // What CI runs after the merge: the version the manifests hold, tagged once on the merge
        // commit; the same command again finds nothing pending.
        let released = try await TemporaryScope.blocking {
            try relctl(["release", "--pending", "--push"], in: repo.url, environment: project.forge.environment)
        }
        #expect(released.status == 0, "\(released)")
        #expect(try project.remote("tag", "--list").split(separator: "\n") == ["v1.0.0", "v1.1.0"])
        #expect(try project.remote("rev-parse", "v1.1.0^{commit}") == merged)
        let again = try await TemporaryScope.blocking {
            try relctl(["release", "--pending", "--push"], in: repo.url, environment: project.forge.environment)
        }
        #expect(again.status == 0 && (again.stdout + again.stderr).contains("nothing pending"), "\(again)")
        #expect(try project.remote("tag", "--list").split(separator: "\n") == ["v1.0.0", "v1.1.0"])

        let after = try await project.relctl([])
        #expect(after.status == 0 && after.stderr.contains("nothing to release"), "\(after)")
        #expect(project.ours(try await project.forge.pulls()).count == 1, "never a second request")
        #expect(try project.remote("branch", "--list", "relctl/*").isEmpty)
        #expect(try project.remote("tag", "--list").split(separator: "\n") == ["v1.0.0", "v1.1.0"])
    }

    /// A `[workspace]`'s request (issues 42, 43): one commit raising every member with a next
    /// version (a dependent with reason `dependency`, its requirement rewritten), the title naming
    /// every tag, the body each member's own notes; merged, `release --pending --push` tags them
    /// all, and the next run has nothing to release.
    @Test func aWorkspaceRequestRaisesEveryMemberAndItsMergeReleasesThemTogether() async throws {
        let repo = try GitRepository()
        let remote = try repo.addBareRemote()
        let forge = try Forge("github", remote: remote.url)
        defer { forge.stop() }
        try repo.commit(
            "chore: start",
            files: [
                "relctl.toml": "[workspace]\nmembers = [\"crates/*\"]\n\n[publish]\n\(forge.configLine)\n",
                ".gitignore": "dist/\n",
                "crates/core/Cargo.toml": "[package]\nname = \"core\"\nversion = \"1.0.0\"\n",
                "crates/app/Cargo.toml":
                    "[package]\nname = \"app\"\nversion = \"0.1.0\"\n\n[dependencies]\ncore = { path = \"../core\", version = \"1.0\" }\n",
                "crates/tool/Cargo.toml": "[package]\nname = \"tool\"\nversion = \"2.0.0\"\n",
            ])
        try repo.git("tag", "core-v1.0.0")
        try repo.git("tag", "app-v0.1.0")
        try repo.git("tag", "tool-v2.0.0")
        try repo.commit("feat: core learns a trick", files: ["crates/core/src/lib.rs": "pub fn trick() {}\n"])
        try repo.git("push", "-q", "origin", "main", "--tags")
        let project = Project(repo: repo, remote: remote, forge: forge)

        // A dry run reads the forge and changes nothing: no branch, no request, no file.
        let dry = try await project.relctl(["--dry-run"])
        #expect(dry.status == 0 && dry.stderr.contains("would push relctl/release"), "\(dry)")
        #expect(try project.remote("branch", "--list", "relctl/*").isEmpty)
        #expect(project.ours(try await forge.pulls()).isEmpty)
        #expect(try repo.git("status", "--porcelain").isEmpty)

        let opened = try await project.relctl([])
        #expect(opened.status == 0, "\(opened)")
        let pull = try #require(project.ours(try await forge.pulls()).first, "\(opened)")
        // Only the changed member and its dependent: tool did not change and is not raised.
        #expect(pull.title == "chore: release app-v0.1.1, core-v1.1.0", "\(pull.title)")
        #expect(!pull.body.contains("| tool |"), "\(pull.body)")
        #expect(pull.body.contains("| core | 1.0.0 | 1.1.0 | core-v1.1.0 | feat | 1 |"), "\(pull.body)")
        #expect(pull.body.contains("| app | 0.1.0 | 0.1.1 | app-v0.1.1 | dependency | 0 |"), "\(pull.body)")
        #expect(pull.body.contains("## core core-v1.1.0") && pull.body.contains("core learns a trick"), "\(pull.body)")
        let changed = try project.remote("diff", "--name-only", "main", "relctl/release").split(separator: "\n")
        #expect(Set(changed) == ["crates/app/Cargo.toml", "crates/core/Cargo.toml"], "\(changed)")
        #expect(
            try project.remote("show", "relctl/release:crates/app/Cargo.toml").contains(
                "core = { path = \"../core\", version = \"1.1.0\" }"))

        // Re-running with nothing new changes nothing: the same commit, the same request.
        let again = try await project.relctl([])
        let pullsAfter = project.ours(try await forge.pulls())
        #expect(again.status == 0 && pullsAfter.count == 1 && pullsAfter[0].sha == pull.sha, "\(again)")

        try repo.git("fetch", "-q", "origin", "relctl/release")
        try repo.git("merge", "-q", "--no-ff", "-m", "Merge request #\(pull.number)", "FETCH_HEAD")
        try repo.git("push", "-q", "origin", "main")
        _ = try await forge.pulls("{\"merge\": \(pull.number)}")
        let released = try await TemporaryScope.blocking {
            try relctl(["release", "--pending", "--push"], in: repo.url, environment: forge.environment)
        }
        #expect(released.status == 0, "\(released)")
        let tags = Set(try project.remote("tag", "--list").split(separator: "\n").map(String.init))
        #expect(
            tags == ["core-v1.0.0", "app-v0.1.0", "tool-v2.0.0", "core-v1.1.0", "app-v0.1.1"], "\(released)")

        let after = try await project.relctl([])
        // Nothing left to release: the merged branch is deleted, no request opened.
        #expect(after.status == 0 && after.stderr.contains("deleted relctl/release"), "\(after)")
        let finally = project.ours(try await forge.pulls())
        #expect(finally.count == 1 && finally[0].state != "open", "never a second request")
        #expect(try project.remote("branch", "--list", "relctl/*").isEmpty)
    }

    @Test(arguments: forges) func aLostAnswerAndARateLimitLeaveOneRequest(_ id: String) async throws {
        let project = try Project(forge: id)
        defer { project.forge.stop() }
        _ = try await project.forge.pulls(#"{"unrelated": 75}"#)
        // The list is rate limited once; the create is carried out and answered 502.
        try await project.forge.setFaults(
            #"[{"kind": "pulls", "action": "retry_after", "seconds": 1}, {"kind": "pull-create", "action": "status", "status": 502, "after": true}]"#
        )
        let result = try await project.relctl([])
        #expect(result.status == 0, "\(result)")
        let ours = project.ours(try await project.forge.pulls())
        #expect(ours.count == 1 && ours.first?.state == "open", "\(ours)")
        let requests = try await project.forge.requests()
        #expect(requests.filter { $0.1 == "pull-create" }.count == 1, "\(requests)")
        #expect(requests.contains { $0.2 == 429 } && requests.contains { $0.3 == "status-after" }, "\(requests)")
        #expect(result.stdout.contains("/\(ours.first?.number ?? 0)"), "\(result)")
    }

    @Test func noTokenIsBadInputBeforeAnyPush() async throws {
        let project = try Project(forge: "github")
        defer { project.forge.stop() }
        let result = try await project.relctl([], environment: ["GITHUB_TOKEN": ""])
        #expect(result.status == 2 && result.stderr.contains("GITHUB_TOKEN"), "\(result)")
        #expect(try project.remote("branch", "--list", "relctl/*").isEmpty)
        #expect(try await project.forge.requests().isEmpty)
    }

    @Test func ciGenerateWritesTheReleasePRJobsWithMinimumPermissions() async throws {
        let project = try Project(forge: "github")
        project.forge.stop()
        try project.repo.directory.write(
            "relctl.toml",
            (try project.repo.directory.read("relctl.toml"))
                + "\n[ci]\nrelease-pr = true\nproviders = [\"github\", \"gitlab\"]\n")
        let url = project.repo.url
        let result = try await TemporaryScope.blocking { try relctl(["ci", "generate"], in: url) }
        #expect(result.status == 0, "\(result)")
        let workflow = try project.repo.directory.read(".github/workflows/release-pr.yml")
        #expect(workflow.contains("      contents: write") && workflow.contains("      pull-requests: write"))
        #expect(workflow.contains("  contents: read"), "the workflow's default stays read-only")
        #expect(!workflow.contains("id-token") && !workflow.contains("write-all"))
        #expect(workflow.contains("run: relctl release --pending --push --publish"))
        #expect(workflow.contains("run: relctl release-pr --forge github"))
        // Secrets only through env:, never pasted into a script or echoed.
        for line in workflow.split(separator: "\n") where line.contains("secrets.") {
            #expect(line.trimmingCharacters(in: .whitespaces).hasPrefix("GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}"))
        }
        let lint = try await TemporaryScope.blocking {
            try run("actionlint", ["-no-color", ".github/workflows/release-pr.yml"], in: url)
        }
        #expect(lint.status == 0, "\(lint)")
        for persona in ["regular", "pedantic"] {
            let audit = try await TemporaryScope.blocking {
                try run(
                    "zizmor", ["--offline", "--no-progress", "--persona", persona, ".github/workflows/release-pr.yml"],
                    in: url)
            }
            #expect(audit.status == 0, "\(audit)")
        }
        let pipeline = try project.repo.directory.read(".gitlab-ci.yml")
        #expect(pipeline.contains("    - if: '$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH'"))
        #expect(
            pipeline.contains("    - relctl release --pending --push --publish\n    - relctl release-pr --forge gitlab")
        )
        // Every tag job stays on tag pipelines: one `if: $CI_COMMIT_TAG` per job but release-pr.
        let parsed = try await TemporaryScope.blocking {
            try run(
                "python3",
                [
                    "-c",
                    "import yaml,sys; d=yaml.safe_load(open('.gitlab-ci.yml')); jobs=[k for k,v in d.items() if isinstance(v,dict) and 'stage' in v]; print(' '.join(sorted(k+'='+v['rules'][0]['if'] for k,v in ((j,d[j]) for j in jobs))))",
                ], in: url)
        }
        #expect(parsed.status == 0, "\(parsed)")
        #expect(
            parsed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == "release-pr=$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH release=$CI_COMMIT_TAG", "\(parsed)")
        let check = try await TemporaryScope.blocking { try relctl(["ci", "generate", "--check"], in: url) }
        #expect(check.status == 0, "\(check)")
    }

    /// Off the default branch the request has its own branch, `relctl/release-BRANCH`, into that
    /// branch; `--json` says what was done.
    @Test func anotherBranchGetsItsOwnReleaseBranch() async throws {
        let project = try Project(forge: "gitea")
        defer { project.forge.stop() }
        try project.repo.git("checkout", "-q", "-b", "maint")
        try project.repo.commit("fix: backported", files: ["fix.txt": "f\n"])
        try project.repo.git("push", "-q", "origin", "maint")
        let result = try await project.relctl(["--json"])
        #expect(result.status == 0, "\(result)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
        #expect(json["action"] as? String == "opened" && json["branch"] as? String == "relctl/release-maint")
        #expect(json["base"] as? String == "maint" && json["tags"] as? [String] == ["v1.1.0"], "\(json)")
        let pulls = try await project.forge.pulls()
        #expect(pulls.count == 1 && pulls.first?.head == "relctl/release-maint" && pulls.first?.base == "maint")
        #expect(
            try project.remote("rev-parse", "relctl/release-maint^") == (try project.repo.git("rev-parse", "maint")))
        #expect(try project.remote("branch", "--list", "relctl/release").isEmpty)
    }

    /// The stand-ins refuse what the forges refuse, so a client bug cannot pass by accident.
    @Test func theStandInsAreStrictAboutTokensFieldsAndBranches() async throws {
        let remote = try GitRepository()
        try remote.commit("chore: start")
        let bare = try remote.addBareRemote()
        try remote.git("push", "-q", "origin", "main")
        let github = try GitHubStandIn(tags: [], gitDirectory: bare.url)
        defer { github.stop() }
        let headers = ["User-Agent": "test", "Authorization": "Bearer \(GitHubStandIn.token)"]
        var answer = try await github.send("GET", "/repos/acme/velostream/pulls", headers: ["User-Agent": "test"])
        #expect(answer.0 == 401, "\(answer)")
        answer = try await github.send(
            "POST", "/repos/acme/velostream/pulls", headers: headers, body: #"{"title":"t"}"#)
        #expect(answer.0 == 422, "\(answer)")
        answer = try await github.send(
            "POST", "/repos/acme/velostream/pulls", headers: headers,
            body: #"{"title":"t","head":"acme:nope","base":"main"}"#)
        #expect(answer.0 == 422 && answer.1.contains("head"), "a head that is no branch: \(answer)")

        let gitlab = try ForgeStandIn(.gitlab, tags: [], gitDirectory: bare.url)
        defer { gitlab.stop() }
        let path = "/projects/acme%2Ftools%2Fvelostream/merge_requests"
        answer = try await gitlab.send("GET", path)
        #expect(answer.0 == 404, "a private project is invisible without a token: \(answer)")
        answer = try await gitlab.send(
            "POST", path, headers: ["PRIVATE-TOKEN": ForgeStandIn.gitlabToken, "Content-Type": "application/json"],
            body: Data(#"{"source_branch":"main"}"#.utf8))
        #expect(answer.0 == 400, "\(answer)")

        let gitea = try ForgeStandIn(.gitea, tags: [], gitDirectory: bare.url)
        defer { gitea.stop() }
        _ = try await gitea.pulls(#"{"unrelated": 75}"#)
        answer = try await gitea.send(
            "GET", "/repos/acme/velostream/pulls?state=open&limit=100&page=1",
            headers: ["Authorization": "token \(ForgeStandIn.giteaToken)"])
        let page = try JSONSerialization.jsonObject(with: Data(answer.1.utf8)) as? [Any]
        #expect(answer.0 == 200 && page?.count == 50, "Gitea caps a page at 50: \(answer.0)")
    }
}
