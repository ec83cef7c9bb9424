import Foundation
import RelctlBasics
import RelctlModel

/// A channel whose one file lives in a git repository of its own (a Homebrew tap, a Scoop bucket):
/// written to `dist/{folder}/{path}` (not a release asset) and, with `--publish`, committed to
/// the repository as `{path}` and pushed by `TapRepository`.
package protocol TapChannel: Channel {
    var settings: ChannelSettings.Repository { get }
    /// `homebrew` or `scoop`: the folder in dist.
    static var folder: String { get }
    /// The file's path inside the repository (`Formula/velostream.rb`) for a checked name.
    static func repositoryPath(name: String) -> String
    func contents(_ release: ChannelRelease) throws -> Data
    func commitMessage(_ release: ChannelRelease) -> String
}

extension TapChannel {
    package var publishedBy: ChannelPublishFlag? { .publish }

    package static func path(name: String) -> String { folder + "/" + repositoryPath(name: name) }

    /// `[homebrew] name` / `[scoop] name`, else the project name, checked.
    package func name(_ release: ChannelRelease) throws -> String {
        try TapChannelName.name(settings, project: release.project, table: id)
    }

    package func write(_ release: ChannelRelease) async throws -> ChannelOutput {
        let path = Self.path(name: try name(release))
        let destination = release.dist.appendingPathComponent(path)
        try FileSystem.createDirectory(destination.deletingLastPathComponent())
        try AtomicFile.write(try contents(release), to: destination)
        return ChannelOutput(channel: id, files: [path], assets: [])
    }

    package func publish(_ release: ChannelRelease, _ output: ChannelOutput) async throws -> [String] {
        let name = try name(release)
        return try await TapRepository(channel: id, url: settings.gitURL, context: release.context).publish(
            files: [Self.repositoryPath(name: name): release.dist.appendingPathComponent(Self.path(name: name))],
            message: commitMessage(release), time: release.time, dryRun: release.dryRun)
    }
}

/// The name of a formula or Scoop manifest: `[homebrew] name` / `[scoop] name`, else the project
/// name. It becomes a file name in the tap or bucket and, for Homebrew, a Ruby class name, so it
/// is checked against the characters Homebrew allows in formula names before either use.
package enum TapChannelName {
    package static let rule =
        "must be a formula name: ASCII letters, digits and `+ . _ @ -`, starting with a letter or digit, at most 128"

    package static func isValid(_ name: String) -> Bool {
        (try? RubyEmitter.className(formula: name)) != nil
    }

    /// The configured name, or the project's; a project name that is no formula name is refused
    /// (exit 2) with the key to set instead.
    package static func name(_ settings: ChannelSettings.Repository, project: String, table: String) throws -> String {
        let name = settings.name ?? project
        let what =
            settings.name == nil
            ? "the \(table) name (the project name; set `name` in [\(table)] to choose one)" : "[\(table)] `name`"
        _ = try RubyEmitter.className(formula: name, what: what)
        return name
    }
}
