import Foundation
import RelctlBasics

/// What GitHub's, GitLab's and Gitea's publishers hold before their first request: the HTTP
/// client they were made over and the retry policy `RELCTL_HTTP_RETRIES` starts from.
package struct ForgeSession: Sendable {
    package let http: any HTTPClient
    package let policy: RetryPolicy

    /// The connection settings from the environment (retries, timeout, deadline), checked.
    package func connection(_ environment: [String: String]) throws -> ForgeConnection {
        try ForgeConnection(policy, environment: environment)
    }

    /// The checked connection and `http` with its retries, each wait said on the console.
    package func connect(_ context: Context) throws -> (connection: ForgeConnection, client: RetryingHTTPClient) {
        let connection = try connection(context.environment)
        return (connection, connection.retrying(http, console: context.console))
    }
}

/// A publisher to one of the forges relctl knows (GitHub, GitLab, Gitea/Forgejo): its id, token
/// variables and name come from the type, its HTTP client and policy from one `ForgeSession`, and
/// `preflight` is `prepare` (everything checked before the first request) with its result dropped.
package protocol ForgePublisher: Publisher {
    /// The registry id and `[publish]` key.
    static var id: String { get }
    /// How messages name the forge (`GitHub`, `Gitea/Forgejo`).
    static var forge: String { get }
    /// The environment variables a token is read from, the first set and non-empty one winning.
    static var tokenVariables: [String] { get }
    associatedtype Prepared
    var session: ForgeSession { get }
    init(session: ForgeSession)
    /// Token, API base, repository or project and connection settings, all checked (exit 2, nothing sent).
    func prepare(_ request: PublishRequest, context: Context) throws -> Prepared
}

extension ForgePublisher {
    public var id: String { Self.id }

    package init(http: any HTTPClient, policy: RetryPolicy = .standard) {
        self.init(session: ForgeSession(http: http, policy: policy))
    }

    public func preflight(_ request: PublishRequest, context: Context) throws {
        _ = try prepare(request, context: context)
    }

    /// The first of `tokenVariables` set to a non-empty value, and its name; none names them all.
    package static func token(_ environment: [String: String]) throws -> (value: String, variable: String) {
        for variable in tokenVariables {
            if let value = environment[variable], !value.isEmpty { return (value, variable) }
        }
        throw PublishError.noToken(publisher: forge, variables: tokenVariables)
    }
}
