import Foundation
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject
@testable import RelctlRelease

/// How relctl reads a changelog before editing it: which lines are release headings, what their
/// style is, and that an edit keeps every line it did not write, on shapes the CLI tests do not cover.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct ChangelogDocumentTests {
    static func notes(_ version: String?, compare: Bool = false) throws -> ReleaseNotes {
        let entry = NotesEntry(
            commit: "0123456789abcdef", type: "fix", scope: nil, summary: "a fix", breaking: false,
            migrationNote: nil, authorName: "A", authorEmail: "a@example.com")
        return ReleaseNotes(
            tag: version.map { "v" + $0 }, version: try version.map { try SemanticVersion(parsing: $0) },
            previous: "v1.0.0", date: "2026-01-02", targetCommit: "0123456789abcdef",
            sections: [NotesSection(title: "Bug fixes", entries: [entry])], contributors: [],
            links: compare ? RepositoryLinks(remoteURL: "https://github.com/acme/widget.git") : nil, manifest: nil)
    }

    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test func versionsInHeadings() {
        let cases: [(String, String?)] = [
            ("1.2.0", "1.2.0"), ("v1.2.0", "1.2.0"), ("[1.2.0] - 2026-01-02", "1.2.0"), ("Version 8.5.0", "8.5.0"),
            ("[v2.0.0-rc.1](https://x/compare/a...b)", "2.0.0-rc.1"), ("25.07 (2025-07-15)", "25.7.0"),
            ("2026.07.22", "2026.7.22"), ("Python 3.12 support", nil), ("1.2.0beta", nil), ("Unreleased", nil),
            ("Highlights", nil), ("Release 10 notes", nil), ("Release 1.4.0", "1.4.0"), ("fd 8.0.0", nil),
            // PEP 440 spellings (pydantic's HISTORY.md), issue 40.
            ("v2.14.0b1 (2026-08-06)", "2.14.0-beta.1"), ("2.0rc1", "2.0.0-rc.1"), ("[1.0.post1]", "1.0.0+post.1"),
            ("1.4.0.dev2 - 2026-01-02", "1.4.0-dev.2"), ("1.2.0b1x", nil),
        ]
        for (text, expected) in cases {
            #expect(ChangelogHeading.versionMatch(in: text)?.version.description == expected, "\(text)")
        }
    }

    @Test func headingsOutsideCodeAndComments() {
        let text = """
            Title
            =====

            Some text
            over two lines
            --------------

            - a list item
            ---

            ```sh
            # 9.9.9 not a heading
            ```

            ~~~
            ## 9.9.8
            ~~~

            <!--
            ## 9.9.7
            -->

                ## indented code

            ## 1.0.0 ##
            """
        let document = ChangelogDocument(lines: Self.lines(text))
        #expect(document.headings.map(\.text) == ["Title", "Some text over two lines", "1.0.0"])
        #expect(document.headings.map(\.level) == [1, 2, 2])
        #expect(document.headings[1].line == 3 && document.headings[1].lineCount == 3)
        #expect(document.releaseHeadings.map(\.text) == ["1.0.0"])
    }

    @Test func aSubsectionNamingAVersionIsNotARelease() throws {
        let text = "# Changelog\n\n## 1.1.0\n\n### 1.0.0 migration\n\n- x\n\n## 1.0.0\n\n- y\n"
        let edit = try Changelog.insert(Self.notes("1.2.0"), into: text, displayPath: "CHANGELOG.md")
        #expect(edit.text.contains("## 1.2.0\n\n### Bug fixes\n"), "undated, like the file's releases")
        #expect(edit.text.range(of: "## 1.2.0")!.lowerBound < edit.text.range(of: "## 1.1.0")!.lowerBound)
    }

    @Test func forcedReplacementStopsAtTheLinkDefinitions() throws {
        let text = """
            # Changelog

            ## [1.2.0] - 2026-01-01

            Hand-written.

            [1.2.0]: https://example.com/1.2.0
            [1.1.0]: https://example.com/1.1.0
            """
        #expect(throws: NotesError.self) {
            try Changelog.insert(Self.notes("1.2.0"), into: text, displayPath: "CHANGELOG.md")
        }
        let forced = try Changelog.insert(Self.notes("1.2.0"), into: text, force: true, displayPath: "CHANGELOG.md")
        #expect(!forced.text.contains("Hand-written"))
        #expect(
            forced.text.hasSuffix("-->\n\n[1.2.0]: https://example.com/1.2.0\n[1.1.0]: https://example.com/1.1.0"),
            "\(forced.text)")
    }

    @Test func releasesOlderThanTheNewestGoBelowNewerOnes() throws {
        let text = "## 2.0.0\n\n- new\n\n## 1.0.0\n\n- old\n"
        let edit = try Changelog.insert(Self.notes("1.1.0"), into: text, displayPath: "CHANGELOG.md")
        let order = ["## 2.0.0", "## 1.1.0", "## 1.0.0"].map { edit.text.range(of: $0)!.lowerBound }
        #expect(order == order.sorted(), "\(edit.text)")
    }

    @Test func dateForms() {
        let forms: [(String, String)] = [
            ("(2025-12-06)", "2026-01-02"), ("2025/12/06", "2026/01/02"), ("6th December, 2024", "2nd January, 2026"),
            ("21 March 2024", "2 January 2026"), ("December 6, 2024", "January 2, 2026"),
            ("December 6th, 2024", "January 2nd, 2026"),
        ]
        for (text, expected) in forms {
            let found = ChangelogDateForm.find(in: Substring(text))
            #expect(found?.form.render("2026-01-02") == expected, "\(text)")
        }
        #expect(ChangelogDateForm.ordinalSuffix(11) == "th" && ChangelogDateForm.ordinalSuffix(23) == "rd")
    }
}
