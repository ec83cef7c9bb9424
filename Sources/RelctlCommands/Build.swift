import ArgumentParser
import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel
import RelctlProject
import RelctlRelease

struct Build: RelctlCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the configured build for each target and check the expected binaries exist.",
        discussion:
            "The command runs through /bin/sh -c in the project root with RELCTL_TARGET, RELCTL_VERSION, RELCTL_TAG, RELCTL_COMMIT and SOURCE_DATE_EPOCH set. Exit 1 when any target fails."
    )

    @OptionGroup var global: GlobalOptions
    @Option(
        name: .customLong("target"),
        help: ArgumentHelp(
            "A target triple or glob (e.g. '*linux*'); repeatable. Default: every target.", valueName: "triple"))
    var targets: [String] = []
    @Option(help: "How many builds run at once (default: the number of cores).") var jobs: Int?
    @Flag(help: "Build only the target matching this machine.") var host = false
    @Option(help: "The tag being built (default: the first [[version]] manifest's version in the tag format).") var tag:
        String?

    func validate() throws {
        if let problem = ParallelJobs.problem(jobs) { throw ValidationError(problem) }
        if host, !targets.isEmpty { throw ValidationError("--host and --target cannot be combined") }
    }

    func execute(_ context: Context) async throws {
        let config = try ConfigLoader.load(path: global.config, context: context)
        let all = try TargetResolver.resolveAll(config)
        guard !all.isEmpty else { throw BuildError.noTargets(file: config.path) }
        let selected: [Target]
        if host {
            guard let match = TargetResolver.host(in: all) else {
                throw BuildError.noHostTarget(configured: all.map(\.triple), file: config.path)
            }
            selected = [match]
        } else {
            selected = try TargetResolver.select(all, globs: targets)
        }
        for warning in TargetResolver.unrecognizedWarnings(selected, config: config) {
            context.console.warning(warning.description)
        }
        let identity = try await ReleaseIdentity.resolve(tag: tag, config: config, context: context, .build)
        let report = await BuildRunner(context: context).run(
            targets: selected, config: config, inputs: identity.buildInputs, jobs: ParallelJobs.count(jobs))
        if global.json { try emitJSON(report, context) }
        if let failure = report.failure { throw failure }
        context.console.info(
            "built \(report.results.count) target\(report.results.count == 1 ? "" : "s") for \(report.tag)")
    }
}
