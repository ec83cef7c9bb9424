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

    /// zap's `release v1.28.0 (#1547)` and hyper's `v1.11.0` listed under Other changes of the
    /// release they make (the second out-of-sample round): a release commit is no change.
    @Test func aReleaseCommitIsNoChange() {
        for subject in [
            "release v1.28.0 (#1547)", "v1.11.0", "Release 2.0.0-rc.1", "Bump version to 1.2.3",
            "Prepare for release v0.3.0", "exp: Release v0.3.0", "1.4.2",
        ] {
            #expect(CommitClassifier.namesARelease(subject) || subject.hasPrefix("exp:"), "\(subject)")
            let sections = CommitClassifier(settings: NotesSettings()).sections(for: [record(1, subject)])
            #expect(sections.isEmpty, "\(subject): \(sections)")
        }
        for subject in [
            "Bump golang.org/x/net to 0.17.0", "Release notes for 1.2.3 are wrong", "Support Go 1.22",
            "Update 1.2", "release: add arm64 builds", "fix v1.2.3 regression",
        ] {
            #expect(!CommitClassifier.namesARelease(subject), "\(subject)")
        }
        let kept = CommitClassifier(settings: NotesSettings()).sections(for: [record(1, "Bump golang.org/x/net to 0.17.0")])
        #expect(kept.flatMap(\.entries).map(\.summary) == ["Bump golang.org/x/net to 0.17.0"])
    }

    /// apollo-client's `Revert "Version Packages" (#13172)`, squash-merged from GitHub's revert
    /// button: its body cites the pull request (`Reverts apollographql/apollo-client#13152`), not
    /// a commit. The pair cancels; a `Reverts` line naming a request outside the range cancels nothing.
    @Test func aSquashMergedRevertCitingAPullRequestCancelsIt() {
        var revert = record(3, "Revert \"feat: version packages\" (#13172)")
        revert.body = "Reverts apollographql/apollo-client#13152"
        let commits = [revert, record(2, "feat: version packages (#13152)"), record(1, "fix: kept (#13100)")]
        let sections = CommitClassifier(settings: NotesSettings()).sections(for: commits)
        #expect(sections.flatMap(\.entries).map(\.summary) == ["kept (#13100)"], "\(sections)")
        var bump = BumpCollector()
        for commit in commits { bump.add(commit) }
        #expect(bump.finish().level == .patch, "the reverted feat raises nothing")

        var elsewhere = record(3, "Revert \"feat: older\" (#13173)")
        elsewhere.body = "Reverts #12000"
        let kept = CommitClassifier(settings: NotesSettings()).sections(for: [elsewhere, record(2, "feat: new (#13152)")])
        #expect(kept.flatMap(\.entries).count == 2, "\(kept)")
    }

    /// nats.go's subjects: `[ADDED] …` is a feat, `[FIXED] …` a fix, `[BREAKING] …` breaking;
    /// `[IMPROVED]` and `[skip ci]` name no type.
    @Test func aBracketedChangeTypeIsRead() {
        #expect(ConventionalCommit(subject: "[ADDED] AllowMsgSchedules field (#1942)", body: "")?.type == "feat")
        #expect(ConventionalCommit(subject: "[FIXED] omitempty on AllowMsgTTL", body: "")?.type == "fix")
        #expect(ConventionalCommit(subject: "[Breaking] drop Go 1.20", body: "")?.isBreaking == true)
        #expect(ConventionalCommit(subject: "[IMPROVED] subject validation", body: "") == nil)
        #expect(ConventionalCommit(subject: "[skip ci] docs", body: "") == nil)
        #expect(ConventionalCommit(subject: "[ADDED]", body: "") == nil)
        var bump = BumpCollector()
        bump.add(record(2, "[ADDED] KV sources"))
        bump.add(record(1, "[FIXED] a leak"))
        #expect(bump.finish().level == .minor)
        let sections = CommitClassifier(settings: NotesSettings()).sections(for: [record(1, "[ADDED] KV sources")])
        #expect(sections.map(\.title) == ["Features"] && sections[0].entries.map(\.summary) == ["KV sources"])
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
    /// tflint's history: 207 of its 243 "typed" subjects were dependabot's `build(deps): Bump …`,
    /// and its people write Go's area prefixes (`config: add …`, `plugin: fetch …`), which parse
    /// as types but name none. Neither says the history is typed; an area-prefixed subject adding
    /// something is an untyped adding subject.
    @Test func dependencyBotsAndAreaPrefixesDoNotMakeAHistoryTyped() {
        var bump = BumpCollector()
        let subjects = [
            "build(deps): Bump google.golang.org/grpc from 1.81.1 to 1.82.0 (#2587)",
            "chore(deps-dev): update eslint to v9",
            "Bump actions/checkout from 6.0.2 to 6.0.3 (#2565)",
            "Update module golang.org/x/net to v0.30.0",
            "config: add ignorable rule setting (#2525)",
            "plugin: fetch attestation bundles from bundle_url (#2600)",
            "fix(install): close download and zip readers (#2564)",
        ]
        for (index, subject) in subjects.enumerated() { bump.add(record(index + 1, subject)) }
        #expect(bump.dependencyUpdates == 4)
        // Typed: the two `deps` subjects and `fix(install)`; less the two updates, 1 of 3 counted.
        #expect(bump.typed == 3)
        #expect(bump.mostlyUntyped(count: 7))
        #expect(bump.addingCommit()?.subject == "config: add ignorable rule setting (#2525)")
        #expect(bump.finish().level == .patch)
        // A scope, a `!` or a known type keeps a prefix a type.
        var typed = BumpCollector()
        for (index, subject) in ["feat(cli): add a flag", "docs: a typo", "api!: drop v1"].enumerated() {
            typed.add(record(index + 1, subject))
        }
        #expect(typed.typed == 3 && !typed.mostlyUntyped(count: 3) && typed.finish().level == .major)
    }
}
