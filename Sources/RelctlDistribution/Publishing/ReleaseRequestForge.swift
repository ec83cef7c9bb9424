import Foundation
import RelctlBasics
import RelctlModel

/// The forge `release-pr` talks to, set up with `publish`'s rules: the same token variables, API
/// bases, repository or project settings, retries (`RELCTL_HTTP_RETRIES`) and timeouts, all
/// checked before the first request or push (exit 2, nothing sent).
package struct ReleaseRequestForge: Sendable {
    package static let ids = [GitHubPublisher.id, GitLabPublisher.id, GiteaPublisher.id]

    package let id: String
    package let api: any ReleaseRequestAPI
    package let client: RetryingHTTPClient

    /// `only` (`--forge`), else the first forge `[publish]` names, else GitHub.
    package static func chosen(only: String?, settings: PublishSettings) throws -> String {
        if let only {
            guard ids.contains(only) else { throw PublishError.unknownPublisher(id: only, known: ids) }
            return only
        }
        return zip(ids, [settings.github, settings.gitlab, settings.gitea]).first { $0.1 != nil }?.0
            ?? GitHubPublisher.id
    }

    package init(
        id: String, settings: PublishSettings, remoteURL: String?, context: Context, http: (any HTTPClient)? = nil
    ) throws {
        let environment = context.environment
        let connection = try ForgeConnection(environment: environment)
        let (timeout, deadline) = (connection.timeout, connection.deadline)
        let client = connection.retrying(http ?? URLSessionHTTPClient.shared, console: context.console)
        func token(_ variables: [String], forge: String) throws -> (String, String) {
            for variable in variables {
                if let value = environment[variable], !value.isEmpty { return (value, variable) }
            }
            throw PublishError.noToken(publisher: forge, variables: variables)
        }
        switch id {
        case GitHubPublisher.id:
            let (secret, _) = try token(GitHubPublisher.tokenVariables, forge: "GitHub")
            let repository = try GitHubRepository.resolve(
                configured: settings.github, environment: environment, remoteURL: remoteURL, remoteName: "origin")
            self.api =
                GitHubReleaseAPI(
                    baseURL: try GitHubReleaseAPI.baseURL(environment: environment), repository: repository,
                    token: secret, http: client, timeout: timeout, deadline: deadline
                ).requests
        case GitLabPublisher.id:
            let (secret, variable) = try token(GitLabPublisher.tokenVariables, forge: "GitLab")
            self.api =
                GitLabAPI(
                    baseURL: try GitLabAPI.baseURL(environment: environment),
                    project: try GitLabProject.resolve(configured: settings.gitlab, environment: environment),
                    token: secret, tokenHeader: variable == "CI_JOB_TOKEN" ? "JOB-TOKEN" : "PRIVATE-TOKEN",
                    http: client,
                    timeout: timeout, deadline: deadline
                ).requests
        case GiteaPublisher.id:
            let (secret, _) = try token(GiteaPublisher.tokenVariables, forge: "Gitea/Forgejo")
            let repository: GitHubRepository
            if let configured = settings.gitea {
                guard let parsed = GitHubRepository(configured) else {
                    throw PublishError.badRepository(value: configured, source: "relctl.toml [publish] gitea")
                }
                repository = parsed
            } else if let remoteURL, let parsed = GitHubRepository(remoteURL: remoteURL) {
                repository = parsed
            } else {
                throw PublishError.noProject(
                    forge: "Gitea/Forgejo", hint: "set `gitea = \"OWNER/REPO\"` in relctl.toml's [publish] section")
            }
            self.api =
                GiteaReleaseAPI(
                    baseURL: try GiteaReleaseAPI.baseURL(environment: environment), repository: repository,
                    token: secret, http: client, timeout: timeout, deadline: deadline
                ).requests
        default:
            throw PublishError.unknownPublisher(id: id, known: Self.ids)
        }
        self.id = id
        self.client = client
    }
}
