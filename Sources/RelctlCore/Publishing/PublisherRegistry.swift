import Foundation
import RelctlBasics

/// Publishers keyed by id. Built-ins register here; an unknown id lists the known ones.
public enum PublisherRegistry {
    package typealias Factory = @Sendable (_ http: any HTTPClient) -> any Publisher

    package static let factories: [String: Factory] = [
        GitHubPublisher.id: { GitHubPublisher(http: $0) },
        GitLabPublisher.id: { GitLabPublisher(http: $0) },
        GiteaPublisher.id: { GiteaPublisher(http: $0) },
    ]

    package static var knownIDs: [String] { factories.keys.sorted() }

    /// The publisher for `id` over `http` (the real network when nil).
    public static func publisher(for id: String, http: (any HTTPClient)? = nil) throws -> any Publisher {
        guard let factory = factories[id] else { throw PublishError.unknownPublisher(id: id, known: knownIDs) }
        return factory(http ?? URLSessionHTTPClient.shared)
    }
}
