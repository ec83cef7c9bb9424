import Foundation
import RelctlChanges
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

/// `notes --changelog` on the changelog shapes real projects keep (PRODUCT "Changelogs are edited,
/// never overwritten"): the section goes above the newest older release in the file's own heading
/// style, and every line relctl did not write stays.
@Suite(.timeLimit(.minutes(45)), .removesTemporaries) struct ChangelogCLITests {
    /// v0.2.0, then a feature, a fix and a `deps:` commit, tagged v0.3.0 (committed 2026-01-02).
    static func repository(remote: String? = nil) throws -> GitRepository {
        let repo = try GitRepository()
        try repo.commit("chore: start", files: ["README.md": "demo\n"])
        try repo.git("tag", "v0.2.0")
        try repo.commit("feat: add the --color flag", files: ["a.txt": "1\n"])
        try repo.commit("fix: keep symlinks", files: ["b.txt": "1\n"])
        try repo.commit("deps: bump regex to 1.11", files: ["c.txt": "1\n"])
        try repo.git("tag", "v0.3.0")
        if let remote { try repo.git("remote", "add", "origin", remote) }
        return repo
    }

    /// True when every line of `original` is still in `updated`, in the same order: nothing was
    /// deleted or rewritten.
    static func keepsEveryLine(_ original: String, in updated: String) -> Bool {
        var remaining = updated.replacingOccurrences(of: "\r\n", with: "\n").split(
            separator: "\n", omittingEmptySubsequences: false)[...]
        for line in original.replacingOccurrences(of: "\r\n", with: "\n").split(
            separator: "\n", omittingEmptySubsequences: false)
        {
            guard let found = remaining.firstIndex(of: line) else { return false }
            remaining = remaining[(found + 1)...]
        }
        return true
    }

    /// Runs `notes --tag v0.3.0 --changelog CHANGELOG.md` on `text` twice; returns the file after the first run.
    static func update(
        _ text: String, remote: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    )
        throws -> String
    {
        let repo = try repository(remote: remote)
        try repo.directory.write("CHANGELOG.md", text)
        let first = try relctl(["notes", "--tag", "v0.3.0", "--changelog", "CHANGELOG.md"], in: repo.url)
        #expect(first.status == 0, "\(first)", sourceLocation: sourceLocation)
        let updated = try repo.directory.read("CHANGELOG.md")
        #expect(keepsEveryLine(text, in: updated), "a line was lost:\n\(updated)", sourceLocation: sourceLocation)
        let second = try relctl(["notes", "--tag", "v0.3.0", "--changelog", "CHANGELOG.md"], in: repo.url)
        #expect(second.status == 0, "\(second)", sourceLocation: sourceLocation)
        #expect(
            try repo.directory.read("CHANGELOG.md") == updated, "a second run changes nothing",
            sourceLocation: sourceLocation)
        return updated
    }

    /// Issue 23 item 8 (fd): `# Unreleased` then `# 10.4.2` sections. The release went inside
    /// `# Unreleased` as `## 10.5.0`, leaving the unreleased entries under it.
    @Test func h1ChangelogGetsAnH1SectionAboveTheNewestRelease() throws {
        let original = """
            # Unreleased

            ## Features

            - Hand-written: a new `--hyperlink` option, see #1234

            ## Bugfixes

            - Hand-written fix


            # v0.2.0

            ## Features

            - Older feature

            """
        let repo = try Self.repository()
        try repo.directory.write("CHANGELOG.md", original)
        let run = try relctl(["notes", "--tag", "v0.3.0", "--changelog", "CHANGELOG.md"], in: repo.url)
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("CHANGELOG.md:1:") && run.stderr.contains("`Unreleased` was not written by relctl"))
        let updated = try repo.directory.read("CHANGELOG.md")
        #expect(Self.keepsEveryLine(original, in: updated))
        let lines = updated.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let release = try #require(lines.firstIndex(of: "# v0.3.0"), "undated as the file's headings:\n\(updated)")
        let handWritten = try #require(lines.firstIndex(of: "- Hand-written fix"))
        let older = try #require(lines.firstIndex(of: "# v0.2.0"))
        #expect(handWritten < release && release < older, "between Unreleased and the older release:\n\(updated)")
        #expect(
            lines[release...].prefix(while: { $0 != "# v0.2.0" }).contains("## Features"), "sections one level down")
        #expect(!updated.contains("### "), "no level-3 headings in an H1 changelog:\n\(updated)")
    }

    /// Issue 23 item 9 (commander.js): a hand-written `## [15.0.0]` with its Migration Tips was
    /// replaced by generated notes, exit 0.
    @Test func handWrittenSectionForTheSameReleaseIsRefusedUnlessForced() throws {
        let original = """
            # Changelog

            ## [0.3.0] (2026-01-02)

            ### Added

            - colour output

            ### Migration Tips

            Rename `--colour` to `--color` in your scripts.

            ## [0.2.0] (2025-12-01)

            - first

            [0.3.0]: https://github.com/acme/widget/compare/v0.2.0...v0.3.0
            [0.2.0]: https://github.com/acme/widget/releases/tag/v0.2.0

            """
        let repo = try Self.repository()
        try repo.directory.write("CHANGELOG.md", original)
        let refused = try relctl(["notes", "--tag", "v0.3.0", "--changelog", "CHANGELOG.md"], in: repo.url)
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("CHANGELOG.md:3:") && refused.stderr.contains("--force"), "\(refused)")
        #expect(try repo.directory.read("CHANGELOG.md") == original, "nothing written")

        let forced = try relctl(["notes", "--tag", "v0.3.0", "--changelog", "CHANGELOG.md", "--force"], in: repo.url)
        #expect(forced.status == 0, "\(forced)")
        let replaced = try repo.directory.read("CHANGELOG.md")
        #expect(!replaced.contains("Migration Tips") && replaced.contains("- add the --color flag ("), "\(replaced)")
        #expect(replaced.contains("## [0.2.0] (2025-12-01)\n\n- first\n\n[0.3.0]: "), "the rest stays:\n\(replaced)")

        // relctl's own section, edited by hand afterwards, is the user's now.
        let edited = replaced.replacingOccurrences(of: "- keep symlinks", with: "- keep symlinks (thanks, Ada!)")
        try repo.directory.write("CHANGELOG.md", edited)
        let again = try relctl(["notes", "--tag", "v0.3.0", "--changelog", "CHANGELOG.md"], in: repo.url)
        #expect(again.status == 1 && again.stderr.contains("CHANGELOG.md:3:"), "\(again)")
        #expect(try repo.directory.read("CHANGELOG.md") == edited)
    }

    /// An `Unreleased` section relctl wrote is replaced by the next run and removed by the release
    /// that ships it; a hand-written `[Unreleased]` is never touched.
    @Test func generatedUnreleasedSectionIsReplacedThenShipped() throws {
        let repo = try GitRepository()
        try repo.commit("chore: start")
        try repo.git("tag", "v0.2.0")
        try repo.commit("feat: one")
        let original = "# Changelog\n\nIntro.\n\n## 0.2.0 - 2025-12-01\n\n- first\n"
        try repo.directory.write("CHANGELOG.md", original)
        #expect(try relctl(["notes", "--changelog", "CHANGELOG.md"], in: repo.url).status == 0)
        let unreleased = try repo.directory.read("CHANGELOG.md")
        #expect(unreleased.contains("## Unreleased - 2026-01-02\n\n### Features\n\n- one ("), "\(unreleased)")
        try repo.commit("fix: two")
        #expect(try relctl(["notes", "--changelog", "CHANGELOG.md"], in: repo.url).status == 0)
        let twice = try repo.directory.read("CHANGELOG.md")
        #expect(twice.components(separatedBy: "## Unreleased").count == 2 && twice.contains("- two ("), "\(twice)")
        try repo.git("tag", "v0.3.0")
        #expect(try relctl(["notes", "--tag", "v0.3.0", "--changelog", "CHANGELOG.md"], in: repo.url).status == 0)
        let released = try repo.directory.read("CHANGELOG.md")
        #expect(!released.contains("Unreleased") && released.contains("## 0.3.0 - 2026-01-02\n"), "\(released)")
        #expect(
            released.hasPrefix("# Changelog\n\nIntro.\n\n## 0.3.0")
                && released.hasSuffix("## 0.2.0 - 2025-12-01\n\n- first\n"))
        #expect(Self.keepsEveryLine(original, in: released))
    }

    /// Issue 23 item 15: the heading follows the file's newest release heading.
    @Test func headingFollowsTheFileStyle() throws {
        let remote = "https://github.com/acme/widget.git"
        let compare = "https://github.com/acme/widget/compare/v0.2.0...v0.3.0"
        let shapes: [(String, String, String)] = [
            // (file, expected new heading, expected text after the section or elsewhere)
            (
                "# Changelog\n\n## [Unreleased]\n\n## [0.2.0] - 2025-12-01\n\n- a\n\n[Unreleased]: https://github.com/acme/widget/compare/v0.2.0...HEAD\n[0.2.0]: https://github.com/acme/widget/releases/tag/v0.2.0\n",
                "## [0.3.0] - 2026-01-02",
                "[Unreleased]: https://github.com/acme/widget/compare/v0.2.0...HEAD\n[0.3.0]: \(compare)\n[0.2.0]: "
            ),
            // `[0.2.0]` with no link definitions: the file does not link versions, so none is added
            // (issue 40); ReleaseShapesCLITests checks that no `[0.3.0]:` line appears.
            (
                "# Changelog\n\n## [0.2.0] (2025-12-01)\n\n- a\n", "## [0.3.0] (2026-01-02)",
                "\n## [0.2.0] (2025-12-01)\n\n- a\n"
            ),
            ("# v0.2.0\n\n## Features\n\n- a\n", "# v0.3.0", "# v0.3.0\n\n## Features\n"),
            ("# Changes\n\n## v0.2.0 (2025-12-01)\n\n- a\n", "## v0.3.0 (2026-01-02)", "### Features"),
            (
                "0.2.0 (2025-12-01)\n==================\nText.\n", "0.3.0 (2026-01-02)\n==================",
                "## Features"
            ),
            ("CHANGELOG\n=========\n\n0.2.0\n-----\n- a\n", "0.3.0\n-----", "### Features"),
            ("# Changelog\n\n## 0.2.0 (6th December, 2025)\n\n- a\n", "## 0.3.0 (2nd January, 2026)", "### Bug fixes"),
            ("## Version 0.2.0\n\nReleased 2025-12-01\n\n- a\n", "## Version 0.3.0", "### Features"),
            (
                "## [0.2.0](https://github.com/acme/widget/compare/v0.1.0..v0.2.0) - 2025-12-01\n\n- a\n",
                "## [0.3.0](\(compare)) - 2026-01-02", "### Features"
            ),
            ("# Changelog\r\n\r\n## 0.2.0 - 2025-12-01\r\n\r\n- a\r\n", "## 0.3.0 - 2026-01-02\r\n", "\r\n## 0.2.0"),
            ("# Changelog\n\n## 0.2.0 - 2025-12-01\n\n- a", "## 0.3.0 - 2026-01-02", "\n- a"),
            // No release yet: after the hand-written Unreleased section, at its level.
            ("# History\n\n### Unreleased\n\n- wip\n", "### [0.3.0](\(compare)) - 2026-01-02", "- wip\n\n### [0.3.0]"),
            (
                "# Changelog\n\nAll notable changes.\n", "## [0.3.0](\(compare)) - 2026-01-02",
                "All notable changes.\n\n## [0.3.0]"
            ),
            // A heading in a code block or an HTML comment is not a release heading.
            (
                "<!--\n## 0.1.0 - 2020-01-01\n-->\n\n# 0.2.0 (2025-12-01)\n\n```sh\n# 9.9.9 comment\n```\n",
                "# 0.3.0 (2026-01-02)", "-->\n\n# 0.3.0 (2026-01-02)"
            ),
        ]
        for (file, heading, elsewhere) in shapes {
            let updated = try Self.update(file, remote: remote)
            #expect(updated.contains(heading + (heading.hasSuffix("\r\n") ? "" : "\n")), "\(file)\n→\n\(updated)")
            #expect(updated.contains(elsewhere), "\(file)\n→\n\(updated)")
            #expect(file.hasSuffix("\n") == updated.hasSuffix("\n"), "the final line break is kept as it was")
            #expect(
                file.contains("\r\n") == updated.contains("\r\n")
                    && (!file.contains("\r\n") || !updated.replacingOccurrences(of: "\r\n", with: "").contains("\n")),
                "line endings kept")
        }
    }
}
