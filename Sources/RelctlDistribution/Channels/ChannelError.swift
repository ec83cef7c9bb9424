import Foundation
import RelctlArtifacts
import RelctlBasics

/// Why a channel could not write or publish. Bad config or a missing input is bad input (exit 2);
/// a channel that ran and failed (a plugin's non-zero exit, a refused push) is a failed step (exit 1).
package enum ChannelError: RelctlError, CustomStringConvertible {
    case unknownChannel(name: String, known: [String])
    case notConfigured(name: String, config: String, how: String)
    case noManifest(dist: String)
    case noDownloadURL(channel: String)
    case noArchives(channel: String, wanted: String)
    case chartMissing(path: String)
    case chartInvalid(path: String, line: Int?, reason: String)
    case pluginNotFound(name: String)
    case pluginFailed(name: String, command: String, status: Int32, output: String)
    case pluginBadAnswer(name: String, reason: String)
    case pluginBadFile(name: String, file: String, reason: String)
    /// A plugin named as its own a file it did not newly write (exit 2: its answer is refused).
    case pluginClaim(name: String, file: String, reason: String)
    /// A plugin printed more than relctl reads of an answer (exit 2: its answer is refused).
    case pluginAnswerTooLarge(name: String, limit: Int)
    case publishFailed(channel: String, reason: String)

    package var exitCode: RelctlExitCode {
        switch self {
        case .pluginFailed, .pluginBadAnswer, .pluginBadFile, .publishFailed: return .failure
        default: return .badInput
        }
    }

    package var diagnostics: [Diagnostic] {
        switch self {
        case let .unknownChannel(name, known):
            return [
                Diagnostic(
                    "unknown channel `\(name)`\(Suggestion.hint(for: name, in: known)); known channels: \(known.joined(separator: ", ")) (a plugin is `relctl-channel-NAME` on PATH or a [[channel]] with `command`)"
                )
            ]
        case let .notConfigured(name, config, how):
            return [Diagnostic(file: config, "channel `\(name)` is not configured: \(how)")]
        case .noManifest(let dist):
            return [
                Diagnostic(
                    file: dist + "/" + ReleaseManifest.fileName,
                    "not found: a channel needs the release's archives and their checksums; run `relctl package` and `relctl checksum` first"
                )
            ]
        case .noDownloadURL(let channel):
            return [
                Diagnostic(
                    "channel `\(channel)` points users at the release's download URLs, but the repository is unknown: set [publish] github, GITHUB_REPOSITORY or INSTALLER_BASE_URL, or use a GitHub/GitLab remote"
                )
            ]
        case let .noArchives(channel, wanted):
            return [
                Diagnostic(
                    "channel `\(channel)` found no archive for \(wanted) in this release; add such a [[target]] or remove the channel"
                )
            ]
        case .chartMissing(let path):
            return [
                Diagnostic(file: path, "no Chart.yaml here; fix `path` in [[chart]] (the folder holding Chart.yaml)")
            ]
        case let .chartInvalid(path, line, reason):
            return [Diagnostic(file: path, line: line, reason)]
        case .pluginNotFound(let name):
            return [
                Diagnostic(
                    "channel `\(name)`: no `relctl-channel-\(name)` on PATH and no `command` in its [[channel]]; install the plugin or give `command = [...]`"
                )
            ]
        case let .pluginFailed(name, command, status, output):
            var lines = [Diagnostic("channel `\(name)` failed: `\(command)` exited with status \(status)")]
            let tail = output.split(separator: "\n").suffix(10)
            lines += tail.map { Diagnostic("  \($0)") }
            return lines
        case let .pluginBadAnswer(name, reason):
            return [
                Diagnostic(
                    "channel `\(name)` answered with something other than the protocol's JSON document (see docs/channels.md): \(reason)"
                )
            ]
        case let .pluginClaim(name, file, reason):
            return [
                Diagnostic(
                    "channel `\(name)` names `\(Console.printable(file))` as its file, but it \(reason); a plugin may name only new files it wrote into dist during its run, so nothing was published"
                )
            ]
        case let .pluginAnswerTooLarge(name, limit):
            return [
                Diagnostic(
                    "channel `\(name)` printed more than \(limit >> 20) MiB on stdout, the most relctl reads of a plugin's answer, so it was stopped and nothing was published; a plugin answers one small JSON document (`{\"files\": [...]}`) and writes anything for humans to stderr"
                )
            ]
        case let .pluginBadFile(name, file, reason):
            return [
                Diagnostic(
                    "channel `\(name)` reported the file `\(file)`, which \(reason); a channel writes only inside dist")
            ]
        case let .publishFailed(channel, reason):
            return [Diagnostic("channel `\(channel)` could not publish: \(reason)")]
        }
    }

    package var description: String { message }
}
