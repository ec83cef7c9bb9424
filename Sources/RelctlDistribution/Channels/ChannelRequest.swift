import Foundation
import RelctlBasics

/// The JSON document a plugin channel reads on stdin (protocol 1, see docs/channels.md).
package struct ChannelRequest: Sendable, Encodable, Equatable {
    package static let currentProtocol = 1

    package var `protocol` = ChannelRequest.currentProtocol
    package var channel: String
    package var project: String
    package var tag: String
    package var version: String
    package var commit: String
    /// Absolute path of the folder the plugin writes its files into.
    package var dist: String
    package var dryRun: Bool
    /// SOURCE_DATE_EPOCH or the commit time, for anything the plugin dates.
    package var sourceDateEpoch: Int
    package var downloadBase: String?
    /// Each with its absolute `path` and, when the repository is known, its download `url`.
    package var archives: [ChannelArchive]

    package init(channel: String, release: ChannelRelease) {
        self.channel = channel
        project = release.project
        tag = release.tag
        version = release.version
        commit = release.commit
        dist = release.dist.path
        dryRun = release.dryRun
        sourceDateEpoch = release.time
        downloadBase = release.downloadBase
        archives = release.archives
    }

    /// Stable bytes: keys sorted, so a plugin sees the same document for the same release.
    package func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(UInt8(ascii: "\n"))
        return data
    }
}
