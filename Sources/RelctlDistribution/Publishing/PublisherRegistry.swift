import Foundation
import RelctlBasics
import RelctlModel
import Synchronization

/// Publishers keyed by id. The built-in forges are registered here, and a program built on
/// relctl's libraries adds its own (`RelctlExtensions.addPublisher`) before the first command
/// runs; an unknown id lists the known ones.
public enum PublisherRegistry {
    /// Makes a publisher over the HTTP client the command runs with (a test's stand-in, or the
    /// real network).
    public typealias Factory = @Sendable (_ http: any HTTPClient) -> any Publisher

    package static let builtIns: [String: Factory] = [
        GitHubPublisher.id: { GitHubPublisher(http: $0) },
        GitLabPublisher.id: { GitLabPublisher(http: $0) },
        GiteaPublisher.id: { GiteaPublisher(http: $0) },
    ]

    /// The publishers a program built on the libraries added, by id.
    private static let added = Mutex<[String: Factory]>([:])

    /// Adds a publisher; an id a built-in (or an earlier extension) has is refused, and so is one
    /// that is not a TOML bare key of lowercase letters, digits and dashes (it names the
    /// `[publish]` key and the `--forge` value).
    package static func add(id: String, factory: @escaping Factory) throws(ExtensionError) {
        guard !id.isEmpty, id.first != "-",
            id.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" })
        else { throw ExtensionError.badName(what: "publisher id", name: id) }
        try added.withLock { added throws(ExtensionError) in
            guard builtIns[id] == nil, added[id] == nil else {
                throw ExtensionError.duplicate(what: "publisher", name: id)
            }
            added[id] = factory
        }
    }

    /// The ids extensions added, sorted: each is also a `[publish]` key.
    package static var addedIDs: [String] { added.withLock { $0.keys.sorted() } }

    package static var knownIDs: [String] { (Array(builtIns.keys) + addedIDs).sorted() }

    /// The publisher for `id` over `http` (the real network when nil).
    public static func publisher(for id: String, http: (any HTTPClient)? = nil) throws -> any Publisher {
        guard let factory = builtIns[id] ?? added.withLock({ $0[id] }) else {
            throw PublishError.unknownPublisher(id: id, known: knownIDs)
        }
        return factory(http ?? URLSessionHTTPClient.shared)
    }
}
