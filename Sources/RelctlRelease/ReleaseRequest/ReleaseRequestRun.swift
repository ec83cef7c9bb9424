import Foundation
import RelctlBasics
import RelctlChanges
import RelctlDistribution
import RelctlModel
import RelctlProject

/// `relctl release-pr`: the plan written as `bump --write` would, as one commit on the base
/// branch's head, on the branch `relctl/release` (`relctl/release-BASE` off the default branch),
/// and one pull request (GitLab: merge request) from it into the base branch. Every fact comes
/// from git and the forge: which request is relctl's (its head branch, every page), which commit
/// is relctl's (its `Relctl-Base:` trailer names its one parent), so nothing is kept in between.
package struct ReleaseRequestRun {
    package static let trailer = "Relctl-Base"

    let options: ReleaseRequestOptions
    let config: RelctlConfig
    let context: Context

    package init(options: ReleaseRequestOptions, config: RelctlConfig, context: Context) {
        self.options = options
        self.config = config
        self.context = context
    }

    package func run() async throws -> ReleaseRequestOutcome {
        let console = context.console
        let git = Git(directory: config.root, context: context)
        let remote = config.release.remote
        let base = try await baseBranch(git)
        let remoteURL = await git.configuredRemoteURL(remote)
        // Token, API base and repository first: a missing token is exit 2 before any push. A dry
        // run is a preview: what it cannot read (no token, no network) it says in one line and
        // plans from this repository alone.
        var unread: [String] = []
        func reading<T>(_ what: String, _ read: () async throws -> T) async throws -> T? {
            do { return try await read() } catch where options.dryRun {
                // One line: git's output lines joined.
                let text = (error as? any RelctlError)?.diagnostics.first?.message ?? "\(error)"
                let words = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                unread.append("\(what) (\(words.filter { !$0.isEmpty }.joined(separator: " ")))")
                return nil
            }
        }
        let forgeID = try ReleaseRequestForge.chosen(only: options.forge, settings: config.publish)
        let forge = try await reading("the forge") {
            try ReleaseRequestForge(
                id: forgeID, settings: config.publish, remoteURL: remoteURL, context: context, http: context.http)
        }
        let api = forge?.api
        let noun = api?.noun ?? (forgeID == "gitlab" ? "merge request" : "pull request")
        let unreadBefore = unread.count
        let remoteDefault = try await reading("the remote `\(remote)`") { try await self.defaultBranch(git, remote: remote) }
        let remoteReachable = unread.count == unreadBefore
        let mainBranch = remoteDefault.flatMap { $0 } ?? base
        let branch = base == mainBranch ? "relctl/release" : "relctl/release-\(base)"
        var outcome = ReleaseRequestOutcome(
            action: .nothing, dryRun: options.dryRun, forge: forgeID, branch: branch, base: base, tags: [], number: nil,
            url: nil, commit: nil)
        defer {
            if !unread.isEmpty {
                context.console.warning(
                    "dry run: could not read \(unread.joined(separator: "; ")); planned from this repository alone")
            }
        }

        var remoteTip: String?
        if remoteReachable {
            remoteTip = try await reading("the remote `\(remote)`") {
                try await remoteCommit(git, remote: remote, branch: branch)
            }.flatMap { $0 }
        }
        if let remoteTip {
            try await git.run(["fetch", "--quiet", "--no-write-fetch-head", remote, "refs/heads/\(branch)"])
            try await checkOwnership(git, commit: remoteTip, branch: branch)
        }
        outcome.commit = remoteTip
        // relctl's requests only: from this repository's own branch. A fork's request from a branch
        // of the same name is never updated, closed or adopted (merging it would merge the fork's commits).
        var open: [ForgeRequest] = []
        if let api {
            let found =
                try await reading("\(api.place)'s \(noun)s") { try await api.openRequests(head: branch) }?
                .filter { $0.base == base }.sorted { $0.number < $1.number } ?? []
            open = found.filter { $0.isRelctls(head: branch) }
            for request in found where !request.isRelctls(head: branch) {
                console.warning(
                    "\(api.place): \(api.noun) #\(request.number) from \(branch) comes from a fork, not from this repository: not relctl's, left as it is"
                )
            }
        }
        if let api, open.count > 1 {
            console.warning(
                "\(api.place): \(open.count) open \(api.noun)s from \(branch); relctl keeps #\(open[0].number) and leaves the others"
            )
        }

        if config.workspace != nil {
            guard let proposal = try await workspaceProposal(git, base: base, branch: branch) else {
                return try await close(
                    open, remoteTip: remoteTip, git: git, remote: remote, branch: branch, api: api, noun: noun, outcome: outcome)
            }
            return try await propose(
                proposal, open: open, remoteTip: remoteTip, git: git, remote: remote, branch: branch, base: base,
                api: api, noun: noun, forge: forge, outcome: outcome)
        }

        let bump = try await VersionBump.compute(git: git, config: config)
        var commit: String?
        var notes: ReleaseNotes?
        if bump.commitCount > 0 {
            let built = try await ReleaseNotesBuilder(context: context).build(
                config: config, tag: bump.nextTag, manifest: nil)
            notes = built
            commit = try await buildCommit(git, bump: bump, notes: built, branch: branch)
            if commit == nil {
                console.info(
                    "\(bump.nextTag) is already written on \(base) and not tagged yet: `relctl release --pending` releases it"
                )
            }
        }

        guard let commit, let notes else {
            return try await close(
                open, remoteTip: remoteTip, git: git, remote: remote, branch: branch, api: api, noun: noun, outcome: outcome)
        }
        let tags = [bump.nextTag]
        let proposal = Proposal(
            tags: tags, body: Self.body(bump: bump, config: config, notes: notes, branch: branch), commit: commit)
        return try await propose(
            proposal, open: open, remoteTip: remoteTip, git: git, remote: remote, branch: branch, base: base, api: api,
            noun: noun, forge: forge, outcome: outcome)
    }

    /// What the request proposes: its tags (the title names them), its body and the commit.
    struct Proposal {
        var tags: [String]
        var body: String
        var commit: String
        var title: String { "chore: release \(tags.joined(separator: ", "))" }
    }

    /// Pushes the branch and opens or updates the request (or, on a dry run, says it would).
    private func propose(
        _ proposal: Proposal, open: [ForgeRequest], remoteTip: String?, git: Git, remote: String, branch: String,
        base: String, api: (any ReleaseRequestAPI)?, noun: String, forge: ReleaseRequestForge?,
        outcome: ReleaseRequestOutcome
    ) async throws -> ReleaseRequestOutcome {
        var outcome = outcome
        let console = context.console
        let (tags, title, body, commit) = (proposal.tags, proposal.title, proposal.body, proposal.commit)
        outcome.tags = tags

        if options.dryRun {
            outcome.commit = commit
            if let existing = open.first {
                outcome.action = existing.title == title && existing.body == body ? .unchanged : .updated
                (outcome.number, outcome.url) = (existing.number, existing.url)
                console.info(
                    "would \(commit == remoteTip ? "leave" : "push") \(branch) (\(commit.prefix(12))) and \(outcome.action == .unchanged ? "leave" : "update") \(noun) #\(existing.number): \(title)"
                )
            } else {
                outcome.action = .opened
                console.info(
                    "would push \(branch) (\(commit.prefix(12))) and open a \(noun) into \(base): \(title)")
            }
            // The request itself, as it would be opened: branch, title and body.
            var shown = "\(noun) from \(branch) into \(base)\n  title  \(title)\n  body\n"
            for line in body.split(separator: "\n", omittingEmptySubsequences: false) { shown += "    | \(line)\n" }
            console.stdout(shown)
            return outcome
        }
        guard let api, let forge else { return outcome }

        if commit != remoteTip {
            try await push(
                git, remote: remote, branch: branch, source: commit, expected: remoteTip,
                reason: "\(remoteTip == nil ? "creating" : "updating") \(branch)")
            console.info("pushed \(branch) at \(commit.prefix(12)) (\(title))")
        }
        outcome.commit = commit
        if let existing = open.first {
            (outcome.number, outcome.url) = (existing.number, existing.url)
            if existing.title == title && existing.body == body {
                outcome.action = .unchanged
                console.info("\(api.noun) #\(existing.number) is up to date: \(existing.url)")
            } else {
                let updated = try await api.update(existing.number, title: title, body: body)
                outcome.action = .updated
                outcome.url = updated.url
                console.info("updated \(api.noun) #\(existing.number): \(updated.url)")
            }
        } else {
            let created = try await api.create(
                head: branch, base: base, title: title, body: body, client: forge.client)
            outcome.action = .opened
            (outcome.number, outcome.url) = (created.number, created.url)
            console.info("opened \(api.noun) #\(created.number) into \(base): \(created.url)")
        }
        return outcome
    }

    // MARK: a workspace

    /// A workspace's request: every member with a next version (dependents and groups raised),
    /// written in a scratch worktree as `bump --write` writes it, one commit; nil when no member
    /// has one, or every one is already written and waits for `release --pending`.
    private func workspaceProposal(_ git: Git, base: String, branch: String) async throws -> Proposal? {
        // A request is opened for changes: a prerelease's promotion alone waits for the maintainer
        // (`bump --write --member NAME`), as a single project's does (its commit count is 0).
        let plans = try await VersionPlan.compute(config: config, git: git).filter { $0.next != nil && !$0.promotion }
        guard !plans.isEmpty else { return nil }
        let tags = plans.compactMap(\.tag)
        var body = """
            Merging this releases the versions below: `relctl release --pending` on the merge commit tags and publishes them. \
            relctl rebuilds `\(branch)` on every push to the base branch; edits here are replaced.

            | member | current | next | tag | reason | commits |
            |---|---|---|---|---|---|

            """
        for plan in plans {
            body +=
                "| \(plan.name) | \(plan.bump.current?.description ?? "—") | \(plan.nextText ?? "") | \(plan.tag ?? "") | \(plan.reason) | \(plan.bump.commitCount) |\n"
        }
        for plan in plans {
            guard let tag = plan.tag else { continue }
            let notes = try await WorkspaceWrite.notes(plan, tag: tag, context: context)
            body += "\n## \(plan.name) \(tag)\n\n" + notes.markdown
        }
        guard
            let commit = try await inScratchWorktree(
                git,
                message: "chore: release \(tags.joined(separator: ", "))",
                write: { root, scratchGit in
                    let configURL = root.appendingPathComponent(
                        String(config.path.split(separator: "/").last ?? "relctl.toml"))
                    // The scratch worktree is detached: the base branch is named for the branch rules.
                    var scratchContext = context
                    scratchContext.environment["CI_COMMIT_BRANCH"] = base
                    let scratchConfig = try ConfigLoader.load(path: configURL.path, context: scratchContext)
                    let scratchPlans = try await VersionPlan.compute(
                        config: scratchConfig, git: Git(directory: scratchGit.directory, context: scratchContext)
                    ).filter { !$0.promotion }
                    // The same history and rules give the same plan; anything else is relctl's bug.
                    guard scratchPlans.compactMap(\.tag) == tags else {
                        throw ReleaseRequestError.planDiffers(
                            expected: tags, scratch: scratchPlans.compactMap(\.tag))
                    }
                    for plan in scratchPlans {
                        guard let next = plan.next, let tag = plan.tag else { continue }
                        _ = try await WorkspaceWrite.write(
                            plan, version: next, tag: tag, context: context, info: { context.console.detail($0) },
                            warning: { context.console.warning($0) })
                    }
                    return true
                })
        else {
            context.console.info(
                "\(tags.joined(separator: ", ")) \(tags.count == 1 ? "is" : "are") already written on \(base) and not tagged yet: `relctl release --pending` releases \(tags.count == 1 ? "it" : "them")"
            )
            return nil
        }
        return Proposal(tags: tags, body: body, commit: commit)
    }

    // MARK: nothing to release

    private func close(
        _ open: [ForgeRequest], remoteTip: String?, git: Git, remote: String, branch: String,
        api: (any ReleaseRequestAPI)?, noun: String, outcome: ReleaseRequestOutcome
    ) async throws -> ReleaseRequestOutcome {
        var outcome = outcome
        let console = context.console
        guard !open.isEmpty || remoteTip != nil else {
            console.info("nothing to release on \(outcome.base)")
            return outcome
        }
        outcome.action = .closed
        outcome.number = open.first?.number
        outcome.url = open.first?.url
        if options.dryRun {
            for request in open { console.info("would close \(noun) #\(request.number): nothing to release") }
            if remoteTip != nil { console.info("would delete \(branch)") }
            return outcome
        }
        guard let api else { return outcome }
        for request in open {
            try await api.close(request.number)
            console.info("closed \(api.noun) #\(request.number): nothing to release")
        }
        if let remoteTip {
            try await push(
                git, remote: remote, branch: branch, source: "", expected: remoteTip, reason: "deleting \(branch)")
            console.info("deleted \(branch)")
        }
        outcome.commit = nil
        return outcome
    }

    // MARK: git

    /// The branch checked out, else the one CI names (GitLab and GitHub check out a commit).
    private func baseBranch(_ git: Git) async throws -> String {
        if let branch = try await git.currentBranch(), !branch.isEmpty { return branch }
        for variable in ["CI_COMMIT_BRANCH", "GITHUB_REF_NAME"] {
            if let value = context.environment[variable], !value.isEmpty { return value }
        }
        throw ReleaseRequestError.detachedHead
    }

    /// The remote's default branch (`CI_DEFAULT_BRANCH` in GitLab CI, else the remote's HEAD).
    private func defaultBranch(_ git: Git, remote: String) async throws -> String? {
        if let value = context.environment["CI_DEFAULT_BRANCH"], !value.isEmpty { return value }
        let output = try await git.run(["ls-remote", "--symref", remote, "HEAD"])
        for line in output.split(separator: "\n") where line.hasPrefix("ref: refs/heads/") {
            return line.dropFirst("ref: refs/heads/".count).split(separator: "\t").first.map(String.init)
        }
        return nil
    }

    private func remoteCommit(_ git: Git, remote: String, branch: String) async throws -> String? {
        let output = try await git.run(["ls-remote", remote, "refs/heads/\(branch)"])
        return output.split(separator: "\n").compactMap { line -> String? in
            let parts = line.split(separator: "\t")
            return parts.count == 2 && parts[1] == "refs/heads/\(branch)" ? String(parts[0]) : nil
        }.first
    }

    /// relctl's commit has one parent, which its trailer names. Anything else someone else made.
    private func checkOwnership(_ git: Git, commit: String, branch: String) async throws {
        let fields = try await git.run(
            ["log", "-1", "--format=%P%x1f%an <%ae>%x1f%s%x1f%(trailers:key=\(Self.trailer),valueonly)", commit]
        ).split(separator: "\u{1f}", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        guard fields.count == 4 else { return }
        let parents = fields[0].split(separator: " ")
        if parents.count == 1, fields[3].split(separator: "\n").contains(where: { $0 == parents[0] }) { return }
        let error = ReleaseRequestError.foreignCommit(
            branch: branch, commit: String(commit.prefix(12)), subject: fields[2], author: fields[1])
        guard options.force else { throw error }
        context.console.warning(
            "\(branch): replacing commit \(commit.prefix(12)) (\"\(fields[2])\" by \(fields[1])) that relctl did not push, because of --force"
        )
    }

    /// The plan written in a scratch worktree of HEAD and committed there: the same base and the
    /// same plan give the same commit (dates are the base's), so a re-run with nothing new pushes
    /// nothing. Nil when the plan changes no file (already written, waiting for its tag).
    private func buildCommit(
        _ git: Git, bump: VersionBump, notes: ReleaseNotes, branch: String
    ) async throws
        -> String?
    {
        try await inScratchWorktree(git, message: "chore: release \(bump.nextTag)") { root, scratchGit in
            let configURL = root.appendingPathComponent(
                String(config.path.split(separator: "/").last ?? "relctl.toml"))
            let scratchConfig = try ConfigLoader.load(path: configURL.path, context: context)
            let written = try await VersionBump.write(bump.next, config: scratchConfig, git: scratchGit) {
                context.console.detail($0)
            }
            // The manifests already hold the version (a merged request, not tagged yet): that is
            // `release --pending`'s, and the changelog's section for it is already there too.
            if written.isEmpty, !scratchConfig.versions.isEmpty { return false }
            let changelog = scratchConfig.root.appendingPathComponent("CHANGELOG.md")
            if FileSystem.exists(changelog) {
                for remark in try Changelog.update(
                    changelog, in: root, with: notes, force: false, displayPath: "CHANGELOG.md")
                {
                    context.console.warning(remark.message)
                }
            }
            for file in written { context.console.detail("\(file): version set to \(bump.next)") }
            return true
        }
    }

    /// The plan written by `write` (given the project's folder in the scratch worktree, and its
    /// git) in a scratch worktree of HEAD, committed there: the same base and the same plan give
    /// the same commit (dates are the base's), so a re-run with nothing new pushes nothing. Nil
    /// when `write` says so or the plan changes no file (already written, waiting for its tag).
    private func inScratchWorktree(
        _ git: Git, message subject: String, write: (URL, Git) async throws -> Bool
    ) async throws -> String? {
        let prefix = try await git.run(["rev-parse", "--show-prefix"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let (base, time) = try await git.commitAndTime(of: "HEAD")
        let scratch = Temporaries.scratchURL("release-pr")
        try await git.run(["worktree", "add", "--detach", "--quiet", scratch.path, base])
        do {
            let commit = try await commitPlan(
                scratch: scratch, prefix: prefix, base: base, time: time, git: git, message: subject, write: write)
            _ = try? await git.run(["worktree", "remove", "--force", scratch.path])
            return commit
        } catch {
            _ = try? await git.run(["worktree", "remove", "--force", scratch.path])
            throw error
        }
    }

    private func commitPlan(
        scratch: URL, prefix: String, base: String, time: Int, git: Git, message subject: String,
        write: (URL, Git) async throws -> Bool
    ) async throws -> String? {
        let root = prefix.isEmpty ? scratch : scratch.appendingPathComponent(prefix)
        let scratchGit = Git(directory: scratch, context: context)
        guard try await write(root, scratchGit) else { return nil }
        try await scratchGit.run(["add", "-A"])
        let status = try await scratchGit.run(["status", "--porcelain"])
        guard !status.isEmpty else { return nil }
        var environment = ["GIT_AUTHOR_DATE": "@\(time) +0000", "GIT_COMMITTER_DATE": "@\(time) +0000"]
        // A CI checkout often has no identity; the commit then says who made it.
        for (key, name, fallback) in [
            ("user.name", ["GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"], "relctl"),
            ("user.email", ["GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"], "relctl@users.noreply.localhost"),
        ] {
            let configured = (try? await git.run(["config", key]))?.trimmingCharacters(in: .whitespacesAndNewlines)
            if configured?.isEmpty ?? true { for variable in name { environment[variable] = fallback } }
        }
        let message = "\(subject)\n\n\(Self.trailer): \(base)\n"
        try await scratchGit.run(
            ["-c", "commit.gpgsign=false", "commit", "--quiet", "--no-verify", "-m", message], environment: environment)
        return try await scratchGit.run(["rev-parse", "HEAD"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Pushes `source` (empty: deletes) to the branch only, forced only with a lease on what was read.
    private func push(
        _ git: Git, remote: String, branch: String, source: String, expected: String?, reason: String
    ) async throws {
        let ref = "refs/heads/\(branch)"
        let result = try await git.runUnchecked([
            "push", "--quiet", "--no-verify", "--force-with-lease=\(ref):\(expected ?? "")", remote, "\(source):\(ref)",
        ])
        guard result.succeeded else {
            throw ReleaseRequestError.pushFailed(branch: branch, output: "\(reason): \(result.stderrText)")
        }
    }

    // MARK: text

    /// The request's body: the plan table, then each release's notes.
    static func body(bump: VersionBump, config: RelctlConfig, notes: ReleaseNotes, branch: String) -> String {
        let reason =
            switch bump.level {
            case .major: "breaking"
            case .minor: "feat"
            case .patch: "fix"
            case .prerelease: "prerelease"
            }
        var text = """
            Merging this releases the versions below: `relctl release --pending` on the merge commit tags and publishes them. \
            relctl rebuilds `\(branch)` on every push to the base branch; edits here are replaced.

            | member | current | next | tag | reason | commits |
            |---|---|---|---|---|---|
            | \(config.project.name) | \(bump.current?.description ?? "—") | \(bump.next) | \(bump.nextTag) | \(reason) | \(bump.commitCount) |


            """
        text += notes.markdown
        return text
    }
}

/// `relctl release-pr`'s flags.
package struct ReleaseRequestOptions: Sendable {
    /// `--forge`: github, gitlab or gitea; nil for the first forge `[publish]` names (else GitHub).
    package var forge: String?
    /// Read the forge and the remote, change nothing anywhere.
    package var dryRun = false
    /// Replace commits someone else pushed to the release branch.
    package var force = false

    package init() {}
}

/// What one `release-pr` run did (or, with `--dry-run`, would do), as `--json` prints it.
package struct ReleaseRequestOutcome: Sendable, Encodable {
    package enum Action: String, Sendable, Encodable {
        case opened, updated, unchanged, closed, nothing
    }

    package var action: Action
    package var dryRun: Bool
    package var forge: String
    package var branch: String
    package var base: String
    package var tags: [String]
    @NullEncoded package var number: Int?
    @NullEncoded package var url: String?
    /// The release branch's commit after the run (nil: no branch).
    @NullEncoded package var commit: String?
}
