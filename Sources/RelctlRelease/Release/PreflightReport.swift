import Foundation
import RelctlBasics
import RelctlModel

/// Everything checked before a release does any work, with every problem collected in one
/// `DiagnosticsEngine` so the user fixes them all in one go.
struct PreflightReport: Sendable {
    var tag: String
    /// The tag's version, when the tag is well-formed.
    var version: SemanticVersion?
    /// The commit being released (HEAD), when inside a repository.
    var commit: String?
    /// Its committer time.
    var commitTime: Int?
    /// SOURCE_DATE_EPOCH when set (and valid).
    var sourceDateEpoch: Int?
    /// The selected targets (empty: a tag-only release); nil when they could not be resolved.
    var targets: [Target]?
    var branch: String?
    /// The repository's top level, when inside one.
    var topLevel: URL?
    /// Where the release lock of this repository lives.
    var lockFile: URL?
    /// The URL of `[release] remote` as configured, when the repository has it.
    var remoteURL: String?
    /// The project's config a dry run's scratch clone borrows (`ReleaseWorkspace.borrowedSettings`).
    var gitSettings: [(key: String, value: String)] = []
    /// The problems found and the warnings to show; shared by copies of the report.
    let diagnostics = DiagnosticsEngine()

    var problems: [Diagnostic] { diagnostics.errors }
    var warnings: [String] { diagnostics.warnings.map(\.description) }
    var ok: Bool { !diagnostics.hasErrors }

    func fail(_ code: RelctlExitCode, _ found: [Diagnostic]) {
        diagnostics.errors(code, found)
    }

    func fail(_ code: RelctlExitCode = .failure, file: String? = nil, _ message: String) {
        diagnostics.error(code, file: file, message)
    }

    func warn(_ message: String) { diagnostics.warning(message) }

    /// The error to stop with, or nil when every check passed.
    var error: ReleaseError? { ok ? nil : .preflight(problems, exitCode: diagnostics.exitCode) }

    /// The release's identity, when the preflight learnt enough to name it (a dry run carries on
    /// with it even when other checks failed, to show everything it finds).
    func identity(config: RelctlConfig) -> ReleaseIdentity? {
        guard let version, let commit, let commitTime, let targets else { return nil }
        return ReleaseIdentity(
            project: config.project.name, tag: tag, version: version, commit: commit, commitTime: commitTime,
            environmentEpoch: sourceDateEpoch, branch: branch, targets: targets
        )
    }
}
