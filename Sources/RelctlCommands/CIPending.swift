import ArgumentParser
import RelctlBasics
import RelctlProject

/// `relctl ci pending`: what a workspace's pipeline releases and builds now.
struct CIPending: RelctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "pending",
        abstract:
            "Print the workspace members a release is pending for, and their build matrix (the plan job of a workspace's workflow).",
        discussion:
            "A member is pending when its manifests hold a version no tag names yet (a merged release pull request): what `relctl release --pending` releases. --format github prints `pending=[names]`, `builds=true|false` and `matrix={\"include\":[{member, path, tag, target, runner, os, arch, binaries}]}` lines for $GITHUB_OUTPUT; --json the same as one document."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, github
    }

    @OptionGroup var global: GlobalOptions
    @Option(help: "table (default) or github ($GITHUB_OUTPUT lines).") var format: Format = .table

    struct Document: Encodable {
        var pending: [WorkspaceBuildMatrix.Member]
        var builds: [WorkspaceBuildMatrix.Build]
    }

    func execute(_ context: Context) async throws {
        let config = try ConfigLoader.load(path: global.config, context: context)
        guard config.workspace != nil else { throw WorkspaceMemberError.notAWorkspace(config: config.path) }
        let matrix = try await WorkspaceBuildMatrix.compute(
            config: config, git: Git(directory: config.root, context: context))
        if global.json {
            try emitJSON(Document(pending: matrix.pending, builds: matrix.builds), context)
        } else if format == .github {
            context.console.stdout(try matrix.githubOutput)
        } else if matrix.pending.isEmpty {
            context.console.info("nothing pending: no member's manifests hold a version without its tag")
        } else {
            for member in matrix.pending {
                let targets = matrix.builds.filter { $0.member == member.name }.map(\.target)
                context.console.stdout(
                    "\(member.tag)  \(member.path)  \(targets.isEmpty ? "(no targets)" : targets.joined(separator: " "))\n"
                )
            }
        }
    }
}
