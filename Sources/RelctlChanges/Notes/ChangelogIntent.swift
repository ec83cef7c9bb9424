import Foundation
import RelctlBasics
import RelctlModel

/// What the project's changelog says of its next release (`[versioning] changelog`): the newest
/// section, when it is not a release already made. Many projects write the changelog ahead of the
/// release (fd's `# Upcoming release` / `## Features`, click's `Version 8.3.0` over `Unreleased`,
/// Keep a Changelog's `## [Unreleased]` / `### Added`), with commit subjects that carry no type.
///
/// - A heading naming a version above the latest release (`## [1.3.0]`, `Version 8.3.0`): that
///   version, a floor for the next release as a manifest declaring it is.
/// - An `Unreleased`-style heading (`Unreleased`, `Upcoming release`, `Next`, `Not yet released`,
///   `In progress`): the level of its subsections that hold entries: `Breaking`, `Removed`,
///   `Incompatible` call for a major (a minor below 1.0.0, as a breaking commit does); `Added`,
///   `Features`, `New`, `Enhancements`, `Deprecated` for a minor; any other (`Fixed`, `Changed`) a
///   patch. A section without subsections, or whose subsections are empty, says nothing.
package struct ChangelogIntent: Sendable, Equatable {
    package enum Finding: Sendable, Equatable {
        /// The heading names the next release's version.
        case version(SemanticVersion)
        /// The unreleased section's subsections call for this level.
        case level(VersionBump.Level)
    }

    package var finding: Finding
    /// The file as the project names it (`CHANGELOG.md`, `crates/core/CHANGELOG.md`).
    package var file: String
    /// The 1-based line of the heading that decides: the version heading, or the subsection that
    /// calls for the level.
    package var line: Int
    /// That heading's text (`[1.3.0] - unreleased`, `Features`).
    package var heading: String
    /// The section's heading text (`Upcoming release`), the same as `heading` for a version.
    package var section: String

    /// The level a version finding calls for after `latest` (major, minor or patch numbers moved).
    package func level(after latest: SemanticVersion) -> VersionBump.Level {
        switch finding {
        case .level(let level): return level
        case .version(let version):
            if version.major != latest.major { return .major }
            if version.minor != latest.minor { return .minor }
            return .patch
        }
    }

    /// Subsection titles whose entries call for a major.
    package static let majorWords = [
        "breaking", "backward incompatible", "backwards incompatible", "backward-incompatible",
        "backwards-incompatible", "incompatible", "removed", "removal", "removals", "major",
    ]
    /// Subsection titles whose entries call for a minor.
    package static let minorWords = [
        "added", "addition", "additions", "feature", "features", "new", "enhancement", "enhancements", "deprecated",
        "deprecation", "deprecations", "minor",
    ]

    /// The changelog `config` names (`[versioning] changelog`), read in the project's folder (a
    /// workspace member's own file) under the read rule, against `latest`, the latest release; nil
    /// when no changelog is configured, the file is not there or says nothing ahead of `latest`.
    package static func read(config: RelctlConfig, latest: SemanticVersion) throws -> ChangelogIntent? {
        guard let path = config.versioning.changelog else { return nil }
        let root = config.repositoryRoot ?? config.root
        let location = config.resolve(path)
        // A member's file as the repository names it (`crates/core/CHANGELOG.md`).
        let shown = config.repositoryRoot == nil ? path : CompanionFinder.display(location, root: root)
        let file = try ProjectFile.open(location.path, in: root, what: "[versioning] changelog", shown: shown)
        guard file.isRegularFile, let text = try file.text() else { return nil }
        return section(
            in: text, path: shown, names: [config.project.name.lowercased()], latest: latest)
    }

    /// The intent of the changelog `text` (as `section`), and whether it has a heading naming a
    /// version at all: a GNU-style `ChangeLog` of dated entries (jq's, last written in 2015) names
    /// none, and says nothing of any release. One parse of the file for both.
    package static func reading(
        _ text: String, path: String, names: Set<String> = [], latest: SemanticVersion
    ) -> (intent: ChangelogIntent?, namesReleases: Bool) {
        let document = ChangelogDocument(
            lines: text.fileLines.map(String.init), format: ChangelogDocument.Format(path: path), names: names)
        return (section(of: document, path: path, latest: latest), document.headings.contains { $0.version != nil })
    }

    /// The intent of the changelog `text` (named `path`, whose suffix gives its format) against
    /// `latest`, the latest release.
    package static func section(
        in text: String, path: String, names: Set<String> = [], latest: SemanticVersion
    ) -> ChangelogIntent? {
        let document = ChangelogDocument(
            lines: text.fileLines.map(String.init), format: ChangelogDocument.Format(path: path), names: names)
        return section(of: document, path: path, latest: latest)
    }

    static func section(of document: ChangelogDocument, path: String, latest: SemanticVersion) -> ChangelogIntent? {
        let releaseLevel = usualReleaseLevel(document)
        // The newest section: the first heading that names a version at the release headings'
        // level, or an unreleased heading before it.
        let candidates = document.headings.filter { heading in
            if let releaseLevel, heading.level > releaseLevel { return false }
            return (heading.version != nil && heading.level == releaseLevel) || isUnreleased(heading.text)
        }
        guard var top = candidates.first else { return nextMajor(in: document, path: path, latest: latest) }
        // An empty `## [Unreleased]` placeholder above the coming release's own heading (dotenv
        // writes `## [17.2.0]` with its `### Added` before tagging it) says nothing; the heading
        // below it does.
        // Its section starts below its underline for a setext or reStructuredText heading
        // (pyjwt's empty `` `Unreleased <…>`__ `` over `` `v2.10.1 <…>`__ ``).
        let topEnd = unreleasedEnd(of: top, in: document, releaseLevel: releaseLevel)
        // So does one holding only a link to the changes since the last release (uniffi's
        // `[All changes in [[NextUnreleasedUniFFIVersion]]](…/compare/v0.30.0...NEXT_HEAD)` over
        // the placeholder section that holds the coming release's entries).
        if top.version == nil, sectionLevel(of: top, in: document, end: topEnd) == nil, candidates.count > 1,
            candidates[1].version != nil || isUnreleased(candidates[1].text),
            !document.lines[min(top.line + top.lineCount, topEnd)..<topEnd].contains(where: {
                let line = $0.trimmingCharacters(in: .whitespaces)
                return !line.isEmpty && !isLinkOnly(line)
            })
        {
            top = candidates[1]
        }
        // Several sections above the latest release: the lowest is the release being made, the
        // ones above it are written ahead of later ones (pueue's `## [3.4.0] - unreleased` over
        // `## [3.3.1] - 2023-10-27` while v3.3.0 is the latest; astroid keeps `What's New in
        // astroid 4.1.0?` over the `4.0.2` a patch prepares).
        var lone = true
        if let index = candidates.firstIndex(where: { $0.line == top.line }) {
            let pending = candidates[(index + 1)...].prefix { heading in
                guard let version = heading.version, !version.isPrerelease else { return false }
                return latest.final < version.final
            }
            if let lowest = pending.last, top.version.map({ lowest.version! < $0 }) ?? true {
                lone = top.version == nil && pending.count == 1
                top = lowest
            }
        }
        // A lone version section above the latest release that holds nothing but its status
        // (pygments' `Version 2.17.0` / `(unreleased)` opened the day 2.16.0 shipped, pueue's empty
        // `## [0.31.0] - unreleased`) names the version after the next minor's work, not the
        // patch being made: it says nothing yet. A bare heading with no such mark is the release
        // being made (apollo-ios writes an empty `## v2.2.0` as it sets the release up).
        if lone, top.version != nil {
            // The section's own lines only (not the whole file), its status lines blanked.
            let start = min(top.line + top.lineCount, document.lines.count)
            let body = document.lines[start..<max(start, min(document.sectionEnd(of: top), document.lines.count))]
            let entries = body.map { isStatusLine($0) ? "" : $0 }
            if ([top.text] + body).contains(where: isPendingMark),
                !hasEntries(lines: entries, range: 0..<entries.count, skipping: [], format: document.format)
            {
                return nil
            }
        }
        if let version = top.version {
            // A release heading at or below the latest release (a prerelease's own final
            // included: `## 2.0.0` while its rc ships) says nothing new, unless the prerelease has
            // its own heading below it: terraform-plugin-go's `## 0.29.0` above `## 0.29.0-beta.1`
            // names the final that ends the beta, as a manifest holding 0.29.0 would.
            // So does a final's heading dated as released (VictoriaMetrics' operator writes `## [v0.69.0]`
            // and `**Release date:** 22 April 2026` after `v0.69.0-rc1`; async-timeout
            // `4.0.0 (2021-11-01)` after `v4.0.0a3`): a date is written as the release is made.
            let endsPrerelease =
                latest.isPrerelease && !version.isPrerelease && version == latest.final
                && (document.headings.contains { $0.line > top.line && $0.version == latest }
                    || isDated(top, in: document))
            guard latest.final < version.final || endsPrerelease else { return nil }
            // A heading naming several versions (the OpenTelemetry collector's `v1.65.0/v0.159.0`,
            // its stable and its 0.x modules) is a released section when any of them is.
            guard
                !otherVersions(in: top.text).contains(where: {
                    !(latest.final < $0.final) && !(endsPrerelease && $0 == version)
                })
            else { return nil }
            let floor = version.isDevelopmentMarker ? version.final : version
            return ChangelogIntent(
                finding: .version(floor), file: path, line: top.line + 1, heading: top.text, section: top.text)
        }
        // riverpod heads its pending section `## Unreleased minor` (`Unreleased patch`,
        // `Unreleased fix`): the level the heading names.
        let words = top.text.lowercased().split(whereSeparator: { !$0.isLetter })
        let named: [Substring: VersionBump.Level] = ["major": .major, "minor": .minor, "patch": .patch, "fix": .patch]
        if words.count == 2, words[0] == "unreleased", let level = named[words[1]] {
            return ChangelogIntent(
                finding: .level(level), file: path, line: top.line + 1, heading: top.text, section: top.text)
        }
        let end = unreleasedEnd(of: top, in: document, releaseLevel: releaseLevel)
        guard let found = sectionLevel(of: top, in: document, end: end) else {
            // A flat list under the heading, no subsections (buf's `- Add …`, `- Fix …`): its
            // verbs give the level where the released sections show the project releasing so.
            // An entry marked breaking needs no such history (opentelemetry-datadog's `## vNext`
            // over `- [Breaking] Replace …`), as in a subsection.
            let flat = (top.line + top.lineCount)..<end
            if marksBreaking(lines: document.lines, range: flat, skipping: []) {
                return ChangelogIntent(
                    finding: .level(.major), file: path, line: top.line + 1, heading: top.text, section: top.text)
            }
            // Entries labelled by kind (VictoriaMetrics' `* FEATURE: …`, `* BUGFIX: …`; Prometheus'
            // `* [FEATURE] …`, `* [BUGFIX] …`) name their level as subsections do.
            if let level = labelledLevel(lines: document.lines, range: flat) {
                return ChangelogIntent(
                    finding: .level(level), file: path, line: top.line + 1, heading: top.text, section: top.text)
            }
            guard let level = flatLevel(lines: document.lines, range: (top.line + top.lineCount)..<end),
                addsReleasedAsMinors(in: document)
            else { return nil }
            return ChangelogIntent(
                finding: .level(level), file: path, line: top.line + 1, heading: top.text, section: top.text)
        }
        // A subsection that names no size (`Changed`) gives the level the project's own released
        // sections show it shipping in (Python-Markdown: each `### Changed` in a minor, its patches
        // `Fixed` alone).
        let level = found.level == .patch && subsectionReleasedAsMinors(found.heading.text, in: document) ? .minor : found.level
        return ChangelogIntent(
            finding: .level(level), file: path, line: found.heading.line + 1, heading: found.heading.text,
            section: top.text)
    }

    /// The lines of the pending section `intent` was read from in `text` (its heading to the
    /// section's end), for telling whether it changed since a release; nil when it is not found.
    package static func pendingText(of intent: ChangelogIntent, in text: String, names: Set<String> = []) -> String? {
        let lines = text.fileLines.map(String.init)
        let document = ChangelogDocument(lines: lines, format: ChangelogDocument.Format(path: intent.file), names: names)
        guard let top = document.headings.last(where: { $0.line < intent.line && $0.text == intent.section }) else {
            return nil
        }
        let end = unreleasedEnd(of: top, in: document, releaseLevel: usualReleaseLevel(document))
        return lines[top.line..<max(top.line, min(end, lines.count))].joined(separator: "\n")
    }

    /// Whether the released sections show a subsection titled `title` shipping in minors: of the
    /// newest `releases` release headings, at least five holding such a subsection, four released
    /// as minors for each released as a patch (Python-Markdown's `Changed`: nine minors, none of
    /// its 21 patches). A major or a first release counts as neither.
    static func subsectionReleasedAsMinors(_ title: String, in document: ChangelogDocument, releases: Int = 30) -> Bool {
        let key = title.trimmingCharacters(in: .whitespaces).lowercased()
        let headings = Array(document.releaseHeadings.filter { $0.version.map { !$0.isPrerelease } ?? false }.prefix(releases))
        var (minors, patches) = (0, 0)
        for (newer, older) in zip(headings, headings.dropFirst()) {
            guard let version = newer.version, let before = older.version, before < version, version.major == before.major
            else { continue }
            let end = document.sectionEnd(of: newer)
            guard document.headings.contains(where: {
                $0.line > newer.line && $0.line < end && $0.level > newer.level && $0.text.trimmingCharacters(in: .whitespaces).lowercased() == key
            }) else { continue }
            if version.minor == before.minor { patches += 1 } else { minors += 1 }
        }
        return minors + patches >= 5 && minors >= 4 * patches
    }

    /// A changelog of majors alone (release-it's "breaking changes for each major release":
    /// `## v21 (2026-07-25)` over `## v20 (2026-03-24)`), which names no version as a release
    /// heading does: its newest heading naming the major after the latest release's, over one
    /// naming the latest release's, is the next major, as `## 21.0.0` would be.
    static func nextMajor(in document: ChangelogDocument, path: String, latest: SemanticVersion) -> ChangelogIntent? {
        func major(_ text: String) -> Int? {
            var rest = Substring(text).drop { $0 == "[" }
            guard rest.first == "v" || rest.first == "V" else { return nil }
            rest = rest.dropFirst()
            let digits = rest.prefix(while: \.isNumber)
            guard (1...3).contains(digits.count) else { return nil }
            let after = rest.dropFirst(digits.count).first
            guard after == nil || after == " " || after == "]" else { return nil }
            return Int(digits)
        }
        let majors = document.headings.compactMap { heading in major(heading.text).map { (heading, $0) } }
        guard majors.count >= 2, let current = Int(latest.major), majors[0].1 == current + 1, majors[1].1 == current
        else { return nil }
        let heading = majors[0].0
        return ChangelogIntent(
            finding: .version(SemanticVersion(major: current + 1, minor: 0, patch: 0)), file: path,
            line: heading.line + 1, heading: heading.text, section: heading.text)
    }

    /// First words of a flat changelog entry that adds something.
    static let addingVerbs: Set<String> = ["add", "adds", "added", "introduce", "introduces", "introduced", "new"]

    /// The level a section without subsections calls for by its entries' first words: a minor
    /// when a top-level list entry starts by adding something (`- Add …`), else a patch; nil when
    /// the lines hold no top-level list entry, or a subsection heading.
    static func flatLevel(lines: [String], range: Range<Int>) -> VersionBump.Level? {
        var entries = 0
        var adds = false
        for index in range where index < lines.count {
            let line = lines[index]
            if line.hasPrefix("#") { return nil }
            guard line.hasPrefix("- ") || line.hasPrefix("* ") else { continue }
            entries += 1
            let word = line.dropFirst(2).drop { !$0.isLetter }.prefix { $0.isLetter }.lowercased()
            if addingVerbs.contains(word) { adds = true }
        }
        return entries == 0 ? nil : adds ? .minor : .patch
    }

    /// The level the kind labels of a flat list's entries name (`* FEATURE: …` a minor, `* BUGFIX: …`
    /// a patch, `* [BREAKING] …` a major), the highest of them; nil unless half the entries or
    /// more start with such a label: a word in capitals followed by `:` or inside `[…]`.
    static func labelledLevel(lines: [String], range: Range<Int>) -> VersionBump.Level? {
        var (entries, labelled) = (0, 0)
        var highest: VersionBump.Level?
        for index in range where index < lines.count {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("- ") || line.hasPrefix("* ") else { continue }
            // Top-level entries only: an indented line is a sub-entry.
            guard lines[index].first == line.first else { continue }
            entries += 1
            var text = line.dropFirst(2).drop(while: { $0 == "*" || $0 == "_" || $0 == " " })
            let bracketed = text.first == "["
            if bracketed { text = text.dropFirst() }
            let word = text.prefix { $0.isLetter }
            guard word.count >= 3, word.allSatisfy({ $0.isUppercase }) else { continue }
            let after = text.dropFirst(word.count).drop(while: { $0 == "*" || $0 == "_" })
            guard after.first == (bracketed ? "]" : ":") else { continue }
            labelled += 1
            let named = level(ofSubsection: word.lowercased())
            if highest.map({ named > $0 }) ?? true { highest = named }
        }
        return labelled > 0 && labelled * 2 >= entries ? highest : nil
    }

    /// Whether the changelog's released sections without subsections show an entry that adds
    /// something shipping as a minor: of the newest `releases` release headings, at least five
    /// such sections, four times as many released as minors as released as patches (buf: 20 of
    /// 21 since 1.47). A changelog whose patches "Add" as often (core-js' compat data) fails it.
    static func addsReleasedAsMinors(in document: ChangelogDocument, releases: Int = 24) -> Bool {
        let headings = Array(document.releaseHeadings.filter { $0.version.map { !$0.isPrerelease } ?? false }.prefix(releases))
        var (minors, patches) = (0, 0)
        for (newer, older) in zip(headings, headings.dropFirst()) {
            guard let version = newer.version, let before = older.version, before < version,
                flatLevel(lines: document.lines, range: (newer.line + newer.lineCount)..<document.sectionEnd(of: newer))
                    == .minor
            else { continue }
            if version.major == before.major && version.minor == before.minor { patches += 1 } else { minors += 1 }
        }
        return minors + patches >= 5 && minors >= 4 * patches
    }

    /// Where the section under `top` ends: at its next heading of the same or a higher level, or,
    /// for an unreleased heading above the release headings' level, at the first release heading
    /// below it (powertools' empty `# Unreleased` over its `## [v2.39.0]` sections, whose `## Features`
    /// was read as unreleased).
    static func unreleasedEnd(of top: ChangelogHeading, in document: ChangelogDocument, releaseLevel: Int?) -> Int {
        let end = document.sectionEnd(of: top)
        guard top.version == nil, let releaseLevel, top.level < releaseLevel,
            let release = document.headings.first(where: {
                $0.line > top.line && $0.line < end && $0.version != nil && $0.level == releaseLevel
            })
        else { return end }
        return release.line
    }

    /// How many of the newest headings naming a version `usualReleaseLevel` counts.
    static let releaseLevelWindow = 10

    /// The level most of the newest headings naming a version have, the newest one's on a tie:
    /// dotenv's one `# [8.0.0]` of 2019 (conventional-changelog heads majors so) among 200
    /// `## [x.y.z]` does not make its `## [Unreleased]` a subsection. Only the newest count: a
    /// changelog that changed its style keeps the old sections as they were (terraform-plugin-go's
    /// twelve changie `## 0.23.0` sections above 21 older `# 0.14.3` ones).
    static func usualReleaseLevel(_ document: ChangelogDocument) -> Int? {
        let versioned = document.headings.filter { $0.version != nil }.prefix(releaseLevelWindow)
        var counts: [Int: Int] = [:]
        for heading in versioned { counts[heading.level, default: 0] += 1 }
        guard let most = counts.values.max() else { return nil }
        return versioned.first { counts[$0.level] == most }?.level
    }

    /// Every SemVer version spelled in a heading (`v1.65.0/v0.159.0` → 1.65.0, 0.159.0).
    static func otherVersions(in heading: String) -> [SemanticVersion] {
        heading.split(whereSeparator: { !($0.isNumber || $0.isLetter || "-.+".contains($0)) }).compactMap { word in
            let text = word.first == "v" || word.first == "V" ? word.dropFirst() : word[...]
            return text.first?.isNumber == true ? try? SemanticVersion(parsing: String(text)) : nil
        }
    }

    /// The level the subsections of the section under `top` call for (the highest among those
    /// holding entries, at the first level below it) and the subsection that calls for it; nil
    /// when none holds an entry.
    package static func sectionLevel(
        of top: ChangelogHeading, in document: ChangelogDocument, end: Int? = nil
    ) -> (level: VersionBump.Level, heading: ChangelogHeading)? {
        let end = end ?? document.sectionEnd(of: top)
        let inside = document.headings.filter { $0.line > top.line && $0.line < end && $0.level > top.level }
        guard let subLevel = inside.map(\.level).min() else { return nil }
        let subsections = inside.filter { $0.level == subLevel }
        var best: (level: VersionBump.Level, heading: ChangelogHeading)?
        for (position, subsection) in subsections.enumerated() {
            let stop = position + 1 < subsections.count ? subsections[position + 1].line : end
            let headingLines = Set(
                inside.filter { $0.line < stop }.flatMap { $0.line..<($0.line + $0.lineCount) })
            let body = (subsection.line + subsection.lineCount)..<max(stop, subsection.line + subsection.lineCount)
            guard hasEntries(lines: document.lines, range: body, skipping: headingLines, format: document.format)
            else { continue }
            var level = level(ofSubsection: subsection.text)
            if level < .major, marksBreaking(lines: document.lines, range: body, skipping: headingLines) {
                level = .major
            }
            if best == nil || best!.level < level { best = (level, subsection) }
        }
        return best
    }

    /// Cargo's 0.x rule as the changelog's own releases show it: among the sections of its latest
    /// `releases` releases below 1.0.0 (newest first, prereleases aside) whose subsections call for
    /// a minor, at least 3 were released as patches and 3 times as many as were released as
    /// minors (zoxide's `### Added` in 0.9.8, 0.9.7, 0.9.5). The patches, newest first; nil otherwise.
    package static func featuresReleasedAsPatches(in document: ChangelogDocument, releases: Int = 12) -> [String]? {
        let steps = zeroMajorSteps(in: document, releases: releases).filter { $0.level == .minor }
        let patches = steps.filter(\.patch).map(\.version)
        return patches.count >= 3 && patches.count >= 3 * (steps.count - patches.count) ? patches : nil
    }

    /// Every change a patch below 1.0.0, as the changelog's own releases show it: among the
    /// sections of its latest `releases` releases below 1.0.0 that call for a minor or more, at
    /// least 3 that break something were released as patches, and all released as patches are 3
    /// times as many as those released as minors (briefcase's towncrier notes: "Backward
    /// Incompatible Changes" in 0.3.19 … 0.3.26 and 0.4.2, one minor, 0.4.0). The breaking
    /// patches, newest first; nil otherwise.
    package static func breakingReleasedAsPatches(in document: ChangelogDocument, releases: Int = 12) -> [String]? {
        let steps = zeroMajorSteps(in: document, releases: releases)
        let patches = steps.filter(\.patch)
        let breaking = patches.filter { $0.level == .major }.map(\.version)
        return breaking.count >= 3 && patches.count >= 3 * (steps.count - patches.count) ? breaking : nil
    }

    /// The releases at 1.0.0 and above whose sections break something, among the latest
    /// `releases`, shipped as minors: at least three, and twice the majors that did (pyinstaller's
    /// "Incompatible Changes" in 5.4, 5.6, 5.7, 5.8 and 5.10 against 5.0 and 6.0). Nil otherwise.
    package static func breakingReleasedAsMinors(in document: ChangelogDocument, releases: Int = 24) -> [String]? {
        let finals = Array(
            document.releaseHeadings.filter { heading in
                heading.version.map { $0.major != "0" && !$0.isPrerelease } ?? false
            }.prefix(releases))
        var minors: [String] = []
        var majors = 0
        for (newer, older) in zip(finals, finals.dropFirst()) {
            guard let version = newer.version, let before = older.version,
                sectionLevel(of: newer, in: document)?.level == .major
            else { continue }
            if version.major != before.major {
                majors += 1
            } else if version.minor != before.minor {
                minors.append(version.description)
            }
        }
        return minors.count >= 3 && minors.count >= 2 * majors ? minors : nil
    }

    /// The steps between the latest `releases` releases below 1.0.0 (newest first, prereleases
    /// aside) whose sections call for a minor or more: each version, its sections' level and
    /// whether it was released as a patch.
    static func zeroMajorSteps(
        in document: ChangelogDocument, releases: Int
    ) -> [(version: String, level: VersionBump.Level, patch: Bool)] {
        let zeros = Array(
            document.releaseHeadings.filter { heading in
                heading.version.map { $0.major == "0" && !$0.isPrerelease } ?? false
            }.prefix(releases))
        return zip(zeros, zeros.dropFirst()).compactMap { newer, older in
            guard let version = newer.version, let before = older.version,
                let level = sectionLevel(of: newer, in: document)?.level, level > .patch
            else { return nil }
            return (version.description, level, version.minor == before.minor)
        }
    }

    /// Whether a release heading, or the first line of text below it, names a date
    /// (`4.0.0 (2021-11-01)`, `**Release date:** 22 April 2026`, `v2.1.0 - May 3, 2024`).
    static func isDated(_ heading: ChangelogHeading, in document: ChangelogDocument) -> Bool {
        var texts = [heading.text]
        let start = min(heading.line + heading.lineCount, document.lines.count)
        if let first = document.lines[start...].first(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            texts.append(first)
        }
        let months = "(?:January|February|March|April|May|June|July|August|September|October|November|December)"
        let patterns = [
            #"\b\d{4}-\d{2}-\d{2}\b"#, "\\b\\d{1,2} \(months) \\d{4}\\b", "\\b\(months) \\d{1,2}, \\d{4}\\b",
        ]
        return texts.contains { text in
            !isPendingMark(text)
                && patterns.contains { text.range(of: $0, options: [.regularExpression, .caseInsensitive]) != nil }
        }
    }

    /// A heading for changes not released yet: `Unreleased`, `[Unreleased]`, `Upcoming release`,
    /// `Next`, `Next release`, `Not yet released`, `In progress`, `Work in progress`.
    package static func isUnreleased(_ text: String) -> Bool {
        let words = text.lowercased().drop(while: { !$0.isLetter }).split(whereSeparator: { !$0.isLetter })
        guard let first = words.first else { return false }
        // OpenTelemetry's Rust crates head theirs `## vNext`.
        if ["unreleased", "upcoming", "vnext"].contains(first) { return true }
        // VictoriaMetrics heads its pending changes `## tip` (the tip of the branch) in every
        // repository's `docs/CHANGELOG.md`.
        if first == "tip", words.count == 1 { return true }
        // jekyll heads them `### HEAD` (History.markdown): the branch's head, not yet released.
        if first == "head", words.count == 1, text.contains("HEAD") { return true }
        // A release tool's placeholder for the version it writes at release time (uniffi's
        // cargo-release `## [[UnreleasedUniFFIVersion]] …`, `[[NextUnreleasedUniFFIVersion]]`).
        if text.contains("[[") || text.contains("{{"), first.hasPrefix("unreleased") || first.hasPrefix("nextunreleased") {
            return true
        }
        let phrase = words.prefix(3).joined(separator: " ")
        if phrase.hasPrefix("not yet released") || phrase.hasPrefix("in progress")
            || phrase.hasPrefix("work in progress") || phrase.hasPrefix("in development")
        {
            return true
        }
        return first == "next" && (words.count == 1 || ["release", "version"].contains(words[1]))
    }

    /// Whether `line` is one Markdown link and nothing else (`[All changes in …](https://…)`).
    static func isLinkOnly(_ line: String) -> Bool {
        line.range(of: #"^\[[^\n]*\]\([^()\s]+\)\.?$"#, options: .regularExpression) != nil
    }

    /// The level a subsection's title calls for (`### Added` → minor, `## Bugfixes` → patch).
    package static func level(ofSubsection text: String) -> VersionBump.Level {
        let title = String(text.lowercased().drop(while: { !$0.isLetter }))
        func starts(_ words: [String]) -> Bool {
            words.contains { word in
                guard title.hasPrefix(word) else { return false }
                return title.dropFirst(word.count).first.map { !$0.isLetter } ?? true
            }
        }
        if starts(majorWords) { return .major }
        if starts(minorWords) || title.hasPrefix("new features") { return .minor }
        return .patch
    }

    /// Whether an entry of `range` says it breaks something in its first word, whatever the
    /// subsection: fd's `- Breaking: No longer automatically ignore .git` under `## Features`,
    /// `* **BREAKING**: …`, `- [breaking] …`.
    static func marksBreaking(lines: [String], range: Range<Int>, skipping headings: Set<Int>) -> Bool {
        for index in range where index < lines.count && !headings.contains(index) {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            guard let marker = line.first, "-*+".contains(marker), line.dropFirst().first == " " else { continue }
            let text = line.dropFirst(2).drop(while: { "*_[`( ".contains($0) }).lowercased()
            guard text.hasPrefix("breaking") else { continue }
            let rest = text.dropFirst("breaking".count)
            if rest.first.map({ !$0.isLetter }) ?? true { return true }
        }
        return false
    }

    /// Whether `range` of `lines` holds an entry: a line with text that is not a heading, a
    /// comment (`<!-- … -->`, reStructuredText's `..`) or a link definition.
    /// A line giving a section's status, no entry: `(unreleased)`, `Release date: TBA`, `*Not yet
    /// released*`, `In development`.
    static func isStatusLine(_ line: String) -> Bool {
        let text = line.trimmingCharacters(in: CharacterSet(charactersIn: " \t()*_[]`")).lowercased()
        guard !text.isEmpty, text.split(separator: " ").count <= 5 else { return false }
        if text.hasPrefix("release date") || text.hasPrefix("released:") && text.contains("tb") { return true }
        return ["unreleased", "not released", "not yet released", "in development", "in progress", "tba", "tbd", "upcoming"]
            .contains { text == $0 || text.hasPrefix($0 + " ") || text.hasSuffix(" " + $0) }
    }

    /// Whether a heading or a status line marks its section as not released yet (`- unreleased`,
    /// `(unreleased)`, `Release date: TBA`, `not yet released`, `in development`).
    static func isPendingMark(_ line: String) -> Bool {
        let words = line.lowercased().split(whereSeparator: { !$0.isLetter })
        if words.contains(where: { ["unreleased", "tba", "tbd", "upcoming"].contains($0) }) { return true }
        let text = " " + words.joined(separator: " ") + " "
        return [" not released ", " not yet released ", " in development ", " in progress "].contains { text.contains($0) }
    }

    static func hasEntries(
        lines: [String], range: Range<Int>, skipping headings: Set<Int>, format: ChangelogDocument.Format
    ) -> Bool {
        var inComment = false
        for index in range where index < lines.count && !headings.contains(index) {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            if inComment {
                if line.contains("-->") { inComment = false }
                continue
            }
            if line.isEmpty { continue }
            if line.hasPrefix("<!--") {
                if !line.contains("-->") { inComment = true }
                continue
            }
            if format == .restructuredText, line.hasPrefix("..") { continue }
            if ChangelogDocument.definitionLabel(Substring(line)) != nil { continue }
            if ChangelogDocument.rstAdornment(line) != nil { continue }
            return true
        }
        return false
    }
}
