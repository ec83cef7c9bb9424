import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// `relctl release --pending` and `relctl release TAG` in a `[workspace]` (the contract's
/// "Monorepos", issue 42): every pending member released through the normal pipeline, all tagged
/// or none, the tags pushed together; driven on generated repositories with a bare remote.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct WorkspaceReleaseCLITests {
    static func cargo(_ name: String, _ version: String) -> String {
        "[package]\nname = \"\(name)\"\nversion = \"\(version)\"\n"
    }

    /// Two crates and a chart, each released once and pushed; then core gains a feature and the
    /// chart a fix, and the release commit (what `bump --write` writes) holds both new versions.
    static func mergedReleaseCommit(coreConfig: String? = nil) throws -> (GitRepository, TemporaryDirectory) {
        let repository = try GitRepository()
        var files = [
            "relctl.toml": "[workspace]\nmembers = [\"crates/*\", \"charts/ms\"]\n",
            ".gitignore": "dist/\n",
            "crates/core/Cargo.toml": cargo("core", "1.0.0"),
            "crates/cli/Cargo.toml": cargo("cli", "0.3.0"),
            "charts/ms/Chart.yaml": "apiVersion: v2\nname: ms\nversion: 3.13.1\nappVersion: \"0.9.0\"\n",
        ]
        if let coreConfig { files["crates/core/relctl.toml"] = coreConfig }
        try repository.commit("chore: start", files: files)
        for tag in ["core-v1.0.0", "cli-v0.3.0", "ms-v3.13.1"] { try repository.git("tag", "-a", tag, "-m", tag) }
        let remote = try repository.addBareRemote()
        try repository.git("push", "-q", "origin", "main", "--tags")
        try repository.commit("feat: core learns a trick", files: ["crates/core/src/lib.rs": "pub fn trick() {}\n"])
        try repository.commit("fix: the chart's replicas", files: ["charts/ms/values.yaml": "replicas: 2\n"])
        try repository.commit("docs: the top readme", files: ["README.md": "# a monorepo\n"])
        let bumped = try relctl(["bump", "--write"], in: repository.url)
        try #require(bumped.status == 0, "\(bumped)")
        #expect(bumped.stdout == "ms 3.13.2\ncore 1.1.0\n", "\(bumped)")
        try repository.commit("chore: release core-v1.1.0, ms-v3.13.2")
        return (repository, remote)
    }

    /// The tags of the repository (or bare remote) at `path`.
    static func tags(_ path: String) throws -> Set<String> {
        Set(try run("git", ["-C", path, "tag", "--list"]).stdout.split(separator: "\n").map(String.init))
    }

    static let before: Set<String> = ["core-v1.0.0", "cli-v0.3.0", "ms-v3.13.1"]

    @Test func pendingMembersAreReleasedWithTheirOwnNotesAndTheirTagsPushedTogether() throws {
        let (repository, remote) = try Self.mergedReleaseCommit()

        let dry = try relctl(["release", "--pending", "--dry-run", "--push"], in: repository.url)
        #expect(dry.status == 0, "\(dry)")
        #expect(dry.stderr.contains("pending: ms-v3.13.2") && dry.stderr.contains("pending: core-v1.1.0"), "\(dry)")
        #expect(try Self.tags(repository.url.path) == Self.before, "a dry run tags nothing")

        let real = try relctl(["release", "--pending", "--push"], in: repository.url)
        #expect(real.status == 0, "\(real)")
        let released = Self.before.union(["core-v1.1.0", "ms-v3.13.2"])
        #expect(try Self.tags(repository.url.path) == released, "\(real)")
        #expect(try Self.tags(remote.path) == released, "\(real)")
        #expect(real.stderr.contains("pushed ms-v3.13.2, core-v1.1.0 to origin in one atomic push"), "\(real)")

        // Each member's notes hold its own changes only (pydantic-core's notes counted pydantic's).
        let coreNotes = try repository.directory.read("crates/core/dist/RELEASE_NOTES.md")
        #expect(coreNotes.contains("core learns a trick") && !coreNotes.contains("replicas"), "\(coreNotes)")
        let chartNotes = try repository.directory.read("charts/ms/dist/RELEASE_NOTES.md")
        #expect(chartNotes.contains("replicas") && !chartNotes.contains("trick"), "\(chartNotes)")
        #expect(!repository.directory.exists("crates/cli/dist"), "cli had nothing pending")

        // Releasing the merge again finds nothing: state comes from git only.
        let again = try relctl(["release", "--pending", "--push"], in: repository.url)
        #expect(again.status == 0 && again.stderr.contains("nothing pending"), "\(again)")
        #expect(try Self.tags(remote.path) == released)
    }

    /// A member with its own relctl.toml is built and packaged as a single project would be, in
    /// its folder, its archives named once by the member (`core-1.1.0-…`, not `core-core-v1.1.0-…`).
    @Test func aMemberWithItsOwnConfigurationBuildsItsArchivesInItsFolder() throws {
        let build =
            #"mkdir -p out/{target} && printf '#!/bin/sh\necho hello {version}\n' > out/{target}/hello && chmod +x out/{target}/hello"#
        let (repository, remote) = try Self.mergedReleaseCommit(
            coreConfig: """
                [project]
                name = "core"

                [build]
                command = '''\(build)'''
                binaries = ["hello"]
                binary-dir = "out/{target}"

                [[target]]
                triple = "x86_64-unknown-linux-gnu"

                """)
        try repository.directory.write(".gitignore", "dist/\nout/\n")
        try repository.commit("chore: ignore the build output")
        let released = try relctl(["release", "--pending", "--push"], in: repository.url)
        #expect(released.status == 0, "\(released)")
        let archive = "core-1.1.0-x86_64-unknown-linux-gnu.tar.gz"
        #expect(repository.directory.exists("crates/core/dist/" + archive), "\(released)")
        #expect(try repository.directory.read("crates/core/dist/SHA256SUMS").contains("  \(archive)\n"))
        #expect(
            try run("sha256sum", ["-c", "SHA256SUMS"], in: repository.url.appendingPathComponent("crates/core/dist"))
                .status == 0)
        let listing = try run("tar", ["-tzf", "crates/core/dist/" + archive], in: repository.url)
        #expect(listing.stdout.contains("core-1.1.0-x86_64-unknown-linux-gnu/bin/hello\n"), "\(listing)")
        #expect(!repository.directory.exists("charts/ms/dist/SHA256SUMS"), "the chart member has no targets")
        #expect(try Self.tags(remote.path) == Self.before.union(["core-v1.1.0", "ms-v3.13.2"]))
    }

    /// A member is released after the members it depends on (its requirement names their new
    /// versions), though its path comes first.
    @Test func membersAreReleasedAfterTheMembersTheyDependOn() throws {
        let repository = try GitRepository()
        try repository.commit(
            "chore: start",
            files: [
                "relctl.toml": "[workspace]\nmembers = [\"crates/*\"]\n",
                ".gitignore": "dist/\n",
                "crates/core/Cargo.toml": Self.cargo("core", "1.0.0"),
                "crates/app/Cargo.toml": Self.cargo("app", "0.1.0")
                    + "\n[dependencies]\ncore = { path = \"../core\", version = \"1.0\" }\n",
            ])
        try repository.git("tag", "-a", "core-v1.0.0", "-m", "core")
        try repository.git("tag", "-a", "app-v0.1.0", "-m", "app")
        try repository.commit("feat: core learns a trick", files: ["crates/core/src/lib.rs": "pub fn trick() {}\n"])
        let bumped = try relctl(["bump", "--write"], in: repository.url)
        try #require(bumped.status == 0 && bumped.stdout == "app 0.1.1\ncore 1.1.0\n", "\(bumped)")
        try repository.commit("chore: release app-v0.1.1, core-v1.1.0")
        let released = try relctl(["release", "--pending"], in: repository.url)
        #expect(released.status == 0, "\(released)")
        let pending = released.stderr.split(separator: "\n").filter { $0.hasPrefix("pending: ") }
        #expect(
            pending.map { String($0.split(separator: " ")[1]) } == ["core-v1.1.0", "app-v0.1.1"], "\(released)")
        #expect(try Self.tags(repository.url.path).isSuperset(of: ["core-v1.1.0", "app-v0.1.1"]))
    }

    @Test func aMemberThatFailsTakesBackTheTagsOfTheMembersBeforeIt() throws {
        // core is released last (members go by path); its before-hook fails after ms is tagged.
        let (repository, remote) = try Self.mergedReleaseCommit(
            coreConfig: "[project]\nname = \"core\"\n\n[release]\nbefore = [\"echo core refuses >&2; exit 3\"]\n")
        let failed = try relctl(["release", "--pending", "--push"], in: repository.url)
        #expect(failed.status == 1, "\(failed)")
        #expect(failed.stderr.contains("core refuses"), "\(failed)")
        #expect(failed.stderr.contains("core (core-v1.1.0) failed"), "ms says why it was held back: \(failed)")
        #expect(try Self.tags(repository.url.path) == Self.before, "ms's tag is taken back: \(failed)")
        #expect(try Self.tags(remote.path) == Self.before, "nothing pushed: \(failed)")
        #expect(!repository.directory.exists("charts/ms/dist/RELEASE_NOTES.md"), "no dist files of a tag taken back")
        #expect(try repository.git("status", "--porcelain").isEmpty)
    }

    @Test func aRefusedPushLeavesNoTagHereOrThere() throws {
        let (repository, remote) = try Self.mergedReleaseCommit()
        // The remote refuses core's tags (a protected-tag rule): the atomic push sends neither.
        let hook = remote.url.appendingPathComponent("hooks/pre-receive")
        try
            "#!/bin/sh\nwhile read old new ref; do case \"$ref\" in refs/tags/core-*) echo \"core tags are protected\" >&2; exit 1;; esac; done\n"
            .write(to: hook, atomically: true, encoding: .utf8)
        _ = try run("chmod", ["+x", hook.path])
        let refused = try relctl(["release", "--pending", "--push"], in: repository.url)
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("refused the push of ms-v3.13.2, core-v1.1.0"), "\(refused)")
        #expect(try Self.tags(repository.url.path) == Self.before, "\(refused)")
        #expect(try Self.tags(remote.path) == Self.before, "\(refused)")
    }

    @Test func aMembersTagAtTheRootReleasesThatMemberOnly() throws {
        let (repository, _) = try Self.mergedReleaseCommit()
        let released = try relctl(["release", "core-v1.1.0"], in: repository.url)
        #expect(released.status == 0, "\(released)")
        #expect(try Self.tags(repository.url.path) == Self.before.union(["core-v1.1.0"]), "\(released)")
        #expect(try repository.directory.read("crates/core/dist/RELEASE_NOTES.md").contains("core learns a trick"))

        let unknown = try relctl(["release", "v1.1.0"], in: repository.url)
        #expect(unknown.status == 2, "\(unknown)")
        #expect(unknown.stderr.contains("`v1.1.0` is no release of a workspace member"), "\(unknown)")
        #expect(unknown.stderr.contains("core-v1.2.0") || unknown.stderr.contains("cli-v1.2.0"), "\(unknown)")

        // Then --pending releases what is left: the chart.
        let rest = try relctl(["release", "--pending"], in: repository.url)
        #expect(rest.status == 0 && !rest.stderr.contains("pending: core"), "\(rest)")
        #expect(try Self.tags(repository.url.path) == Self.before.union(["core-v1.1.0", "ms-v3.13.2"]), "\(rest)")
    }
}
