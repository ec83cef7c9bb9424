import ArgumentParser
import Foundation
import RelctlBasics
import RelctlModel
import RelctlRelease

struct Train: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Release several repositories in dependency order, rolling back pushed tags on failure.",
        discussion:
            "Reads relctl-workspace.toml ([[repo]] name, path, after); needs no relctl.toml in the current folder.",
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
        abstract: "Preflight every repository, then set its pins, release it and push, wave by wave.",
        discussion: """
            Before tagging a repository, its [[repo.pin]] values are set and committed, so the tag goes on \
            the commit that holds them; the branch and the tag are pushed together (git push --atomic). \
            The repositories of one wave run at once (--jobs). On a failure everything this run pushed is \
            taken back: tags deleted, pin commits reverted by new commits, dist/ files removed. Run the \
            same command again after a failure or a kill: repositories already tagged at the commit the \
            train would tag are skipped. --dry-run checks pins and dry-runs every repository instead.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var train: TrainOptions
    @Flag(
        name: .long,
        help: "Check every pin and run `relctl release TAG --dry-run --push` in every repository; change nothing.")
    var dryRun = false
    @Option(name: .long, help: "Repositories of one wave released at once (default: the number of cores).") var jobs:
        Int?
    @Flag(
        name: .long,
        help:
            "Set every repository's manifests to the train's version first (`relctl bump --set VERSION --write`), committed with the pins."
    )
    var setVersion = false

    func validate() throws {
        if let problem = ParallelJobs.problem(jobs) { throw ValidationError(problem) }
    }

    func execute(_ context: Context) async throws {
        let workspace = try Workspace.load(path: train.workspace, context: context)
        let runner = TrainRunner(executable: Self.selfExecutable, context: context)
        let options = TrainRunOptions(
            tag: train.tag, dryRun: dryRun, jobs: ParallelJobs.count(jobs),
            setVersion: setVersion)
        do {
            let report = try await runner.run(workspace: workspace, options: options)
            if global.json { try emitJSON(report, context) }
            let count = report.repositories.count
            let skipped = report.repositories.filter { $0.status == .alreadyReleased }.count
            let already = skipped == 0 ? "" : " (\(skipped) already released by an earlier run, skipped)"
            context.console.info(
                dryRun
                    ? "train \(train.tag): the dry run passed in all \(count) repositories\(already); run again without --dry-run to release"
                    : "train \(train.tag): released \(count - skipped) of \(count) repositories\(already) in \(report.seconds)s"
            )
        } catch let failure as TrainFailure {
            if global.json { try emitJSON(failure.report, context) }
            throw failure.error
        }
    }

    /// This relctl binary, so each repository is released by exactly the same version.
    static var selfExecutable: URL {
        #if os(Linux)
        if let path = try? FileSystem.symlinkDestination(atPath: "/proc/self/exe") {
            return AbsolutePath(path, relativeTo: .root).url
        }
        #endif
        let argument = CommandLine.arguments[0]
        if argument.contains("/") {
            return AbsolutePath(argument, relativeTo: AbsolutePath(FileSystem.currentDirectory)).url
        }
        return AbsolutePath.root.appending("usr/bin").appending(argument).url
    }
}
