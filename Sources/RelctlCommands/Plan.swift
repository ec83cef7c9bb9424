import ArgumentParser
import Foundation
import RelctlBasics
import RelctlCore

struct Plan: RelctlCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print what the next release would be: current and next version, tag, reason and commits.",
        discussion: """
            One row per member; a single project is one member at path `.`. `current` is the latest release in \
            the tag format (or none), `next` and `tag` what `relctl bump` would propose (none when nothing changed \
            since the latest release), `reason` why (breaking, feat, fix or none) and `commits` how many changes \
            count. Reads git and the manifests only; writes nothing. --json: {"members":[{name, path, current, \
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
        let bump = try await VersionBump.compute(git: Git(directory: config.root, context: context), config: config)
        for note in bump.notes { context.console.warning(note) }
        let changed = bump.commitCount > 0
        let reason: String
        switch (changed, bump.changeLevel) {
        case (false, _): reason = "none"
        case (true, .major): reason = "breaking"
        case (true, .minor): reason = "feat"
        case (true, _): reason = "fix"
        }
        let member = Member(
            name: config.project.name, path: ".", current: bump.current.map(\.description),
            next: changed ? bump.nextText : nil, tag: changed ? bump.nextTag : nil, reason: reason,
            commits: bump.commitCount, branch: nil)
        if global.json {
            try emitJSON(Output(members: [member]), context)
            return
        }
        let rows =
            [["member", "path", "current", "next", "tag", "reason", "commits"]]
            + [
                [
                    member.name, member.path, member.current ?? "-", member.next ?? "-", member.tag ?? "-",
                    member.reason, "\(member.commits)",
                ]
            ]
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            let line = zip(row, widths).map { $0.0.padding(toLength: $0.1, withPad: " ", startingAt: 0) }
                .joined(separator: "  ")
            context.console.stdout(line.trimmingCharacters(in: .whitespaces) + "\n")
        }
    }
}
