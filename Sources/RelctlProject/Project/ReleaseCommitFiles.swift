import Foundation
import RelctlBasics
import RelctlChanges
import RelctlModel

/// The files the latest release commit moved from the previous release's version to its own, on
/// one line (poetry-core's `src/poetry/core/__init__.py`, rollup's `browser/package.json`): the
/// project's release writes them, so `init` lists each that still holds the listed version. A
/// file the commit changed otherwise (a changelog's new heading, a lock file, which relctl
/// updates as a companion) is not one.
package enum ReleaseCommitFiles {
    /// A file to list: its path from the project's folder, and the kind and pattern to read it with.
    package struct Entry: Equatable, Sendable {
        package var path: String
        package var kind: String?
        package var pattern: String?
    }

    /// Bounds on the commit read: a release commit that changes more is a merge of other work.
    static let maximumFiles = 300
    static let maximumLines = 20_000

    static let lockNames: Set<String> = [
        "Cargo.lock", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "uv.lock",
        "poetry.lock", "pdm.lock", "Gemfile.lock", "go.sum", "Package.resolved", "composer.lock",
    ]
    static let proseExtensions: Set<String> = ["md", "rst", "txt", "adoc", "html", "htm", "markdown"]

    /// The entries the release commit of `latest` (after `previous`) shows, read from `root`
    /// (`prefix`: its folder from the repository's top, `""` or ending in `/`), each holding
    /// `expected` now; `listed` paths are left out.
    package static func entries(
        root: URL, git: Git, prefix: String, latest: ReleaseHistory.Release, previous: ReleaseHistory.Release,
        expected: String, listed: Set<String>
    ) async -> [Entry] {
        let (old, new) = (previous.version.description, latest.version.description)
        guard old != new else { return [] }
        // The tag may sit on a commit that only writes prose after the release commit (sentry-python
        // tags `Update README` after `Update CHANGELOG.md` after `release: 2.68.0`): up to
        // `proseCommitsAbove` such commits are passed over, along first parents.
        var commit = latest.commit
        var diff = ""
        for step in 0...proseCommitsAbove {
            guard let stat = try? await git.run(["show", "--numstat", "--format=", "--no-renames", commit]) else {
                return []
            }
            let counts = stat.split(separator: "\n").map { $0.split(separator: "\t") }
            let paths = counts.compactMap { $0.count >= 3 ? String($0[2]) : nil }
            let lines = counts.reduce(0) { $0 + (Int($1.first ?? "") ?? 0) + (Int($1.dropFirst().first ?? "") ?? 0) }
            if step < proseCommitsAbove, !paths.isEmpty, paths.allSatisfy(isProse), commit != previous.commit,
                let parent = try? await git.run(["rev-parse", "--verify", "--quiet", commit + "^1"])
            {
                commit = parent.trimmingCharacters(in: .whitespacesAndNewlines)
                if commit == previous.commit { return [] }
                continue
            }
            guard counts.count <= maximumFiles, lines <= maximumLines,
                let shown = try? await git.run([
                    "show", "--format=", "--unified=0", "--no-color", "--no-ext-diff", "--no-renames", commit,
                ])
            else { return [] }
            diff = shown
            break
        }
        var found: [Entry] = []
        for (path, line) in movedLines(in: diff, from: old, to: new) {
            guard path.hasPrefix(prefix) else { continue }
            let relative = String(path.dropFirst(prefix.count))
            guard !listed.contains(relative), !found.contains(where: { $0.path == relative }), isCandidate(relative),
                let entry = entry(for: relative, line: line, version: new),
                let held = try? ManifestReaders.read(
                    VersionSource(path: entry.path, kind: entry.kind ?? ManifestReaders.kind(forFileName: entry.path) ?? "plain", pattern: entry.pattern),
                    root: root),
                held.text == expected
            else { continue }
            found.append(entry)
        }
        return found
    }

    /// The `+` lines of `diff` (`git show --unified=0`) that are a `-` line of the same hunk with
    /// `old` replaced by `new`, with their file's path from the repository's top.
    static func movedLines(in diff: String, from old: String, to new: String) -> [(path: String, line: String)] {
        var result: [(String, String)] = []
        var path: String?
        var removed: [Substring] = []
        var added: [Substring] = []
        func flush() {
            // Each removed line rewritten once, then a lookup per added line: a hunk of two
            // rewritten lock files (taplo's Cargo.lock, thousands of lines a side) compared pair by
            // pair took init 110 s.
            if let path, !added.isEmpty, !removed.isEmpty {
                let replaced = Set(removed.lazy.filter { $0.contains(old) }.map { $0.replacingOccurrences(of: old, with: new) })
                for line in added where line.contains(new) && replaced.contains(String(line)) {
                    result.append((path, String(line)))
                }
            }
            removed = []
            added = []
        }
        for line in diff.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("diff --git ") {
                flush()
                path = nil
            } else if line.hasPrefix("+++ ") {
                path = line.hasPrefix("+++ b/") ? String(line.dropFirst(6)) : nil
            } else if line.hasPrefix("--- ") {
                continue
            } else if line.hasPrefix("@@") {
                flush()
            } else if line.hasPrefix("-") {
                removed.append(line.dropFirst())
            } else if line.hasPrefix("+") {
                added.append(line.dropFirst())
            }
        }
        flush()
        return result
    }

    /// How many commits that only write prose (a changelog, a README) may sit between the release
    /// commit and its tag.
    static let proseCommitsAbove = 3

    /// A changelog, a README or another document: what a commit after the release commit writes.
    static func isProse(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let stem = name.uppercased()
        if ["CHANGELOG", "CHANGES", "NEWS", "HISTORY", "RELEASE", "README"].contains(where: { stem.hasPrefix($0) }) {
            return true
        }
        guard let dot = name.lastIndex(of: ".") else { return false }
        return proseExtensions.contains(String(name[name.index(after: dot)...]).lowercased())
    }

    /// Not a lock file (a companion relctl updates itself), prose (a changelog, a README's install
    /// line), CI or a test fixture.
    static func isCandidate(_ path: String) -> Bool {
        let parts = path.split(separator: "/").map(String.init)
        // go.mod declares no version of its own module: a line the release commit moved there is
        // a requirement of a sibling module (opentelemetry-go-contrib's 23 `go.opentelemetry.io/otel`).
        guard let name = parts.last, !lockNames.contains(name), !isProse(name), name != "go.mod" else { return false }
        return !parts.dropLast().contains {
            $0.hasPrefix(".") || StarterConfig.fixtureFolders.contains($0.lowercased()) || $0 == "docs" || $0 == "doc"
        }
    }

    /// Whether a `regex` entry held each earlier release's own version at that release's commit,
    /// where the file was there: a version file does; a constant the latest release commit
    /// happened to move does not (wasm-bindgen's `SCHEMA_VERSION`, 0.2.96 at 0.2.97 and 0.2.98).
    static func heldEarlier(
        _ entry: Entry, releases: [ReleaseHistory.Release], git: Git, prefix: String
    ) async -> Bool {
        guard entry.kind == "regex", let pattern = entry.pattern,
            let regex = try? NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
        else { return true }
        for release in releases {
            switch await versionText(of: entry.path, at: release.commit, prefix: prefix, regex: regex, git: git) {
            case .absent: continue
            case .found(let text) where text == release.version.description: continue
            default: return false
            }
        }
        return true
    }

    /// What a file held at a commit, read by a `regex` entry's pattern.
    enum HeldText: Equatable {
        case absent, unmatched, found(String)
    }

    /// The version text `regex` reads in `path` (from the project's folder, `prefix` its place
    /// from the top) at `commit`: `git show COMMIT:PATH`, at most the regex reader's size limit.
    static func versionText(
        of path: String, at commit: String, prefix: String, regex: NSRegularExpression, git: Git
    ) async -> HeldText {
        guard let result = try? await git.runUnchecked(["show", "\(commit):\(prefix)\(path)"]), result.succeeded,
            result.stdout.count <= RegexManifestReader.sizeLimit
        else { return .absent }
        let text = result.stdoutText
        guard let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let range = Range(match.range(withName: "version"), in: text)
        else { return .unmatched }
        return .found(String(text[range]))
    }

    /// How to read `path` whose `line` holds `version`: the kind its name gives (package.json,
    /// Cargo.toml, pyproject.toml), Python's `__version__`, else a `regex` on the text before it.
    /// With `byKind` false, always the `regex` on the line's own text, so each of several lines of
    /// one file holding the version is an entry of its own.
    static func entry(for path: String, line: String, version: String, byKind: Bool = true) -> Entry? {
        if byKind {
            if ManifestReaders.kind(forFileName: path) != nil { return Entry(path: path, kind: nil, pattern: nil) }
            if path.hasSuffix(".py"), line.contains("__version__") { return Entry(path: path, kind: "python", pattern: nil) }
        }
        guard let range = line.range(of: version) else { return nil }
        let before = line[..<range.lowerBound].drop { $0 == " " || $0 == "\t" }
        // Words before the version (`version = "`, `VERSION: &str = "`), not a bare number.
        guard before.contains(where: \.isLetter), before.count <= 80 else { return nil }
        let pattern = NSRegularExpression.escapedPattern(for: String(before)) + #"(?<version>[0-9][0-9A-Za-z.+-]*)"#
        return Entry(path: path, kind: "regex", pattern: pattern)
    }
}
