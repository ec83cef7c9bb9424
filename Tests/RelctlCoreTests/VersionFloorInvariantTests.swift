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

/// The invariant of issue 23 on every shape of version: no command proposes or writes a version
/// lower than a manifest's, or one whose tag exists in any spelling (SemVer, PEP 440, calendar;
/// cargo, npm, python, regex, plain).
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct VersionFloorInvariantTests {
    struct Shape: CustomStringConvertible, Sendable {
        var kind: String
        var path: String
        /// The file's content, `VERSION` standing for the version text.
        var template: String
        var text: String
        var calver = false
        /// Tags: the first on an old commit, the rest on HEAD's parent.
        var tags: [String]
        var pattern: String?
        var description: String { "\(kind) \(path) holding \(text) with tags \(tags)" }
    }

    static let regexPattern = #"__version__ = "(?<version>[^"]+)""#

    static let shapes: [Shape] = [
        Shape(
            kind: "cargo", path: "Cargo.toml", template: "[package]\nname = \"a\"\nversion = \"VERSION\"\n",
            text: "2.0.0-rc.1", tags: ["v1.5.0", "2.0.0-rc.1"]),
        Shape(
            kind: "npm", path: "package.json", template: "{\n  \"name\": \"a\",\n  \"version\": \"VERSION\"\n}\n",
            text: "2.0.0", tags: ["v1.5.0", "2.0.0"]),
        Shape(kind: "plain", path: "VERSION", template: "VERSION\n", text: "2.0.0", tags: ["v1.5.0"]),
        Shape(kind: "plain", path: "VERSION", template: "VERSION\n", text: "2.0.0.dev1", tags: ["v1.5.0", "v2.0.1"]),
        Shape(
            kind: "python", path: "pyproject.toml", template: "[project]\nname = \"a\"\nversion = \"VERSION\"\n",
            text: "2.0.0rc1", tags: ["v1.5.0", "2.0.0rc1"]),
        Shape(
            kind: "python", path: "a/__init__.py", template: "__version__ = \"VERSION\"\n", text: "2.0.0b1",
            tags: ["v1.5.0"]),
        Shape(
            kind: "regex", path: "a/_version.py", template: "__version__ = \"VERSION\"\n", text: "2.0.0b1",
            tags: ["v1.5.0", "2.0.0-beta.1"], pattern: regexPattern),
        Shape(
            kind: "regex", path: "a/_version.py", template: "__version__ = \"VERSION\"\n", text: "2026.07.22",
            calver: true, tags: ["2026.06.01", "2026.7.22"], pattern: regexPattern),
        Shape(
            kind: "plain", path: "VERSION", template: "VERSION\n", text: "2026.07.22", calver: true,
            tags: ["2026.06.01"]),
        Shape(
            kind: "python", path: "a/__init__.py", template: "__version__ = \"VERSION\"\n", text: "2026.07.22",
            calver: true, tags: ["2026.06.01", "v2026.07.22"]),
        Shape(
            kind: "cargo", path: "Cargo.toml", template: "[package]\nname = \"a\"\nversion = \"VERSION\"\n",
            text: "2026.7.22", calver: true, tags: ["2026.06.01", "2026.07.22"]),
    ]

    @Test(arguments: shapes) func neverBelowAManifestNorATag(shape: Shape) async throws {
        let repo = try GitRepository()
        try repo.directory.write(shape.path, shape.template.replacingOccurrences(of: "VERSION", with: shape.text))
        try repo.commit("chore: start", date: "2026-06-01T10:00:00Z")
        try repo.git("tag", shape.tags[0])
        try repo.commit("feat: more", date: "2026-07-22T10:00:00Z")
        for tag in shape.tags.dropFirst() { try repo.git("tag", tag) }
        try repo.commit("fix: after", date: "2026-07-22T12:00:00Z")
        var config = RelctlConfig.defaults(root: repo.url)
        config.versions = [VersionSource(path: shape.path, kind: shape.kind, pattern: shape.pattern)]
        if shape.calver { config.project.tagFormat = try TagFormat("{version}", scheme: .calver) }
        let git = Git(directory: repo.url, context: Context(workingDirectory: repo.url))
        let names = try await git.tags()
        let released = ReleasedVersions(tags: names, format: config.project.tagFormat)

        let bump = try await VersionBump.compute(git: git, config: config)
        let reader = try ManifestReaders.reader(for: shape.kind)
        #expect(
            !VersionBump.isBelow(
                bump.next, manifestText: shape.text, comparison: reader.comparison,
                scheme: config.project.tagFormat.scheme),
            "\(shape): proposed \(bump.next)")
        #expect(released.tag(naming: bump.next) == nil, "\(shape): proposed \(bump.next), which a tag names")
        for entry in released.entries {
            #expect(entry.version < bump.next, "\(shape): \(bump.next) is not above \(entry.tag)")
        }

        // Lower than the manifest: refused, nothing written.
        let before = try repo.directory.read(shape.path)
        await #expect(throws: (any Error).self, "\(shape)") {
            try await VersionBump.write(SemanticVersion(major: 1, minor: 9, patch: 0), config: config, git: git)
        }
        // A version a tag names (in its other spelling): refused when it would change the file.
        if let taken = released.entries.max(by: { $0.version < $1.version }),
            taken.version > SemanticVersion(major: 1, minor: 9, patch: 0),
            !TagValidator.matches(
                shape.text, taken.version, reader.comparison, scheme: config.project.tagFormat.scheme),
            !VersionBump.isBelow(
                taken.version, manifestText: shape.text, comparison: reader.comparison,
                scheme: config.project.tagFormat.scheme)
        {
            await #expect(throws: VersionWriteError.self, "\(shape): \(taken.tag)") {
                try await VersionBump.write(taken.version, config: config, git: git)
            }
        }
        #expect(try repo.directory.read(shape.path) == before, "\(shape): nothing written")

        // The proposed version writes, and reads back as itself.
        try await VersionBump.write(bump.next, config: config, git: git)
        let found = try ManifestReaders.read(config.versions[0], root: repo.url)
        #expect(
            TagValidator.matches(found.text, bump.next, reader.comparison, scheme: config.project.tagFormat.scheme),
            "\(shape): wrote \(found.text) for \(bump.next)")
    }
}

/// A version tagged in another spelling is never proposed again, a prerelease's counter glued to
/// its name or not: tokenizers tags `v0.22.1rc0` (PEP 440), and its branch `v0.22.1-rc0` named
/// the same candidate, which relctl proposed as `0.22.1-rc0` (round 35).
@Suite(.timeLimit(.minutes(30))) struct GluedCounterTakenTests {
    @Test(arguments: [("0.22.1-rc0", true), ("0.22.1-rc.0", true), ("0.22.1-rc1", false), ("0.22.1", false)])
    func aCandidateTaggedInAnotherSpellingIsTaken(proposed: String, taken: Bool) throws {
        let tagged = try SemanticVersion(parsing: "0.22.1-rc.0")
        let released = ReleasedVersions(entries: [.init(tag: "v0.22.1rc0", version: tagged)])
        #expect((released.tag(naming: try SemanticVersion(parsing: proposed)) != nil) == taken)
    }

    @Test func ungluedSplitsACounterFromItsName() throws {
        #expect(try SemanticVersion(parsing: "1.0.0-beta2.x").unglued.description == "1.0.0-beta.2.x")
        #expect(try SemanticVersion(parsing: "1.0.0-2rc").unglued.description == "1.0.0-2rc")
    }
}
