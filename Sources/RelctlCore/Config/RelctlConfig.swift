import Foundation

/// `relctl.toml`, read into typed values. Every field has the default a user gets by leaving it out.
public struct RelctlConfig: Sendable {
    /// The path as the user gave it, for messages.
    public var path: String
    /// The project root: the folder holding the config file.
    public var root: URL
    /// False when no file was read and these are the built-in defaults.
    public var isFromFile: Bool

    public var project: ProjectSettings
    public var versions: [VersionSource]
    public var build: BuildSettings
    public var targets: [TargetSettings]
    public var archive: ArchiveSettings
    public var checksum: ChecksumSettings
    public var notes: NotesSettings
    public var release: ReleaseSettings
    public var ci: CISettings
    public var publish: PublishSettings
    /// `[[image]]`: container images built from the Linux binaries.
    public var images: [ImageSettings] = []
    public var sign: SignSettings = SignSettings()
    public var sbom: SBOMSettings = SBOMSettings()
    public var installer: InstallerSettings = InstallerSettings()

    /// Defaults for a project without relctl.toml (`notes`, `checksum`, `verify` and `train` work there).
    public static func defaults(root: URL) -> RelctlConfig {
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
    public static let maximumNameLength = 128

    public var name: String
    public var tagFormat: TagFormat
    public init(name: String, tagFormat: TagFormat) {
        self.name = name
        self.tagFormat = tagFormat
    }
}

/// A manifest whose version must equal the tag's (`[[version]]`).
public struct VersionSource: Sendable, Equatable {
    /// Relative to the project root, as written.
    public var path: String
    /// A manifest reader id: `cargo`, `npm`, `python`, `swift`, `plain`, `regex`.
    public var kind: String
    /// For `regex` (and optionally `swift`): a pattern with a named group `version`.
    public var pattern: String?
    public var line: Int?

    public init(path: String, kind: String, pattern: String? = nil, line: Int? = nil) {
        self.path = path
        self.kind = kind
        self.pattern = pattern
        self.line = line
    }
}

public struct BuildSettings: Sendable {
    /// Shell command run per target; nil means there is nothing to build (prebuilt binaries).
    public var command: Template?
    public var binaries: [String] = []
    /// Binaries packaged when the build made them and skipped (with a note) when it did not: a
    /// tool built only on some platforms.
    public var optionalBinaries: [String] = []
    public var binaryDirectory: Template = Template("target/{target}/release")
    /// Extra environment variables for the build command.
    public var environment: [String: String] = [:]
    public init() {}
}

/// How symlinks are stored: `keep` as links (tar), `copy` as the target's bytes (zip for Windows).
public enum LinksPolicy: String, Sendable, CaseIterable, Codable {
    case keep, copy
}

/// One `[[target]]` entry as written; `TargetResolver` turns it into a `Target` with defaults.
public struct TargetSettings: Sendable {
    public var triple: String
    public var runner: String?
    public var format: String?
    public var links: LinksPolicy?
    public var command: Template?
    public var binaryDirectory: Template?
    public var line: Int?

    public init(
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
public struct PathMapping: Sendable, Equatable {
    public var from: Template
    public var to: Template
    public init(from: Template, to: Template) {
        self.from = from
        self.to = to
    }
}

/// `[[archive.symlink]]`: a link created per binary (`{binary}` expands to each binary name),
/// or once when neither side names `{binary}`.
public struct SymlinkRule: Sendable, Equatable {
    public var path: Template
    public var to: Template
    public init(path: Template, to: Template) {
        self.path = path
        self.to = to
    }

    /// True when the rule makes one link per binary.
    public var mentionsBinary: Bool { path.placeholders.contains("binary") || to.placeholders.contains("binary") }
}

public struct ArchiveSettings: Sendable {
    /// The file stem and the single top-level folder.
    public var name: Template = Template("{project}-{tag}-{target}")
    public var files: [PathMapping] = []
    public var trees: [PathMapping] = []
    public var setupEnv: Bool = true
    public var symlinks: [SymlinkRule] = []
    /// A shell command run once per archive in an empty staging folder (cwd), with RELCTL_TARGET,
    /// RELCTL_VERSION… set; every file it writes there is added at the archive's root.
    public var stage: Template?
    /// Compression level (format's default when nil): gzip/zip 1-9, xz 0-9, zstd 1-19.
    public var compressionLevel: Int?
    /// Glob patterns (relative to a tree's root) left out of trees.
    public var exclude: [String] = []
    public init() {}
}

public struct ChecksumSettings: Sendable {
    /// `sha256` (default) or `sha512`.
    public var algorithm: String = "sha256"
    public init() {}
}

/// A section of the release notes and the commit types it collects.
public struct NotesGroup: Sendable, Equatable {
    public var title: String
    public var types: [String]
    public init(title: String, types: [String]) {
        self.title = title
        self.types = types
    }
}

public struct NotesSettings: Sendable {
    /// A Mustache template rendered over the notes data instead of the built-in Markdown.
    public var template: String?
    public var groups: [NotesGroup] = NotesSettings.defaultGroups
    /// Non-conventional commits go to "Other changes" (true) or are dropped (false).
    public var includeOther: Bool = true
    public var includeMerges: Bool = false
    /// For a final release, earlier prereleases are skipped when choosing the previous tag.
    public var skipPrereleases: Bool = true

    public static let defaultGroups: [NotesGroup] = [
        NotesGroup(title: "Features", types: ["feat"]),
        NotesGroup(title: "Bug fixes", types: ["fix"]),
        NotesGroup(title: "Performance", types: ["perf"]),
        NotesGroup(title: "Documentation", types: ["docs"]),
        NotesGroup(title: "Refactoring", types: ["refactor"]),
        // A revert that cancels nothing in the range undoes something users already had.
        NotesGroup(title: "Reverts", types: ["revert"]),
    ]
    public init() {}
}

public struct ReleaseSettings: Sendable {
    public var branches: [String] = ["main", "master"]
    public var remote: String = "origin"
    public var sign: Bool = false
    public var before: [String] = []
    public var after: [String] = []
    public init() {}
}

/// `[ci]`: how the generated workflow prepares a runner.
public struct CISettings: Sendable {
    /// Shell lines that put `relctl` on PATH in every job (default: build it from source with Swift).
    public var setup: [String] = []
    /// `[[ci.setup]]`: steps (shell or `uses:` actions, with inputs, env and secrets) that put
    /// `relctl` on PATH in every job; replaces `setup` and the default.
    public var setupSteps: [CISetupStep] = []
    /// True when neither form is set: the workflow builds relctl from source.
    public var usesDefaultSetup: Bool { setup.isEmpty && setupSteps.isEmpty }
    /// Workflow file path, relative to the project root.
    public var workflow: String = ".github/workflows/release.yml"
    /// Attach GitHub build-provenance attestations to the release files (`actions/attest-build-provenance`).
    public var attest: Bool = false
    public init() {}
}

/// `[sign]`: keys that sign `SHA256SUMS` and the public keys `verify` checks against. Paths are
/// relative to the project root; the environment variables in `SigningKeys` take precedence
/// for the secret keys (CI keeps them in secrets, not files).
public struct SignSettings: Sendable, Equatable {
    public var sshKey: String?
    public var minisignKey: String?
    public var allowedSigners: String?
    public var minisignPublicKey: String?
    public init(
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
public struct SBOMSettings: Sendable, Equatable {
    public var enabled: Bool = true
    public init() {}
}

/// `[installer]`: `{project}-installer.sh` / `.ps1` in dist/ during `relctl release`.
public struct InstallerSettings: Sendable, Equatable {
    public var enabled: Bool = false
    public init() {}
}

/// `[publish]`: where `relctl publish` sends the release.
public struct PublishSettings: Sendable {
    /// `OWNER/REPO` on GitHub; nil means `GITHUB_REPOSITORY`, else the release remote's URL.
    public var github: String?
    public init() {}
}
