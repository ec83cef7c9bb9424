import Foundation

/// The next version from the commits since the last release (`relctl bump`).
public struct VersionBump: Sendable, Equatable {
    public enum Level: String, Sendable, Codable, Comparable {
        case patch, minor, major, prerelease
        private var rank: Int { [.prerelease: 0, .patch: 1, .minor: 2, .major: 3][self] ?? 0 }
        public static func < (a: Level, b: Level) -> Bool { a.rank < b.rank }
    }

    /// The last release tag (any SemVer tag in the tag format reachable from HEAD); nil if none.
    public var previousTag: String?
    public var current: SemanticVersion?
    public var next: SemanticVersion
    public var level: Level
    /// Commits considered (after dropping merges and cancelled reverts).
    public var commitCount: Int

    /// The first version of a project without release tags.
    public static let initialVersion = SemanticVersion(major: 0, minor: 1, patch: 0)

    /// Rules: breaking → major (minor below 1.0.0), feat → minor, anything else → patch; after a
    /// prerelease (`1.0.0-rc.1`) the prerelease counter continues (`1.0.0-rc.2`).
    public static func compute(git: Git, config: RelctlConfig, target: String = "HEAD") throws -> VersionBump {
        let targetCommit = try git.rangeEnd(target)
        let format = config.project.tagFormat
        let tags = try git.tagsMerged(into: targetCommit).compactMap { name in (try? format.version(of: name)).map { (name, $0) } }
        let last = tags.max { $0.1 < $1.1 || ($0.1.hasSamePrecedence(as: $1.1) && $0.0 < $1.0) }
        let commits = CommitClassifier.cancellingReverts(
            try git.commitLog(from: try last.map { try git.commit(of: $0.0) }, to: targetCommit)
        ).filter { !$0.isMerge }
        var level = Level.patch
        for commit in commits {
            guard let parsed = ConventionalCommit(subject: commit.subject, body: commit.body) else { continue }
            if parsed.isBreaking { level = .major; break }
            if parsed.type == "feat" { level = max(level, .minor) }
        }
        guard let current = last?.1 else {
            return VersionBump(previousTag: nil, current: nil, next: unreleasedVersion(config) ?? initialVersion, level: level, commitCount: commits.count)
        }
        return VersionBump(previousTag: last?.0, current: current, next: next(after: current, level: level), level: current.isPrerelease ? .prerelease : level, commitCount: commits.count)
    }

    /// Before the first release tag, the version the first `[[version]]` manifest already declares
    /// has not shipped yet, so it is the next one (`--write` must never lower it to 0.1.0); nil when
    /// there is no readable SemVer version above 0.0.0.
    static func unreleasedVersion(_ config: RelctlConfig) -> SemanticVersion? {
        guard let source = config.versions.first, let found = try? ManifestReaders.read(source, root: config.root),
              let version = semanticVersion(ofManifestText: found.text),
              version > SemanticVersion(major: 0, minor: 0, patch: 0) else { return nil }
        return version
    }

    /// A manifest's version as SemVer: as written, or a plain PEP 440 one (`1.2.0rc1` → `1.2.0-rc.1`);
    /// nil for what has no SemVer reading (epochs, post and dev releases).
    static func semanticVersion(ofManifestText text: String) -> SemanticVersion? {
        if let version = try? SemanticVersion(parsing: text) { return version }
        guard let pep = PEP440Version(text), pep.epoch == 0, pep.post == nil, pep.dev == nil, pep.local == nil,
              (1...3).contains(pep.release.count) else { return nil }
        let numbers = (pep.release + ["0", "0"]).prefix(3).joined(separator: ".")
        let phase = pep.pre.map { ["a": "-alpha.", "b": "-beta.", "rc": "-rc."][$0.phase, default: "-\($0.phase)."] + $0.number } ?? ""
        return try? SemanticVersion(parsing: numbers + phase)
    }

    /// Applies the rules to one version.
    public static func next(after current: SemanticVersion, level: Level) -> SemanticVersion {
        if current.isPrerelease {
            var next = current
            next.build = []
            if let index = next.prerelease.lastIndex(where: { $0.number != nil }), let number = next.prerelease[index].number {
                next.prerelease[index] = .numeric(String(number + 1))
            } else {
                next.prerelease.append(.numeric("1"))
            }
            return next
        }
        let major = Int(current.major) ?? 0, minor = Int(current.minor) ?? 0, patch = Int(current.patch) ?? 0
        switch level {
        case .major where major == 0, .minor:
            return SemanticVersion(major: major, minor: minor + 1, patch: 0)
        case .major:
            return SemanticVersion(major: major + 1, minor: 0, patch: 0)
        case .patch, .prerelease:
            return SemanticVersion(major: major, minor: minor, patch: patch + 1)
        }
    }

    /// Rewrites the version in every configured manifest, touching only the version text on its
    /// line (PEP 440 spelling for Python manifests). A manifest already above `version` is an
    /// error, never lowered. Returns the files written, relative to the root.
    @discardableResult
    public static func write(_ version: SemanticVersion, config: RelctlConfig) throws -> [String] {
        struct Edit { var url: URL; var display: String; var line: Int; var old: String; var new: String }
        var edits: [Edit] = []
        for source in config.versions {
            let found = try ManifestReaders.read(source, root: config.root)
            let reader = try ManifestReaders.reader(for: source.kind)
            var spelled = version.description
            if reader.comparison == .pep440 {
                guard let pep = PEP440Version(semver: version) else {
                    throw SimpleError(.badInput, file: found.foundIn, "version \(version) has no PEP 440 spelling; use a prerelease such as -rc.1, -beta.2 or -alpha.1")
                }
                spelled = pep.description
            }
            if let declared = semanticVersion(ofManifestText: found.text), declared > version {
                throw SimpleError(.failure, file: found.foundIn, line: found.line, "holds \(declared), above \(version) from the commits since the last release; --write never lowers a version, so set it by hand (or tag \(declared) first)")
            }
            guard let line = found.line else {
                throw SimpleError(.badInput, file: found.foundIn, "cannot tell which line holds the version `\(found.text)`; edit it by hand")
            }
            let url = config.resolve(found.foundIn)
            if edits.contains(where: { $0.url.standardizedFileURL == url.standardizedFileURL && $0.line == line }) { continue }
            edits.append(Edit(url: url, display: found.foundIn, line: line, old: found.text, new: spelled))
        }
        // Everything is checked before anything is written, so a bad manifest leaves all files as they were.
        var contents: [URL: String] = [:]
        var order: [(URL, String)] = []
        for edit in edits {
            let key = edit.url.standardizedFileURL
            if contents[key] == nil {
                guard let data = FileManager.default.contents(atPath: key.path) else { throw ManifestError.missing(path: edit.display) }
                contents[key] = String(decoding: data, as: UTF8.self)
                order.append((key, edit.display))
            }
            // Split on the "\n" byte, not the Character ("\r\n" is one Character): CRLF lines keep
            // their "\r", and line numbers agree with the readers', which count CRLF as one break.
            var lines = contents[key]!.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            guard edit.line >= 1, edit.line <= lines.count, let range = Self.versionRange(of: edit.old, in: lines[edit.line - 1]) else {
                throw SimpleError(.badInput, file: edit.display, line: edit.line, "version `\(edit.old)` not found on this line; edit it by hand")
            }
            lines[edit.line - 1].replaceSubrange(range, with: edit.new)
            contents[key] = lines.joined(separator: "\n")
        }
        var written: [String] = []
        for (url, display) in order {
            let text = contents[url]!
            let original = FileManager.default.contents(atPath: url.path).map { String(decoding: $0, as: UTF8.self) }
            if text != original {
                try AtomicFile.write(text, to: url, permissions: Self.permissions(of: url))
                written.append(display)
            }
        }
        return written
    }

    /// Where the version `text` sits on `line`: a whole occurrence (not part of a longer version or
    /// word), preferring the first after the word "version", so a dependency on the same line
    /// (`{"dependencies":{"a":"^1.0.0"},"version":"1.0.0"}`) keeps its text.
    static func versionRange(of text: String, in line: String) -> Range<String.Index>? {
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
           let afterKeyword = whole.first(where: { $0.lowerBound >= keyword.upperBound }) {
            return afterKeyword
        }
        return whole.first ?? line.range(of: text)
    }

    private static func permissions(of url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.posixPermissions] as? NSNumber)?.intValue ?? 0o644
    }
}
