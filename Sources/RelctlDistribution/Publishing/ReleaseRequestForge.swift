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
        switch id {
        case GitHubPublisher.id:
            let secret = try GitHubPublisher.token(environment).value
            let repository = try GitHubRepository.resolve(
                configured: settings.github, environment: environment, remoteURL: remoteURL, remoteName: "origin")
            self.api =
                GitHubReleaseAPI(
                    baseURL: try GitHubReleaseAPI.baseURL(environment: environment), repository: repository,
                    token: secret, http: client, timeout: timeout, deadline: deadline
                ).requests
        case GitLabPublisher.id:
            let (secret, variable) = try GitLabPublisher.token(environment)
            self.api =
                GitLabAPI(
                    baseURL: try GitLabAPI.baseURL(environment: environment),
                    project: try GitLabProject.resolve(configured: settings.gitlab, environment: environment),
                    token: secret, tokenHeader: GitLabAPI.tokenHeader(variable), http: client,
                    timeout: timeout, deadline: deadline
                ).requests
        case GiteaPublisher.id:
            let secret = try GiteaPublisher.token(environment).value
            let repository = try GiteaPublisher.repository(configured: settings.gitea, remoteURL: remoteURL)
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
