import Foundation
import RelctlBasics
import RelctlModel
import Synchronization

/// The next version from the commits since the last release (`relctl bump`).
public struct VersionBump: Sendable, Equatable {
    public enum Level: String, Sendable, Codable, Comparable {
        case patch, minor, major, prerelease
        private var rank: Int { [.prerelease: 0, .patch: 1, .minor: 2, .major: 3][self] ?? 0 }
        public static func < (a: Level, b: Level) -> Bool { a.rank < b.rank }
    }

    /// The latest release's tag (the highest release anywhere in the repository); nil if none.
    public var previousTag: String?
    public var current: SemanticVersion?
    public var next: SemanticVersion
    public var level: Level
    /// What the changes alone call for (`level` says `prerelease` when a prerelease counter
    /// continues): `relctl plan`'s reason.
    public var changeLevel: Level = .patch
    /// Commits considered (after dropping merges and cancelled reverts).
    public var commitCount: Int
    /// What moved the version away from the commit rules, for the user to read: the manifest's
    /// version as a floor, tags that already exist, a latest release off the target's branch,
    /// tags that are not releases of the format.
    public var notes: [String] = []
    /// The tag the next version gets (spelled as the recent tags are: calendar padding, PEP 440).
    public var nextTag: String = ""
    /// The next version as the tag and the manifests spell it (`2026.09.03` for calendar
    /// versions padded like the recent tags; otherwise the SemVer text).
    public var nextText: String = ""
    /// The `[[branch]]` rule applied, if one matched the branch (`relctl plan`'s `branch`).
    package var branch: BranchRule?
    /// A changeset (or covector change file) names the package though no commit touched it since
    /// its latest release: `changeset version` releases it all the same (svelte-check 4.7.3).
    package var namedByChangesets = false
    /// Nothing changed since the latest release, a prerelease: the release left to make of this
    /// commit is that prerelease's final (`next`). `plan` shows it; a workspace's `bump` writes it
    /// only for a member it names, and `release-pr` never opens a request for it alone.
    package var promotesPrerelease = false
    /// Nothing changed in a chart since its latest release, but its `appVersion` names a release
    /// its application's tag series has passed: the chart's patch that follows it is due
    /// (`applicationAhead`); `plan`'s reason is `dependency`.
    package var followsApplication = false

    /// The first version of a project without release tags.
    package static let initialVersion = SemanticVersion(major: 0, minor: 1, patch: 0)

    /// The prerelease a branch's name ends with (`release-candidate-v1.8.0rc2`, PEP 440's
    /// spelling, or `release/2.0.0-rc.1`); nil for a name ending otherwise or in a final version.
    static func prereleaseNamed(byBranch branch: String) -> SemanticVersion? {
        guard let match = branch.firstMatch(of: /[vV]?([0-9]+\.[0-9]+\.[0-9]+-?(?:rc|a|b|alpha|beta|pre)\.?[0-9]+)$/) else {
            return nil
        }
        let text = String(match.1)
        guard let version = (try? SemanticVersion(parsing: text)) ?? PEP440Version(text)?.semanticReading(),
            version.isPrerelease
        else { return nil }
        return version
    }

    /// The commit that wrote `version` into a file since `last` (the newest commit that changed
    /// how often `file`, relative to the project's folder `root`, holds `text`), when no commit
    /// after it calls for more than `version`: nil otherwise, or when git cannot say.
    static func writtenAfterTheChanges(
        text: String, in file: String, version: SemanticVersion, since last: ReleaseHistory.Release, target: String,
        collector: BumpCollector, root: URL, git: Git
    ) async -> String? {
        // The file's path from git's folder: a workspace's members are read with the root's git.
        let (folder, top) = (root.standardizedFileURL.path, git.directory.standardizedFileURL.path)
        guard folder == top || folder.hasPrefix(top + "/") else { return nil }
        let path = folder == top ? file : String(folder.dropFirst(top.count + 1)) + "/" + file
        guard
            let writer = try? await git.run(
                ["log", "-1", "--format=%H", "-S", text, "\(last.commit)..\(target)", "--", path]
            ).trimmingCharacters(in: .whitespacesAndNewlines),
            !writer.isEmpty,
            let newer = try? await git.run(["rev-list", "\(writer)..\(target)"])
        else { return nil }
        let after = Set(newer.split(whereSeparator: \.isNewline).map(String.init))
        let calls = collector.raisingCommits().filter { after.contains($0.name) }.map(\.level).max()
        guard let calls else { return writer }
        return version < next(after: last.version, level: calls) ? nil : writer
    }

    /// Rules: breaking → major (minor below 1.0.0), feat → minor, anything else → patch, over the
    /// changes since the latest release (`ReleaseHistory`: the highest release anywhere, the
    /// commits reachable from the target and not from it, less what it shipped as patches); after
    /// a prerelease (`1.0.0-rc.1`) the prerelease counter continues (`1.0.0-rc.2`). Then two
    /// floors: the result is never below the first manifest's version (compared in the manifest's
    /// own scheme, so `3.2.0.dev0` gives 3.2.0, not 3.1.4), and never a version some tag already
    /// names in any spelling (it moves up, at the same level, until free).
    public static func compute(git: Git, config: RelctlConfig, target: String = "HEAD") async throws -> VersionBump {
        let history = try await ReleaseHistory.read(git: git, config: config)
        let targetCommit = try await git.rangeEnd(target)
        return try await compute(history: history, git: git, config: config, target: target, targetCommit: targetCommit)
    }

    /// `compute` over a history already read (a monorepo's members share one tag list); with
    /// `shared`, the current branch and the changes come from what the members read together.
    package static func compute(
        history: ReleaseHistory, git: Git, config: RelctlConfig, target: String, targetCommit: String,
        shared: SharedBumpInputs? = nil
    ) async throws -> VersionBump {
        let format = history.format
        var rule: BranchRule?
        var branch = shared?.currentBranch
        if shared == nil { branch = await BranchRule.currentBranch(git: git) }
        if !config.branches.isEmpty {
            rule = BranchRule.applying(to: branch, in: config.branches)
        }
        rule = rule ?? changesetsPrereleaseRule(config: config)
        let latest = try await history.latest(
            seenFrom: targetCommit, git: git, named: BranchRule.prereleaseNames(in: config.branches),
            held: heldVersions(config: config))
        var last = countedFrom(history: history, rule: rule, latest: latest)
        // Two versions' development opened and the lower not released yet (jobset tags
        // `v0.10.0-devel` on main as its release branch is cut, then ships 0.9.0 after it, having
        // opened 0.9's with `v0.9.0-devel`): the lower one is the release in preparation, and its
        // changes count from its opening, not from the newest (which holds none yet).
        if rule == nil, let opened = last, Self.opensDevelopment(opened.version, history: history),
            let pending = await lowestPendingOpening(below: opened, history: history, target: targetCommit, git: git)
        {
            last = pending
        }
        func changes(since release: ReleaseHistory.Release?) async throws -> (BumpCollector, ReleaseHistory.Walk) {
            if let answer = shared?.changes(release) { return answer }
            let collector = Mutex(BumpCollector())
            let walk = try await history.changes(in: git, to: targetCommit, since: release) { commit in
                collector.withLock { $0.add(commit) }
            }
            return (collector.withLock { $0 }, walk)
        }
        let (collector, walk) = try await changes(since: last)
        let untypedAdds = config.versioning.untypedAdds == .minor
        var (level, commitCount) = collector.finish(untypedAdds: untypedAdds)
        // What the project recorded beside its commits (`[versioning]`): the highest of both.
        var intentNotes: [String] = []
        // The changelog's newest section, written ahead of the release (`[versioning] changelog`).
        var changelog =
            commitCount > 0 ? try last.flatMap { try ChangelogIntent.read(config: config, latest: $0.version) } : nil
        // A pending section standing as it stood at the latest release says nothing of the next:
        // salvo's skeleton (`### Added` / `- Changelog established for upcoming releases.`) was
        // read as a minor at each of four patches it outlived.
        if case .level? = changelog?.finding, let found = changelog, let last,
            let stale = await unchangedSince(last, changelog: found, config: config, git: git)
        {
            intentNotes.append(stale)
            changelog = nil
        }
        if untypedAdds, level == .minor, collector.finish().level < .minor, let adding = collector.addingCommit() {
            // A section written ahead stating a patch (`### Fixed` alone) is the maintainers' word
            // on that subject: river's "Add 30s timeout to PeriodicJobEnqueuer insertBatch" was
            // listed under Fixed and released as 0.37.1.
            // So is a heading naming a patch of the latest release (inflect's NEWS.rst `v7.3.1`,
            // monolog's `### 3.3.1`, over commits titled "Add …").
            let stated: Level? =
                switch changelog?.finding {
                case .level(let level)?: level
                case .version?: last.flatMap { changelog?.level(after: $0.version) }
                case nil: nil
                }
            if let stated, stated < .minor, let changelog {
                level = collector.finish().level
                intentNotes.append(
                    "commit \(adding.name.prefix(12)) (\(Console.printable(adding.subject))) adds something, but \(changelog.file):\(changelog.line) lists the pending changes under `\(changelog.heading)`: a \(stated.rawValue), not untyped-adds' minor")
            } else {
                intentNotes.append(
                    "commit \(adding.name.prefix(12)) (\(Console.printable(adding.subject))) adds something: a minor ([versioning] untyped-adds = \"minor\")")
            }
        }
        let intent = try intendedLevel(
            level, config: config, base: last?.version, rule: rule, commits: commitCount, changelog: changelog,
            notes: &intentNotes)
        var changeLevel = intent.changeLevel
        let commitsLevel = level
        level = intent.level
        // The scope is the maintainers' word on the level (`fix(minor): …`), above the rules that
        // lower a feat: package-benchmark's `feat(minor)` under `features = "patch"`.
        // Not on a maintenance line, whose range decides the steps.
        var maintained = false
        if case .maintenance? = rule?.line { maintained = true }
        if config.versioning.scopeLevels, !maintained, let stated = collector.scopeLevel(), level < stated.level {
            intentNotes.append(
                "commit \(stated.name.prefix(12)) (\(Console.printable(stated.subject))) names a \(stated.level.rawValue) in its scope ([versioning] scope-levels)")
            level = stated.level
            changeLevel = max(changeLevel, stated.level)
        }
        // Versions of two numbers have no patch to step: a fix steps the second (PostgREST's
        // v14.10, then v14.11 for its fixes, on main and on its `v14` line).
        var prereleaseLine = false
        if case .prerelease? = rule?.line { prereleaseLine = true }
        // Not where the changelog names the patch (vulture's `2.9.1 (2023-08-21)` over its `v2.9`).
        var namesVersion = false
        if case .version(let named)? = changelog?.finding, let last, last.version < named { namesVersion = true }
        if level == .patch, !prereleaseLine, !namesVersion, format.scheme != .calver, config.versioning.cadence?.isDated != true,
            let last, !last.version.isPrerelease, Self.spellsTwoNumbers(history)
        {
            intentNotes.append(
                "the releases are tagged with two numbers (\(last.tag)): a fix steps the second, a minor of the three relctl reads")
            level = .minor
        }
        let step = { (version: SemanticVersion) in
            Self.next(after: version, level: level, majorBelowOne: intent.literalMajor)
        }
        var bump: VersionBump
        if case .prerelease(let identifier)? = rule?.line {
            // Whether anything is new since the latest release of any kind (an rc already made).
            if let latest, latest.tag != last?.tag {
                commitCount = try await changes(since: latest).0.finish().count
            }
            var base = last.map { step($0.version) } ?? initialVersion
            // A manifest naming the version in preparation (`0.18.0-dev`, `2.0.0`) lifts the base.
            if let intent = manifestIntent(config: config, history: history, rule: rule), base < intent.version.final {
                base = intent.version.final
            }
            let next = prereleaseNext(
                identifier: identifier, base: base, latest: latest, history: history, first: rule?.firstCounter ?? 1,
                acrossNames: (rule?.countsAcrossNames ?? false) && (countsOnAcrossNames(history) ?? true))
            bump = VersionBump(
                previousTag: latest?.tag, current: latest?.version, next: next, level: .prerelease,
                commitCount: commitCount)
        } else if case .maintenance(let range)? = rule?.line {
            var next = last.map { range.contains($0.version) ? step($0.version) : range.lowest } ?? range.lowest
            // Out of changesets' pre mode a prerelease is no line to continue on a branch either:
            // styled-components' `6.x` took its snapshot `6.4.2-prerelease-20260516150535` for one
            // and proposed `….1`; `changeset version` makes 6.4.2.
            if let last, last.version.isPrerelease, config.versioning.fragments == .changesets,
                range.contains(last.version.final)
            {
                next = last.version.final
                if let final = history.releases.first(where: { !$0.version.isPrerelease && $0.version < last.version }),
                    next < step(final.version), range.contains(step(final.version))
                {
                    next = step(final.version)
                }
                intentNotes.append(
                    "\(last.tag) is a prerelease, and changesets is not in prerelease mode (no `.changeset/pre.json` in mode `pre`): the next release is \(next)")
            }
            // A fragment or changelog entry backported with its main-line type (aiohttp's
            // `CHANGES/11633.feature.rst` on 3.13): the branch's range is the maintainers' call, so
            // what the commits allow inside it is the release; a commit leaving it is refused below.
            if let last, !range.contains(next), !last.version.isPrerelease {
                for lower in [Level.minor, .patch] where lower < level && lower >= commitsLevel {
                    let inside = Self.next(after: last.version, level: lower)
                    guard range.contains(inside) else { continue }
                    intentNotes.append(
                        "the change fragments or changelog call for a \(level.rawValue), which would leave \(range) on `\(rule?.name ?? "")`: a \(lower.rawValue) inside the range"
                    )
                    (next, level) = (inside, lower)
                    break
                }
            }
            // `keep-in-range`: the line ships what its commits call for inside the range (traefik's
            // chart backports a `feat` to v39.0 as 39.0.x), and says which commit asked for more.
            var kept: String?
            // A change cherry-picked onto the line (`git cherry-pick -x`) was backported to ship
            // on it: ccache's `4.13-maint` took master's `feat: Add install script …` and released
            // 4.13.2. The line keeps its range for it, as `keep-in-range` says.
            let backported = !range.contains(next) && collector.raisedOnlyByBackports(at: level)
            if rule?.keepsInRange == true || backported, let last, !range.contains(next), !last.version.isPrerelease {
                for lower in [Level.minor, .patch] where lower < level {
                    let inside = Self.next(after: last.version, level: lower)
                    guard range.contains(inside) else { continue }
                    let asking = collector.raisingCommit(at: level).map {
                        "commit \($0.name.prefix(12)) (\(Console.printable($0.subject))) calls for a \(level.rawValue)"
                    }
                    kept =
                        "\(asking ?? "the changes call for a \(level.rawValue)"), which would leave \(range) on `\(rule?.name ?? "")`: a \(lower.rawValue) inside the range (\(rule?.keepsInRange == true ? "keep-in-range" : "cherry-picked onto the line"))"
                    (next, level) = (inside, lower)
                    break
                }
            }
            // A changelog section written ahead naming a version inside the range is the
            // maintainers' word on a backported feat (pybind11's `v2.13`: `Version 2.13.1` lists
            // the `feat(types)` of #5202 under New Features): that version, not a refusal.
            if !range.contains(next), let last, !last.version.isPrerelease, let changelog,
                case .version(let named) = changelog.finding, range.contains(named), last.version < named,
                !named.isPrerelease, history.taken(named) == nil
            {
                let asking = collector.raisingCommit(at: level).map {
                    "commit \($0.name.prefix(12)) (\(Console.printable($0.subject))) calls for a \(level.rawValue)"
                }
                kept =
                    "\(changelog.file):\(changelog.line) `\(changelog.heading)` names \(named), inside \(range) on `\(rule?.name ?? "")`: the maintainers' word, though \(asking ?? "the changes call for a \(level.rawValue)")"
                level = named.minor != last.version.minor || named.major != last.version.major ? .minor : .patch
                next = named
            }
            bump = VersionBump(
                previousTag: last?.tag, current: last?.version, next: next,
                level: last?.version.isPrerelease == true ? .prerelease : level, commitCount: commitCount)
            if let kept { bump.notes.append(kept) }
            if !range.contains(next), let raising = collector.raisingCommit(at: level) {
                throw VersionBumpError.leavesRange(
                    branch: rule?.name ?? "", range: range.description, version: next.description,
                    commit: raising.name, subject: raising.subject)
            }
        } else if config.versioning.cadence == .yearCounter {
            let time = try await git.committerLocalTime(of: targetCommit)
            var next = yearCounterNext(after: last?.version, commitTime: time, history: history)
            var stepped = Level.minor
            // A project whose recent releases hold patches of their own (pretalx's 2026.1.1,
            // 2026.1.2, 2025.2.1 …) ships a fix-only range as a patch; attrs' rare emergency
            // patches (25.1.1) do not make its fixes patches.
            if let last, !last.version.isPrerelease, level == .patch,
                Self.releasesPatches(history, unmerged: (try? await git.tagNames(notMergedInto: targetCommit)) ?? [])
            {
                next = Self.next(after: last.version, level: .patch)
                stepped = .patch
                intentNotes.append(
                    "the changes call for a patch, and the project's recent releases hold patches of their own: \(next), not the year's next count")
            }
            bump = VersionBump(
                previousTag: last?.tag, current: last?.version, next: next, level: stepped, commitCount: commitCount)
        } else if config.versioning.cadence == .yearMonth {
            let time = try await git.committerLocalTime(of: targetCommit)
            let next = yearMonthNext(after: last?.version, commitTime: time, newMajor: level == .major)
            let stepped: Level =
                last.map { next.major != $0.version.major ? .major : next.minor != $0.version.minor ? .minor : .patch } ?? level
            bump = VersionBump(
                previousTag: last?.tag, current: last?.version, next: next, level: stepped, commitCount: commitCount)
        } else if format.scheme == .calver {
            let time = try await git.committerLocalTime(of: targetCommit)
            var next = calendarNext(after: last?.version, commitTime: time, spelling: format.calendarSpelling)
            // A calendar prerelease names the release it prepares, not the day its final is made:
            // twisted tags `twisted-22.1.0rc1` in January and, after a few fixes, 22.1.0 in
            // February (the date gave 22.2.0); towncrier the same.
            if let last, last.version.isPrerelease, next != last.version.final,
                !Self.opensDevelopment(last.version, history: history), history.taken(last.version.final) == nil
            {
                next = last.version.final
                intentNotes.append(
                    "\(last.tag) is a calendar prerelease: its final \(next) is the release it prepares, whatever the date")
            }
            // Changesets that decide a patch keep the latest release's calendar series: the
            // maintainers said patch (hydrogen's `YYYY.M` is its API's quarter, not the date:
            // 2025.10.0, then a patch changeset in February released as 2025.10.1).
            // (`namedByChangesets`: the changesets were read and gave the level, read once there.)
            if let last, !last.version.isPrerelease, level == .patch, intent.namedByChangesets,
                next.major != last.version.major || next.minor != last.version.minor
            {
                next = Self.next(after: last.version, level: .patch)
                intentNotes.append(
                    "the \(config.versioning.fragments == .covector ? "change files" : "changesets") call for a patch: \(next) keeps \(last.tag)'s calendar series, not the date's")
            }
            bump = VersionBump(
                previousTag: last?.tag, current: last?.version, next: next, level: .patch, commitCount: commitCount)
        } else if let last, Self.opensDevelopment(last.version, history: history) {
            // grpc-go tags `v1.80.0-dev` as 1.80's development opens: it is no release whose counter
            // continues (`1.80.0-dev.1`), it names the release in preparation, as a manifest's
            // development marker does. The changes since it may call for more (pytest tagged
            // `8.5.0.dev0`, then a breaking change made it 9.0.0): above the final release below.
            var next = last.version.final
            var beyond = ""
            if let final = history.releases.first(where: { !$0.version.isPrerelease && $0.version < last.version }),
                next < step(final.version)
            {
                next = step(final.version)
                beyond = ", as the changes since it call for a \(level.rawValue) after \(final.tag)"
            }
            bump = VersionBump(
                previousTag: last.tag, current: last.version, next: next, level: level, commitCount: commitCount)
            bump.notes.append(
                "\(last.tag) marks the start of \(last.version.final)'s development (no counter to continue): the next release is \(next)\(beyond)"
            )
        } else if let last, last.version.isPrerelease, config.versioning.fragments == .changesets {
            // changesets releases a prerelease only in pre mode (`.changeset/pre.json`, read as a
            // rule above); out of it the next release is a final: apollo-server tagged
            // `@apollo/server-plugin-response-cache@5.0.1-rc.0`, then left pre mode with the
            // package back at 5.0.0, and its next release is 5.0.1, not `5.0.1-rc.1`.
            var next = last.version.final
            if let final = history.releases.first(where: { !$0.version.isPrerelease && $0.version < last.version }),
                next < step(final.version)
            {
                next = step(final.version)
            }
            bump = VersionBump(
                previousTag: last.tag, current: last.version, next: next, level: level, commitCount: commitCount)
            bump.notes.append(
                "\(last.tag) is a prerelease, and changesets is not in prerelease mode (no `.changeset/pre.json` in mode `pre`): the next release is \(next)"
            )
        } else if let last {
            bump = VersionBump(
                previousTag: last.tag, current: last.version, next: step(last.version),
                level: last.version.isPrerelease ? .prerelease : level, commitCount: commitCount)
        } else {
            bump = VersionBump(
                previousTag: nil, current: nil, next: initialVersion, level: level, commitCount: commitCount)
        }
        // release-please's `Release-As: 1.18.3` footer names the next version whatever the
        // commits say (tesla released 1.18.3 over a `feat(hackney)!:` so marked). Above the latest
        // release and not taken only; not on a prerelease line, whose counter decides.
        if !prereleaseLine, let named = collector.releaseAs, let last, last.version < named.version,
            history.taken(named.version) == nil, bump.next != named.version
        {
            var inRange = true
            if case .maintenance(let range)? = rule?.line { inRange = range.contains(named.version) }
            if inRange {
                bump.notes.append(
                    "commit \(named.name.prefix(12)) (\(Console.printable(named.subject))) says `Release-As: \(named.version)`: the next release is \(named.version), not \(bump.next)")
                bump.next = named.version
                bump.level =
                    named.version.major != last.version.major
                    ? .major : named.version.minor != last.version.minor ? .minor : .patch
            }
        }
        // A branch named for the prerelease it makes (googleapis' `release-candidate-v1.8.0rc2`,
        // cut from main for each candidate): that prerelease, or, when it is tagged already, the
        // next of its final's candidates; not once the final is released.
        if !prereleaseLine, let branch, let named = Self.prereleaseNamed(byBranch: branch), let last,
            history.taken(named.final) == nil
        {
            var next = named
            if history.taken(named) != nil || !(last.version < named),
                let top = history.releases.first(where: {
                    $0.version.isPrerelease && $0.version.final.hasSamePrecedence(as: named.final)
                })
            {
                next = Self.next(after: top.version, level: .prerelease)
            }
            if last.version < next, history.taken(next) == nil, bump.next != next {
                bump.notes.append(
                    "the branch `\(branch)` is named for the prerelease \(named): the next release is \(next), not \(bump.next)")
                bump.next = next
                bump.level = .prerelease
            }
        }
        // changesets' `linked` group: a package with changesets takes the group's highest version
        // raised by the group's highest changeset (emotion's react at 11.10.6 beside cache's tag
        // 11.10.7, a patch: 11.10.8).
        if intent.namedByChangesets, rule == nil, let last, !last.version.isPrerelease,
            let linked = ChangeFragments.changesetsLinked(config: config), linked.count > 1,
            let group = try? ChangeFragments.changesetsLevel(config: config, matching: linked)
        {
            var highest: (version: SemanticVersion, tag: String) = (last.version, last.tag)
            for tag in (try? await git.tags()) ?? [] {
                guard let at = tag.lastIndex(of: "@"), at > tag.startIndex,
                    linked.contains(where: { ChangeFragments.matches(String(tag[..<at]), $0) }),
                    let version = try? SemanticVersion(parsing: String(tag[tag.index(after: at)...])),
                    !version.isPrerelease, highest.version < version
                else { continue }
                highest = (version, tag)
            }
            let linkedNext = Self.next(after: highest.version, level: max(level, group.level), majorBelowOne: intent.literalMajor)
            if bump.next < linkedNext {
                bump.notes.append(
                    "changesets' linked group (\(linked.joined(separator: ", "))): its highest version \(highest.tag) raised by its changesets' \(max(level, group.level).rawValue) gives \(linkedNext)"
                )
                bump.next = linkedNext
            }
        }
        // Nim releases even patches only, its odd ones the development builds between them
        // (`NimPatch` 19 in the sources until 1.6.20 is tagged): a patch steps by two there.
        if !prereleaseLine, format.scheme != .calver, let last, !last.version.isPrerelease, bump.next.prerelease.isEmpty,
            bump.next.major == last.version.major, bump.next.minor == last.version.minor,
            let patch = Int(bump.next.patch), let before = Int(last.version.patch), patch == before + 1, before % 2 == 0,
            Self.stepsPatchesByTwo(history)
        {
            bump.next.patch = String(patch + 1)
            bump.notes.append("the patch releases step the third number by two (\(last.tag)): the next patch is two above it")
        }
        // Nothing since a prerelease: another prerelease of the same code is no release, so the one
        // left to make is its final (unocss tags `v66.7.0-beta.1`, and on the next commit, which
        // changes only the versions, `v66.7.0`; syncthing tags the final on its last rc's commit). A
        // change since it continues the counter, as before; a development tag (`-dev`) opens a
        // version and is no candidate; a prerelease line's rule counts on. Only where the target
        // holds the prerelease: a checkout behind it has none of its code to promote.
        // So on a maintenance line whose range holds that final (kyverno's `release-1.16` tags
        // `v1.16.1-rc.1`, then `v1.16.1` on the same code).
        var promotable = rule == nil
        if case .maintenance(let range)? = rule?.line, let last, range.contains(last.version.final) { promotable = true }
        if promotable, commitCount == 0, let last, last.version.isPrerelease,
            !Self.opensDevelopment(last.version, history: history), history.taken(last.version.final) == nil,
            await Self.holds(last, walk: walk, target: targetCommit, git: git)
        {
            bump.next = last.version.final
            bump.promotesPrerelease = true
            bump.notes.append(
                "nothing changed since the prerelease \(last.tag): the release left to make is its final, \(bump.next)")
        }
        // A chart released for its application (sealed-secrets' `helm/sealed-secrets`: each
        // `helm-v2.17.x` only moves `appVersion` to the application's new `v0.32.x`): nothing changed
        // in the chart's folder, but its appVersion names a release the application has passed.
        if rule == nil, commitCount == 0, !intent.namedByChangesets, let last, !last.version.isPrerelease,
            let trailing = await applicationAhead(config: config, own: format, target: targetCommit, git: git)
        {
            bump.next = Self.next(after: last.version, level: .patch)
            bump.level = .patch
            bump.followsApplication = true
            bump.notes.append(
                "\(trailing.file)'s appVersion \(trailing.appVersion) trails the application's release \(trailing.tag): the chart's patch to follow it"
            )
        }
        bump.changeLevel = changeLevel
        bump.branch = rule
        bump.namedByChangesets = intent.namedByChangesets && commitCount == 0
        bump.notes += intentNotes
        // The walk tells in most histories; where it cannot (other release lines), git is asked.
        var ancestor = walk.previousIsAncestor
        if let last, ancestor == nil { ancestor = await git.isAncestor(last.commit, of: targetCommit) }
        if let last, ancestor == false {
            bump.notes.append(
                "the latest release \(last.tag) is not an ancestor of \(target) (tagged on another branch or an unmerged commit); the changes are those \(target) has and \(last.tag) has not, less the patches \(last.tag) already shipped"
            )
        }
        if let ignored = history.ignoredSummary { bump.notes.append(ignored) }
        let exists: (SemanticVersion) -> Bool = { history.taken($0) != nil }
        // Every manifest's version is a floor: it may already name the release in preparation
        // (a development marker or a released prerelease: its final, see `manifestIntent`).
        var held = manifestIntent(config: config, history: history, rule: rule)
        if let marker = held, marker.marker, let last, bump.next < marker.version {
            if case .maintenance(let range)? = rule?.line, !range.contains(marker.version) {
                // prettier's `v3.9.x` holds main's `3.10.0-dev`: the branch's range decides.
                bump.notes.append(
                    "\(marker.found.foundIn) holds \(marker.found.text), the development version of a release outside \(range) on `\(rule?.name ?? "")`: not a floor here"
                )
                held = nil
            } else if (try? SemanticVersion(parsing: marker.found.text)).map({ !$0.hasSamePrecedence(as: last.version) }) ?? true,
                let before = await git.fileText(marker.found.foundIn, at: last.commit + "^"),
                before.contains(marker.found.text)
            {
                // (Not the previous release itself: commander's `13.0.0-0`, tagged, is promoted.)
                // prettier keeps `3.9.0-dev` on main and lowers it to 3.8.3 only in the release
                // commit: a marker that stood above the previous release does not bind this one.
                bump.notes.append(
                    "\(marker.found.foundIn) held \(marker.found.text) already before \(last.tag) was released: the development marker does not bind the next release"
                )
                held = nil
            } else if let below = await releasedBelowAMarker(marker.found, history: history, config: config, git: git) {
                // circuit writes the next minor's `-SNAPSHOT` after each release and ships patches
                // under it (0.33.1 under `0.34.0-SNAPSHOT`), snuba the next month's `.dev0`: where
                // a release was cut below the marker its manifest held, markers do not bind.
                bump.notes.append(
                    "\(below.tag) was released while \(marker.found.foundIn) held \(below.held): the project's development markers name a guess, not the next release"
                )
                held = nil
            }
        }
        // Pending changesets are newer than the manifest's version: `changeset version` deletes the
        // changesets it applies, so a version above the latest tag beside pending ones was written
        // already (graphiql's language server at 2.14.3, versioned but never tagged, with a patch
        // changeset pending: changesets makes 2.14.4).
        let versionedAlready = intent.namedByChangesets && config.versioning.fragments == .changesets && rule == nil
        if let held = held,
            case let consumed = versionedAlready && !held.version.isPrerelease && !held.promoted && !exists(held.version)
                && last.map({ $0.version < held.version }) == true,
            bump.next < held.version || last == nil || (consumed && !(held.version < bump.next))
        {
            let (found, floor, below) = (held.found, held.version, !(held.version < bump.next))
            // A changelog heading naming the version `changeset version` wrote is that version's
            // notes, not the size of the next (react-pdf's `## 4.4.0`, versioned and untagged, with
            // one `patch` changeset pending: 4.4.1, not 4.5.0): the pending changesets step from it.
            var stepLevel = level
            if consumed, case .version(let named)? = changelog?.finding, !(floor < named) {
                var ignored: [String] = []
                if let pending = try? intendedLevel(
                    commitsLevel, config: config, base: last?.version, rule: rule, commits: commitCount, changelog: nil,
                    notes: &ignored), pending.level < level
                {
                    stepLevel = pending.level
                    bump.notes.append(
                        "\(changelog?.file ?? "the changelog")'s `\(changelog?.heading ?? named.description)` is the notes of \(found.text), which \(found.foundIn) holds: not the size of the next release")
                }
            }
            // Before the first tag the manifest's version has not shipped: it is the next one.
            let chosen = exists(floor) || consumed ? next(after: floor, level: floor.isPrerelease ? .prerelease : stepLevel) : floor
            // A first release takes the manifest's version: nothing to warn about (issue 57).
            if below, last != nil {
                // A promoted prerelease is compared as its final (`3.6.0-rc.2` as 3.6.0, above the
                // commits' `3.6.0-rc.3`): the message names what was compared.
                let shown = held.promoted ? "\(found.text) (\(floor)'s \(held.marker ? "development version" : "prerelease, released already"))" : found.text
                let why =
                    exists(floor)
                    ? " (\(history.taken(floor) ?? format.tag(for: floor)) exists already)"
                    : chosen != floor ? " (versioned already: the pending changesets are newer)" : ""
                bump.notes.append("\(found.foundIn) holds \(shown), above \(bump.next) from the commits; using \(chosen)\(why)")
            }
            bump.next = chosen
        }
        // Under changesets with none left naming the package, `changeset version` has run: the
        // final it wrote, no tag naming it yet, is the release whatever the commits say (electric's
        // client at 1.5.25 after a `feat(sync-service):` whose changeset said patch: not 1.6.0).
        if let held, let last, config.versioning.fragments == .changesets, rule == nil, !intent.namedByChangesets,
            !held.marker, !held.promoted, !held.version.isPrerelease, !exists(held.version),
            last.version < held.version, held.version < bump.next
        {
            bump.notes.append(
                "\(held.found.foundIn) holds \(held.found.text), untagged, and no changeset is left: `changeset version` wrote it, the release (the commits' \(bump.next) is not changesets' word)"
            )
            bump.next = held.version
        }
        // A final version the project wrote after every change that calls for more is the release
        // in preparation, not a floor under them: chart repositories bump `version:` in the pull
        // request (codecentric's keycloakx: `bump chart to 7.1.5` after the feats of the range,
        // released as 7.1.5; relctl proposed 7.2.0). A change calling for more after it lifts it.
        if let held, let last, !held.marker, !held.promoted, !held.version.isPrerelease, !exists(held.version),
            last.version < held.version, held.version < bump.next, rule == nil, format.scheme != .calver,
            config.versioning.fragments == nil, config.versioning.cadence == nil, commitCount > 0,
            changelog == nil || changeLevel <= commitsLevel,
            let stands = await writtenAfterTheChanges(
                text: held.found.text, in: held.found.foundIn, version: held.version, since: last, target: targetCommit,
                collector: collector, root: config.root, git: git)
        {
            bump.notes.append(
                "\(held.found.foundIn) holds \(held.found.text), written by commit \(stands.prefix(12)) after every change in the range that calls for more: the release in preparation, not \(bump.next)"
            )
            bump.next = held.version
        }
        // antsibull-changelog releases the version galaxy.yml holds, which the maintainers set
        // (community.general's 12.6.1 over a `minor_changes` fragment: relctl proposed 12.7.0): a
        // final there above the latest release, untagged, is the release, inside a maintenance
        // line's range too. Not below a major the fragments call for (a breaking fragment added
        // after galaxy.yml named the cycle's minor).
        var inRange = rule == nil
        if case .maintenance(let range)? = rule?.line, let held { inRange = range.contains(held.version) }
        if let held, let last, config.versioning.fragments == .antsibull, inRange, !held.marker, !held.promoted,
            !held.version.isPrerelease, !exists(held.version), last.version < held.version, held.version < bump.next,
            changeLevel < .major || held.version.major != last.version.major
        {
            bump.notes.append(
                "\(held.found.foundIn) holds \(held.found.text), untagged: antsibull-changelog releases the version galaxy.yml names, not \(bump.next)"
            )
            bump.next = held.version
        }
        // A changelog heading naming the next version is a floor as a manifest's version is (not on
        // a branch rule's line, nor under calendar versions, which the date decides).
        if case .version(let floor)? = changelog?.finding, rule == nil, format.scheme != .calver,
            config.versioning.cadence?.isDated != true, bump.next < floor, let changelog
        {
            bump.notes.append(
                "\(changelog.file):\(changelog.line) `\(changelog.heading)` names \(floor), above \(bump.next); using \(floor) ([versioning] changelog)"
            )
            bump.next = floor
        }
        // The same for a changelog heading naming a version written after every change that calls
        // for more (moto's "Prep release 5.1.19" writes `5.1.19` over the range's new methods and
        // its `feat(acm-pca)`: released as 5.1.19; relctl proposed 5.2.0). Never below what a
        // manifest holds (socket2's master at 0.6.0 beside a changelog naming the 0.5.10 backport).
        if case .version(let named)? = changelog?.finding, let changelog, let last, rule == nil,
            held.map({ !(named < $0.version.final) }) ?? true,
            format.scheme != .calver, config.versioning.fragments == nil, config.versioning.cadence == nil,
            commitCount > 0, !named.isPrerelease, !exists(named), last.version < named, named < bump.next,
            let stands = await writtenAfterTheChanges(
                text: named.description, in: changelog.file, version: named, since: last, target: targetCommit,
                collector: collector, root: config.root, git: git)
        {
            bump.notes.append(
                "\(changelog.file):\(changelog.line) `\(changelog.heading)` names \(named), written by commit \(stands.prefix(12)) after every change in the range that calls for more: the release in preparation, not \(bump.next)"
            )
            bump.next = named
        }
        // A module path naming a major above the proposal's is that major's first release, as Go
        // resolves nothing else for it: koanf's `providers/vault` at 0.2.2 moved to `…/vault/v2`
        // and released 2.0.0 (from 1.x `goModuleRule` gives the same as a major step).
        if rule == nil, commitCount > 0, !bump.next.isPrerelease,
            let module = try? GoModulePath.read(root: config.root), let suffix = module.suffixMajor, suffix >= 2,
            let proposed = Int(bump.next.major), proposed < suffix
        {
            let first = SemanticVersion(major: suffix, minor: 0, patch: 0)
            bump.notes.append("go.mod's module path `\(module.path)` names major \(suffix): the next release is \(first)")
            bump.next = first
        }
        var skipped: [String] = []
        // Up at the level the changes call for: a `feat` after 0.53.0 whose 0.54.0 to 0.56.0 were
        // tagged `v0.54.0`… in another spelling gives 0.57.0, not 0.54.1.
        let moveUp: Level =
            config.versioning.cadence == .yearCounter
            ? .minor : format.scheme == .calver || config.versioning.cadence == .yearMonth ? .patch : level
        while let taken = history.taken(bump.next) {
            skipped.append(taken)
            bump.next = next(after: bump.next, level: bump.next.isPrerelease ? .prerelease : moveUp)
        }
        if case .maintenance(let range)? = rule?.line, !range.contains(bump.next) {
            // The commits fit the range, but the manifests or the tags moved it out.
            throw VersionBumpError.outsideRange(
                branch: rule?.name ?? "", range: range.description, version: bump.next.description,
                why: skipped.isEmpty
                    ? "a manifest holds a version above it" : "\(skipped.joined(separator: ", ")) exist")
        }
        bump.nextTag = format.tag(for: bump.next)
        bump.nextText = format.scheme == .calver ? format.calendarSpelling.spell(bump.next) : bump.next.description
        if !skipped.isEmpty {
            bump.notes.append(
                "\(skipped.joined(separator: ", ")) exist\(skipped.count == 1 ? "s" : "") already (another spelling of the version); moved up to \(bump.next)"
            )
        }
        return bump
    }

    /// One of the newest final releases (up to six) whose commit's parent held, on the line where
    /// `found` sits now, a development marker of a higher version: the project released below
    /// what its manifest said it prepared. Nil where none did or the files cannot be read.
    private static func releasedBelowAMarker(
        _ found: ManifestVersion, history: ReleaseHistory, config: RelctlConfig, git: Git
    ) async -> (tag: String, held: String)? {
        guard let line = found.line,
            let current = await git.fileText(found.foundIn, at: "HEAD"),
            case let lines = current.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline),
            line >= 1, line <= lines.count, let start = lines[line - 1].range(of: found.text)?.lowerBound
        else { return nil }
        let prefix = lines[line - 1][..<start].trimmingCharacters(in: .whitespaces)
        guard !prefix.isEmpty else { return nil }
        let finals = history.releases.filter { !$0.version.isPrerelease }.prefix(6)
        for release in finals {
            guard let text = await git.fileText(found.foundIn, at: release.commit + "^") else { continue }
            for candidate in text.split(whereSeparator: \.isNewline) {
                let trimmed = candidate.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix(prefix) else { continue }
                let value = trimmed.dropFirst(prefix.count).prefix { !$0.isWhitespace && !"\"'#,;".contains($0) }
                guard let held = developmentMarkerFinal(String(value)), release.version < held else { continue }
                return (release.tag, String(value))
            }
        }
        return nil
    }

    /// The final a development marker prepares (`0.34.0-SNAPSHOT`, `26.6.0.dev0`); nil for any
    /// other text.
    static func developmentMarkerFinal(_ text: String) -> SemanticVersion? {
        if let pep = PEP440Version(text), pep.dev != nil, pep.pre == nil, pep.post == nil {
            return releasableVersion(ofManifestText: text, comparison: .pep440)
        }
        guard let version = releasableVersion(ofManifestText: text, comparison: .semver), version.isDevelopmentMarker
        else { return nil }
        return version.final
    }

    /// The lowest development opening below `opened` whose final no tag names and that is above
    /// every final release below it, where the target holds it; nil where there is none.
    private static func lowestPendingOpening(
        below opened: ReleaseHistory.Release, history: ReleaseHistory, target: String, git: Git
    ) async -> ReleaseHistory.Release? {
        let finals = history.releases.filter { !$0.version.isPrerelease && $0.version < opened.version }
        let floor = finals.map(\.version).max()
        let candidates = history.releases.filter { release in
            release.version < opened.version && release.version.isPrerelease
                && floor.map { $0 < release.version } ?? true && history.taken(release.version.final) == nil
                && opensDevelopment(release.version, history: history)
        }.sorted { $0.version < $1.version }
        for candidate in candidates.prefix(4) where await git.isAncestor(candidate.commit, of: target) == true {
            return candidate
        }
        return nil
    }

    /// Whether the target holds `release`'s commit (the walk tells in most histories; else git).
    private static func holds(_ release: ReleaseHistory.Release, walk: ReleaseHistory.Walk, target: String, git: Git) async -> Bool {
        if let known = walk.previousIsAncestor { return known }
        return await git.isAncestor(release.commit, of: target) == true
    }

    /// The release the changes count from: on a maintenance line the highest one in its range,
    /// on a prerelease line the last final one (the base comes from all changes since then),
    /// else the latest release anywhere.
    /// `latest`: the latest release as the target's branch sees it (`ReleaseHistory.latest(seenFrom:)`).
    /// changesets' prerelease mode read as a prerelease line (`ChangeFragments.changesetsPrerelease`)
    /// where no `[[branch]]` rule applies: its counter starts at 0, as changesets' does.
    /// A development tag (`-dev`, `-pre`, `-snapshot`), or a bare `-alpha` / `-beta` where the
    /// project opens each version so: kind tags `v0.32.0-alpha` on the commit after v0.31.0, has
    /// never tagged an `-alpha.N`, and an earlier `-alpha` was followed by its final.
    package static func opensDevelopment(_ version: SemanticVersion, history: ReleaseHistory) -> Bool {
        if version.isDevelopmentTag { return true }
        guard version.prerelease.count == 1, case .alphanumeric(let word) = version.prerelease[0],
            ["alpha", "beta"].contains(word.lowercased())
        else { return false }
        let counted = history.releases.contains {
            $0.version.prereleaseName?.lowercased() == word.lowercased() && $0.version.prerelease != version.prerelease
        }
        guard !counted else { return false }
        return history.releases.contains {
            $0.version.prerelease == version.prerelease && !$0.version.final.hasSamePrecedence(as: version.final)
                && history.taken($0.version.final) != nil
        }
    }

    package static func changesetsPrereleaseRule(config: RelctlConfig) -> BranchRule? {
        ChangeFragments.changesetsPrerelease(config: config).map {
            var rule = BranchRule(name: ".changeset/pre.json", line: .prerelease($0), firstCounter: 0)
            rule.countsAcrossNames = true
            return rule
        }
    }

    package static func countedFrom(
        history: ReleaseHistory, rule: BranchRule?, latest: ReleaseHistory.Release?
    ) -> ReleaseHistory.Release? {
        switch rule?.line {
        // A prerelease in the range counts only as the latest the branch sees: apollo-client's
        // `3.14.0-rc.0`, tagged on `release-3.14`, is not `version-3.x`'s (its next was 3.13.9).
        case .maintenance(let range)?:
            {
                var found = history.releases.first {
                    range.contains($0.version) && (!$0.version.isPrerelease || $0.tag == latest?.tag)
                }
                // A line no release has opened yet (elasticsearch-py's `9.2` while `9.1` ships
                // 9.1.2) counts from the latest final below it: its changes since that release.
                if found == nil {
                    found = history.releases.first { !$0.version.isPrerelease && $0.version < range.lowest }
                }
                // zustand's `v4` line tagged its 4.5.7 without the `v` of its other tags: a final of
                // the range in another spelling is the line's latest release too, as on a main line.
                if let other = history.otherSpellingFinals.first(where: { range.contains($0.version) }),
                    found.map({ $0.version < other.version }) ?? true
                {
                    return other
                }
                return found
            }()
        case .prerelease?: history.releases.first { !$0.version.isPrerelease }
        // `applying` resolves a rule taking its range from the branch name; none reaches here.
        case .rangeFromName?, nil: latest
        }
    }

    /// Every release `compute` reads the changes since: `countedFrom`, and on a prerelease line
    /// also the latest release when that is another (whether anything is new since an rc).
    package static func walkStarts(
        history: ReleaseHistory, rule: BranchRule?, latest: ReleaseHistory.Release?
    ) -> [ReleaseHistory.Release?] {
        let last = countedFrom(history: history, rule: rule, latest: latest)
        if case .prerelease? = rule?.line, let latest, latest.tag != last?.tag {
            return [last, latest]
        }
        return [last]
    }

    /// The next release on a prerelease line: `BASE-ID.N`, BASE what the changes make of the last
    /// final release (a `feat` after `2.0.0-rc.1`, itself due to a breaking change, stays on 2.0.0),
    /// N one above the highest existing `BASE-ID.N` in any spelling. The counter is glued to the
    /// name (`BASE-rcN`) when the project's latest prerelease of that name is spelled so
    /// (alacritty's `v0.17.0-rc1` → `v0.17.0-rc2`). Never at or below `latest` (the latest release
    /// as the branch sees it): a higher line's prerelease (`2.1.0-rc.1`) lifts the base to its version.
    package static func prereleaseNext(
        identifier: String, base given: SemanticVersion, latest: ReleaseHistory.Release?, history: ReleaseHistory,
        first: Int = 1, acrossNames: Bool = false
    ) -> SemanticVersion {
        var base = given
        if let latest = latest?.version, latest.final > base {
            base = latest.final
        }
        let counters = history.released.entries.compactMap { entry -> Int? in
            guard entry.version.final.hasSamePrecedence(as: base) else { return nil }
            if let own = counter(of: entry.version, named: identifier)?.number { return own }
            guard acrossNames, entry.version.prerelease.count == 2 else { return nil }
            return entry.version.prerelease[1].number
        }
        // Releases are highest first: the highest prerelease of this name says how it is spelled.
        let glued =
            history.releases.lazy.compactMap { counter(of: $0.version, named: identifier) }.first?.glued ?? false
        let number = counters.max().map { $0 + 1 } ?? first
        var proposed = base
        proposed.prerelease =
            glued
            ? [.alphanumeric(identifier + String(number))] : [.alphanumeric(identifier), .numeric(String(number))]
        if let latest = latest?.version, !(latest < proposed),
            !(latest.final.hasSamePrecedence(as: base) && counter(of: latest, named: identifier) != nil)
        {
            // Another identifier sorting above this one on the same base (`rc` after `rc2`): count on
            // from the latest instead of going below it. (Not for `rc9` → `rc10`, which SemVer
            // sorts below `rc9` by its letters.)
            proposed = next(after: latest, level: .prerelease)
        }
        return proposed
    }

    /// What the project did the last time its prereleases of one version changed name: counted
    /// on (effect's `4.0.0-beta.107`, then `4.0.0-rc.108`, as changesets' pre mode does) or started
    /// the new name over (apollo-client's `3.9.0-alpha.5`, then `3.9.0-beta.0`: versions it set
    /// itself). Nil when its history has no such change.
    package static func countsOnAcrossNames(_ history: ReleaseHistory) -> Bool? {
        var byBase: [SemanticVersion: [SemanticVersion]] = [:]
        for entry in history.released.entries where entry.version.prerelease.count == 2 {
            guard case .alphanumeric = entry.version.prerelease[0], entry.version.prerelease[1].number != nil else {
                continue
            }
            byBase[entry.version.final, default: []].append(entry.version)
        }
        for base in byBase.keys.sorted(by: >) {
            let versions = (byBase[base] ?? []).sorted()
            for (earlier, later) in zip(versions, versions.dropFirst()).reversed()
            where earlier.prerelease[0] != later.prerelease[0] {
                guard let before = earlier.prerelease[1].number, let after = later.prerelease[1].number else { continue }
                if after == before + 1 { return true }
                if after < before { return false }
            }
        }
        return nil
    }

    /// The counter of a prerelease of the line `name`: `-rc.3` (3, not glued) or `-rc3` (3, glued).
    package static func counter(of version: SemanticVersion, named name: String) -> (number: Int, glued: Bool)? {
        let identifiers = version.prerelease
        if identifiers.count == 2, identifiers[0] == .alphanumeric(name), let number = identifiers[1].number {
            return (number, false)
        }
        if identifiers.count == 1, case .alphanumeric(let word) = identifiers[0],
            let glued = SemanticVersion.Identifier.glued(word), glued.name == name
        {
            return (glued.number, true)
        }
        return nil
    }

    /// What the manifests say of the next release: the highest version they declare as a release
    /// (`releasableVersion`), where a development marker (`0.18.0-dev`, `-pre`, `-alpha.0`, as
    /// PEP 440's `.dev`) stands for its final, and so does a prerelease a tag already released
    /// (`2.0.0-rc.1` left in the manifest after `v2.0.0-rc.1`: promoted, not repeated), except on a
    /// prerelease line, where the rule counts on. Nil when no manifest holds a version.
    package static func manifestIntent(
        config: RelctlConfig, history: ReleaseHistory, rule: BranchRule?
    ) -> (found: ManifestVersion, version: SemanticVersion, promoted: Bool, marker: Bool)? {
        let zero = SemanticVersion(major: 0, minor: 0, patch: 0)
        var prereleaseLine = false
        if case .prerelease? = rule?.line { prereleaseLine = true }
        var best: (found: ManifestVersion, version: SemanticVersion, promoted: Bool, marker: Bool)?
        for source in config.versions {
            guard let found = try? ManifestReaders.read(source, config: config),
                let reader = try? ManifestReaders.reader(for: source.kind),
                var version = releasableVersion(ofManifestText: found.text, comparison: reader.comparison),
                version > zero
            else { continue }
            var promoted = false
            // On a prerelease line a tagged `-alpha.0` is that line's first release (changesets'
            // pre mode), not a marker of the final in preparation.
            // A `-dev.N` is a release of its own where the project tags that line's counters
            // (DataDog's charts: `datadog-operator-2.25.0-dev.1`, `-dev.2`, … before 2.25.0).
            // Not one a tag released already (react-router's `8.0.0-pre.2`, sqlx's `-alpha.0`
            // left in the manifest: promoted to the final as before), and `dev` alone.
            let tagsItsCounters =
                version.prerelease.count == 2 && version.prerelease[1].number != nil
                && version.prerelease[0] == .alphanumeric("dev") && history.taken(version) == nil
                && history.releases.contains {
                    $0.version.prerelease.count == 2 && $0.version.prerelease[0] == version.prerelease[0]
                        && $0.version.prerelease[1].number != nil
                }
            // PEP 440's `.dev0` reads as its final already (snuba's `26.6.0.dev0`): a marker too.
            let pepDevelopment = reader.comparison == .pep440 && !version.isPrerelease
                && PEP440Version(found.text).map { $0.dev != nil && $0.pre == nil && $0.post == nil } == true
            let marker =
                (version.isDevelopmentMarker || pepDevelopment) && !(prereleaseLine && history.taken(version) != nil)
                && !tagsItsCounters
            if marker || (version.isReleaseCandidate && !prereleaseLine && history.taken(version) != nil) {
                version = version.final
                promoted = true
            }
            if best == nil || best!.version < version { best = (found, version, promoted, marker) }
        }
        return best
    }

    /// The highest version the configured manifests declare (as a releasable version), the
    /// manifest holding it, and whether `version` is below it. Nil when no manifest holds one.
    package static func highestFloor(
        above version: SemanticVersion, config: RelctlConfig
    ) -> (
        found: ManifestVersion, floor: SemanticVersion, below: Bool
    )? {
        let zero = SemanticVersion(major: 0, minor: 0, patch: 0)
        let scheme = config.project.tagFormat.scheme
        var best: (ManifestVersion, SemanticVersion)?
        var anyBelow = false
        for source in config.versions {
            guard let found = try? ManifestReaders.read(source, config: config),
                let reader = try? ManifestReaders.reader(for: source.kind),
                let floor = releasableVersion(ofManifestText: found.text, comparison: reader.comparison), floor > zero
            else { continue }
            if isBelow(version, manifestText: found.text, comparison: reader.comparison, scheme: scheme) {
                anyBelow = true
            }
            if best == nil || best!.1 < floor { best = (found, floor) }
        }
        return best.map { (found: $0.0, floor: $0.1, below: anyBelow) }
    }

    /// The next calendar version after `last` for a commit made at `commitTime`: the date's
    /// version (year and month, and the day for projects whose third number is a zero-padded day,
    /// as certifi's `2026.07.22`), else the next patch of the last one when that is not below it;
    /// a prerelease not below it is promoted to its final (towncrier's `24.7.1rc1`, then a fix in
    /// July: 24.7.1, not 24.7.2). The commit's date, not the wall clock, so the answer is reproducible.
    package static func calendarNext(
        after last: SemanticVersion?, commitTime: Int, spelling: VersionScheme.CalendarSpelling
    ) -> SemanticVersion {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let date = Date(timeIntervalSince1970: TimeInterval(commitTime))
        let year = calendar.component(.year, from: date), month = calendar.component(.month, from: date)
        let fullYear = last.map { $0.major.count >= 4 } ?? false
        let day = spelling.namesDay ? calendar.component(.day, from: date) : 0
        let dated = SemanticVersion(major: fullYear ? year : year % 100, minor: month, patch: day)
        guard let last, !(last < dated) else { return dated }
        return last.isPrerelease ? last.final : next(after: last.final, level: .patch)
    }

    /// `bump --set`: `text` as the next version (a SemVer version, or a tag in the tag format),
    /// for a lockstep train; bad input when it is neither.
    public static func set(_ text: String, config: RelctlConfig) throws -> VersionBump {
        let version: SemanticVersion
        if let parsed = try? SemanticVersion(parsing: text) {
            version = parsed
        } else if let fromTag = try? ReleaseIdentity.check(text, config: config, manifests: .unread).version {
            version = fromTag
        } else {
            version = try SemanticVersion(parsing: text)
        }
        var bump = VersionBump(
            previousTag: nil, current: nil, next: version, level: version.isPrerelease ? .prerelease : .patch,
            commitCount: 0)
        let format = config.project.tagFormat
        bump.nextTag = format.tag(for: version)
        bump.nextText = format.scheme == .calver ? format.calendarSpelling.spell(version) : version.description
        return bump
    }

    /// Whether `version` is below what a manifest declares, in the manifest's own order (PEP 440
    /// for Python: `3.1.4` is below `3.2.0.dev0`, `3.2.0` above it). Text the kind's own rules
    /// refuse is still read the way a human would: a calendar version with its zero padding
    /// (`2026.07.22`), or PEP 440 in a file of another kind (`__version__ = "1.0.0b1"`), so no
    /// spelling lets a lower version through. False only when the text is no version at all.
    package static func isBelow(
        _ version: SemanticVersion, manifestText text: String, comparison: VersionComparison,
        scheme: VersionScheme = .semver
    ) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if comparison == .semver, let declared = try? SemanticVersion(parsing: trimmed) { return version < declared }
        if comparison == .semver || scheme == .calver, let declared = try? VersionScheme.calendarVersion(trimmed) {
            return version < declared
        }
        guard let declared = PEP440Version(trimmed) else { return false }
        guard let mine = PEP440Version(semver: version) ?? PEP440Version(version.final.description) else {
            return false
        }
        return mine < declared
    }

    /// Whether a manifest's version text can be ordered at all (see `isBelow`).
    package static func isOrderable(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return ReleasedVersions.reading(trimmed) != nil || PEP440Version(trimmed) != nil
    }

    /// The lowest version a release may carry given what a manifest declares: the version itself
    /// for SemVer; for PEP 440, `3.2.0.dev0` → 3.2.0 (a dev release precedes its final),
    /// `1.0rc1.dev2` → 1.0.0-rc.1, `1.0.post1` → 1.0.1 (a post-release follows 1.0.0). Nil when
    /// there is no SemVer reading (epochs, more than three release numbers).
    /// The versions the configured manifests hold, read as `manifestIntent` reads them.
    package static func heldVersions(config: RelctlConfig) -> Set<SemanticVersion> {
        var held: Set<SemanticVersion> = []
        for source in config.versions {
            guard let found = try? ManifestReaders.read(source, config: config),
                let reader = try? ManifestReaders.reader(for: source.kind),
                let version = releasableVersion(ofManifestText: found.text, comparison: reader.comparison)
            else { continue }
            held.insert(version)
        }
        return held
    }

    package static func releasableVersion(
        ofManifestText text: String, comparison: VersionComparison
    ) -> SemanticVersion? {
        if var version = try? SemanticVersion(parsing: text.trimmingCharacters(in: .whitespaces)) {
            // mypy holds `2.4.0+dev` between releases (PEP 440's local label, SemVer's build
            // metadata): the development marker of 2.4.0, as `2.4.0-dev` is, not a version to tag.
            if version.prerelease.isEmpty, version.build.count == 1,
                ["dev", "pre", "snapshot"].contains(version.build[0].lowercased())
            {
                version.prerelease = [.alphanumeric(version.build[0].lowercased())]
                version.build = []
            }
            // libpcap's VERSION holds `1.5.0-PRE-GIT` (tcpdump's too) while 1.5.0 is prepared: a
            // marker as `-pre` is. Maven's `2.19.0-rc1-SNAPSHOT` prepares 2.19.0-rc1: the
            // candidate is the release, never the development marker.
            if case .alphanumeric(let word)? = version.prerelease.last {
                let lower = word.lowercased()
                if version.prerelease.count == 1, ["pre-git", "pre-cvs", "pre-svn"].contains(lower) {
                    version.prerelease = [.alphanumeric("pre")]
                } else if lower.hasSuffix("-snapshot"), lower.count > "-snapshot".count,
                    let stripped = try? SemanticVersion(parsing: "0.0.0-" + word.dropLast("-snapshot".count))
                {
                    version.prerelease = Array(version.prerelease.dropLast()) + stripped.prerelease
                }
            }
            return version
        }
        if let version = try? VersionScheme.calendarVersion(text.trimmingCharacters(in: .whitespaces)) {
            return version
        }
        guard comparison == .pep440 || PEP440Version(text) != nil, let pep = PEP440Version(text), pep.epoch == "0",
            (1...3).contains(pep.release.count)
        else { return nil }
        let numbers: [String] = Array((pep.release + ["0", "0"])[0..<3])
        if pep.post != nil, pep.pre == nil {
            return try? SemanticVersion(parsing: "\(numbers[0]).\(numbers[1]).\(SemanticVersion.increment(numbers[2]))")
        }
        let phase =
            pep.pre.map {
                ["a": "-alpha.", "b": "-beta.", "rc": "-rc."][$0.phase.rawValue, default: "-rc."] + $0.number
            } ?? ""
        return try? SemanticVersion(parsing: numbers.joined(separator: ".") + phase)
    }

    /// A manifest's version as SemVer: as written, or a plain PEP 440 one (`1.2.0rc1` → `1.2.0-rc.1`);
    /// nil for what has no SemVer reading (epochs, post and dev releases).
    package static func semanticVersion(ofManifestText text: String) -> SemanticVersion? {
        if let version = try? SemanticVersion(parsing: text) { return version }
        guard let pep = PEP440Version(text), pep.post == nil, pep.dev == nil, pep.local == nil else { return nil }
        return releasableVersion(ofManifestText: text, comparison: .pep440)
    }

    /// The level the release takes: what the commits call for (`level`), raised by the change
    /// fragments (`[versioning] fragments`) and the changelog's newest section (`[versioning]
    /// changelog`, read by `compute`): the highest of them (changesets naming the package give
    /// the level in place of the commits', as `changeset version` does), then, below 1.0.0, Cargo's rule
    /// when `zero-major = "cargo"` (a feat gives a patch, a breaking change a minor) or a patch for
    /// any change when `zero-major = "patch"`, then the
    /// project's cadence (`minor` or `major` every release) outside a maintenance line. Each
    /// change of level is told in `notes`. `changeLevel` is what the changes alone call for
    /// (commits, fragments and changelog), `relctl plan`'s reason.
    package static func intendedLevel(
        _ commitLevel: Level, config: RelctlConfig, base: SemanticVersion?, rule: BranchRule?, commits: Int,
        changelog: ChangelogIntent? = nil, notes: inout [String]
    ) throws -> (level: Level, changeLevel: Level, literalMajor: Bool, namedByChangesets: Bool) {
        var level = commitLevel
        var literalMajor = false
        var namedByChangesets = false
        let belowOne = base.map { $0.major == "0" } ?? false
        let fragmentsDecide = config.versioning.fragments?.decidesLevel == true
        let fragmentsRelease = config.versioning.fragments?.releasesAlone == true
        if commits > 0 || fragmentsRelease, let fragments = try ChangeFragments.read(config: config) {
            namedByChangesets = fragmentsRelease
            let what = "\(fragments.count) change fragment\(fragments.count == 1 ? "" : "s") ([versioning] fragments = \"\(config.versioning.fragments?.rawValue ?? "")\")"
            if fragmentsDecide {
                // `changeset version` applies the changesets whatever the commits say; autopub
                // releases what the release file says.
                let commits = level == fragments.level ? "" : ", not the commits' \(level.rawValue)"
                let deciders =
                    switch config.versioning.fragments {
                    case .covector?: "the change files decide"
                    case .releaseFile?: "the release file decides"
                    default: "the changesets decide"
                    }
                notes.append(
                    "\(what): \(fragments.file) calls for a \(fragments.level.rawValue); \(deciders)\(commits)")
                level = fragments.level
            } else if level < fragments.level {
                notes.append(
                    "\(what): \(fragments.file) calls for a \(fragments.level.rawValue), above the commits' \(level.rawValue)")
                level = fragments.level
            }
            if fragments.literalMajor, level == .major, fragments.level == .major, belowOne {
                literalMajor = true
            }
        }
        if commits > 0, let changelog, let base, level < changelog.level(after: base) {
            let found = changelog.level(after: base)
            let said =
                switch changelog.finding {
                case .version(let version): "`\(changelog.heading)` names \(version)"
                case .level: "`\(changelog.section)` has entries under `\(changelog.heading)`"
                }
            notes.append(
                "\(changelog.file):\(changelog.line) \(said) ([versioning] changelog): calls for a \(found.rawValue), above the commits' \(level.rawValue)"
            )
            level = found
        }
        let changeLevel = level
        if config.versioning.zeroMajor == .cargo, belowOne, !literalMajor, level == .minor || level == .major {
            // At 0.0.z every release is already incompatible with the one before, as Cargo reads
            // it, and release-plz bumps the patch for a breaking change there too (charmbracelet's
            // cellbuf went 0.0.1 → 0.0.15 through its `!` commits).
            let belowMinor = base.map { $0.minor == "0" } ?? false
            let cargo: Level = level == .major && !belowMinor ? .minor : .patch
            notes.append(
                "below \(belowMinor ? "0.1.0" : "1.0.0") a \(level == .major ? "breaking change" : "feat") gives a \(cargo.rawValue) ([versioning] zero-major = \"cargo\")"
            )
            level = cargo
        }
        if config.versioning.zeroMajor == .patch, belowOne, !literalMajor, level > .patch {
            notes.append(
                "below 1.0.0 a \(level == .major ? "breaking change" : "feat") gives a patch ([versioning] zero-major = \"patch\"): a minor is the version the project writes"
            )
            level = .patch
        }
        // A changelog heading naming the next version is the maintainers' word: a minor it names stays one.
        let namedVersion: Bool
        if case .version(let named)? = changelog?.finding, let base, base < named { namedVersion = commits > 0 } else { namedVersion = false }
        if config.versioning.features == .patch, !belowOne, !namedVersion, !namedByChangesets, level == .minor {
            notes.append(
                "a feat gives a patch ([versioning] features = \"patch\"): a minor is the version the project writes")
            level = .patch
        }
        if config.versioning.features == .major, !belowOne, !namedVersion, !namedByChangesets, level == .minor {
            notes.append(
                "a feature steps the first number ([versioning] features = \"major\"): the project's versions have two numbers that count")
            level = .major
        }
        if config.versioning.breaking == .minor, !belowOne, level == .major {
            notes.append(
                "a breaking change gives a minor ([versioning] breaking = \"minor\"): a major is the version the project writes")
            level = .minor
        }
        var onLine = true
        if case .maintenance? = rule?.line { onLine = false }
        // A changelog heading naming the next version is the maintainer's word on its size: a
        // habit does not override it (GRDB's `GRDB6` line, minors five times, wrote `6.29.1`).
        if namedVersion { onLine = false }
        // Nor does it override changesets naming the package: `changeset version` makes the version
        // they say (stylelint, a minor five times, released its `patch` changesets as 17.9.1).
        if namedByChangesets { onLine = false }
        // Nor a section written ahead with entries whose headings state the level: serde_with, a
        // minor five times, listed one change under `### Fixed` and released 3.14.1.
        if commits > 0, case .level? = changelog?.finding { onLine = false }
        if onLine, let cadence = config.versioning.cadence, !cadence.isDated {
            let floor: Level = cadence == .major ? .major : .minor
            // Below 1.0.0 a major level is a minor step (`next`): a major cadence means 1.0.0.
            let steps = level == .major && belowOne && !literalMajor ? Level.minor : level
            if steps < floor {
                notes.append(
                    "every release is a \(floor.rawValue) ([versioning] cadence = \"\(cadence.rawValue)\"); the changes call for a \(level.rawValue)"
                )
                level = floor
                if floor == .major, belowOne { literalMajor = true }
            }
        }
        if commits > 0 { try goModuleRule(&level, literalMajor: &literalMajor, config: config, base: base, notes: &notes) }
        return (level, changeLevel, literalMajor, namedByChangesets)
    }

    /// Go's major version rule, last because Go enforces it: a module whose path has no `/v2`
    /// cannot release 2.0.0, so a breaking change gives a minor there (opentelemetry-go's
    /// `go.opentelemetry.io/otel` ships its breaking changes in 1.x minors); a path already
    /// changed to the next major's suffix (`…/v2` after 1.x) is that major's release.
    static func goModuleRule(
        _ level: inout Level, literalMajor: inout Bool, config: RelctlConfig, base: SemanticVersion?,
        notes: inout [String]
    ) throws {
        guard let base, let major = Int(base.major), let module = try GoModulePath.read(root: config.root) else {
            return
        }
        let raisesMajor = level == .major && (major > 0 || literalMajor)
        let next = String(major + 1)
        if raisesMajor, !base.isPrerelease, module.allows(major: base.major), !module.allows(major: next) {
            notes.append(
                "go.mod's module path `\(module.path)` cannot release \(next).0.0 (Go's major version rule): the breaking change gives a minor; to release \(next).0.0, change the path to `\(module.path(forMajor: next))`"
            )
            level = .minor
            literalMajor = false
        } else if level < .major, major > 0, !base.isPrerelease, module.suffixMajor == major + 1 {
            notes.append("go.mod's module path `\(module.path)` names major \(next): the next release is \(next).0.0")
            level = .major
        }
    }

    /// Why the changelog's pending section says nothing of the next release when its text stands
    /// as it did at `release` (nothing written to it since); nil when it changed or cannot be read.
    static func unchangedSince(
        _ release: ReleaseHistory.Release, changelog: ChangelogIntent, config: RelctlConfig, git: Git
    ) async -> String? {
        guard let path = config.versioning.changelog else { return nil }
        let root = config.repositoryRoot ?? config.root
        let location = config.resolve(path).standardizedFileURL.path
        // `git cat-file` reads `REV:./path` from git's own folder.
        let folder = git.directory.standardizedFileURL.path
        guard location.hasPrefix(folder + "/") else { return nil }
        let relative = String(location.dropFirst(folder.count + 1))
        let names: Set<String> = [config.project.name.lowercased()]
        guard let current = try? ProjectFile.open(location, in: root, what: "[versioning] changelog", shown: path).text(),
            let now = ChangelogIntent.pendingText(of: changelog, in: current, names: names),
            let old = await git.fileText(relative, at: release.commit),
            old.contains(now)
        else { return nil }
        return "\(changelog.file):\(changelog.line) `\(changelog.heading)` stands as it did at \(release.tag): nothing written since, so it says nothing of the next release"
    }

    /// `MAJOR.YY.M` (`[versioning] cadence = "year-month"`): the latest release's major (one above
    /// it for a breaking change), then the year (two digits) and the month of the commit released.
    /// A second release in a month the latest already names is its next patch (the month leaves no
    /// room for another number); a prerelease not below the date's version is promoted to its final.
    package static func yearMonthNext(after last: SemanticVersion?, commitTime: Int, newMajor: Bool) -> SemanticVersion {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let date = Date(timeIntervalSince1970: TimeInterval(commitTime))
        let (year, month) = (calendar.component(.year, from: date) % 100, calendar.component(.month, from: date))
        guard let last else { return SemanticVersion(major: 1, minor: year, patch: month) }
        var dated = last.final
        (dated.minor, dated.patch) = (String(year), String(month))
        if newMajor {
            dated.major = SemanticVersion.increment(last.major)
            return dated
        }
        if last < dated { return dated }
        return last.isPrerelease ? last.final : next(after: last.final, level: .patch)
    }

    /// Whether the newest final releases (three at least, six read) are each tagged with two
    /// numbers (PostgREST's `v14.10`): a project with no patch number.
    /// Whether the project's patch releases step by two from an even number: the six newest steps
    /// between finals of one minor line all do (Nim: `v1.6.0`, `v1.6.2` … `v1.6.20`; its 0.x
    /// releases, years older, stepped by one).
    static func stepsPatchesByTwo(_ history: ReleaseHistory) -> Bool {
        let finals = Array(history.releases.lazy.filter { !$0.version.isPrerelease }.prefix(60))
        var steps = 0
        for (newer, older) in zip(finals, finals.dropFirst())
        where newer.version.major == older.version.major && newer.version.minor == older.version.minor {
            guard let a = Int(newer.version.patch), let b = Int(older.version.patch), a - b == 2, a % 2 == 0 else {
                return false
            }
            steps += 1
            if steps == 6 { return true }
        }
        return false
    }

    static func spellsTwoNumbers(_ history: ReleaseHistory) -> Bool {
        let recent = Array(history.releases.lazy.filter { !$0.version.isPrerelease }.prefix(6))
        return recent.count >= 3
            && recent.allSatisfy { release in
                let text = release.tag.reversed().prefix(while: { $0.isNumber || $0 == "." })
                return text.split(separator: ".").count == 2 && text.first != "." && text.last != "."
            }
    }

    /// Whether three or more of the ten newest final releases are patches (a third number above
    /// zero) made on the line being released: the project ships fixes as patches under its year
    /// counter. Patches tagged on branches this line never merged (cloud-init's `24.1.x`, cut on
    /// its own branch while main counts on) are not the line's way.
    static func releasesPatches(_ history: ReleaseHistory, unmerged: Set<String>) -> Bool {
        history.releases.lazy.filter { !$0.version.isPrerelease }.prefix(10)
            .filter { $0.version.patch != "0" && !unmerged.contains($0.tag) }.count >= 3
    }

    /// `YY.N.0` (`[versioning] cadence = "year-counter"`): the year of the commit released (two
    /// or four digits, as the latest release writes it), and N one above the latest release's in
    /// that year, else the first number the project gives a year's first release (attrs' 1 in
    /// `24.1.0`, pip's 0 in `24.0`; 1 when no earlier year says).
    package static func yearCounterNext(
        after last: SemanticVersion?, commitTime: Int, history: ReleaseHistory
    ) -> SemanticVersion {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let year = calendar.component(.year, from: Date(timeIntervalSince1970: TimeInterval(commitTime)))
        let fullYear = last.map { $0.major.count >= 4 } ?? false
        let major = String(fullYear ? year : year % 100)
        guard let last else { return SemanticVersion(major: fullYear ? year : year % 100, minor: 1, patch: 0) }
        let lastYear = Int(last.major) ?? 0
        if let current = Int(major), current > lastYear {
            // How a year's first release is numbered, as the recent years did it: structlog's
            // 17.1.0 … 25.1.0 start at 1, its 0.x and 15.0.0/16.0.0 from before the calendar did not.
            let finals = history.releases.map(\.version).filter { !$0.isPrerelease && $0.major != last.major }
            let years = Dictionary(grouping: finals, by: \.major).compactMap { major, versions in
                Int(major).flatMap { year in versions.compactMap { Int($0.minor) }.min().map { (year, $0) } }
            }.filter { $0.0 <= lastYear }.sorted { $0.0 > $1.0 }.prefix(5)
            var votes: [Int: Int] = [:]
            for (_, first) in years { votes[first, default: 0] += 1 }
            // The most years' numbering; on a tie, the most recent year's.
            let first = years.first { votes[$0.1] == votes.values.max() }?.1 ?? 1
            var version = last.final
            (version.major, version.minor, version.patch) = (major, String(first), "0")
            return version
        }
        return next(after: last.final, level: .minor)
    }

    /// Applies the rules to one version. `majorBelowOne`: a major is a major below 1.0.0 too (a
    /// changeset's `major`, a major cadence), not a minor.
    package static func next(after current: SemanticVersion, level: Level, majorBelowOne: Bool) -> SemanticVersion {
        if majorBelowOne, level == .major, !current.isPrerelease, current.major == "0" {
            var version = current.final
            (version.major, version.minor, version.patch) = ("1", "0", "0")
            return version
        }
        return next(after: current, level: level)
    }

    /// Applies the rules to one version.
    package static func next(after current: SemanticVersion, level: Level) -> SemanticVersion {
        if current.isPrerelease {
            var next = current
            next.build = []
            if let index = next.prerelease.lastIndex(where: { $0.number != nil }),
                let number = next.prerelease[index].number
            {
                next.prerelease[index] = .numeric(String(number + 1))
            } else if case .alphanumeric(let word)? = next.prerelease.last,
                let glued = SemanticVersion.Identifier.glued(word)
            {
                // The project's spelling continues: `rc1` → `rc2`, not `rc1.1`.
                next.prerelease[next.prerelease.count - 1] = .alphanumeric(glued.name + String(glued.number + 1))
            } else {
                next.prerelease.append(.numeric("1"))
            }
            return next
        }
        let (major, minor, patch) = (current.major, current.minor, current.patch)
        // Digit strings, not Int: a version number past Int64 still moves up, never to 0.
        func version(_ a: String, _ b: String, _ c: String) -> SemanticVersion {
            var v = current.final
            (v.major, v.minor, v.patch) = (a, b, c)
            return v
        }
        switch level {
        case .major where major == "0", .minor:
            return version(major, SemanticVersion.increment(minor), "0")
        case .major:
            return version(SemanticVersion.increment(major), "0", "0")
        case .patch, .prerelease:
            return version(major, minor, SemanticVersion.increment(patch))
        }
    }

    /// Rewrites the version in every configured manifest and in its companions (lock entries,
    /// requirements and pins; see `Companion`), touching only the version text on its line (PEP 440
    /// spelling for Python manifests). A manifest already above `version` is an error, never
    /// lowered. Everything is checked before anything is written, and each file is replaced
    /// atomically. Returns the files written, relative to the root.
    ///
    /// A manifest that is a symlink is written through: the file it resolves to is updated (and
    /// keeps its own mode; the link stays a link) when it is inside the repository, and `onLink` is
    /// told so; a link that leaves the repository is refused before anything is written.
    @discardableResult
    public static func write(
        _ version: SemanticVersion, config: RelctlConfig, onLink: (String) -> Void = { _ in }
    ) throws -> [String] {
        try write(version, config: config, spelling: nil, released: nil, onLink: onLink)
    }

    /// `write` spelling calendar versions as `spelling` (learnt from tags; the manifest's own text
    /// adds to it) and refusing a version that `released` names, when anything would change.
    package static func write(
        _ version: SemanticVersion, config: RelctlConfig, spelling: VersionScheme.CalendarSpelling?,
        released: ReleasedVersions?, onLink: (String) -> Void = { _ in }
    ) throws -> [String] {
        try writeReporting(version, config: config, spelling: spelling, released: released, onLink: onLink).files
    }

    /// One version text `write` changed: where, what it is, and the text before and after.
    public struct WrittenVersion: Sendable, Equatable {
        /// Relative to the root, as messages show it.
        public var file: String
        public var line: Int
        /// "version" for a manifest's own; a companion's description otherwise
        /// ("requirement on `velo-core`", "Cargo.lock entry of `velo`").
        public var what: String
        public var old: String
        public var new: String
    }

    /// `write`, returning every text it changed (in the files it wrote) besides the files.
    package static func writeReporting(
        _ version: SemanticVersion, config: RelctlConfig, spelling: VersionScheme.CalendarSpelling?,
        released: ReleasedVersions?, extra: [PlannedEdit] = [], onLink: (String) -> Void = { _ in }
    ) throws -> (files: [String], changes: [WrittenVersion]) {
        let scheme = config.project.tagFormat.scheme
        struct Edit {
            var url: URL; var display: String; var line: Int; var old: String; var new: String
            var column: Int? = nil
            var what = "version"
            var planned = false
        }
        var edits: [Edit] = []
        func add(_ edit: Edit) {
            // One edit per place: two known columns on one line are two places (a minified lock).
            // A planned edit (a dependent's requirement) and a companion are one place only when
            // they replace the same text: the planned one, added first, wins.
            if edits.contains(where: {
                $0.url.standardizedFileURL == edit.url.standardizedFileURL && $0.line == edit.line
                    && ($0.column == nil || edit.column == nil || $0.column == edit.column)
                    && (!$0.planned || $0.old == edit.old)
            }) {
                return
            }
            edits.append(edit)
        }
        for planned in extra {
            add(
                Edit(
                    url: planned.url, display: CompanionFinder.display(planned.url, root: config.root),
                    line: planned.line, old: planned.old, new: planned.new, column: planned.column,
                    what: planned.what, planned: true))
        }
        for source in config.versions {
            let found = try ManifestReaders.read(source, config: config)
            let reader = try ManifestReaders.reader(for: source.kind)
            var spelled = version.description
            if reader.comparison == .pep440 {
                guard let pep = PEP440Version(semver: version) else {
                    throw NotesError.noPEP440Spelling(
                        path: found.foundIn, version: version.description,
                        reason: PEP440Version.refusal(for: version) ?? "it has no PEP 440 spelling")
                }
                spelled = pep.description
                // The file's own spelling where PEP 440 reads it alike: datasette's `1.0a37` is
                // 1.0.0-alpha.37 already, and its next, 1.0a38, leaves the zero out as it does.
                if let held = PEP440Version(found.text), held == pep {
                    spelled = found.text
                } else if PEP440Version(found.text)?.release.count == 2, pep.release.count == 3, pep.release[2] == "0" {
                    var short = pep
                    short.release.removeLast()
                    spelled = short.description
                }
            }
            if scheme == .calver, !["cargo", "npm"].contains(source.kind) {
                // The project's spelling (`2026.07.22`), not the normalised one: PEP 440 reads both
                // alike. Cargo and npm require SemVer, so their manifests never get padding.
                var learnt = VersionScheme.CalendarSpelling(learningFrom: [found.text])
                if let spelling, !learnt.contradicts(spelling, in: found.text) { learnt.merge(spelling) }
                let calendar = learnt.spell(version)
                if reader.comparison == .semver || PEP440Version(calendar).map({ $0 == PEP440Version(spelled) }) == true
                {
                    spelled = calendar
                }
            }
            if source.kind == "cargo", [version.major, version.minor, version.patch].contains(where: { UInt64($0) == nil })
            {
                throw VersionWriteError.beyondCargo(path: found.foundIn, line: found.line, version: version.description)
            }
            guard isOrderable(found.text) else {
                throw VersionWriteError.unorderable(path: found.foundIn, line: found.line, found: found.text)
            }
            if isBelow(version, manifestText: found.text, comparison: reader.comparison, scheme: scheme) {
                throw NotesError.wouldLower(
                    path: found.foundIn, line: found.line, found: found.text, version: version.description)
            }
            guard let line = found.line else {
                throw NotesError.versionLineUnknown(path: found.foundIn, found: found.text)
            }
            if let literal = found.tuple {
                // `version_info = (26, 1, 0)`: the tuple is rewritten in its own shape.
                guard let tuple = VersionTuple(literal: literal), let written = tuple.spelling(of: spelled) else {
                    throw VersionWriteError.tupleCannotHold(
                        path: found.foundIn, line: found.line, tuple: literal, version: spelled)
                }
                if written != literal {
                    add(
                        Edit(
                            url: config.resolve(found.foundIn), display: found.foundIn, line: line, old: literal,
                            new: written))
                }
            } else if found.text != spelled {
                add(
                    Edit(
                        url: config.resolve(found.foundIn), display: found.foundIn, line: line, old: found.text,
                        new: spelled))
            }
            for companion in try CompanionFinder.companions(of: source, found: found, root: config.root) {
                guard let expected = companion.expectedText(for: version, previous: found.text) else { continue }
                add(
                    Edit(
                        url: CompanionFinder.url(companion.file, root: config.root), display: companion.file,
                        line: companion.line, old: companion.text, new: expected, column: companion.column,
                        what: companion.what))
            }
        }
        // Right to left within a line, so a replacement never moves a column still to be edited.
        edits = edits.enumerated().sorted { left, right in
            guard left.element.url == right.element.url, left.element.line == right.element.line,
                let a = left.element.column, let b = right.element.column
            else { return left.offset < right.offset }
            return a > b
        }.map(\.element)
        var contents: [URL: String] = [:]
        var order: [(URL, String)] = []
        var linkNotes: [String] = []
        for edit in edits {
            let target = try WriteTarget(edit.url, display: edit.display, root: config.root)
            let key = target.url
            if let note = target.note, !linkNotes.contains(note) { linkNotes.append(note) }
            if contents[key] == nil {
                // `key` is WriteTarget's: resolved inside the repository, no link left on the way.
                guard let data = try ProjectFile.open(location: key, shown: edit.display).data() else {
                    throw ManifestError.missing(path: edit.display)
                }
                contents[key] = String(decoding: data, as: UTF8.self)
                order.append((key, target.display))
            }
            // Split on the "\n" byte, not the Character ("\r\n" is one Character): CRLF lines keep
            // their "\r", and line numbers agree with the readers', which count CRLF as one break.
            var lines = (contents[key] ?? "").utf8.split(
                separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false
            ).map { String(decoding: $0, as: UTF8.self) }
            guard edit.line >= 1, edit.line <= lines.count,
                let range = Self.range(of: edit.old, at: edit.column, in: lines[edit.line - 1])
            else {
                throw NotesError.versionNotOnLine(path: edit.display, line: edit.line, old: edit.old)
            }
            lines[edit.line - 1].replaceSubrange(range, with: edit.new)
            contents[key] = lines.joined(separator: "\n")
        }
        if !edits.isEmpty, let taken = released?.tag(naming: version) {
            throw VersionWriteError.alreadyReleased(version: version.description, tag: taken)
        }
        for note in linkNotes { onLink(note) }
        var written: [String] = []
        for (url, display) in order {
            guard let text = contents[url] else { continue }
            let original = try ProjectFile.open(location: url, shown: display).data().map {
                String(decoding: $0, as: UTF8.self)
            }
            if text != original {
                try AtomicFile.write(text, to: url, permissions: Self.permissions(of: url))
                written.append(display)
            }
        }
        let changes =
            edits
            .filter { edit in written.contains { $0 == edit.display } && edit.old != edit.new }
            .map { WrittenVersion(file: $0.display, line: $0.line, what: $0.what, old: $0.old, new: $0.new) }
            .sorted { ($0.file, $0.line) < ($1.file, $1.line) }
        return (written, changes)
    }

    /// `bump --write` in a repository: `write`, spelling calendar versions like the tags do and
    /// refusing a version that a tag names in any spelling (`bump --set 0.54.0` where `v0.54.0`
    /// shipped), before anything is written.
    @discardableResult
    public static func write(
        _ version: SemanticVersion, config: RelctlConfig, git: Git, onLink: (String) -> Void = { _ in }
    ) async throws -> [String] {
        try await writeReporting(version, config: config, git: git, onLink: onLink).files
    }

    /// `write(_:config:git:)`, returning every version text it changed as well.
    public static func writeReporting(
        _ version: SemanticVersion, config: RelctlConfig, git: Git, onLink: (String) -> Void = { _ in }
    ) async throws -> (files: [String], changes: [WrittenVersion]) {
        try await writeReporting(version, config: config, git: git, extra: [], onLink: onLink)
    }

    /// The same, with `extra` edits made in the same checked, atomic pass (a workspace member's
    /// release rewriting its dependents' requirements).
    package static func writeReporting(
        _ version: SemanticVersion, config: RelctlConfig, git: Git, extra: [PlannedEdit],
        onLink: (String) -> Void = { _ in }
    ) async throws -> (files: [String], changes: [WrittenVersion]) {
        let tags = await (try? git.isRepository()) == true ? try await git.tagList() : []
        let history = ReleaseHistory(tags: tags, format: ReleaseHistory.format(of: config))
        return try writeReporting(
            version, config: config, spelling: history.format.calendarSpelling, released: history.released,
            extra: extra, onLink: onLink)
    }

    /// A text to replace beside the manifests and companions: where (a column when known), the
    /// text there and its replacement, and what it is for messages.
    package struct PlannedEdit: Sendable, Equatable {
        package var url: URL
        package var line: Int
        package var column: Int?
        package var old: String
        package var new: String
        package var what: String

        package init(url: URL, line: Int, column: Int?, old: String, new: String, what: String) {
            (self.url, self.line, self.column, self.old, self.new, self.what) = (url, line, column, old, new, what)
        }
    }

    /// `text` at UTF-8 offset `column` of `line` when that is where it is, else found by `versionRange`.
    package static func range(of text: String, at column: Int?, in line: String) -> Range<String.Index>? {
        if let column {
            let utf8 = line.utf8
            if let start = utf8.index(utf8.startIndex, offsetBy: column, limitedBy: utf8.endIndex),
                let end = utf8.index(start, offsetBy: text.utf8.count, limitedBy: utf8.endIndex),
                line[start..<end] == text
            {
                return start..<end
            }
        }
        return versionRange(of: text, in: line)
    }

    /// Where the version `text` sits on `line`: a whole occurrence (not part of a longer version or
    /// word), preferring the first after the word "version", so a dependency on the same line
    /// (`{"dependencies":{"a":"^1.0.0"},"version":"1.0.0"}`) keeps its text.
    package static func versionRange(of text: String, in line: String) -> Range<String.Index>? {
        func isVersionCharacter(_ character: Character?) -> Bool {
            guard let character else { return false }
            return character.isLetter || character.isNumber || ".-+_".contains(character)
        }
        var whole: [Range<String.Index>] = []
        var searchStart = line.startIndex
        while let found = line.range(of: text, range: searchStart..<line.endIndex) {
            let before = found.lowerBound == line.startIndex ? nil : line[line.index(before: found.lowerBound)]
            let after = found.upperBound == line.endIndex ? nil : line[found.upperBound]
            if !isVersionCharacter(before), !isVersionCharacter(after) { whole.append(found) }
            searchStart = line.index(after: found.lowerBound)
        }
        if let keyword = line.range(of: "version", options: .caseInsensitive),
            let afterKeyword = whole.first(where: { $0.lowerBound >= keyword.upperBound })
        {
            return afterKeyword
        }
        return whole.first ?? line.range(of: text)
    }

    private static func permissions(of url: URL) -> Int {
        FileSystem.permissions(of: url) ?? 0o644
    }
}

/// The bump level and count of a range's commits, taken as `git log` streams them: merges are left
/// out and reverts settled at the end (`RevertLedger`), as the notes do, so both count the same
/// changes. Only the names of commits that raise the level and of merges are kept.
package struct BumpCollector: Sendable {
    private var ledger = RevertLedger()
    private var raising: [(name: CommitName, level: VersionBump.Level, subject: String)] = []
    /// Commits without a type whose subject adds something (`UntypedSubject.adds`), newest first.
    private var adding: [(name: CommitName, subject: String)] = []
    private var merges: Set<CommitName> = []
    private var nonMerges = 0
    /// How many of the commits (merges aside) carry a Conventional Commits type.
    package private(set) var typed = 0
    /// Dependency updates a bot wrote (`build(deps): Bump x from 1.2 to 1.3`, `Update module
    /// golang.org/x/net to v0.30.0`), and how many of them carry a type: they say nothing of how
    /// the project's people write subjects (tflint: 207 of its 243 typed subjects were dependabot's).
    package private(set) var dependencyUpdates = 0
    private var typedDependencyUpdates = 0
    /// Commits whose scope names a level (`fix(minor): …`), newest first: `[versioning] scope-levels`.
    private var scoped: [(name: CommitName, level: VersionBump.Level, subject: String)] = []
    /// Commits `git cherry-pick -x` copied from another line (`(cherry picked from commit …)`).
    private var backported: Set<CommitName> = []
    /// The newest commit's `Release-As: 1.18.3` footer (release-please's way to name a version).
    package private(set) var releaseAs: (name: String, subject: String, version: SemanticVersion)?

    package init() {}

    package mutating func add(_ commit: GitCommitRecord) {
        ledger.add(commit)
        guard !commit.isMerge else {
            merges.insert(CommitName(commit.hash))
            return
        }
        nonMerges += 1
        // `git log` lists newest first: the first footer met is the newest.
        if releaseAs == nil, commit.body.localizedCaseInsensitiveContains("release-as:"),
            let version = Self.releaseAs(in: commit.body)
        {
            releaseAs = (commit.hash, commit.subject, version)
        }
        let update = Self.isDependencyUpdate(commit.subject)
        if update { dependencyUpdates += 1 }
        // An area prefix in Go's style (tflint's `config: add ignorable rule setting`, `plugin:
        // fetch …`) parses as a type but names none: an untyped subject, its words read as such.
        guard let parsed = ConventionalCommit(subject: commit.subject, body: commit.body),
            parsed.isBreaking || parsed.scope != nil || Self.changeTypes.contains(parsed.type)
                || VersionBump.Level(rawValue: parsed.type) != nil
        else {
            if !update, UntypedSubject.adds(commit.subject) { adding.append((CommitName(commit.hash), commit.subject)) }
            return
        }
        typed += 1
        if update { typedDependencyUpdates += 1 }
        if commit.body.contains("(cherry picked from commit ") { backported.insert(CommitName(commit.hash)) }
        if let scope = parsed.scope?.lowercased(), let level = VersionBump.Level(rawValue: scope) {
            scoped.append((CommitName(commit.hash), level, commit.subject))
        } else if let level = VersionBump.Level(rawValue: parsed.type.lowercased()), level != .prerelease {
            // reckon's commit-message scopes name the level as the type (`minor: Support …`).
            scoped.append((CommitName(commit.hash), level, commit.subject))
        }
        if parsed.isBreaking {
            raising.append((CommitName(commit.hash), .major, commit.subject))
        } else if parsed.type == "feat" {
            raising.append((CommitName(commit.hash), .minor, commit.subject))
        }
    }

    /// The oldest commit (not reverted) that calls for `level` or more, for a message naming it.
    package func raisingCommit(at level: VersionBump.Level) -> (name: String, subject: String)? {
        let cancelled = ledger.cancelled()
        // `git log` lists newest first: the last match is the oldest. At or above the level: a
        // rule may have lowered the commits' (a Go module's breaking change gives a minor).
        return raising.last { $0.level >= level && !cancelled.contains($0.name) }.map {
            ($0.name.description, $0.subject)
        }
    }

    /// The version a `Release-As: X.Y.Z` footer line names (any case, an optional `v`).
    static func releaseAs(in body: String) -> SemanticVersion? {
        for line in body.split(separator: "\n").reversed() {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard text.lowercased().hasPrefix("release-as:") else { continue }
            var value = text.dropFirst("release-as:".count).trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("v") { value.removeFirst() }
            return try? SemanticVersion(parsing: value)
        }
        return nil
    }

    /// Whether every commit (not reverted) calling for `level` or more was cherry-picked from
    /// another line (`git cherry-pick -x`'s `(cherry picked from commit …)`); false when none does.
    package func raisedOnlyByBackports(at level: VersionBump.Level) -> Bool {
        let cancelled = ledger.cancelled()
        let raisingHere = raising.filter { $0.level >= level && !cancelled.contains($0.name) }
        return !raisingHere.isEmpty && raisingHere.allSatisfy { backported.contains($0.name) }
    }

    /// The commits (not reverted) that call for a minor or more, with their level.
    package func raisingCommits() -> [(name: String, level: VersionBump.Level)] {
        let cancelled = ledger.cancelled()
        return raising.filter { !cancelled.contains($0.name) }.map { ($0.name.description, $0.level) }
    }

    /// The highest level a commit's scope names (not reverted), and the oldest commit naming it.
    package func scopeLevel() -> (level: VersionBump.Level, name: String, subject: String)? {
        let cancelled = ledger.cancelled()
        let kept = scoped.filter { !cancelled.contains($0.name) }
        guard let level = kept.map(\.level).max(), let oldest = kept.last(where: { $0.level == level }) else { return nil }
        return (level, oldest.name.description, oldest.subject)
    }

    /// The oldest commit (not reverted) without a type whose subject adds something.
    package func addingCommit() -> (name: String, subject: String)? {
        let cancelled = ledger.cancelled()
        return adding.last { !cancelled.contains($0.name) }.map { ($0.name.description, $0.subject) }
    }

    /// The level the commits call for (patch when none raises it) and how many count; with
    /// `untypedAdds`, a commit without a type that adds something calls for a minor
    /// (`[versioning] untyped-adds = "minor"`).
    /// The words a subject's prefix uses as a change type (the Conventional Commits presets' and
    /// the spellings projects use for them); any other prefix without a scope or `!` names an area.
    static let changeTypes: Set<String> = [
        "feat", "fix", "docs", "doc", "style", "refactor", "perf", "test", "tests", "build", "ci", "chore", "revert",
        "deps", "dep", "security", "release", "feature", "features", "bugfix", "bugfixes", "bug", "hotfix", "breaking",
        "enhancement", "enhancements", "improvement", "improvements", "wip", "types", "typo", "i18n", "l10n", "dev",
        "meta", "misc", "internal", "infra", "cleanup", "lint", "format", "update", "upgrade", "add", "remove",
        "new", "change", "changed", "removed", "deprecate", "deprecated", "deprecation", "fixed", "added", "bench",
        "example", "examples", "merge", "version", "bump",
        "minor", "major", "patch", "note", "notes", "changelog",
    ]

    /// Whether most of `count` commits carry no type, dependency updates left out of both sides.
    package func mostlyUntyped(count: Int) -> Bool {
        (typed - typedDependencyUpdates) * 2 < count - dependencyUpdates
    }

    /// A dependency bot's subject: a `deps` scope (`build(deps): Bump …`, `chore(deps-dev): update
    /// …`, `fix(deps): update module …`), dependabot's `Bump x from 1.2 to 1.3` or renovate's
    /// `Update dependency x to v2` / `Update module x to v0.30.0`.
    static func isDependencyUpdate(_ subject: String) -> Bool {
        // Every commit of a range asks: the regular expressions only where a cheap look says they
        // may match (they made `bump` on libgit2's 548 commits 27% slower).
        let head = subject.utf8.prefix(8).map { $0 | 0x20 }
        let verbs = ["bump ", "update ", "upgrade ", "pin ", "lock "].map { Array($0.utf8) }
        guard verbs.contains(where: { head.starts(with: $0) })
            || ["(dep", "(renovate"].contains(where: { subject.range(of: $0, options: .caseInsensitive) != nil })
        else { return false }
        let lower = subject.lowercased()
        if lower.firstMatch(of: /^[a-z]+\((deps|deps-dev|dependencies|dependabot|renovate)[^)]*\)!?:/) != nil { return true }
        if lower.firstMatch(of: /^(bump|update|upgrade) \S+ from \S+ to \S+/) != nil { return true }
        return lower.firstMatch(
            of: /^(update|pin|lock) (dependency|dependencies|module|rust crate|docker tag|helm release|github action|actions|go|golang|all)\b.* to v?[0-9]/) != nil
    }

    package func finish(untypedAdds: Bool = false) -> (level: VersionBump.Level, count: Int) {
        let cancelled = ledger.cancelled()
        var level = raising.filter { !cancelled.contains($0.name) }.map(\.level).max() ?? .patch
        if untypedAdds, level < .minor, addingCommit() != nil { level = .minor }
        return (level, nonMerges - cancelled.subtracting(merges).count)
    }
}

/// What the members of a workspace share when their bumps are computed together (`VersionPlan`):
/// the current branch, read once, and the changes since a release from one walk of the history
/// (`SharedHistoryWalk`); `changes` answers nil where the bump walks its own.
package struct SharedBumpInputs: Sendable {
    package var currentBranch: String?
    package var changes: @Sendable (ReleaseHistory.Release?) -> (BumpCollector, ReleaseHistory.Walk)?

    package init(
        currentBranch: String?,
        changes: @escaping @Sendable (ReleaseHistory.Release?) -> (BumpCollector, ReleaseHistory.Walk)?
    ) {
        self.currentBranch = currentBranch
        self.changes = changes
    }
}
