import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// `relctl plan` for a single project and `relctl release --pending` (PRODUCT "Monorepos" and
/// "Release pull requests"): the state a merged release request leaves is "the manifests hold a
/// version no tag names", and releasing it twice is a no-op. Driven on generated repositories
/// with a bare remote, as CI runs it after the merge.
@Suite("relctl plan and release --pending", .timeLimit(.minutes(30)), .removesTemporaries)
struct PendingReleaseCLITests {
    /// A tag-only project (no targets) released as 1.0.0, with a bare origin.
    static func project() throws -> (GitRepository, TemporaryDirectory) {
        let repository = try GitRepository()
        try repository.commit(
            "feat: first",
            files: [
                "Cargo.toml": "[package]\nname = \"demo\"\nversion = \"1.0.0\"\n",
                "relctl.toml": "[project]\nname = \"demo\"\n\n[[version]]\npath = \"Cargo.toml\"\n",
            ])
        try repository.git("tag", "-a", "v1.0.0", "-m", "demo v1.0.0")
        let remote = try repository.addBareRemote()
        try repository.git("push", "-q", "origin", "main", "v1.0.0")
        return (repository, remote)
    }

    static func plan(_ repository: GitRepository) throws -> MemberPlanDocument.Member {
        let (result, members) = try MemberPlanDocument.run(in: repository.url)
        try #require(result.status == 0, "\(result)")
        try #require(members.count == 1, "\(result.stdout)")
        // Every key is present, null when absent (the contract's JSON).
        for key in ["name", "path", "current", "next", "tag", "reason", "commits", "branch"] {
            #expect(result.stdout.contains("\"\(key)\""), "plan --json lacks \(key): \(result.stdout)")
        }
        return members[0]
    }

    @Test func aMergedReleaseIsTaggedOnceAndThenNothingIsPending() throws {
        let (repository, remote) = try Self.project()
        // Nothing changed since v1.0.0: nothing to plan, nothing pending.
        #expect(
            try Self.plan(repository)
                == .init(
                    name: "demo", path: ".", current: "1.0.0", next: nil, tag: nil, reason: "none", commits: 0,
                    branch: nil))
        let idle = try relctl(["release", "--pending", "--push"], in: repository.url)
        #expect(idle.status == 0 && idle.stderr.contains("nothing pending"), "\(idle)")

        // A feature lands: the plan raises the minor.
        try repository.commit("feat: a second command", files: ["src/b.rs": "fn b() {}\n"])
        let planned = try Self.plan(repository)
        #expect(planned.next == "1.1.0" && planned.tag == "v1.1.0" && planned.reason == "feat" && planned.commits == 1)
        #expect(try relctl(["release", "--pending"], in: repository.url).stderr.contains("nothing pending"))

        // The release request's commit (what `release-pr` writes and a maintainer merges).
        #expect(try relctl(["bump", "--write", "-q"], in: repository.url).status == 0)
        try repository.commit("chore: release v1.1.0")
        let merged = try repository.git("rev-parse", "HEAD")
        let dry = try relctl(["release", "--pending", "--dry-run", "--push"], in: repository.url)
        #expect(dry.status == 0, "\(dry)")
        #expect(try repository.git("tag", "--list", "v1.1.0").isEmpty, "a dry run tags nothing")

        let released = try relctl(["release", "--pending", "--push"], in: repository.url)
        #expect(released.status == 0, "\(released)")
        #expect(released.stderr.contains("pending: v1.1.0"), "\(released)")
        #expect(try repository.git("rev-parse", "v1.1.0^{commit}") == merged, "tagged on the merge commit")
        let remoteTags = try run("git", ["-C", remote.path, "tag", "--list"]).stdout
        #expect(remoteTags.split(separator: "\n").sorted() == ["v1.0.0", "v1.1.0"], "\(remoteTags)")

        // Twice is a no-op: no new tag, exit 0, one line saying why.
        let again = try relctl(["release", "--pending", "--push"], in: repository.url)
        #expect(again.status == 0 && again.stderr.contains("released as v1.1.0 already"), "\(again)")
        #expect(try repository.git("tag", "--list").split(separator: "\n").count == 2)
        let json = try relctl(["release", "--pending", "--json"], in: repository.url)
        #expect(json.status == 0 && json.stdout.contains("\"pending\" : false"), "\(json)")
    }

    @Test func aManifestBelowTheLatestReleaseIsNotPending() throws {
        let (repository, _) = try Self.project()
        try repository.git("tag", "-a", "v1.4.0", "-m", "demo v1.4.0")
        let result = try relctl(["release", "--pending"], in: repository.url)
        #expect(result.status == 0, "\(result)")
        // 1.0.0 is tagged already; the latest release is above it either way: never at or below it.
        #expect(result.stderr.contains("nothing pending"), "\(result)")
        try repository.commit(
            "chore: an edit back", files: ["Cargo.toml": "[package]\nname = \"demo\"\nversion = \"1.2.0\"\n"])
        let below = try relctl(["release", "--pending"], in: repository.url)
        #expect(below.status == 0 && below.stderr.contains("below the latest release v1.4.0"), "\(below)")
        #expect(try repository.git("tag", "--list", "v1.2.0").isEmpty)
    }

    @Test func usageAndInputErrorsAreNamed() throws {
        let (repository, _) = try Self.project()
        let both = try relctl(["release", "v1.1.0", "--pending"], in: repository.url)
        #expect(both.status == 64 && both.stderr.contains("give no TAG"), "\(both)")
        let neither = try relctl(["release"], in: repository.url)
        #expect(neither.status == 64 && neither.stderr.contains("or --pending"), "\(neither)")
        try repository.commit("chore: no manifest", files: ["relctl.toml": "[project]\nname = \"demo\"\n"])
        let noVersion = try relctl(["release", "--pending"], in: repository.url)
        #expect(
            noVersion.status == 2 && noVersion.stderr.contains("no [[version]] manifest holds a version"),
            "\(noVersion)")
    }
}
