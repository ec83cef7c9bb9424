import Foundation
import RelctlBasics
import Synchronization

/// The changes of many version lines (a workspace's members) from one `git log --name-only` walk
/// of the target's history, instead of one `git log -- PATHS` walk per member (PRODUCT "Round 4 →
/// Monorepos": on 200 members the per-member walks read the history 200 times).
///
/// Each request is what `ReleaseHistory.changes(in:to:since:_:)` would walk: the commits reachable
/// from the target and from no release at or below `since` (the bases), touching the member's
/// paths, fed to a `BumpCollector` newest first. The walk marks, children before parents, which
/// commits each request's bases reach, and hands every commit that is not marked and touches a
/// request's paths to that request's collector, in the order its own walk would (both are git's
/// `--topo-order` of the same commits). Nothing of a commit is kept after it is handed over but
/// its name in the collectors it went to and the marks still to pass to its parents.
///
/// A request whose own walk cannot be reproduced from this one is answered `.ownWalk` with the
/// reason, and its bump walks its own history as before (the reference this walk is tested against).
package enum SharedHistoryWalk {
    package struct Request: Sendable {
        package var history: ReleaseHistory
        package var since: ReleaseHistory.Release?

        package init(history: ReleaseHistory, since: ReleaseHistory.Release?) {
            self.history = history
            self.since = since
        }
    }

    package enum Answer: Sendable {
        case walked(BumpCollector, ReleaseHistory.Walk)
        /// This walk cannot give the request's changes exactly: why (for tests and debugging).
        case ownWalk(reason: String)
    }

    /// One walk from `target` (a commit) answering every request, in order.
    package static func run(git: Git, target: String, requests: [Request]) async throws -> [Answer] {
        let lines = try await UnmergedLines.read(git: git, target: target, requests: requests)
        var state = WalkState(requests: requests, unmerged: lines)
        guard state.walking else { return state.answers() }
        let shared = Mutex(state)
        try await git.forEachCommitWithFiles(from: target) { commit in
            shared.withLock { $0.take(commit) }
        }
        state = shared.withLock { $0 }
        return state.answers()
    }

    /// Where the walk is: the requests' collectors, the marks on their way to older commits, what
    /// was seen that decides whether a request's answer holds.
    package struct WalkState: Sendable {
        private let requests: [Request]
        private let paths: HistoryPathIndex
        /// The requests each path set of `paths` feeds.
        private let requestsOfPath: [[Int]]
        /// The requests each base commit stops.
        private let baseOwners: [CommitName: [Int]]
        private let words: Int
        private var pending: [CommitName: [UInt64]] = [:]
        private var seenBases: Set<CommitName> = []
        private var collectors: [BumpCollector]
        private var ownWalk: [String?]
        private var merges: [CommitName] = []
        /// The hashes each revert cites, and the requests it was handed to.
        private var citing: [(cited: [String], requests: [Int])] = []
        private var touched: [Int] = []
        private var stamps: [Int]
        private var serial = 0
        /// The path set each request reads.
        private let pathOf: [Int]
        /// For a request whose earlier lines include one the target does not contain: each commit
        /// of those lines as its paths keep it. A commit of the target's side kept the same way
        /// may carry the same patch, which its own walk (`--cherry-pick`) leaves out.
        private let lineCommits: [Set<[String]>?]
        private let unmerged: UnmergedLines

        package init(requests: [Request], unmerged: UnmergedLines = UnmergedLines()) {
            self.requests = requests
            var unique: [HistoryPaths] = []
            var pathOf: [Int] = []
            for request in requests {
                if let index = unique.firstIndex(of: request.history.paths) {
                    pathOf.append(index)
                } else {
                    pathOf.append(unique.count)
                    unique.append(request.history.paths)
                }
            }
            paths = HistoryPathIndex(unique)
            var requestsOfPath = Array(repeating: [Int](), count: unique.count)
            var ownWalk = Array(repeating: String?.none, count: requests.count)
            var owners: [CommitName: [Int]] = [:]
            var lineCommits = Array(repeating: Set<[String]>?.none, count: requests.count)
            for (index, request) in requests.enumerated() {
                if let reason = paths.unsupported[pathOf[index]] {
                    ownWalk[index] = reason
                    continue
                }
                requestsOfPath[pathOf[index]].append(index)
                guard let since = request.since else { continue }
                // `since` and the earlier lines below it: its own walk stops at `since` and at
                // those `since` does not contain. Those it contains stop nothing more, so every
                // one can be a base here, with no `git for-each-ref --no-merged` per member.
                // An earlier line the target does not contain stops the walk where its history
                // meets the target's (its entries), and its own commits are the other side.
                var bases = [since.commit]
                for release in request.history.earlierLines(below: since) { bases.append(release.commit) }
                var lines = UnmergedLines.Mask(repeating: 0, count: unmerged.words)
                for base in Set(bases) {
                    if base != since.commit, let bit = unmerged.bases[CommitName(base)] {
                        lines[bit / 64] |= 1 << UInt64(bit % 64)
                    } else {
                        owners[CommitName(base), default: []].append(index)
                    }
                }
                guard lines.contains(where: { $0 != 0 }) else { continue }
                for (entry, mask) in unmerged.entries where UnmergedLines.meet(mask, lines) {
                    owners[entry, default: []].append(index)
                }
                var kept: Set<[String]> = []
                for commit in unmerged.commits where UnmergedLines.meet(commit.lines, lines) {
                    let files = paths.held(commit.files, by: pathOf[index])
                    if !files.isEmpty || paths.keepsEveryCommit(pathOf[index]) { kept.insert(files) }
                }
                lineCommits[index] = kept
            }
            self.pathOf = pathOf
            self.lineCommits = lineCommits
            self.unmerged = unmerged
            self.requestsOfPath = requestsOfPath
            self.ownWalk = ownWalk
            baseOwners = owners
            words = (requests.count + 63) / 64
            collectors = Array(repeating: BumpCollector(), count: requests.count)
            stamps = Array(repeating: -1, count: unique.count)
        }

        /// Whether any request needs the walk at all.
        package var walking: Bool { ownWalk.contains { $0 == nil } }

        package mutating func take(_ commit: GitFileWalkCommit) {
            let name = CommitName(commit.record.hash)
            var marks = pending.removeValue(forKey: name) ?? []
            if let owners = baseOwners[name] {
                seenBases.insert(name)
                if marks.isEmpty { marks = Array(repeating: 0, count: words) }
                for owner in owners { marks[owner / 64] |= 1 << UInt64(owner % 64) }
            }
            if !marks.isEmpty {
                // Children come first (`--topo-order`): a commit's marks are complete when it is read.
                for parent in commit.parents {
                    if pending[parent] == nil {
                        pending[parent] = marks
                    } else {
                        for word in 0..<words { pending[parent]![word] |= marks[word] }
                    }
                }
            }
            func stopped(_ request: Int) -> Bool {
                !marks.isEmpty && marks[request / 64] & (1 << UInt64(request % 64)) != 0
            }
            let looksLikeRevert = CommitClassifier.looksLikeRevert(commit.record.subject)
            if commit.record.isMerge {
                merges.append(name)
                // A merge counts as a revert in a bump when its own walk shows it, and whether it
                // does depends on its diff against each parent (git's TREESAME rule), which this
                // walk does not read: the requests it would reach walk their own history.
                if looksLikeRevert, !CommitClassifier.revertedHashes(of: commit.record).isEmpty {
                    for request in requests.indices where !stopped(request) && ownWalk[request] == nil {
                        ownWalk[request] =
                            "a merge in its range is a revert; whether its own walk shows the merge depends on the merge's diff against each parent"
                    }
                }
                return
            }
            serial += 1
            paths.touched(by: commit.files, into: &touched, stamps: &stamps, serial: serial)
            var receivers: [Int] = []
            for path in touched {
                for request in requestsOfPath[path] where !stopped(request) {
                    collectors[request].add(commit.record)
                    receivers.append(request)
                    if let kept = lineCommits[request], !kept.isEmpty, ownWalk[request] == nil,
                        kept.contains(paths.held(commit.files, by: path))
                    {
                        ownWalk[request] =
                            "commit \(commit.record.hash) changes the files a commit of a release line the target does not contain changes; its own walk compares their patches"
                    }
                }
            }
            if looksLikeRevert, !receivers.isEmpty {
                let cited = CommitClassifier.revertedHashes(of: commit.record)
                if !cited.isEmpty { citing.append((cited, receivers)) }
            }
        }

        package func answers() -> [Answer] {
            let unmerged = self.unmerged
            var ownWalk = self.ownWalk
            // Merges are not handed over; a revert citing one would cancel it in its own walk.
            let merges = self.merges.sorted()
            func mergeStarting(with prefix: String) -> Bool {
                let key = CommitName(prefix)
                var low = 0
                var high = merges.count
                while low < high {
                    let middle = (low + high) / 2
                    if merges[middle] < key { low = middle + 1 } else { high = middle }
                }
                return low < merges.count && merges[low].hasPrefix(prefix)
            }
            for (cited, receivers) in citing where cited.contains(where: mergeStarting(with:)) {
                for request in receivers where ownWalk[request] == nil {
                    ownWalk[request] =
                        "a revert in its range cites a merge, which its own walk may list and this one does not"
                }
            }
            return requests.indices.map { index in
                if let reason = ownWalk[index] { return .ownWalk(reason: reason) }
                guard let since = requests[index].since else {
                    return .walked(collectors[index], ReleaseHistory.Walk(previousIsAncestor: nil))
                }
                // A base the target does not reach has commits of its own, whose patches its own
                // walk leaves out of the changes (`--cherry-pick`): a release line not merged back.
                let bases =
                    [since.commit]
                    + requests[index].history.earlierLines(below: since).map(\.commit).filter {
                        unmerged.bases[CommitName($0)] == nil
                    }
                if let missing = bases.first(where: { !seenBases.contains(CommitName($0)) }) {
                    return .ownWalk(
                        reason:
                            "release commit \(missing) is not an ancestor of the target; its own walk leaves out the patches that release line already carries"
                    )
                }
                return .walked(collectors[index], ReleaseHistory.Walk(previousIsAncestor: true))
            }
        }
    }
}

/// The releases of earlier lines that a walk's target does not contain (a maintenance branch
/// never merged back, an abandoned beta line), read in one `git log` of their own commits: where
/// each line's history meets the target's, and the files each of its commits changes. A request
/// with such a line among its bases is answered from the shared walk (its own walk is git's
/// `--cherry-pick` of `LINE...TARGET`): the commits the line and the target share are the ones
/// reachable from its entries, and a commit of the target's side can carry a patch of the line's
/// only when both change the same files under the request's paths, which the walk checks.
package struct UnmergedLines: Sendable {
    package typealias Request = SharedHistoryWalk.Request
    package typealias Mask = [UInt64]
    /// Each unmerged release commit's bit in the masks.
    package var bases: [CommitName: Int] = [:]
    /// The target's commits the lines' commits have as parents, with the lines reaching them:
    /// everything a line shares with the target is reachable from these.
    package var entries: [CommitName: Mask] = [:]
    /// Each of the lines' commits that is no merge, with the lines holding it (an empty commit has
    /// a patch too, which an empty commit of the target's carries when no paths limit the walk).
    package var commits: [(files: [String], lines: Mask)] = []
    package var words = 0

    package init() {}

    static func meet(_ left: Mask, _ right: Mask) -> Bool {
        zip(left, right).contains { $0 & $1 != 0 }
    }

    /// The lines among the requests' earlier lines whose release `target` does not contain.
    package static func read(git: Git, target: String, requests: [Request]) async throws -> UnmergedLines {
        var candidates: [String: String] = [:]
        for request in requests {
            guard let since = request.since else { continue }
            for release in request.history.earlierLines(below: since) { candidates[release.tag] = release.commit }
        }
        guard !candidates.isEmpty else { return UnmergedLines() }
        let notMerged = try await git.tagNames(notMergedInto: target)
        let commits = Set(candidates.filter { notMerged.contains($0.key) }.values).sorted()
        guard !commits.isEmpty else { return UnmergedLines() }
        var lines = UnmergedLines()
        lines.words = (commits.count + 63) / 64
        for (bit, commit) in commits.enumerated() { lines.bases[CommitName(commit)] = bit }
        let walk = Mutex((lines: lines, pending: [CommitName: Mask]()))
        try await git.forEachCommitWithFiles(from: commits, notFrom: [target]) { commit in
            walk.withLock { state in
                let name = CommitName(commit.record.hash)
                var marks = state.pending.removeValue(forKey: name) ?? Mask(repeating: 0, count: state.lines.words)
                if let bit = state.lines.bases[name] { marks[bit / 64] |= 1 << UInt64(bit % 64) }
                // Children come first (`--topo-order`): what is still pending at the end is a parent
                // the walk did not list, one of the target's commits.
                for parent in commit.parents {
                    if let known = state.pending[parent] {
                        state.pending[parent] = zip(known, marks).map { $0 | $1 }
                    } else {
                        state.pending[parent] = marks
                    }
                }
                if !commit.record.isMerge {
                    state.lines.commits.append((commit.files, marks))
                }
            }
        }
        return walk.withLock { state in
            var lines = state.lines
            lines.entries = state.pending
            return lines
        }
    }
}

/// Which of several `HistoryPaths` each changed file belongs to, as their git pathspecs
/// (`HistoryPaths.pathspecs`) would answer: under the folder, not matching an `exclude` glob.
/// `include` globs are joined to the folder, so a commit they keep is already under it. What this
/// cannot answer exactly (an include leaving the folder, a glob with brackets or escapes) is in
/// `unsupported`, and those members walk their own history with git's own pathspecs.
package struct HistoryPathIndex: Sendable {
    /// Keyed by substring so a file's leading folders are looked up without a copy.
    private var byFolder: [Substring: [Int]] = [:]
    /// Path sets with no pathspec at all (the whole repository): every commit is theirs, even one
    /// that changes no file.
    private var everything: [Int] = []
    /// Path sets whose folder is the repository's top, with exclude globs.
    private var top: [Int] = []
    private var excludes: [[PathspecGlob]]
    /// Each set's folder ("" for the top), nil for the whole repository.
    private var folders: [String?]
    /// Why a path set cannot be matched here, by index.
    package private(set) var unsupported: [Int: String] = [:]

    package init(_ sets: [HistoryPaths]) {
        excludes = Array(repeating: [], count: sets.count)
        folders = Array(repeating: nil, count: sets.count)
        for (index, paths) in sets.enumerated() {
            if let include = paths.include.first(where: { !PathspecGlob.staysInside($0) }) {
                unsupported[index] =
                    "its include `\(include)` reaches outside its folder, which git's pathspec resolves"
                continue
            }
            var globs: [PathspecGlob] = []
            for exclude in paths.exclude {
                guard let glob = PathspecGlob(folder: paths.folder, glob: exclude) else {
                    unsupported[index] = "its exclude `\(exclude)` is matched by git's own pathspec rules"
                    break
                }
                globs.append(glob)
            }
            if unsupported[index] != nil { continue }
            excludes[index] = globs
            if !paths.pathspecs.isEmpty { folders[index] = paths.folder }
            if paths.pathspecs.isEmpty {
                everything.append(index)
            } else if paths.folder.isEmpty {
                top.append(index)
            } else {
                byFolder[paths.folder[...], default: []].append(index)
            }
        }
    }

    /// Whether the path set `index` is the whole repository: every commit is its, an empty one too.
    package func keepsEveryCommit(_ index: Int) -> Bool { folders[index] == nil && unsupported[index] == nil }

    /// Which of `files` the path set `index` holds, in their order (all of them for the whole
    /// repository): what git's pathspec keeps of a commit's diff.
    package func held(_ files: [String], by index: Int) -> [String] {
        guard let folder = folders[index] else { return files }
        return files.filter { file in
            guard folder.isEmpty || (file.hasPrefix(folder) && file.utf8.dropFirst(folder.utf8.count).first == UInt8(ascii: "/"))
            else { return false }
            return !excludes[index].contains { $0.matches(file) }
        }
    }

    /// The path sets `files` (one commit's) touch, in `result`; `stamps` and `serial` keep a set
    /// from being listed twice without a set per commit.
    package func touched(by files: [String], into result: inout [Int], stamps: inout [Int], serial: Int) {
        result.removeAll(keepingCapacity: true)
        for index in everything {
            stamps[index] = serial
            result.append(index)
        }
        for file in files {
            func consider(_ index: Int) {
                guard stamps[index] != serial, !excludes[index].contains(where: { $0.matches(file) }) else { return }
                stamps[index] = serial
                result.append(index)
            }
            for index in top { consider(index) }
            guard !byFolder.isEmpty else { continue }
            var scan = file.utf8.startIndex
            while let slash = file.utf8[scan...].firstIndex(of: UInt8(ascii: "/")) {
                if let sets = byFolder[file[..<slash]] {
                    for index in sets { consider(index) }
                }
                scan = file.utf8.index(after: slash)
            }
        }
    }
}

/// One `:(top,glob,exclude)FOLDER/GLOB` pathspec, matched as git matches it against a changed
/// file: a glob with wildcards matches the whole path (`*` and `?` within one path component,
/// `**` as a whole component across any number of them, git's wildmatch); one without matches
/// the path itself or everything under it as a folder.
package struct PathspecGlob: Sendable {
    private let pattern: [UInt8]
    private let literal: Bool

    /// Nil for what git would rewrite or read with rules not reproduced here: brackets and
    /// escapes, `.` and `..` components, empty components, an empty glob.
    package init?(folder: String, glob: String) {
        guard !glob.isEmpty, !glob.contains("["), !glob.contains("\\"), !glob.hasPrefix("/") else { return nil }
        let components = glob.split(separator: "/", omittingEmptySubsequences: false)
        for (index, component) in components.enumerated() {
            if component == "." || component == ".." { return nil }
            if component.isEmpty && index != components.count - 1 { return nil }
        }
        literal = !glob.contains("*") && !glob.contains("?")
        // A trailing `/` with wildcards: git's matching of it is not reproduced.
        if !literal && glob.hasSuffix("/") { return nil }
        pattern = Array((folder.isEmpty ? glob : folder + "/" + glob).utf8)
    }

    /// Whether `include` (relative to a member's folder) names only paths inside that folder.
    package static func staysInside(_ include: String) -> Bool {
        !include.hasPrefix("/") && !include.split(separator: "/").contains("..")
    }

    package func matches(_ path: String) -> Bool {
        let text = Array(path.utf8)
        if literal {
            if pattern.last == UInt8(ascii: "/") { return text.starts(with: pattern) }
            return text == pattern
                || (text.count > pattern.count && text.starts(with: pattern)
                    && text[pattern.count] == UInt8(ascii: "/"))
        }
        return Self.wildmatch(pattern[...], text[...])
    }

    private static let slash = UInt8(ascii: "/")
    private static let star = UInt8(ascii: "*")

    private static func wildmatch(_ pattern: ArraySlice<UInt8>, _ text: ArraySlice<UInt8>) -> Bool {
        var p = pattern.startIndex
        var t = text.startIndex
        while p < pattern.endIndex {
            let byte = pattern[p]
            if byte == star {
                var end = p
                while end < pattern.endIndex && pattern[end] == star { end += 1 }
                let wholeComponent =
                    end - p >= 2 && (p == pattern.startIndex || pattern[p - 1] == slash)
                    && (end == pattern.endIndex || pattern[end] == slash)
                if wholeComponent {
                    // `**` at the end: everything below; `**/`: zero or more whole components.
                    if end == pattern.endIndex { return true }
                    let rest = pattern[(end + 1)...]
                    if wildmatch(rest, text[t...]) { return true }
                    var scan = t
                    while scan < text.endIndex {
                        if text[scan] == slash, wildmatch(rest, text[(scan + 1)...]) { return true }
                        scan += 1
                    }
                    return false
                }
                // `*` (or `**` inside a component): any run within one component.
                let rest = pattern[end...]
                var scan = t
                while true {
                    if wildmatch(rest, text[scan...]) { return true }
                    if scan == text.endIndex || text[scan] == slash { return false }
                    scan += 1
                }
            }
            guard t < text.endIndex else { return false }
            if byte == UInt8(ascii: "?") {
                if text[t] == slash { return false }
            } else if byte != text[t] {
                return false
            }
            p += 1
            t += 1
        }
        return t == text.endIndex
    }
}
