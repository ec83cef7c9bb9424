import Foundation
import RelctlBasics
import RelctlModel

/// `.github/workflows/release-pr.yml` (`[ci] release-pr = true`): on every push to the default
/// branch, release what a merged release pull request raised, then open, update or close the
/// next one. The job alone may write contents and pull requests; the token reaches git through
/// a credential helper reading the environment, never a command line or the log.
package enum ReleasePRWorkflow {
    package static let path = ".github/workflows/release-pr.yml"

    package static func render(config: RelctlConfig) -> String {
        GeneratedFile.render(
            header: GeneratedFile.header(command: "relctl ci generate", config: config), body: body(config: config))
    }

    package static func body(config: RelctlConfig) -> String {
        var y = YAMLLines()
        y.add("name: Release pull request")
        y.blank()
        y.add("on:")
        y.add("  push:")
        y.add("    branches:")
        for branch in config.release.branches { y.add("      - \(YAMLLines.quote(branch))") }
        y.blank()
        y.add("permissions:")
        y.add("  contents: read # checkout only; the job below says what it needs")
        y.blank()
        y.add("concurrency:")
        y.add("  group: release-pr-${{ github.ref }}")
        y.add("  cancel-in-progress: false")
        y.blank()
        y.add("defaults:")
        y.add("  run:")
        y.add("    shell: bash")
        y.blank()
        y.add("jobs:")
        y.add("  release-pr:")
        y.add("    name: Release pull request")
        y.add("    if: github.ref_name == github.event.repository.default_branch")
        y.add("    runs-on: \(CIRunners.coordinator)")
        y.add("    permissions:")
        y.add("      contents: write # push relctl/release and the release tags, publish the release")
        y.add("      pull-requests: write # open, update and close the release pull request")
        y.add("    steps:")
        ReleaseWorkflow.checkout(&y, fullHistory: true)
        ReleaseWorkflow.setup(&y, config: config, job: .release)
        let token = ["GITHUB_TOKEN": "${{ secrets.GITHUB_TOKEN }}"]
        pushWithJobToken(&y)
        // A workspace's release workflow releases the merged members itself (with their builds).
        if config.workspace == nil {
            ReleaseWorkflow.step(
                &y, name: "Release what a merged release pull request raised", env: token,
                run: ["relctl release --pending --push --publish"])
        }
        ReleaseWorkflow.step(
            &y, name: "Open, update or close the release pull request", env: token,
            run: ["relctl release-pr --forge github"])
        return y.text
    }

    /// A job that pushes (the release branch, the members' tags): a bot identity, and the token
    /// reaching git through a credential helper reading the environment, never a command line or
    /// the log. Shared by this workflow and a workspace's release workflow.
    package static func pushWithJobToken(_ y: inout YAMLLines, env: [String: String] = [:]) {
        ReleaseWorkflow.step(
            &y, name: "Let git push with the job's token", env: env,
            run: [
                "git config --global user.name 'github-actions[bot]'",
                "git config --global user.email '41898282+github-actions[bot]@users.noreply.github.com'",
                "# git expands the token when it runs the helper: never on a command line, never in the log",
                "# shellcheck disable=SC2016",
                "git config --global credential.helper '!f() { echo username=x-access-token; echo \"password=$GITHUB_TOKEN\"; }; f'",
            ])
    }
}
