import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel
import Synchronization

/// A channel anyone can add: an executable (`relctl-channel-NAME` on PATH, or `[[channel]] command`)
/// run with one `ChannelRequest` on stdin, answering one `ChannelAnswer` on stdout. It runs in the
/// project root with the release's `RELCTL_*` variables; a non-zero exit fails the channel stage
/// like a built-in's failure (before the tag, so a failing plugin leaves no tag).
package struct PluginChannel: Channel {
    package var name: String
    package var command: [String]

    package var id: String { name }
    package var title: String { "channel \(name)" }

    package func write(_ release: ChannelRelease) async throws -> ChannelOutput {
        let request = try ChannelRequest(channel: name, release: release).encoded()
        var environment = release.context.environment
        environment["RELCTL_CHANNEL"] = name
        ReleaseNames(project: release.project, version: release.version, tag: release.tag).export(into: &environment)
        environment["RELCTL_COMMIT"] = release.commit
        environment["RELCTL_DIST"] = release.dist.path
        environment["RELCTL_DRY_RUN"] = release.dryRun ? "1" : "0"
        let invocation = Command(
            command[0], Array(command.dropFirst()), directory: release.config.root, environment: environment,
            input: request)
        let output = Mutex(Output())
        let status: Int32
        do {
            status = try await release.context.processes.streamChunks(invocation) { stream, chunk in
                output.withLock { $0.take(chunk, from: stream) }
            }
        } catch {
            throw ChannelError.pluginFailed(
                name: name, command: invocation.description, status: 127, output: "\(error)")
        }
        let result = output.withLock { $0 }
        if result.overLimit {
            throw ChannelError.pluginAnswerTooLarge(name: name, limit: Self.answerLimit)
        }
        let stderrText = String(decoding: result.stderr, as: UTF8.self)
        guard status == 0 else {
            throw ChannelError.pluginFailed(
                name: name, command: invocation.description, status: status,
                output: stderrText + String(decoding: result.stdout, as: UTF8.self))
        }
        for line in stderrText.split(separator: "\n") { release.context.console.detail("\(name): \(line)") }
        let answer = try ChannelAnswer.parse(result.stdout, channel: name)
        return ChannelOutput(channel: name, files: answer.files, assets: answer.files, published: answer.published)
    }

    /// The most of a plugin's stdout relctl reads: its answer is one small JSON document, and a
    /// plugin printing without end must not fill relctl's memory. Past it the plugin is stopped.
    package static let answerLimit = 16 << 20
    /// The end of a plugin's stderr kept for messages (it may log as much as it likes).
    package static let stderrTail = 64 << 10

    /// What a plugin printed, bounded as it arrives.
    private struct Output: Sendable {
        var stdout = Data()
        var stderr = Data()
        var overLimit = false

        mutating func take(_ chunk: Data, from stream: OutputChannel) -> StreamVerdict {
            switch stream {
            case .stdout:
                guard stdout.count + chunk.count <= PluginChannel.answerLimit else {
                    overLimit = true
                    return .stop
                }
                stdout.append(chunk)
            case .stderr:
                stderr.append(chunk)
                if stderr.count > 2 * PluginChannel.stderrTail {
                    stderr = Data(stderr.suffix(PluginChannel.stderrTail))
                }
            }
            return .more
        }
    }
}

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

/// The JSON document a plugin channel prints on stdout: the files it wrote into dist (relative to
/// it; each becomes a release asset listed in SHA256SUMS) and the URLs it published to.
package struct ChannelAnswer: Sendable, Decodable, Equatable {
    package var files: [String]
    package var published: [String]

    package enum CodingKeys: String, CodingKey { case files, published }

    package init(files: [String], published: [String]) {
        self.files = files
        self.published = published
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        files = try container.decodeIfPresent([String].self, forKey: .files) ?? []
        published = try container.decodeIfPresent([String].self, forKey: .published) ?? []
    }

    /// Parses stdout; an empty answer or anything but one JSON object is refused with the reason.
    package static func parse(_ data: Data, channel: String) throws -> ChannelAnswer {
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("{") else {
            throw ChannelError.pluginBadAnswer(
                name: channel,
                reason: text.isEmpty
                    ? "stdout was empty (print {\"files\": [], \"published\": []} when there is nothing)"
                    : "stdout does not start with `{`: \(text.prefix(80))")
        }
        do { return try JSONDecoder().decode(ChannelAnswer.self, from: Data(text.utf8)) } catch {
            throw ChannelError.pluginBadAnswer(name: channel, reason: Self.describe(error))
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "`\(path)` must be an array of strings"
        case DecodingError.dataCorrupted(let context):
            return "not valid JSON (\(context.debugDescription))"
        default:
            return "\(error)"
        }
    }
}
