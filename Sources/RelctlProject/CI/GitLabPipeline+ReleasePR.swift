import Foundation
import RelctlBasics
import RelctlModel

/// `[ci] release-pr = true`: the pipeline also runs on pushes to the default branch, where one
/// job releases what a merged release request raised and then opens or updates the next one;
/// every tag job keeps to tag pipelines.
extension GitLabPipeline {
    package static let releasePRRule = "$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH"

    /// Under a job's `stage:`: with branch pipelines allowed, the tag jobs say they are tag-only.
    package static func tagPipelinesOnly(_ y: inout YAMLLines, config: RelctlConfig) {
        guard config.ci.releasePR else { return }
        y.add("  rules:")
        y.add("    - if: $CI_COMMIT_TAG")
    }

    /// Pushing needs a token with `write_repository` and `api` (a project access token in the
    /// masked variable GITLAB_TOKEN; CI_JOB_TOKEN cannot push). git reads it through a credential
    /// helper from the environment, so it is never on a command line or in the log.
    package static func releasePRJob(_ y: inout YAMLLines, config: RelctlConfig) throws {
        guard config.ci.releasePR else { return }
        y.blank()
        y.add("release-pr:")
        y.add("  stage: release-pr")
        linuxJob(&y, fullHistory: true)
        y.add("  rules:")
        y.add("    - if: \(YAMLLines.quote(releasePRRule))")
        // One at a time: two pushes in a row never race on the release branch or the tags.
        y.add("  resource_group: release-pr")
        script(
            &y,
            try setup(config: config, job: .release, shell: .bash) + [
                [
                    "git config --global user.name \"${GITLAB_USER_NAME:-relctl}\"",
                    "git config --global user.email \"${GITLAB_USER_EMAIL:-relctl@users.noreply.gitlab.com}\"",
                    "git config --global credential.helper '!f() { echo username=oauth2; echo \"password=$GITLAB_TOKEN\"; }; f'",
                    "git remote set-url origin \"$CI_PROJECT_URL.git\"",
                    "git checkout -B \"$CI_COMMIT_BRANCH\" \"$CI_COMMIT_SHA\"",
                ].joined(separator: "\n"),
                "relctl release --pending --push --publish",
                "relctl release-pr --forge gitlab",
            ])
    }
}
