import RelctlBasics

/// How a version is spelled as a git tag: a literal prefix and suffix around `{version}`
/// (`v{version}` by default, `release-{version}`, `{project}-v{version}` for monorepos).
public struct TagFormat: Sendable, Hashable, CustomStringConvertible {
    package static let `default` = TagFormat(validated: "v{version}", prefix: "v", suffix: "")

    package let pattern: String
    package let prefix: String
    package let suffix: String
    /// What stands between the version's parts in the tag: `.`, or `_` for a format spelling the
    /// parts one by one, `rel_{major}_{minor}_{patch}` (alembic's and SQLAlchemy's `rel_1_19_1`).
    package private(set) var separator: Character = "."
    /// The parts of a format that spells the version with underscores.
    package static let underscoredVersion = "{major}_{minor}_{patch}"
    /// How the version inside a tag is read (`[project] version-scheme`).
    package var scheme: VersionScheme = .semver
    /// For calendar versions: how tags are spelled (learnt from the existing ones, see `learningSpelling`).
    package var calendarSpelling = VersionScheme.CalendarSpelling()
    /// The project's versions are PEP 440 (a Python manifest among its `[[version]]`s): tags may
    /// spell prereleases as PEP 440 does (`v2.14.0b1`, `2.0rc1`).
    package var readsPEP440 = false
    /// How a prerelease is spelled in the tags relctl proposes: as SemVer (`v2.14.0-beta.2`) or, in
    /// a PEP 440 project whose latest prerelease tags are spelled so, as PEP 440 (`v2.14.0b2`).
    package var prereleaseSpelling = PrereleaseSpelling.semver

    package enum PrereleaseSpelling: Sendable, Hashable {
        case semver, pep440
    }

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
    package func learningSpelling(from tags: some Sequence<String>) -> TagFormat {
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
        var expanded = pattern.replacingOccurrences(of: "{project}", with: project)
        let underscored = expanded.contains(Self.underscoredVersion)
        if underscored {
            guard !expanded.contains("{version}") else { throw VersionError.formatVersionCount(format: pattern) }
            expanded = expanded.replacingOccurrences(of: Self.underscoredVersion, with: "{version}")
        }
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
        if underscored { separator = "_" }
    }

    /// The version text inside `tag` after `prefix` and before the suffix, its parts joined by `.`
    /// whatever the format's separator (`rel_1_19_1` → `1.19.1`).
    func versionText(of tag: String, prefix: String) -> String? {
        guard let inner = Self.inner(of: tag, prefix: prefix, suffix: suffix) else { return nil }
        return separator == "." ? inner : inner.replacingOccurrences(of: String(separator), with: ".")
    }

    /// `text` (a version as relctl spells it) with the format's separator between its parts.
    func spelledParts(_ text: String) -> String {
        separator == "." ? text : text.replacingOccurrences(of: ".", with: String(separator))
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
        var inner = String(tag.dropFirst(prefix.count).dropLast(suffix.count))
        if separator != "." {
            // `rel_1_19_1`: only underscores between the parts; a `.` is another spelling.
            guard !inner.contains(".") else {
                throw VersionError.malformedTag(
                    tag: tag, format: pattern,
                    reason: "it should spell the version's parts with `_`, e.g. `\(self.tag(for: SemanticVersion(major: 1, minor: 2, patch: 3)))`")
            }
            inner = inner.replacingOccurrences(of: String(separator), with: ".")
        }
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
        // The project's own spelling of a prerelease (`v2.14.0b1` for pydantic's 2.14.0b1): three
        // numbers in PEP 440's normal form. Two numbers (`v1.2`) or padding (`v01.2.3`) are read in
        // the history, never accepted for a new tag.
        if readsPEP440, (try? SemanticVersion(parsing: inner)) == nil, inner.first?.isNumber == true,
            let pep = PEP440Version(inner), pep.release.count == 3, pep.description == inner
        {
            if let version = pep.semanticReading() { return version }
            throw VersionError.malformedTag(
                tag: tag, format: pattern,
                reason: pep.post != nil
                    ? "a post-release has no SemVer version relctl can order tags by; release the fix as a new patch version"
                    : "`\(inner)` is PEP 440 that has no SemVer reading (an epoch, a local label, more than three numbers, or a dev release of a prerelease)"
            )
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
    /// many or too few (`v15.2.1` for `{version}`, `1.2.3` for `v{version}`) or a `V` for the
    /// format's `v`; nil otherwise.
    package func respelling(of tag: String) -> String? {
        for other in [prefix] + otherPrefixes {
            guard let inner = versionText(of: tag, prefix: other),
                !(other == prefix && tag.hasPrefix(prefix))
            else { continue }
            let valid =
                scheme == .calver
                ? (try? VersionScheme.calendarVersion(inner)) != nil : (try? SemanticVersion(parsing: inner)) != nil
            if valid { return prefix + spelledParts(inner) + suffix }
        }
        return nil
    }

    /// True if the tag has this format's shape and a valid version.
    package func matches(_ tag: String) -> Bool { (try? version(of: tag)) != nil }

    package func tag(for version: SemanticVersion) -> String {
        if scheme == .calver { return prefix + spelledParts(calendarSpelling.spell(version)) + suffix }
        if prereleaseSpelling == .pep440, version.isPrerelease, version.build.isEmpty,
            let pep = PEP440Version(semver: version), pep.semanticReading() == version
        {
            return prefix + spelledParts(pep.description) + suffix
        }
        return prefix + spelledParts(version.description) + suffix
    }

    // MARK: Reading the tags of a history

    /// What a tag of the repository is to this format, read tolerantly (the contract's "Versions
    /// come from the tag history").
    package enum Reading: Sendable, Equatable {
        /// A release of this format. `exact` when the tag is spelled as relctl spells the version
        /// (the format's own prefix, SemVer or the calendar form): among tags naming one version
        /// (`v2.0.0` and `v2.0`), that one stands for it.
        case release(SemanticVersion, exact: Bool)
        /// A version in another format: a `v` added or removed (`v7.0.0-finalx` for `{version}`),
        /// or a PEP 440 spelling in a project whose versions are not PEP 440. Not a release, but
        /// its version is taken: `bump` never proposes it.
        case otherSpelling(SemanticVersion)
        /// Starts like the format and goes on with a number, but names no version (`vV9.0.0`,
        /// `v1.2.3.4`): not a release, and said so by `bump`.
        case malformed
        /// Anything else (`nightly`, another member's `core-v2.48.0`).
        case unrelated
    }

    /// Reads `tag` against this format. A release matches the prefix (its `v` in either case:
    /// `V1.2.3` is a release of `v{version}`) and suffix around a version: SemVer, two or three
    /// numbers with or without zero padding (`v2.0` is 2.0.0; `2026.07.22`), and PEP 440
    /// prereleases and post-releases (`v2.14.0b1`, `2.0rc1`, `1.0.post1`) when the project's
    /// versions are PEP 440. The version must start with a digit: `vV9.0.0` is no release of
    /// anything.
    package func reading(of tag: String) -> Reading {
        // Every spelling read below starts with the prefix less a `v` ending it: a tag that does
        // not is unrelated. Read by bytes when that stem is ASCII (no other character equals an
        // ASCII one): a workspace reads each of its thousands of tags once per member (astro:
        // 40 members, 3,336 tags, a quarter of a plan's time went here).
        let stem = prefix.hasSuffix("v") || prefix.hasSuffix("V") ? prefix.utf8.dropLast() : prefix.utf8[...]
        if stem.allSatisfy({ $0 < 0x80 }), !tag.utf8.starts(with: stem) { return .unrelated }
        if let inner = versionText(of: tag, prefix: prefix) {
            if let (version, exact) = Self.tolerantVersion(inner, scheme: scheme, pep440: readsPEP440) {
                return .release(version, exact: exact && tag.hasPrefix(prefix))
            }
            if let (version, _) = Self.tolerantVersion(inner, scheme: scheme, pep440: true) {
                return .otherSpelling(version)
            }
        }
        for other in otherPrefixes {
            if let inner = versionText(of: tag, prefix: other),
                let (version, _) = Self.tolerantVersion(inner, scheme: scheme, pep440: true)
            {
                return .otherSpelling(version)
            }
        }
        for candidate in [prefix] + otherPrefixes {
            guard let inner = Self.inner(of: tag, prefix: candidate, suffix: suffix) else { continue }
            let head = Array(inner.prefix(2))
            if head.first?.isASCII == true && head.first?.isNumber == true { return .malformed }
            if head.count == 2, head[0] == "v" || head[0] == "V", head[1].isASCII && head[1].isNumber {
                return .malformed
            }
        }
        return .unrelated
    }

    /// The format's prefix with a `v` removed from its end or added to it (`v` → ``, `` → `v`,
    /// `release-` → `release-v`): the spellings of the same release a project may have moved between.
    package var otherPrefixes: [String] {
        if prefix.hasSuffix("v") || prefix.hasSuffix("V") { return [String(prefix.dropLast())] }
        return [prefix + "v"]
    }

    /// The text between `prefix` and `suffix`, when `tag` has them; a `v` ending the prefix matches
    /// `V` and the other way round.
    package static func inner(of tag: String, prefix: String, suffix: String) -> String? {
        guard tag.hasSuffix(suffix), tag.count > prefix.count + suffix.count else { return nil }
        let head = tag.prefix(prefix.count)
        guard
            head == prefix
                || (prefix.last?.lowercased() == "v" && head.dropLast() == prefix.dropLast()
                    && head.last?.lowercased() == "v")
        else { return nil }
        return String(tag.dropFirst(prefix.count).dropLast(suffix.count))
    }

    /// A tag's version text read the way the history is read: SemVer (`exact`), or two or three
    /// numbers with zero padding allowed and an optional SemVer prerelease (`2.0`, `2026.07.22`;
    /// exact for calendar versions), or PEP 440 when `pep440`. Nil unless it starts with a digit.
    package static func tolerantVersion(
        _ inner: String, scheme: VersionScheme, pep440: Bool
    ) -> (SemanticVersion, exact: Bool)? {
        guard let first = inner.utf8.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return nil }
        if scheme == .semver, let version = try? SemanticVersion(parsing: inner) { return (version, true) }
        if let version = try? VersionScheme.calendarVersion(inner) { return (version, scheme == .calver) }
        if scheme == .calver, let version = try? SemanticVersion(parsing: inner) { return (version, false) }
        if pep440, let version = PEP440Version(inner)?.semanticReading(allowingPost: true) { return (version, false) }
        return nil
    }

    public var description: String { pattern }
}

/// The rules of `git check-ref-format` for a tag name, checked before anything is tagged so a
/// bad `tag-format` fails in `relctl check` instead of at the last step of a release.
package enum GitRefName {
    /// Why git would refuse `name` as a tag, or nil when it is acceptable.
    package static func problem(in name: String) -> String? {
        if let bad = name.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "it contains the control character U+\(String(bad.value, radix: 16, uppercase: true))"
        }
        if let bad = name.first(where: { " ~^:?*[\\".contains($0) }) {
            return bad == " " ? "it contains a space" : "it contains `\(bad)`"
        }
        if name.hasPrefix("-") { return "it starts with `-`, which git reads as an option" }
        if name.contains("..") { return "it contains `..`" }
        if name.contains("@{") { return "it contains `@{`" }
        if name.contains("//") || name.hasPrefix("/") || name.hasSuffix("/") { return "it has an empty `/` component" }
        if name.hasSuffix(".") { return "it ends with `.`" }
        for component in name.split(separator: "/") {
            if component.hasPrefix(".") { return "the component `\(component)` starts with `.`" }
            if component.hasSuffix(".lock") { return "the component `\(component)` ends with `.lock`" }
        }
        return nil
    }
}
