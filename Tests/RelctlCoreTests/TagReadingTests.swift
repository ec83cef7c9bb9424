import Foundation
import RelctlModel
import RelctlProject
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject

/// How a tag reads against a tag format (issue 40, PRODUCT "Versions come from the tag history"):
/// the table every command's history rests on.
@Suite(.removesTemporaries, .timeLimit(.minutes(30))) struct TagReadingTests {
    static func v(_ text: String) throws -> SemanticVersion { try SemanticVersion(parsing: text) }

    @Test func tagsReadTolerantlyAgainstTheFormat() throws {
        let bare = try TagFormat("{version}", scheme: .semver)
        let prefixed = try TagFormat("v{version}", scheme: .semver)
        var python = prefixed
        python.readsPEP440 = true
        let cases: [(TagFormat, String, TagFormat.Reading)] = [
            (prefixed, "v1.2.3", .release(try Self.v("1.2.3"), exact: true)),
            (prefixed, "V1.2.3", .release(try Self.v("1.2.3"), exact: false)),
            (prefixed, "v2.0", .release(try Self.v("2.0.0"), exact: false)),
            (prefixed, "v2026.07.22", .release(try Self.v("2026.7.22"), exact: false)),
            (prefixed, "1.2.3", .otherSpelling(try Self.v("1.2.3"))),
            (prefixed, "vV9.0.0", .malformed),
            (prefixed, "v1.2.3.4", .malformed),
            (prefixed, "v2.14.0b1", .otherSpelling(try Self.v("2.14.0-beta.1"))),
            (python, "v2.14.0b1", .release(try Self.v("2.14.0-beta.1"), exact: false)),
            (python, "v2.0rc1", .release(try Self.v("2.0.0-rc.1"), exact: false)),
            (python, "v1.0.post1", .release(try Self.v("1.0.0+post.1"), exact: false)),
            (python, "v1!2.0", .malformed),
            (prefixed, "core-v2.48.0", .unrelated),
            (prefixed, "nightly", .unrelated),
            (bare, "7.0.0-finalx", .release(try Self.v("7.0.0-finalx"), exact: true)),
            (bare, "v7.0.0-finalx", .otherSpelling(try Self.v("7.0.0-finalx"))),
            (bare, "V7.0.0", .otherSpelling(try Self.v("7.0.0"))),
            (bare, "swift-DEVELOPMENT-SNAPSHOT-2026-06-24-a", .unrelated),
        ]
        for (format, tag, expected) in cases {
            #expect(format.reading(of: tag) == expected, "\(format) \(tag)")
        }
    }

    @Test func newTagsAreCheckedStrictlyButInTheProjectsOwnSpelling() throws {
        var python = try TagFormat("v{version}", scheme: .semver)
        python.readsPEP440 = true
        #expect(try python.version(of: "v2.14.0b1") == Self.v("2.14.0-beta.1"))
        #expect(throws: VersionError.self) { try python.version(of: "v1.0.post1") }
        #expect(throws: VersionError.self) { try python.version(of: "V1.2.3") }
        // Two numbers, padding or another case are read in the history, never made as a new tag.
        for tag in ["v2.0", "v01.2.3", "v2.0rc1", "v2.14.0B1"] {
            #expect(throws: VersionError.self, "\(tag)") { try python.version(of: tag) }
        }
        #expect(try python.version(of: "v2.14.0rc1") == Self.v("2.14.0-rc.1"))
        #expect(try python.version(of: "v2.14.0.dev3") == Self.v("2.14.0-dev.3"))
        python.prereleaseSpelling = .pep440
        #expect(python.tag(for: try Self.v("2.14.0-beta.2")) == "v2.14.0b2")
        #expect(python.tag(for: try Self.v("2.14.0")) == "v2.14.0")
        #expect(python.tag(for: try Self.v("2.14.0-x.1")) == "v2.14.0-x.1", "no PEP 440 spelling: SemVer's")
    }

    /// `init`: the five most recent releases vote; a `V` is a `v`; two numbers are no calendar.
    @Test func initFollowsTheMostRecentReleases() {
        func tag(_ name: String, _ day: Int) -> GitTag { GitTag(name: name, commit: nil, date: day * 86_400) }
        let pydantic = TagHistory(
            tags: [tag("V0.17", 1), tag("v2.0", 2)] + (0..<6).map { tag("v2.1\($0).0", 10 + $0) } + [
                tag("v2.14.0b1", 20)
            ],
            project: "pydantic")
        #expect(pydantic.format == "v{version}" && pydantic.scheme == .semver, "\(pydantic)")
        let helix = TagHistory(
            tags: ["22.12", "23.03", "23.10", "24.07", "25.07"].enumerated().map { tag($1, $0) }, project: "helix")
        #expect(helix.format == "{version}" && helix.scheme == .calver, "\(helix)")
        // packaging counts each year's releases from `.0` (`26.0rc3` a candidate of the first):
        // calendar versions where each tag was made in its year, none where the years do not match.
        func dated(_ name: String, _ date: String) -> GitTag {
            GitTag(name: name, commit: nil, date: Int(ISO8601DateFormatter().date(from: date + "T12:00:00Z")!.timeIntervalSince1970))
        }
        let counted: [(String, String)] = [
            ("24.0", "2024-03-10"), ("24.1", "2024-06-10"), ("24.2", "2024-11-08"), ("25.0", "2025-04-19"),
            ("26.0rc1", "2026-01-08"), ("26.0rc3", "2026-01-14"), ("26.0", "2026-01-20"), ("26.1", "2026-04-14"),
        ]
        let packaging = TagHistory(tags: counted.map { dated($0, $1) }, project: "packaging")
        #expect(packaging.format == "{version}" && packaging.scheme == .calver, "\(packaging)")
        let notYears = TagHistory(
            tags: [("24.0", "2019-01-10"), ("24.13", "2019-02-10"), ("24.14", "2019-03-10"), ("25.0", "2019-04-10"), ("25.13", "2019-05-10")]
                .map { dated($0, $1) },
            project: "packaging")
        #expect(notYears.scheme == .semver, "\(notYears)")
        // Most of the recent ones, not the newest alone.
        let mixed = TagHistory(
            tags: [tag("v1.0.0", 1), tag("v1.1.0", 2), tag("v1.2.0", 3), tag("v1.3.0", 4), tag("1.4.0", 5)],
            project: "x")
        #expect(mixed.format == "v{version}", "\(mixed)")
    }

    /// A Swift library's executables named as tests, benchmarks or demos are not its binaries;
    /// words split at case changes, `-` and `_`, so `Latest` holds no `test`.
    @Test func auxiliarySwiftExecutablesAreReadFromTheirNamesWords() {
        for name in ["PerformanceTest", "NIOPerformanceTester", "swift-format-benchmarks", "ExampleServer", "demo_app"] {
            #expect(StarterConfig.isAuxiliaryExecutable(name), "\(name)")
        }
        for name in ["protoc-gen-swift", "Latest", "swift-format", "NIOTLSServer", "Contest"] {
            #expect(!StarterConfig.isAuxiliaryExecutable(name), "\(name)")
        }
    }

    /// alembic's `rel_1_19_1`: a format spelling the version's parts with underscores.
    @Test func aFormatJoiningThePartsWithUnderscores() throws {
        var format = try TagFormat("rel_{major}_{minor}_{patch}", scheme: .semver)
        #expect(try format.version(of: "rel_1_19_1") == Self.v("1.19.1"))
        #expect(format.tag(for: try Self.v("1.19.2")) == "rel_1_19_2")
        #expect(format.reading(of: "rel_1_19_1") == .release(try Self.v("1.19.1"), exact: true))
        #expect(format.reading(of: "rel_2_0") == .release(try Self.v("2.0.0"), exact: false))
        #expect(format.reading(of: "v1.19.1") == .unrelated)
        #expect(throws: VersionError.self) { try format.version(of: "rel_1.19.1") }
        format.readsPEP440 = true
        format.prereleaseSpelling = .pep440
        #expect(format.tag(for: try Self.v("2.1.0-beta.1")) == "rel_2_1_0b1")
        #expect(TagGlob.pattern(for: format) == "rel_*_*_*")
        #expect(TagRegex.pattern(for: format) == #"^rel_[^\x2F]*_[^\x2F]*_[^\x2F]*$"#)
        #expect(throws: VersionError.self) { try TagFormat("rel_{major}_{minor}_{patch}-{version}", scheme: .semver) }
        let history = TagHistory(tags: ["rel_1_18_4", "rel_1_19_0", "rel_2_0_0b1"], project: "alembic")
        #expect(history.format == "rel_{major}_{minor}_{patch}", "\(history.note)")
    }

    /// c-ares moved from `cares-1_29_0` to `v1.30.0`: the word before underscored parts spells the
    /// version as a `v` does, so the newer bare series wins on recency (read as a package's named
    /// series, it outvoted the seven newer `v` tags and init proposed `cares-1_30_0`).
    @Test func anUnderscoredSeriesCompetesWithBareTagsOnRecency() {
        var tags = (20...29).map { GitTag(name: "cares-1_\($0)_0", commit: nil, date: $0 * 100) }
        tags += (30...33).map { GitTag(name: "v1.\($0).0", commit: nil, date: $0 * 100) }
        tags += (1...3).map { GitTag(name: "v1.32.\($0)", commit: nil, date: 3_250 + $0) }
        let history = TagHistory(tags: tags, project: "c-ares")
        #expect(history.format == "v{version}", "\(history.note)")
        let older = TagHistory(tags: Array(tags.prefix(12)), project: "c-ares")
        #expect(older.format == "cares-{major}_{minor}_{patch}", "\(older.note)")
    }

    /// The underscore reading (a word, `_` or `-`, three numbers joined by `_`, a PEP 440 prerelease
    /// glued on) takes those tags whole and nothing else.
    @Test func anUnderscoredTagIsReadWholeOrNotAtAll() throws {
        let read = { (tag: String) in TagHistory.underscoredRelease(in: tag).map { "\($0.prefix) \($0.version)" } }
        #expect(read("rel_1_19_1") == "rel_ 1.19.1")
        #expect(read("SQLA2_rel_1_0_0") == nil)
        #expect(read("py3_1_2_10") == "py3_ 1.2.10")
        #expect(read("v2_0_10") == nil)
        #expect(read("rel_2_0_0b1") == "rel_ 2.0.0-beta.1")
        #expect(read("rel_2_0_0rc12") == "rel_ 2.0.0-rc.12")
        // curl's `curl-8_21_0`: the word ends with `-`, the parts are still joined by `_`.
        #expect(read("curl-8_21_0") == "curl- 8.21.0")
        for tag in ["rel_1_2", "rel_1_2_3_4", "rel_1_2_3x1", "rel_1_2_3b", "1_2_3", "_1_2_3", "rel_1_2_", "rel-1_2", "rel-1-2-3", "rel--1_2_3", "rel_1__2_3", "rél_1_2_3"] {
            #expect(read(tag) == nil, "\(tag)")
        }
    }

    /// A workspace's calendar versions are read across its members' prefixes (mise's `v2026.8.1`,
    /// `vfox-v2026.8.15`); dated bare tags beside members counting SemVer versions are not.
    @Test func aWorkspacesTagsHoldCalendarVersionsAcrossPrefixes() {
        func tags(_ names: [String]) -> [GitTag] {
            names.enumerated().map { GitTag(name: $0.element, commit: "c\($0.offset)", date: 1_000 + $0.offset) }
        }
        #expect(TagHistory.holdsCalendarVersions(tags(["v2026.7.2", "vfox-v2026.7.2", "v2026.8.0", "aqua-registry-v2026.8.1"])))
        #expect(
            !TagHistory.holdsCalendarVersions(
                tags(["2024.01.05", "@acme/core@1.2.0", "@acme/cli@0.4.1", "2024.02.01", "@acme/core@1.3.0", "cli-v0.5.0"])))
        #expect(!TagHistory.holdsCalendarVersions(tags(["v2026.8.0", "notes", "latest"])))
        #expect(TagHistory.trailingRelease(in: GitTag(name: "pkg/kadm/v1.16.1", commit: nil, date: 0))?.prefix == "pkg/kadm/v")
    }
}
