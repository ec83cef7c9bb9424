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
