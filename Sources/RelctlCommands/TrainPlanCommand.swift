import ArgumentParser
import Foundation
import RelctlBasics
import RelctlModel
import RelctlRelease

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
