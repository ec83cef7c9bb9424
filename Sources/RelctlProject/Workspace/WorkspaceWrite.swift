import Foundation
import RelctlBasics
import RelctlChanges
import RelctlModel

/// Writes one member's planned release into the tree: its manifests and companions, its
/// dependents' requirements on it (one checked, atomic pass), and its own CHANGELOG.md when it
/// has one. What `relctl bump --write` does per member, and what `relctl release-pr` commits.
package enum WorkspaceWrite {
    /// The files written, as paths from the workspace root. `info` gets each change made,
    /// `warning` what the user should look at.
    package static func write(
        _ plan: MemberPlan, version: SemanticVersion, tag: String, context: Context,
        info: (String) -> Void, warning: (String) -> Void
    ) async throws -> [String] {
        let memberGit = Git(directory: plan.config.root, context: context)
        let dependents = try DependentRequirements.edits(for: plan, version: version, root: plan.config.root)
        for note in dependents.notes { warning("\(plan.name): \(note)") }
        let result = try await VersionBump.writeReporting(
            version, config: plan.config, git: memberGit, extra: dependents.edits
        ) { note in info("\(plan.name): \(note)") }
        var written = result.files.map { workspacePath(plan.path, $0) }
        for change in result.changes {
            info(
                "\(workspacePath(plan.path, change.file)):\(change.line): \(change.what) \(change.old) → \(change.new)")
        }
        if let changelog = try await writeChangelog(plan, tag: tag, context: context, info: info, warning: warning) {
            written.append(changelog)
        }
        return written
    }

    /// The release notes of a member's planned release: the commits touching the member only,
    /// and the dependencies that moved (the whole story of a `dependency` release).
    package static func notes(_ plan: MemberPlan, tag: String, context: Context) async throws -> ReleaseNotes {
        var notes = try await ReleaseNotesBuilder(context: context).build(
            config: plan.config, history: plan.history, tag: tag, manifest: nil)
        notes.dependencies = plan.movedDependencies.map { "\($0.name) \($0.version)" }
        return notes
    }

    /// A member's own CHANGELOG.md, when its folder has one (as `release-pr` treats a project's).
    private static func writeChangelog(
        _ plan: MemberPlan, tag: String, context: Context, info: (String) -> Void, warning: (String) -> Void
    ) async throws -> String? {
        let url = plan.config.root.appendingPathComponent("CHANGELOG.md")
        guard FileSystem.exists(url) else { return nil }
        let shown = workspacePath(plan.path, "CHANGELOG.md")
        let notes = try await notes(plan, tag: tag, context: context)
        let (remarks, changed) = try Changelog.updateReporting(
            url, in: workspaceRoot(plan), with: notes, force: false, displayPath: shown)
        for remark in remarks { warning(remark.message) }
        if changed { info("\(shown): section for \(tag) added") }
        return changed ? shown : nil
    }

    /// The workspace's root: the member's folder less its path from there.
    private static func workspaceRoot(_ plan: MemberPlan) -> URL {
        var root = plan.config.root.standardizedFileURL
        if plan.path != "." {
            for _ in plan.path.split(separator: "/") { root = root.deletingLastPathComponent() }
        }
        return root
    }

    /// `file` (relative to the member's folder, `../../Cargo.lock` for the workspace's lock) as a
    /// path from the workspace root.
    package static func workspacePath(_ member: String, _ file: String) -> String {
        var parts = member == "." ? [] : member.split(separator: "/").map(String.init)
        for part in file.split(separator: "/") {
            if part == "..", !parts.isEmpty, parts.last != ".." {
                parts.removeLast()
            } else if part != "." {
                parts.append(String(part))
            }
        }
        return parts.joined(separator: "/")
    }
}
