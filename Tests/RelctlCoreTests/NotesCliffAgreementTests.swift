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

/// The feat/fix/breaking categorisation agrees with git-cliff's on the same range, except for
/// revert pairs (git-cliff keeps them; we drop both on purpose).
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct NotesCliffAgreementTests {
    @Test func agreesWithGitCliffContext() async throws {
        let fixture = try NotesFixture.make()
        // `run` fails the test, naming git-cliff and install-deps, when it is not installed.
        let cliff = try run("git-cliff", ["--context", "--no-exec", "v0.1.0..v0.2.0"], in: fixture.url)
        #expect(cliff.status == 0, "\(cliff)")
        let releases = try #require(try JSONSerialization.jsonObject(with: Data(cliff.stdout.utf8)) as? [[String: Any]])
        let cliffCommits = releases.flatMap { ($0["commits"] as? [[String: Any]]) ?? [] }
        #expect(!cliffCommits.isEmpty)
        let notes = try await ReleaseNotesBuilder(context: Context(workingDirectory: fixture.url))
            .build(config: .defaults(root: fixture.url), tag: "v0.2.0")
        let ours = Dictionary(notes.entries.map { ($0.commit, $0) }, uniquingKeysWith: { a, _ in a })
        let revertPairs = Set(["temporary", "gitRevert", "oops", "conventionalRevert"].map { fixture.hashes[$0]! })
        var compared = 0
        for commit in cliffCommits {
            guard let id = commit["id"] as? String, commit["conventional"] as? Bool == true, !revertPairs.contains(id)
            else { continue }
            let group = commit["group"] as? String ?? ""
            let cliffBreaking = commit["breaking"] as? Bool ?? false
            let cliffFeat = group.contains("Features"), cliffFix = group.contains("Bug Fixes")
            guard cliffFeat || cliffFix || cliffBreaking else { continue }
            let entry = try #require(ours[id], "git-cliff lists \(id) (\(group)), relctl does not")
            #expect(entry.breaking == cliffBreaking, "breaking differs for \(id)")
            #expect((entry.type == "feat") == cliffFeat, "feat differs for \(id)")
            #expect((entry.type == "fix") == cliffFix, "fix differs for \(id)")
            compared += 1
        }
        for entry in notes.entries where entry.breaking || entry.type == "feat" || entry.type == "fix" {
            #expect(
                cliffCommits.contains { $0["id"] as? String == entry.commit },
                "relctl lists \(entry.commit), git-cliff does not")
        }
        #expect(compared >= 6)
    }
}
