import Foundation

/// The JSON document a plugin channel reads on stdin (protocol 1, see docs/channels.md).
struct ChannelRequest: Sendable, Encodable, Equatable {
    static let currentProtocol = 1

    var `protocol` = ChannelRequest.currentProtocol
    var channel: String
    var project: String
    var tag: String
    var version: String
    var commit: String
    /// Absolute path of the folder the plugin writes its files into.
    var dist: String
    var dryRun: Bool
    /// SOURCE_DATE_EPOCH or the commit time, for anything the plugin dates.
    var sourceDateEpoch: Int
    var downloadBase: String?
    /// Each with its absolute `path` and, when the repository is known, its download `url`.
    var archives: [ChannelArchive]

    init(channel: String, release: ChannelRelease) {
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
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(UInt8(ascii: "\n"))
        return data
    }
}
