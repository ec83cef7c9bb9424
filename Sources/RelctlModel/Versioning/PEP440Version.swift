import Foundation
import RelctlBasics

/// A Python package version under PEP 440, parsed with the specification's own grammar (the
/// one `packaging.version` uses) and compared the way PEP 440 orders and equates versions.
///
/// Numbers are kept as digit strings without leading zeros, so `1.0.99999999999999999999`
/// compares correctly past Int64.
package struct PEP440Version: Sendable, Hashable, Comparable, CustomStringConvertible {
    package enum Phase: String, Sendable, Comparable {
        case a, b, rc
        package static func < (x: Phase, y: Phase) -> Bool {
            let rank: [Phase: Int] = [.a: 0, .b: 1, .rc: 2]
            return rank[x, default: 0] < rank[y, default: 0]
        }
    }

    /// One dot-separated part of a local label: numbers compare as numbers and above words.
    package enum LocalPart: Sendable, Hashable, Comparable, CustomStringConvertible {
        case number(String)
        case word(String)

        package var description: String {
            switch self {
            case .number(let digits): return digits
            case .word(let text): return text
            }
        }

        package static func < (x: LocalPart, y: LocalPart) -> Bool {
            switch (x, y) {
            case let (.number(a), .number(b)): return PEP440Version.lessDigits(a, b)
            case (.word, .number): return true
            case (.number, .word): return false
            case let (.word(a), .word(b)): return a < b
            }
        }
    }

    package var epoch: String
    package var release: [String]
    package var pre: (phase: Phase, number: String)?
    package var post: String?
    package var dev: String?
    package var local: [LocalPart]?

    /// The grammar of PEP 440's appendix, anchored, case-insensitive, surrounding spaces allowed.
    private static let grammar: NSRegularExpression? = try? NSRegularExpression(
        pattern: #"""
            ^\s*v?
            (?:(?<epoch>[0-9]+)!)?
            (?<release>[0-9]+(?:\.[0-9]+)*)
            (?<pre>[-_.]?(?<prel>alpha|a|beta|b|preview|pre|c|rc)[-_.]?(?<pren>[0-9]+)?)?
            (?<post>(?:-(?<postn1>[0-9]+))|(?:[-_.]?(?<postl>post|rev|r)[-_.]?(?<postn2>[0-9]+)?))?
            (?<dev>[-_.]?(?<devl>dev)[-_.]?(?<devn>[0-9]+)?)?
            (?:\+(?<local>[a-z0-9]+(?:[-_.][a-z0-9]+)*))?
            \s*$
            """#, options: [.caseInsensitive, .allowCommentsAndWhitespace])

    /// Parses a PEP 440 version (`1.2.3RC1`, `v1.2.3-rc.1`, `1.2.3.post2`, `1!2.0+ubuntu.1`…);
    /// nil for anything PEP 440 refuses (`1.0.`, `1.2.3-`, `1.0+`, `1.0-rc.1.0`).
    package init?(_ raw: String) {
        guard let grammar = Self.grammar else { return nil }
        let range = NSRange(raw.startIndex..., in: raw)
        guard let match = grammar.firstMatch(in: raw, range: range) else { return nil }
        func group(_ name: String) -> String? {
            Range(match.range(withName: name), in: raw).map { String(raw[$0]).lowercased() }
        }
        epoch = Self.trim(group("epoch") ?? "0")
        release = (group("release") ?? "0").split(separator: ".").map { Self.trim(String($0)) }
        if let label = group("prel") {
            let phase: Phase = ["alpha": .a, "a": .a, "beta": .b, "b": .b][label] ?? .rc
            pre = (phase, Self.trim(group("pren") ?? "0"))
        }
        if group("post") != nil { post = Self.trim(group("postn1") ?? group("postn2") ?? "0") }
        if group("dev") != nil { dev = Self.trim(group("devn") ?? "0") }
        if let label = group("local") {
            local = label.split(whereSeparator: { "-_.".contains($0) }).map { part in
                part.allSatisfy(\.isNumber) ? .number(Self.trim(String(part))) : .word(String(part))
            }
        }
    }

    /// The PEP 440 reading of a SemVer version, when it has one that means the same thing:
    /// `1.2.3-rc.1` → `1.2.3rc1`, `1.0.0-alpha.2` → `1.0.0a2`, `1.0.0-dev.3` → `1.0.0.dev3`,
    /// `1.2.3-rc.1-dev.1` → `1.2.3rc1.dev1`, build metadata → local label.
    ///
    /// Nil when PEP 440 reads the text as something else or not at all: `1.2.3-0` and
    /// `1.2.3-post.1` are post-releases to PEP 440 (above 1.2.3) but prereleases to SemVer (below
    /// it), and relctl orders tags by SemVer, so they have no spelling; `1.2.3-rc.1.0` and
    /// `1.2.3-x.7` have none either.
    package init?(semver: SemanticVersion) {
        guard let parsed = PEP440Version(semver.description), parsed.post == nil else { return nil }
        self = parsed
    }

    /// The SemVer version a PEP 440 tag names, read the way `init(semver:)` spells one: `2.14.0b1`
    /// → 2.14.0-beta.1, `2.0rc1` → 2.0.0-rc.1, `1.0.dev3` → 1.0.0-dev.3. A post-release
    /// (`1.0.post1`) keeps its base version with build metadata `post.1` (same precedence: it is
    /// ordered by name among that version's tags) when `post` allows it. Nil for what SemVer cannot
    /// order the same way: an epoch, a local label, more than three release numbers, a prerelease
    /// or post-release that is also a dev release.
    package func semanticReading(allowingPost post: Bool = false) -> SemanticVersion? {
        guard epoch == "0", local == nil, (1...3).contains(release.count) else { return nil }
        let numbers = (release + ["0", "0"])[0..<3].joined(separator: ".")
        var text = numbers
        switch (pre, self.post, dev) {
        case (nil, nil, nil): break
        case (let pre?, nil, nil):
            text += "-" + ["a": "alpha", "b": "beta", "rc": "rc"][pre.phase.rawValue, default: "rc"] + "." + pre.number
        case (nil, nil, let dev?): text += "-dev." + dev
        case (nil, let number?, nil) where post: text += "+post." + number
        default: return nil
        }
        return try? SemanticVersion(parsing: text)
    }

    /// Why a SemVer version has no PEP 440 reading, for messages; nil when it has one.
    package static func refusal(for semver: SemanticVersion) -> String? {
        guard PEP440Version(semver: semver) == nil else { return nil }
        if let parsed = PEP440Version(semver.description), let post = parsed.post {
            var final = semver.final
            final.build = []
            return
                "SemVer orders \(semver) below \(final), but PEP 440 reads it as the post-release \(final).post\(post), above it; release the fix as a new patch version instead"
        }
        return
            "its prerelease `\(semver.prerelease.map(\.description).joined(separator: "."))` has no PEP 440 spelling; use -alpha.N, -beta.N, -rc.N or -dev.N"
    }

    private static func trim(_ digits: String) -> String {
        let trimmed = digits.drop(while: { $0 == "0" })
        return trimmed.isEmpty ? "0" : String(trimmed)
    }

    package static func lessDigits(_ a: String, _ b: String) -> Bool {
        a.count != b.count ? a.count < b.count : a < b
    }

    /// The normalised form (`1!1.2.3rc1.post2.dev3+local.7`), as `packaging.version` prints it.
    package var description: String {
        var text = epoch == "0" ? "" : "\(epoch)!"
        text += release.joined(separator: ".")
        if let pre { text += pre.phase.rawValue + pre.number }
        if let post { text += ".post" + post }
        if let dev { text += ".dev" + dev }
        if let local { text += "+" + local.map(\.description).joined(separator: ".") }
        return text
    }

    /// The release segment without trailing zeros: `1.2.0` and `1.2` are the same release.
    private var trimmedRelease: [String] {
        var numbers = release
        while numbers.count > 1, numbers.last == "0" { numbers.removeLast() }
        return numbers
    }

    /// PEP 440 equality: equal after normalisation and zero padding of the release.
    package static func == (x: PEP440Version, y: PEP440Version) -> Bool { !(x < y) && !(y < x) }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(epoch)
        hasher.combine(trimmedRelease)
        hasher.combine(pre?.phase)
        hasher.combine(pre?.number)
        hasher.combine(post)
        hasher.combine(dev)
        hasher.combine(local)
    }

    /// PEP 440 ordering (the key `packaging.version` sorts by): epoch, release, then
    /// `.devN` < `aN` < `bN` < `rcN` < final < `.postN`, a dev release below its parent,
    /// and a local label above the same version without one.
    package static func < (x: PEP440Version, y: PEP440Version) -> Bool {
        if x.epoch != y.epoch { return lessDigits(x.epoch, y.epoch) }
        let (rx, ry) = (x.trimmedRelease, y.trimmedRelease)
        for index in 0..<max(rx.count, ry.count) {
            let a = index < rx.count ? rx[index] : "0", b = index < ry.count ? ry[index] : "0"
            if a != b { return lessDigits(a, b) }
        }
        let (px, py) = (x.preKey, y.preKey)
        if px != py { return px < py }
        let (ox, oy) = (x.post.map { Bound.value($0) } ?? .low, y.post.map { Bound.value($0) } ?? .low)
        if ox != oy { return ox < oy }
        let (dx, dy) = (x.dev.map { Bound.value($0) } ?? .high, y.dev.map { Bound.value($0) } ?? .high)
        if dx != dy { return dx < dy }
        switch (x.local, y.local) {
        case (nil, nil), (_?, nil): return false
        case (nil, _?): return true
        case let (a?, b?):
            for (p, q) in zip(a, b) where p != q { return p < q }
            return a.count < b.count
        }
    }

    /// A segment's sort key with PEP 440's implicit infinities.
    private enum Bound: Comparable {
        case low
        case value(String)
        case high
        static func < (x: Bound, y: Bound) -> Bool {
            switch (x, y) {
            case (.low, .low), (.high, .high): return false
            case (.low, _), (_, .high): return true
            case (_, .low), (.high, _): return false
            case let (.value(a), .value(b)): return PEP440Version.lessDigits(a, b)
            }
        }
    }

    private struct PreKey: Comparable {
        var bound: Int  // 0: a dev release of the final (below every pre), 1: a pre, 2: no pre
        var phase: Phase
        var number: String
        static func < (x: PreKey, y: PreKey) -> Bool {
            if x.bound != y.bound { return x.bound < y.bound }
            if x.phase != y.phase { return x.phase < y.phase }
            return PEP440Version.lessDigits(x.number, y.number)
        }
    }

    private var preKey: PreKey {
        if let pre { return PreKey(bound: 1, phase: pre.phase, number: pre.number) }
        if post == nil, dev != nil { return PreKey(bound: 0, phase: .a, number: "0") }
        return PreKey(bound: 2, phase: .a, number: "0")
    }
}
