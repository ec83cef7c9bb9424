import RelctlBasics
import RelctlModel
import RelctlProject

extension RelctlConfig {
    /// The configuration a command given `tag` works with: at a workspace root, the member the
    /// tag releases (`tokio-1.53.1` → `tokio`'s own, with its tag format and history), as
    /// `release TAG` does; elsewhere this one. A tag of no member is exit 2 naming the formats.
    func forTag(_ tag: String, context: Context) async throws -> RelctlConfig {
        guard workspace != nil else { return self }
        let members = try await ProjectModel.members(of: self, git: Git(directory: root, context: context))
        return try WorkspaceMembers.member(forTag: tag, in: members, config: self).config
    }
}
