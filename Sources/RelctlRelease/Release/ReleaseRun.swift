import Foundation
import RelctlBasics
import RelctlModel

/// Everything a stage reads about the release it is part of, fixed before the first stage runs.
/// Stages never share mutable state through it: what they produce goes into `ReleaseOutputs`.
public struct ReleaseRun: Sendable {
    let options: ReleaseOptions
    let identity: ReleaseIdentity
    /// The config, rooted where the stages work: the project, or the scratch clone on a dry run.
    let config: RelctlConfig
    /// A context whose working directory is `config.root` and whose console draws around progress.
    let context: Context
    /// The project the user ran relctl in (never written to on a dry run).
    let projectRoot: URL
    /// Where stages write. On a real run a staging folder inside `dist/`, moved into place only
    /// once the tag is safe; on a dry run the scratch clone's `dist/`.
    let stagingDirectory: URL
    /// `dist/` of the tree the stages work in.
    let distDirectory: URL
    /// The URL of `[release] remote` in the project, as the preflight found it.
    let remoteURL: String?
    let progress: ReleaseProgress
    /// Undo steps for Ctrl-C, dropped once the release is sealed.
    let guards: InterruptGuards
    /// The repository's release lock (nil on a dry run), where stages record how far the release
    /// got, so that the next run can recover it if this one is killed.
    let lock: ReleaseLock?
    /// What this run does about a killed release's leftovers (resuming its pushed tag, for one).
    let recovery: ReleaseRecovery?

    init(
        options: ReleaseOptions, identity: ReleaseIdentity, config: RelctlConfig, context: Context, projectRoot: URL,
        stagingDirectory: URL, distDirectory: URL, remoteURL: String?, progress: ReleaseProgress,
        guards: InterruptGuards, lock: ReleaseLock? = nil, recovery: ReleaseRecovery? = nil
    ) {
        self.options = options
        self.identity = identity
        self.config = config
        self.context = context
        self.projectRoot = projectRoot
        self.stagingDirectory = stagingDirectory
        self.distDirectory = distDirectory
        self.remoteURL = remoteURL
        self.progress = progress
        self.guards = guards
        self.lock = lock
        self.recovery = recovery
    }

    /// True when this run goes on with the tag a killed release created and pushed.
    var resumesTag: Bool { recovery?.resumes(tag) == true }

    var tag: String { identity.tag }

    /// This run, releasing another commit (see `ReleaseOutputs.movedHead`).
    func releasing(_ identity: ReleaseIdentity) -> ReleaseRun {
        ReleaseRun(
            options: options, identity: identity, config: config, context: context, projectRoot: projectRoot,
            stagingDirectory: stagingDirectory, distDirectory: distDirectory, remoteURL: remoteURL, progress: progress,
            guards: guards, lock: lock, recovery: recovery)
    }
    /// This run, printing through `console` (a stage that runs alongside others keeps its
    /// warnings apart until they can be recorded in stage order).
    func printing(to console: Console) -> ReleaseRun {
        var context = context
        context.console = console
        return ReleaseRun(
            options: options, identity: identity, config: config, context: context, projectRoot: projectRoot,
            stagingDirectory: stagingDirectory, distDirectory: distDirectory, remoteURL: remoteURL, progress: progress,
            guards: guards, lock: lock, recovery: recovery)
    }
    var isDryRun: Bool { options.dryRun }

    /// Git in the tree the stages work in.
    var git: Git { Git(directory: config.root, context: context) }

    /// The environment hooks and builds see: the user's, plus the release's identity.
    var hookEnvironment: [String: String] {
        var environment = context.environment
        identity.names.export(into: &environment)
        environment["RELCTL_COMMIT"] = identity.commit
        environment["RELCTL_DIST"] = stagingDirectory.path
        environment["RELCTL_DRY_RUN"] = isDryRun ? "1" : "0"
        return environment
    }
}
