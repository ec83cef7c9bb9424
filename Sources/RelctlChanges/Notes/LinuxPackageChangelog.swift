import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel

/// The Linux packages' changelog comes from the release notes, so what needs both (the
/// `relctl linux-package` command, the notes as changelog lines) sits above them.
extension LinuxPackageBuilder {
    /// The release notes' entries as changelog lines (`scope: summary`), breaking ones marked.
    package static func changes(from notes: ReleaseNotes) -> [String] {
        notes.entries.map { entry in
            (entry.breaking ? "BREAKING: " : "") + (entry.scope.map { "\($0): " } ?? "") + entry.summary
        }
    }

    /// What `relctl linux-package` packages, checked before the release is resolved: the config with
    /// only the `[[package]]` tables of `formats` (default: every table), and the Linux targets.
    package static func selection(
        config: RelctlConfig, targets: [Target], formats: [String]
    ) throws -> (config: RelctlConfig, targets: [Target]) {
        var config = config
        for format in formats where !config.linuxPackages.contains(where: { $0.format == format }) {
            _ = try LinuxPackageFormats.format(format)
            throw LinuxPackageError.nothingToPackage(
                config: config.path,
                reason: "has no [[package]] with format = \"\(format)\"; add one to write \(format) packages")
        }
        if !formats.isEmpty { config.linuxPackages.removeAll { !formats.contains($0.format) } }
        guard !config.linuxPackages.isEmpty else {
            throw LinuxPackageError.nothingToPackage(
                config: config.path, reason: "has no [[package]] table; add `[[package]] format = \"deb\"` (or \"rpm\")"
            )
        }
        let linux = targets.filter { LinuxArchitecture(triple: $0.triple) != nil }
        guard !linux.isEmpty else {
            throw LinuxPackageError.nothingToPackage(
                config: config.path,
                reason:
                    "none of the selected targets (\(targets.map(\.triple).joined(separator: ", "))) is a Linux target with a Debian/RPM architecture"
            )
        }
        return (config, linux)
    }

    /// `relctl linux-package`: the packages of the release `identity` names (resolved with
    /// `.packaging`) for `selection`'s config and targets, into `outputDirectory`.
    package static func package(
        config: RelctlConfig, identity: ReleaseIdentity, targets: [Target], outputDirectory: URL, binaryRoot: URL?,
        context: Context
    ) async throws -> [Artifact] {
        var quiet = context
        quiet.console = .silent
        // Outside a repository (prebuilt binaries and SOURCE_DATE_EPOCH) there is no history to
        // tell: the changelog then says only which version this is.
        var changes: [String] = []
        if !identity.commit.isEmpty {
            let notes = try await ReleaseNotesBuilder(context: quiet).build(
                config: config, tag: identity.tag, version: identity.version, to: identity.commit, manifest: nil)
            changes = Self.changes(from: notes)
        }
        return try await LinuxPackageBuilder(context: context).write(
            config: config, inputs: identity.packagingInputs, targets: targets, changes: changes, into: outputDirectory,
            binaryRoot: binaryRoot)
    }
}
