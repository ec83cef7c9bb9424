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
