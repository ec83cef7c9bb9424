import Foundation
import RelctlBasics

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
        let result: ProcessResult
        do { result = try await release.context.processes.run(invocation) } catch {
            throw ChannelError.pluginFailed(name: name, command: invocation.description, status: 127, output: "\(error)")
        }
        guard result.succeeded else {
            throw ChannelError.pluginFailed(
                name: name, command: invocation.description, status: result.status,
                output: result.stderrText + result.stdoutText)
        }
        for line in result.stderrText.split(separator: "\n") { release.context.console.detail("\(name): \(line)") }
        let answer = try ChannelAnswer.parse(result.stdout, channel: name)
        return ChannelOutput(channel: name, files: answer.files, assets: answer.files, published: answer.published)
    }
}
