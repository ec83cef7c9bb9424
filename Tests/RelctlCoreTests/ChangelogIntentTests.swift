import Foundation
import RelctlTestTraits
import Testing

@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlModel

/// `[versioning] changelog` (issue 63): what the newest section of a changelog written ahead of
/// the release says of the next one, in the shapes the back-test's projects write.
@Suite(.timeLimit(.minutes(30))) struct ChangelogIntentTests {
    static func version(_ text: String) throws -> SemanticVersion { try SemanticVersion(parsing: text) }

    static func intent(_ text: String, path: String = "CHANGELOG.md", latest: String) throws -> ChangelogIntent? {
        ChangelogIntent.section(in: text, path: path, latest: try version(latest))
    }

    /// uniffi's changelog (cargo-release placeholders): `## [[NextUnreleasedUniFFIVersion]]`
    /// holding only a compare link over `## [[UnreleasedUniFFIVersion]] (backend crates: …)`,
    /// whose `### ⚠️ Breaking Changes ⚠️` is the coming release's. Neither placeholder read as
    /// unreleased, and 0.30.0's breaking change was proposed as 0.29.5 (round 20, 2 points).
    @Test func releaseToolPlaceholderHeadingsAreUnreleased() throws {
        let text = """
            <!-- next-header -->

            ## [[NextUnreleasedUniFFIVersion]] (backend crates: [[UnreleasedBackendVersion]]) - (_[[ReleaseDate]]_)

            [All changes in [[NextUnreleasedUniFFIVersion]]](https://github.com/mozilla/uniffi-rs/compare/v0.30.0...NEXT_HEAD).

            ## [[UnreleasedUniFFIVersion]] (backend crates: v0.30.0) - (_2025-10-08_)

            ### ⚠️ Breaking Changes ⚠️
            - UDL-based trait interfaces must now be wrapped.

            ### What's new?

            - All user-defined types can now be renamed.

            ## v0.29.4 (backend crates: v0.29.4) - (_2025-07-28_)

            ### What's fixed?

            - A crash.
            """
        let found = try #require(try Self.intent(text, latest: "0.29.4"))
        #expect(found.finding == .level(.major))
        #expect(found.section.hasPrefix("[[UnreleasedUniFFIVersion]]"), "\(found)")
        // After the release the placeholder holds only the link, and says nothing.
        let released = """
            ## [[NextUnreleasedUniFFIVersion]] (backend crates: [[UnreleasedBackendVersion]]) - (_[[ReleaseDate]]_)

            [All changes in [[NextUnreleasedUniFFIVersion]]](https://github.com/mozilla/uniffi-rs/compare/v0.30.0...NEXT_HEAD).

            ## v0.30.0 (backend crates: v0.30.0) - (_2025-10-08_)

            ### ⚠️ Breaking Changes ⚠️
            - UDL-based trait interfaces must now be wrapped.
            """
        #expect(try Self.intent(released, latest: "0.30.0") == nil)
        // A heading starting with the word only when it is a placeholder: prose is not.
        #expect(!ChangelogIntent.isUnreleased("UnreleasedFeatures of the old API"))
    }

    /// opentelemetry-rust-contrib's crates: `## vNext` over a flat list whose entries start
    /// `[Breaking]` (opentelemetry-datadog before 0.16.0, proposed as 0.15.1: round 20). `vNext`
    /// is an unreleased heading, and an entry marked breaking makes a flat list breaking without
    /// the calibration a flat list of adds needs.
    @Test func vNextWithAFlatBreakingEntryIsAMajor() throws {
        let text = """
            # Changelog

            ## vNext

            - [Breaking] Replace `opentelemetry::global::shutdown_tracer_provider()` with the provider's own.
            - Bump msrv to 1.75.0.

            ## v0.15.0

            - Bump opentelemetry to 0.28.
            """
        let found = try #require(try Self.intent(text, latest: "0.15.0"))
        #expect(found.finding == .level(.major))
        #expect(found.section == "vNext" && found.line == 3, "\(found)")
        // A flat list with no entry marked breaking says nothing without the calibration.
        #expect(try Self.intent(text.replacingOccurrences(of: "[Breaking] ", with: ""), latest: "0.15.0") == nil)
    }

    /// Keep a Changelog: `## [Unreleased]` with an `### Added` entry is a minor, the subsection
    /// that decides named with its line.
    @Test func keepAChangelogUnreleasedAdded() throws {
        let text = """
            # Changelog

            ## [Unreleased]

            ### Fixed

            - A crash on empty input.

            ### Added

            - `--frobnicate`.

            ## [1.4.0] - 2026-01-02

            ### Added

            - Everything.

            [Unreleased]: https://example.com/compare/v1.4.0...HEAD
            """
        let found = try #require(try Self.intent(text, latest: "1.4.0"))
        #expect(found.finding == .level(.minor))
        #expect(found.line == 9 && found.heading == "Added" && found.section == "[Unreleased]", "\(found)")
        #expect(found.level(after: try Self.version("1.4.0")) == .minor)
    }

    /// fd: `# Upcoming release` at the release headings' level, `## Features` with entries and an
    /// empty `## Bugfixes`; a `## Breaking changes` with an entry wins over both.
    @Test func fdUpcomingReleaseFeatures() throws {
        let text = """
            # Upcoming release

            ## Features

            - Add `--format`, see #1234 (@someone)

            ## Bugfixes


            ## Changes


            # v8.6.0

            ## Features

            - Older.
            """
        let found = try #require(try Self.intent(text, latest: "8.6.0"))
        #expect(found.finding == .level(.minor) && found.heading == "Features" && found.line == 3, "\(found)")
        let breaking = text.replacingOccurrences(of: "## Changes\n", with: "## Breaking changes\n\n- Drop `-x`.\n")
        #expect(try Self.intent(breaking, latest: "8.6.0")?.finding == .level(.major))
        // Only fixes: a patch, which the commits already give.
        let fixes = text.replacingOccurrences(of: "## Features\n\n- Add", with: "## Bugfixes\n\n- Fix")
        #expect(try Self.intent(fixes, latest: "8.6.0")?.finding == .level(.patch))
    }

    /// fd 10.0.0: `- Breaking: No longer automatically ignore .git` under `## Features` is a major
    /// (the project released 10.0.0; before, the section read as a minor, 9.1.0). A word that only
    /// starts with "breaking" is not the marker.
    @Test func anEntryMarkedBreakingIsAMajorWhateverItsSubsection() throws {
        let text = """
            # Upcoming release

            ## Features

            - Add `dir` as an alias to `directory`.
            - Breaking: No longer automatically ignore `.git` when using `--hidden`.

            # v9.0.0

            ## Features

            - Older.
            """
        let found = try #require(try Self.intent(text, latest: "9.0.0"))
        #expect(found.finding == .level(.major) && found.heading == "Features", "\(found)")
        let bold = text.replacingOccurrences(of: "- Breaking:", with: "* **BREAKING**:")
        #expect(try Self.intent(bold, latest: "9.0.0")?.finding == .level(.major))
        let word = text.replacingOccurrences(of: "- Breaking: No", with: "- Breakingly fast: no")
        #expect(try Self.intent(word, latest: "9.0.0")?.finding == .level(.minor))
    }

    /// click's CHANGES.rst: `Version 8.3.0` over `-------------`, then `Unreleased` as text: the
    /// heading names the next version, above the latest release 8.2.1.
    @Test func restructuredTextVersionAboveTheLatest() throws {
        let text = """
            .. currentmodule:: click

            Version 8.3.0
            -------------

            Unreleased

            -   Drop support for Python 3.9.

            Version 8.2.1
            -------------

            Released 2025-05-20

            -   Fix flag value handling.
            """
        let found = try #require(try Self.intent(text, path: "CHANGES.rst", latest: "8.2.1"))
        #expect(found.finding == .version(try Self.version("8.3.0")) && found.line == 3, "\(found)")
        #expect(found.level(after: try Self.version("8.2.1")) == .minor)
        // An rst `Unreleased` title with a `Features` subsection is read as in Markdown.
        let towncrier = """
            Unreleased
            ==========

            Features
            --------

            - Frobnicate.

            8.2.1 (2025-05-20)
            ==================
            """
        #expect(try Self.intent(towncrier, path: "CHANGES.rst", latest: "8.2.1")?.finding == .level(.minor))
    }

    /// An Unreleased section whose subsections hold nothing (the template left after a release),
    /// or with no subsections, says nothing.
    @Test func emptyUnreleasedSaysNothing() throws {
        let text = """
            # Changelog

            ## [Unreleased]

            ### Added

            <!-- new entries here -->

            ### Fixed

            ## [1.4.0] - 2026-01-02

            ### Added

            - Everything.
            """
        #expect(try Self.intent(text, latest: "1.4.0") == nil)
        #expect(try Self.intent("## Unreleased\n\n## 1.4.0\n\n### Added\n\n- x\n", latest: "1.4.0") == nil)
    }

    /// dotenv: one `# [8.0.0]` of 2019 (conventional-changelog heads majors with `#`) among `##`
    /// release headings made the `## [Unreleased]` above a subsection, and the file said nothing;
    /// an empty `## [Unreleased](…)` placeholder above the coming release's `## [17.2.0]` hid it.
    @Test func anOldFirstLevelMajorAndAnEmptyPlaceholderDoNotHideTheNewestSection() throws {
        let old = "\n## [8.1.0]\n\n### Added\n\n- b\n\n# [8.0.0] (2019-05-02)\n\n### Changed\n\n- a\n"
        let unreleased = "# Changelog\n\n## [Unreleased]\n\n### Removed\n\n- `config()` options.\n\n## [17.1.0]\n\n### Added\n\n- x\n" + old
        #expect(try Self.intent(unreleased, latest: "17.1.0")?.finding == .level(.major))
        let placeholder = "# Changelog\n\n## [Unreleased](https://x/compare/v17.2.0...master)\n\n## [17.2.0](https://x)\n\n### Added\n\n- y\n\n## [17.1.0]\n\n- x\n" + old
        #expect(try Self.intent(placeholder, latest: "17.1.0")?.finding == .version(try Self.version("17.2.0")))
        // Released already: the placeholder and the heading below it say nothing ahead.
        #expect(try Self.intent(placeholder, latest: "17.2.0") == nil)
    }

    /// A newest heading naming the latest release (or an older one, or the undated final of the
    /// latest prerelease) is a release made: nothing ahead.
    @Test func headingNamingTheLatestReleaseSaysNothing() throws {
        let text = "# Changelog\n\n## [1.4.0] - 2026-01-02\n\n### Added\n\n- x\n\n## [1.3.0]\n\n- y\n"
        #expect(try Self.intent(text, latest: "1.4.0") == nil)
        #expect(try Self.intent(text, latest: "1.5.2") == nil)
        // The final of the latest prerelease, undated (written while the candidates ship): nothing
        // ahead; dated as released (VictoriaMetrics' operator, async-timeout), the final being made.
        let undated = "# Changelog\n\n## [1.4.0]\n\n### Added\n\n- x\n\n## [1.3.0]\n\n- y\n"
        #expect(try Self.intent(undated, latest: "1.4.0-rc.2") == nil)
        #expect(try Self.intent(text, latest: "1.4.0-rc.2")?.finding == .version(try Self.version("1.4.0")))
        // With the project's name before the version (`pytest 9.1.1`), above the latest: a version.
        let named = ChangelogIntent.section(
            in: "pytest 9.2.0 (unreleased)\n=========================\n\n- x\n", path: "CHANGELOG.rst",
            names: ["pytest"], latest: try Self.version("9.1.1"))
        #expect(named?.finding == .version(try Self.version("9.2.0")), "\(String(describing: named))")
    }

    /// zoxide: below 1.0.0 its `### Added` sections ship as patches, which `init` reads as
    /// Cargo's 0.x rule; a project whose feature sections ship as minors (bat) does not.
    @Test func featuresReleasedAsPatchesBelowOne() {
        func changelog(_ releases: [(String, String)]) -> ChangelogDocument {
            let text = releases.map { "## [\($0.0)]\n\n### \($0.1)\n\n- Entry.\n" }.joined(separator: "\n")
            return ChangelogDocument(lines: text.fileLines.map(String.init))
        }
        let zoxide = changelog([
            ("0.9.8", "Added"), ("0.9.7", "Added"), ("0.9.6", "Fixed"), ("0.9.5", "Added"), ("0.9.4", "Fixed"),
            ("0.9.3", "Added"), ("0.9.2", "Fixed"), ("0.9.1", "Added"), ("0.9.0", "Removed"), ("0.8.3", "Added"),
            ("0.8.2", "Fixed"), ("0.8.1", "Fixed"), ("0.8.0", "Added"),
        ])
        #expect(ChangelogIntent.featuresReleasedAsPatches(in: zoxide) == ["0.9.8", "0.9.7", "0.9.5", "0.9.3", "0.9.1", "0.8.3"])
        let bat = changelog([
            ("0.25.0", "Features"), ("0.24.0", "Features"), ("0.23.0", "Features"), ("0.22.1", "Features"),
            ("0.22.0", "Features"), ("0.21.0", "Features"),
        ])
        #expect(ChangelogIntent.featuresReleasedAsPatches(in: bat) == nil)
    }

    /// Which headings are unreleased sections, and what subsection titles call for.
    @Test func headingWords() {
        for text in ["Unreleased", "[Unreleased]", "UNRELEASED", "Upcoming release", "Next", "Next release", "Not yet released"] {
            #expect(ChangelogIntent.isUnreleased(text), "\(text)")
        }
        for text in ["Changelog", "Nextcloud support", "Release notes", "Next steps"] {
            #expect(!ChangelogIntent.isUnreleased(text), "\(text)")
        }
        #expect(ChangelogIntent.level(ofSubsection: "Breaking Changes") == .major)
        #expect(ChangelogIntent.level(ofSubsection: "Removed") == .major)
        #expect(ChangelogIntent.level(ofSubsection: "🚀 Features") == .minor)
        #expect(ChangelogIntent.level(ofSubsection: "New features") == .minor)
        #expect(ChangelogIntent.level(ofSubsection: "Enhancements") == .minor)
        #expect(ChangelogIntent.level(ofSubsection: "Newline handling") == .patch)
        #expect(ChangelogIntent.level(ofSubsection: "Fixed") == .patch)
        #expect(ChangelogIntent.level(ofSubsection: "Changed") == .patch)
    }
}

extension ChangelogIntentTests {
    /// pueue writes `## [3.4.0] - unreleased` over the `## [3.3.1] - 2023-10-27` its patch
    /// prepares; astroid keeps `What's New in astroid 4.1.0?` over an empty `4.0.2?` while the
    /// patch is made. The newest section named the minor after the patch (round 21, 6 points;
    /// pygments 4 of round 22): of the sections above the latest release, the lowest names the
    /// next one, empty or not.
    @Test func theLowestSectionAboveTheLatestReleaseIsTheNext() throws {
        let pueue = """
            # Changelog

            ## [3.4.0] - unreleased

            ### Added

            - Groups can be paused.

            ## [3.3.1] - 2023-10-27

            ### Fixed

            - The daemon's socket.

            ## [3.3.0] - 2023-10-21
            """
        let found = try #require(try Self.intent(pueue, latest: "3.3.0"))
        #expect(found.finding == .version(try Self.version("3.3.1")))
        #expect(found.line == 9)
        // With 3.3.1 released, 3.4.0 is next again.
        #expect(try Self.intent(pueue, latest: "3.3.1")?.finding == .version(try Self.version("3.4.0")))

        let astroid = """
            ===================
            astroid's ChangeLog
            ===================

            What's New in astroid 4.1.0?
            ============================
            Release date: TBA

            * A new brain for ``enum``.

            What's New in astroid 4.0.2?
            ============================
            Release date: TBA


            What's New in astroid 4.0.1?
            ============================
            Release date: 2025-10-11

            * A crash.
            """
        let read = ChangelogIntent.section(in: astroid, path: "ChangeLog", names: ["astroid"], latest: try Self.version("4.0.1"))
        #expect(read?.finding == .version(try Self.version("4.0.2")), "\(String(describing: read))")
    }

    /// pygments opens `Version 2.17.0` / `(unreleased)` the day 2.16.0 ships, and its 2.16.1
    /// hotfix was read as 2.17.0; pueue's empty `## [0.31.0] - unreleased` the same. A lone
    /// section above the latest release with nothing but its status says nothing; with an entry
    /// it names its version.
    @Test func aLoneSectionHoldingOnlyItsStatusSaysNothing() throws {
        let empty = "Pygments changelog\n==================\n\nVersion 2.17.0\n--------------\n(unreleased)\n\nVersion 2.16.0\n--------------\n(released August 6th, 2023)\n\n- New lexers\n"
        #expect(try Self.intent(empty, path: "CHANGES", latest: "2.16.0") == nil)
        #expect(try Self.intent("# Changelog\n\n## [0.31.0] - unreleased\n\n## [0.30.0] - 2025-07-07\n\n### Changed\n\n- A.\n", latest: "0.30.0") == nil)
        // A bare heading with no pending mark is the release being made (apollo-ios writes an
        // empty `## v2.2.0` as it sets the release up): it names its version.
        let bare = "# Change Log\n\n## v2.2.0\n\n\n## v2.1.2\n\n### Fixed\n- A crash.\n"
        #expect(try Self.intent(bare, latest: "2.1.2")?.finding == .version(try Self.version("2.2.0")))
        let written = empty.replacingOccurrences(of: "(unreleased)\n", with: "(unreleased)\n\n- Lexers for Nix.\n")
        #expect(try Self.intent(written, path: "CHANGES", latest: "2.16.0")?.finding == .version(try Self.version("2.17.0")))
    }
}

extension ChangelogIntentTests {
    /// Python-Markdown ships each `### Changed` in a minor and its patches hold `### Fixed` alone;
    /// its `[unreleased]` / `### Changed` was read as a patch (round 22, 4 points). A subsection
    /// naming no size gives the level the changelog's released sections show it shipping in: five
    /// at least, four minors for each patch.
    @Test(arguments: [false, true])
    func aSubsectionGivesTheLevelItShipsInByTheProjectsHistory(patchesChangeToo: Bool) throws {
        var text = "# Changelog\n\n## [unreleased]\n\n### Changed\n\n- The TOC sanitation is reworked.\n\n"
        for minor in stride(from: 9, through: 3, by: -1) {
            text += "## [3.\(minor).1] - 2026-0\(minor)-20\n\n### \(patchesChangeToo ? "Changed" : "Fixed")\n\n- A crash.\n\n"
            text += "## [3.\(minor).0] - 2026-0\(minor)-01\n\n### Changed\n\n- A new option.\n\n"
        }
        let found = try #require(try Self.intent(text, latest: "3.9.1"))
        #expect(found.finding == .level(patchesChangeToo ? .patch : .minor))
    }
}
