import Foundation

/// Builds every selected target (or takes prebuilt binaries from `--artifacts DIR`) and checks
/// that each expected binary exists.
public struct BuildStage: ReleaseStage {
    public init() {}
    public var name: String { "build" }

    public func perform(_ run: ReleaseRun) async throws -> String? {
        let config = run.config
        var targets = try TargetResolver.select(try TargetResolver.resolveAll(config), globs: run.options.targets)
        if run.options.hostOnly {
            guard let host = TargetResolver.host(in: targets) else {
                throw SimpleError(.badInput, file: config.path, "--host: no configured target matches this machine; add its [[target]] or name one with --target")
            }
            targets = [host]
        }
        run.targets = targets
        if let artifacts = run.options.artifactsDirectory {
            for target in targets {
                let perTarget = artifacts.appendingPathComponent(target.triple)
                let directory = FileManager.default.fileExists(atPath: perTarget.path) || targets.count > 1 ? perTarget : artifacts
                try checkBinaries(config.build.binaries, target: target, in: directory, file: directory.path)
                run.binaryDirectories[target.triple] = directory
            }
            return "\(targets.count) target(s) from \(artifacts.path)"
        }
        for (index, target) in targets.enumerated() {
            var values = run.placeholders
            for (key, value) in target.placeholders { values[key] = value }
            let directoryTemplate = config.targets.first { $0.triple == target.triple }?.binaryDirectory ?? config.build.binaryDirectory
            let directory = config.root.appendingPathComponent(directoryTemplate.render(values))
            if let command = config.targets.first(where: { $0.triple == target.triple })?.command ?? config.build.command {
                run.progress.update("building \(target.triple) (\(index + 1)/\(targets.count))")
                var environment = run.hookEnvironment
                for (key, value) in config.build.environment { environment[key] = value }
                environment["RELCTL_TARGET"] = target.triple
                let line = command.render(values)
                let tail = StageOutput()
                let progress = run.progress
                let status = try run.context.processes.stream(.shell(line, directory: config.root, environment: environment)) { _, text in
                    tail.append(text)
                    progress.note(text)
                }
                guard status == 0 else {
                    throw CommandError(command: line, status: status, output: "build of \(target.triple) failed\n" + tail.text)
                }
            }
            try checkBinaries(config.build.binaries, target: target, in: directory, file: config.path)
            run.binaryDirectories[target.triple] = directory
        }
        return "\(targets.count) target(s): " + targets.map(\.triple).joined(separator: ", ")
    }

    private func checkBinaries(_ binaries: [String], target: Target, in directory: URL, file: String) throws {
        let missing = binaries.map(target.executableName).filter { !FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path) }
        if !missing.isEmpty {
            throw SimpleError(.failure, file: file, "\(target.triple): expected binaries missing in \(directory.path): \(missing.joined(separator: ", ")); check [build] binaries and binary-dir")
        }
    }
}
