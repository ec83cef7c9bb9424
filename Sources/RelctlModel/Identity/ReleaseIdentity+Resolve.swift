import Foundation
import RelctlBasics

/// The one way in: how a command, and the release preflight, turn the tag they were handed into
/// the release's identity. The tag is read here, once, against its format and (as the caller
/// asks) the manifests; the commit and the clock are fixed here; what runs below takes the
/// identity, or its version, and never reads the tag again. Tags relctl finds rather than is
/// handed (the history, a forge's releases, the names of archives) are read by `TagReader`.
///
/// Two steps, so a caller can check its own input between them (the channels read `dist/` before
/// git is asked): `check` reads the tag without git, `resolve(_:config:context:commit:clock:)`
/// fixes the commit and the clock. `resolve(tag:config:context:_:)` does both.
extension ReleaseIdentity {
    /// How strict a caller is: what it checks of the tag, which commit it releases and which clock
    /// its files get. The commands differ in these, never in how a tag is read.
    package struct Resolution: Sendable {
        package enum Manifests: Sendable {
            /// The tag's spelling in its format only (build, publish, notes, `bump --set`).
            case unread
            /// Its name too (git's rules, the length dist/'s folders allow), and every `[[version]]`
            /// manifest read and compared; a mismatch is in `CheckedTag.validation`, not thrown
            /// (validate-tag, the channels, the train, the preflight).
            case compared
            /// The same, and a mismatch is an error (exit 1): package, linux-package, image.
            case matching
        }

        package enum Commit: Sendable {
            case none
            /// HEAD inside a repository, else none: building needs no git.
            case head
            /// The tag's commit when the tag exists here, else HEAD (image, chart).
            case tagged
            /// The same, and an existing tag must be HEAD: the files packaged are HEAD's
            /// (package, linux-package).
            case taggedAtHead
        }

        package enum Clock: Sendable {
            case none
            /// SOURCE_DATE_EPOCH, else the commit's time when there is a commit (build).
            case optional
            /// SOURCE_DATE_EPOCH, else the committer time of the tag's commit (HEAD's before the
            /// tag exists); an error without either, as archive entries need one.
            case required
        }

        package var manifests: Manifests
        package var commit: Commit
        package var clock: Clock

        package init(manifests: Manifests, commit: Commit, clock: Clock) {
            self.manifests = manifests
            self.commit = commit
            self.clock = clock
        }

        package static let build = Resolution(manifests: .unread, commit: .head, clock: .optional)
        package static let packaging = Resolution(manifests: .matching, commit: .taggedAtHead, clock: .required)
        package static let image = Resolution(manifests: .matching, commit: .tagged, clock: .required)
    }

    /// A tag step one checked: the version it names and, when the manifests were read, what they say.
    package struct CheckedTag: Sendable {
        package var tag: String
        package var version: SemanticVersion
        package var validation: TagValidation?
    }

    /// Both steps: the identity of the release `tag` names, checked and fixed as `resolution` asks.
    /// `tag` nil (`build` without `--tag`): the version of the first `[[version]]` manifest.
    package static func resolve(
        tag: String?, config: RelctlConfig, context: Context, _ resolution: Resolution
    ) async throws -> ReleaseIdentity {
        let checked = try check(tag, config: config, manifests: resolution.manifests)
        return try await resolve(
            checked, config: config, context: context, commit: resolution.commit, clock: resolution.clock)
    }

    /// Step one, without git: the tag read in the project's format and checked as `manifests`
    /// asks. `tag` nil: the first `[[version]]` manifest's version spelled in the tag format.
    package static func check(
        _ tag: String?, config: RelctlConfig, manifests: Resolution.Manifests
    ) throws -> CheckedTag {
        let checked = try examine(try tag ?? manifestTag(config), config: config, manifests: manifests).checked.get()
        if manifests == .matching, let mismatch = checked.validation?.mismatchError { throw mismatch }
        return checked
    }

    /// Step one for callers that report problems instead of stopping (the preflight, the train):
    /// the version whenever the tag spells one, even when its name or a manifest fails (a release
    /// still plans with it), beside the check's outcome. A mismatch is never a failure here.
    package static func examine(
        _ tag: String, config: RelctlConfig, manifests: Resolution.Manifests
    ) -> (version: SemanticVersion?, checked: Result<CheckedTag, any Error>) {
        let read = Result<SemanticVersion, any Error> { try config.project.tagFormat.version(of: tag) }
        let checked = Result<CheckedTag, any Error> {
            guard manifests != .unread else { return CheckedTag(tag: tag, version: try read.get()) }
            // The name first: git would refuse it at the very end, whatever the version.
            try TagValidator.checkName(tag)
            let version = try read.get()
            return CheckedTag(
                tag: tag, version: version,
                validation: try TagValidator.validate(tag: tag, version: version, config: config))
        }
        return (try? read.get(), checked)
    }

    /// Step one in a format the caller holds rather than the config's: `relctl notes --tag` reads
    /// a tag its history does not know yet in the format the history spells calendar versions in.
    package static func check(_ tag: String, format: TagFormat) throws -> CheckedTag {
        CheckedTag(tag: tag, version: try format.version(of: tag))
    }

    /// Step two: the commit and the clock, from git and the environment.
    package static func resolve(
        _ checked: CheckedTag, config: RelctlConfig, context: Context, commit rule: Resolution.Commit,
        clock: Resolution.Clock
    ) async throws -> ReleaseIdentity {
        let git = Git(directory: config.root, context: context)
        let environmentEpoch = clock == .none ? nil : try SourceDateEpoch.from(context.environment)
        var commitTime: Int?
        let needsClock = clock == .required && environmentEpoch == nil
        // A tag naming a commit, the common case, costs one git call for its commit and time; what
        // is missing or odd takes the slower path below, which names the problem.
        let tagged =
            rule == .tagged || rule == .taggedAtHead || needsClock
            ? try? await git.commitAndTime(of: "refs/tags/\(checked.tag)") : nil
        if needsClock {
            if let tagged { commitTime = tagged.1 } else {
                commitTime = try await taggedCommitTime(checked.tag, git: git, root: config.root)
            }
        }
        var commit = ""
        switch rule {
        case .none:
            break
        case .head:
            // Outside a repository (or without git) the commit is empty and there is no commit time.
            if let head = try? await git.commitAndTime(of: "HEAD") {
                commit = head.0
                if clock != .none, commitTime == nil { commitTime = head.1 }
            }
        case .tagged, .taggedAtHead:
            let head = rule == .taggedAtHead || tagged == nil ? try? await git.commit(of: "HEAD") : nil
            if rule == .taggedAtHead, let tagged, let head, tagged.0 != head {
                throw IdentityError.notAtTag(tag: checked.tag, tagged: tagged.0, head: head)
            }
            commit = tagged?.0 ?? head ?? ""
        }
        return ReleaseIdentity(
            project: config.project.name, tag: checked.tag, version: checked.version, commit: commit,
            commitTime: commitTime, environmentEpoch: environmentEpoch, branch: nil, targets: [])
    }

    /// The clock of a release's files where no version is needed (`relctl repository`): SOURCE_DATE_EPOCH,
    /// else the committer time of the tag's commit (HEAD's before the tag exists). Never the wall clock.
    package static func clock(forTag tag: String, root: URL, context: Context) async throws -> Int {
        if let value = try SourceDateEpoch.from(context.environment) { return value }
        return try await taggedCommitTime(tag, git: Git(directory: root, context: context), root: root)
    }

    /// The manifests compared with this release's version again, at a commit a `before` hook made.
    package func validation(config: RelctlConfig) throws -> TagValidation {
        try TagValidator.validate(tag: tag, version: version, config: config)
    }

    private static func taggedCommitTime(_ tag: String, git: Git, root: URL) async throws -> Int {
        if let tagged = try? await git.commitAndTime(of: "refs/tags/\(tag)") { return tagged.1 }
        if await !git.localTagExists(tag), let head = try? await git.commitAndTime(of: "HEAD") { return head.1 }
        // Not a repository, no commit yet, or a tag that names no commit: find out which, and say so.
        guard try await git.isRepository() else {
            throw IdentityError.noClock(
                "\(root.path) is not a git repository; set SOURCE_DATE_EPOCH or run inside the project's git repository"
            )
        }
        let ref = await git.localTagExists(tag) ? "refs/tags/\(tag)" : "HEAD"
        do { return try await git.committerTime(of: ref) } catch {
            if ref == "HEAD" {
                throw IdentityError.noClock(
                    "the repository at \(root.path) has no commit yet; commit the project first, or set SOURCE_DATE_EPOCH"
                )
            }
            throw IdentityError.noClock("git has no commit for \(ref) (\(error)); set SOURCE_DATE_EPOCH")
        }
    }

    /// The tag `build` releases without `--tag`: the first `[[version]]` manifest's version, in the tag format.
    private static func manifestTag(_ config: RelctlConfig) throws -> String {
        let format = config.project.tagFormat
        guard let source = config.versions.first else {
            throw IdentityError.noVersionSource(
                config: config.path, example: format.tag(for: SemanticVersion(major: 1, minor: 0, patch: 0)))
        }
        let found = try ManifestReaders.read(source, config: config)
        let version: SemanticVersion
        do { version = try SemanticVersion(parsing: found.text) } catch {
            throw IdentityError.versionNotSemVer(path: found.foundIn, line: found.line, version: found.text)
        }
        return format.tag(for: version)
    }
}
