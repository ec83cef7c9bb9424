import Foundation
import RelctlBasics
import RelctlChanges
import RelctlModel

extension StarterConfig {
    /// The tag series a project's own build configuration names, when tags of it exist: the
    /// maintainers' word, above what the tags alone suggest.
    /// - hatch-vcs' `[tool.hatch.version] tag-pattern` (or `raw-options.tag_regex`, setuptools-scm's
    ///   `tag_regex`), a regex with a `version` group: haystack's integrations,
    ///   `integrations\/amazon_bedrock-v(?P<version>.*)`;
    /// - MinVer's `<MinVerTagPrefix>` in the folder's `*.csproj` or the nearest
    ///   `Directory.Build.props` up to the repository's top: opentelemetry-dotnet's `core-`;
    /// - maven-release-plugin's tags, `<tagNameFormat>` or its default `artifactId-version`, for
    ///   the root `pom.xml`'s artifactId: gson's `gson-parent-2.13.2`.
    /// Nil when none is named, or no tag of it exists.
    static func declaredSeries(root: URL, tags: [String]) -> (format: String, tag: String, why: String)? {
        func withTags(_ prefix: String, _ suffix: String = "", why: String) -> (format: String, tag: String, why: String)? {
            guard !prefix.isEmpty || !suffix.isEmpty,
                let format = try? TagFormat(prefix + "{version}" + suffix, project: "")
            else { return nil }
            let reader = TagReader(format)
            let own = tags.compactMap { tag in reader.releaseVersion(of: tag).map { (tag: tag, version: $0) } }
            guard let newest = own.max(by: { $0.version < $1.version }) else { return nil }
            return (prefix + "{version}" + suffix, newest.tag, why)
        }
        if let pattern = pythonTagPattern(root: root), let (prefix, suffix) = literalAround(versionGroupIn: pattern.regex) {
            return withTags(prefix, suffix, why: "as \(pattern.file) names it (\(pattern.key))")
        }
        if let prefix = minVerTagPrefix(root: root) {
            return withTags(prefix.value, why: "as \(prefix.file) names it (MinVerTagPrefix)")
        }
        if let maven = mavenTagPrefix(root: root, tags: tags) {
            return withTags(maven.prefix, why: maven.why)
        }
        return nil
    }

    private static func text(_ path: String, in root: URL, limit: Int = 1 << 20) -> String? {
        guard let file = try? ProjectFile.open(path, in: root), file.isRegularFile,
            let data = file.data(limit: limit), case .whole(let bytes) = data
        else { return nil }
        return TextFile.decode(bytes)
    }

    /// hatch-vcs' or setuptools-scm's tag regex in `pyproject.toml`.
    static func pythonTagPattern(root: URL) -> (file: String, key: String, regex: String)? {
        guard let document = try? TOMLDocument(file: ProjectFile.open("pyproject.toml", in: root)),
            let tool = document.root["tool"]?.table
        else { return nil }
        let hatch = tool["hatch"]?.table?["version"]?.table
        if let regex = hatch?["tag-pattern"]?.string {
            return ("pyproject.toml", "[tool.hatch.version] tag-pattern", regex)
        }
        if let regex = hatch?["raw-options"]?.table?["tag_regex"]?.string {
            return ("pyproject.toml", "[tool.hatch.version.raw-options] tag_regex", regex)
        }
        if let regex = (tool["setuptools_scm"] ?? tool["setuptools-scm"])?.table?["tag_regex"]?.string {
            return ("pyproject.toml", "[tool.setuptools_scm] tag_regex", regex)
        }
        return nil
    }

    /// The literal text before and after a regex's `version` group (`(?P<version>…)`), when both
    /// are plain text once escapes are read; nil for a pattern that matches more than one spelling.
    static func literalAround(versionGroupIn regex: String) -> (String, String)? {
        var pattern = Substring(regex)
        if pattern.hasPrefix("^") { pattern = pattern.dropFirst() }
        if pattern.hasSuffix("$") { pattern = pattern.dropLast() }
        guard let open = pattern.range(of: "(?P<version>") ?? pattern.range(of: "(?<version>") else { return nil }
        var depth = 1
        var index = open.upperBound
        while index < pattern.endIndex, depth > 0 {
            if pattern[index] == "\\" {
                index = pattern.index(after: index)
            } else if pattern[index] == "(" {
                depth += 1
            } else if pattern[index] == ")" {
                depth -= 1
            }
            if index < pattern.endIndex { index = pattern.index(after: index) }
        }
        guard depth == 0 else { return nil }
        func literal(_ text: Substring) -> String? {
            var out = ""
            var escaped = false
            for character in text {
                if escaped {
                    out.append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if "[](){}*+?|^$.".contains(character) {
                    return nil
                } else {
                    out.append(character)
                }
            }
            return escaped ? nil : out
        }
        guard let before = literal(pattern[..<open.lowerBound]), let after = literal(pattern[index...]) else { return nil }
        return (before, after)
    }

    /// `<MinVerTagPrefix>` in one of the folder's `*.csproj` files, else in the nearest
    /// `Directory.Build.props` from the folder up to the repository's top (at most four levels).
    static func minVerTagPrefix(root: URL) -> (file: String, value: String)? {
        func prefix(in text: String) -> String? {
            guard let match = text.firstMatch(of: /<MinVerTagPrefix>\s*([^<\s]+)\s*<\/MinVerTagPrefix>/) else { return nil }
            return String(match.1)
        }
        let names = ((try? FileSystem.names(in: root)) ?? []).filter { $0.hasSuffix(".csproj") }.sorted().prefix(20)
        for name in names {
            if let text = text(name, in: root), let value = prefix(in: text) { return (name, value) }
        }
        var folder = root.standardizedFileURL
        var climbed = ""
        for _ in 0..<4 {
            if let text = text("Directory.Build.props", in: folder), let value = prefix(in: text) {
                return (climbed + "Directory.Build.props", value)
            }
            guard !FileSystem.exists(folder.appendingPathComponent(".git")) else { break }
            folder = folder.deletingLastPathComponent()
            climbed += "../"
        }
        return nil
    }

    /// maven-release-plugin's tag prefix for the root `pom.xml`: its `<tagNameFormat>`
    /// (`v@{project.version}`), else the plugin's default `@{project.artifactId}-@{project.version}`
    /// when at least three tags spell it.
    static func mavenTagPrefix(root: URL, tags: [String]) -> (prefix: String, why: String)? {
        guard let pom = text("pom.xml", in: root) else { return nil }
        if let match = pom.firstMatch(of: /<tagNameFormat>\s*([^<\s]*)@\{project\.version\}\s*<\/tagNameFormat>/),
            !match.1.contains("@")
        {
            return (String(match.1), "as pom.xml's maven-release-plugin names it (tagNameFormat)")
        }
        // The project's own artifactId: the first one outside `<parent>`.
        let outside = pom.replacing(/<parent>[\s\S]*?<\/parent>/, with: "")
        guard let match = outside.firstMatch(of: /<artifactId>\s*([A-Za-z0-9._-]+)\s*<\/artifactId>/) else { return nil }
        let prefix = String(match.1) + "-"
        let spelled = tags.count { tag in
            tag.hasPrefix(prefix) && (try? SemanticVersion(parsing: String(tag.dropFirst(prefix.count)))) != nil
        }
        guard spelled >= 3 else { return nil }
        // Not where another spelling released higher since: awaitility tagged
        // `awaitility-parent-3.1.2` once, then `awaitility-4.3.0` (its release script's `-Dtag=`).
        let newest = { (candidates: [String]) in
            candidates.compactMap { tag -> SemanticVersion? in
                guard let start = tag.firstIndex(where: \.isNumber) else { return nil }
                return try? SemanticVersion(parsing: String(tag[start...]))
            }.filter(\.prerelease.isEmpty).max()
        }
        if let own = newest(tags.filter { $0.hasPrefix(prefix) }), let any = newest(tags), own < any { return nil }
        return (prefix, "as maven-release-plugin tags pom.xml's artifactId `\(match.1)` by default")
    }

    /// The tag series the folder's changelog names: when the three newest versions its headings
    /// release are each tagged by one prefix, and the chosen `format` tagged none of them
    /// (spotless' `plugin-gradle/CHANGES.md`, `## [8.9.0] - 2026-07-27`, beside `gradle/8.9.0`;
    /// the repository's `v` tags ended years ago). Nil otherwise.
    static func changelogSeries(
        root: URL, tags: [String], format: String, project: String
    ) -> (format: String, tag: String, file: String)? {
        let chosen = try? TagFormat(format, project: project)
        let tagSet = Set(tags)
        for name in VersioningDetection.changelogCandidates(root: root) where !name.contains("/") {
            guard let text = text(name, in: root) else { continue }
            let kind: ChangelogDocument.Format = name.lowercased().hasSuffix(".rst") ? .restructuredText : .markdown
            let document = ChangelogDocument(lines: text.fileLines.prefix(5_000).map(String.init), format: kind)
            var spelled: [String] = []
            for heading in document.headings where !heading.isUnreleased {
                guard let match = ChangelogHeading.versionMatch(in: heading.text, names: []), !match.version.isPrerelease
                else { continue }
                let version = String(match.spelled)
                if !spelled.contains(version) { spelled.append(version) }
                if spelled.count == 3 { break }
            }
            guard spelled.count == 3 else { continue }
            if let chosen, spelled.contains(where: { tagSet.contains(chosen.prefix + $0 + chosen.suffix) }) { return nil }
            var prefixes: Set<String>?
            for version in spelled {
                let these = Set(
                    tags.compactMap { tag -> String? in
                        guard tag.hasSuffix(version) else { return nil }
                        let prefix = String(tag.dropLast(version.count))
                        return prefix.isEmpty || isSeriesPrefix(prefix) || TagHistory.isGeneric(prefix) ? prefix : nil
                    })
                prefixes = prefixes.map { $0.intersection(these) } ?? these
            }
            // Two series naming the same versions (spotless' `lib/3.8.0` of 2020 and
            // `maven/3.8.0`): the one whose word the folder's name holds (`plugin-maven`), or
            // which names the folder as its last word (opentelemetry-ruby's `api/` is released
            // as `opentelemetry-api/v1.5.0`, its `sdk/` as `opentelemetry-sdk/v1.5.0`).
            var candidates = prefixes ?? []
            if candidates.count > 1 {
                let folder = root.standardizedFileURL.lastPathComponent.lowercased().replacingOccurrences(of: "_", with: "-")
                candidates = candidates.filter { prefix in
                    let word = prefix.lowercased().filter { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
                        .trimmingCharacters(in: CharacterSet(charactersIn: "-_v")).replacingOccurrences(of: "_", with: "-")
                    return !word.isEmpty && (folder.contains(word) || word.hasSuffix("-" + folder))
                }
            }
            guard candidates.count == 1, let prefix = candidates.first else { return nil }
            return (prefix + "{version}", prefix + spelled[0], name)
        }
        return nil
    }
}
