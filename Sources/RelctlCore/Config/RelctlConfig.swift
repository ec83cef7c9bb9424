import Foundation

/// `relctl.toml`, read into typed values. Every field has the default a user gets by leaving it out.
public struct RelctlConfig: Sendable {
    /// The path as the user gave it, for messages.
    public var path: String
    /// The project root: the folder holding the config file.
    public var root: URL
    /// False when no file was read and these are the built-in defaults.
    var isFromFile: Bool

    public var project: ProjectSettings
    public var versions: [VersionSource]
    var build: BuildSettings
    var targets: [TargetSettings]
    var archive: ArchiveSettings
    public var checksum: ChecksumSettings
    var notes: NotesSettings
    public var release: ReleaseSettings
    var ci: CISettings
    public var publish: PublishSettings
    /// `[[image]]`: container images built from the Linux binaries.
    public var images: [ImageSettings] = []
    public var sign: SignSettings = SignSettings()
    var sbom: SBOMSettings = SBOMSettings()
    var installer: InstallerSettings = InstallerSettings()

    /// Defaults for a project without relctl.toml (`notes`, `checksum`, `verify` and `train` work there).
    static func defaults(root: URL) -> RelctlConfig {
        RelctlConfig(
            path: root.appendingPathComponent(ConfigLoader.defaultFileName).path,
            root: root,
            isFromFile: false,
            project: ProjectSettings(name: root.lastPathComponent, tagFormat: .default),
            versions: [],
            build: BuildSettings(),
            targets: [],
            archive: ArchiveSettings(),
            checksum: ChecksumSettings(),
            notes: NotesSettings(),
            release: ReleaseSettings(),
            ci: CISettings(),
            publish: PublishSettings()
        )
    }
}

public struct ProjectSettings: Sendable {
    /// The longest `[project] name`, in bytes: file names hold 255, and relctl writes files named
    /// after the project (archives with a tag and a target triple, `NAME-installer.ps1`, temporaries).
    static let maximumNameLength = 128

    public var name: String
    public var tagFormat: TagFormat
    init(name: String, tagFormat: TagFormat) {
        self.name = name
        self.tagFormat = tagFormat
    }
}

/// A manifest whose version must equal the tag's (`[[version]]`).
public struct VersionSource: Sendable, Equatable {
    /// Relative to the project root, as written.
    public var path: String
    /// A manifest reader id: `cargo`, `npm`, `python`, `swift`, `plain`, `regex`.
    var kind: String
    /// For `regex` (and optionally `swift`): a pattern with a named group `version`.
    var pattern: String?
    var line: Int?

    init(path: String, kind: String, pattern: String? = nil, line: Int? = nil) {
        self.path = path
        self.kind = kind
        self.pattern = pattern
        self.line = line
    }
}

struct BuildSettings: Sendable {
    /// Shell command run per target; nil means there is nothing to build (prebuilt binaries).
    var command: Template?
    var binaries: [String] = []
    /// Binaries packaged when the build made them and skipped (with a note) when it did not: a
    /// tool built only on some platforms.
    var optionalBinaries: [String] = []
    var binaryDirectory: Template = Template("target/{target}/release")
    /// Extra environment variables for the build command.
    var environment: [String: String] = [:]
    init() {}
}

/// How symlinks are stored: `keep` as links (tar), `copy` as the target's bytes (zip for Windows).
enum LinksPolicy: String, Sendable, CaseIterable, Codable {
    case keep, copy
}

/// One `[[target]]` entry as written; `TargetResolver` turns it into a `Target` with defaults.
struct TargetSettings: Sendable {
    var triple: String
    var runner: String?
    var format: String?
    var links: LinksPolicy?
    var command: Template?
    var binaryDirectory: Template?
    var line: Int?

    init(
        triple: String, runner: String? = nil, format: String? = nil, links: LinksPolicy? = nil,
        command: Template? = nil, binaryDirectory: Template? = nil, line: Int? = nil
    ) {
        self.triple = triple
        self.runner = runner
        self.format = format
        self.links = links
        self.command = command
        self.binaryDirectory = binaryDirectory
        self.line = line
    }
}

/// A file or tree copied into the archive: `from` in the project, `to` inside the archive folder.
struct PathMapping: Sendable, Equatable {
    var from: Template
    var to: Template
    init(from: Template, to: Template) {
        self.from = from
        self.to = to
    }
}

/// `[[archive.symlink]]`: a link created per binary (`{binary}` expands to each binary name),
/// or once when neither side names `{binary}`.
struct SymlinkRule: Sendable, Equatable {
    var path: Template
    var to: Template
    init(path: Template, to: Template) {
        self.path = path
        self.to = to
    }

    /// True when the rule makes one link per binary.
    var mentionsBinary: Bool { path.placeholders.contains("binary") || to.placeholders.contains("binary") }
}

struct ArchiveSettings: Sendable {
    /// The file stem and the single top-level folder.
    var name: Template = Template("{project}-{tag}-{target}")
    var files: [PathMapping] = []
    var trees: [PathMapping] = []
    var setupEnv: Bool = true
    var symlinks: [SymlinkRule] = []
    /// A shell command run once per archive in an empty staging folder (cwd), with RELCTL_TARGET,
    /// RELCTL_VERSION… set; every file it writes there is added at the archive's root.
    var stage: Template?
    /// Compression level (format's default when nil): gzip/zip 1-9, xz 0-9, zstd 1-19.
    var compressionLevel: Int?
    /// Glob patterns (relative to a tree's root) left out of trees.
    var exclude: [String] = []
    init() {}
}

public struct ChecksumSettings: Sendable {
    /// `sha256` (default) or `sha512`.
    public var algorithm: String = "sha256"
    init() {}
}

/// A section of the release notes and the commit types it collects.
struct NotesGroup: Sendable, Equatable {
    var title: String
    var types: [String]
    init(title: String, types: [String]) {
        self.title = title
        self.types = types
    }
}

struct NotesSettings: Sendable {
    /// A Mustache template rendered over the notes data instead of the built-in Markdown.
    var template: String?
    var groups: [NotesGroup] = NotesSettings.defaultGroups
    /// Non-conventional commits go to "Other changes" (true) or are dropped (false).
    var includeOther: Bool = true
    var includeMerges: Bool = false
    /// For a final release, earlier prereleases are skipped when choosing the previous tag.
    var skipPrereleases: Bool = true

    static let defaultGroups: [NotesGroup] = [
        NotesGroup(title: "Features", types: ["feat"]),
        NotesGroup(title: "Bug fixes", types: ["fix"]),
        NotesGroup(title: "Performance", types: ["perf"]),
        NotesGroup(title: "Documentation", types: ["docs"]),
        NotesGroup(title: "Refactoring", types: ["refactor"]),
        // A revert that cancels nothing in the range undoes something users already had.
        NotesGroup(title: "Reverts", types: ["revert"]),
    ]
    init() {}
}

public struct ReleaseSettings: Sendable {
    var branches: [String] = ["main", "master"]
    public var remote: String = "origin"
    var sign: Bool = false
    var before: [String] = []
    var after: [String] = []
    init() {}
}

/// `[ci]`: how the generated workflow prepares a runner.
struct CISettings: Sendable {
    /// Shell lines that put `relctl` on PATH in every job (default: build it from source with Swift).
    var setup: [String] = []
    /// `[[ci.setup]]`: steps (shell or `uses:` actions, with inputs, env and secrets) that put
    /// `relctl` on PATH in every job; replaces `setup` and the default.
    var setupSteps: [CISetupStep] = []
    /// True when neither form is set: the workflow builds relctl from source.
    var usesDefaultSetup: Bool { setup.isEmpty && setupSteps.isEmpty }
    /// Workflow file path, relative to the project root.
    var workflow: String = ".github/workflows/release.yml"
    /// Attach GitHub build-provenance attestations to the release files (`actions/attest-build-provenance`).
    var attest: Bool = false
    init() {}
}

/// `[sign]`: keys that sign `SHA256SUMS` and the public keys `verify` checks against. Paths are
/// relative to the project root; the environment variables in `SigningKeys` take precedence
/// for the secret keys (CI keeps them in secrets, not files).
public struct SignSettings: Sendable, Equatable {
    var sshKey: String?
    var minisignKey: String?
    var allowedSigners: String?
    var minisignPublicKey: String?
    init(
        sshKey: String? = nil, minisignKey: String? = nil, allowedSigners: String? = nil,
        minisignPublicKey: String? = nil
    ) {
        self.sshKey = sshKey
        self.minisignKey = minisignKey
        self.allowedSigners = allowedSigners
        self.minisignPublicKey = minisignPublicKey
    }
}

/// `[sbom]`: a CycloneDX SBOM (`NAME.cdx.json`) next to each archive.
struct SBOMSettings: Sendable, Equatable {
    var enabled: Bool = true
    init() {}
}

/// `[installer]`: `{project}-installer.sh` / `.ps1` in dist/ during `relctl release`.
struct InstallerSettings: Sendable, Equatable {
    var enabled: Bool = false
    init() {}
}

/// `[publish]`: where `relctl publish` sends the release.
public struct PublishSettings: Sendable {
    /// `OWNER/REPO` on GitHub; nil means `GITHUB_REPOSITORY`, else the release remote's URL.
    public var github: String?
    init() {}
}
