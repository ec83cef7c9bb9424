import ArgumentParser
import Foundation
import RelctlCore

struct Train: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Release several repositories in dependency order, rolling back pushed tags on failure.",
        discussion: "Reads relctl-workspace.toml ([[repo]] name, path, after); needs no relctl.toml in the current folder.",
        subcommands: [TrainPlanCommand.self, TrainRunCommand.self]
    )
}

/// Options shared by `train plan` and `train run`.
struct TrainOptions: ParsableArguments {
    @Argument(help: "The tag every repository gets, e.g. v1.2.0.") var tag: String
    @Option(name: .long, help: ArgumentHelp("The workspace file.", valueName: "file"))
    var workspace: String = Workspace.defaultFileName
}

struct TrainPlanCommand: RelctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Print the waves the train would release, in dependency order (exit 2 on a cycle or unknown name)."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var train: TrainOptions

    func execute(_ context: Context) async throws {
        let workspace = try Workspace.load(path: train.workspace, context: context)
        let plan = TrainPlan(tag: train.tag, workspace: workspace)
        if global.json { try emitJSON(plan, context) } else { context.console.stdout(plan.rendered()) }
    }
}

struct TrainRunCommand: RelctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Preflight every repository, then run `relctl release TAG --push` in each, wave by wave.",
        discussion: "On a failure the tags this run pushed are deleted again (remote and local, newest first). --dry-run dry-runs every repository instead."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var train: TrainOptions
    @Flag(name: .long, help: "Run `relctl release TAG --dry-run --push` in every repository; tag nothing.") var dryRun = false

    func execute(_ context: Context) async throws {
        let workspace = try Workspace.load(path: train.workspace, context: context)
        let runner = TrainRunner(executable: Self.selfExecutable, context: context)
        do {
            let report = try runner.run(tag: train.tag, workspace: workspace, dryRun: dryRun)
            if global.json { try emitJSON(report, context) }
            let count = report.repositories.count
            context.console.info(dryRun
                ? "train \(train.tag): the dry run passed in all \(count) repositories; run again without --dry-run to release"
                : "train \(train.tag): released \(count) repositories")
        } catch let failure as TrainFailure {
            if global.json { try emitJSON(failure.report, context) }
            throw failure.error
        }
    }

    /// This relctl binary, so each repository is released by exactly the same version.
    static var selfExecutable: URL {
        #if os(Linux)
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        #endif
        let argument = CommandLine.arguments[0]
        if argument.contains("/") {
            return URL(fileURLWithPath: argument, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL
        }
        return URL(fileURLWithPath: "/usr/bin/env").deletingLastPathComponent().appendingPathComponent(argument)
    }
}
