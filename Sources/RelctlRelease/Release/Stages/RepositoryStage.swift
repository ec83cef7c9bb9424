import Foundation
import RelctlArtifacts
import RelctlBasics

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
            keysRoot: run.projectRoot)
        outputs.repositories = report
        return [report.aptPackages.map { "apt: \($0) package(s)" }, report.dnfPackages.map { "dnf: \($0) package(s)" }]
            .compactMap { $0 }.joined(separator: ", ")
    }
}
