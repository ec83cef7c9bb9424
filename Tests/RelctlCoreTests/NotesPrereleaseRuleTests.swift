import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject
@testable import RelctlRelease

/// The prerelease-skip rule and contributor merging, on histories shaped like real projects.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct NotesPrereleaseRuleTests {
    func notes(_ repo: GitRepository, tag: String?) async throws -> ReleaseNotes {
        try await ReleaseNotesBuilder(context: Context(workingDirectory: repo.url)).build(
            config: RelctlConfig.defaults(root: repo.url), tag: tag)
    }

    @Test func firstFinalAfterUnrelatedPrereleasesStartsAtTheLastOfThem() async throws {
        // velostream: v0.0.1-test … v0.0.1-test.9, then v0.1.0.
        let repo = try GitRepository()
        try repo.commit("chore: start")
        try repo.git("tag", "v0.0.1-test")
        try repo.commit("fix: a")
        try repo.git("tag", "v0.0.1-test.9")
        let since = try repo.commit("feat: since the test tags")
        try repo.git("tag", "v0.1.0-rc.1")
        let after = try repo.commit("fix: after the rc")
        let final = try await notes(repo, tag: "v0.1.0")
        #expect(final.previous == "v0.0.1-test.9", "prereleases of other versions are real bounds")
        #expect(
            Set(final.entries.map(\.commit)) == [since, after],
            "its own rc is skipped, so the notes cover the whole 0.1.0 cycle")
    }

    @Test func contributorsAreMergedByNameAfterMailmap() async throws {
        let repo = try GitRepository()
        try repo.commit("chore: start")
        try repo.git("tag", "v1.0.0")
        try repo.git(["commit", "-q", "--allow-empty", "-m", "fix: one", "--author", "Ada Lovelace <ada@work.example>"])
        try repo.git(["commit", "-q", "--allow-empty", "-m", "fix: two", "--author", "Ada Lovelace <ada@home.example>"])
        try repo.git([
            "commit", "-q", "--allow-empty", "-m", "fix: three", "--author", "ada <12345+ada@users.noreply.github.com>",
        ])
        try repo.directory.write(
            ".mailmap", "Ada Lovelace <ada@work.example> ada <12345+ada@users.noreply.github.com>\n")
        try repo.commit("docs: mailmap")
        let result = try await notes(repo, tag: "v1.1.0")
        #expect(
            result.contributors.filter { $0.name == "Ada Lovelace" } == [
                NotesContributor(name: "Ada Lovelace", email: "ada@work.example")
            ],
            "\(result.contributors)")
        #expect(result.contributors.count == 2)
    }

    @Test func noBoundIsSaidOutLoud() throws {
        let repo = try GitRepository()
        try repo.commit("feat: one")
        try repo.commit("fix: two")
        let result = try relctl(["notes", "--tag", "v0.1.0"], in: repo.url)
        #expect(
            result.status == 0 && result.stderr.contains("so the notes cover the whole history (2 commits)"),
            "\(result)")
        try repo.git("tag", "v0.1.0")
        try repo.commit("fix: three")
        #expect(!(try relctl(["notes", "--tag", "v0.2.0"], in: repo.url)).stderr.contains("whole history"))
    }
}
