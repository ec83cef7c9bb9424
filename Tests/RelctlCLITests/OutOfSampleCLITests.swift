import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Issue 63, the second round of repositories nobody here had read before (fastify, requests,
/// jinja, marshmallow, trpc, apollo-client, serde, hyper, zap, viper, swift-collections,
/// swift-crypto): each relctl bug they showed, rebuilt as a generated repository of the same
/// shape and driven through the built binary as a new user would.
@Suite(.removesTemporaries, .timeLimit(.minutes(30))) struct OutOfSampleCLITests {
    // The back-test findings' helpers: a commit dated in January 2026, a field of a JSON object.
    @discardableResult
    static func commit(
        _ repo: GitRepository, _ message: String, day: Int, files: [String: String] = [:]
    ) throws -> String {
        try BacktestFindingsCLITests.commit(repo, message, day: day, files: files)
    }

    static func field(_ json: String, _ key: String) throws -> Any? { try BacktestFindingsCLITests.field(json, key) }

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
    /// in the notes nor the size of the root's next release; the lockstep module is a member
    /// grouped with the root (go-redis' `extra/*`), so its feat lifts both and both are tagged.
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
        #expect(config.contains("members = [\".\", \"bridge\"]"), "\(config)")
        #expect(config.contains("bridge = \"bridge/v{version}\""), "\(config)")
        #expect(try relctl(["check"], in: repo.url).status == 0)
        func rows() throws -> [String: [String: Any]] {
            let plan = try relctl(["plan", "--json"], in: repo.url)
            #expect(plan.status == 0, "\(plan)")
            let members = try Self.field(plan.stdout, "members") as? [[String: Any]] ?? []
            return Dictionary(uniqueKeysWithValues: members.map { ($0["path"] as? String ?? "?", $0) })
        }
        let before = try rows()
        #expect(before["."]?["next"] as? String == "1.26.1", "only the root's fix counts: \(before)")
        #expect(before["."]?["commits"] as? Int == 1, "\(before)")
        #expect(before["bridge"]?["tag"] as? String == "bridge/v1.26.1", "\(before)")
        #expect(before["bridge"]?["reason"] as? String == "group", "\(before)")
        let notes = try relctl(["notes"], in: repo.url)
        #expect(notes.stdout.contains("a field's encoding") && !notes.stdout.contains("stack traces"), "\(notes)")

        // In lockstep (bridge tagged with the root's version): its feat makes the group's minor.
        try Self.commit(repo, "feat: bridge spans", day: 5, files: ["bridge/b.go": "package bridge\n"])
        let after = try rows()
        #expect(after["."]?["next"] as? String == "1.27.0", "\(after)")
        #expect(after["bridge"]?["tag"] as? String == "bridge/v1.27.0", "\(after)")
    }

    /// opentelemetry-go's `metric` and `sdk/metric`, both tagged with the root's versions, would be
    /// two members named `metric`, which the workspace refuses: init lists the first, leaves the
    /// second out (its commits count as the root's), says why, and writes a file `check` accepts.
    /// (Before session 79 it listed none; river's and gf's `cmd/river`, named as the root is, lost
    /// their other modules' rows so.)
    @Test func lockstepGoModulesSharingANameAreNotListed() throws {
        let repo = try GitRepository()
        try repo.directory.write("go.mod", "module go.opentelemetry.io/otel\n\ngo 1.22\n")
        try repo.directory.write("metric/go.mod", "module go.opentelemetry.io/otel/metric\n\ngo 1.22\n")
        try repo.directory.write("sdk/metric/go.mod", "module go.opentelemetry.io/otel/sdk/metric\n\ngo 1.22\n")
        try repo.directory.write("cmd/otel/go.mod", "module go.opentelemetry.io/otel/cmd/otel\n\ngo 1.22\n")
        try Self.commit(repo, "feat: start", day: 1)
        for tag in ["v1.40.0", "metric/v1.40.0", "sdk/metric/v1.40.0", "cmd/otel/v1.40.0"] { try repo.git("tag", tag) }
        try Self.commit(repo, "fix: a span's name", day: 2, files: ["trace.go": "package otel\n"])
        try Self.commit(repo, "fix: a reader's name", day: 3, files: ["sdk/metric/r.go": "package metric\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("members = [\".\", \"metric\"]"), "\(config)")
        #expect(config.contains("`sdk/metric` (named `metric` as `metric` is)"), "\(config)")
        #expect(config.contains("`cmd/otel` (named `otel` as `.` is)"), "\(config)")
        #expect(try relctl(["check"], in: repo.url).status == 0)
        let plan = try relctl(["plan", "--json"], in: repo.url)
        #expect(plan.status == 0, "\(plan)")
        let members = try Self.field(plan.stdout, "members") as? [[String: Any]] ?? []
        let rows = Dictionary(uniqueKeysWithValues: members.map { ($0["path"] as? String ?? "?", $0) })
        #expect(rows["."]?["next"] as? String == "1.40.1", "\(rows)")
        #expect(rows["."]?["commits"] as? Int == 2, "sdk/metric's fix counts as the root's: \(rows)")
        #expect(rows["metric"]?["tag"] as? String == "metric/v1.40.1", "\(rows)")
    }

    /// apollo-client's `release-4.3`: changesets' prerelease mode (`.changeset/pre.json`, `"mode":
    /// "pre"`) makes releases `X.Y.Z-TAG.N` counting from 0; a new tag in pre.json starts its own
    /// counter where the project's history did so before (its `4.2.0-alpha.1`, then `4.2.0-rc.0`;
    /// changesets itself counts on, `OutOfSampleRound11CLITests`); `"mode": "exit"` gives the
    /// final. Before, the released `4.3.0-alpha.0` in package.json was promoted to 4.3.0 at the next fix.
    @Test func changesetsPrereleaseModeIsAPrereleaseLine() throws {
        let client = try ChangesetsPackageFixture(package: "@apollo/client", project: "client", tagFormat: "v{version}")
        let repo = client.repo
        let manifest = client.manifest
        try Self.commit(repo, "chore: release 4.2.0-alpha.1", day: 1, files: manifest("4.2.0-alpha.1"))
        try repo.git("tag", "v4.2.0-alpha.1")
        try Self.commit(repo, "chore: release 4.2.0-rc.0", day: 1, files: manifest("4.2.0-rc.0"))
        try repo.git("tag", "v4.2.0-rc.0")
        try Self.commit(repo, "chore: release 4.2.12", day: 1, files: manifest("4.2.12"))
        try repo.git("tag", "v4.2.12")
        try Self.commit(
            repo, "feat: local state", day: 2,
            files: client.pre("pre", "alpha").merging(client.changeset("brave-owls", "minor", "Local state.")) { $1 })
        func next() throws -> String? {
            let bump = try relctl(["bump", "--json"], in: repo.url)
            #expect(bump.status == 0, "\(bump)")
            return try Self.field(bump.stdout, "next") as? String
        }
        #expect(try next() == "4.3.0-alpha.0")
        try Self.commit(repo, "chore: version packages", day: 3, files: manifest("4.3.0-alpha.0"))
        try repo.git("tag", "v4.3.0-alpha.0")
        try Self.commit(
            repo, "fix: cache", day: 4, files: client.changeset("calm-cats", "patch", "Cache."))
        #expect(try next() == "4.3.0-alpha.1", "the released alpha in package.json is not promoted in pre mode")
        try Self.commit(repo, "chore: pre rc", day: 5, files: client.pre("pre", "rc"))
        #expect(try next() == "4.3.0-rc.0")
        try Self.commit(repo, "chore: exit pre", day: 6, files: client.pre("exit", "rc"))
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

    /// rust-lang/regex: the crate at the root is released by bare tags (`1.13.1`), but one
    /// `regex-1.3.7` of 2020 named it; its members have series of their own. `init` gave the root
    /// `regex-{version}` (plan: current 1.3.7, next `regex-1.13.1`, a version already released);
    /// the bare series is the root's, since its manifest holds the series' latest release.
    @Test func aStrayOwnTagDoesNotTakeAMemberOffTheBareSeriesItsManifestHolds() throws {
        let repo = try GitRepository()
        func crate(_ name: String, _ version: String) -> String {
            "[package]\nname = \"\(name)\"\nversion = \"\(version)\"\n"
        }
        try repo.directory.write(
            "Cargo.toml", crate("regex", "1.13.1") + "\n[workspace]\nmembers = [\"regex-syntax\", \"regex-automata\"]\n")
        try repo.directory.write("src/lib.rs", "\n")
        for (name, version) in [("regex-syntax", "0.8.5"), ("regex-automata", "0.4.9")] {
            try repo.directory.write("\(name)/Cargo.toml", crate(name, version))
            try repo.directory.write("\(name)/src/lib.rs", "\n")
        }
        try Self.commit(repo, "chore: old", day: 1)
        try repo.git("tag", "regex-1.3.7")
        try Self.commit(repo, "chore: releases", day: 2, files: ["src/a.rs": "a\n"])
        for tag in ["1.12.0", "1.13.0", "1.13.1", "regex-syntax-0.8.5", "regex-automata-0.4.9"] { try repo.git("tag", tag) }
        try Self.commit(repo, "fix: a panic", day: 3, files: ["src/b.rs": "b\n"])
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("regex = \"{version}\""), "\(config)")
        let plan = try relctl(["plan", "--json"], in: repo.url)
        #expect(plan.status == 0, "\(plan)")
        let members = try Self.field(plan.stdout, "members") as? [[String: Any]] ?? []
        let root = members.first { $0["path"] as? String == "." }
        #expect(root?["next"] as? String == "1.13.2", "\(plan.stdout)")
        #expect(root?["tag"] as? String == "1.13.2", "\(plan.stdout)")
    }

    /// swr: pnpm-workspace.yaml lists `core`, a folder that does not exist; `init` wrote it as a
    /// member and `check` refused its own file (exit 2).
    @Test func initListsNoWorkspaceMemberThatIsNoFolder() throws {
        let repo = try GitRepository()
        try repo.directory.write("pnpm-workspace.yaml", "packages:\n  - a\n  - b\n  - gone\n")
        try repo.directory.write("package.json", "{\n  \"name\": \"root\",\n  \"private\": true\n}\n")
        try repo.directory.write("a/package.json", "{\n  \"name\": \"a\",\n  \"version\": \"1.0.0\"\n}\n")
        try repo.directory.write("b/package.json", "{\n  \"name\": \"b\",\n  \"version\": \"2.0.0\"\n}\n")
        try Self.commit(repo, "chore: start", day: 1)
        try repo.git("tag", "a-v1.0.0")
        try repo.git("tag", "b-v2.0.0")
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("members = [\"a\", \"b\"]"), "\(config)")
        let check = try relctl(["check"], in: repo.url)
        #expect(check.status == 0, "\(check)")
    }

    /// pip-tools: 123 bare tags, then `v7.5.0` and `v7.5.1`. The five most recent still vote for
    /// `{version}`, but the comment said the two `v` tags were older; it says they are newer.
    @Test func initSaysWhenTheTagsSpelledOtherwiseAreTheNewest() throws {
        let repo = try GitRepository()
        try repo.directory.write("pyproject.toml", "[project]\nname = \"pip-tools\"\nversion = \"7.5.1\"\n")
        for (day, tag) in ["7.4.0", "7.4.1", "7.4.2", "v7.5.0", "v7.5.1"].enumerated() {
            try Self.commit(repo, "fix: \(tag)", day: day + 1, files: ["f\(day).py": "\(day)\n"])
            try repo.git("tag", tag)
        }
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("tag-format = \"{version}\""), "\(config)")
        #expect(config.contains("2 tags are spelled otherwise, all newer (v7.5.1)"), "\(config)")
        #expect(!config.contains("older tags are spelled otherwise"), "\(config)")
    }

    /// pipx takes its version from its tags (hatch-vcs): no `[[version]]`, yet its tags are PEP
    /// 440 (`1.17.0rc1`). A fix after the release candidate is the next candidate, not `1.17.0`
    /// with `1.17.0rc1` called "not a release".
    @Test func aPythonPackageVersionedByItsTagsReadsPEP440Tags() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "pyproject.toml",
            "[project]\nname = \"pipx\"\ndynamic = [\"version\"]\n\n[tool.hatch.version]\nsource = \"vcs\"\n")
        try repo.directory.write("relctl.toml", "[project]\nname = \"pipx\"\ntag-format = \"{version}\"\n")
        try Self.commit(repo, "chore: start", day: 1)
        try repo.git("tag", "1.16.0")
        try Self.commit(repo, "feat: x", day: 2, files: ["x.py": "x\n"])
        try repo.git("tag", "1.17.0rc1")
        try Self.commit(repo, "fix: y", day: 3, files: ["y.py": "y\n"])
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try Self.field(bump.stdout, "previous") as? String == "1.17.0rc1", "\(bump)")
        #expect(try Self.field(bump.stdout, "next") as? String == "1.17.0-rc.2", "\(bump)")
        #expect(!bump.stderr.contains("not a release"), "\(bump)")
    }

    /// swr tagged `v2.5.0-beta.0` on its release branch and squash-merged that branch into `main`,
    /// whose package.json holds 2.5.0-beta.0. `main`'s next release is `2.5.0-beta.1`, not 2.5.0:
    /// a prerelease the manifests hold counts as the branch's though its tag is elsewhere.
    @Test func aPrereleaseTheManifestHoldsCountsThoughItsTagIsOnASquashedBranch() throws {
        let repo = try GitRepository()
        func manifest(_ version: String) -> [String: String] {
            ["package.json": "{\n  \"name\": \"swr\",\n  \"version\": \"\(version)\"\n}\n"]
        }
        try repo.directory.write("relctl.toml", "[project]\nname = \"swr\"\n\n[[version]]\npath = \"package.json\"\n")
        try Self.commit(repo, "chore: release 2.4.2", day: 1, files: manifest("2.4.2"))
        try repo.git("tag", "v2.4.2")
        try repo.git("checkout", "-q", "-b", "release/2.5")
        try Self.commit(repo, "feat: infinite preload", day: 2, files: manifest("2.5.0-beta.0").merging(["a.js": "a\n"]) { $1 })
        try repo.git("tag", "v2.5.0-beta.0")
        try repo.git("checkout", "-q", "main")
        try repo.git("merge", "-q", "--squash", "release/2.5")
        try Self.commit(repo, "2.5.0-beta.0 (#4291)", day: 3)
        try repo.git("branch", "-q", "-D", "release/2.5")
        try Self.commit(repo, "fix: revalidate on focus", day: 4, files: ["b.js": "b\n"])
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try Self.field(bump.stdout, "previous") as? String == "v2.5.0-beta.0", "\(bump)")
        #expect(try Self.field(bump.stdout, "next") as? String == "2.5.0-beta.1", "\(bump)")
    }

    /// nats.go keeps `Version = "1.53.1"` in nats.go and updates it in every release commit (its
    /// 1.53.0 was tagged with 1.52.0 there and re-released as 1.53.1 to fix it). `init` writes a
    /// `[[version]]` for a Go constant that names the latest release, so `validate-tag` checks it
    /// and `bump --write` moves it; a constant holding another version (`minGoVersion`) is left.
    @Test func initListsTheGoVersionConstantThatNamesTheLatestRelease() throws {
        let repo = try GitRepository()
        try repo.directory.write("go.mod", "module github.com/nats-io/nats.go\n\ngo 1.22\n")
        try repo.directory.write(
            "nats.go", "package nats\n\nconst (\n\tVersion                   = \"1.53.1\"\n\tDefaultURL = \"nats://127.0.0.1:4222\"\n)\n")
        try repo.directory.write("tools.go", "package nats\n\nconst minGoVersion = \"1.21.0\"\n")
        try Self.commit(repo, "Release v1.53.1", day: 1)
        try repo.git("tag", "v1.53.1")
        try Self.commit(repo, "fix: reconnect", day: 2, files: ["conn.go": "package nats\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("[[version]]\npath = \"nats.go\"\nkind = \"regex\""), "\(config)")
        #expect(!config.contains("path = \"tools.go\""), "\(config)")
        #expect(try relctl(["validate-tag", "v1.53.1"], in: repo.url).status == 0)
        let write = try relctl(["bump", "--write"], in: repo.url)
        #expect(write.status == 0, "\(write)")
        #expect(try repo.directory.read("nats.go").contains("\tVersion                   = \"1.53.2\"\n"))
        #expect(try repo.directory.read("tools.go").contains("\"1.21.0\""))
    }

    /// swift-snapshot-testing cloned as `snap`: the project was named after the folder; it is
    /// the name Package.swift gives.
    @Test func initNamesASwiftPackageAsItsManifestDoes() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "Package.swift",
            "// swift-tools-version:5.9\nimport PackageDescription\n\nlet package = Package(\n  name: \"swift-snapshot-testing\",\n  products: []\n)\n")
        try Self.commit(repo, "chore: start", day: 1)
        try repo.git("tag", "1.18.0")
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("name = \"swift-snapshot-testing\""), "\(config)")
    }

    /// lerna's fixed mode (lerna, trpc): the line's version is in `lerna.json`, the packages pin
    /// each other exactly (`"@trpc/server": "11.18.0"` in `@trpc/client`), and the root
    /// package-lock.json records each package's version. `bump --write` left all three behind
    /// (only the package.json files moved); now the release commit's files all move.
    @Test func aLernaLockstepReleaseWritesLernaJsonTheSiblingPinsAndTheRootLock() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "package.json", "{\n  \"name\": \"root\",\n  \"private\": true,\n  \"workspaces\": [\"packages/*\"]\n}\n")
        try repo.directory.write("lerna.json", "{\n  \"packages\": [\"packages/*\"],\n  \"version\": \"11.18.0\"\n}\n")
        try repo.directory.write(
            "packages/server/package.json", "{\n  \"name\": \"@trpc/server\",\n  \"version\": \"11.18.0\"\n}\n")
        try repo.directory.write(
            "packages/client/package.json",
            "{\n  \"name\": \"@trpc/client\",\n  \"version\": \"11.18.0\",\n  \"peerDependencies\": {\n    \"@trpc/server\": \"11.18.0\",\n    \"@tanstack/query\": \"5.0.0\"\n  }\n}\n")
        try repo.directory.write(
            "package-lock.json",
            "{\n  \"name\": \"root\",\n  \"lockfileVersion\": 3,\n  \"packages\": {\n    \"\": {\n      \"name\": \"root\"\n    },\n    \"packages/client\": {\n      \"name\": \"@trpc/client\",\n      \"version\": \"11.18.0\"\n    },\n    \"packages/server\": {\n      \"name\": \"@trpc/server\",\n      \"version\": \"11.18.0\"\n    }\n  }\n}\n")
        try Self.commit(repo, "chore: release 11.18.0", day: 1)
        try repo.git("tag", "v11.18.0")
        try Self.commit(repo, "fix: a link", day: 2, files: ["packages/client/src/a.ts": "a\n"])
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("path = \"lerna.json\"\nkind = \"npm\""), "\(config)")
        let write = try relctl(["bump", "--write"], in: repo.url)
        #expect(write.status == 0, "\(write)")
        #expect(try repo.directory.read("lerna.json").contains("\"version\": \"11.18.1\""))
        let client = try repo.directory.read("packages/client/package.json")
        #expect(client.contains("\"@trpc/server\": \"11.18.1\""), "\(client)")
        #expect(client.contains("\"@tanstack/query\": \"5.0.0\""), "another scope's pin stays: \(client)")
        let lock = try repo.directory.read("package-lock.json")
        #expect(!lock.contains("11.18.0") && lock.components(separatedBy: "11.18.1").count == 3, "\(lock)")
        #expect(try relctl(["validate-tag", "v11.18.1"], in: repo.url).status == 0)
    }

    /// pytest takes its version from its tags and tags `X.Y.0.dev0` on `main` as X.Y's work begins.
    /// Read as PEP 440 now, `8.5.0.dev0` opens 8.5.0's development (as grpc-go's `v1.80.0-dev`),
    /// not a counter to continue (`8.5.0-dev.1`), and a breaking change after it gives 9.0.0.
    /// prometheus' VERSION at `3.11.0-rc.0`, cut on its release branch, is promoted, not continued.
    @Test func aPEP440DevelopmentTagOpensItsFinalAndABreakingChangeGoesBeyond() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "pyproject.toml", "[project]\nname = \"pytest\"\ndynamic = [\"version\"]\n\n[tool.setuptools_scm]\n")
        try repo.directory.write("relctl.toml", "[project]\nname = \"pytest\"\ntag-format = \"{version}\"\n")
        try Self.commit(repo, "chore: start", day: 1)
        try repo.git("tag", "8.4.2")
        try Self.commit(repo, "chore: open 8.5", day: 2)
        try repo.git("tag", "8.5.0.dev0")
        try Self.commit(repo, "fix: a fixture", day: 2, files: ["a.py": "a\n"])
        func next() throws -> String? {
            let bump = try relctl(["bump", "--json"], in: repo.url)
            #expect(bump.status == 0, "\(bump)")
            return try Self.field(bump.stdout, "next") as? String
        }
        #expect(try next() == "8.5.0")
        try Self.commit(repo, "feat!: drop Python 3.9", day: 3, files: ["b.py": "b\n"])
        #expect(try next() == "9.0.0")

        let prometheus = try GitRepository()
        try prometheus.directory.write("relctl.toml", "[project]\nname = \"prometheus\"\n\n[[version]]\npath = \"VERSION\"\n")
        try prometheus.directory.write("VERSION", "3.10.0\n")
        try Self.commit(prometheus, "chore: 3.10.0", day: 1)
        try prometheus.git("tag", "v3.10.0")
        try prometheus.git("checkout", "-q", "-b", "release-3.11")
        try Self.commit(prometheus, "Release 3.11.0-rc.0", day: 2, files: ["VERSION": "3.11.0-rc.0\n"])
        try prometheus.git("tag", "v3.11.0-rc.0")
        try prometheus.git("checkout", "-q", "main")
        try prometheus.git("merge", "-q", "--squash", "release-3.11")
        try Self.commit(prometheus, "Merge release-3.11", day: 3)
        try prometheus.git("branch", "-q", "-D", "release-3.11")
        let plan = try relctl(["plan", "--json"], in: prometheus.url)
        let members = try Self.field(plan.stdout, "members") as? [[String: Any]] ?? []
        #expect(members.first?["next"] as? String == "3.11.0", "the rc's final, not nothing: \(plan)")
    }

    /// trpc's and astro's private workspace roots are called `root`, lerna's `lerna-monorepo`,
    /// svelte's `kit-monorepo`: init named the project (its archives, notes and release titles)
    /// `root`. The word for the root's role is dropped; with nothing else left the folder names it.
    /// A published package keeps its name whatever it is.
    @Test func initDoesNotNameTheProjectAfterAPrivateRootsRole() throws {
        func named(_ package: String) throws -> (config: String, folder: String) {
            let repo = try GitRepository()
            try repo.directory.write("package.json", package)
            try repo.directory.write(
                "packages/server/package.json", "{\"name\": \"@trpc/server\", \"version\": \"11.1.0\"}\n")
            try Self.commit(repo, "chore: start", day: 1)
            try repo.git("tag", "v11.1.0")
            let made = try relctl(["init", "--quiet"], in: repo.url)
            #expect(made.status == 0, "\(made)")
            return (try repo.directory.read("relctl.toml"), repo.url.lastPathComponent)
        }
        let trpc = try named("{\"name\": \"root\", \"private\": true, \"workspaces\": [\"packages/*\"]}\n")
        #expect(trpc.config.contains("name = \"\(trpc.folder)\"\n"), "\(trpc.config)")
        let lerna = try named("{\"name\": \"lerna-monorepo\", \"private\": true, \"workspaces\": [\"packages/*\"]}\n")
        #expect(lerna.config.contains("name = \"lerna\"\n"), "\(lerna.config)")
        let biome = try named("{\"name\": \"@biomejs/monorepo\", \"private\": true}\n")
        #expect(biome.config.contains("name = \"\(biome.folder)\"\n"), "\(biome.config)")
        let published = try named("{\"name\": \"root\", \"version\": \"11.1.0\"}\n")
        #expect(published.config.contains("name = \"root\"\n"), "\(published.config)")
    }
}
