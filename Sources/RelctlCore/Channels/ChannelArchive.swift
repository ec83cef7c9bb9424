import Foundation
import RelctlBasics

/// One release archive as a channel sees it: what `manifest.json` records, where the file is,
/// and (when the repository is known) the URL users download it from.
package struct ChannelArchive: Sendable, Equatable, Encodable {
    package var name: String
    package var target: String
    package var format: String
    package var size: Int64
    package var sha256: String
    /// Absolute path of the archive.
    package var path: String
    /// The download URL of the release asset; nil when the repository is unknown.
    package var url: String?

    /// The target's triple, parsed: OS and architecture decide which package manager gets it.
    package var triple: TargetTriple { TargetTriple(target) }
}
