import Foundation
import RelctlBasics

/// One `[[image]]` table: a container image built from the release's Linux binaries.
public struct ImageSettings: Sendable {
    /// Folder name under `dist/oci/` (default: the project name).
    public var name: String
    /// Where `--push` sends it: `host[:port]/path`, no tag or digest.
    public var repository: ImageReference
    /// Tag templates; a prerelease keeps only those naming its exact version (`{version}`, `{tag}`).
    package var tags: [Template]
    /// Target triples; nil means every configured Linux target.
    package var targets: [String]?
    /// Binaries copied to `/usr/local/bin`; nil means every `[build]` binary.
    package var binaries: [String]?
    /// The binary to run and its arguments; nil means the first binary.
    package var entrypoint: [String]?
    /// Project files copied under `/usr/local/share/<name>/`.
    package var files: [PathMapping]
    /// `uid:gid` (or a name the base image knows) the entrypoint runs as.
    package var user: String
    /// `scratch`, or a base image pinned by digest.
    public var base: ImageReference?
    /// Extra labels in the image config (and annotations on the manifests and the index).
    package var labels: [String: String]
    /// The line of the `[[image]]` header, for messages.
    package var line: Int?

    package static let defaultTags = [Template("{version}"), Template("latest")]
    /// distroless' `nonroot`: an unprivileged id with no meaning on the host.
    package static let defaultUser = "65532:65532"
    /// Placeholders a tag may use.
    package static let tagPlaceholders = ["project", "version", "tag", "major", "minor", "patch", "prerelease"]

    package init(
        name: String, repository: ImageReference, tags: [Template] = ImageSettings.defaultTags,
        targets: [String]? = nil,
        binaries: [String]? = nil, entrypoint: [String]? = nil, files: [PathMapping] = [],
        user: String = ImageSettings.defaultUser,
        base: ImageReference? = nil, labels: [String: String] = [:], line: Int? = nil
    ) {
        self.name = name
        self.repository = repository
        self.tags = tags
        self.targets = targets
        self.binaries = binaries
        self.entrypoint = entrypoint
        self.files = files
        self.user = user
        self.base = base
        self.labels = labels
        self.line = line
    }

    /// The binaries this image holds, given the `[build]` ones.
    package func imageBinaries(_ build: [String]) -> [String] { binaries ?? build }
}
