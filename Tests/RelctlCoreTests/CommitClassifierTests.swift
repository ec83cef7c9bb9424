import Testing
@testable import RelctlCore

@Suite struct CommitClassifierTests {
    func record(_ n: Int, _ subject: String) -> GitCommitRecord {
        GitCommitRecord(hash: String(repeating: String(n), count: 40), parents: ["p"], authorName: "A", authorEmail: "a@x", time: n, subject: subject, body: "")
    }

    @Test func ungroupedTypesGoToOtherChangesButHousekeepingIsLeftOut() {
        let commits = [record(4, "chore: bump deps"), record(3, "security: rotate keys"), record(2, "Notes: new parser"), record(1, "feat: add x")]
        let sections = CommitClassifier(settings: NotesSettings()).sections(for: commits)
        #expect(sections.map(\.title) == ["Features", "Other changes"])
        #expect(sections[1].entries.map(\.summary) == ["new parser", "rotate keys"])
        #expect(!sections.flatMap(\.entries).contains { $0.type == "chore" })
        var dropOther = NotesSettings()
        dropOther.includeOther = false
        #expect(CommitClassifier(settings: dropOther).sections(for: commits).map(\.title) == ["Features"])
    }
}
