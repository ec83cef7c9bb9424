import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Issue 63, the second round of repositories nobody here had read before (fastify, requests,
/// jinja, marshmallow, trpc, apollo-client, serde, hyper, zap, viper, swift-collections,
/// swift-crypto): each relctl bug they showed, rebuilt as a generated repository of the same
/// shape and driven through the built binary as a new user would.
@Suite(.removesTemporaries, .timeLimit(.minutes(30))) struct OutOfSampleCLITests {
    @discardableResult
    static func commit(
        _ repo: GitRepository, _ message: String, day: Int, files: [String: String] = [:]
    ) throws -> String {
        try repo.commit(message, files: files, date: String(format: "2026-01-%02dT10:00:00Z", day))
    }

    static func field(_ json: String, _ key: String) throws -> Any? {
        (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?[key]
    }

    /// marshmallow releases from `dev` (its default branch), jinja from `stable`: `init` there
    /// lists that branch in `[release] branches`, so the first `release --dry-run` is not refused
    /// for the branch it was written on. A feature branch is never listed.
    @Test func initListsTheMainLineItRunsOnUnderAnotherName() throws {
        let repo = try GitRepository()
        func manifest(_ version: String) -> [String: String] {
            ["pyproject.toml": "[project]\nname = \"marshmallow\"\nversion = \"\(version)\"\n"]
        }
        try repo.git("checkout", "-q", "-b", "dev")
        try Self.commit(repo, "chore: release 3.23.0", day: 1, files: manifest("3.23.0"))
        try repo.git("tag", "3.23.0")
        try Self.commit(repo, "fix: a field", day: 2, files: manifest("3.23.1").merging(["src/f.py": "f\n"]) { $1 })
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("branches = [\"main\", \"master\", \"dev\"]"), "\(config)")
        try repo.git("add", "-A")
        try repo.git("commit", "-q", "-m", "chore: relctl")
        let dry = try relctl(["release", "3.23.1", "--dry-run"], in: repo.url)
        #expect(dry.status == 0, "\(dry)")
        #expect(!dry.stderr.contains("releases are made from"), "\(dry)")

        try repo.git("checkout", "-q", "-b", "stable")
        try repo.git("rm", "-q", "relctl.toml")
        try repo.git("commit", "-q", "-m", "chore: no config")
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        #expect(try repo.directory.read("relctl.toml").contains("branches = [\"main\", \"master\", \"stable\"]"))

        try FileManager.default.removeItem(at: repo.url.appendingPathComponent("relctl.toml"))
        try repo.git("checkout", "-q", "-b", "feature/fields")
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let feature = try repo.directory.read("relctl.toml")
        #expect(feature.contains("branches = [\"main\", \"master\"]\n"), "\(feature)")
    }

    /// viper's `v1.18.x`: a Go module whose path cannot take 2.0.0 gets a minor for a breaking
    /// change, which leaves the branch's `1.18.x`; the refusal names that commit, not "a manifest
    /// holds a version above it" in a repository with no manifest.
    @Test func aGoModulesBreakingChangeOnAMaintenanceLineNamesTheCommit() throws {
        let repo = try GitRepository()
        try repo.directory.write("go.mod", "module example.com/tool\n\ngo 1.22\n")
        try repo.directory.write(
            "relctl.toml",
            "[project]\nname = \"tool\"\n\n[[branch]]\nname = \"v1.4.x\"\nrange = \"1.4.x\"\n")
        try Self.commit(repo, "feat: start", day: 1)
        try repo.git("tag", "v1.4.0")
        try repo.git("checkout", "-q", "-b", "v1.4.x")
        try Self.commit(repo, "fix!: breaks 1.4.x", day: 2, files: ["tool.go": "package tool\n"])
        let bump = try relctl(["bump"], in: repo.url)
        #expect(bump.status == 1, "\(bump)")
        #expect(bump.stderr.contains("(fix!: breaks 1.4.x) calls for 1.5.0"), "\(bump)")
        #expect(!bump.stderr.contains("a manifest holds"), "\(bump)")
    }

    /// zap: `exp/` is a Go module of its own (tagged `exp/v0.2.0`), `tools/` one never tagged;
    /// opentelemetry-go's `bridge/` is tagged with the root's own versions (released with it).
    /// `init` excludes the first two from the root module's changes, so an `exp` feat is neither
    /// in the notes nor the size of the root's next release; the lockstep module still counts.
    @Test func initLeavesNestedGoModulesWithVersionsOfTheirOwnOutOfTheRootsChanges() throws {
        let repo = try GitRepository()
        try repo.directory.write("go.mod", "module go.uber.org/zap\n\ngo 1.22\n")
        try repo.directory.write("exp/go.mod", "module go.uber.org/zap/exp\n\ngo 1.22\n")
        try repo.directory.write("tools/go.mod", "module go.uber.org/zap/tools\n\ngo 1.22\n")
        try repo.directory.write("bridge/go.mod", "module go.uber.org/zap/bridge\n\ngo 1.22\n")
        try repo.directory.write("internal/testdata/go.mod", "module fixture\n")
        try Self.commit(repo, "feat: start", day: 1)
        try repo.git("tag", "v1.26.0")
        try repo.git("tag", "exp/v0.2.0")
        try repo.git("tag", "bridge/v1.26.0")
        try Self.commit(repo, "feat(zapslog): stack traces", day: 2, files: ["exp/zapslog/h.go": "package zapslog\n"])
        try Self.commit(repo, "feat: lint with a newer linter", day: 3, files: ["tools/tools.go": "package tools\n"])
        try Self.commit(repo, "fix: a field's encoding", day: 4, files: ["field.go": "package zap\n"])
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("exclude = [\"exp/**\", \"tools/**\"]"), "\(config)")
        #expect(config.contains("exp (tagged exp/vX.Y.Z), tools (untagged)"), "\(config)")
        #expect(try relctl(["check"], in: repo.url).status == 0)
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "1.26.1", "only the root's fix counts: \(bump)")
        #expect(try Self.field(bump.stdout, "commits") as? Int == 1, "\(bump)")
        let notes = try relctl(["notes"], in: repo.url)
        #expect(notes.stdout.contains("a field's encoding") && !notes.stdout.contains("stack traces"), "\(notes)")

        // In lockstep (bridge tagged with the root's version): its feat is the root release's.
        try Self.commit(repo, "feat: bridge spans", day: 5, files: ["bridge/b.go": "package bridge\n"])
        let lockstep = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(lockstep.stdout, "next") as? String == "1.27.0", "\(lockstep)")
    }

    /// apollo-client's `release-4.3`: changesets' prerelease mode (`.changeset/pre.json`, `"mode":
    /// "pre"`) makes releases `X.Y.Z-TAG.N` counting from 0; a new tag in pre.json starts its own
    /// counter; `"mode": "exit"` gives the final. Before, the released `4.3.0-alpha.0` in
    /// package.json was promoted to 4.3.0 at the next fix.
    @Test func changesetsPrereleaseModeIsAPrereleaseLine() throws {
        let repo = try GitRepository()
        func manifest(_ version: String) -> [String: String] {
            ["package.json": "{\n  \"name\": \"@apollo/client\",\n  \"version\": \"\(version)\"\n}\n"]
        }
        func pre(_ mode: String, _ tag: String) -> [String: String] {
            [".changeset/pre.json": "{\n  \"mode\": \"\(mode)\",\n  \"tag\": \"\(tag)\",\n  \"initialVersions\": {},\n  \"changesets\": []\n}\n"]
        }
        try repo.directory.write(
            "relctl.toml",
            "[project]\nname = \"client\"\ntag-format = \"v{version}\"\n\n[[version]]\npath = \"package.json\"\n\n[versioning]\nfragments = \"changesets\"\n")
        try repo.directory.write(".changeset/config.json", "{}\n")
        try Self.commit(repo, "chore: release 4.2.12", day: 1, files: manifest("4.2.12"))
        try repo.git("tag", "v4.2.12")
        try Self.commit(
            repo, "feat: local state", day: 2,
            files: pre("pre", "alpha").merging([".changeset/brave-owls.md": "---\n\"@apollo/client\": minor\n---\n\nLocal state.\n"]) { $1 })
        func next() throws -> String? {
            let bump = try relctl(["bump", "--json"], in: repo.url)
            #expect(bump.status == 0, "\(bump)")
            return try Self.field(bump.stdout, "next") as? String
        }
        #expect(try next() == "4.3.0-alpha.0")
        try Self.commit(repo, "chore: version packages", day: 3, files: manifest("4.3.0-alpha.0"))
        try repo.git("tag", "v4.3.0-alpha.0")
        try Self.commit(
            repo, "fix: cache", day: 4, files: [".changeset/calm-cats.md": "---\n\"@apollo/client\": patch\n---\n\nCache.\n"])
        #expect(try next() == "4.3.0-alpha.1", "the released alpha in package.json is not promoted in pre mode")
        try Self.commit(repo, "chore: pre rc", day: 5, files: pre("pre", "rc"))
        #expect(try next() == "4.3.0-rc.0")
        try Self.commit(repo, "chore: exit pre", day: 6, files: pre("exit", "rc"))
        #expect(try next() == "4.3.0")
    }

    /// apollo-client: a workspace whose root is a member (`@apollo/client@{version}` tags beside
    /// an old `v{version}` series). `notes` at the root without `--tag` listed every commit since
    /// `v4.0.0-alpha.15`; it is the root member's notes, since its own latest tag.
    @Test func notesAtAWorkspaceRootThatIsAMemberAreThatMembers() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "relctl.toml",
            "[project]\nname = \"client\"\n\n[workspace]\nmembers = [\".\", \"codegen\"]\ntag-format = \"@apollo/{member}@{version}\"\n")
        try repo.directory.write("package.json", "{\n  \"name\": \"client\",\n  \"version\": \"4.2.12\"\n}\n")
        try repo.directory.write("codegen/package.json", "{\n  \"name\": \"codegen\",\n  \"version\": \"1.0.0\"\n}\n")
        try Self.commit(repo, "feat: old line", day: 1)
        try repo.git("tag", "v4.0.0-alpha.15")
        try Self.commit(repo, "fix: shipped in 4.2.12", day: 2, files: ["src/a.ts": "a\n"])
        try repo.git("tag", "@apollo/client@4.2.12")
        try repo.git("tag", "@apollo/codegen@1.0.0")
        try Self.commit(repo, "fix: new in the client", day: 3, files: ["src/b.ts": "b\n"])
        try Self.commit(repo, "feat: new in codegen", day: 4, files: ["codegen/c.ts": "c\n"])
        let notes = try relctl(["notes", "--json"], in: repo.url)
        #expect(notes.status == 0, "\(notes)")
        #expect(try Self.field(notes.stdout, "previous") as? String == "@apollo/client@4.2.12", "\(notes.stdout)")
        #expect(notes.stdout.contains("new in the client") && !notes.stdout.contains("shipped in 4.2.12"), "\(notes.stdout)")
        #expect(!notes.stdout.contains("new in codegen"), "codegen's commit is codegen's: \(notes.stdout)")
    }
}
