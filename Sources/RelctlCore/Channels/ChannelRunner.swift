import Foundation
import RelctlBasics

/// Runs channels' `write` for a release and lists their assets in the checksum file. Shared by the
/// release's channel stage (writing into the staging folder) and the step commands (into dist/).
package enum ChannelRunner {
    /// Every channel writes in turn into `release.dist` (a staging folder); the first failure stops
    /// the rest and is thrown, and the caller drops the staging folder with whatever it holds.
    package static func write(
        _ channels: [any Channel], release: ChannelRelease, progress: (String) -> Void = { _ in }
    ) async throws -> [ChannelOutput] {
        var outputs: [ChannelOutput] = []
        for channel in channels {
            progress("writing \(channel.title)")
            let output = try await channel.write(release)
            try validate(output, in: release.dist)
            outputs.append(output)
        }
        return outputs
    }

    /// Each file is a regular file inside dist, reached without leaving it through a link, and
    /// each asset sits directly in dist (assets are uploaded under their plain names).
    package static func validate(_ output: ChannelOutput, in dist: URL) throws {
        let root = dist.resolvingSymlinksInPath().path
        for file in output.files {
            let parts = file.split(separator: "/", omittingEmptySubsequences: false)
            if file.isEmpty || file.hasPrefix("/") || parts.contains("..") || parts.contains("") || parts.contains(".") {
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
            let resolved = url.resolvingSymlinksInPath().path
            guard resolved.hasPrefix(root + "/") else {
                throw ChannelError.pluginBadFile(
                    name: output.channel, file: file, reason: "resolves to \(resolved), outside dist")
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
