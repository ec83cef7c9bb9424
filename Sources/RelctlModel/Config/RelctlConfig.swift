import Foundation
import RelctlBasics

/// `relctl.toml`, read into typed values. Every field has the default a user gets by leaving it out.
public struct RelctlConfig: Sendable {
    /// The path as the user gave it, for messages.
    public var path: String
    /// The project root: the folder holding the config file.
    public var root: URL
    /// False when no file was read and these are the built-in defaults.
    package var isFromFile: Bool

    public var project: ProjectSettings
    public var versions: [VersionSource]
    package var build: BuildSettings
    package var targets: [TargetSettings]
    package var archive: ArchiveSettings
    public var checksum: ChecksumSettings
    package var notes: NotesSettings
    public var release: ReleaseSettings
    /// `[[branch]]` rules: prerelease and maintenance lines.
    package var branches: [BranchRule] = []
    /// `[versioning]`: change fragments, the 0.x rule and the release cadence.
    package var versioning = VersioningSettings()
    /// `[workspace]`: members that release on their own.
    package var workspace: WorkspaceSettings?
    /// The member's name when this is a `[workspace]` member's configuration (set by the
    /// workspace, never read from a file): its history is its folder's, its release lock its own.
    package var workspaceMember: String?
    /// The repository's top when this is a `[workspace]` member's configuration (set by the
    /// workspace): the folder its version files and `include` globs must stay in, not the member's
    /// own (`../../charts/app/Chart.yaml` is one of its version files). Nil for a project, whose
    /// files stay in `root`.
    package var repositoryRoot: URL?
    package var ci: CISettings
    public var publish: PublishSettings
    /// `[[image]]`: container images built from the Linux binaries.
    public var images: [ImageSettings] = []
    public var sign: SignSettings = SignSettings()
    /// `[windows]`: Authenticode signing of the Windows executables, and MSI installers.
    package var windows: WindowsSettings = WindowsSettings()
    package var sbom: SBOMSettings = SBOMSettings()
    package var installer: InstallerSettings = InstallerSettings()
    package var provenance: ProvenanceSettings = ProvenanceSettings()
    /// `[[package]]`: native .deb / .rpm packages of the Linux targets.
    package var linuxPackages: [LinuxPackageSettings] = []
    /// `[[chart]]`, `[nix]`, `[homebrew]`, `[scoop]`, `[[channel]]`: where users install from.
    package var channels: ChannelSettings = ChannelSettings()
    /// `[apt]`, `[dnf]`, `[repository]`: signed package repositories.
    package var repositories: RepositorySettings = RepositorySettings()
    /// `[npm]`: one npm package per target and a main package with a launcher; nil without the table.
    package var npm: NpmSettings?
    /// `[pypi]`: a wheel per target with the binaries, for PyPI.
    package var pypi: PyPISettings?

    /// Defaults for a project without relctl.toml (`notes`, `checksum`, `verify` and `train` work there).
    /// The config file's name in a project's root.
    public static let fileName = "relctl.toml"

    package static func defaults(root: URL) -> RelctlConfig {
        RelctlConfig(
            path: root.appendingPathComponent(RelctlConfig.fileName).path,
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

extension RelctlConfig {
    /// A relctl.toml with no `[[target]]`: its releases are a tag and notes only, with no archive
    /// and so no `SHA256SUMS`; commands that read the list treat its absence as "nothing to do".
    public var releasesTagsOnly: Bool { isFromFile && targets.isEmpty }
}

// The one-key sections of relctl.toml, beside the config that holds them.

public struct ChecksumSettings: Sendable {
    /// `sha256` (default) or `sha512`.
    public var algorithm: String = "sha256"
    package init() {}
}

/// `[sbom]`: a CycloneDX SBOM (`NAME.cdx.json`) next to each archive.
package struct SBOMSettings: Sendable, Equatable {
    package var enabled: Bool = true
    package init() {}
}

/// `[installer]`: `{project}-installer.sh` / `.ps1` in dist/ during `relctl release`.
package struct InstallerSettings: Sendable, Equatable {
    package var enabled: Bool = false
    package init() {}
}

/// `[provenance]`: `dist/{project}-{tag}.intoto.jsonl`, the release's signed SLSA provenance.
package struct ProvenanceSettings: Sendable, Equatable {
    package var enabled: Bool = false
    package init() {}
}

/// The one place that turns a path written in `relctl.toml` into a location: absolute paths as
/// written, anything else relative to the project root (the folder holding the config). Every
/// command resolves config paths here, so `check` and the command that uses a path never
/// disagree about where it is.
extension RelctlConfig {
    /// The release output folder of the project.
    package static let distFolderName = "dist"

    /// `dist/` in the project.
    public var distDirectory: URL { root.appendingPathComponent(Self.distFolderName) }

    /// A config path resolved against the project root (absolute paths kept).
    package func resolve(_ path: String) -> URL { Self.resolve(path, root: root) }

    /// A config path resolved against `root`, for code that holds the root but not the config.
    package static func resolve(_ path: String, root: URL) -> URL {
        AbsolutePath(path, relativeTo: AbsolutePath(root)).url
    }
}

public struct ReleaseSettings: Sendable {
    package var branches: [String] = ["main", "master"]
    public var remote: String = "origin"
    package var sign: Bool = false
    package var before: [String] = []
    package var after: [String] = []
    package init() {}
}

package struct BuildSettings: Sendable {
    /// Shell command run per target; nil means there is nothing to build (prebuilt binaries).
    package var command: Template?
    package var binaries: [String] = []
    /// Binaries packaged when the build made them and skipped (with a note) when it did not: a
    /// tool built only on some platforms.
    package var optionalBinaries: [String] = []
    package var binaryDirectory: Template = Template("target/{target}/release")
    /// Extra environment variables for the build command.
    package var environment: [String: String] = [:]
    package init() {}
}

/// `[publish]`: where `relctl publish` sends the release.
public struct PublishSettings: Sendable {
    /// `OWNER/REPO` on GitHub; nil means `GITHUB_REPOSITORY`, else the release remote's URL.
    public var github: String?
    /// `group/subgroup/project` on GitLab; nil means `CI_PROJECT_PATH` (with `--forge gitlab`).
    public var gitlab: String?
    /// `OWNER/REPO` on Gitea or Forgejo; nil means the release remote's URL (with `--forge gitea`).
    public var gitea: String?
    /// `[publish] ID = "…"` for each publisher a program built on relctl added (`RelctlExtensions.addPublisher`).
    public var extensions: [String: String] = [:]
    package init() {}
}

/// `[sign]`: keys that sign `SHA256SUMS` and the public keys `verify` checks against. Paths are
/// relative to the project root; the environment variables in `SigningKeys` take precedence
/// for the secret keys (CI keeps them in secrets, not files).
public struct SignSettings: Sendable, Equatable {
    package var sshKey: String?
    package var minisignKey: String?
    package var allowedSigners: String?
    package var minisignPublicKey: String?
    package init(
        sshKey: String? = nil, minisignKey: String? = nil, allowedSigners: String? = nil,
        minisignPublicKey: String? = nil
    ) {
        self.sshKey = sshKey
        self.minisignKey = minisignKey
        self.allowedSigners = allowedSigners
        self.minisignPublicKey = minisignPublicKey
    }
}
