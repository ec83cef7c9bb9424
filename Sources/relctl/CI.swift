import ArgumentParser
import RelctlCore

/// `relctl ci …`: continuous-integration helpers.
struct CI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ci",
        abstract: "Generate the GitHub Actions release workflow.",
        subcommands: [CIGenerate.self]
    )
}
