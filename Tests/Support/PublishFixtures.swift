import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlChanges
import RelctlDistribution
import RelctlModel
import RelctlProject
import RelctlRelease

/// A project shaped like a real one after `relctl release`: a git repository with an `origin`
/// on GitHub, relctl.toml, and dist/ holding two archives, SHA256SUMS, manifest.json and notes.
public struct PublishFixture: Sendable {
    public let repository: GitRepository
    public var url: URL { repository.url }
    public var dist: URL { url.appendingPathComponent("dist") }
    public static let archives = [ChecksumFixtures.linux, ChecksumFixtures.windows]
    public static let notes = "## Features\n\n- streaming joins (abc1234)\n"

    /// `remote` is the origin URL (the repository is found from it when nothing else names one).
    public init(
        remote: String = "git@github.com:acme/velostream.git", size: Int = 100_000, tag: String = "v1.0.0"
    ) throws {
        repository = try GitRepository()
        try repository.directory.write("relctl.toml", "[project]\nname = \"velostream\"\n")
        try repository.directory.write(".gitignore", "dist/\n")
        try repository.commit("feat: streaming joins")
        try repository.git("remote", "add", "origin", remote)
        let names = Self.archives.map { $0.replacingOccurrences(of: "v1.0.0", with: tag) }
        try ChecksumFixtures.makeDist(in: repository.directory, names: names, size: size)
        let checksum = try relctl(["checksum", "dist"], in: repository.url)
        guard checksum.status == 0 else { throw TestFailure("relctl checksum failed: \(checksum)") }
        try repository.directory.write("dist/RELEASE_NOTES.md", Self.notes)
    }

    /// The asset names a publish must attach, sorted.
    public func expectedAssets() throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: dist.path)
        return names.filter { $0 != "RELEASE_NOTES.md" && !$0.hasSuffix(".sha256") }.sorted()
    }

    /// `sha256:HEX` of a dist/ file, as GitHub reports digests.
    public func digest(_ name: String) throws -> String {
        "sha256:" + (try FileHasher.sha256(of: dist.appendingPathComponent(name)))
    }

    public func remove() { repository.directory.remove() }
}
