import ArgumentParser
import RelctlBasics
import RelctlModel
import RelctlProject
import RelctlRelease

extension MatrixFormat: ExpressibleByArgument {}

struct Matrix: RelctlCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the expanded platform matrix.",
        discussion:
            "`--format github` prints {\"include\":[{\"target\",\"runner\",\"format\",\"os\",\"arch\"}]} on one line for a GitHub Actions `fromJSON` matrix."
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: "table (default), json, or github.") var format: MatrixFormat?
    @Option(
        name: .customLong("target"),
        help: ArgumentHelp("Only targets matching this glob (e.g. '*linux*'); repeatable.", valueName: "glob"))
    var targets: [String] = []

    func execute(_ context: Context) async throws {
        let config = try ConfigLoader.load(path: global.config, context: context)
        let all = try TargetResolver.resolveAll(config)
        let selected = try TargetResolver.select(all, globs: targets)
        for warning in TargetResolver.unrecognizedWarnings(selected, config: config) {
            context.console.warning(warning.description)
        }
        let chosen = format ?? (global.json ? .json : .table)
        if all.isEmpty {
            // GitHub rejects an empty matrix with an obscure message; say what to do instead.
            let problem = MatrixError.noTargets(config: config.path)
            if chosen == .github { throw problem }
            context.console.warning(problem.message)
        }
        switch chosen {
        case .table: context.console.stdout(MatrixRenderer.table(selected))
        case .json: context.console.stdout(try MatrixRenderer.json(selected))
        case .github: context.console.stdout(MatrixRenderer.github(selected))
        }
    }
}
