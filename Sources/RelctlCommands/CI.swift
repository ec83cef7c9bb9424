import ArgumentParser
import RelctlBasics
import RelctlModel
import RelctlRelease

/// `relctl ci …`: continuous-integration helpers.
struct CI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ci",
        abstract:
            "Generate the release pipeline: a GitHub Actions workflow, a GitLab CI pipeline, or both ([ci] providers).",
        subcommands: [CIGenerate.self, CIPending.self]
    )
}
