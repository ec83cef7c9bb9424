import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Issue 54 (items 7 and 9): `notes --changelog` on changelogs shaped like pytest's, whose release
/// headings carry the project's name (`pytest 9.1.1 (2026-06-19)`), in Markdown and in
/// towncrier's reStructuredText: the new section goes above the latest release, in the file's
/// own format and heading style.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct ChangelogFormatsCLITests {
    static func pytest() throws -> GitRepository {
        let repository = try GitRepository()
        try repository.git("remote", "add", "origin", "https://github.com/pytest-dev/pytest.git")
        try repository.commit("chore: 9.1.1", files: ["relctl.toml": "[project]\nname = \"pytest\"\n"])
        try repository.git("tag", "-a", "v9.1.1", "-m", "v9.1.1")
        try repository.commit("feat: a new fixture (#123)", files: ["src/a.txt": "a\n"])
        try repository.git("tag", "-a", "v9.2.0", "-m", "v9.2.0")
        return repository
    }

    @Test func markdownHeadingsWithTheProjectsNameAreReleases() throws {
        let repository = try Self.pytest()
        let changelog = """
            # Changelog

            ## pytest 9.1.1 (2026-06-19)

            ### Bug fixes

            - Fixed a thing.

            ## pytest 9.1.0 (2026-06-10)

            - Something.

            ## 3.1.0 (2017-05-22)

            - Old times.

            """
        try repository.directory.write("CHANGELOG.md", changelog)
        let notes = try relctl(["notes", "--tag", "v9.2.0", "--changelog", "CHANGELOG.md"], in: repository.url)
        #expect(notes.status == 0, "\(notes)")
        let text = try repository.directory.read("CHANGELOG.md")
        let new = try #require(text.range(of: "## pytest 9.2.0 (2026-01-02)\n"), "\(text)")
        let latest = try #require(text.range(of: "## pytest 9.1.1 (2026-06-19)"))
        #expect(new.lowerBound < latest.lowerBound, "above the latest release: \(text)")
        #expect(text.contains("### Features\n"), "\(text)")
    }

    @Test func restructuredTextChangelogsGetRestructuredText() throws {
        let repository = try Self.pytest()
        let changelog = """
            =========
            Changelog
            =========

            Versions follow `Semantic Versioning <https://semver.org/>`_.

            .. towncrier release notes start

            pytest 9.1.1 (2026-06-19)
            =========================

            Bug fixes
            ---------

            - `#13480 <https://github.com/pytest-dev/pytest/issues/13480>`_: Fixed a thing.


            pytest 9.1.0 (2026-06-10)
            =========================

            Features
            --------

            - Something.

            """
        try repository.directory.write("CHANGELOG.rst", changelog)
        let notes = try relctl(["notes", "--tag", "v9.2.0", "--changelog", "CHANGELOG.rst"], in: repository.url)
        #expect(notes.status == 0, "\(notes)")
        let text = try repository.directory.read("CHANGELOG.rst")
        let section = "pytest 9.2.0 (2026-01-02)\n=========================\n\nFeatures\n--------\n\n- a new fixture"
        let new = try #require(text.range(of: section), "in the file's own heading style: \(text)")
        let latest = try #require(text.range(of: "pytest 9.1.1 (2026-06-19)"))
        #expect(new.lowerBound < latest.lowerBound, "above the latest release: \(text)")
        #expect(text.hasPrefix(changelog.prefix(upTo: changelog.range(of: "pytest 9.1.1")!.lowerBound)), "\(text)")
        #expect(!text.contains("## ") && !text.contains("]("), "no Markdown: \(text)")
        #expect(text.contains("(`#123 <https://github.com/pytest-dev/pytest/issues/123>`__)"), "\(text)")
        #expect(text.contains("\n.. relctl-digest: sha256:"), "the marker is an rst comment: \(text)")
        let again = try relctl(["notes", "--tag", "v9.2.0", "--changelog", "CHANGELOG.rst"], in: repository.url)
        #expect(again.status == 0 && again.stderr.contains("unchanged"), "\(again)")
        #expect(try repository.directory.read("CHANGELOG.rst") == text)
    }
}
