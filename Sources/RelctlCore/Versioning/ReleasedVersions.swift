import RelctlBasics

/// The versions a repository's tags already name, in every spelling of the tag format: with or
/// without a `v` before the version (fzf tagged `0.53.0` then `v0.54.0`: one project, one
/// series), and numbers with or without zero padding (`2026.07.22` and `2026.7.22` name one
/// calendar release). A version in this set has shipped: `bump` never proposes it again.
package struct ReleasedVersions: Sendable {
    package struct Entry: Sendable {
        package var tag: String
        package var version: SemanticVersion
    }

    package private(set) var entries: [Entry] = []

    /// Reads every tag of `tags` that is a spelling of `format`.
    package init(tags: [String], format: TagFormat) {
        let prefixes = Self.prefixes(of: format)
        for tag in tags {
            for prefix in prefixes where tag.hasPrefix(prefix) && tag.hasSuffix(format.suffix) {
                guard tag.count > prefix.count + format.suffix.count else { continue }
                let inner = String(tag.dropFirst(prefix.count).dropLast(format.suffix.count))
                if let version = Self.reading(inner, scheme: format.scheme) {
                    entries.append(Entry(tag: tag, version: version))
                    break
                }
            }
        }
    }

    /// The tag naming `version` (same precedence), if one exists.
    package func tag(naming version: SemanticVersion) -> String? {
        entries.first { $0.version.hasSamePrecedence(as: version) }?.tag
    }

    /// The entries whose tag is in `names` (the tags reachable from a commit).
    package func restricted(to names: Set<String>) -> [Entry] {
        entries.filter { names.contains($0.tag) }
    }

    /// The format's prefix and its spelling with a `v` added or removed before the version.
    package static func prefixes(of format: TagFormat) -> [String] {
        let prefix = format.prefix
        if prefix.hasSuffix("v") || prefix.hasSuffix("V") { return [prefix, String(prefix.dropLast())] }
        return [prefix, prefix + "v"]
    }

    /// A version text read as leniently as a human reads it, for ordering: SemVer as written, else
    /// (for calendar tags, or text SemVer refuses only for its leading zeros or its two numbers) a
    /// calendar version, else a PEP 440 release or prerelease (`1.0.0b1` → 1.0.0-beta.1). Nil for
    /// text that is no version (a word, `ignore-0.4.1` when the prefix was not stripped).
    package static func reading(_ text: String, scheme: VersionScheme = .semver) -> SemanticVersion? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if scheme == .semver, let version = try? SemanticVersion(parsing: trimmed) { return version }
        if let version = try? VersionScheme.calendarVersion(trimmed) { return version }
        if scheme == .calver, let version = try? SemanticVersion(parsing: trimmed) { return version }
        return VersionBump.semanticVersion(ofManifestText: trimmed)
    }
}
