import Foundation
import RelctlBasics
import RelctlChanges
import RelctlModel

/// What a repository's tags say about how it releases, for `relctl init`: the tag format its
/// recent releases use and whether their versions are calendar versions.
///
/// The most recent releases decide (by the date each was tagged, then by version), by majority,
/// not the whole history and not one odd tag: fzf has 139 old tags without `v` and 39 recent ones
/// with it, and its next tag is `v0.75.0`; pydantic's one old `V0.17` and its two-number `v2.0`
/// say nothing about its `v2.14.0b1`. Tags named after the project (`ignore-0.4.33` for the
/// `ignore` crate of ripgrep's workspace) win over the repository's bare tags, which belong to the
/// application; so do tags named after the package's full name (`@changesets/cli@3.0.1` for the
/// npm package `@changesets/cli`, whose project is `cli`) — unless the history moved on from them:
/// `staleAfter` bare releases after the newest named one (yargs) make all of them vote.
package struct TagHistory {
    /// How many of the most recent releases vote.
    package static let recentCount = 5
    /// How many bare releases after the newest tag named after the project make that name stale.
    package static let staleAfter = 10
    /// How long (seconds: two years) a project's tags may lie behind its repository's newer tags of
    /// other series before its own series counts as left behind.
    package static let movedOnAfter = 2 * 365 * 86_400

    /// One version-like tag: the text before its version (`v`, `ignore-`) and the version.
    package struct Release {
        package var tag: String
        package var prefix: String
        package var inner: String
        package var version: SemanticVersion
        package var date: Int = 0
        /// The version's parts are joined by `_` in the tag (`rel_1_19_1`); `inner` has them joined by `.`.
        package var underscored = false
        /// The prefix is a word saying release (`release-`, nginx's `release-1.31.4`), not a name.
        package var releaseWord = false
        /// The text before the version only spells a release, as a `v` does, without naming a
        /// package: such a series competes with bare tags on recency rather than outranking them.
        var spellsReleaseOnly: Bool { underscored || releaseWord }

        /// The prefix with a final `V` read as `v`: `V0.17` and `v2.13.4` are one family; an
        /// underscored spelling is a family of its own.
        package var family: String {
            (prefix.last == "V" ? String(prefix.dropLast()) + "v" : prefix) + (underscored ? TagFormat.underscoredVersion : "")
        }
    }

    package var format = "v{version}"
    package var scheme = VersionScheme.semver
    /// Why, for the comment next to `tag-format` in the starter file.
    package var note = "no tags yet: tags will look like v1.2.3"
    /// Whether the format was read from the project's own tags (else it is the default).
    package var fromTags = false

    /// `aliases` are other names the project's tags may start with (a scoped npm package's name).
    package init(tags: [String], project: String, aliases: [String] = []) {
        self.init(tags: tags.map { GitTag(name: $0, commit: nil, date: 0) }, project: project, aliases: aliases)
    }

    /// How many bare releases, over more than `movedOnAfter`, leave a repository's own project
    /// behind its old named tags (`ownsBareTags`).
    package static let ownMovedOnAfter = 3

    /// The same, with when each tag was made: the most recent releases decide. `ownsBareTags`:
    /// the project is the repository's own (init at its top), so its bare tags are its releases
    /// too, not an application's beside it: jmoiron/sqlx's `sqlx-v1.0` and `sqlx-v1.1` of 2014-15,
    /// then eight `v1.2.0` … `v1.4.0` over six years; a named series the bare releases left
    /// `ownMovedOnAfter` times over more than `movedOnAfter` votes with them.
    /// `outOfLine`: tags HEAD does not contain; its prereleases among them do not vote.
    package init(
        tags: [GitTag], project: String, aliases: [String] = [], ownsBareTags: Bool = false,
        outOfLine: Set<String> = [], folderTagsOnly: Bool = false
    ) {
        let names = [project] + aliases.filter { $0 != project && !$0.isEmpty }
        var releases = tags.compactMap { tag in
            names.lazy.compactMap { Self.release(in: tag.name, project: $0) }.first.map { release in
                var dated = release
                dated.date = tag.date
                return dated
            }
        }
        // ingress-nginx's `ingress-nginx-3.15.2` of 2020, then 226 `helm-chart-4.x` and
        // `controller-v1.x` tags over five years: the history moved on to series named otherwise,
        // and the old name says nothing of the next release (its chart holds 4.15.1).
        if let newest = releases.map(\.date).max(), newest > 0 {
            let ours = Set(releases.map(\.tag))
            let later = tags.filter {
                $0.date > newest && !ours.contains($0.name) && $0.name.contains(/[0-9]+\.[0-9]+/)
            }
            if later.count >= Self.staleAfter, let last = later.max(by: { $0.date < $1.date }),
                last.date - newest > Self.movedOnAfter
            {
                releases = []
                note =
                    "no version tag of this project since \(later.count) newer tags spelled otherwise (\(last.name)): tags will look like v1.2.3 unless tag-format names their series"
                return
            }
        }
        guard !releases.isEmpty else {
            if !tags.isEmpty { note = "no version tag yet: tags will look like v1.2.3" }
            return
        }
        // A word before underscored parts (`cares-1_29_0`, `rel_1_19_1`) spells a version, as a `v`
        // does, rather than naming a package: such a series competes with bare tags on recency
        // (c-ares moved from `cares-1_29_0` to `v1.30.0`).
        let named = releases.filter { !Self.isGeneric($0.prefix) && !$0.spellsReleaseOnly }
        var candidates = named.isEmpty ? releases : named
        // Named tags that each twin a bare one of the same version on the same commit, the bare
        // series the longer (tokei's 7 `tokei@13.0.0` beside 36 `v13.0.0`): the bare series is
        // the one the project keeps whole.
        let commitOf = Dictionary(tags.map { ($0.name, $0.commit) }, uniquingKeysWith: { first, _ in first })
        let generic = releases.filter { Self.isGeneric($0.prefix) }
        let bareAt = Set(generic.compactMap { release in commitOf[release.tag]?.map { "\($0) \(release.version)" } })
        // A nested Go module's version comes from its folder's tags alone (Go's rule), however
        // many bare tags of the root module sit on the same commits (sigstore's 38
        // `pkg/signature/kms/aws/v1.10.9` beside 60 `v1.10.9`).
        if !named.isEmpty, !folderTagsOnly, generic.count > named.count,
            named.allSatisfy({ release in
                commitOf[release.tag]?.map { bareAt.contains("\($0) \(release.version)") } ?? false
            })
        {
            candidates = generic
        }
        // Named tags the history has moved on from vote with the rest: yargs' two `yargs-v16.2.1`
        // of 2021, followed by more than `staleAfter` bare `v17.0.0` … releases.
        if let newestNamed = named.map(\.date).max(), newestNamed > 0 {
            let bareAfter = releases.filter { Self.isGeneric($0.prefix) && $0.date > newestNamed }
            let leftBehind =
                ownsBareTags && bareAfter.count >= Self.ownMovedOnAfter
                && (bareAfter.map(\.date).max() ?? 0) - newestNamed > Self.movedOnAfter
            if !folderTagsOnly, bareAfter.count >= Self.staleAfter || leftBehind { candidates = releases }
        }
        // Prereleases tagged on a line HEAD does not contain do not vote on this line's spelling:
        // typeorm's three `v1.0.0-beta.N` on its 1.0 branch, newer than master's 104 plain `0.3.x`.
        let voters = candidates.filter { !($0.version.isPrerelease && outOfLine.contains($0.tag)) }
        let byRecency = (voters.isEmpty ? candidates : voters).sorted {
            if $0.date != $1.date { return $0.date > $1.date }
            if !$0.version.hasSamePrecedence(as: $1.version) { return $1.version < $0.version }
            return $0.tag < $1.tag
        }
        let recent = Array(byRecency.prefix(Self.recentCount))
        // The family most of the recent releases use; a tie goes to the most recent release's.
        var votes: [String: Int] = [:]
        for release in recent { votes[release.family, default: 0] += 1 }
        let best = votes.values.max() ?? 0
        let family = recent.first { votes[$0.family] == best }?.family ?? recent[0].family
        // Spelled as most of that family's recent tags are (`v`, not the odd `V`).
        var spellings: [String: Int] = [:]
        for release in recent where release.family == family { spellings[release.prefix, default: 0] += 1 }
        let chosen =
            recent.first { $0.family == family && spellings[$0.prefix] == spellings.values.max() }?.prefix ?? family
        let members = candidates.filter { $0.family == family }
        let newest = byRecency.first { $0.family == family } ?? members[0]
        // A prefix spelled with the project's name says `{project}`; one spelled with an alias is
        // written as it stands, since `{project}` would expand to the short name.
        let ownName = !project.isEmpty && chosen.hasPrefix(project)
        let underscored = recent.first { $0.family == family }?.underscored ?? false
        format =
            (Self.isGeneric(chosen) || !ownName ? chosen : "{project}" + chosen.dropFirst(project.count))
            + (underscored ? TagFormat.underscoredVersion : "{version}")
        let familyRecent = recent.filter { $0.family == family }
        // A patch of a calendar line's opener is a calendar version too (cloud-init's `25.1.4`
        // of `25.1`, made on its `25.1.x` branch): patches filling the newest ten do not outvote
        // the year's releases.
        let openers = Set(
            candidates.filter { $0.family == family && Self.isCalendar($0) && !$0.inner.contains(where: { $0 == "-" || $0 == "+" }) }
                .filter { $0.inner.split(separator: ".").count == 2 }.map { "\($0.version.major).\($0.version.minor)" })
        func calendarLike(_ release: Release) -> Bool {
            Self.isCalendar(release)
                || (release.inner.split(separator: ".").count == 3 && release.version.prerelease.isEmpty
                    && openers.contains("\(release.version.major).\(release.version.minor)"))
        }
        if familyRecent.filter(calendarLike).count * 2 > familyRecent.count {
            scheme = .calver
        } else {
            // `YY.M.P` named after the month each was tagged in (Twisted's 24.3.0 of March 2024,
            // black's 24.10.0): calendar versions SemVer can also read. Over two years at least, so a
            // SemVer project at major 24 in 2024 is not taken for one; where the recent releases
            // all fall in one year (towncrier's 23.6.0 … 23.11.0rc1), the years are read from twice
            // as many of the family's newest.
            let dated = familyRecent.filter(Self.isMonthDated)
            let wider = Array(byRecency.lazy.filter { $0.family == family }.prefix(Self.recentCount * 2))
            let widerDated = wider.filter(Self.isMonthDated)
            if dated.count * 2 > familyRecent.count,
                Set(dated.map(\.version.major)).count >= 2
                    || (widerDated.count * 2 > wider.count
                        && (Set(widerDated.map(\.version.major)).count >= 2 || Self.skipsMonths(widerDated)
                            || Self.namesDays(widerDated)))
            {
                scheme = .calver
            }
        }
        fromTags = true
        let others = candidates.count - members.count
        // Tags of another spelling made after the newest of this one (pip-tools' `v7.5.0` and
        // `v7.5.1` after 123 bare tags): said as newer, since the project may have switched.
        let newer = candidates.filter { $0.family != family && $0.date > newest.date }
            .sorted { $0.date > $1.date }
        let spelledOtherwise =
            newer.isEmpty
            ? "; \(others) older tag\(others == 1 ? " is" : "s are") spelled otherwise: not releases of this format, and bump never proposes their versions"
            : "; \(others) tag\(others == 1 ? " is" : "s are") spelled otherwise, \(newer.count == others ? (others == 1 ? "newer" : "all newer") : "\(newer.count) of them newer") (\(newer[0].tag)): not releases of this format, and bump never proposes their versions; if the project now spells its tags that way, change tag-format"
        note =
            "like the \(members.count) existing tag\(members.count == 1 ? "" : "s") (\(newest.tag))"
            + (others == 0 ? "" : spelledOtherwise)
            + (scheme == .calver ? "; calendar versions" : "")
    }

    /// Whether a workspace's tags, whatever each member's prefix, hold calendar versions: more than
    /// half of the ten newest tags that end in a version (mise's `v2026.8.1`, `vfox-v2026.8.15`,
    /// `aqua-registry-v2026.7.4`). A workspace whose bare tags are dated and whose members count
    /// SemVer versions is not one.
    package static func holdsCalendarVersions(_ tags: [GitTag]) -> Bool {
        let newest = tags.sorted { $0.date != $1.date ? $0.date > $1.date : $0.name < $1.name }
        let releases = Array(newest.lazy.compactMap(trailingRelease(in:)).prefix(recentCount * 2))
        return releases.count >= 3 && releases.filter(isCalendar).count * 2 > releases.count
    }

    /// The version a tag ends with, whatever names it: the first digit after the start, `v`, `-`,
    /// `_`, `/` or `@` from which the rest reads as a version.
    static func trailingRelease(in tag: GitTag) -> Release? {
        let name = tag.name
        var previous: Character?
        for index in name.indices {
            defer { previous = name[index] }
            guard name[index].isASCII, name[index].isNumber, previous.map({ "vV-_/@".contains($0) }) ?? true else {
                continue
            }
            let inner = String(name[index...])
            guard let version = ReleasedVersions.reading(inner, scheme: .calver) else { continue }
            return Release(tag: name, prefix: String(name[..<index]), inner: inner, version: version, date: tag.date)
        }
        return nil
    }

    /// The text before the version is empty or a bare `v` (or `V`, or rustls' `v/`): tags of the whole repository.
    package static func isGeneric(_ prefix: String) -> Bool {
        prefix.isEmpty || prefix == "v" || prefix == "V" || prefix == "v/"
    }

    /// `tag` as a release of `project`: a version after nothing, `v`, or the project's name (in any
    /// case: Twisted's tags are `twisted-24.7.0`) and a separator (`ignore-`, `ignore-v`,
    /// `ignore/v`); nil for any other tag (another crate's). The prefix is spelled as the tag is.
    package static func release(in tag: String, project: String) -> Release? {
        var prefix = ""
        let head = String(tag.prefix(project.count))
        if !project.isEmpty, head == project || head.lowercased() == project.lowercased(),
            let separator = tag.dropFirst(project.count).first, "-_/@".contains(separator)
        {
            prefix = head + String(separator)
        }
        var releaseWord = false
        // nginx's `release-1.31.4`, sqlite's `version-3.45.0`: a word saying release, not a name.
        if prefix.isEmpty, let word = releaseWords.first(where: { tag.hasPrefix($0) }) {
            prefix = word
            releaseWord = true
        }
        var inner = Substring(tag.dropFirst(prefix.count))
        if inner.first == "v" || inner.first == "V" {
            prefix.append(inner.removeFirst())
            // rustls' `v/0.23.33` and `rustls-post-quantum-v/0.2.1`.
            if inner.first == "/" { prefix.append(inner.removeFirst()) }
        }
        guard inner.first?.isNumber == true,
            let version = ReleasedVersions.reading(String(inner), scheme: .calver)
        else { return underscoredRelease(in: tag) }
        var release = Release(tag: tag, prefix: prefix, inner: String(inner), version: version)
        release.releaseWord = releaseWord
        return release
    }

    /// Prefixes that say only "a release of": `release-1.31.4`, `version-3.45.0`.
    static let releaseWords = ["release-", "release_", "release/", "version-", "version_"]

    /// alembic's and SQLAlchemy's `rel_1_19_1`, `rel_2_0_0b1`, curl's `curl-8_21_0`: a word and `_`
    /// or `-`, then three numbers joined by `_`, and a PEP 440 prerelease glued on.
    static func underscoredRelease(in tag: String) -> Release? {
        // Read by bytes: a regex literal is parsed again at every call, and init reads every tag
        // of a workspace once per member (astro: an eighth of `init`).
        let bytes = Array(tag.utf8)
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte) }
        func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
        guard let first = bytes.first, isLetter(first) else { return nil }
        var index = 1
        while index < bytes.count, isLetter(bytes[index]) || isDigit(bytes[index]) { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "_") || bytes[index] == UInt8(ascii: "-") else { return nil }
        index += 1
        let prefixEnd = index
        var numbers: [String] = []
        while numbers.count < 3 {
            let start = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > start else { return nil }
            numbers.append(String(decoding: bytes[start..<index], as: UTF8.self))
            if numbers.count < 3 {
                guard index < bytes.count, bytes[index] == UInt8(ascii: "_") else { return nil }
                index += 1
            }
        }
        let rest = String(decoding: bytes[index...], as: UTF8.self)
        if !rest.isEmpty {
            let marker = rest.prefix { isLetter($0.asciiValue ?? 0) }
            let count = rest.dropFirst(marker.count)
            guard ["a", "b", "rc"].contains(marker), !count.isEmpty, count.allSatisfy({ isDigit($0.asciiValue ?? 0) }) else {
                return nil
            }
        }
        let inner = numbers.joined(separator: ".") + rest
        guard let version = ReleasedVersions.reading(inner, scheme: .semver) else { return nil }
        var release = Release(
            tag: tag, prefix: String(decoding: bytes[..<prefixEnd], as: UTF8.self), inner: inner, version: version)
        release.underscored = true
        return release
    }

    /// Whether releases named after their months, all of one year, name three months at least
    /// and leave one out between two of them (conda-build's 25.1.0, 25.3.0, 25.4.0, 25.5.0 of
    /// 2025): SemVer never skips a minor, so a project at major 25 whose monthly minors happen to
    /// match 2025's months is not read as calendar versions, while a dated one is before its
    /// first release of the next year.
    static func skipsMonths(_ dated: [Release]) -> Bool {
        guard Set(dated.map(\.version.major)).count == 1 else { return false }
        let months = Set(dated.compactMap { Int($0.version.minor) }).sorted()
        guard months.count >= 3 else { return false }
        return zip(months, months.dropFirst()).contains { $1 - $0 > 1 }
    }

    /// Whether most of `dated` (three at least) name the day they were tagged on as their third
    /// number (Xray-core's `v26.4.15` of 2026-04-15, `v26.4.17` of 2026-04-17): SemVer patches
    /// do not follow the calendar's days, so one year of them is calendar versions already.
    static func namesDays(_ dated: [Release]) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let named = dated.filter { release in
            guard release.date > 0, let patch = Int(release.version.patch), patch > 0 else { return false }
            let day = calendar.component(.day, from: Date(timeIntervalSince1970: TimeInterval(release.date)))
            return abs(day - patch) <= 1
        }
        return named.count >= 3 && named.count * 2 > dated.count
    }

    /// `YY.M.P` named after the month the tag was made in, one of the two before it (a release
    /// prepared in July and tagged in August: Twisted's `twisted-24.7.0` of 2024-08-08) or the
    /// one after it (a release made at a month's end for the next: molecule's `v25.3.0` of
    /// 2025-02-18, `v25.2.0` of 2025-01-28), across a year's end too. False for a tag without a date.
    package static func isMonthDated(_ release: Release) -> Bool {
        guard release.date > 0, let year = Int(release.version.major), let month = Int(release.version.minor),
            release.version.major.count == 2, (1...12).contains(month)
        else { return false }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let date = Date(timeIntervalSince1970: TimeInterval(release.date))
        let (taggedYear, taggedMonth) = (calendar.component(.year, from: date), calendar.component(.month, from: date))
        let (named, tagged) = (year * 12 + month, (taggedYear % 100) * 12 + taggedMonth)
        return (tagged - 2...tagged + 1).contains(named)
    }

    /// A calendar-shaped version: zero padding SemVer refuses (`2026.07.22`, `25.07`), a year as the
    /// first number (`2024.1.2`), or two numbers of which the first is a two-digit year and the
    /// second a month (helix's `23.10`, tagged within a year of it where the tag's date is known)
    /// or, where the year is the one the tag was made in, a count of that year's releases
    /// (packaging's `26.0` … `26.3` of 2026, and its `26.0rc3`). Two numbers alone are not (`v2.0`,
    /// `v0.13`).
    package static func isCalendar(_ release: Release) -> Bool {
        var core = Substring(release.inner.prefix { $0 != "-" && $0 != "+" })
        // PEP 440 glues its prereleases on: `26.0rc3` is a candidate of `26.0`.
        if let glued = core.firstRange(of: /(a|b|rc)[0-9]+$/), glued.lowerBound > core.startIndex {
            core = core[..<glued.lowerBound]
        }
        let numbers = core.split(separator: ".", omittingEmptySubsequences: false)
        guard (2...3).contains(numbers.count), numbers.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) })
        else { return false }
        if numbers.contains(where: { $0.count > 1 && $0.first == "0" }) { return true }
        if numbers[0].count == 4, ("1990"..."2199").contains(numbers[0]) { return true }
        if numbers.count == 2, numbers[0].count == 2, let second = Int(numbers[1]), let year = Int(numbers[0]),
            year >= 15
        {
            guard release.date > 0 else { return (1...12).contains(second) }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
            let tagged = calendar.component(.year, from: Date(timeIntervalSince1970: TimeInterval(release.date))) % 100
            // A month of a year within one of the tag's (a December release tagged in January);
            // python-telegram-bot's `v22.1` … `v22.8`, tagged in 2025 and 2026, are SemVer.
            if (1...12).contains(second) { return abs(tagged - year) <= 1 }
            return tagged == year
        }
        return false
    }
}
