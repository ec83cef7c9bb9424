import RelctlBasics

/// What a repository's tags say about how it releases, for `relctl init`: the tag format its
/// recent releases use and whether their versions are calendar versions.
///
/// The latest releases decide, not the majority over all history: fzf has 139 old tags without
/// `v` and 39 recent ones with it, and its next tag is `v0.75.0`. Tags named after the project
/// (`ignore-0.4.33` for the `ignore` crate of ripgrep's workspace) win over the repository's
/// bare tags, which belong to the application; so do tags named after the package's full name
/// (`@changesets/cli@3.0.1` for the npm package `@changesets/cli`, whose project is `cli`).
package struct TagHistory {
    /// How many of the highest versions vote when the latest version has several spellings.
    package static let recentCount = 10

    /// One version-like tag: the text before its version (`v`, `ignore-`) and the version.
    package struct Release {
        package var tag: String
        package var prefix: String
        package var inner: String
        package var version: SemanticVersion
    }

    package var format = "v{version}"
    package var scheme = VersionScheme.semver
    /// Why, for the comment next to `tag-format` in the starter file.
    package var note = "no tags yet: tags will look like v1.2.3"

    /// `aliases` are other names the project's tags may start with (a scoped npm package's name).
    package init(tags: [String], project: String, aliases: [String] = []) {
        let names = [project] + aliases.filter { $0 != project && !$0.isEmpty }
        let releases = tags.compactMap { tag in names.lazy.compactMap { Self.release(in: tag, project: $0) }.first }
        guard !releases.isEmpty else {
            if !tags.isEmpty { note = "no version tag yet: tags will look like v1.2.3" }
            return
        }
        let named = releases.filter { !Self.isGeneric($0.prefix) }
        let candidates = named.isEmpty ? releases : named
        let recent = Array(
            candidates.sorted {
                $1.version < $0.version || ($0.version.hasSamePrecedence(as: $1.version) && $0.tag < $1.tag)
            }.prefix(Self.recentCount))
        // The latest release's spelling; where that version is tagged in several spellings, the
        // one most of the recent releases use.
        let latest = recent[0]
        let spellings = Set(recent.filter { $0.version.hasSamePrecedence(as: latest.version) }.map(\.prefix))
        var votes: [String: Int] = [:]
        for release in recent where spellings.contains(release.prefix) { votes[release.prefix, default: 0] += 1 }
        let chosen =
            spellings.count == 1
            ? latest.prefix
            : votes.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.first?.key ?? latest.prefix
        let family = candidates.filter { $0.prefix == chosen }
        let newest = recent.first { $0.prefix == chosen } ?? family[0]
        // A prefix spelled with the project's name says `{project}`; one spelled with an alias is
        // written as it stands, since `{project}` would expand to the short name.
        let ownName = !project.isEmpty && chosen.hasPrefix(project)
        format = (Self.isGeneric(chosen) || !ownName ? chosen : "{project}" + chosen.dropFirst(project.count)) + "{version}"
        if recent.filter({ $0.prefix == chosen }).contains(where: Self.isCalendar) { scheme = .calver }
        let others = candidates.count - family.count
        note =
            "like the \(family.count) existing tag\(family.count == 1 ? "" : "s") (\(newest.tag))"
            + (others == 0
                ? ""
                : "; \(others) older tag\(others == 1 ? " is" : "s are") spelled otherwise, and bump counts them too")
            + (scheme == .calver ? "; calendar versions" : "")
    }

    /// The text before the version is empty or a bare `v`: tags of the whole repository.
    package static func isGeneric(_ prefix: String) -> Bool { prefix.isEmpty || prefix == "v" }

    /// `tag` as a release of `project`: a version after nothing, `v`, or the project's name and a
    /// separator (`ignore-`, `ignore-v`, `ignore/v`); nil for any other tag (another crate's).
    package static func release(in tag: String, project: String) -> Release? {
        var prefix = ""
        if !project.isEmpty, tag.hasPrefix(project), let separator = tag.dropFirst(project.count).first,
            "-_/@".contains(separator)
        {
            prefix = project + String(separator)
        }
        var inner = Substring(tag.dropFirst(prefix.count))
        if inner.first == "v" || inner.first == "V" {
            prefix.append(inner.removeFirst())
        }
        guard inner.first?.isNumber == true,
            let version = ReleasedVersions.reading(String(inner), scheme: .calver)
        else { return nil }
        return Release(tag: tag, prefix: prefix, inner: String(inner), version: version)
    }

    /// A version SemVer refuses only for its calendar shape (`2026.07.22`, `25.07`), or whose
    /// first number is a year.
    package static func isCalendar(_ release: Release) -> Bool {
        if (try? SemanticVersion(parsing: release.inner)) == nil {
            return (try? VersionScheme.calendarVersion(release.inner)) != nil
        }
        return release.version.major.count == 4 && ("1990"..."2199").contains(release.version.major)
    }
}
