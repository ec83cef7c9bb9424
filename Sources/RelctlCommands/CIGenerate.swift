import ArgumentParser
import RelctlBasics
import RelctlCore
import RelctlRelease

struct CIGenerate: RelctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write .github/workflows/release.yml (path from [ci] workflow).",
        discussion:
            "A file edited by hand is left alone (exit 1) unless --force. --check writes nothing and exits 1 when the file differs from what would be generated."
    )

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Exit 1 if the workflow differs from what would be generated; write nothing.") var check = false
    @Flag(help: "Replace the workflow even if it was edited by hand.") var force = false

    func execute(_ context: Context) async throws {
        let config = try ConfigLoader.load(path: global.config, context: context)
        for problem in ReleaseWorkflow.problems(config: config) { context.console.warning(problem) }
        let (path, outcome) = try WorkflowWriter.generate(config: config, check: check, force: force)
        if global.json { try emitJSON(["path": path, "outcome": outcome.rawValue], context) }
        switch outcome {
        case .upToDate: context.console.info("\(path): up to date")
        case .unchanged: context.console.info("\(path): unchanged")
        case .created: context.console.info("\(path): created")
        case .updated: context.console.info("\(path): updated")
        case .replaced: context.console.warning("\(path): replaced a hand-edited file (--force)")
        }
    }
}
