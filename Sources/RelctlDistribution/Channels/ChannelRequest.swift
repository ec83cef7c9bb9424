import Foundation
import RelctlArtifacts
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
    /// The release's archives; each is sent with its absolute `path` and, when the repository is
    /// known, its download `url` (`archiveURLs`, same order).
    package var archives: [Artifact]
    package var archiveURLs: [String?]

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
        archiveURLs = release.archives.map(release.downloadURL(of:))
    }

    private enum CodingKeys: String, CodingKey {
        case `protocol`, channel, project, tag, version, commit, dist, dryRun, sourceDateEpoch, downloadBase, archives
    }

    private enum ArchiveKeys: String, CodingKey {
        case name, target, format, size, sha256, path, url
    }

    /// Protocol 1's document: an archive is the manifest entry's five keys plus `path` and, when
    /// known, `url`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(`protocol`, forKey: .protocol)
        try container.encode(channel, forKey: .channel)
        try container.encode(project, forKey: .project)
        try container.encode(tag, forKey: .tag)
        try container.encode(version, forKey: .version)
        try container.encode(commit, forKey: .commit)
        try container.encode(dist, forKey: .dist)
        try container.encode(dryRun, forKey: .dryRun)
        try container.encode(sourceDateEpoch, forKey: .sourceDateEpoch)
        try container.encodeIfPresent(downloadBase, forKey: .downloadBase)
        var list = container.nestedUnkeyedContainer(forKey: .archives)
        for (archive, url) in zip(archives, archiveURLs) {
            var entry = list.nestedContainer(keyedBy: ArchiveKeys.self)
            try entry.encode(archive.name, forKey: .name)
            try entry.encode(archive.target, forKey: .target)
            try entry.encode(archive.format, forKey: .format)
            try entry.encode(archive.size, forKey: .size)
            try entry.encode(archive.sha256, forKey: .sha256)
            try entry.encode(archive.path ?? "", forKey: .path)
            try entry.encodeIfPresent(url, forKey: .url)
        }
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
