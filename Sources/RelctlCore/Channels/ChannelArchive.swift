import Foundation

/// One release archive as a channel sees it: what `manifest.json` records, where the file is,
/// and (when the repository is known) the URL users download it from.
struct ChannelArchive: Sendable, Equatable, Encodable {
    var name: String
    var target: String
    var format: String
    var size: Int64
    var sha256: String
    /// Absolute path of the archive.
    var path: String
    /// The download URL of the release asset; nil when the repository is unknown.
    var url: String?

    /// The target's triple, parsed: OS and architecture decide which package manager gets it.
    var triple: TargetTriple { TargetTriple(target) }
}
