import Foundation
import RelctlBasics
import RelctlModel

/// One release archive as a channel sees it: what `manifest.json` records, where the file is,
/// and (when the repository is known) the URL users download it from.
public struct ChannelArchive: Sendable, Equatable, Encodable {
    public package(set) var name: String
    public package(set) var target: String
    public package(set) var format: String
    public package(set) var size: Int64
    public package(set) var sha256: String
    /// Absolute path of the archive.
    public package(set) var path: String
    /// The download URL of the release asset; nil when the repository is unknown.
    public package(set) var url: String?

    /// The target's triple, parsed: OS and architecture decide which package manager gets it.
    package var triple: TargetTriple { TargetTriple(target) }
}
