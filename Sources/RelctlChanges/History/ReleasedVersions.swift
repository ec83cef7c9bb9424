import RelctlBasics
import RelctlModel

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

    /// Reads every tag of `tags` that is a spelling of `format`: its releases and the same versions
    /// in another format (`TagReader.read`).
    package init(tags: [String], format: TagFormat) {
        let reader = TagReader(format)
        for tag in tags {
            switch reader.read(tag) {
            case .release(let version, _), .otherSpelling(let version):
                entries.append(Entry(tag: tag, version: version))
            case .malformed, .unrelated: break
            }
        }
    }

    package init(entries: [Entry]) { self.entries = entries }

    /// The tag naming `version` (same precedence), if one exists.
    /// A prerelease counts in either spelling of its counter (`rc0`, `rc.0`).
    package func tag(naming version: SemanticVersion) -> String? {
        if let exact = entries.first(where: { $0.version.hasSamePrecedence(as: version) }) { return exact.tag }
        guard version.isPrerelease else { return nil }
        let unglued = version.unglued
        return entries.first { $0.version.isPrerelease && $0.version.unglued.hasSamePrecedence(as: unglued) }?.tag
    }

    /// A version text read as leniently as a human reads it, for ordering: SemVer as written, else
    /// (for calendar tags, or text SemVer refuses only for its leading zeros or its two numbers) a
    /// calendar version, else a PEP 440 release or prerelease (`1.0.0b1` → 1.0.0-beta.1). Nil for
    /// text that is no version (a word, `ignore-0.4.1` when the prefix was not stripped).
    package static func reading(_ text: String, scheme: VersionScheme = .semver) -> SemanticVersion? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        // A version starts with a digit: PEP 440's optional `v` would read `vV9.0.0` after a `v` as 9.0.0.
        guard trimmed.first?.isASCII == true, trimmed.first?.isNumber == true else { return nil }
        if scheme == .semver, let version = try? SemanticVersion(parsing: trimmed) { return version }
        if let version = try? VersionScheme.calendarVersion(trimmed) { return version }
        if scheme == .calver, let version = try? SemanticVersion(parsing: trimmed) { return version }
        return VersionBump.semanticVersion(ofManifestText: trimmed)
    }
}
