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

@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct VersionBumpTests {
    func v(_ text: String) throws -> SemanticVersion { try SemanticVersion(parsing: text) }

    @Test func rules() throws {
        #expect(VersionBump.next(after: try v("1.2.3"), level: .major) == (try v("2.0.0")))
        #expect(VersionBump.next(after: try v("1.2.3"), level: .minor) == (try v("1.3.0")))
        #expect(VersionBump.next(after: try v("1.2.3"), level: .patch) == (try v("1.2.4")))
        #expect(
            VersionBump.next(after: try v("0.4.1"), level: .major) == (try v("0.5.0")),
            "below 1.0.0 breaking bumps minor")
        #expect(VersionBump.next(after: try v("1.0.0-rc.1"), level: .major) == (try v("1.0.0-rc.2")))
        #expect(VersionBump.next(after: try v("2.0.0-beta"), level: .patch) == (try v("2.0.0-beta.1")))
        #expect(VersionBump.next(after: try v("1.0.0-rc.9+build.5"), level: .minor) == (try v("1.0.0-rc.10")))
    }

    func config(_ repo: GitRepository, _ versions: [VersionSource] = []) -> RelctlConfig {
        var config = RelctlConfig.defaults(root: repo.url)
        config.versions = versions
        return config
    }

    @Test func computesFromHistory() async throws {
        let repo = try GitRepository()
        let git = Git(directory: repo.url, context: Context(workingDirectory: repo.url))
        try repo.commit("feat: first")
        #expect(try await VersionBump.compute(git: git, config: config(repo)).next == VersionBump.initialVersion)
        try repo.git("tag", "v1.4.2")
        try repo.commit("fix: a")
        #expect(try await VersionBump.compute(git: git, config: config(repo)).next == (try v("1.4.3")))
        try repo.commit("feat(x): b")
        let minor = try await VersionBump.compute(git: git, config: config(repo))
        #expect(
            minor.next == (try v("1.5.0")) && minor.level == .minor && minor.previousTag == "v1.4.2"
                && minor.commitCount == 2)
        try repo.commit("fix: c\n\nBREAKING CHANGE: d", files: ["c.txt": "c\n"])
        #expect(try await VersionBump.compute(git: git, config: config(repo)).next == (try v("2.0.0")))
        // A reverted breaking change no longer counts.
        try repo.git("revert", "--no-edit", "HEAD")
        #expect(try await VersionBump.compute(git: git, config: config(repo)).next == (try v("1.5.0")))
        try repo.git("tag", "v2.0.0-rc.1")
        try repo.commit("feat!: e")
        let rc = try await VersionBump.compute(git: git, config: config(repo))
        #expect(rc.next == (try v("2.0.0-rc.2")) && rc.level == .prerelease)
    }

    @Test func devVersionsAreNeverLowered() async throws {
        // flask 3.2.0.dev, and 1.1.0.dev0 / 2.0.0.dev0 once became 3.1.4 / 1.0.1.
        for (manifest, lastTag, expected) in [
            ("3.2.0.dev", "v3.1.3", "3.2.0"), ("1.1.0.dev0", "v1.0.0", "1.1.0"), ("2.0.0.dev0", "v1.0.0", "2.0.0"),
            ("1.0rc1.dev2", "v0.9.0", "1.0.0-rc.1"), ("1.0.0.post1", "v1.0.0", "1.0.1"),
        ] {
            let repo = try GitRepository()
            try repo.directory.write("pyproject.toml", "[project]\nname = \"x\"\nversion = \"\(manifest)\"\n")
            try repo.commit("chore: start")
            try repo.git("tag", lastTag)
            try repo.commit("fix: a")
            let cfg = config(repo, [VersionSource(path: "pyproject.toml", kind: "python")])
            let bump = try await VersionBump.compute(
                git: Git(directory: repo.url, context: Context(workingDirectory: repo.url)), config: cfg)
            #expect(bump.next == (try v(expected)), "\(manifest) after \(lastTag)")
            #expect(throws: NotesError.self, "\(manifest) is above 1.0.0") {
                try VersionBump.write(try v("0.0.9"), config: cfg)
            }
            try VersionBump.write(bump.next, config: cfg)
            #expect(
                VersionBump.isBelow(
                    bump.next, manifestText: try ManifestReaders.read(cfg.versions[0], root: repo.url).text,
                    comparison: .pep440) == false)
        }
    }

    @Test func hugeNumbersMoveUp() throws {
        #expect(
            VersionBump.next(after: try v("1.2.99999999999999999999"), level: .patch)
                == (try v("1.2.100000000000000000000")))
    }

    @Test func writesOnlyTheVersionText() throws {
        let repo = try GitRepository()
        let cargo =
            "[package]\nname = \"x\"\n# version = \"1.4.2\" stays a comment\nversion = \"1.4.2\"  # keep me\n\n[dependencies]\nfoo = { version = \"1.4.2\" }\n"
        try repo.directory.write("Cargo.toml", cargo)
        try repo.directory.write("pyproject.toml", "[project]\nname = \"x\"\nversion = \"1.4.2\"\n")
        try repo.directory.write("VERSION", "1.4.2\n")
        let sources = [
            VersionSource(path: "Cargo.toml", kind: "cargo"), VersionSource(path: "pyproject.toml", kind: "python"),
            VersionSource(path: "VERSION", kind: "plain"),
        ]
        let written = try VersionBump.write(try v("2.0.0-rc.1"), config: config(repo, sources))
        #expect(written == ["Cargo.toml", "pyproject.toml", "VERSION"])
        #expect(
            try repo.directory.read("Cargo.toml")
                == cargo.replacingOccurrences(
                    of: "version = \"1.4.2\"  # keep", with: "version = \"2.0.0-rc.1\"  # keep"))
        #expect(try repo.directory.read("pyproject.toml") == "[project]\nname = \"x\"\nversion = \"2.0.0rc1\"\n")
        #expect(try repo.directory.read("VERSION") == "2.0.0-rc.1\n")
        // Writing the same version again changes nothing.
        #expect(try VersionBump.write(try v("2.0.0-rc.1"), config: config(repo, sources)).isEmpty)
        // A missing manifest fails before anything is written.
        let broken = sources + [VersionSource(path: "missing/Cargo.toml", kind: "cargo")]
        #expect(throws: ManifestError.self) { try VersionBump.write(try v("3.0.0"), config: config(repo, broken)) }
        #expect(try repo.directory.read("VERSION") == "2.0.0-rc.1\n")
    }

    @Test func writeLeavesADependencyOnTheVersionsLineAlone() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "package.json", #"{"name":"x","dependencies":{"left-pad":"^1.0.0"},"version":"1.0.0"}"# + "\n")
        try VersionBump.write(try v("1.1.0"), config: config(repo, [VersionSource(path: "package.json", kind: "npm")]))
        #expect(
            try repo.directory.read("package.json")
                == #"{"name":"x","dependencies":{"left-pad":"^1.0.0"},"version":"1.1.0"}"# + "\n")
        #expect(
            VersionBump.versionRange(of: "1.0.0", in: "x = \"11.0.0\" # 1.0.0").map {
                "x = \"11.0.0\" # 1.0.0"[$0.lowerBound...]
            } == "1.0.0")
    }

    @Test func withoutATagTheManifestsUnreleasedVersionIsNext() async throws {
        let repo = try GitRepository()
        let git = Git(directory: repo.url, context: Context(workingDirectory: repo.url))
        try repo.commit("feat: first", files: ["VERSION": "2.3.0\n"])
        let sources = [VersionSource(path: "VERSION", kind: "plain")]
        let bump = try await VersionBump.compute(git: git, config: config(repo, sources))
        #expect(bump.next == (try v("2.3.0")), "never lower the manifest to 0.1.0")
        #expect(try VersionBump.write(bump.next, config: config(repo, sources)).isEmpty)
        try repo.directory.write("VERSION", "0.0.0\n")
        #expect(
            try await VersionBump.compute(git: git, config: config(repo, sources)).next == VersionBump.initialVersion)
    }

    @Test func writeNeverLowersAManifestAlreadyAhead() throws {
        let repo = try GitRepository()
        try repo.directory.write("VERSION", "2.0.0\n")
        try repo.directory.write("other.txt", "1.0.0\n")
        let sources = [VersionSource(path: "other.txt", kind: "plain"), VersionSource(path: "VERSION", kind: "plain")]
        #expect(throws: NotesError.self) { try VersionBump.write(try v("1.1.0"), config: config(repo, sources)) }
        #expect(try repo.directory.read("VERSION") == "2.0.0\n")
        #expect(try repo.directory.read("other.txt") == "1.0.0\n", "nothing written when one manifest is refused")
        // Python's own spelling is compared too.
        try repo.directory.write("pyproject.toml", "[project]\nname = \"x\"\nversion = \"1.2.0rc1\"\n")
        let python = [VersionSource(path: "pyproject.toml", kind: "python")]
        #expect(throws: NotesError.self) { try VersionBump.write(try v("1.1.0"), config: config(repo, python)) }
        #expect(VersionBump.releasableVersion(ofManifestText: "1.2.0rc1", comparison: .pep440) == (try v("1.2.0-rc.1")))
        #expect(VersionBump.semanticVersion(ofManifestText: "2.0") == (try v("2.0.0")))
    }

    @Test func writesCRLFManifestsInPlaceKeepingTheirLineEndings() throws {
        let repo = try GitRepository()
        let cargo = "\u{FEFF}[package]\r\nname = \"x\"\r\n\r\nversion = \"1.4.2\"\r\n"
        try repo.directory.write("Cargo.toml", cargo)
        try repo.directory.write("VERSION", "\r\n1.4.2\r\n")
        let sources = [VersionSource(path: "Cargo.toml", kind: "cargo"), VersionSource(path: "VERSION", kind: "plain")]
        #expect(try VersionBump.write(try v("1.5.0"), config: config(repo, sources)) == ["Cargo.toml", "VERSION"])
        // Bytes, not a String read: the byte-order mark must survive too.
        #expect(
            try Data(contentsOf: repo.url.appendingPathComponent("Cargo.toml"))
                == Data(cargo.replacingOccurrences(of: "1.4.2", with: "1.5.0").utf8))
        #expect(try repo.directory.read("VERSION") == "\r\n1.5.0\r\n")
    }
}
