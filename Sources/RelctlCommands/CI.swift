import ArgumentParser
import RelctlBasics
import RelctlCore
import RelctlRelease

/// `relctl ci …`: continuous-integration helpers.
struct CI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ci",
        abstract: "Generate the GitHub Actions release workflow.",
        subcommands: [CIGenerate.self]
    )
}
