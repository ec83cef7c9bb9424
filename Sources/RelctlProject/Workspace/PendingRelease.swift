import Foundation
import RelctlBasics
import RelctlChanges
import RelctlModel

/// What `relctl release --pending` releases: the version the manifests hold when no tag names it
/// yet, the state a merged release pull request leaves (PRODUCT "Release pull requests"). It is
/// read from git and the manifests only, so running it again after the tag exists finds nothing.
package enum PendingRelease: Sendable, Equatable {
    /// The manifests hold `version`, which gets `tag` (no tag names it in any spelling).
    case pending(version: SemanticVersion, tag: String, manifest: String)
    /// Nothing to release, and why (one line for the user).
    case nothing(reason: String)

    package static func find(config: RelctlConfig, git: Git) async throws -> PendingRelease {
        if config.workspace != nil { throw PendingReleaseError.workspace(config: config.path) }
        return try find(config: config, tags: try await git.tagList(), branch: await BranchRule.currentBranch(git: git))
    }

    /// The same question against a tag list already read (every member of a workspace asks it),
    /// on `branch`: on a maintenance line (`[[branch]] range`) the latest release is the highest
    /// in its range, so a 2.x line's next release is pending though 3.0.0-next.0 exists elsewhere.
    package static func find(config: RelctlConfig, tags: [GitTag], branch: String? = nil) throws -> PendingRelease {
        let zero = SemanticVersion(major: 0, minor: 0, patch: 0)
        guard let (found, version, _) = VersionBump.highestFloor(above: zero, config: config) else {
            throw PendingReleaseError.noManifestVersion(config: config.path)
        }
        if version.isDevelopmentMarker {
            return .nothing(
                reason:
                    "nothing pending: \(found.foundIn) holds \(found.text), a development version of \(version.final); run `relctl bump --write` to set the release's version"
            )
        }
        let history = ReleaseHistory(tags: tags, format: ReleaseHistory.format(of: config))
        if let taken = history.taken(version) {
            return .nothing(
                reason: "nothing pending: \(found.foundIn) holds \(found.text), released as \(taken) already")
        }
        // Never at or below the latest release of the line: a manifest left behind is not a release to make.
        var latest = history.latest
        if case .maintenance(let range)? = BranchRule.applying(to: branch, in: config.branches)?.line {
            latest = history.releases.first { range.contains($0.version) }
        }
        if let latest, version < latest.version {
            return .nothing(
                reason:
                    "nothing pending: \(found.foundIn) holds \(found.text), below the latest release \(latest.tag); run `relctl bump --write` to raise it"
            )
        }
        return .pending(version: version, tag: history.format.tag(for: version), manifest: found.foundIn)
    }

    /// Every member of `config`'s workspace with a version waiting for its tag, in the order
    /// given (`members`), and for the others why not. A member whose manifests hold no version
    /// has nothing to release by `--pending`; that is said, not an error.
    package static func members(
        _ members: [WorkspaceMember], git: Git
    ) async throws -> [(member: WorkspaceMember, pending: PendingRelease)] {
        let tags = try await git.tagList()
        let branch = await BranchRule.currentBranch(git: git)
        return try members.map { member in
            if member.unpublished,
                ReleaseHistory(tags: tags, format: ReleaseHistory.format(of: member.config)).latest == nil
            {
                return (
                    member,
                    .nothing(reason: "\(member.name): never released, and its manifest says it is not published")
                )
            }
            do {
                return (member, try find(config: member.config, tags: tags, branch: branch))
            } catch PendingReleaseError.noManifestVersion {
                return (member, .nothing(reason: "\(member.name): no manifest holds a version"))
            }
        }
    }
}

/// Why `--pending` cannot tell what to release.
package enum PendingReleaseError: RelctlError {
    case noManifestVersion(config: String)
    /// A single project's question asked of a workspace root.
    case workspace(config: String)

    package var exitCode: RelctlExitCode { .badInput }

    package var diagnostics: [Diagnostic] {
        switch self {
        case .workspace(let config):
            [
                Diagnostic(
                    file: config,
                    "has a [workspace]: its members are released by `relctl release --pending` at the workspace root, each with its own tags (docs/monorepos.md)"
                )
            ]
        case .noManifestVersion(let config):
            [
                Diagnostic(
                    file: config,
                    "no [[version]] manifest holds a version, so there is no pending release to find; release a tag by name (`relctl release TAG`) or add a [[version]] entry"
                )
            ]
        }
    }
}
