import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlModel
@testable import RelctlProject

/// `ReleaseIdentity.resolve`, the one way from a tag to a release: how strict each caller is, on
/// real repositories.
@Suite("Release identity", .timeLimit(.minutes(30)), .removesTemporaries)
struct ReleaseIdentityTests {
    /// A project whose VERSION file holds 1.2.3, in `directory`.
    func project(in directory: TemporaryDirectory, versions: Bool = true) throws {
        try directory.write("VERSION", "1.2.3\n")
        try directory.write(
            "relctl.toml",
            "[project]\nname = \"demo\"\n" + (versions ? "\n[[version]]\npath = \"VERSION\"\n" : ""))
    }

    func load(_ url: URL, environment: [String: String] = [:]) throws -> (RelctlConfig, Context) {
        let context = Context(workingDirectory: url, environment: environment)
        return (try ConfigLoader.load(path: nil, context: context), context)
    }

    @Test func packagingRefusesATagOnAnotherCommitWhereTheImageTakesTheTags() async throws {
        let repository = try GitRepository()
        try project(in: repository.directory)
        let tagged = try repository.commit("release", date: "2025-03-04T05:06:07Z")
        try repository.git("tag", "v1.2.3")
        let head = try repository.commit("later", date: "2025-06-01T00:00:00Z")
        let (config, context) = try load(repository.url)
        do {
            _ = try await ReleaseIdentity.resolve(tag: "v1.2.3", config: config, context: context, .packaging)
            Issue.record("packaged a tag that is not HEAD")
        } catch let error as IdentityError {
            #expect(error.exitCode == .failure)
            #expect(
                error.description
                    == "tag v1.2.3 is commit \(tagged.prefix(12)) but HEAD is \(head.prefix(12)); the archives would hold HEAD's files under v1.2.3's name: `git checkout v1.2.3` first, or package a new tag"
            )
        }
        let image = try await ReleaseIdentity.resolve(tag: "v1.2.3", config: config, context: context, .image)
        #expect(image.commit == tagged && image.version.description == "1.2.3")
        #expect(image.sourceDateEpoch == 1_741_064_767, "the tagged commit's time, not HEAD's")
        // Before the tag exists, both release HEAD at its time.
        try repository.git("tag", "-d", "v1.2.3")
        let packaging = try await ReleaseIdentity.resolve(tag: "v1.2.3", config: config, context: context, .packaging)
        #expect(packaging.commit == head && packaging.sourceDateEpoch == 1_748_736_000)
    }

    /// Every command resolves an identity, so its git calls are a fixed cost of each (an unchanged
    /// image re-push is ~0.05 s in all): a tag naming a commit is read in one call with its time,
    /// and packaging adds only HEAD. A wrapper on PATH counts the calls.
    @Test func aTaggedCommitAndItsTimeCostOneGitCall() async throws {
        let repository = try GitRepository()
        try project(in: repository.directory)
        let tagged = try repository.commit("release", date: "2025-03-04T05:06:07Z")
        try repository.git("tag", "-a", "v1.2.3", "-m", "v1.2.3")
        let wrappers = try TemporaryDirectory()
        let log = wrappers.url.appendingPathComponent("calls")
        let git = wrappers.url.appendingPathComponent("git")
        try writeExecutable("#!/bin/sh\necho \"$*\" >> '\(log.path)'\nexec /usr/bin/git \"$@\"\n", to: git)
        let (config, context) = try load(repository.url, environment: ["PATH": wrappers.url.path + ":/usr/bin:/bin"])
        func calls() throws -> [String] {
            defer { try? FileManager.default.removeItem(at: log) }
            guard FileManager.default.fileExists(atPath: log.path) else { return [] }
            return try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
        }
        let image = try await ReleaseIdentity.resolve(tag: "v1.2.3", config: config, context: context, .image)
        #expect(image.commit == tagged && image.sourceDateEpoch == 1_741_064_767)
        #expect(try calls().count == 1)
        let packaging = try await ReleaseIdentity.resolve(tag: "v1.2.3", config: config, context: context, .packaging)
        #expect(packaging.commit == tagged && packaging.sourceDateEpoch == 1_741_064_767)
        #expect(try calls().count == 2, "the tag's commit and time, then HEAD")
    }

    @Test func buildNeedsNoGitWherePackagingNeedsAClock() async throws {
        let directory = try TemporaryDirectory()
        try project(in: directory)
        let (config, context) = try load(directory.url)
        let identity = try await ReleaseIdentity.resolve(tag: nil, config: config, context: context, .build)
        #expect(identity.buildInputs == BuildInputs(tag: "v1.2.3", version: "1.2.3", commit: "", sourceDateEpoch: nil))
        let (_, dated) = try load(directory.url, environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        let built = try await ReleaseIdentity.resolve(tag: "v1.2.3", config: config, context: dated, .build)
        #expect(built.buildInputs.sourceDateEpoch == "1700000000")
        do {
            _ = try await ReleaseIdentity.resolve(tag: "v1.2.3", config: config, context: context, .packaging)
            Issue.record("packaged without a clock")
        } catch let error as IdentityError {
            #expect(error.exitCode == .badInput)
            #expect(
                error.description
                    == "cannot choose the archive timestamp: \(directory.url.path) is not a git repository; set SOURCE_DATE_EPOCH or run inside the project's git repository"
            )
        }
        let packaged = try await ReleaseIdentity.resolve(tag: "v1.2.3", config: config, context: dated, .packaging)
        #expect(packaged.commit == "" && packaged.sourceDateEpoch == 1_700_000_000)
    }

    @Test func aBuildWithoutTagNeedsAVersionManifest() async throws {
        let directory = try TemporaryDirectory()
        try project(in: directory, versions: false)
        let (config, context) = try load(directory.url)
        do {
            _ = try await ReleaseIdentity.resolve(tag: nil, config: config, context: context, .build)
            Issue.record("built without a version")
        } catch let error as IdentityError {
            #expect(error.exitCode == .badInput)
            #expect(
                error.diagnostics.map(\.message) == [
                    "no [[version]] entry to take the version from; pass --tag TAG (e.g. --tag v1.0.0) or add a [[version]] manifest"
                ])
        }
    }

    @Test func eachCallerSaysHowStrictlyTheManifestsAreRead() throws {
        let directory = try TemporaryDirectory()
        try project(in: directory)
        let (config, _) = try load(directory.url)
        let unread = try ReleaseIdentity.check("v1.3.0", config: config, manifests: .unread)
        #expect(unread.version == SemanticVersion(major: 1, minor: 3, patch: 0) && unread.validation == nil)
        let compared = try ReleaseIdentity.check("v1.3.0", config: config, manifests: .compared)
        #expect(compared.validation?.sources.map(\.matches) == [false])
        #expect(compared.validation?.mismatchError?.exitCode == .failure)
        #expect(throws: TagValidationError.self) {
            try ReleaseIdentity.check("v1.3.0", config: config, manifests: .matching)
        }
        #expect(
            try ReleaseIdentity.check("v1.2.3", config: config, manifests: .matching).validation?.version == "1.2.3")
    }

    @Test func examiningKeepsTheVersionOfATagThatFailsItsOtherChecks() throws {
        let directory = try TemporaryDirectory()
        try project(in: directory)
        let (config, _) = try load(directory.url)
        // Well-formed, but longer than the folders named after a tag allow.
        let long = "v1.2.3-" + String(repeating: "a", count: 300)
        let examined = ReleaseIdentity.examine(long, config: config, manifests: .compared)
        #expect(examined.version?.prerelease.map(\.description) == [String(repeating: "a", count: 300)])
        #expect(throws: TagValidationError.self) { try examined.checked.get() }
        // Only the spelling asked: the length is not the caller's business (`build --tag`).
        let spelling = ReleaseIdentity.examine(long, config: config, manifests: .unread)
        #expect(spelling.version == examined.version && (try? spelling.checked.get()) != nil)
        let malformed = ReleaseIdentity.examine("1.2.3", config: config, manifests: .compared)
        #expect(malformed.version == nil)
        #expect(throws: VersionError.self) { try malformed.checked.get() }
    }
}
