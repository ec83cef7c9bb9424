import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject
@testable import RelctlRelease

/// The examples from conventionalcommits.org/en/v1.0.0.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct ConventionalCommitTests {
    @Test func descriptionAndBreakingFooter() throws {
        let commit = try #require(
            ConventionalCommit(
                message: """
                    feat: allow provided config object to extend other configs

                    BREAKING CHANGE: `extends` key in config file is now used for extending other config files
                    """))
        #expect(commit.type == "feat")
        #expect(commit.scope == nil)
        #expect(commit.description == "allow provided config object to extend other configs")
        #expect(commit.body == nil)
        #expect(commit.isBreaking)
        #expect(commit.breakingNote == "`extends` key in config file is now used for extending other config files")
    }

    /// pypa/build writes an emoji before a conventional header (`⚠️ feat(util): …`, `🐛 fix(cli): …`):
    /// the header after it gives the type, scope and description; 💥 before one makes it breaking.
    @Test func aConventionalHeaderAfterAGitmojiGivesTheType() throws {
        let deprecation = try #require(ConventionalCommit(message: "\u{26A0}\u{FE0F} feat(util): deprecate x"))
        #expect(deprecation.type == "feat" && deprecation.scope == "util" && deprecation.description == "deprecate x")
        #expect(!deprecation.isBreaking)
        let dropped = try #require(ConventionalCommit(message: "\u{1F4DD} feat!: drop old api"))
        #expect(dropped.type == "feat" && dropped.isBreaking)
        let fix = try #require(ConventionalCommit(message: "\u{1F41B} fix(cli): show full chain"))
        #expect(fix.type == "fix" && fix.scope == "cli" && fix.description == "show full chain")
        let boom = try #require(ConventionalCommit(message: "\u{1F4A5} refactor: rename the option"))
        #expect(boom.type == "refactor" && boom.isBreaking)
        // Without a header after it, the emoji alone says the type, as before.
        let plain = try #require(ConventionalCommit(message: "\u{2728} Add support for forms"))
        #expect(plain.type == "feat" && plain.description == "Add support for forms")
        let word = try #require(ConventionalCommit(message: "\u{2728} Add: forms"))
        #expect(word.type == "feat" && word.description == "Add: forms")
        #expect(ConventionalCommit(message: "\u{1F9EA} add a test") == nil)
    }

    @Test func bangDrawsAttention() throws {
        let commit = try #require(
            ConventionalCommit(message: "feat!: send an email to the customer when a product is shipped"))
        #expect(commit.isBreaking && commit.hasBang && commit.breakingNote == nil)
        let scoped = try #require(
            ConventionalCommit(message: "feat(api)!: send an email to the customer when a product is shipped"))
        #expect(scoped.scope == "api" && scoped.isBreaking)
    }

    @Test func bangAndFooter() throws {
        let commit = try #require(
            ConventionalCommit(
                message: """
                    chore!: drop support for Node 6

                    BREAKING CHANGE: use JavaScript features not available in Node 6.
                    """))
        #expect(commit.type == "chore" && commit.hasBang)
        #expect(commit.breakingNote == "use JavaScript features not available in Node 6.")
    }

    /// octokit/core.js's squash body: the note is the second line of a paragraph, not its first;
    /// conventional-changelog reads it (released 7.0.0), and so does relctl. A line merely
    /// mentioning breaking changes is no note.
    @Test func aBreakingNoteInsideAParagraph() throws {
        let commit = try #require(
            ConventionalCommit(
                message: """
                    ci: stop testing against NodeJS v18 (#738)

                    * build(package): set minimal node version in engines field to v20
                    BREAKING CHANGE: Drop support for NodeJS v18

                    * build: set minimal node version in the tests
                    """))
        #expect(commit.isBreaking && commit.breakingNote?.hasPrefix("Drop support for NodeJS v18") == true)
        #expect(commit.body == "* build(package): set minimal node version in engines field to v20")
        let mention = try #require(
            ConventionalCommit(message: "fix: parse notes\n\nThe parser now reads\nBREAKING CHANGES in the body.\n"))
        #expect(!mention.isBreaking)
    }

    @Test func noBody() throws {
        let commit = try #require(ConventionalCommit(message: "docs: correct spelling of CHANGELOG"))
        #expect(commit.type == "docs" && !commit.isBreaking && commit.footers.isEmpty)
    }

    @Test func scope() throws {
        let commit = try #require(ConventionalCommit(message: "feat(lang): add Polish language"))
        #expect(commit.scope == "lang" && commit.description == "add Polish language")
    }

    @Test func multiParagraphBodyAndFooters() throws {
        let commit = try #require(
            ConventionalCommit(
                message: """
                    fix: prevent racing of requests

                    Introduce a request id and a reference to latest request. Dismiss
                    incoming responses other than from latest request.

                    Remove timeouts which were used to mitigate the racing issue but are
                    obsolete now.

                    Reviewed-by: Z
                    Refs: #123
                    """))
        #expect(commit.type == "fix")
        #expect(commit.body?.hasPrefix("Introduce a request id") == true)
        #expect(commit.body?.hasSuffix("obsolete now.") == true)
        #expect(
            commit.footers == [
                .init(token: "Reviewed-by", separator: ": ", value: "Z"),
                .init(token: "Refs", separator: ": ", value: "#123"),
            ])
        #expect(!commit.isBreaking)
    }

    @Test func revertExample() throws {
        let commit = try #require(
            ConventionalCommit(
                message: """
                    revert: let us never again speak of the noodle incident

                    Refs: 676104e, a215868
                    """))
        #expect(commit.type == "revert")
        #expect(commit.footers.first?.value == "676104e, a215868")
    }

    @Test func hashSeparatorAndSynonymAndMultilineValue() throws {
        let commit = try #require(
            ConventionalCommit(
                message: """
                    fix(io): close files

                    Closes #42
                    BREAKING-CHANGE: handles are no longer
                      reused between calls
                    """))
        #expect(commit.footers[0] == .init(token: "Closes", separator: " #", value: "42"))
        #expect(commit.breakingNote == "handles are no longer\n  reused between calls")
    }

    /// tokio's console wrote a commit with CRLF line ends whose `BREAKING CHANGE:` footer has its
    /// text on the next line (console-subscriber 0.3.0): `"\r\n"` is one Character, so the lines
    /// must be split at it as at `"\n"`, or the message is one line and the footer is lost.
    @Test func aMessageWithCRLFLineEndsHasTheSameFooters() throws {
        let lines = [
            "chore: bump tonic to 0.11 (#547)", "", "Bump the dependency.", "", "BREAKING CHANGE:",
            "This is a breaking change for users of console-api", "and console-subscriber.",
        ]
        let plain = try #require(ConventionalCommit(message: lines.joined(separator: "\n")))
        let crlf = try #require(ConventionalCommit(message: lines.joined(separator: "\r\n")))
        #expect(plain.isBreaking && crlf.isBreaking, "\(crlf)")
        #expect(crlf.body == "Bump the dependency.", "\(crlf)")
        #expect(crlf.breakingNote == plain.breakingNote && plain.breakingNote?.hasPrefix("This is a breaking") == true)
        let split = ConventionalCommit.parseBody(lines.dropFirst(2).joined(separator: "\r\n"))
        #expect(split.footers.map(\.token) == ["BREAKING CHANGE"], "\(split)")
    }

    @Test func typesAreCaseInsensitive() throws {
        #expect(ConventionalCommit(message: "FEAT: shout")?.type == "feat")
    }

    @Test(arguments: [
        "Update the README", "feat:no space", "feat: ", "feat(): empty scope", "(scope): no type",
        "Merge branch 'x'", "fix(unclosed: nope", "Revert \"feat: x\"", "WIP", "feat (x): space before scope",
    ])
    func nonConventional(_ subject: String) {
        #expect(ConventionalCommit(message: subject) == nil)
    }
}
