import Foundation
import RelctlBasics
import RelctlModel
import Synchronization

/// Runs the configured build for each target, in parallel up to a job limit, then checks that
/// every expected binary exists. `relctl build` and `relctl release` both call it.
public struct BuildRunner: Sendable {
    /// How many output lines a failed build shows.
    package static let tailLength = 40

    package var context: Context

    public init(context: Context) {
        self.context = context
    }

    /// Builds `targets` for the release `inputs` names (`ReleaseIdentity.buildInputs`) and returns
    /// every result; a failed target never stops the others. Check `report.failure` for build failures.
    package func run(targets: [Target], config: RelctlConfig, inputs: BuildInputs, jobs: Int) async -> BuildReport {
        // `universal-apple-darwin` is not built: relctl joins its two macOS targets' binaries, so
        // those are built with it.
        var targets = targets
        for universal in targets where universal.isUniversal {
            for triple in TargetTriple.universalSlices where !targets.contains(where: { $0.triple == triple }) {
                if let settings = config.targets.first(where: { $0.triple == triple }),
                    let slice = try? TargetResolver.resolve(settings)
                {
                    targets.insert(slice, at: targets.firstIndex { $0.triple == universal.triple } ?? targets.count)
                }
            }
        }
        let limit = max(1, min(jobs, targets.count))
        // Streaming is readable only when one build runs at a time; parallel builds print a line
        // per target and keep their output for the failure report.
        let stream = limit == 1 || context.console.verbosity >= .verbose
        let console = context.console
        console.info(
            "building \(targets.count) target\(targets.count == 1 ? "" : "s") for \(inputs.tag) (\(limit) at a time)")
        let results = await ParallelJobs.map(
            targets, limit: limit, finished: { _, result in report(result, streamed: stream) }
        ) { target in
            await self.build(target, config: config, inputs: inputs, stream: stream)
        }
        return BuildReport(tag: inputs.tag, version: inputs.version, commit: inputs.commit, results: results)
    }

    /// The environment a target's build command sees.
    package func environment(for target: Target, config: RelctlConfig, inputs: BuildInputs) -> [String: String] {
        var environment = context.environment
        let values = placeholders(for: target, config: config, inputs: inputs)
        for (key, value) in config.build.environment { environment[key] = Template(value).render(values) }
        environment["RELCTL_TARGET"] = target.triple
        ReleaseNames(project: config.project.name, version: inputs.version, tag: inputs.tag).export(into: &environment)
        environment["RELCTL_COMMIT"] = inputs.commit
        // Unset rather than empty when there is no clock: tools reading it reject an empty value.
        environment["SOURCE_DATE_EPOCH"] = inputs.sourceDateEpoch
        return environment
    }

    package func placeholders(for target: Target, config: RelctlConfig, inputs: BuildInputs) -> [String: String] {
        ReleaseNames(project: config.project.name, version: inputs.version, tag: inputs.tag).placeholders(for: target)
    }

    /// The binary folder for a target, relative to the project root.
    package func binaryDirectory(for target: Target, config: RelctlConfig, inputs: BuildInputs) -> String {
        let settings = config.targets.first { $0.triple == target.triple }
        let template = settings?.binaryDirectory ?? config.build.binaryDirectory
        return template.render(placeholders(for: target, config: config, inputs: inputs))
    }

    private func build(
        _ target: Target, config: RelctlConfig, inputs: BuildInputs, stream: Bool
    ) async -> TargetBuildResult {
        let start = context.clock.now()
        let values = placeholders(for: target, config: config, inputs: inputs)
        let settings = config.targets.first { $0.triple == target.triple }
        let command =
            target.isUniversal ? nil : (settings?.command ?? config.build.command)?.renderForShell(values)
        let directory = binaryDirectory(for: target, config: config, inputs: inputs)
        var result = TargetBuildResult(
            target: target.triple, outcome: .succeeded, command: command, exitStatus: 0, binaryDirectory: directory,
            missing: [], outputTail: [], seconds: 0)
        if target.isUniversal { return result }
        if let command {
            let tail = OutputTail(capacity: Self.tailLength)
            let console = context.console
            let prefix = "[\(target.triple)] "
            if !stream { console.info("\(prefix)started: \(command)") }
            // One pipe for both streams keeps the lines in the order the build wrote them.
            let shell = Command.shell(
                "exec 2>&1\n" + command, directory: config.root,
                environment: environment(for: target, config: config, inputs: inputs))
            do {
                result.exitStatus = try await context.processes.stream(shell) { _, line in
                    tail.append(line)
                    if stream { console.info(prefix + line) }
                }
            } catch {
                tail.append("\(error)")
                result.exitStatus = 127
            }
            result.outputTail = tail.lines
            if result.exitStatus != 0 { result.outcome = .failed }
        }
        if result.outcome == .succeeded {
            let folder = config.root.appendingPathComponent(directory)
            let required = config.build.binaries.filter { !config.build.optionalBinaries.contains($0) }
            result.missing = required.map(target.executableName).filter { name in
                FileSystem.kind(of: folder.appendingPathComponent(name)) != .file
            }.map { (directory as NSString).appendingPathComponent($0) }
            if !result.missing.isEmpty { result.outcome = .missingBinaries }
        }
        result.seconds = context.clock.seconds(since: start)
        return result
    }

    private func report(_ result: TargetBuildResult, streamed: Bool) {
        let console = context.console
        let time = String(format: "%.1fs", result.seconds)
        switch result.outcome {
        case .succeeded:
            console.info("[\(result.target)] " + console.paint("ok", code: "32") + " (\(time))")
        case .failed:
            // Streamed output is already on screen; captured output is shown now, failures even with -q.
            let shown = streamed && console.verbosity >= .normal ? [] : result.outputTail
            console.stderr(
                "[\(result.target)] " + console.paint("FAILED", code: "31")
                    + " with status \(result.exitStatus) (\(time))"
                    + (shown.isEmpty ? "\n" : "; last \(shown.count) lines of output:\n"))
            for line in shown { console.stderr("    \(line)\n") }
        case .missingBinaries:
            console.info(
                "[\(result.target)] " + console.paint("FAILED", code: "31")
                    + ": missing \(result.missing.joined(separator: ", ")) (\(time))")
        }
    }
}

/// Every target's result, in the order the targets were given.
public struct BuildReport: Sendable, Encodable {
    public var tag: String
    package var version: String
    package var commit: String
    public var results: [TargetBuildResult]

    package var failed: [TargetBuildResult] { results.filter { !$0.succeeded } }
    package var succeeded: Bool { failed.isEmpty }

    /// The error to exit with (1) when any target failed, naming each one and why.
    public var failure: BuildError? { succeeded ? nil : .failed(failed) }
}

/// The last N lines of a child's output, appended to from two reader threads.
package final class OutputTail: Sendable {
    private let capacity: Int
    private let buffer = Mutex<[String]>([])

    package init(capacity: Int) { self.capacity = capacity }

    package func append(_ line: String) {
        buffer.withLock { lines in
            lines.append(line)
            if lines.count > capacity { lines.removeFirst(lines.count - capacity) }
        }
    }

    package var lines: [String] { buffer.withLock { $0 } }
}

/// What every build of one release shares: the tag, its version, the commit and the reproducible
/// clock; a view of the release's `ReleaseIdentity` (`relctl build` resolves it with `.build`).
package struct BuildInputs: Sendable, Equatable {
    package var tag: String
    package var version: String
    /// The full hash of HEAD, or empty outside a git repository.
    package var commit: String
    /// `SOURCE_DATE_EPOCH` from the environment when set, else HEAD's committer time; nil without either.
    package var sourceDateEpoch: String?

    package init(tag: String, version: String, commit: String, sourceDateEpoch: String?) {
        self.tag = tag
        self.version = version
        self.commit = commit
        self.sourceDateEpoch = sourceDateEpoch
    }
}

extension ReleaseIdentity {
    /// What the build commands see, without asking git again.
    package var buildInputs: BuildInputs {
        BuildInputs(tag: tag, version: version.description, commit: commit, sourceDateEpoch: clock.map(String.init))
    }
}

/// How one target's build ended.
public struct TargetBuildResult: Sendable, Encodable {
    package enum Outcome: String, Sendable, Encodable {
        case succeeded
        /// The command exited non-zero.
        case failed
        /// The command succeeded but expected binaries are missing.
        case missingBinaries = "missing-binaries"
    }

    package var target: String
    package var outcome: Outcome
    /// The command line run (after placeholders), or nil when `[build] command` is unset (prebuilt binaries).
    package var command: String?
    package var exitStatus: Int32
    /// The binary folder, relative to the project root.
    package var binaryDirectory: String
    /// Expected binary paths (relative to the project root) that do not exist.
    package var missing: [String]
    /// The last lines of the command's combined output, kept for failures.
    package var outputTail: [String]
    package var seconds: Double

    package var succeeded: Bool { outcome == .succeeded }

    package enum CodingKeys: String, CodingKey {
        case target, outcome, command, missing, seconds
        case exitStatus = "exit-status"
        case binaryDirectory = "binary-dir"
        case outputTail = "output-tail"
    }
}
