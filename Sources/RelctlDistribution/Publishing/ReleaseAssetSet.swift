import Foundation
import RelctlArtifacts
import RelctlBasics

/// The files a release carries: every file `SHA256SUMS` lists (archives, their SBOMs, installers),
/// `SHA256SUMS` itself, and, when present, `manifest.json`, the signatures of `SHA256SUMS` and this
/// tag's provenance (which covers the listed files, so the list cannot name it).
/// Nothing else in dist/ goes up: files of other tags lie there after earlier releases, so only
/// the list says what belongs to this one. Built and checked entirely before any request: a
/// listed file that is missing or changed, or a dist/ holding another tag's list, stops here.
public struct ReleaseAssetSet: Sendable, Equatable {
    package static let sumsFileName = ChecksumAlgorithm.sha256.sumsFileName
    /// Companions of the list that are attached when they exist.
    package static let companions = [ReleaseManifest.fileName, sumsFileName + ".sig", sumsFileName + ".minisig"]

    /// Sorted by name, so uploads happen in the same order on every run; each with its path and
    /// its SHA-256 as the file is now.
    public package(set) var assets: [Artifact]

    public init(assets: [Artifact]) {
        self.assets = assets.sorted { $0.name < $1.name }
    }

    public var names: [String] { assets.map(\.name) }

    /// Reads `dist/SHA256SUMS`, checks every listed file exists and still has its listed SHA256,
    /// and hashes the companions. `shownDist` is the folder as the user should read it. With
    /// `tag`, a `manifest.json` of another tag means dist/ holds another release: refused. A
    /// `tagOnly` release (no `[[target]]`) without a list has no assets: its release is its notes.
    public static func collect(
        dist: URL, shownDist: String, tag: String? = nil, tagOnly: Bool = false, jobs: Int? = nil
    ) async throws -> ReleaseAssetSet {
        let sumsURL = dist.appendingPathComponent(sumsFileName)
        let folder = shownDist.hasSuffix("/") ? shownDist : shownDist + "/"
        let shownSums = folder + sumsFileName
        let manifest = try ReleaseManifest.read(in: dist)
        if let tag, let manifest, manifest.tag.isEmpty {
            throw PublishError.manifestNamesNoRelease(manifest: folder + ReleaseManifest.fileName, tag: tag)
        }
        if let tag, let manifest, manifest.tag != tag {
            throw PublishError.otherRelease(
                manifest: folder + ReleaseManifest.fileName, manifestTag: manifest.tag, tag: tag)
        }
        if tagOnly, !FileSystem.exists(sumsURL) { return ReleaseAssetSet(assets: []) }
        let list = try ChecksumFile.read(sumsURL, displayPath: shownSums)

        var listed: [String: String] = [:]
        var missing: [String] = []
        for entry in list.entries where entry.algorithm == .sha256 {
            guard !entry.name.isEmpty, !entry.name.contains("/"), entry.name != ".", entry.name != ".." else {
                throw PublishError.badAssetName(sums: shownSums, name: entry.name, line: entry.line)
            }
            if FileSystem.kind(of: dist.appendingPathComponent(entry.name)) != .file { missing.append(entry.name) }
            listed[entry.name] = entry.digest.lowercased()
        }
        if !missing.isEmpty { throw PublishError.missingFiles(sums: shownSums, names: missing.sorted()) }

        var names = Set(listed.keys)
        names.insert(sumsFileName)
        var present = companions
        if let manifest, !manifest.tag.isEmpty {
            // Named after manifest.json's project and tag, so another tag's provenance never goes up.
            present.append(ProvenanceWriter.fileName(project: manifest.project, tag: manifest.tag))
        }
        for name in present where FileSystem.exists(dist.appendingPathComponent(name)) {
            names.insert(name)
        }

        let ordered = names.sorted()
        let digests = try await FileHasher.digests(
            of: ordered.map { dist.appendingPathComponent($0) }, algorithms: [.sha256], jobs: jobs)
        var changed: [String] = []
        var assets: [Artifact] = []
        for (name, digest) in zip(ordered, digests) {
            if let expected = listed[name], expected != digest[.sha256] { changed.append(name) }
            assets.append(
                Artifact(
                    name: name, kind: .of(fileName: name), format: ArtifactName.format(of: name) ?? "",
                    size: digest.size, sha256: digest[.sha256], path: digest.url.path))
        }
        if !changed.isEmpty { throw PublishError.changedFiles(sums: shownSums, names: changed) }
        return ReleaseAssetSet(assets: assets)
    }
}
