import Foundation
import RelctlBasics
import RelctlModel

/// What to publish, as plain values: any caller (the `publish` command, a release stage) fills
/// it in from its own sources.
public struct PublishRequest: Sendable {
    public package(set) var tag: String
    /// The tag's version, for the prerelease flag and for "latest".
    public package(set) var version: SemanticVersion
    /// How other releases' tags read as versions (to decide whether this one is the latest).
    package var tagFormat: TagFormat
    public package(set) var projectName: String
    /// The release title.
    public package(set) var title: String
    /// The release body (Markdown); empty when there are no notes.
    public var body: String
    public var assets: ReleaseAssetSet
    /// `[publish] github` as configured, or nil.
    package var configuredRepository: String?
    /// `[publish] gitlab` (the project path) as configured, or nil.
    package var configuredGitLabProject: String?
    /// `[publish] gitea` (OWNER/REPO on Gitea or Forgejo) as configured, or nil.
    package var configuredGiteaRepository: String?
    /// The URL of the remote the release pushes to, for the repository when nothing else names it.
    package var remoteURL: String?
    /// `git rev-parse refs/tags/TAG` here, when the tag exists locally: the server's must match.
    public var localTagObject: String?
    /// `[publish] ID = "…"` for each publisher an extension added, by id: what an added
    /// publisher reads its destination from.
    public package(set) var extensionSettings: [String: String] = [:]
    /// Stop with a complete draft instead of publishing it.
    public package(set) var draftOnly: Bool
    /// Replace same-name assets whose SHA256 differs (with a warning) instead of refusing.
    public package(set) var replace: Bool

    public init(
        tag: String, version: SemanticVersion, tagFormat: TagFormat, projectName: String, title: String, body: String,
        assets: ReleaseAssetSet,
        configuredRepository: String? = nil, remoteURL: String? = nil, draftOnly: Bool = false, replace: Bool = false
    ) {
        self.tag = tag
        self.version = version
        self.tagFormat = tagFormat
        self.projectName = projectName
        self.title = title
        self.body = body
        self.assets = assets
        self.configuredRepository = configuredRepository
        self.remoteURL = remoteURL
        self.draftOnly = draftOnly
        self.replace = replace
    }
}
