import ArgumentParser
import Foundation
import RelctlBasics
import RelctlDistribution
import RelctlProject
import RelctlRelease

struct ReleasePR: RelctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "release-pr",
        abstract: "Open or update the one pull request (GitLab: merge request) that raises the next versions.",
        discussion: """
            Computes the plan (as `relctl bump`), writes it as `bump --write` would (manifests, companions, \
            CHANGELOG.md when there is one) as one commit on HEAD, pushes it to relctl/release \
            (relctl/release-BRANCH off the default branch) only, with a lease on what was there, and opens or \
            updates the one request from that branch into the current branch: title `chore: release TAG`, body the \
            plan table and the notes. Nothing to release: the request is closed and the branch deleted. A commit \
            someone else pushed to the branch stops the run (exit 1, named) unless --force. Tokens, API bases and \
            retries as for `relctl publish`; no token is exit 2 before any push. Merge the request, then run \
            `relctl release --pending --push` on the merge commit. See docs/release-pull-requests.md.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Option(
        help: ArgumentHelp(
            "The forge: github, gitlab or gitea (default: the first [publish] names, else github).", valueName: "name"))
    var forge: String?
    @Flag(name: .long, help: "Read the forge and the remote; change nothing there, on the remote or here.")
    var dryRun = false
    @Flag(help: "Replace commits someone else pushed to the release branch.") var force = false

    /// A bad value of an enumerated option is a usage error, before the configuration is read.
    func validate() throws {
        try EnumeratedOption.check(
            forge.map { [$0] } ?? [], option: "--forge <name>", known: PublisherRegistry.knownIDs)
    }

    func execute(_ context: Context) async throws {
        let config = try ConfigLoader.load(path: global.config, context: context)
        var options = ReleaseRequestOptions()
        options.forge = forge
        options.dryRun = dryRun
        options.force = force
        let outcome = try await ReleaseRequestRun(options: options, config: config, context: context).run()
        if global.json {
            try emitJSON(outcome, context)
        } else if let url = outcome.url {
            context.console.stdout(url + "\n")
        }
    }
}
