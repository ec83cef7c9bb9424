import ArgumentParser
import RelctlBasics
import RelctlModel
import RelctlProject
import RelctlRelease

/// `relctl ci …`: continuous-integration helpers.
struct CI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ci",
        abstract:
            "Generate the release pipeline: a GitHub Actions workflow, a GitLab CI pipeline, or both ([ci] providers).",
        subcommands: [CIGenerate.self, CIPending.self]
    )
}

extension CIProvider: ExpressibleByArgument {}

struct CIGenerate: RelctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write .github/workflows/release.yml (path from [ci] workflow) and/or .gitlab-ci.yml.",
        discussion:
            "Writes the pipeline of each provider in [ci] providers (default: github), or of --provider only. A file edited by hand is left alone (exit 1) unless --force. --check writes nothing and exits 1 when a file differs from what would be generated."
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: "github or gitlab: generate this provider's file only (default: every provider of [ci] providers).")
    var provider: CIProvider?
    @Flag(help: "Exit 1 if the workflow differs from what would be generated; write nothing.") var check = false
    @Flag(help: "Replace the workflow even if it was edited by hand.") var force = false

    func execute(_ context: Context) async throws {
        let config = try ConfigLoader.load(path: global.config, context: context)
        let providers = WorkflowWriter.providers(config: config, chosen: provider)
        var written: [[String: String]] = []
        var failures: [any Error] = []
        var changed = false
        let files: [() throws -> (path: String, outcome: WorkflowOutcome)] =
            providers.map { provider in
                { try WorkflowWriter.generate(provider, config: config, check: check, force: force) }
            }
            + WorkflowWriter.extraFiles(providers, config: config).map { file in
                {
                    try WorkflowWriter.write(
                        file.path, generated: file.text, config: config, check: check, force: force)
                }
            }
        for file in files {
            do {
                let (path, outcome) = try file()
                written.append(["path": path, "outcome": outcome.rawValue])
                changed = changed || [.created, .updated, .replaced].contains(outcome)
                switch outcome {
                case .upToDate: context.console.info("\(path): up to date")
                case .unchanged: context.console.info("\(path): unchanged")
                case .created: context.console.info("\(path): created")
                case .updated: context.console.info("\(path): updated")
                case .replaced: context.console.warning("\(path): replaced a hand-edited file (--force)")
                }
            } catch {
                // Every file is checked or written; the failures are reported together after.
                failures.append(error)
            }
        }
        // Said when a file is written (or cannot be), not on every regeneration that changes
        // nothing or every --check: `relctl check` lists them whenever asked.
        if changed || !failures.isEmpty {
            for problem in WorkflowWriter.warnings(providers, config: config) { context.console.warning(problem) }
        }
        if let failure = WorkflowWriter.combined(failures) { throw failure }
        if global.json {
            // One provider: the object as before; several: one object per file.
            if written.count == 1 { try emitJSON(written[0], context) } else { try emitJSON(written, context) }
        }
    }
}

/// `relctl ci pending`: what a workspace's pipeline releases and builds now.
struct CIPending: RelctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "pending",
        abstract:
            "Print the workspace members a release is pending for, and their build matrix (the plan job of a workspace's workflow).",
        discussion:
            "A member is pending when its manifests hold a version no tag names yet (a merged release pull request): what `relctl release --pending` releases. --format github prints `pending=[names]`, `builds=true|false` and `matrix={\"include\":[{member, path, tag, target, runner, os, arch, binaries}]}` lines for $GITHUB_OUTPUT; --format gitlab the GitLab child pipeline of one build job per pending member and target and one release job (the plan job of a workspace's .gitlab-ci.yml); --json the same as one document."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, github, gitlab
    }

    @OptionGroup var global: GlobalOptions
    @Option(help: "table (default), github ($GITHUB_OUTPUT lines) or gitlab (the child pipeline that builds and releases them).")
    var format: Format = .table

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
        } else if format == .gitlab {
            context.console.stdout(try GitLabWorkspacePipeline.child(config: config, matrix: matrix))
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
