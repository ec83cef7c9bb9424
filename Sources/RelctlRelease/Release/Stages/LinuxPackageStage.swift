import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlChanges

/// Writes the `[[package]]` .deb/.rpm files of the Linux targets into the staging folder, from the
/// binaries the build stage made (the ones the archives hold), before the checksum stage, which
/// lists them in `SHA256SUMS` so they are signed and published with the archives. The changelog
/// inside comes from the same notes `relctl notes` writes for this tag.
struct LinuxPackageStage: ReleaseStage {
    init() {}
    var name: String { "linux-package" }
    /// The binaries, not the archives: the packages are written while the archives are.
    var needs: Set<ReleaseFact> { [.binaries] }
    var produces: Set<ReleaseFact> { [.linuxPackages] }
    var runsAlongside: Bool { true }

    func skipReason(_ run: ReleaseRun, _ outputs: ReleaseOutputs) -> String? {
        run.config.linuxPackages.isEmpty ? "no [[package]] in \(run.config.path)" : nil
    }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        let targets = outputs.builtTargets ?? run.identity.targets
        var quiet = run.context
        quiet.console = .silent  // the notes stage says what the notes cover; once is enough
        let notes = try await ReleaseNotesBuilder(context: quiet).build(
            config: run.config, tag: run.tag, version: run.identity.version, to: run.identity.commit, manifest: nil,
            remoteURL: .some(run.remoteURL))
        let packages = try await LinuxPackageBuilder(context: run.context).write(
            config: run.config, inputs: run.identity.packagingInputs, targets: targets,
            changes: LinuxPackageBuilder.changes(from: notes), into: run.stagingDirectory,
            binaryRoot: run.options.artifactsDirectory, keysRoot: run.projectRoot)
        outputs.linuxPackages = packages
        return packages.isEmpty ? "no Linux target to package" : packages.map(\.name).joined(separator: ", ")
    }
}

/// Adds this release's .deb/.rpm files to the signed APT and DNF repositories (`[apt]`, `[dnf]`)
/// in the staging folder, right after the packages are written: the dist stage moves `apt/` and
/// `dnf/` into dist/ with the rest. The repositories are not release assets (they are published
/// as a whole, to a folder or branch), so they stay out of `SHA256SUMS`.
struct RepositoryStage: ReleaseStage {
    init() {}
    var name: String { "repository" }
    var needs: Set<ReleaseFact> { [.linuxPackages] }
    var produces: Set<ReleaseFact> { [.repositories] }
    var runsAlongside: Bool { true }

    func skipReason(_ run: ReleaseRun, _ outputs: ReleaseOutputs) -> String? {
        run.config.repositories.isEnabled ? nil : "no [apt] or [dnf] in \(run.config.path)"
    }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        let report = try await RepositoryBuilder(context: run.context).write(
            config: run.config, epoch: run.identity.packagingInputs.mtime, dist: run.stagingDirectory,
            keysRoot: run.projectRoot, packages: outputs.linuxPackages)
        outputs.repositories = report
        return [report.aptPackages.map { "apt: \($0) package(s)" }, report.dnfPackages.map { "dnf: \($0) package(s)" }]
            .compactMap { $0 }.joined(separator: ", ")
    }
}
