import ArgumentParser
import Foundation
import RelctlBasics
import RelctlModel
import RelctlProject
import RelctlRelease

struct Release: RelctlCommand {
    static let configuration = CommandConfiguration(
        abstract: "Preflight, build, package, checksum, write notes and tag a release (--push pushes the tag).",
        discussion: """
            Always run `relctl release TAG --dry-run` first: it runs every stage for real in a scratch clone, \
            prints the plan (archives with size and SHA256, the notes, the tag it would create) and exits 0 \
            only if the real run would succeed. The project is not touched. Exit 1 when a check or stage fails, \
            2 for bad input (bad tag syntax, unreadable config).
            """
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The tag to release, e.g. v1.2.0 (none with --pending).") var tag: String?
    @Flag(
        name: .long,
        help:
            "Release the version the manifests hold if no tag names it yet (a merged release pull request); nothing pending is exit 0."
    )
    var pending = false
    @Flag(
        name: .long,
        help: "Run every stage in a scratch clone and print the plan; no tag, no push, nothing written here.")
    var dryRun = false
    @Flag(name: .long, help: "Push the tag to [release] remote after creating it.") var push = false
    @Flag(name: .long, help: "Last: publish dist/ as the GitHub release of TAG, like `relctl publish` (needs --push).")
    var publish = false
    @Flag(name: .long, help: "With --dry-run: keep the scratch clone (its path is printed).") var keep = false
    @Flag(name: .long, help: "Build only the target matching this machine.") var host = false
    @Option(name: .long, help: ArgumentHelp("Release only targets matching this glob (repeatable).", valueName: "glob"))
    var target: [String] = []
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Use prebuilt binaries from DIR (DIR/<binary-dir>/<binary>, as the build leaves them) instead of building.",
            valueName: "dir"))
    var artifacts: String?
    @Option(name: .long, help: "Parallel build/package jobs.") var jobs: Int?
    @Flag(name: .long, help: "Run only the preflight checks (used by `relctl train run`).") var preflightOnly = false
    @Flag(name: .long, help: .hidden) var inTrain = false
    @Flag(
        name: .long,
        help:
            "Print where the time went: wall and CPU seconds per stage and per kind of work (RELCTL_PROFILE=1 does it for any command)."
    )
    var profile = false

    var profileRequested: Bool { profile }

    func validate() throws {
        if pending, let tag {
            throw ValidationError("--pending releases the version the manifests hold: give no TAG (`\(tag)`) with it")
        }
        if !pending, tag == nil { throw ValidationError("give the TAG to release, e.g. v1.2.0, or --pending") }
        if keep && !dryRun { throw ValidationError("--keep only applies with --dry-run") }
        if publish && !push {
            throw ValidationError("--publish needs --push: a GitHub release needs its tag on GitHub first")
        }
        if host && !target.isEmpty { throw ValidationError("--host and --target cannot be combined") }
        if let problem = ParallelJobs.problem(jobs) { throw ValidationError(problem) }
    }

    /// `--pending`'s answer when no release waits: one line (a JSON document with --json).
    struct NothingPending: Encodable {
        var pending = false
        var message: String
    }

    func execute(_ context: Context) async throws {
        let tag: String
        if pending {
            let config = try ConfigLoader.load(path: global.config, context: context)
            if config.workspace != nil { return try await releasePendingMembers(context, config: config) }
            switch try await PendingRelease.find(config: config, git: Git(directory: config.root, context: context)) {
            case .nothing(let reason):
                if global.json {
                    try emitJSON(NothingPending(message: reason), context)
                } else {
                    context.console.info(reason)
                }
                return
            case .pending(_, let found, let manifest):
                context.console.info("pending: \(found) (the version \(manifest) holds has no tag yet)")
                tag = found
            }
        } else {
            tag = self.tag ?? ""
        }
        let outcome: ReleaseOutcome
        do {
            outcome = try await release(context, tag: tag)
        } catch let error as RelctlError where global.json {
            // Stopped before there was a plan: `--json` still answers with one (what `train run` reads).
            try emitJSON(ReleasePlan.failed(tag: tag, push: push, error: error), context)
            throw error
        }
        if global.json {
            try emitJSON(outcome.plan, context)
        } else if !preflightOnly, context.console.verbosity >= .normal, dryRun || outcome.error == nil {
            context.console.stderr(outcome.plan.rendered(color: { context.console.paint($0, code: $1) }))
        } else if preflightOnly, outcome.error == nil {
            context.console.info("preflight passed for \(tag)")
        }
        if let error = outcome.error { throw error }
    }

    private func release(_ context: Context, tag: String) async throws -> ReleaseOutcome {
        // A member's tag at the workspace root releases that member, with its own configuration.
        let config = try await ConfigLoader.load(path: global.config, context: context).forTag(tag, context: context)
        return try await ReleasePipeline().run(options(context, tag: tag), config: config, context: context)
    }

    private func options(_ context: Context, tag: String) -> ReleaseOptions {
        var options = ReleaseOptions(tag: tag)
        options.dryRun = dryRun
        options.push = push
        options.publish = publish
        options.keep = keep
        options.hostOnly = host
        options.targets = target
        options.artifactsDirectory = artifacts.map { context.resolve($0) }
        options.jobs = jobs
        options.preflightOnly = preflightOnly
        options.inTrain = inTrain
        return options
    }

    /// The answer of `--pending --json` in a workspace: every member's release plan, in order.
    struct MemberReleases: Encodable {
        var releases: [ReleasePlan]
    }

    /// `--pending` at a workspace root: every member whose manifests hold an untagged version,
    /// released together (`WorkspaceRelease`).
    private func releasePendingMembers(_ context: Context, config: RelctlConfig) async throws {
        let git = Git(directory: config.root, context: context)
        let members = try await ProjectModel.members(of: config, git: git)
        // Every member after the members it depends on (a cycle is exit 2 naming it).
        let order = try WorkspaceDependencies.order(
            members.map(\.name), along: try WorkspaceDependencies.read(members), config: config.path)
        let ordered = order.compactMap { name in members.first { $0.name == name } }
        var releases: [(member: WorkspaceMember, tag: String)] = []
        var reasons: [String] = []
        for (member, found) in try await PendingRelease.members(ordered, git: git) {
            guard case .pending(_, let tag, let manifest) = found else {
                if case .nothing(let reason) = found { reasons.append("\(member.name): \(reason)") }
                continue
            }
            context.console.info("pending: \(tag) (the version \(member.path)/\(manifest) holds has no tag yet)")
            releases.append((member, tag))
        }
        guard !releases.isEmpty else {
            let reason =
                "nothing pending in \(members.count) member\(members.count == 1 ? "" : "s"): no manifest holds a version without its tag"
            if global.json {
                try emitJSON(NothingPending(message: reason), context)
            } else {
                context.console.info(reason)
                for line in reasons { context.console.detail(line) }
            }
            return
        }
        let results = await WorkspaceRelease.run(options(context, tag: ""), releases: releases, context: context)
        if global.json {
            try emitJSON(
                MemberReleases(
                    releases: results.map {
                        $0.outcome?.plan
                            ?? ReleasePlan.failed(
                                tag: $0.tag, push: push,
                                error: $0.thrown ?? WorkspaceReleaseError.notStarted(member: $0.member))
                    }), context)
        }
        for result in results {
            if !global.json, context.console.verbosity >= .normal, let plan = result.outcome?.plan,
                dryRun || result.error == nil
            {
                context.console.stderr(plan.rendered(color: { context.console.paint($0, code: $1) }))
            }
            if result.outcome == nil, result.thrown == nil {
                context.console.error("\(result.member): \(result.tag) not started: an earlier member failed")
            }
        }
        let errors = results.compactMap { result in result.error.map { (result, $0) } }
        guard let (_, first) = errors.first else { return }
        // The first failure is the cause; the members it held back say so in their own lines.
        for (result, error) in errors.dropFirst() {
            for line in error.diagnostics { context.console.error("\(result.member): \(line.description)") }
        }
        throw first
    }
}
