import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject
@testable import RelctlRelease

@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct CommitClassifierTests {
    func record(_ n: Int, _ subject: String) -> GitCommitRecord {
        GitCommitRecord(
            hash: String(repeating: String(n), count: 40), parents: ["p"], authorName: "A", authorEmail: "a@x", time: n,
            subject: subject, body: "")
    }

    @Test func ungroupedTypesGoToOtherChangesButHousekeepingIsLeftOut() {
        let commits = [
            record(4, "chore: bump deps"), record(3, "security: rotate keys"), record(2, "Notes: new parser"),
            record(1, "feat: add x"),
        ]
        let sections = CommitClassifier(settings: NotesSettings()).sections(for: commits)
        #expect(sections.map(\.title) == ["Features", "Other changes"])
        #expect(sections[1].entries.map(\.summary) == ["new parser", "rotate keys"])
        #expect(!sections.flatMap(\.entries).contains { $0.type == "chore" })
        var dropOther = NotesSettings()
        dropOther.includeOther = false
        #expect(CommitClassifier(settings: dropOther).sections(for: commits).map(\.title) == ["Features"])
    }

    @Test func aReapplyRevertsTheRevertSoTheOriginalChangeStays() {
        // What git 2.43+ writes when a revert is reverted.
        let original = record(1, "feat: add x")
        var revert = record(2, "Revert \"feat: add x\"")
        revert.body = "This reverts commit \(original.hash)."
        var reapply = record(3, "Reapply \"feat: add x\"")
        reapply.body = "This reverts commit \(revert.hash)."
        let sections = CommitClassifier(settings: NotesSettings()).sections(for: [reapply, revert, original])
        #expect(sections.map(\.title) == ["Features"])
        #expect(sections.flatMap(\.entries).map(\.commit) == [original.hash])
    }
}
