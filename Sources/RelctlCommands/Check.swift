import ArgumentParser
import RelctlBasics
import RelctlProject
import RelctlRelease

struct Check: RelctlCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate relctl.toml and the repository, listing every problem found."
    )

    @OptionGroup var global: GlobalOptions

    func execute(_ context: Context) async throws {
        let report = try await ProjectChecker.check(configPath: global.config, context: context)
        for warning in report.warnings {
            context.console.warning(Diagnostic(file: warning.file, line: warning.line, warning.message).description)
        }
        if global.json { try emitJSON(report, context) }
        if let error = report.error { throw error }
        context.console.info(
            "\(global.config ?? "relctl.toml"): ok (\(report.manifests) manifest\(report.manifests == 1 ? "" : "s"), \(report.targets) target\(report.targets == 1 ? "" : "s")\(report.targets == 0 ? ": a tag-only release" : ""))"
        )
    }
}
