import RelctlBasics

/// How a version is spelled as a git tag: a literal prefix and suffix around `{version}`
/// (`v{version}` by default, `release-{version}`, `{project}-v{version}` for monorepos).
public struct TagFormat: Sendable, Hashable, CustomStringConvertible {
    package static let `default` = TagFormat(validated: "v{version}", prefix: "v", suffix: "")

    package let pattern: String
    package let prefix: String
    package let suffix: String
    /// How the version inside a tag is read (`[project] version-scheme`).
    package var scheme: VersionScheme = .semver
    /// For calendar versions: how tags are spelled (learnt from the existing ones, see `learningSpelling`).
    package var calendarSpelling = VersionScheme.CalendarSpelling()

    private init(validated pattern: String, prefix: String, suffix: String) {
        self.pattern = pattern
        self.prefix = prefix
        self.suffix = suffix
    }

    /// Builds a format from `pattern`, expanding `{project}`; it must hold `{version}` exactly once.
    package init(_ pattern: String, project: String = "", scheme: VersionScheme) throws {
        try self.init(pattern, project: project)
        self.scheme = scheme
    }

    /// This format spelling calendar versions the way `tags` (existing tag names) do.
    package func learningSpelling(from tags: [String]) -> TagFormat {
        guard scheme == .calver else { return self }
        var copy = self
        let inner = tags.filter {
            $0.hasPrefix(prefix) && $0.hasSuffix(suffix) && $0.count > prefix.count + suffix.count
        }
        .map { String($0.dropFirst(prefix.count).dropLast(suffix.count)) }
        .filter { (try? VersionScheme.calendarVersion($0)) != nil }
        copy.calendarSpelling = VersionScheme.CalendarSpelling(learningFrom: inner)
        return copy
    }

    /// Builds a format from `pattern`, expanding `{project}`; it must hold `{version}` exactly once.
    package init(_ pattern: String, project: String = "") throws {
        let expanded = pattern.replacingOccurrences(of: "{project}", with: project)
        let pieces = expanded.components(separatedBy: "{version}")
        guard pieces.count == 2 else {
            throw VersionError.formatVersionCount(format: pattern)
        }
        if let stray = pieces.joined().firstIndex(where: { $0 == "{" || $0 == "}" }) {
            let rest = pieces.joined()[stray...]
            throw VersionError.formatPlaceholder(format: pattern, near: String(rest.prefix(12)))
        }
        let sample = pieces[0] + "1.2.3" + pieces[1]
        if let why = GitRefName.problem(in: sample) {
            throw VersionError.formatNotARefName(format: pattern, sample: sample, reason: why)
        }
        self.init(validated: pattern, prefix: pieces[0], suffix: pieces[1])
    }

    /// The version a tag names, or `VersionError.malformedTag` saying what is wrong.
    public func version(of tag: String) throws -> SemanticVersion {
        guard tag.hasPrefix(prefix), tag.hasSuffix(suffix), tag.count >= prefix.count + suffix.count else {
            if let respelled = respelling(of: tag) {
                throw VersionError.malformedTag(
                    tag: tag, format: pattern, reason: "this project's tags are spelled `\(respelled)`: use that")
            }
            let example = self.tag(for: SemanticVersion(major: 1, minor: 2, patch: 3))
            let expected =
                prefix.isEmpty
                ? "end with `\(suffix)`, e.g." : suffix.isEmpty ? "start with `\(prefix)`, e.g." : "look like"
            throw VersionError.malformedTag(tag: tag, format: pattern, reason: "it should \(expected) `\(example)`")
        }
        let inner = String(tag.dropFirst(prefix.count).dropLast(suffix.count))
        if scheme == .calver {
            do {
                return try VersionScheme.calendarVersion(inner)
            } catch let VersionError.malformed(_, why) {
                throw VersionError.malformedTag(
                    tag: tag, format: pattern,
                    reason: respelling(of: tag).map { "this project's tags are spelled `\($0)`: use that" }
                        ?? "`\(inner)` is not a calendar version: \(why)")
            }
        }
        do {
            return try SemanticVersion(parsing: inner)
        } catch VersionError.malformed where respelling(of: tag) != nil {
            throw VersionError.malformedTag(
                tag: tag, format: pattern,
                reason: "this project's tags are spelled `\(respelling(of: tag) ?? "")`: use that")
        } catch let VersionError.malformed(_, why) {
            // A calendar version (helix's 25.07.1) fails on its leading zero or its two numbers: say how to use one.
            let calendar = (try? VersionScheme.calendarVersion(inner)) != nil
            throw VersionError.malformedTag(
                tag: tag, format: pattern,
                reason:
                    "`\(inner)` is not SemVer 2.0.0: \(why)\(calendar ? "; for calendar versions set `version-scheme = \"calver\"` in [project]" : "")"
            )
        }
    }

    /// The tag in this format's spelling when `tag` is a valid version spelled with a `v` too
    /// many or too few (`v15.2.1` for `{version}`, `1.2.3` for `v{version}`); nil otherwise.
    package func respelling(of tag: String) -> String? {
        for other in ReleasedVersions.prefixes(of: self).dropFirst() where tag.hasPrefix(other) && tag.hasSuffix(suffix)
        {
            guard tag.count > other.count + suffix.count else { continue }
            let inner = String(tag.dropFirst(other.count).dropLast(suffix.count))
            let valid =
                scheme == .calver
                ? (try? VersionScheme.calendarVersion(inner)) != nil : (try? SemanticVersion(parsing: inner)) != nil
            if valid { return prefix + inner + suffix }
        }
        return nil
    }

    /// True if the tag has this format's shape and a valid version.
    package func matches(_ tag: String) -> Bool { (try? version(of: tag)) != nil }

    package func tag(for version: SemanticVersion) -> String {
        prefix + (scheme == .calver ? calendarSpelling.spell(version) : version.description) + suffix
    }

    public var description: String { pattern }
}
