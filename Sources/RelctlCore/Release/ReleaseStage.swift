import Foundation

/// One step of a release (build, package, tag, …). The pipeline runs stages in order, times
/// them, reports them, and on a failure asks the completed ones to undo what they did.
public protocol ReleaseStage: Sendable {
    /// Short name shown in progress and the plan (`build`, `package`, `tag`).
    var name: String { get }
    /// Why the stage does not apply to this run (`--push` not given, dry run…), or nil to run it.
    func skipReason(_ run: ReleaseRun) -> String?
    /// Does the work, reading and updating the run's state; a one-line summary for the stage list.
    func perform(_ run: ReleaseRun) async throws -> String?
    /// Undoes this stage after a later stage failed; returns one line per thing undone or not.
    func undo(_ run: ReleaseRun) -> [String]
}

extension ReleaseStage {
    public func skipReason(_ run: ReleaseRun) -> String? { nil }
    public func undo(_ run: ReleaseRun) -> [String] { [] }
}

/// How a stage ended.
public enum StageStatus: String, Sendable, Codable {
    case ok, failed, skipped, notRun = "not-run"
}

/// A stage's line in the plan and the summary.
public struct StageRecord: Sendable, Codable, Equatable {
    public var name: String
    public var status: StageStatus
    /// Wall-clock seconds, rounded to milliseconds.
    public var seconds: Double
    public var detail: String?

    public init(name: String, status: StageStatus, seconds: Double = 0, detail: String? = nil) {
        self.name = name
        self.status = status
        self.seconds = (seconds * 1000).rounded() / 1000
        self.detail = detail
    }
}

/// The state one release carries from stage to stage. Stages run one after another in a
/// single task, so this is a plain class.
public final class ReleaseRun {
    public let options: ReleaseOptions
    /// The config, rooted where the stages work: the project, or the scratch clone on a dry run.
    public let config: RelctlConfig
    /// A context whose working directory is `config.root`.
    public let context: Context
    /// The project the user ran relctl in (never written to on a dry run).
    public let projectRoot: URL
    public let tag: String
    public let version: SemanticVersion
    /// The commit being released (HEAD when the release started).
    public let commit: String
    public let branch: String?
    /// Where stages write archives, checksums, the manifest and the notes. On a real run this is a
    /// staging folder inside `dist/` that is moved into place only after the tag is safe.
    public let distDirectory: URL
    /// `dist/` of the project (the scratch clone's on a dry run).
    public let finalDistDirectory: URL
    public let progress: ReleaseProgress

    /// The targets being released (filled by the build stage).
    public var targets: [Target] = []
    /// Where each target's binaries are, by triple (filled by the build stage).
    public var binaryDirectories: [String: URL] = [:]
    /// Archives produced, as in manifest.json (filled by package/checksum).
    public var artifacts: [ReleaseManifest.Artifact] = []
    /// The release notes in Markdown (filled by the notes stage).
    public var notes: String?
    /// The annotated tag's message (filled by the tag stage).
    public var tagMessage: String?
    public var tagCreated = false
    public var tagPushed = false
    /// `InterruptActions` ids that undo this run's tag if it is interrupted.
    public var interruptGuards: [Int] = []

    public var isDryRun: Bool { options.dryRun }

    public init(
        options: ReleaseOptions, config: RelctlConfig, context: Context, projectRoot: URL, version: SemanticVersion,
        commit: String, branch: String?, distDirectory: URL, finalDistDirectory: URL, progress: ReleaseProgress
    ) {
        self.options = options
        self.config = config
        self.context = context
        self.projectRoot = projectRoot
        self.tag = options.tag
        self.version = version
        self.commit = commit
        self.branch = branch
        self.distDirectory = distDirectory
        self.finalDistDirectory = finalDistDirectory
        self.progress = progress
    }

    /// The placeholder values every template may use for this release.
    public var placeholders: [String: String] {
        ["project": config.project.name, "version": version.description, "tag": tag]
    }

    /// Git in the tree the stages work in.
    public var git: Git { Git(directory: config.root, context: context) }

    /// The environment hooks and builds see: the user's, plus the release's identity.
    public var hookEnvironment: [String: String] {
        var environment = context.environment
        environment["RELCTL_TAG"] = tag
        environment["RELCTL_VERSION"] = version.description
        environment["RELCTL_PROJECT"] = config.project.name
        environment["RELCTL_COMMIT"] = commit
        environment["RELCTL_DIST"] = distDirectory.path
        environment["RELCTL_DRY_RUN"] = isDryRun ? "1" : "0"
        return environment
    }
}
