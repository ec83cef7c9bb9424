import ArgumentParser
import Foundation
import RelctlBasics
import RelctlChanges
import RelctlModel
import RelctlProject
import RelctlRelease

struct Bump: RelctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "bump",
        abstract: "Print the next version from the commits since the latest release.",
        discussion: """
            The latest release is the highest release in the tag format anywhere in the repository; its changes are \
            those `relctl notes` lists. Breaking change → major (minor below 1.0.0), feat → minor, anything else → \
            patch; after a prerelease \
            the prerelease counter continues (1.0.0-rc.1 → 1.0.0-rc.2); with nothing since it, its final \
            (1.0.0-rc.1 → 1.0.0). The result is never below the first \
            manifest's version and never a version an existing tag names, in any spelling (0.54.0 and v0.54.0 are \
            one version). --set VERSION uses VERSION instead (a lockstep train); --write refuses a version below a \
            manifest's or one a tag names. --write updates every configured manifest and its companions (Cargo.lock, \
            path-dependency requirements, package-lock.json, uv.lock, own npm pins). In a [workspace], each member \
            with changes (or each --member) is bumped from its own tags: one line `NAME VERSION` per member; a \
            member depending on a released member gets at least a patch release. There --write also raises the \
            dependents' requirements on each member it writes and adds a section to the member's own CHANGELOG.md \
            when its folder has one (docs/monorepos.md).
            """
    )

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Write the new version into every [[version]] manifest, changing only the version text.")
    var write = false
    // Without --write, bump writes nothing; `--dry-run` says so for whoever types it (every one of
    // round 9's five testers did, as `release` takes it), and refuses to meet --write.
    @Flag(name: .customLong("dry-run"), help: "Write nothing: the default without --write.")
    var dryRun = false
    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "Use this version (or a tag in the tag format) instead of computing one.", valueName: "version"))
    var setVersion: String?
    @Option(
        name: .customLong("member"),
        help: ArgumentHelp(
            "In a [workspace]: only this member (repeat for several; default: every member with changes).",
            valueName: "name"))
    var members: [String] = []

    /// `--json`: every key present, `null` when there is no previous release.
    struct Output: Encodable {
        @NullEncoded var previous: String?
        @NullEncoded var current: String?
        var next: String
        var tag: String
        var level: String
        var commits: Int
        var written: [String]
        var notes: [String]
        /// The `[[branch]]` rule that applied, or null.
        @NullEncoded var branch: String?
    }

    /// `--json` in a workspace: one entry per member bumped.
    struct WorkspaceOutput: Encodable {
        struct Member: Encodable {
            var name: String
            var path: String
            @NullEncoded var current: String?
            var next: String
            var tag: String
            var reason: String
            var commits: Int
            var written: [String]
            @NullEncoded var branch: String?
        }
        var members: [Member]
    }

    func validate() throws {
        if dryRun, write {
            throw ValidationError("--dry-run and --write cannot be combined: without --write, bump writes nothing")
        }
        if setVersion != nil, !members.isEmpty {
            throw ValidationError("--set and --member cannot be combined: a member's version comes from its plan")
        }
    }

    func execute(_ context: Context) async throws {
        let config = try ConfigLoader.loadIfPresent(path: global.config, context: context)
        if config.workspace != nil, setVersion == nil {
            try await bumpMembers(config, context)
            return
        }
        if !members.isEmpty {
            throw WorkspaceMemberError.notAWorkspace(config: config.path)
        }
        var bump: VersionBump
        if let setVersion {
            bump = try VersionBump.set(setVersion, config: config)
        } else {
            bump = try await VersionBump.compute(git: Git(directory: config.root, context: context), config: config)
            if bump.commitCount == 0, !bump.followsApplication, let previous = bump.previousTag {
                context.console.warning(
                    "no commits since \(previous); the version printed is what a release now would get")
            }
        }
        for note in bump.notes { context.console.warning(note) }
        if let rule = bump.branch { context.console.info("branch rule \(rule) applied") }
        var written: [String] = []
        if write {
            if config.versions.isEmpty {
                context.console.warning("\(config.path): no [[version]] entries; nothing to write")
            }
            let result = try await VersionBump.writeReporting(
                bump.next, config: config, git: Git(directory: config.root, context: context)
            ) { note in
                context.console.info(note)
                bump.notes.append(note)
            }
            written = result.files
            // Each text as written (a calendar version's padding, a requirement's operator kept),
            // naming what it is: a requirement is not the file's own version.
            for change in result.changes {
                context.console.info("\(change.file):\(change.line): \(change.what) \(change.old) → \(change.new)")
            }
            if result.changes.isEmpty, !config.versions.isEmpty {
                context.console.info("every version location already holds \(bump.nextText); nothing written")
            }
        }
        // The version as it is written and tagged: a calendar version keeps its padding (2026.09.03).
        let shown = bump.nextText.isEmpty ? bump.next.description : bump.nextText
        if global.json {
            try emitJSON(
                Output(
                    previous: bump.previousTag, current: bump.current?.description, next: shown,
                    tag: bump.nextTag, level: setVersion != nil ? "set" : bump.level.rawValue,
                    commits: bump.commitCount, written: written, notes: bump.notes, branch: bump.branch?.name),
                context)
        } else {
            context.console.stdout(shown + "\n")
            if setVersion != nil { return }
            context.console.detail(
                "\(bump.level.rawValue) bump from \(bump.previousTag ?? "no previous release") over \(bump.commitCount) commit\(bump.commitCount == 1 ? "" : "s")"
            )
        }
    }

    /// `bump` in a workspace: the plan of every member (or those `--member` names) that has
    /// something to release, each written into its own manifests with `--write`.
    private func bumpMembers(_ config: RelctlConfig, _ context: Context) async throws {
        let git = Git(directory: config.root, context: context)
        let plans = try await VersionPlan.compute(config: config, git: git)
        for name in members where !plans.contains(where: { $0.name == name }) {
            throw WorkspaceMemberError.unknownMember(config: config.path, name: name, known: plans.map(\.name))
        }
        // A prerelease's promotion is written only for a member named: `bump --write` releasing the
        // members with changes must not turn another member's old beta into its final.
        for plan in plans where members.isEmpty && plan.promotion {
            context.console.info(
                "\(plan.name): nothing since \(plan.bump.previousTag ?? "its prerelease"); `--member \(plan.name)` promotes it to \(plan.nextText ?? "its final")")
        }
        let chosen = plans.filter { members.isEmpty ? $0.next != nil && !$0.promotion : members.contains($0.name) }
        var output: [WorkspaceOutput.Member] = []
        for plan in chosen {
            for note in plan.bump.notes { context.console.warning("\(plan.name): \(note)") }
            guard let next = plan.next, let tag = plan.tag else {
                context.console.info("\(plan.name): nothing to release since \(plan.bump.previousTag ?? "the start")")
                continue
            }
            var written: [String] = []
            if write {
                written = try await WorkspaceWrite.write(
                    plan, version: next, tag: tag, context: context, info: { context.console.info($0) },
                    warning: { context.console.warning($0) })
            }
            output.append(
                .init(
                    name: plan.name, path: plan.path, current: plan.bump.current?.description,
                    next: plan.nextText ?? next.description, tag: tag, reason: plan.reason,
                    commits: plan.bump.commitCount, written: written, branch: plan.bump.branch?.name))
        }
        if global.json {
            try emitJSON(WorkspaceOutput(members: output), context)
        } else {
            for member in output { context.console.stdout("\(member.name) \(member.next)\n") }
        }
    }
}
