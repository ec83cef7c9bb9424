import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel
import Synchronization

/// The core entry point for release notes (`relctl notes` and `relctl release`).
public struct ReleaseNotesBuilder: Sendable {
    package var context: Context

    public init(context: Context) {
        self.context = context
    }

    /// Builds the notes for `tag` (or the tag at the target, or unreleased changes) over the range
    /// `from..to` (defaults in `NotesRange.resolve`). `distDirectory` holding `manifest.json` adds
    /// the Install section. Git runs in `config.root`.
    public func build(
        config: RelctlConfig, tag: String? = nil, from: String? = nil, to: String? = nil, distDirectory: URL? = nil
    ) async throws -> ReleaseNotes {
        try await build(
            config: config, tag: tag, from: from, to: to,
            manifest: try distDirectory.flatMap { try ReleaseManifest.read(in: $0) }, distDirectory: distDirectory)
    }

    /// The same, with the release's manifest already in memory (`relctl release`), and the
    /// remote's URL when the caller knows it already (`.some(nil)`: there is no such remote).
    /// `distDirectory`, when given, is where installers and signatures are looked for;
    /// `keysRoot` is where `[sign]` paths resolve (the project, also on a dry run). `version` is
    /// the tag's when the caller resolved the release (`ReleaseIdentity`): the tag is not read again.
    public func build(
        config: RelctlConfig, tag: String? = nil, version: SemanticVersion? = nil, from: String? = nil,
        to: String? = nil, manifest: ReleaseManifest?, remoteURL known: String?? = nil, distDirectory: URL? = nil,
        keysRoot: URL? = nil
    ) async throws -> ReleaseNotes {
        try await build(
            config: config, history: nil, tag: tag, version: version, from: from, to: to, manifest: manifest,
            remoteURL: known, distDirectory: distDirectory, keysRoot: keysRoot)
    }

    /// The same over a history already read: a workspace member's, whose paths are its folder
    /// with its `include` and `exclude` globs (its own commits only).
    package func build(
        config: RelctlConfig, history given: ReleaseHistory?, tag: String? = nil, version: SemanticVersion? = nil,
        from: String? = nil, to: String? = nil, manifest: ReleaseManifest?, remoteURL known: String?? = nil,
        distDirectory: URL? = nil, keysRoot: URL? = nil
    ) async throws -> ReleaseNotes {
        let git = Git(directory: config.root, context: context)
        let history: ReleaseHistory
        let range: NotesRange
        do {
            if let given {
                history = given
            } else {
                history = try await ReleaseHistory.read(git: git, config: config)
            }
            range = try await NotesRange.resolve(
                git: git, history: history, skipPrereleases: config.notes.skipPrereleases, tag: tag, version: version,
                from: from, to: to, namedPrereleases: BranchRule.prereleaseNames(in: config.branches),
                held: tag == nil ? VersionBump.heldVersions(config: config) : [],
                rule: tag == nil && !config.branches.isEmpty
                    ? BranchRule.applying(to: await BranchRule.currentBranch(git: git), in: config.branches) : nil)
        } catch {
            // Asked only when something failed: outside a repository that is the whole story.
            guard try await git.isRepository() else { throw GitError.notARepository(config.root.path) }
            throw error
        }
        // Classified as `git log` streams: only the entries are kept, never every record (issue 31).
        let collector = Mutex(
            NotesCollector(classifier: CommitClassifier(settings: config.notes), timeOf: range.targetCommit))
        let add: @Sendable (GitCommitRecord) -> Void = { commit in collector.withLock { $0.add(commit) } }
        if from != nil {
            // An explicit range is git's `FROM..TO`, over the project's paths.
            try await git.forEachCommit(
                in: GitLogRange(
                    target: range.targetCommit, excluded: range.previousCommit.map { [$0] } ?? [],
                    paths: history.paths.pathspecs), add)
        } else {
            // The same changes `bump` counts (`ReleaseHistory.range`).
            try await history.changes(in: git, to: range.targetCommit, since: range.previousRelease, add)
        }
        let collected = collector.withLock { $0.finish() }
        if range.previous == nil, from == nil, collected.count > 0 {
            // Say so: notes over the whole history are rarely what a release wants.
            context.console.warning(
                "no earlier release in the tag format `\(config.project.tagFormat)` than \(range.tag ?? "the target"), so the notes cover the whole history (\(collected.count) commit\(collected.count == 1 ? "" : "s")); pass --from REF to start elsewhere"
            )
        }
        if range.previous == nil, await git.isShallow() {
            context.console.warning(
                "\(config.root.path) is a shallow clone, so the previous release tag may be missing and the notes incomplete; fetch full history (`git fetch --unshallow --tags`, or `fetch-depth: 0` in actions/checkout)"
            )
        }
        var time = collected.time
        if time == nil { time = try await git.committerTime(of: range.targetCommit) }
        var remoteURL: String?
        if let known { remoteURL = known } else { remoteURL = await git.configuredRemoteURL(config.release.remote) }
        var notes = ReleaseNotes(
            tag: range.tag,
            version: range.version,
            previous: range.previous,
            date: Self.day(time ?? 0),
            targetCommit: range.targetCommit,
            sections: collected.sections,
            contributors: collected.contributors,
            links: remoteURL.flatMap(RepositoryLinks.init(remoteURL:)),
            manifest: manifest
        )
        notes.projectName = config.project.name
        if let dist = distDirectory, let manifest = notes.manifest {
            notes.verification = InstallVerification.find(
                in: dist, project: manifest.project, settings: config.sign, root: keysRoot ?? config.root)
            if let snippet = try RepositoryText.notesSnippet(
                config.repositories, project: manifest.project,
                rpmsSigned: RpmSigningKey.isConfigured(config.linuxPackages, environment: context.environment))
            {
                var verification = notes.verification ?? InstallVerification()
                verification.packageRepositories = snippet
                notes.verification = verification
            }
        }
        if let template = config.notes.template {
            notes.customMarkdown = try NotesTemplate.load(template, root: config.root).render(notes)
        }
        return notes
    }

    /// `YYYY-MM-DD` in UTC.
    package static func day(_ seconds: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents(
            [.year, .month, .day], from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        return String(format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    }
}
