import ArgumentParser
import Foundation
import RelctlBasics
import RelctlProject

struct Plan: RelctlCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print what the next release would be: current and next version, tag, reason and commits.",
        discussion: """
            One row per member of the [workspace] (each with its own tags and the commits touching its folder), \
            or one row at path `.` for a single project. `current` is the latest release in \
            the tag format (or none), `next` and `tag` what `relctl bump` would propose (none when nothing changed \
            since the latest release), `reason` why (breaking, feat, fix, dependency: a member it depends on is \
            released, group, or none) and `commits` how many changes count, `branch` the [[branch]] rule that \
            applied (a prerelease or maintenance line). Members that depend on each other in a cycle are exit 2. \
            Reads git and the manifests only; writes nothing. --json: {"members":[{name, path, current, \
            next, tag, reason, commits, branch}]}, every key present, null when absent.
            """
    )

    @OptionGroup var global: GlobalOptions

    struct Member: Encodable {
        var name: String
        var path: String
        @NullEncoded var current: String?
        @NullEncoded var next: String?
        @NullEncoded var tag: String?
        var reason: String
        var commits: Int
        /// The `[[branch]]` rule applied; none for a project without branch rules.
        @NullEncoded var branch: String?
    }

    struct Output: Encodable {
        var members: [Member]
    }

    func execute(_ context: Context) async throws {
        let config = try ConfigLoader.load(path: global.config, context: context)
        let plans = try await VersionPlan.compute(config: config, git: Git(directory: config.root, context: context))
        for plan in plans {
            let who = config.workspace == nil ? "" : "\(plan.name): "
            for note in plan.bump.notes { context.console.warning(who + note) }
        }
        if config.workspace == nil, let rule = plans.first?.bump.branch {
            context.console.info("branch rule \(rule) applied")
        }
        let members = plans.map { plan in
            Member(
                name: plan.name, path: plan.path, current: plan.bump.current.map(\.description), next: plan.nextText,
                tag: plan.tag, reason: plan.reason, commits: plan.bump.commitCount, branch: plan.bump.branch?.name)
        }
        if global.json {
            try emitJSON(Output(members: members), context)
            return
        }
        let rows =
            [["member", "path", "current", "next", "tag", "reason", "commits", "branch"]]
            + members.map { member in
                [
                    member.name, member.path, member.current ?? "-", member.next ?? "-", member.tag ?? "-",
                    member.reason, "\(member.commits)", member.branch ?? "-",
                ]
            }
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            let line = zip(row, widths).map { $0.0.padding(toLength: $0.1, withPad: " ", startingAt: 0) }
                .joined(separator: "  ")
            context.console.stdout(line.trimmingCharacters(in: .whitespaces) + "\n")
        }
    }
}
