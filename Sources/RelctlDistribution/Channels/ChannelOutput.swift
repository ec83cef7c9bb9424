import Foundation
import RelctlBasics

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
