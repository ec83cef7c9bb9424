import ArgumentParser
import RelctlBasics
import RelctlModel
import RelctlProject
import RelctlRelease

extension CIProvider: ExpressibleByArgument {}

struct CIGenerate: RelctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write .github/workflows/release.yml (path from [ci] workflow) and/or .gitlab-ci.yml.",
        discussion:
            "Writes the pipeline of each provider in [ci] providers (default: github), or of --provider only. A file edited by hand is left alone (exit 1) unless --force. --check writes nothing and exits 1 when a file differs from what would be generated."
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: "github or gitlab: generate this provider's file only (default: every provider of [ci] providers).")
    var provider: CIProvider?
    @Flag(help: "Exit 1 if the workflow differs from what would be generated; write nothing.") var check = false
    @Flag(help: "Replace the workflow even if it was edited by hand.") var force = false

    func execute(_ context: Context) async throws {
        let config = try ConfigLoader.load(path: global.config, context: context)
        let providers = WorkflowWriter.providers(config: config, chosen: provider)
        var written: [[String: String]] = []
        var failures: [any Error] = []
        var changed = false
        let files: [() throws -> (path: String, outcome: WorkflowOutcome)] =
            providers.map { provider in
                { try WorkflowWriter.generate(provider, config: config, check: check, force: force) }
            }
            + WorkflowWriter.extraFiles(providers, config: config).map { file in
                {
                    try WorkflowWriter.write(
                        file.path, generated: file.text, config: config, check: check, force: force)
                }
            }
        for file in files {
            do {
                let (path, outcome) = try file()
                written.append(["path": path, "outcome": outcome.rawValue])
                changed = changed || [.created, .updated, .replaced].contains(outcome)
                switch outcome {
                case .upToDate: context.console.info("\(path): up to date")
                case .unchanged: context.console.info("\(path): unchanged")
                case .created: context.console.info("\(path): created")
                case .updated: context.console.info("\(path): updated")
                case .replaced: context.console.warning("\(path): replaced a hand-edited file (--force)")
                }
            } catch {
                // Every file is checked or written; the failures are reported together after.
                failures.append(error)
            }
        }
        // Said when a file is written (or cannot be), not on every regeneration that changes
        // nothing or every --check: `relctl check` lists them whenever asked.
        if changed || !failures.isEmpty {
            for problem in WorkflowWriter.warnings(providers, config: config) { context.console.warning(problem) }
        }
        if let failure = WorkflowWriter.combined(failures) { throw failure }
        if global.json {
            // One provider: the object as before; several: one object per file.
            if written.count == 1 { try emitJSON(written[0], context) } else { try emitJSON(written, context) }
        }
    }
}
