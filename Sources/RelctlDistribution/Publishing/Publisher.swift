import Foundation
import RelctlBasics
import RelctlModel
import Synchronization

/// A place releases are published to (GitHub now; GitLab or Gitea later). A publisher learns
/// what is already published from its API, never from local files, so running it again after
/// any failure finishes the job.
public protocol Publisher: Sendable {
    /// The registry id (`github`).
    var id: String { get }
    /// Everything that can be checked without a request (credentials, repository), so a bad
    /// setup fails with exit 2 before anything is sent.
    func preflight(_ request: PublishRequest, context: Context) throws
    func publish(_ request: PublishRequest, context: Context) async throws -> PublishReport
    /// A dry run: read-only requests proving the API answers with these credentials, and what a
    /// real run would find (the release, which assets it lacks, any differing asset as an error).
    func rehearse(_ request: PublishRequest, context: Context) async throws -> PublishReport
    /// Read-only: the tag's release when it is already published (a draft is not), with its
    /// assets' names; nil when the tag has no published release. `release --publish` asks this
    /// before the build, so a release that would have to change a published one stops first.
    func publishedRelease(_ request: PublishRequest, context: Context) async throws -> PublishedForgeRelease?
    /// Read-only, once the release's files exist: when the tag's release is already published,
    /// every asset of `request` is compared with it by name and SHA256 (the digests the forge
    /// reports, or its files' bytes where it reports none): any missing or different one throws
    /// `PublishError.publishedReleaseDiffers` naming each. Nil when there is no published release;
    /// the release when it holds exactly these bytes. `release --publish` asks this after the
    /// build and before the tag, so a release whose bytes differ stops before anything is tagged.
    func comparePublished(_ request: PublishRequest, context: Context) async throws -> PublishedForgeRelease?
}

extension Publisher {
    /// By name only, for a publisher that reports no digests (an extension's): a missing asset
    /// stops the release; its publish stage compares the bytes.
    public func comparePublished(_ request: PublishRequest, context: Context) async throws -> PublishedForgeRelease? {
        guard let published = try await publishedRelease(request, context: context) else { return nil }
        let lacking = published.lacking(request.assets.names)
        if !lacking.isEmpty {
            throw PublishError.publishedReleaseDiffers(release: published.shown, missing: lacking, differing: [])
        }
        return published
    }

    /// A publisher that cannot tell (an extension's) answers nil: its publish stage decides.
    public func publishedRelease(_ request: PublishRequest, context: Context) async throws -> PublishedForgeRelease? {
        nil
    }
}

/// A tag's release that is already public on a forge, as `Publisher.publishedRelease` reports it.
public struct PublishedForgeRelease: Sendable, Equatable {
    /// How messages name it, e.g. `release v1.1.0 (id 3) on acme/velostream`.
    public var shown: String
    /// Its assets' names (GitLab: its links' names).
    public var assetNames: Set<String>

    public init(shown: String, assetNames: Set<String>) {
        self.shown = shown
        self.assetNames = assetNames
    }

    /// The names of `wanted` the release does not hold, sorted.
    public func lacking(_ wanted: [String]) -> [String] { Set(wanted).subtracting(assetNames).sorted() }
}

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

/// A forge's release, as far as choosing this tag's release goes.
package protocol DraftableRelease {
    var id: Int { get }
    var tagName: String { get }
    var draft: Bool { get }
}

/// Which of a tag's releases a publisher works on, the same on every forge with drafts.
package enum ReleaseChoice {
    /// The published one when there is one (a forge allows only one), else the oldest draft
    /// (lowest id), so every run picks the same among several drafts; the others are named.
    package static func choose<Release: DraftableRelease>(
        _ releases: [Release], tag: String, console: Console
    ) -> Release? {
        let matching = releases.filter { $0.tagName == tag }
        let drafts = matching.filter(\.draft).sorted { $0.id < $1.id }
        if let published = matching.first(where: { !$0.draft }) {
            if !drafts.isEmpty {
                console.warning(
                    "\(tag) is published (release \(published.id)); ignoring \(drafts.count) other draft(s) for it: \(drafts.map { String($0.id) }.joined(separator: ", "))"
                )
            }
            return published
        }
        if drafts.count > 1 {
            console.warning(
                "\(drafts.count) drafts exist for \(tag) (ids \(drafts.map { String($0.id) }.joined(separator: ", "))); using the oldest, \(drafts[0].id); delete the others on the releases page"
            )
        }
        return drafts.first
    }
}

/// Before anything is created on a forge, the tag there must be the tag made here: a release
/// attached to someone else's tag of the same name would publish the wrong commit.
package enum PushedTagCheck {
    /// `found` is the forge's view of the tag (nil: not pushed); either its tag object or the
    /// commit it points to may match `local`, since forges report one or the other.
    package static func require(
        _ tag: String, found: (object: String, commit: String?)?, local: String?, repository: String
    ) throws {
        guard let found else { throw PublishError.tagNotPushed(tag: tag, repository: repository) }
        if let local = local?.lowercased(), local != found.object.lowercased(), local != found.commit?.lowercased() {
            throw PublishError.tagDiffers(tag: tag, repository: repository, remote: found.object, local: local)
        }
    }
}
