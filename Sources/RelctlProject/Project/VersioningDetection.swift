import Foundation
import RelctlBasics
import RelctlChanges
import RelctlModel
import Synchronization

/// What `relctl init` reads of the project's intent besides its commit subjects, written as
/// `[versioning]` (docs/versions.md): change fragments in the tree, Cargo's 0.x rule in the
/// releases of a Cargo project, and a cadence the recent releases keep.
package struct VersioningFindings: Equatable, Sendable {
    package var fragments: (kind: VersioningSettings.Fragments, why: String)?
    /// The changelog whose newest section is ahead of the latest release, and what it says.
    package var changelog: (path: String, why: String)?
    package var zeroMajor: (kind: VersioningSettings.ZeroMajor, why: String)?
    /// `breaking = "minor"`, and why.
    package var breakingAsMinor: String?
    /// `features = "patch"`, and why.
    package var featuresAsPatches: String?
    /// `features = "major"` (two numbers that count: a feature steps the first), and why.
    package var featuresAsMajors: String?
    /// `untyped-adds = "minor"`, and why.
    package var untypedAddsAsMinors: String?
    package var cadence: (kind: VersioningSettings.Cadence, why: String)?
    /// `scope-levels = true` (semantic-release's `releaseRules` keyed by a scope naming a level), and why.
    package var scopeLevels: String?
    /// The checked-out branch is a maintenance line (axios' `v0.x` while 1.x ships from `main`):
    /// the `[[branch]]` range init writes for it (docs/branches.md).
    package var maintenance: (branch: String, range: VersionRange, why: String)?
    /// Why the maintenance line keeps in its range what its commits call beyond it
    /// (`keep-in-range = true`): a release of the line already did.
    package var keepsInRange: String?
    /// A workspace's members on the maintenance branch init ran on, one entry a range: vite's
    /// `v6.2` is a 6.2.x line of `vite` only, its plugins release from `main`.
    package var memberMaintenance: [MemberLine] = []
    /// The checked-out branch when it is the project's main line under a name other than `main`
    /// or `master` (marshmallow's `dev`, jinja's `stable`, the clone's default branch).
    package var mainLine: String?

    package struct MemberLine: Equatable, Sendable {
        package var branch: String
        package var range: VersionRange
        package var why: String
        package var members: [String]
    }

    package init() {}

    package var isEmpty: Bool {
        fragments == nil && changelog == nil && zeroMajor == nil && breakingAsMinor == nil && featuresAsPatches == nil && untypedAddsAsMinors == nil
            && cadence == nil && featuresAsMajors == nil && scopeLevels == nil
    }

    package static func == (a: VersioningFindings, b: VersioningFindings) -> Bool {
        a.fragments?.kind == b.fragments?.kind && a.fragments?.why == b.fragments?.why
            && a.changelog?.path == b.changelog?.path && a.changelog?.why == b.changelog?.why && a.zeroMajor?.kind == b.zeroMajor?.kind
            && a.zeroMajor?.why == b.zeroMajor?.why
            && a.cadence?.kind == b.cadence?.kind && a.cadence?.why == b.cadence?.why
            && a.maintenance?.branch == b.maintenance?.branch && a.maintenance?.range == b.maintenance?.range
            && a.maintenance?.why == b.maintenance?.why && a.memberMaintenance == b.memberMaintenance
            && a.mainLine == b.mainLine && a.keepsInRange == b.keepsInRange && a.breakingAsMinor == b.breakingAsMinor
            && a.featuresAsPatches == b.featuresAsPatches && a.untypedAddsAsMinors == b.untypedAddsAsMinors
            && a.featuresAsMajors == b.featuresAsMajors && a.scopeLevels == b.scopeLevels
    }

    /// The branch init ran on when it is a maintenance line of the project or of some members.
    package var maintenanceBranch: String? { maintenance?.branch ?? memberMaintenance.first?.branch }

    /// `[release] branches`: `main` and `master`, and the branch init ran on when it is the
    /// project's main line under another name or a maintenance line.
    package var releaseBranches: [String] {
        var branches = ["main", "master"]
        for branch in [mainLine, maintenanceBranch].compactMap(\.self) where !branches.contains(branch) {
            branches.append(branch)
        }
        return branches
    }

    /// The `[[branch]]` table for a maintenance branch init ran on; empty when it is none.
    package var renderedBranch: String {
        var text = ""
        if let maintenance {
            text += "# \(maintenance.why) (docs/branches.md).\n[[branch]]\nname = \(QuotedString.basic(maintenance.branch))\nrange = \(QuotedString.basic(maintenance.range.description))\n"
            if let keepsInRange { text += "keep-in-range = true   # \(keepsInRange)\n" }
            text += "\n"
        }
        for line in memberMaintenance {
            text += "# \(line.why) (docs/branches.md).\n[[branch]]\nname = \(QuotedString.basic(line.branch))\nrange = \(QuotedString.basic(line.range.description))\n"
            text += "members = [\(line.members.map(QuotedString.basic).joined(separator: ", "))]\n\n"
        }
        return text
    }

    /// The `[versioning]` table, each key with why it was written; empty when nothing was found.
    package var rendered: String {
        guard !isEmpty else { return "" }
        var text = "# What the project records of its next release's size besides its commits (docs/versions.md).\n"
        text += "[versioning]\n"
        if let fragments { text += "fragments = \"\(fragments.kind.rawValue)\"   # \(fragments.why)\n" }
        if let changelog { text += "changelog = \(QuotedString.basic(changelog.path))   # \(changelog.why)\n" }
        if let zeroMajor { text += "zero-major = \"\(zeroMajor.kind.rawValue)\"   # \(zeroMajor.why)\n" }
        if let breakingAsMinor { text += "breaking = \"minor\"   # \(breakingAsMinor)\n" }
        if let featuresAsPatches { text += "features = \"patch\"   # \(featuresAsPatches)\n" }
        if let featuresAsMajors { text += "features = \"major\"   # \(featuresAsMajors)\n" }
        if let untypedAddsAsMinors { text += "untyped-adds = \"minor\"   # \(untypedAddsAsMinors)\n" }
        if let cadence { text += "cadence = \"\(cadence.kind.rawValue)\"   # \(cadence.why)\n" }
        if let scopeLevels { text += "scope-levels = true   # \(scopeLevels)\n" }
        return text + "\n"
    }
}

package enum VersioningDetection {
    /// How many of the latest releases must keep a cadence for `init` to write it.
    package static let cadenceReleases = 6

    /// What the repository at `root` records: `format` is the tag format init chose, `cargo`
    /// whether the project is a Cargo package. `git` nil outside a repository (fragments only).
    package static func detect(
        root: URL, git: Git?, tags: [GitTag], format: TagFormat?, cargo: Bool, project: String = ""
    ) async -> VersioningFindings {
        var found = VersioningFindings()
        found.fragments = fragments(root: root)
        found.scopeLevels = semanticReleaseScopeLevels(root: root)
        let branch = try? await git?.currentBranch()
        if let git, let branch {
            found.mainLine = await mainLine(branch: branch, git: git)
        }
        guard let git, let format, !tags.isEmpty else { return found }
        // Run in a member's folder, the commits read are the folder's, as `plan` counts them:
        // bloc's `packages/bloc` read its releases' `feat(vscode)`, `feat(intellij)` as its own
        // and wrote `features = "patch"`.
        let paths = HistoryPaths(folder: (try? await git.prefixFromTop()) ?? "")
        var history = ReleaseHistory(tags: tags, format: format, paths: paths)
        // A stray tag above its own line (futures-rs' `1.20`) is no release of it: the maintenance
        // branch `0.1` is a line below main's 0.3.33, not the holder of the highest release.
        if let top = history.releases.first(where: { !$0.version.isPrerelease }), await history.isStray(top, git: git) {
            history = ReleaseHistory(tags: tags.filter { $0.name != top.tag }, format: format, paths: paths)
        }
        if let latest = history.latest { found.changelog = changelog(root: root, latest: latest, project: project) }
        let unmerged = (try? await git.tagNames(notMergedInto: "HEAD")) ?? []
        // The releases this branch made, newest version first: a maintenance branch's patches
        // (wasmtime's 30.0.1 on release-30.0.0) are not the cadence of the branch.
        // Releases tagged off the branch above all it holds are the line's own all the same
        // (lexical tags each minor on a commit main never merges; jQuery each release, patches
        // too: leaving its patches out made a run of minors of 3.0.0 … 3.5.0).
        let mergedTop = history.releases.first { !$0.version.isPrerelease && !unmerged.contains($0.tag) }?.version
        let finals = history.releases.filter { release in
            guard !release.version.isPrerelease else { return false }
            guard unmerged.contains(release.tag) else { return true }
            return mergedTop.map { release.version > $0 } ?? true
        }
        // Under calendar versions only attrs' year counter is a cadence (it decides before the month).
        found.cadence = cadence(finals)
        if format.scheme == .calver, found.cadence?.kind != .yearCounter { found.cadence = nil }
        // A year counter is the series' own count, wherever each release was tagged: tzdata tags
        // 2025.1 … 2025.3 on release branches main never merges, and main alone reads 2022.7 → 2023.4.
        if format.scheme == .calver, found.cadence == nil,
            let all = cadence(history.releases.filter { !$0.version.isPrerelease }), all.kind == .yearCounter
        {
            found.cadence = all
        }
        // The project's own words (hynek's svcs, attrs, structlog: "The **first number** of the
        // version is the year. The **second number** is incremented with each release, starting
        // at 1 for each year.") say it before two years of tags can: svcs' 23.1.0 … 23.21.0 of 2023.
        if found.cadence?.kind.isDated != true, format.scheme != .calver, let latest = finals.first,
            let said = yearCounterStated(root: root, latest: latest)
        {
            found.cadence = (.yearCounter, said)
        }
        // Typed commits that explain the minors make the cadence needless, unless the run of minors
        // is long enough to be the project's rule (otelhttp: v0.47.0 … v0.61.0, no patch in two
        // years, while its `feat` subjects explained the last steps and a fix-only range got a patch).
        // A long run each of whose steps a feat explains is no rule either (python-genai's v2.1.0 …
        // v2.12.0 under release-please, every range with feats, its v1 fix-only ranges patches):
        // there the fix-only 2.12.1 followed.
        var maintenance: (branch: String, range: VersionRange, why: String)?
        if let branch {
            let offBranch = await releasedOffBranch(branch: branch, history: history, unmerged: unmerged, git: git)
            maintenance = maintenanceLine(
                branch: branch, history: history, unmerged: unmerged.subtracting(offBranch), tagNames: tags.map(\.name))
        }
        // A maintenance line takes the steps its range allows, not the main line's cadence; the
        // readings of its commits below then run as on any line without one, and the walks that
        // test a minor cadence are not made (cloudnative-pg's `release-1.28`: eleven of them were
        // 6 s of init's 6.5 s).
        if maintenance != nil, found.cadence?.kind.isDated != true { found.cadence = nil }
        // On a maintenance line the changelog is ahead of the line's latest release, not of the
        // repository's: monolog's `2.x` heads `### 2.6.0 (2022-05-10)` while main has tagged 3.x,
        // PHP-Parser's `4.x` its `Version 4.19.0` beside v5.
        if found.changelog == nil, let range = maintenance?.range,
            let lineLatest = history.releases.first(where: { !$0.version.isPrerelease && range.contains($0.version) })
        {
            found.changelog = changelog(root: root, latest: lineLatest, project: project)
        }
        if found.cadence?.kind == .minor {
            let run = minorRun(finals)
            let explained =
                run < longMinorRun
                ? await commitsExplainMostSteps(Array(finals.prefix(cadenceReleases)), history: history, git: git)
                : await commitsExplainEveryStep(Array(finals.prefix(min(run, longMinorRun))), history: history, git: git)
            if explained { found.cadence = nil }
        }
        // Cargo's 0.x rule is read from any project's 0.x releases: an npm package or a chart
        // below 1.0.0 ships feats as patches as often as a crate does (tonic, vite's plugin-rsc,
        // fluent-bit's chart). Not where changesets decide the level: a `minor` changeset is
        // a minor below 1.0.0 too. Outside Cargo only while the project is below 1.0.0: the rule
        // changes nothing above it, and reading each old 0.x step is a walk of the history.
        if found.fragments?.kind == .knope, history.latest?.version.major == "0" {
            found.zeroMajor = (.cargo, knopeZeroMajor)
        } else if history.latest?.version.major == "0", let releasePlease = releasePleaseZeroMajor(root: root) {
            found.zeroMajor = (.cargo, releasePlease)
        } else if found.cadence == nil, format.scheme != .calver, found.fragments?.kind.decidesLevel != true,
            cargo || finals.first?.version.major == "0"
        {
            if let releasePlz = cargo ? releasePlzZeroMajor(root: root) : nil {
                if await featsReleasedAsMinors(finals, history: history, git: git) != true {
                    found.zeroMajor = (.cargo, releasePlz)
                }
            } else {
                found.zeroMajor = await cargoZeroMajor(finals, history: history, git: git, cargo: cargo).map { (.cargo, $0) }
            }
        }
        // The changelog read for the next release also shows how features shipped below 1.0.0.
        if found.zeroMajor == nil, found.cadence == nil, history.latest?.version.major == "0" {
            // towncrier's notes are written at release time, so they are no `changelog` to read
            // ahead of one, but they show how the 0.x releases shipped all the same.
            let notes = found.fragments?.kind == .towncrier ? try? ChangeFragments.towncrierNotes(root: root) : nil
            for path in [found.changelog?.path, notes].compactMap(\.self) where found.zeroMajor == nil {
                found.zeroMajor = changelogZeroMajor(root: root, path: path)
            }
        }
        // The same notes show how breaking changes shipped at 1.0.0 and above (under a minor
        // cadence too: a breaking change would still make a major there).
        if found.cadence == nil || found.cadence?.kind == .minor, let latest = history.latest?.version, latest.major != "0",
            found.fragments?.kind.decidesLevel != true
        {
            let notes = found.fragments?.kind == .towncrier ? try? ChangeFragments.towncrierNotes(root: root) : nil
            for path in [found.changelog?.path, notes].compactMap(\.self) where found.breakingAsMinor == nil {
                found.breakingAsMinor = changelogBreakingAsMinor(root: root, path: path)
            }
        }
        // One walk over the span the two readings below read first: a span of typed commits with no
        // feat has no step of one, and a mostly typed span no step of mostly untyped ones (each step
        // read is a walk of the history).
        let recent = Array(finals.prefix(stepsRead))
        let span =
            found.cadence == nil && format.scheme != .calver && found.fragments?.kind.decidesLevel != true
                && recent.count > featurePatchesNeeded
            ? await addedCommits(from: recent[recent.count - 1], to: recent[0], history: history, git: git) : nil
        let (spanLevel, spanCount) = span?.finish() ?? (.patch, 0)
        let spanTyped = !(span?.mostlyUntyped(count: spanCount) ?? false)
        // The typed history of the releases at 1.0.0 and above shows how features shipped.
        if let latest = history.latest?.version, latest.major != "0", spanTyped, spanLevel >= .minor {
            found.featuresAsPatches = await featuresReleasedAsPatches(finals, history: history, git: git)
        }
        // The untyped releases show what a subject adding something made.
        // Not on a maintenance line, whose range holds its releases to patches: PyGithub's
        // `release-v2-6` shipped "Add `CodeSecurityConfigRepository`" in 2.6.1.
        if span != nil, !spanTyped, span?.addingCommit() != nil, found.featuresAsPatches == nil, maintenance == nil {
            found.untypedAddsAsMinors = await untypedAddsReleasedAsMinors(finals, history: history, git: git)
        }
        // Two numbers that count (WeasyPrint's `v64.1` → `v65.0`): a fix steps the second number
        // (a minor of the three relctl reads), a feature the first. After the readings above, which
        // read the steps as three numbers: its untyped "Add …" subjects still say a feature.
        if maintenance == nil, format.scheme != .calver, found.fragments?.kind.decidesLevel != true,
            let why = twoNumberSteps(finals)
        {
            found.cadence = (.minor, why + ": a fix steps the second")
            found.featuresAsMajors = why + ": a feature steps the first"
            found.featuresAsPatches = nil
        }
        if branch != nil {
            found.maintenance = maintenance
            // A maintenance line takes the steps its range allows, not the main line's cadence.
            if found.maintenance != nil, found.cadence?.kind.isDated != true { found.cadence = nil }
            if found.maintenance != nil { found.mainLine = nil }
            if let line = found.maintenance {
                found.keepsInRange = await keepsInRange(line.range, finals: finals, unmerged: unmerged, history: history, git: git)
                if found.keepsInRange == nil { found.keepsInRange = releasePleaseBumpsPatch(root: root) }
                if found.keepsInRange == nil {
                    found.keepsInRange = await siblingLinesKeepRange(line.range, history: history, git: git)
                }
            }
        }
        return found
    }

    /// semantic-release's `releaseRules` releasing a scope that names a level as that level
    /// (`- scope: 'minor'` / `release: minor`, `{"scope": "minor", "release": "minor"}`), in its
    /// configuration files or a workflow writing one (package-benchmark echoes its `.releaserc.yml`
    /// in `.github/workflows/semantic-release.yml`): the file, for the note; nil when none says so.
    /// At most 40 workflow files of 256 KiB each are read.
    static func semanticReleaseScopeLevels(root: URL) -> String? {
        var files = [
            ".releaserc", ".releaserc.json", ".releaserc.yaml", ".releaserc.yml", ".releaserc.js", ".releaserc.cjs",
            "release.config.js", "release.config.cjs", "release.config.mjs", "package.json",
        ]
        let workflows = ".github/workflows"
        for name in ((try? FileSystem.names(in: root.appendingPathComponent(workflows))) ?? []).sorted().prefix(40)
        where name.hasSuffix(".yml") || name.hasSuffix(".yaml") {
            files.append(workflows + "/" + name)
        }
        let rule = #/(?i)["']?scope["']?\s*:\s*["']?(major|minor|patch)["']?\s*,?\s*["']?release["']?\s*:\s*["']?(major|minor|patch)\b/#
        for path in files {
            guard let file = try? ProjectFile.open(path, in: root), file.isRegularFile,
                case .whole(let data)? = file.data(limit: 256 * 1024)
            else { continue }
            let text = TextFile.decode(data)
            guard text.contains("releaseRules") else { continue }
            let named = text.matches(of: rule).filter { $0.1.lowercased() == $0.2.lowercased() }
            if Set(named.map { $0.1.lowercased() }).count >= 2 {
                return "\(path): semantic-release's releaseRules release a commit whose scope names a level (`fix(minor): …`) as that level"
            }
        }
        // reckon (Gradle): `calcScopeFromCommitMessages()` reads `major: …`, `minor: …` subjects.
        for path in ["settings.gradle.kts", "settings.gradle", "build.gradle.kts", "build.gradle"] {
            guard let file = try? ProjectFile.open(path, in: root), file.isRegularFile,
                case .whole(let data)? = file.data(limit: 256 * 1024),
                TextFile.decode(data).contains("calcScopeFromCommitMessages")
            else { continue }
            return "\(path): reckon's calcScopeFromCommitMessages releases a commit whose subject names a level (`minor: …`) as that level"
        }
        return nil
    }

    /// The commits of one `git log older..newer`, no paths, no bases: what a maintenance line's
    /// steps are read from (`keepsInRange`, `siblingLinesKeepRange`); nil when git cannot say.
    static func branchCommits(
        from older: ReleaseHistory.Release, to newer: ReleaseHistory.Release, git: Git
    ) async -> BumpCollector? {
        guard let log = try? await git.runUnchecked(["log", "-z", Git.logFormat, "\(older.commit)..\(newer.commit)"]),
            log.succeeded
        else { return nil }
        var collector = BumpCollector()
        for record in Git.parseLog(log.stdout) { collector.add(record) }
        return collector
    }

    /// How many of a maintenance line's newest releases are read for `keepsInRange`.
    package static let keptReleases = 6

    /// Whether a maintenance line already shipped, inside its range, changes that called for
    /// more (traefik's chart released 39.0.1 from a `feat(deployment): …` on `v39.0`; libc 0.2.x
    /// its `feat`s): then the line keeps its range (`keep-in-range = true`), and `bump` proposes
    /// the step inside it instead of refusing. The line's own releases only (on this branch),
    /// up to `keptReleases`; nil when none did so. Also a line whose releases were made from
    /// mostly untyped commits: there the branch's range is the rule, and one contributor's
    /// `feat:` among sixty untyped subjects (sqlalchemy's `rel_2_0`) made `plan` refuse the line.
    static func keepsInRange(
        _ range: VersionRange, finals: [ReleaseHistory.Release], unmerged: Set<String>, history: ReleaseHistory,
        git: Git
    ) async -> String? {
        let line = Array(finals.filter { range.contains($0.version) && !unmerged.contains($0.tag) }.prefix(keptReleases + 1))
        var (typed, counted) = (0, 0)
        for (newer, older) in zip(line, line.dropFirst()) {
            // One plain `git log` of the line between its two releases: the commits made on the
            // branch are the evidence, and a release walk (bases, paths, patch twins) for each
            // pair cost etcd's `release-3.4` 1.9 s of init for nothing found.
            guard let collector = await branchCommits(from: older, to: newer, git: git) else { continue }
            let (level, count) = collector.finish()
            (typed, counted) = (typed + collector.typed, counted + count)
            guard !range.contains(VersionBump.next(after: older.version, level: level)) else { continue }
            return "\(newer.tag) shipped a \(level.rawValue)'s changes inside \(range) on this line"
        }
        if line.count >= 3, counted >= 10, typed * 2 < counted {
            return "\(line.count - 1) releases of this line were made from mostly untyped commits (\(typed) of \(counted) typed): its range decides"
        }
        return nil
    }

    /// release-please's `"versioning": "always-bump-patch"` (for the root package, or at the top
    /// of its config, at the root or in `.github/`): every release of the branch a patch, whatever
    /// its commits say (go-elasticsearch's `9.2` branch ships its backported `feat`s as 9.2.x).
    /// release-please's `"bump-patch-for-minor-pre-major": true` (at the top of its config or for
    /// any package, at the root or in `.github/`): below 1.0.0 a feat is a patch, as Cargo's rule
    /// has it (open-feature's python-sdk-contrib: flagd 0.2.6 → 0.2.7 for a feat).
    package static func releasePleaseZeroMajor(root: URL) -> String? {
        for name in [StarterConfig.releasePleaseConfig, ".github/" + StarterConfig.releasePleaseConfig] {
            guard let object = StarterConfig.releasePleaseObject(name, root: root) else { continue }
            let key = "bump-patch-for-minor-pre-major"
            let packages = ((object["packages"] as? [String: Any]) ?? [:]).sorted(by: { $0.key < $1.key }).prefix(500).map(\.value)
            if object[key] as? Bool == true || packages.contains(where: { ($0 as? [String: Any])?[key] as? Bool == true }) {
                return "\(name): \"\(key)\": below 1.0.0 a feat gives a patch, a breaking change a minor"
            }
        }
        return nil
    }

    static func releasePleaseBumpsPatch(root: URL) -> String? {
        for name in [StarterConfig.releasePleaseConfig, ".github/" + StarterConfig.releasePleaseConfig] {
            guard let object = StarterConfig.releasePleaseObject(name, root: root) else { continue }
            let own = ((object["packages"] as? [String: Any])?["."] as? [String: Any])?["versioning"]
            if ((own ?? object["versioning"]) as? String) == "always-bump-patch" {
                return "\(name): \"versioning\": \"always-bump-patch\""
            }
        }
        return nil
    }

    /// How many of the project's other minor lines `siblingLinesKeepRange` reads.
    package static let siblingLinesRead = 4

    /// Whether the project's other minor lines shipped, in their first patch, changes that called
    /// for more (cloudnative-pg's `v1.25.1`, `v1.26.1`, `v1.27.1` each with backported `feat`s):
    /// a young line with no step of its own to show it keeps its range as they did. The newest
    /// `siblingLinesRead` lines with a `.0` and a `.1` are read (one `git log X.Y.0..X.Y.1`
    /// each, wherever those tags are); two at least, and most of those read, must show it. A
    /// minor line only: a major line's siblings are other majors.
    static func siblingLinesKeepRange(_ range: VersionRange, history: ReleaseHistory, git: Git) async -> String? {
        guard let minor = range.minor else { return nil }
        let finals = history.releases.filter { !$0.version.isPrerelease }
        var steps: [(older: ReleaseHistory.Release, newer: ReleaseHistory.Release)] = []
        var seen: Set<String> = ["\(range.major).\(minor)"]
        for release in finals where release.version.patch == "1" {
            let line = "\(release.version.major).\(release.version.minor)"
            guard !seen.contains(line) else { continue }
            seen.insert(line)
            guard let first = finals.first(where: {
                $0.version.major == release.version.major && $0.version.minor == release.version.minor && $0.version.patch == "0"
            }) else { continue }
            steps.append((first, release))
            if steps.count == siblingLinesRead { break }
        }
        var shipped: [String] = []
        for step in steps {
            guard let collector = await branchCommits(from: step.older, to: step.newer, git: git) else { continue }
            if collector.finish().level > .patch { shipped.append(step.newer.tag) }
        }
        guard shipped.count >= 2, shipped.count * 2 > steps.count else { return nil }
        return "the project's other lines shipped more than a patch's changes in their first patch (\(shipped.joined(separator: ", ")))"
    }

    /// The checked-out branch when releases are made from it though it is neither `main` nor
    /// `master`: a main line's usual other names, `stable` (jinja tags its releases there while
    /// `main` carries the next minor), or the branch the clone's `origin` calls its default.
    /// A feature branch is none of these and stays out of `[release] branches`.
    static func mainLine(branch: String, git: Git) async -> String? {
        let name = branch.lowercased()
        guard name != "main", name != "master" else { return nil }
        if mainBranchNames.contains(name) || name == "stable" { return branch }
        return await git.remoteDefaultBranch() == branch ? branch : nil
    }

    /// Branch names that are a project's main line, never a maintenance line.
    package static let mainBranchNames: Set<String> = ["main", "master", "trunk", "develop", "development", "dev"]

    /// The range of a maintenance branch: the branch's own latest final release is below the
    /// repository's highest one, which the branch does not contain, and the branch's name carries
    /// that release's major (`v0.x`, `17.x.x`, `4.x`) and, for a minor line, its minor too
    /// (`release-3.5`, `v1.9`, `8.4.x`: a minor line when a later release of that major is not on it). Nil on any other branch: a main line stays above every
    /// release anywhere (pytest tags its releases on `8.4.x`, which `main` does not contain).
    /// The branch's latest release when it was tagged on a commit made beside the branch from its
    /// tip: jquery's `3.x-stable` holds 3.7.1's source, and `3.7.1` tags a commit adding the built
    /// files whose parent is on the branch, so git counts no release as merged there. Only the
    /// highest final of the major the branch's name gives is asked about (one git run).
    static func releasedOffBranch(
        branch: String, history: ReleaseHistory, unmerged: Set<String>, git: Git
    ) async -> Set<String> {
        guard !mainBranchNames.contains(branch.lowercased()),
            let major = branch.split(whereSeparator: { !$0.isNumber }).first.map(String.init),
            !history.releases.contains(where: { !$0.version.isPrerelease && $0.version.major == major && !unmerged.contains($0.tag) }),
            let candidate = history.releases.first(where: { !$0.version.isPrerelease && $0.version.major == major }),
            unmerged.contains(candidate.tag), await git.isAncestor(candidate.commit + "^", of: "HEAD") == true
        else { return [] }
        return [candidate.tag]
    }

    package static func maintenanceLine(
        branch: String, history: ReleaseHistory, unmerged: Set<String>, tagNames: [String] = []
    ) -> (branch: String, range: VersionRange, why: String)? {
        guard !mainBranchNames.contains(branch.lowercased()) else { return nil }
        let finals = history.releases.filter { !$0.version.isPrerelease }
        let numbers = branch.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard let highest = finals.first else { return nil }
        // A branch named for the minor line after the latest release, which no release has opened
        // yet, is that line being prepared: elasticsearch-py cuts `9.2` from main while `9.1`
        // releases 9.1.2 (neither holds the other's release commits), bumps nothing until
        // `Release 9.2.0`, and released 9.2.0 there; lexical releases each minor from a branch
        // named for it (`0.40.0__release`). Not a `.x` name (socket2's `v0.5.x` is a maintenance
        // line's spelling, made once its line is open), nor where any tag of the repository already
        // names the line: tauri's `1.6` branch carries `tauri-v1.6.x` while its api package, at
        // 1.5.x, ships 1.5.4 there.
        let latest = highest
        if !branch.lowercased().contains(".x"), numbers.count >= 2, String(numbers[0]) == latest.version.major,
            let minor = Int(latest.version.minor),
            numbers[1] == minor + 1,
            !history.releases.contains(where: { $0.version.major == latest.version.major && $0.version.minor == String(numbers[1]) }),
            !tagNames.contains(where: { tagNamesLine($0, major: numbers[0], minor: numbers[1]) }),
            let range = VersionRange("\(numbers[0]).\(numbers[1]).x")
        {
            return (branch, range, "`\(branch)` is named after the line after \(latest.tag), which no release has opened yet")
        }
        guard let own = finals.first(where: { !unmerged.contains($0.tag) }) else { return nil }
        guard let major = numbers.first, String(major) == own.version.major else { return nil }
        let namesMinor = numbers.count >= 2 && String(numbers[1]) == own.version.minor
        if own.tag == highest.tag {
            // The branch holds the latest release: a maintenance line when its name is that
            // release's minor line (poetry's `1.8` after 1.8.0, pytest's `8.4.x`), or its major
            // line while another branch releases the next major's prereleases (vitest's `v4` at
            // 4.1.11 beside main's `5.0.0-rc.2`).
            if namesMinor, let range = VersionRange("\(major).\(numbers[1]).x") {
                return (branch, range, "`\(branch)` is named after the line of its latest release \(own.tag)")
            }
            guard let next = history.releases.first(where: {
                $0.version.isPrerelease && own.version < $0.version && $0.version.major != own.version.major
                    && unmerged.contains($0.tag)
            }), let range = VersionRange("\(major).x")
            else { return nil }
            return (
                branch, range,
                "`\(branch)` holds the latest final \(own.tag) while \(next.tag), which it does not contain, opens the next major"
            )
        }
        guard own.version < highest.version, unmerged.contains(highest.tag) else { return nil }
        // The minor line when the name gives it: setuptools' `maint/75.3` while main released
        // 75.9.1 and then 84.0.0 (`75.x` would count from 75.9.1), helm's `release-3.21` while main
        // releases 4.x (`3.x` made a backported `feat` 3.22.0, a version helm never cuts there).
        guard let range = VersionRange(namesMinor ? "\(major).\(numbers[1]).x" : "\(major).x"), !range.contains(highest.version)
        else { return nil }
        return (
            branch, range,
            "`\(branch)` is a maintenance branch: its latest release \(own.tag) is below \(highest.tag), which it does not contain"
        )
    }

    /// Whether a tag's trailing version (`tauri-v1.6.0`, `v1.6.0-rc.1`, `1.6`) is of the line
    /// `major.minor`.
    static func tagNamesLine(_ tag: String, major: Int, minor: Int) -> Bool {
        guard let match = tag.firstMatch(of: #/(\d+)\.(\d+)(?:\.\d+)?(?:[-+][0-9A-Za-z.+-]*)?$/#) else { return false }
        return Int(match.1) == major && Int(match.2) == minor
    }

    /// Where projects keep their changelog, in the order `init` looks.
    package static let changelogNames = [
        "CHANGELOG.md", "CHANGELOG.rst", "CHANGELOG", "ChangeLog", "CHANGES.md", "CHANGES.rst", "CHANGES", "HISTORY.md",
        "HISTORY.rst", "NEWS.md", "NEWS.rst", "NEWS", "RELEASES.md", "docs/changelog.md", "docs/CHANGELOG.md",
        "docs/changelog.rst", "doc/changelog.md",
        // jekyll's `History.markdown` (`### HEAD` over `### Minor Enhancements`).
        "HISTORY.markdown", "CHANGELOG.markdown",
        // Documentation sites that hold the changelog as a page (gunicorn's Sphinx `docs/source/news.rst`,
        // later its mkdocs `docs/content/news.md`; h11's `docs/source/changes.rst`).
        "docs/changes.rst", "docs/changes.md", "docs/news.rst", "docs/news.md", "docs/history.rst",
        "docs/source/changelog.rst", "docs/source/changes.rst", "docs/source/news.rst", "docs/source/history.rst",
        "docs/content/news.md", "docs/content/changelog.md",
        // sqlc's `docs/reference/changelog.md` (MyST labels above its headings).
        "docs/reference/changelog.md", "docs/reference/changelog.rst",
        // docker-py's `docs/change-log.md` (setext `7.1.0` / `-----` headings).
        "docs/change-log.md",
        // fluentassertions' Jekyll site (`docs/_pages/releases.md`, `## 8.2.0` ahead of the
        // release); mdformat's `docs/users/changelog.md`.
        "docs/_pages/releases.md", "docs/users/changelog.md",
        // awaitility's `changelog.txt` (`Changelog 4.3.0 (2025-02-21)` over a `---` underline).
        "changelog.txt",
    ]

    /// The first changelog at `root` (`changelogNames`) whose newest section is ahead of `latest`
    /// (an unreleased section with entries, or a heading naming a version above it).
    /// `project`: a heading may name it before the version (pytest-xdist's `pytest-xdist 3.3.0 (2023-05-12)`).
    package static func changelog(
        root: URL, latest: ReleaseHistory.Release, project: String = ""
    ) -> (path: String, why: String)? {
        for name in changelogCandidates(root: root) {
            guard let file = try? ProjectFile.open(name, in: root), file.isRegularFile else { continue }
            let names: Set<String> = project.isEmpty ? [] : [project.lowercased()]
            guard let text = try? file.text() else { return nil }
            // A file naming no version at all is no release changelog: the next name may be
            // (jq's GNU `ChangeLog` of 2015 entries, then its `NEWS.md` with `# 1.8.2` ahead).
            let read = ChangelogIntent.reading(text, path: name, names: names, latest: latest.version)
            guard let intent = read.intent else {
                if read.namesReleases { return nil }
                continue
            }
            let said =
                switch intent.finding {
                case .version(let version): "`\(intent.heading)` names \(version), above \(latest.tag)"
                case .level(let level):
                    "`\(intent.section)` has entries under `\(intent.heading)` (a \(level.rawValue)), after \(latest.tag)"
                }
            return (name, "\(name):\(intent.line) \(said): its newest section gives the next release")
        }
        return nil
    }

    /// `changelogNames` as the files at `root` spell them (sidekiq's `Changes.md`, Ruby's
    /// `History.md`: a name at the top is matched whatever its case), then a changelog kept per
    /// release series (PHPUnit's `ChangeLog-13.2.md`, replaced at each minor): the highest.
    static func changelogCandidates(root: URL) -> [String] {
        let present = ((try? FileSystem.names(in: root)) ?? []).prefix(2_000)
        let byLowercase = Dictionary(present.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        var candidates: [String] = []
        for name in changelogNames {
            let spelled = name.contains("/") || present.contains(name) ? name : byLowercase[name.lowercased()] ?? name
            if !candidates.contains(spelled) { candidates.append(spelled) }
        }
        let series = present.compactMap { name -> (name: String, major: Int, minor: Int)? in
            guard let match = name.wholeMatch(of: #/(?i)change-?log-([0-9]+)\.([0-9]+)\.md/#),
                let major = Int(match.1), let minor = Int(match.2)
            else { return nil }
            return (name, major, minor)
        }
        if let newest = series.max(by: { ($0.major, $0.minor) < ($1.major, $1.minor) }) { candidates.append(newest.name) }
        return candidates
    }

    /// The changelog name members of a workspace keep ahead of their own latest releases
    /// (matrix-rust-sdk's `crates/matrix-sdk/CHANGELOG.md`, `## [Unreleased] - ReleaseDate` with
    /// `[**breaking**]` entries under `### Features`): `[versioning] changelog` read in each
    /// member's folder (`ChangelogIntent.read`). The name most such members use (the first
    /// member's among equals); nil when no member's changelog is ahead. A member's file that is
    /// not ahead says nothing for it, as for a single project.
    package static func workspaceChangelog(
        root: URL, members: [(name: String, folder: String, tagFormat: String)], tags: [GitTag]
    ) -> (path: String, why: String)? {
        var found: [(folder: String, path: String, why: String)] = []
        for member in members {
            guard member.tagFormat.contains("{version}"), let format = try? TagFormat(member.tagFormat) else { continue }
            let history = ReleaseHistory(tags: tags, format: format, paths: HistoryPaths(folder: member.folder))
            guard let latest = history.latest else { continue }
            let folder = member.folder.isEmpty ? root : root.appendingPathComponent(member.folder, isDirectory: true)
            guard let ahead = changelog(root: folder, latest: latest, project: member.name) else { continue }
            found.append((member.folder, ahead.path, ahead.why))
        }
        var counts: [String: Int] = [:]
        for item in found { counts[item.path, default: 0] += 1 }
        guard let most = counts.values.max(), let first = found.first(where: { counts[$0.path] == most }) else { return nil }
        let others = most - 1
        let place = first.folder.isEmpty ? "" : first.folder + "/"
        let more = others == 0 ? "" : " (and \(others) more member\(others == 1 ? "" : "s"))"
        return (first.path, "each member's own: \(place)\(first.why)\(more)")
    }

    /// The 0.x rule the changelog's own 0.x releases show: every change a patch when sections
    /// breaking something were released as patches (`ChangelogIntent.breakingReleasedAsPatches`:
    /// briefcase's "Backward Incompatible Changes" in 0.3.x), else Cargo's when features were
    /// (`featuresReleasedAsPatches`: zoxide's `### Added` sections in 0.9.x).
    package static func changelogZeroMajor(root: URL, path: String) -> (kind: VersioningSettings.ZeroMajor, why: String)? {
        guard let file = try? ProjectFile.open(path, in: root), file.isRegularFile, let text = try? file.text() else {
            return nil
        }
        let document = ChangelogDocument(
            lines: text.fileLines.map(String.init), format: ChangelogDocument.Format(path: path))
        if let patches = ChangelogIntent.breakingReleasedAsPatches(in: document) {
            return (
                .patch,
                "\(path): sections breaking something were released as patches below 1.0.0 (\(patches.prefix(3).joined(separator: ", ")))"
            )
        }
        guard let patches = ChangelogIntent.featuresReleasedAsPatches(in: document) else { return nil }
        return (
            .cargo,
            "\(path): sections adding features were released as patches below 1.0.0 (\(patches.prefix(3).joined(separator: ", ")))"
        )
    }

    /// `breaking = "minor"` where the changelog's releases at 1.0.0 and above shipped sections
    /// breaking something as minors (`ChangelogIntent.breakingReleasedAsMinors`).
    package static func changelogBreakingAsMinor(root: URL, path: String) -> String? {
        guard let file = try? ProjectFile.open(path, in: root), file.isRegularFile, let text = try? file.text() else {
            return nil
        }
        let document = ChangelogDocument(
            lines: text.fileLines.map(String.init), format: ChangelogDocument.Format(path: path))
        guard let minors = ChangelogIntent.breakingReleasedAsMinors(in: document) else { return nil }
        return "\(path): sections breaking something were released as minors (\(minors.prefix(3).joined(separator: ", ")))"
    }

    /// towncrier when its configuration or fragment folder is there; changesets when
    /// `.changeset/config.json` is, in `root` or at the top of its repository (biome's
    /// `packages/@biomejs/biome` in a repository whose top keeps the changesets).
    package static func fragments(root: URL) -> (kind: VersioningSettings.Fragments, why: String)? {
        if (try? ProjectFile.open(".changeset/config.json", in: root))?.isRegularFile == true {
            return (.changesets, ".changeset/config.json: changesets give each package's bump level")
        }
        if let top = Git.repositoryTop(of: root.standardizedFileURL.path), top != root.standardizedFileURL.path,
            let location = AbsolutePath(absolute: top)?.url,
            (try? ProjectFile.open(".changeset/config.json", in: location))?.isRegularFile == true
        {
            return (
                .changesets,
                ".changeset/config.json at the repository's top: changesets give each package's bump level"
            )
        }
        // covector (tauri): `.changes/config.json` here or at the repository's top.
        let top = Git.repositoryTop(of: root.standardizedFileURL.path).flatMap { AbsolutePath(absolute: $0)?.url }
        for location in [root] + (top.map { [$0] } ?? [])
        where (try? ProjectFile.open(".changes/config.json", in: location))?.isRegularFile == true {
            return (.covector, ".changes/config.json: covector's change files give each package's bump level")
        }
        // knope: knope.toml here or at the repository's top; its change files sit in `.changeset/`.
        for location in [root] + (top.map { [$0] } ?? [])
        where (try? ProjectFile.open("knope.toml", in: location))?.isRegularFile == true {
            return (.knope, "knope.toml: knope's change files (.changeset/*.md) give each package's bump level")
        }
        // OpenTelemetry's chloggen: `.chloggen/TEMPLATE.yaml` here or at the repository's top.
        if ChangeFragments.chloggenFolder(root: root, repository: top) != nil {
            return (.chloggen, ".chloggen/ holds chloggen's entries: each `change_type` gives the bump level")
        }
        // antsibull-changelog (Ansible collections): `changelogs/config.yaml` and its fragments.
        if ChangeFragments.antsibullFolder(root: root) {
            return (
                .antsibull,
                "changelogs/config.yaml is antsibull-changelog's: the fragments' sections (minor_changes, bugfixes …) give the bump level"
            )
        }
        // rever (conda's projects): `news/TEMPLATE` with its `### Enhancements` … sections.
        if ChangeFragments.newsTemplate(root: root) {
            return (.news, "news/TEMPLATE is rever's: the news files' sections give the bump level")
        }
        // chango (python-telegram-bot): `[tool.chango]` in pyproject.toml.
        if let folder = try? ChangeFragments.changoFolder(root: root) {
            return (.chango, "pyproject.toml configures chango (change notes in \(folder)/): their sections give the bump level")
        }
        // autopub (strawberry): `[tool.autopub]`; a release file holding its level (hypothesis'
        // RELEASE.rst, present between a merge and its release) says the same without it.
        if ChangeFragments.autopubConfigured(root: root) {
            return (.releaseFile, "pyproject.toml configures autopub: a pull request's RELEASE.md (`release type: minor`) gives the bump level")
        }
        if let found = try? ChangeFragments.releaseFile(root: root) {
            return (.releaseFile, "\(found.file) names the release type (\(found.level.rawValue)): the release file gives the bump level")
        }
        if let settings = try? ChangeFragments.towncrierSettings(root: root), let file = settings.file {
            let folder = settings.folder.map { " (fragments in \($0)/)" } ?? ""
            return (.towncrier, "\(file) configures towncrier\(folder): its fragments give the bump level")
        }
        for folder in ChangeFragments.defaultFolders {
            guard let directory = try? ProjectFile.open(folder, in: root), directory.isDirectory,
                let names = try? FileSystem.names(in: directory.location)
            else { continue }
            let known = ChangeFragments.defaultTypes.union(ChangeFragments.majorTypes).union(
                ChangeFragments.minorTypes)
            if let name = names.sorted().first(where: { ChangeFragments.fragmentType(of: $0, known: known) != nil }) {
                return (.towncrier, "\(folder)/\(name) is a towncrier fragment: fragments give the bump level")
            }
        }
        return nil
    }

    /// The cadence the latest `cadenceReleases` releases keep (newest version first): each a
    /// minor step, each a major step, or `YY.N.0` (the first number the year each was tagged in,
    /// the second counting that year's releases).
    package static func cadence(_ finals: [ReleaseHistory.Release]) -> (kind: VersioningSettings.Cadence, why: String)?
    {
        guard finals.count >= cadenceReleases else { return nil }
        let recent = Array(finals.prefix(cadenceReleases))
        let pairs = zip(recent.dropFirst(), recent).map { (older: $0.version, newer: $1.version) }
        let span = "\(recent.last!.tag) to \(recent[0].tag)"
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        // `MAJOR.YY.M`: gopsutil names each monthly release for the year and month it ends
        // (`v4.26.2`, tagged 2026-02-27; `v4.24.9` on 2024-10-01, the month before), read over a
        // year of releases that span two years: a SemVer minor changes with no calendar's year.
        let dated = Array(finals.prefix(yearMonthWindow))
        if dated.count >= cadenceReleases, Set(dated.map(\.version.minor)).count >= 2,
            dated.allSatisfy({ release in
                let date = Date(timeIntervalSince1970: TimeInterval(release.date))
                let (year, month) = (calendar.component(.year, from: date), calendar.component(.month, from: date))
                guard let named = Int(release.version.minor), let number = Int(release.version.patch) else { return false }
                return (named == year % 100 && (number == month || number == month - 1))
                    || (month == 1 && number == 12 && named == (year - 1) % 100)
            })
        {
            return (
                .yearMonth,
                "\(dated.last!.tag) to \(dated[0].tag): the major, then the year and the month each was tagged in"
            )
        }
        // A year counter's emergency patches (cattrs' 25.1.1, and 24.1.3 tagged in 2025) are not
        // steps of the count: the releases ending in `.0` are read.
        let counted = Array(finals.filter { $0.version.patch == "0" }.prefix(cadenceReleases))
        if counted.count == cadenceReleases {
            let years = counted.map { calendar.component(.year, from: Date(timeIntervalSince1970: TimeInterval($0.date))) }
            let yearly = zip(counted, years).allSatisfy { release, year in
                release.version.major == String(year % 100) || release.version.major == String(year)
            }
            let counting = zip(counted.dropFirst(), counted).allSatisfy { older, newer in
                older.version.major == newer.version.major
                    ? Int(newer.version.minor) == (Int(older.version.minor) ?? -2) + 1
                    : (Int(newer.version.minor) ?? 9) <= 1
            }
            // A month calendar counts the same way when it releases every month (dask's
            // 2024.12.0, 2025.1.0, …): each number is the month it was tagged in (or the one before).
            let monthly = counted.allSatisfy { release in
                let month = calendar.component(.month, from: Date(timeIntervalSince1970: TimeInterval(release.date)))
                return Int(release.version.minor).map { $0 == month || $0 % 12 + 1 == month } ?? false
            }
            if yearly, counting, !monthly, Set(years).count >= 2 {
                return (
                    .yearCounter,
                    "\(counted.last!.tag) to \(counted[0].tag): the year each was tagged in, then a count of the year's releases"
                )
            }
        }
        if pairs.allSatisfy({
            SemanticVersion.increment($0.older.major) == $0.newer.major && $0.newer.minor == "0"
                && $0.newer.patch == "0"
        }) {
            return (.major, "\(span): each of the last \(pairs.count) releases a major")
        }
        if pairs.allSatisfy({
            $0.older.major == $0.newer.major && SemanticVersion.increment($0.older.minor) == $0.newer.minor
                && $0.newer.patch == "0"
        }) {
            return (.minor, "\(span): each of the last \(pairs.count) releases a minor")
        }
        // One patch among nine minors is still a project that releases a minor each time (hyperfine,
        // just): of the last `cadenceWindow` steps, all but one minors, the newest a minor too.
        if finals.count > cadenceWindow {
            let window = Array(finals.prefix(cadenceWindow + 1))
            let minors = zip(window.dropFirst(), window).map { older, newer in
                older.version.major == newer.version.major
                    && SemanticVersion.increment(older.version.minor) == newer.version.minor
                    && newer.version.patch == "0"
            }
            if minors.first == true, minors.filter({ $0 }).count >= cadenceWindow - 1 {
                return (
                    .minor,
                    "\(window.last!.tag) to \(window[0].tag): \(cadenceWindow - 1) of the last \(cadenceWindow) releases a minor, the latest too"
                )
            }
        }
        return nil
    }

    /// Whether the latest releases (the ten newest, six at least, at 1.0.0 or above) are each
    /// tagged with two numbers, three steps or more of the nine stepping the first and some the
    /// second (WeasyPrint's `v60.1` … `v69.0`): why, or nil. A project stepping only the first is
    /// a major cadence; one stepping it rarely keeps SemVer's reading (pydantic's `v2.0`).
    package static func twoNumberSteps(_ finals: [ReleaseHistory.Release]) -> String? {
        let recent = Array(finals.prefix(cadenceWindow))
        guard recent.count >= cadenceReleases, recent[0].version.major != "0",
            recent.allSatisfy({ release in
                let text = release.tag.reversed().prefix(while: { $0.isNumber || $0 == "." })
                return text.split(separator: ".").count == 2 && text.first != "." && text.last != "."
            })
        else { return nil }
        let steps = zip(recent.dropFirst(), recent)
        let first = steps.filter { $0.version.major != $1.version.major }.count
        guard first >= 3, first < recent.count - 1 else { return nil }
        return "\(recent.last!.tag) to \(recent[0].tag): two numbers, \(first) of the last \(recent.count - 1) releases stepping the first"
    }

    /// Where the changelog or README says the first number of a version is the year and the
    /// second counts the year's releases, and the latest release's first number is the year it
    /// was tagged in (two or four digits): that line, as why; nil otherwise. The first 200 lines
    /// of each file are read.
    static func yearCounterStated(root: URL, latest: ReleaseHistory.Release) -> String? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let year = calendar.component(.year, from: Date(timeIntervalSince1970: TimeInterval(latest.date)))
        guard latest.date > 0, latest.version.major == String(year % 100) || latest.version.major == String(year) else {
            return nil
        }
        for name in ["CHANGELOG.md", "CHANGELOG.rst", "NEWS.md", "NEWS.rst", "README.md", "README.rst"] {
            guard let file = try? ProjectFile.open(name, in: root), file.isRegularFile,
                let data = file.data(limit: 1 << 20), case .whole(let bytes) = data
            else { continue }
            let lines = TextFile.decode(bytes).fileLines.prefix(200).map { $0.replacingOccurrences(of: "*", with: "").lowercased() }
            guard let first = lines.firstIndex(where: { $0.contains("first number") && $0.contains("year") }),
                lines.contains(where: { $0.contains("second number") && $0.contains("increment") && $0.contains("release") })
            else { continue }
            return "\(name):\(first + 1) says the first number is the year and the second counts the year's releases"
        }
        return nil
    }

    /// How many of the latest releases the `MAJOR.YY.M` cadence reads: a year of monthly ones and one
    /// more, so they span two years.
    package static let yearMonthWindow = 13

    /// How many of the latest release steps the looser minor cadence reads (all but one minors).
    package static let cadenceWindow = 10

    /// The maintenance lines of a workspace's members on the checked-out branch (`maintenanceLine`
    /// over each member's own tag series), members of one range together, in the order given.
    /// Empty on a main line or when no member's releases make the branch one.
    package static func workspaceMaintenance(
        members: [(name: String, folder: String, tagFormat: String)], tags: [GitTag], git: Git
    ) async -> [VersioningFindings.MemberLine] {
        guard let branch = try? await git.currentBranch(), !mainBranchNames.contains(branch.lowercased()) else {
            return []
        }
        let unmerged = (try? await git.tagNames(notMergedInto: "HEAD")) ?? []
        var lines: [VersioningFindings.MemberLine] = []
        let names = tags.map(\.name)
        for member in members {
            guard member.tagFormat.contains("{version}"), let format = try? TagFormat(member.tagFormat) else { continue }
            let history = ReleaseHistory(tags: tags, format: format, paths: HistoryPaths(folder: member.folder))
            guard let line = maintenanceLine(branch: branch, history: history, unmerged: unmerged, tagNames: names) else { continue }
            if let index = lines.firstIndex(where: { $0.range == line.range }) {
                if !lines[index].members.contains(member.name) { lines[index].members.append(member.name) }
            } else {
                lines.append(.init(branch: branch, range: line.range, why: "\(member.name): \(line.why)", members: [member.name]))
            }
        }
        return lines
    }

    /// How many members of a workspace `workspaceZeroMajor` reads at most.
    package static let zeroMajorMembers = 3
    /// How many of a member's latest 0.x releases `workspaceZeroMajor` compares (each pair one
    /// walk): as many as for a single crate. With 6, typos-dict's monthly `feat(dict)` patches
    /// between fix releases left one feat patch in five steps, and the rule came and went with the month.
    package static let zeroMajorMemberReleases = 11

    /// Cargo's 0.x rule where the project releases with release-plz (`release-plz.toml` or
    /// `.release-plz.toml` at the root): its next version below 1.0.0 takes a breaking change as a
    /// minor and a feat as a patch, unless `features_always_increment_minor = true`. ratatui's
    /// members had one or two 0.x releases each, too few for the history to show the rule.
    /// Why init writes `zero-major = "cargo"` beside `fragments = "knope"`.
    package static let knopeZeroMajor = "knope.toml: below 1.0.0 knope makes a major change a minor, a minor or a patch change a patch"

    package static func releasePlzZeroMajor(root: URL) -> String? {
        for name in ["release-plz.toml", ".release-plz.toml"] {
            guard let file = try? ProjectFile.open(name, in: root), file.isRegularFile, let text = try? file.text() else {
                continue
            }
            if text.range(of: #"(?m)^\s*features_always_increment_minor\s*=\s*true"#, options: .regularExpression) != nil {
                return nil
            }
            return "\(name): release-plz releases a feat below 1.0.0 as a patch, a breaking change as a minor"
        }
        return nil
    }

    /// Whether a crate's own latest 0.x releases show feats released as minors where release-plz's
    /// default would have made them patches: true for two steps at least whose commits called for
    /// a minor and took one, and no feat released as a patch; false once a feat (or a breaking
    /// change) was released as a patch; nil when the steps show neither. rig-core's feat-only
    /// ranges were minors before its `release-plz.toml` and after (its API checks, which no commit
    /// records): the history outranks the file's default there.
    /// `added`: each step read as the commits it added (`addedCommits`, one `git log older..newer`),
    /// not as `bump` walks it: a cheaper test of another member against a rule already shown.
    package static func featsReleasedAsMinors(
        _ finals: [ReleaseHistory.Release], history: ReleaseHistory, git: Git, releases: Int = 11, added: Bool = false
    ) async -> Bool? {
        let zeros = Array(finals.filter { $0.version.major == "0" }.prefix(releases))
        var featMinors = 0
        for (newer, older) in zip(zeros, zeros.dropFirst()) {
            let read =
                added
                ? await addedCommits(from: older, to: newer, history: history, git: git)?.finish().level
                : await commitsLevel(from: older, to: newer, history: history, git: git)
            guard let level = read else { return nil }
            if newer.version.minor == older.version.minor {
                if level >= .minor { return false }
            } else if level == .minor {
                featMinors += 1
            }
        }
        return featMinors >= 2 ? true : nil
    }

    /// `featsReleasedAsMinors` for a workspace, over the members `workspaceZeroMajor` reads: true
    /// when one shows feats released as minors and none a feat released as a patch. rig keeps the
    /// rule: its companion crates, read before rig-core for their more releases, shipped feats as
    /// patches.
    package static func workspaceFeatsReleasedAsMinors(
        members: [(folder: String, tagFormat: String)], tags: [GitTag], git: Git
    ) async -> Bool {
        var shown = false
        for candidate in await zeroMajorCandidates(members: members, tags: tags, git: git, cargo: true)
            .prefix(zeroMajorMembers)
        {
            switch await featsReleasedAsMinors(
                candidate.finals, history: candidate.history, git: git, releases: zeroMajorMemberReleases)
            {
            case false?: return false
            case true?: shown = true
            case nil: break
            }
        }
        return shown
    }

    /// Cargo's 0.x rule for a Cargo workspace (release-plz's own crates): the first of its members
    /// (folder and tag format) whose own latest 0.x releases (`zeroMajorMemberReleases`), over its
    /// own folder, show it. At most `zeroMajorMembers` members with three 0.x releases are read,
    /// those with the most 0.x releases first (folder order among equals): the crates that release
    /// most say the most of the project's rule (release-plz's `release_plz`, 223 releases, not the
    /// `cargo_utils` that comes first in its folder).
    package static func workspaceZeroMajor(
        members: [(folder: String, tagFormat: String)], tags: [GitTag], git: Git, cargo: Bool = true
    ) async -> String? {
        let ordered = Array(await zeroMajorCandidates(members: members, tags: tags, git: git, cargo: cargo).prefix(zeroMajorMembers))
        for (index, candidate) in ordered.enumerated() {
            guard
                let why = await cargoZeroMajor(
                    candidate.finals, history: candidate.history, git: git, releases: zeroMajorMemberReleases, cargo: cargo)
            else { continue }
            // The rule is the workspace's only where no other member read shows feats released
            // as minors: matrix-rust-sdk's FFI bindings shipped feats as patches, matrix-sdk its
            // feat ranges as minors; actions-runner-controller's two charts likewise.
            for (other, member) in ordered.enumerated() where other != index {
                if await featsReleasedAsMinors(
                    member.finals, history: member.history, git: git, releases: zeroMajorMemberReleases, added: true) == true
                {
                    return nil
                }
            }
            // Outside Cargo the habit is each package's own, not the ecosystem's: another member
            // read must show it too (actions-runner-controller's old chart shipped feats as 0.x
            // patches, its gha-runner-scale-set chart, with untyped commits, shows nothing).
            if !cargo, ordered.count > 1 {
                var corroborated = false
                for (other, member) in ordered.enumerated() where other != index {
                    if await cargoZeroMajor(
                        member.finals, history: member.history, git: git, releases: zeroMajorMemberReleases, cargo: cargo)
                        != nil
                    {
                        corroborated = true
                        break
                    }
                }
                guard corroborated else { return nil }
            }
            return "\(candidate.folder.isEmpty ? (cargo ? "the root crate" : "the root package") : candidate.folder): " + why
        }
        return nil
    }

    /// The members with three 0.x releases at least (outside Cargo, only those below 1.0.0), the
    /// most 0.x releases first, folder order among equals, each with its history and finals.
    static func zeroMajorCandidates(
        members: [(folder: String, tagFormat: String)], tags: [GitTag], git: Git, cargo: Bool
    ) async -> [(folder: String, history: ReleaseHistory, finals: [ReleaseHistory.Release], zeros: Int)] {
        let unmerged = (try? await git.tagNames(notMergedInto: "HEAD")) ?? []
        var candidates: [(folder: String, history: ReleaseHistory, finals: [ReleaseHistory.Release], zeros: Int)] = []
        for member in members {
            guard member.tagFormat.contains("{version}"), let format = try? TagFormat(member.tagFormat) else { continue }
            let history = ReleaseHistory(tags: tags, format: format, paths: HistoryPaths(folder: member.folder))
            // Releases tagged off the branch above all it holds are the line's own (as in `detect`).
            let mergedTop = history.releases.first { !$0.version.isPrerelease && !unmerged.contains($0.tag) }?.version
            let finals = history.releases.filter { release in
                guard !release.version.isPrerelease else { return false }
                guard unmerged.contains(release.tag) else { return true }
                return mergedTop.map { release.version > $0 } ?? true
            }
            let zeros = finals.filter { $0.version.major == "0" }.count
            // Outside Cargo, only a member below 1.0.0 is read (as for a single project).
            guard zeros >= 3, cargo || finals.first?.version.major == "0" else { continue }
            candidates.append((member.folder, history, finals, zeros))
        }
        // A stable sort: among members with as many 0.x releases, the folder order stays.
        return candidates.enumerated().sorted { a, b in
            a.element.zeros != b.element.zeros ? a.element.zeros > b.element.zeros : a.offset < b.offset
        }.map(\.element)
    }

    /// The commits of one release step (from `older` to `newer`), collected as `bump` reads them;
    /// nil when the history cannot be read.
    static func stepCommits(
        from older: ReleaseHistory.Release, to newer: ReleaseHistory.Release, history: ReleaseHistory, git: Git
    ) async -> BumpCollector? {
        let collector = Mutex(BumpCollector())
        guard
            (try? await history.changes(in: git, to: newer.commit, since: older) { commit in
                collector.withLock { $0.add(commit) }
            }) != nil
        else { return nil }
        return collector.withLock { $0 }
    }

    /// The commits one release step added (`git log older..newer` over the project's paths):
    /// what a reading of the release habit needs, without `changes`' rules for other release
    /// lines (its symmetric walk with every unmerged older line as a base took mongoose's init
    /// from 0.9 s to 7.6 s, 0.6 s a step); nil when the history cannot be read.
    static func addedCommits(
        from older: ReleaseHistory.Release, to newer: ReleaseHistory.Release, history: ReleaseHistory, git: Git
    ) async -> BumpCollector? {
        let collector = Mutex(BumpCollector())
        let range = GitLogRange(target: newer.commit, excluded: [older.commit], paths: history.paths.pathspecs)
        guard (try? await git.forEachCommit(in: range) { commit in collector.withLock { $0.add(commit) } }) != nil else {
            return nil
        }
        return collector.withLock { $0 }
    }

    /// The level the commits of one release step call for (from `older` to `newer`); nil when the
    /// history cannot be read.
    static func commitsLevel(
        from older: ReleaseHistory.Release, to newer: ReleaseHistory.Release, history: ReleaseHistory, git: Git,
        typedOnly: Bool = false
    ) async -> VersionBump.Level? {
        guard let collected = await stepCommits(from: older, to: newer, history: history, git: git) else { return nil }
        let (level, count) = collected.finish()
        // A range most of whose subjects carry no type says nothing by its few typed ones.
        if typedOnly, collected.mostlyUntyped(count: count) { return nil }
        return level
    }

    /// Releases in a row, newest first, each the next minor of the one before: past this many, a
    /// minor cadence stands unless the commits of every step explain it.
    package static let longMinorRun = 12

    /// How many of the newest finals (newest version first) are each the next minor of the one
    /// below, counting the lowest of the run.
    package static func minorRun(_ finals: [ReleaseHistory.Release]) -> Int {
        var run = finals.isEmpty ? 0 : 1
        for (newer, older) in zip(finals, finals.dropFirst()) {
            guard older.version.major == newer.version.major,
                SemanticVersion.increment(older.version.minor) == newer.version.minor, newer.version.patch == "0"
            else { break }
            run += 1
        }
        return run
    }

    /// Whether the commits of every step between `finals` (newest first) call for the level it
    /// took; stops at the first that does not.
    package static func commitsExplainEveryStep(
        _ finals: [ReleaseHistory.Release], history: ReleaseHistory, git: Git
    ) async -> Bool {
        var steps = 0
        for (newer, older) in zip(finals, finals.dropFirst()) {
            steps += 1
            guard let level = await commitsLevel(from: older, to: newer, history: history, git: git),
                level >= step(from: older, to: newer)
            else { return false }
        }
        return steps > 0
    }

    /// The level of the step from `older` to `newer`.
    static func step(from older: ReleaseHistory.Release, to newer: ReleaseHistory.Release) -> VersionBump.Level {
        newer.version.major != older.version.major
            ? .major : newer.version.minor != older.version.minor ? .minor : .patch
    }

    /// Whether the commits of most steps between `finals` (newest first) already call for the
    /// level it took: eslint's minors each held a `feat:`, so a minor cadence adds nothing and
    /// would turn its fix-only 9.39.1 into 9.40.0; mocha's did four times in five (release-please
    /// cut 11.4.0 by hand once), and its fix-only 11.7.1 followed. A cadence is the project's
    /// habit only where most steps say more than their commits. A step whose commits are mostly
    /// untyped explains nothing (datafusion-sqlparser-rs: a minor every release, one contributor's
    /// `feat:` among some fifty untyped subjects in three of five steps).
    package static func commitsExplainMostSteps(
        _ finals: [ReleaseHistory.Release], history: ReleaseHistory, git: Git
    ) async -> Bool {
        var (explained, steps) = (0, 0)
        for (newer, older) in zip(finals, finals.dropFirst()) {
            steps += 1
            guard let level = await commitsLevel(from: older, to: newer, history: history, git: git, typedOnly: true)
            else { continue }
            if level >= step(from: older, to: newer) { explained += 1 }
        }
        return steps > 0 && explained * 2 > steps
    }

    /// `features = "patch"` when the project's releases at 1.0.0 and above show it: at least
    /// three patches whose typed commits held a feat (and no breaking change), and three for each
    /// minor made of such commits (go-zero's 1.7.x and 1.8.x: seven feat ranges released as
    /// patches to two as minors). A step whose subjects are mostly untyped says nothing; so does
    /// a step across majors. Nil when the history does not show the rule.
    package static func featuresReleasedAsPatches(
        _ finals: [ReleaseHistory.Release], history: ReleaseHistory, git: Git, releases: Int = stepsRead
    ) async -> String? {
        let ones = Array(finals.filter { $0.version.major != "0" }.prefix(releases))
        let steps = zip(ones, ones.dropFirst()).filter { $0.0.version.major == $0.1.version.major }
        let patchSteps = steps.filter { $0.0.version.minor == $0.1.version.minor }
        guard patchSteps.count >= featurePatchesNeeded else { return nil }
        var featPatches: [String] = []
        for (index, (newer, older)) in patchSteps.enumerated() {
            guard featPatches.count + patchSteps.count - index >= featurePatchesNeeded else { return nil }
            let level = await addedLevel(from: older, to: newer, history: history, git: git)
            if level == .minor { featPatches.append(newer.tag) }
        }
        guard featPatches.count >= featurePatchesNeeded else { return nil }
        var featMinors = 0
        for (newer, older) in steps where newer.version.minor != older.version.minor {
            let level = await addedLevel(from: older, to: newer, history: history, git: git)
            if level == .minor { featMinors += 1 }
            guard featPatches.count >= featurePatchesNeeded * featMinors else { return nil }
        }
        return "feat commits were released as patches (\(featPatches.prefix(3).joined(separator: ", ")))"
            + (featMinors > 0 ? ", \(featPatches.count) times to \(featMinors) minor\(featMinors == 1 ? "" : "s")" : "")
    }

    /// `untyped-adds = "minor"` when the project's releases made from mostly untyped commits show
    /// it: at least three minors whose range held no feat or breaking change but an untyped subject
    /// adding something (`UntypedSubject.adds`), and three for each patch whose range held one
    /// (PyGithub's "Add support for …" ranges released as 2.x minors, its fix-only ones as patches).
    /// Steps across a major, and steps whose typed commits already call for a minor, say nothing.
    package static func untypedAddsReleasedAsMinors(
        _ finals: [ReleaseHistory.Release], history: ReleaseHistory, git: Git, releases: Int = stepsRead
    ) async -> String? {
        let recent = Array(finals.prefix(releases))
        var minors: [String] = []
        var patches = 0
        for (index, (newer, older)) in zip(recent, recent.dropFirst()).enumerated() {
            // Too few steps left to reach three minors.
            guard minors.count + recent.count - 1 - index >= featurePatchesNeeded else { break }
            guard newer.version.major == older.version.major else { continue }
            guard let collected = await addedCommits(from: older, to: newer, history: history, git: git) else { return nil }
            let (level, count) = collected.finish()
            guard count > 0, collected.mostlyUntyped(count: count), level == .patch, collected.addingCommit() != nil else { continue }
            if step(from: older, to: newer) == .minor { minors.append(newer.tag) } else { patches += 1 }
        }
        guard minors.count >= featurePatchesNeeded, minors.count >= featurePatchesNeeded * patches else { return nil }
        return "subjects without a type adding something were released as minors (\(minors.prefix(3).joined(separator: ", ")))"
            + (patches > 0 ? ", \(minors.count) times to \(patches) patch\(patches == 1 ? "" : "es")" : "")
    }

    /// The level the typed commits a release step added call for; nil when most of them carry no
    /// type, or the history cannot be read.
    static func addedLevel(
        from older: ReleaseHistory.Release, to newer: ReleaseHistory.Release, history: ReleaseHistory, git: Git
    ) async -> VersionBump.Level? {
        guard let collected = await addedCommits(from: older, to: newer, history: history, git: git) else { return nil }
        let (level, count) = collected.finish()
        return collected.mostlyUntyped(count: count) ? nil : level
    }

    /// How many of the latest releases `featuresReleasedAsPatches` and `untypedAddsReleasedAsMinors` read.
    static let stepsRead = 11

    /// How many feat patches `featuresReleasedAsPatches` needs, and how many for each feat minor.
    static let featurePatchesNeeded = 3

    /// Cargo's 0.x rule when the project's 0.x releases show it, whatever its ecosystem (an npm
    /// package or a chart below 1.0.0 as often as a crate): at least two releases whose changes
    /// held a feat or a breaking change made as patches, and at least four for each release of a
    /// feat (and no breaking change) made as a minor (prost's 0.13.0 held one `feat` and broke its
    /// API unmarked; five feat patches followed it, and the one minor vetoed the rule). `cargo`
    /// says whether the reason names release-plz.
    package static func cargoZeroMajor(
        _ finals: [ReleaseHistory.Release], history: ReleaseHistory, git: Git, releases: Int = 11, cargo: Bool = true
    ) async -> String? {
        let zeros = Array(finals.filter { $0.version.major == "0" }.prefix(releases))
        guard zeros.count >= 3 else { return nil }
        // Each step read is a walk of the history (three git calls): the patch steps first, the
        // minor steps only while they could still veto, and none once the rule cannot hold.
        let steps = Array(zip(zeros, zeros.dropFirst()))
        let patchSteps = steps.filter { $0.0.version.minor == $0.1.version.minor }
        guard patchSteps.count >= 2, let newest = zeros.first, let oldest = zeros.last else { return nil }
        // One walk over the whole span first: where it holds no feat and no breaking change (a
        // fix-only or untyped history, most charts'), no step does.
        guard let spanned = await commitsLevel(from: oldest, to: newest, history: history, git: git), spanned >= .minor
        else { return nil }
        var featPatches: [String] = []
        for (index, (newer, older)) in patchSteps.enumerated() {
            guard featPatches.count + patchSteps.count - index >= 2 else { return nil }
            guard let level = await commitsLevel(from: older, to: newer, history: history, git: git) else { return nil }
            // A breaking change released as a patch (console-subscriber 0.1.4, whose range held
            // console-api's `BREAKING CHANGE:` footer) says as much as a feat released so; one
            // released as a minor is what both rules give.
            if level >= .minor { featPatches.append(newer.tag) }
        }
        guard featPatches.count >= 2 else { return nil }
        var featMinors = 0
        for (newer, older) in steps where newer.version.minor != older.version.minor {
            guard let level = await commitsLevel(from: older, to: newer, history: history, git: git) else { return nil }
            if level == .minor { featMinors += 1 }
            guard featPatches.count >= 4 * featMinors else { return nil }
        }
        return
            "feat commits were released as patches below 1.0.0 (\(featPatches.prefix(3).joined(separator: ", ")))\(cargo ? ", as release-plz does" : "")"
    }
}
