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
    /// `[workspace]`: members that release on their own.
    package var workspace: WorkspaceSettings?
    /// The member's name when this is a `[workspace]` member's configuration (set by the
    /// workspace, never read from a file): its history is its folder's, its release lock its own.
    package var workspaceMember: String?
    package var ci: CISettings
    public var publish: PublishSettings
    /// `[[image]]`: container images built from the Linux binaries.
    public var images: [ImageSettings] = []
    public var sign: SignSettings = SignSettings()
    package var sbom: SBOMSettings = SBOMSettings()
    package var installer: InstallerSettings = InstallerSettings()
    package var provenance: ProvenanceSettings = ProvenanceSettings()
    /// `[[package]]`: native .deb / .rpm packages of the Linux targets.
    package var linuxPackages: [LinuxPackageSettings] = []
    /// `[[chart]]`, `[nix]`, `[homebrew]`, `[scoop]`, `[[channel]]`: where users install from.
    package var channels: ChannelSettings = ChannelSettings()
    /// `[apt]`, `[dnf]`, `[repository]`: signed package repositories.
    package var repositories: RepositorySettings = RepositorySettings()

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
