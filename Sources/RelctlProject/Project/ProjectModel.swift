import Foundation
import RelctlBasics
import RelctlModel

/// The one reading of a repository that `check`, `plan`, `bump`, `ci pending` and `release
/// --pending` view: the root's configuration, where the root sits in the repository, and the
/// members of a workspace, each read once by the one member reader (`WorkspaceMembers`: its own
/// relctl.toml or its manifests, the root's tag format and `[[branch]]` rules, its files confined
/// to the repository, a link out refused). `init` builds the same members from the same discovery
/// (`MemberDiscovery`, `StarterConfig.package`). docs/architecture.md describes it.
package struct ProjectModel: Sendable {
    package var config: RelctlConfig
    /// The root's folder relative to the repository's top (`""` at the top, or outside a repository).
    package var prefix: String
    /// The workspace's members, sorted by path; none for a single project.
    package var members: [WorkspaceMember]

    /// Reads the members of `config` (a workspace) with the repository's rule for their files.
    /// `tolerant`: outside a git repository the root is taken as the top (`check` reads a
    /// folder that is not a repository yet); otherwise the git error is thrown.
    package static func read(_ config: RelctlConfig, git: Git, tolerant: Bool = false) async throws -> ProjectModel {
        let prefix: String
        if tolerant {
            prefix = (try? await git.prefixFromTop()) ?? ""
        } else {
            prefix = config.workspace == nil ? "" : try await git.prefixFromTop()
        }
        // Each member asks what `init` would write for its folder, and each of those reads the
        // Cargo workspace it belongs to: one parse per file for the whole reading, not one per
        // member (biome's 112 members: 17.6 s of plan, 76% of it re-parsing Cargo.toml files).
        // Nothing writes the files while the members are read.
        let members = try TOMLReadCache.$current.withValue(TOMLReadCache()) {
            try WorkspaceMembers.resolve(config, prefix: prefix)
        }
        return ProjectModel(config: config, prefix: prefix, members: members)
    }

    /// The members of `config`'s workspace, as `read` finds them.
    package static func members(of config: RelctlConfig, git: Git) async throws -> [WorkspaceMember] {
        try await read(config, git: git).members
    }
}
