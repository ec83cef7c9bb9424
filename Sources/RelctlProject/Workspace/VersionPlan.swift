import Foundation
import RelctlBasics
import RelctlChanges
import RelctlModel

/// What `relctl plan` shows for one member (a single project is one member at `.`): the rules
/// of `VersionBump` over the member's own tags and changes, then the workspace's groups.
package struct MemberPlan: Sendable {
    package var name: String
    package var path: String
    package var config: RelctlConfig
    package var bump: VersionBump
    /// Nil when nothing changed since the latest release (and no group raises it).
    package var next: SemanticVersion?
    package var tag: String?
    /// `breaking`, `feat`, `fix`, `dependency`, `group`, `unpublished` (never tagged, and its
    /// manifest says it is not published) or `none`.
    package var reason: String
    package var history: ReleaseHistory
    /// The members this one depends on that get a release, with their next versions: what its
    /// changelog says moved.
    package var movedDependencies: [(name: String, version: String)] = []
    /// The members' dependencies on this one: the requirements its release rewrites.
    package var dependents: [WorkspaceDependency] = []
    /// `next` is the final of the member's latest release, a prerelease with nothing since it
    /// (`VersionBump.promotesPrerelease`): shown by `plan`, but no group or dependent moves with
    /// it, and a workspace's `bump` writes it only when `--member` names the member.
    package var promotion = false

    package init(name: String, path: String, config: RelctlConfig, bump: VersionBump, history: ReleaseHistory) {
        (self.name, self.path, self.config, self.bump, self.history) = (name, path, config, bump, history)
        let changed = bump.commitCount > 0 || bump.namedByChangesets || bump.followsApplication
        next = changed ? bump.next : nil
        tag = changed ? bump.nextTag : nil
        switch (changed, bump.changeLevel) {
        case (false, _): reason = "none"
        // The application the chart deploys moved: a dependency's release, as for members.
        case (true, _) where bump.followsApplication: reason = "dependency"
        case (true, .major): reason = "breaking"
        case (true, .minor): reason = "feat"
        case (true, _): reason = "fix"
        }
    }

    /// A member with nothing to release whose latest release is a prerelease with nothing since
    /// it: its final is the next release (`promotion`), the changes' reason staying `none`.
    mutating func offerPromotion() {
        guard next == nil, bump.promotesPrerelease else { return }
        (next, tag, promotion) = (bump.next, bump.nextTag, true)
    }

    /// The version as the member's manifests and tag spell it.
    package var nextText: String? {
        guard let next else { return nil }
        return next.hasSamePrecedence(as: bump.next) ? bump.nextText : next.description
    }
}

/// The next versions of a project, or of every member of its `[workspace]`, read from one tag
/// list (`relctl plan`, `relctl bump`). Not the release pipeline's plan (`ReleasePlan`).
package enum VersionPlan {
    /// With `oneWalk` (the default) a workspace's history is read in one pass shared by every
    /// member (`SharedHistoryWalk`); without it each member walks its own, the reference the one
    /// pass is tested against.
    package static func compute(
        config: RelctlConfig, git given: Git, target: String = "HEAD", oneWalk: Bool = true
    ) async throws -> [MemberPlan] {
        // A plan moves no ref: the members share what git said of the same tags and commits.
        var git = given
        if git.memo == nil { git.memo = GitQueryMemo() }
        let targetCommit = try await git.rangeEnd(target)
        guard let workspace = config.workspace else {
            let history = try await ReleaseHistory.read(git: git, config: config)
            let bump = try await VersionBump.compute(
                history: history, git: git, config: config, target: target, targetCommit: targetCommit)
            var plan = MemberPlan(name: config.project.name, path: ".", config: config, bump: bump, history: history)
            plan.offerPromotion()
            return [plan]
        }
        let members = try await ProjectModel.members(of: config, git: git)
        let tags = try await git.tagList()
        let histories = members.map {
            ReleaseHistory(tags: tags, format: ReleaseHistory.format(of: $0.config), paths: $0.history)
        }
        let shared =
            oneWalk ? try await sharedInputs(members, histories: histories, git: git, target: targetCommit) : nil
        // A package that says it is never published is released only where it was tagged: never
        // tagged, or (libc's `libc-0.2` branch, whose `ctest` is a 0.1.0 dummy while main tags
        // `ctest-v0.5.x`) its manifest's version is below all its tags and the latest is not on
        // this branch. (apollo-client's private root at 4.2.3, tagged, is released.)
        var neverReleasedHere: Set<Int> = []
        // What changesets never releases (graphiql's examples in `ignore`, emotion's private
        // packages under `"privatePackages": false`, last tagged by lerna in 2019).
        for (index, member) in members.enumerated()
        where ChangeFragments.changesetsNeverReleases(config: member.config, isPrivate: member.unpublished) != nil {
            neverReleasedHere.insert(index)
        }
        for (index, member) in members.enumerated() where member.unpublished {
            guard let latest = histories[index].latest else {
                neverReleasedHere.insert(index)
                continue
            }
            let zero = SemanticVersion(major: 0, minor: 0, patch: 0)
            if let held = VersionBump.highestFloor(above: zero, config: member.config)?.floor,
                let lowest = histories[index].releases.last?.version, held.final < lowest.final,
                await git.isAncestor(latest.commit, of: targetCommit) == false
            {
                neverReleasedHere.insert(index)
            }
        }
        var plans: [MemberPlan] = []
        for (index, member) in members.enumerated() {
            let history = histories[index]
            let bump = try await VersionBump.compute(
                history: history, git: git, config: member.config, target: target, targetCommit: targetCommit,
                shared: shared?[index])
            var plan = MemberPlan(
                name: member.name, path: member.path, config: member.config, bump: bump, history: history)
            if neverReleasedHere.contains(index) {
                (plan.next, plan.tag, plan.reason) = (nil, nil, "unpublished")
            }
            plans.append(plan)
        }
        for group in workspace.groups { lockstep(&plans, group: group) }
        try dependencyPass(&plans, members: members, workspace: workspace, config: config)
        for linked in (ChangeFragments.changesetsJSON("config.json", config: config)?["linked"] as? [[String]]) ?? []
        where linked.count > 1 {
            linkedDependents(&plans, linked: linked)
        }
        // Nor does a dependency it has, or a group, release it.
        for index in neverReleasedHere {
            (plans[index].next, plans[index].tag, plans[index].reason) = (nil, nil, "unpublished")
        }
        // After the groups and dependencies: a promotion alone moves nothing else.
        for index in plans.indices where !neverReleasedHere.contains(index) { plans[index].offerPromotion() }
        return plans
    }

    /// After the groups: the members' dependencies on each other (a cycle is exit 2), the
    /// `dependency` releases they call for, and on each member the requirements its release moves.
    package static func dependencyPass(
        _ plans: inout [MemberPlan], members: [WorkspaceMember], workspace: WorkspaceSettings, config: RelctlConfig
    ) throws {
        let dependencies = try WorkspaceDependencies.read(members)
        _ = try WorkspaceDependencies.order(members.map(\.name), along: dependencies, config: config.path)
        WorkspaceDependencies.raise(&plans, along: dependencies, groups: workspace.groups)
        if let options = ChangeFragments.changesetsJSON("config.json", config: config) {
            WorkspaceDependencies.raiseChangesetsPeers(
                &plans, along: dependencies, groups: workspace.groups, options: options)
            // A member the rule released or raised to a major: its own dependents follow it, and
            // the requirements they move name its new version.
            WorkspaceDependencies.raise(&plans, along: dependencies, groups: workspace.groups)
        }
        for index in plans.indices {
            plans[index].dependents = dependencies.filter { $0.dependency == plans[index].name }
        }
    }

    /// Each member's inputs to its bump from one walk of the history: the changes since every
    /// release its bump counts from (`VersionBump.walkStarts`), and the current branch, read once.
    package static func sharedInputs(
        _ members: [WorkspaceMember], histories: [ReleaseHistory], git: Git, target: String
    ) async throws -> [SharedBumpInputs] {
        let branch =
            members.contains { !$0.config.branches.isEmpty } ? await BranchRule.currentBranch(git: git) : nil
        var requests: [SharedHistoryWalk.Request] = []
        var starts: [[(since: String?, request: Int)]] = []
        for (index, member) in members.enumerated() {
            let rule =
                BranchRule.applying(to: branch, in: member.config.branches)
                ?? VersionBump.changesetsPrereleaseRule(config: member.config)
            let latest = try await histories[index].latest(
                seenFrom: target, git: git, named: BranchRule.prereleaseNames(in: member.config.branches),
                held: VersionBump.heldVersions(config: member.config))
            starts.append(
                VersionBump.walkStarts(history: histories[index], rule: rule, latest: latest).map { since in
                    requests.append(SharedHistoryWalk.Request(history: histories[index], since: since))
                    return (since?.tag, requests.count - 1)
                })
        }
        let answers = try await SharedHistoryWalk.run(git: git, target: target, requests: requests)
        return starts.map { own in
            SharedBumpInputs(currentBranch: branch) { since in
                guard let start = own.first(where: { $0.since == since?.tag }),
                    case .walked(let collector, let walk) = answers[start.request]
                else { return nil }
                return (collector, walk)
            }
        }
    }

    /// changesets' `linked` group for members released only because a dependency was: `changeset
    /// version` gives every package of the group it releases the group's highest new version
    /// (plate's `platejs` at 53.0.7, released with its dependency `@platejs/core` at 53.1.2, was
    /// 53.1.2, not 53.0.8). A member is in the group by its package name, read from its tags'
    /// spelling (`@platejs/core@`); members with changesets of their own take it in their bump.
    static func linkedDependents(_ plans: inout [MemberPlan], linked: [String]) {
        func packageName(_ plan: MemberPlan) -> String {
            let prefix = plan.history.format.prefix
            return prefix.hasSuffix("@") ? String(prefix.dropLast()) : plan.name
        }
        let inGroup = plans.indices.filter { index in
            plans[index].next != nil
                && linked.contains { ChangeFragments.matches(packageName(plans[index]), $0) }
        }
        guard let top = inGroup.compactMap({ plans[$0].next }).filter({ !$0.isPrerelease }).max() else { return }
        for index in inGroup where plans[index].reason == "dependency" {
            guard let next = plans[index].next, !next.isPrerelease, next < top, plans[index].history.taken(top) == nil,
                plans[index].bump.current.map({ !$0.isPrerelease && $0 < top }) ?? true
            else { continue }
            plans[index].next = top
            plans[index].tag = plans[index].history.format.tag(for: top)
        }
    }

    /// One version for every member of `group` when any of them changed: the highest the changes
    /// of any member call for, above every member's latest release, taken by no member's tags.
    package static func lockstep(_ plans: inout [MemberPlan], group: WorkspaceSettings.Group) {
        let indices = plans.indices.filter { group.members.contains(plans[$0].name) }
        let changed = indices.filter { plans[$0].next != nil }
        guard !changed.isEmpty else { return }
        // The level each member releases at: what its changes call for after its own rules
        // (Go's major version rule turns a breaking change of `go.opentelemetry.io/contrib`
        // into a minor), the changes' level where a prerelease counter continues.
        let level =
            changed.map { plans[$0].bump.level == .prerelease ? plans[$0].bump.changeLevel : plans[$0].bump.level }
            .max() ?? .patch
        var version = changed.compactMap { plans[$0].next }.max()!
        for index in indices {
            guard let current = plans[index].bump.current else { continue }
            let candidate = VersionBump.next(after: current, level: current.isPrerelease ? .prerelease : level)
            if version < candidate { version = candidate }
        }
        while indices.contains(where: { plans[$0].history.taken(version) != nil }) {
            version = VersionBump.next(after: version, level: version.isPrerelease ? .prerelease : .patch)
        }
        for index in indices {
            plans[index].next = version
            plans[index].tag = plans[index].history.format.tag(for: version)
            if plans[index].reason == "none" { plans[index].reason = "group" }
        }
    }
}
