import Foundation
import RelctlBasics
import RelctlModel

/// Which part of the repository a project's history is: the whole of it, or a folder (a project
/// whose `relctl.toml` is in a subfolder; a monorepo member) with globs added and removed.
package struct HistoryPaths: Sendable, Equatable {
    /// The folder, relative to the repository's top, without a trailing `/`; `""` for the top.
    package var folder: String
    /// Globs relative to `folder` whose changes count too (a member's `include`).
    package var include: [String]
    /// Globs relative to `folder` whose changes do not count (a member's `exclude`).
    package var exclude: [String]

    package static let wholeRepository = HistoryPaths(folder: "")

    package init(folder: String, include: [String] = [], exclude: [String] = []) {
        var trimmed = Substring(folder)
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        while trimmed.hasPrefix("./") { trimmed = trimmed.dropFirst(2) }
        self.folder = trimmed == "." ? "" : String(trimmed)
        self.include = include
        self.exclude = exclude
    }

    /// The git pathspecs that keep the commits touching these paths; none for the whole
    /// repository (a pathspec would also drop the commits that change no file). The top itself
    /// is `:(top)`: git's log matches nothing with `:(top).`.
    package var pathspecs: [String] {
        guard !folder.isEmpty || !include.isEmpty || !exclude.isEmpty else { return [] }
        func inside(_ glob: String) -> String { Self.joined(folder: folder, glob: glob) ?? glob }
        // The top is `:(top)` alone: `:(top).` matches nothing once an exclude is added.
        return [":(top)" + (folder.isEmpty ? "" : folder + "/")]
            + include.map { ":(top,glob)" + inside($0) }
            + exclude.map { ":(top,glob,exclude)" + inside($0) }
    }

    /// `glob` (relative to `folder`) relative to the repository's top, its `..` steps taken
    /// (`crates/app` with `../../proto/**` is `proto/**`: git's `:(top)` pathspec does not take
    /// them); nil when it climbs above the top or is absolute.
    package static func joined(folder: String, glob: String) -> String? {
        guard !glob.hasPrefix("/") else { return nil }
        var parts = folder.split(separator: "/").map(String.init)
        for part in glob.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
                continue
            }
            parts.append(String(part))
        }
        return parts.joined(separator: "/")
    }

    /// Whether `glob`, relative to `folder`, leads above the repository's top (or is absolute).
    package static func leavesTop(folder: String, glob: String) -> Bool { joined(folder: folder, glob: glob) == nil }
}

/// A project's releases as its tags say, and the changes since one of them: the one place the
/// rules of the contract's "Versions come from the tag history" are applied, by `bump`, `notes`,
/// `release` and `init` alike.
///
/// The tags are read once (`git for-each-ref`, with the commit and date of each), every one is
/// classified against the tag format (`TagReader.read`), and the changes of a release are
/// one `git log` walk (`changes(in:to:since:_:)`). Several formats (monorepo members) can classify
/// the same tag list: `init(tags:format:paths:)` reads no git.
package struct ReleaseHistory: Sendable {
    /// One release: a tag that is a release of the format.
    package struct Release: Sendable, Equatable, CustomStringConvertible {
        package var tag: String
        package var version: SemanticVersion
        package var commit: String
        /// When the tag was made (seconds since the epoch).
        package var date: Int
        /// Spelled exactly as relctl spells its version (see `TagFormat.Reading.release`).
        package var exact: Bool
        /// Its version is spelled the PEP 440 way (`v2.14.0b1`).
        package var spelledPEP440: Bool

        package var description: String { tag }
    }

    /// A tag that looks like a release of the format but is not one, and why.
    package struct Ignored: Sendable, Equatable {
        package enum Reason: Sendable, Equatable {
            /// A version in another spelling (`v` added or removed, PEP 440 outside a Python
            /// project): never proposed again.
            case otherSpelling(SemanticVersion)
            /// The format's prefix followed by no version (`vV9.0.0`).
            case noVersion
        }

        package var tag: String
        package var date: Int
        package var reason: Reason
    }

    /// The tag format, with the spelling learnt from the releases (calendar padding, PEP 440 prereleases).
    package private(set) var format: TagFormat
    package let paths: HistoryPaths
    /// Every release, highest version first; among tags of one version, the exactly spelled one
    /// first, then the newest, then by name.
    package private(set) var releases: [Release] = []
    /// Tags that look like releases of the format and are not (newest first).
    package private(set) var ignored: [Ignored] = []
    /// Every version the tags name, releases and other spellings: `bump` never proposes one again.
    package private(set) var released: ReleasedVersions
    /// Every tag as read. Not a dictionary by name: a workspace classifies one tag list once per
    /// member (astro: 40 members, 3,336 tags), and building 40 such dictionaries was a fifth of
    /// its `plan`; the array is the caller's, shared, and `tag(named:)` is asked once a command.
    private let tags: [GitTag]
    /// Final releases tagged in another spelling of the format (express's `v5.0.0` among bare
    /// `4.21.2` and `5.0.0-beta.2`), highest version first: never proposed again, and the latest
    /// release as a branch sees it counts them (`latest(seenFrom:git:named:)`).
    package private(set) var otherSpellingFinals: [Release] = []

    /// Classifies `tags` against `format` (reads no git).
    package init(tags: [GitTag], format: TagFormat, paths: HistoryPaths = .wholeRepository) {
        self.paths = paths
        self.tags = tags
        let reader = TagReader(learningFrom: tags.lazy.map(\.name), format: format)
        var versions: [ReleasedVersions.Entry] = []
        for tag in tags {
            switch reader.read(tag.name) {
            case .release(let version, let exact):
                versions.append(.init(tag: tag.name, version: version))
                guard let commit = tag.commit else { continue }
                releases.append(
                    Release(
                        tag: tag.name, version: version, commit: commit, date: tag.date, exact: exact,
                        spelledPEP440: version.isPrerelease && reader.spellsPEP440(tag.name)))
            case .otherSpelling(let version):
                versions.append(.init(tag: tag.name, version: version))
                // A moving major tag names a line, never the latest release: fasthttp's 2017
                // `v20180529`, read as 20180529.0.0, made plan propose 20180529.1.0.
                let alias = Self.isMajorAlias(tag.name, version: version, format: format)
                if !version.isPrerelease, !alias, let commit = tag.commit {
                    otherSpellingFinals.append(
                        Release(
                            tag: tag.name, version: version, commit: commit, date: tag.date, exact: false,
                            spelledPEP440: false))
                }
                // A moving major tag (`v2`, tauri's `tauri-v2`) names a line, not a release: not worth a warning.
                if !alias {
                    ignored.append(Ignored(tag: tag.name, date: tag.date, reason: .otherSpelling(version)))
                }
            case .malformed:
                ignored.append(Ignored(tag: tag.name, date: tag.date, reason: .noVersion))
            case .unrelated:
                break
            }
        }
        released = ReleasedVersions(entries: versions)
        releases.sort(by: Self.ordered)
        otherSpellingFinals.sort(by: Self.ordered)
        ignored.sort { $0.date != $1.date ? $0.date > $1.date : $0.tag < $1.tag }
        // The next prerelease is spelled as the latest one is: pydantic's `v2.14.0b1` → `v2.14.0b2`.
        var format = reader.format
        if format.readsPEP440, let prerelease = releases.first(where: \.version.isPrerelease), prerelease.spelledPEP440
        {
            format.prereleaseSpelling = .pep440
        }
        self.format = format
    }

    /// Reads the repository's tags (one `git for-each-ref`) and classifies them.
    package static func read(
        git: Git, format: TagFormat, paths: HistoryPaths = .wholeRepository
    ) async throws
        -> ReleaseHistory
    {
        ReleaseHistory(tags: try await git.tagList(), format: format, paths: paths)
    }

    /// The history of the project `config` describes: its tag format, reading PEP 440 tags when a
    /// manifest's versions are PEP 440, over the project's folder when its relctl.toml is in a
    /// subfolder of the repository (a member of a monorepo counts only the commits touching it,
    /// with its `include` globs added and its `exclude` globs removed).
    package static func read(git: Git, config: RelctlConfig) async throws -> ReleaseHistory {
        var paths = HistoryPaths.wholeRepository
        if config.isFromFile || config.workspaceMember != nil {
            paths = HistoryPaths(
                folder: try await git.prefixFromTop(), include: config.project.include,
                exclude: config.project.exclude)
        }
        return try await read(git: git, format: format(of: config), paths: paths)
    }

    /// The configured tag format, reading PEP 440 tags when a `[[version]]` is compared by PEP 440.
    package static func format(of config: RelctlConfig) -> TagFormat {
        var format = config.project.tagFormat
        format.readsPEP440 = format.readsPEP440 || ManifestReaders.comparesByPEP440(config.versions)
        return format
    }

    /// Highest version first; one version's tags: exact spelling, newest, then by name.
    private static func ordered(_ a: Release, _ b: Release) -> Bool {
        if !a.version.hasSamePrecedence(as: b.version) { return b.version < a.version }
        if a.exact != b.exact { return a.exact }
        if a.date != b.date { return a.date > b.date }
        return a.tag < b.tag
    }

    // MARK: Questions

    /// The latest release: the highest version anywhere in the repository, on any branch.
    package var latest: Release? { releases.first }

    /// The latest release as the branch of `target` sees it (the contract's round 5): the highest
    /// *final* release anywhere, or a prerelease above it that `target` contains (its own line
    /// continues: `v2.0.0-rc.1` on main gives `2.0.0-rc.2`) or whose name a `[[branch]]` rule gives
    /// (`named`: the project declared that prerelease line). A prerelease of another line
    /// (`3.0.0-next.4` on `version-3` while main ships 2.x) never lifts it. One
    /// `git for-each-ref --no-merged` when a prerelease tops the releases, none otherwise.
    ///
    /// A prerelease `target` contains is abandoned when the branch went on to release lower finals
    /// after it (httpx's `1.0.0b0` of 2019 on master, followed by 0.24.0 … 0.28.1): a final of a
    /// lower version, tagged later, that `target` contains and that contains the prerelease. It
    /// lifts nothing (one `git merge-base --is-ancestor` per such prerelease). A final tagged on the
    /// prerelease's own commit counts as after it, and once one prerelease of a version is
    /// abandoned the later ones of that version are too: pnpm releases `12.0.0-alpha.N` beside its
    /// 11.x finals, on their commits and between them.
    ///
    /// A final release tagged in another spelling (express's `v5.0.0` while the format, chosen by
    /// its recent bare `4.21.x` tags, is `{version}`) counts when `target` contains it and it is
    /// above what the format's own tags give: the latest release is then that tag, not the format's
    /// `5.0.0-beta.2` it finalised. A spelling is how a tag is written, not another version line.
    ///
    /// A prerelease the project's manifests hold counts as contained though its tag is not: swr
    /// tagged `v2.5.0-beta.0` on its release branch and squash-merged it into `main`, whose
    /// package.json holds 2.5.0-beta.0, so `main`'s next release is `2.5.0-beta.1`. Not a release
    /// candidate, which the manifest rule promotes to its final (docs/versions.md).
    package func latest(
        seenFrom target: String, git: Git, named: Set<String>, held: Set<SemanticVersion> = []
    ) async throws -> Release? {
        var notMerged: Set<String>?
        func contained(_ release: Release) async throws -> Bool {
            if notMerged == nil { notMerged = try await git.tagNames(notMergedInto: target) }
            return notMerged?.contains(release.tag) == false
        }
        var found: Release?
        var parallelLines: [SemanticVersion] = []
        for release in releases {
            guard release.version.isPrerelease else {
                if await isStray(release, git: git) { continue }
                found = release
                break
            }
            if let name = release.version.prereleaseName, named.contains(name) {
                found = release
                break
            }
            // A line found beside the finals once is skipped at once for its lower prereleases.
            if parallelLines.contains(where: { $0.hasSamePrecedence(as: release.version.final) }) { continue }
            // A release candidate the manifest holds is promoted to its final instead (prometheus'
            // VERSION at 3.11.0-rc.0 after cutting it on `release-3.11`: the next is 3.11.0).
            let isHeld = held.contains {
                $0.isPrerelease && !$0.isReleaseCandidate && $0.hasSamePrecedence(as: release.version)
            }
            if !isHeld {
                guard try await contained(release) else { continue }
            }
            if try await isParallelLine(release, contained: contained, git: git, notMerged: { notMerged ?? [] }) {
                parallelLines.append(release.version.final)
                continue
            }
            found = release
            break
        }
        for other in otherSpellingFinals where found.map({ $0.version < other.version }) ?? true {
            // Only a spelling of the format's own line: its major or the next (express's 5.0.0
            // after 4.21.2). coredns' `v011` of 2016 (read as 11.0.0) and go-tools' calendar twins
            // (`2023.1.3` on the commit of `v0.4.3`) are other lines, not its latest release.
            if let found, other.version.major != found.version.major,
                other.version.major != SemanticVersion.increment(found.version.major)
            {
                continue
            }
            // A number written with a leading zero (`v002`) is a counter, not SemVer's major.
            if other.tag.drop(while: { !$0.isNumber }).prefix(2).firstMatch(of: /^0[0-9]/) != nil { continue }
            if try await contained(other) { return other }
        }
        return found
    }

    /// Whether `prerelease`'s line runs beside the branch's finals instead of leading it: the
    /// prerelease itself is abandoned, or an earlier prerelease of the same version the target
    /// contains is. pnpm tags `v11.14.0` and `v12.0.0-alpha.14` on one release commit, then
    /// `v12.0.0-alpha.15-1` alone: once a line has shipped beside lower finals, its later
    /// prereleases are that other line's too, and the branch's latest release stays its final.
    private func isParallelLine(
        _ prerelease: Release, contained: (Release) async throws -> Bool, git: Git,
        notMerged: () -> Set<String>
    ) async throws -> Bool {
        if await isAbandoned(prerelease, notMerged: notMerged(), git: git) { return true }
        let final = prerelease.version.final
        for earlier in releases
        where earlier.version.isPrerelease && earlier.version < prerelease.version
            && earlier.version.final.hasSamePrecedence(as: final)
        {
            guard try await contained(earlier) else { continue }
            if await isAbandoned(earlier, notMerged: notMerged(), git: git) { return true }
        }
        return false
    }

    /// Whether a final release is a stray tag its own line went on past with lower versions:
    /// futures-rs' `1.20` of 2018, a typo on the commit of 0.1.20, contained by the 0.1.21 …
    /// 0.1.31 tagged after it. Asked only of the one final of its major with lower finals tagged
    /// after it (one `git for-each-ref --contains`): a maintenance release of a lower line never
    /// contains the higher line's tags, so a new major beside backports stays the latest.
    package func isStray(_ final: Release, git: Git) async -> Bool {
        guard !releases.contains(where: { $0.tag != final.tag && !$0.version.isPrerelease && $0.version.major == final.version.major })
        else { return false }
        let later = releases.filter {
            !$0.version.isPrerelease && $0.version < final.version && $0.date > final.date && $0.commit != final.commit
        }
        guard !later.isEmpty, let containing = try? await git.tagNames(containing: final.commit) else { return false }
        return later.contains { containing.contains($0.tag) }
    }

    /// Whether the branch released a lower final after `prerelease` on top of it: the newest final
    /// below it that the target contains (not in `notMerged`) is dated after it, or tagged on the
    /// same commit, and contains it.
    private func isAbandoned(_ prerelease: Release, notMerged: Set<String>, git: Git) async -> Bool {
        let later = releases.filter {
            !$0.version.isPrerelease && $0.version < prerelease.version
                && ($0.date > prerelease.date || $0.commit == prerelease.commit)
                && !notMerged.contains($0.tag)
        }
        guard let newest = later.max(by: { $0.date != $1.date ? $0.date < $1.date : $0.tag > $1.tag }) else {
            return false
        }
        return await git.isAncestor(prerelease.commit, of: newest.commit) == true
    }

    /// The release a release of `version` follows: the highest one below it. For a final release
    /// with `skippingItsPrereleases`, that version's own prereleases are passed over (notes for
    /// `v1.0.0` start at `v0.9.0`, not `v1.0.0-rc.2`); prereleases of other versions are not.
    package func previous(before version: SemanticVersion, skippingItsPrereleases: Bool) -> Release? {
        releases.first { release in
            guard release.version < version else { return false }
            if skippingItsPrereleases, !version.isPrerelease, release.version.isPrerelease,
                release.version.final.hasSamePrecedence(as: version.final)
            {
                return false
            }
            return true
        }
    }

    /// The releases tagged on `commit`, highest first.
    package func releases(at commit: String) -> [Release] { releases.filter { $0.commit == commit } }

    /// The release tagged `name`, if that tag is one.
    package func release(named name: String) -> Release? { releases.first { $0.tag == name } }

    /// The tag named `name`, if the repository has it.
    package func tag(named name: String) -> GitTag? { tags.last { $0.name == name } }

    /// The tag naming `version` in any spelling, if one exists.
    package func taken(_ version: SemanticVersion) -> String? { released.tag(naming: version) }

    /// What the release after `previous` (nil: the first release) up to `target` contains: the
    /// commits reachable from `target` and from no release at or below `previous` (git's
    /// `PREVIOUS..TARGET`, whether or not `previous` is an ancestor), less those whose patch
    /// one of those releases carries and `target` does not (`--cherry-pick`: the release branch's
    /// backports, a release commit made off the branch), touching `paths`. The releases below
    /// `previous` count only where it does not contain them (`notMerged`: the names of the tags
    /// that are not ancestors of `previous`) and they came before it (`earlierLines`).
    package func range(to target: String, since previous: Release?, notMerged: Set<String> = []) -> GitLogRange {
        guard let previous else { return GitLogRange(target: target, paths: paths.pathspecs) }
        var bases = [previous.commit]
        for release in earlierLines(below: previous)
        where notMerged.contains(release.tag) && !bases.contains(release.commit) {
            bases.append(release.commit)
        }
        return GitLogRange(target: target, bases: bases, paths: paths.pathspecs)
    }

    /// The releases below `previous` tagged no later than it: a release line that came before it
    /// (left without merging it back, or merged back later), whose changes a release after
    /// `previous` does not list again. A lower release tagged after `previous` is another line's
    /// maintenance release (tokio's LTS `1.43.3` after `1.47.1`, a backport to `1.x` after
    /// `2.0.0`): what it shipped is still new to this line, whether its fix is merged forward or
    /// was picked from here.
    package func earlierLines(below previous: Release) -> [Release] {
        releases.filter { $0.version < previous.version && $0.date <= previous.date }
    }

    /// How a walk of the changes went.
    package struct Walk: Sendable {
        /// Whether the previous release is an ancestor of the target: nil when the walk cannot
        /// tell (no previous release, or nothing in the range touched the project's paths).
        package var previousIsAncestor: Bool?
    }

    /// Hands each commit of the changes since `previous` up to `target` (see `range`) to `body`,
    /// newest first, as one `git log` streams them. When there are releases below `previous`,
    /// one `git for-each-ref --no-merged` first says which of them `previous` does not contain.
    @discardableResult
    package func changes(
        in git: Git, to target: String, since previous: Release?, _ body: @escaping @Sendable (GitCommitRecord) -> Void
    ) async throws -> Walk {
        var notMerged: Set<String> = []
        if let previous, !earlierLines(below: previous).isEmpty {
            notMerged = try await git.tagNames(notMergedInto: previous.commit)
        }
        let range = range(to: target, since: previous, notMerged: notMerged)
        let walk = try await git.forEachCommit(in: range, body)
        guard let previous else { return Walk(previousIsAncestor: nil) }
        if previous.commit == target || walk.boundaries.contains(previous.commit) {
            return Walk(previousIsAncestor: true)
        }
        // With the previous release as the only base, commits on its side say it is no ancestor;
        // so does, without paths, a boundary other than itself (their merge base). Paths rewrite
        // the boundary to the commits touching them; other bases add sides of their own.
        guard range.bases.count == 1 else { return Walk(previousIsAncestor: nil) }
        if walk.otherSide > 0 || (range.paths.isEmpty && !walk.boundaries.isEmpty) {
            return Walk(previousIsAncestor: false)
        }
        return Walk(previousIsAncestor: nil)
    }

    /// The one line `bump` says about tags it did not count, or nil when there are none.
    /// Whether `tag` is the format's prefix and a major number alone (`tauri-v2` of
    /// `tauri-v{version}`): the tag a project moves to its latest release of that major.
    static func isMajorAlias(_ tag: String, version: SemanticVersion, format: TagFormat) -> Bool {
        let digits = tag.reversed().prefix { $0.isASCII && $0.isNumber }.count
        guard digits > 0, digits < tag.count, version.minor == "0", version.patch == "0", !version.isPrerelease else {
            return false
        }
        let head = tag.dropLast(digits)
        return String(tag.suffix(digits)) == version.major && format.tag(for: version).hasPrefix(head)
            && !head.hasSuffix(".")
    }

    package var ignoredSummary: String? {
        guard !ignored.isEmpty else { return nil }
        let shown = ignored.prefix(5).map { item -> String in
            switch item.reason {
            case .otherSpelling: return "`\(item.tag)`"
            case .noVersion: return "`\(item.tag)` (no version)"
            }
        }
        let more = ignored.count > shown.count ? " and \(ignored.count - shown.count) more" : ""
        let spelled = ignored.contains { if case .otherSpelling = $0.reason { true } else { false } }
        return
            "\(ignored.count) tag\(ignored.count == 1 ? " is" : "s are") not a release of tag-format `\(format.pattern)` and \(ignored.count == 1 ? "was" : "were") ignored: \(shown.joined(separator: ", "))\(more)"
            + (spelled ? "; a version tagged in another spelling is never proposed again" : "")
    }
}
