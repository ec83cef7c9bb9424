import Foundation

/// Builds every selected target with `BuildRunner` (or, with `--artifacts DIR`, checks the
/// prebuilt binaries are there for the packager).
public struct BuildStage: ReleaseStage {
    public init() {}
    public var name: String { "build" }

    public func perform(_ run: ReleaseRun) async throws -> String? {
        let config = run.config
        let all = try TargetResolver.resolveAll(config)
        guard !all.isEmpty else { throw BuildError.noTargets(file: config.path) }
        let targets: [Target]
        if run.options.hostOnly {
            guard let host = TargetResolver.host(in: all) else {
                throw BuildError.noHostTarget(configured: all.map(\.triple), file: config.path)
            }
            targets = [host]
        } else {
            targets = try TargetResolver.select(all, globs: run.options.targets)
        }
        run.targets = targets
        let runner = BuildRunner(context: run.context)
        let inputs = try Self.inputs(run)
        if let artifacts = run.options.artifactsDirectory {
            try checkPrebuilt(in: artifacts, targets: targets, runner: runner, inputs: inputs, config: config)
            return "\(targets.count) target(s), prebuilt binaries from \(artifacts.path)"
        }
        let jobs = run.options.jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let report = await runner.run(targets: targets, config: config, inputs: inputs, jobs: jobs)
        if let failure = report.failure { throw failure }
        return "\(targets.count) target(s): " + targets.map(\.triple).joined(separator: ", ")
    }

    /// What every build of this release shares; the clock is the released commit's time unless
    /// SOURCE_DATE_EPOCH is set.
    static func inputs(_ run: ReleaseRun) throws -> BuildInputs {
        let committed = try run.git.committerTime(of: run.commit)
        let epoch = try SourceDateEpoch.from(run.context.environment) ?? committed
        return BuildInputs(tag: run.tag, version: run.version.description, commit: run.commit, sourceDateEpoch: String(epoch))
    }

    /// The packager reads `DIR/<binary-dir>/NAME`, else `DIR/NAME`: every binary must be at one of them.
    private func checkPrebuilt(in directory: URL, targets: [Target], runner: BuildRunner, inputs: BuildInputs, config: RelctlConfig) throws {
        var missing: [String] = []
        for target in targets {
            let binaryDirectory = runner.binaryDirectory(for: target, config: config, inputs: inputs)
            for binary in config.build.binaries.map(target.executableName) {
                let candidates = [directory.appendingPathComponent(binaryDirectory).appendingPathComponent(binary), directory.appendingPathComponent(binary)]
                if !candidates.contains(where: { FileManager.default.fileExists(atPath: $0.path) }) {
                    missing.append("\(target.triple): \(binaryDirectory)/\(binary)")
                }
            }
        }
        if !missing.isEmpty {
            throw SimpleError(.badInput, file: directory.path, "prebuilt binaries missing (\(missing.joined(separator: ", "))); lay them out as DIR/<binary-dir>/<binary>, as the build leaves them (or DIR/<binary> for a single target)")
        }
    }
}
