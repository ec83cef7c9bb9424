import Foundation
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
