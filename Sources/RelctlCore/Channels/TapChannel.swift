import Foundation
import RelctlBasics

/// A channel whose one file lives in a git repository of its own (a Homebrew tap, a Scoop bucket):
/// written to `dist/{folder}/{path}` (not a release asset) and, with `--publish`, committed to
/// the repository as `{path}` and pushed by `TapRepository`.
package protocol TapChannel: Channel {
    var settings: ChannelSettings.Repository { get }
    /// `homebrew` or `scoop`: the folder in dist.
    static var folder: String { get }
    /// The file's path inside the repository (`Formula/velostream.rb`).
    static func repositoryPath(project: String) -> String
    func contents(_ release: ChannelRelease) throws -> Data
    func commitMessage(_ release: ChannelRelease) -> String
}

extension TapChannel {
    package var publishedBy: ChannelPublishFlag? { .publish }

    package static func path(project: String) -> String { folder + "/" + repositoryPath(project: project) }

    package func write(_ release: ChannelRelease) async throws -> ChannelOutput {
        let path = Self.path(project: release.project)
        let destination = release.dist.appendingPathComponent(path)
        try FileSystem.createDirectory(destination.deletingLastPathComponent())
        try AtomicFile.write(try contents(release), to: destination)
        return ChannelOutput(channel: id, files: [path], assets: [])
    }

    package func publish(_ release: ChannelRelease, _ output: ChannelOutput) async throws -> [String] {
        try await TapRepository(channel: id, url: settings.gitURL, context: release.context).publish(
            files: [
                Self.repositoryPath(project: release.project):
                    release.dist.appendingPathComponent(Self.path(project: release.project))
            ],
            message: commitMessage(release), time: release.time, dryRun: release.dryRun)
    }
}
