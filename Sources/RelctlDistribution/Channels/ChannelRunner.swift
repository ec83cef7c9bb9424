import Foundation
import RelctlArtifacts
import RelctlBasics

/// Runs channels' `write` for a release and lists their assets in the checksum file. Shared by the
/// release's channel stage (writing into the staging folder) and the step commands (into dist/).
package enum ChannelRunner {
    /// Every channel writes in turn into `release.dist` (a staging folder); the first failure stops
    /// the rest and is thrown, and the caller drops the staging folder with whatever it holds.
    /// - Parameter previous: the folder the written files will replace files of (dist/ for the step
    ///   commands, whose staging folder starts empty), or nil when they are written in place.
    package static func write(
        _ channels: [any Channel], release: ChannelRelease, previous: URL? = nil,
        progress: (String) -> Void = { _ in }
    ) async throws -> [ChannelOutput] {
        var outputs: [ChannelOutput] = []
        let previousNames = try previous.map { try names(in: $0) } ?? []
        for channel in channels {
            progress("writing \(channel.title)")
            // Names taken before a plugin runs are not its own, whatever it answers.
            let isPlugin = channel is PluginChannel
            let before = isPlugin ? try names(in: release.dist) : []
            let output = try await channel.write(release)
            try validate(output, in: release.dist)
            if isPlugin {
                try checkClaims(
                    output, taken: before.union(outputs.flatMap(\.files)),
                    previous: previous.map { ($0, previousNames) },
                    release: release)
            }
            outputs.append(output)
        }
        return outputs
    }

    /// A plugin's files must be new: not a name taken before it ran (archives, `SHA256SUMS`,
    /// `manifest.json`, another channel's files), and never a name relctl keeps for itself
    /// (checksum lists, the manifest, signatures, provenance, the release's artifacts) even when
    /// absent, so a plugin cannot list or replace them. A file of `previous` (dist/, for a step
    /// command) is refused too unless the plugin wrote exactly its bytes again: the same step run
    /// twice for one release replaces nothing.
    package static func checkClaims(
        _ output: ChannelOutput, taken: Set<String>, previous: (folder: URL, names: Set<String>)?,
        release: ChannelRelease
    ) throws {
        let artifacts = Set(release.archives.map(\.name))
        for file in output.files {
            let name = file.split(separator: "/").last.map(String.init) ?? file
            if let reason = reservedReason(file: file, name: name, artifacts: artifacts) {
                throw ChannelError.pluginClaim(name: output.channel, file: file, reason: reason)
            }
            var existed = taken.contains(file)
            if !existed, let previous, previous.names.contains(file) {
                existed = try !sameBytes(
                    previous.folder.appendingPathComponent(file), release.dist.appendingPathComponent(file))
            }
            if existed {
                throw ChannelError.pluginClaim(
                    name: output.channel, file: file,
                    reason:
                        "was in dist before the plugin ran (the release's, another step's or another channel's file)")
            }
        }
    }

    private static func sameBytes(_ one: URL, _ other: URL) throws -> Bool {
        guard FileKind.isRegularFile(one.path), FileKind.isRegularFile(other.path) else { return false }
        let first = try FileHasher.digest(of: one, algorithms: [.sha256])
        let second = try FileHasher.digest(of: other, algorithms: [.sha256])
        return first[.sha256] == second[.sha256]
    }

    private static func reservedReason(file: String, name: String, artifacts: Set<String>) -> String? {
        if artifacts.contains(file) { return "is one of the release's packaged files (manifest.json lists it)" }
        let lists = ChecksumAlgorithm.allCases.map(\.sumsFileName)
        if lists.contains(name) || name == ReleaseManifest.fileName {
            return "is a name relctl writes itself (checksum list or manifest)"
        }
        let suffixes = [
            ReleaseSigner.sshExtension, ReleaseSigner.minisignExtension, ProvenanceWriter.fileExtension, ".asc",
            ".sha256", ".sha512",
        ]
        if let suffix = suffixes.first(where: { name.hasSuffix($0) }) {
            return "ends in `\(suffix)`, which relctl keeps for signatures, provenance and checksums"
        }
        return nil
    }

    /// Every file's path in `folder` relative to it (sub-folders walked, links not followed).
    package static func names(in folder: URL) throws -> Set<String> {
        var found: Set<String> = []
        func walk(_ url: URL, _ prefix: String) throws {
            for name in try FileSystem.names(in: url) {
                let path = prefix + name
                found.insert(path)
                let child = url.appendingPathComponent(name)
                if FileSystem.statusIfPresent(atPath: child.path, followingLinks: false)?.isDirectory == true {
                    try walk(child, path + "/")
                }
            }
        }
        if FileSystem.exists(folder) { try walk(folder, "") }
        return found
    }

    /// Each file is a regular file inside dist, reached without leaving it through a link, and
    /// each asset sits directly in dist (assets are uploaded under their plain names).
    package static func validate(_ output: ChannelOutput, in dist: URL) throws {
        for file in output.files {
            if !ConfinedPath.isPlainRelative(file) {
                throw ChannelError.pluginBadFile(
                    name: output.channel, file: file, reason: "is not a plain path relative to dist")
            }
            let url = dist.appendingPathComponent(file)
            guard let info = FileSystem.statusIfPresent(atPath: url.path, followingLinks: false) else {
                throw ChannelError.pluginBadFile(name: output.channel, file: file, reason: "does not exist")
            }
            guard info.isRegularFile else {
                throw ChannelError.pluginBadFile(
                    name: output.channel, file: file, reason: "is not a regular file (\(FileKind.describe(info.mode)))")
            }
            do { _ = try ConfinedPath.resolveInside(file, root: dist, what: "channel \(output.channel)") } catch let
                error
                as ConfinedPathError
            {
                throw ChannelError.pluginBadFile(
                    name: output.channel, file: file, reason: "passes through \(error.step), outside dist")
            }
        }
        for asset in output.assets where asset.contains("/") || !output.files.contains(asset) {
            throw ChannelError.pluginBadFile(
                name: output.channel, file: asset, reason: "is an asset but not a file directly in dist")
        }
    }

    /// Adds (or replaces) the assets' lines in dist's combined checksum file, sorted, atomically.
    package static func list(_ assets: [String], in dist: URL, algorithm: ChecksumAlgorithm) throws {
        guard !assets.isEmpty else { return }
        let sumsFile = dist.appendingPathComponent(algorithm.sumsFileName)
        var sums = FileSystem.exists(sumsFile) ? try ChecksumFile.read(sumsFile) : ChecksumFile(entries: [])
        let names = Set(assets)
        sums.entries.removeAll { names.contains($0.name) }
        for asset in assets.sorted(by: bytewiseLess) {
            let url = dist.appendingPathComponent(asset)
            let digest = try FileHasher.digest(of: url, algorithms: [algorithm])
            sums.entries.append(ChecksumFile.Entry(name: asset, digest: digest[algorithm], algorithm: algorithm))
        }
        try AtomicFile.write(sums.sorted.render(), to: sumsFile)
    }
}
