import Foundation
import RelctlBasics

/// A place users install from (a Helm chart, a Nix flake, a Homebrew tap, a plugin…). A channel
/// writes its files into the release's dist folder once the archives and their checksums are known,
/// and publishes them later, with `--push` or `--publish`. Built-ins and plugins are registered in
/// `ChannelRegistry` (and a program built on relctl's libraries adds its own with
/// `RelctlExtensions.addChannel`); the release runs them in `ChannelStage` and `ChannelPublishStage`.
public protocol Channel: Sendable {
    /// The registry id (`chart`, `nix`, `homebrew`, `scoop`) or the plugin's name.
    var id: String { get }
    /// What the channel is about, for progress and messages (`chart charts/velostream`).
    var title: String { get }
    /// Which release flag publishes it; nil when writing the files is all it does.
    var publishedBy: ChannelPublishFlag? { get }

    /// Writes the channel's files into `release.dist`. Nothing outside dist is touched; a dry run
    /// writes the same files (they land in the scratch clone).
    func write(_ release: ChannelRelease) async throws -> ChannelOutput
    /// Publishes what `write` wrote. On a dry run, only checks what can be checked without
    /// changing anything. Running it again publishes only what is missing.
    func publish(_ release: ChannelRelease, _ output: ChannelOutput) async throws -> [String]
}

extension Channel {
    public var publishedBy: ChannelPublishFlag? { nil }
    public func publish(_ release: ChannelRelease, _ output: ChannelOutput) async throws -> [String] { [] }
}

/// The `relctl release` flag that publishes a channel.
public enum ChannelPublishFlag: String, Sendable {
    /// `--push`: the chart to its OCI registry, like the images.
    case push
    /// `--publish`: the tap and bucket, whose files point at the release's download URLs.
    case publish
}

/// What a channel wrote: paths relative to dist, and which of them are release assets (listed in
/// `SHA256SUMS` and uploaded). The Homebrew formula and Scoop manifest go to their own
/// repositories instead, so they are written but not listed.
public struct ChannelOutput: Sendable, Equatable, Encodable {
    public var channel: String
    /// Every file written, relative to dist (`velostream-1.2.0.tgz`, `homebrew/Formula/velostream.rb`).
    public var files: [String]
    /// The files that are release assets (a subset of `files`, each directly in dist).
    public var assets: [String]
    /// URLs a plugin reported as published while writing.
    public var published: [String] = []

    public init(channel: String, files: [String], assets: [String], published: [String] = []) {
        self.channel = channel
        self.files = files
        self.assets = assets
        self.published = published
    }
}
