import Foundation
import RelctlBasics

/// A `[[branch]]` table: the releases made on the branches its glob matches follow a line of
/// their own, a prerelease line (`prerelease = "rc"`) or a maintenance line (`range = "5.x"`).
/// Branches no rule matches (the default branch) release as before: above every release anywhere.
package struct BranchRule: Sendable, Equatable, CustomStringConvertible {
    package enum Line: Sendable, Equatable {
        /// Releases here are `X.Y.Z-ID.N`: the base from the changes since the last final release,
        /// N one above the highest existing `-ID.N` of that base.
        case prerelease(String)
        /// Releases here stay inside the range; a change that would leave it is refused.
        case maintenance(VersionRange)
        /// A glob without `range` (`[0-9]*.x`, `release-*`): each branch it matches is a maintenance
        /// line whose range its name gives (`range(fromName:)`); `applying` resolves it.
        case rangeFromName
    }

    /// The branch name or glob (`release/5.*`), as configured.
    package var name: String
    package var line: Line
    /// The `[[branch]]` table's line in relctl.toml, for messages.
    package var configLine: Int?
    /// In a workspace root's relctl.toml, the members the rule serves (`members = ["vite"]`); nil
    /// for every member. vite's `v6.2` branch is a 6.2.x line of `vite` only: its other members
    /// release from `main`, so a range there would bind them to a line they never had.
    package var members: [String]?
    /// A prerelease line's first counter: 1 (`-rc.1`), or 0 where the tool keeping the line
    /// starts there (changesets' pre mode: `-rc.0`).
    package var firstCounter = 1
    /// The counter goes on from the base's highest prerelease of any name, as changesets' pre mode
    /// does (it counts on from the package's current `-NAME.N`): effect's `4.0.0-beta.107`, then
    /// `changeset pre enter rc`, then `4.0.0-rc.108`, not `-rc.0`.
    package var countsAcrossNames = false
    /// `keep-in-range = true`: on this maintenance line a change calling for more than the range
    /// allows (a `feat` on `39.0.x`) ships as the highest step inside it, as traefik's chart
    /// backports features as patches; without it such a commit is refused (exit 1).
    package var keepsInRange = false

    package init(
        name: String, line: Line, configLine: Int? = nil, members: [String]? = nil, firstCounter: Int = 1,
        keepsInRange: Bool = false
    ) {
        self.name = name
        self.line = line
        self.configLine = configLine
        self.members = members
        self.firstCounter = firstCounter
        self.keepsInRange = keepsInRange
    }

    /// Whether the rule serves the workspace member named `member`.
    package func serves(member: String) -> Bool { members?.contains(member) ?? true }

    /// `*` matches `/` too (fnmatch without FNM_PATHNAME): `release/*` and `release/5.*` both name
    /// release branches.
    package func matches(_ branch: String) -> Bool { fnmatch(name, branch, 0) == 0 }

    /// The first rule matching `branch`, in the order relctl.toml lists them. A rule taking its
    /// range from the branch's name comes back as that maintenance line; a branch whose name gives
    /// no range (`release-next`) is not one of its lines, and the next rule is tried.
    package static func applying(to branch: String?, in rules: [BranchRule]) -> BranchRule? {
        guard let branch else { return nil }
        for rule in rules where rule.matches(branch) {
            guard rule.line == .rangeFromName else { return rule }
            if let range = range(fromName: branch) {
                var resolved = rule
                resolved.line = .maintenance(range)
                return resolved
            }
        }
        return nil
    }

    /// The prerelease names the rules give (`rc` for `prerelease = "rc"`): prereleases so named
    /// are a line of the project, and the branches without a rule stay above them.
    package static func prereleaseNames(in rules: [BranchRule]) -> Set<String> {
        Set(
            rules.compactMap { rule in
                if case .prerelease(let identifier) = rule.line { identifier } else { nil }
            })
    }

    /// The maintenance line a branch's name gives, as semantic-release reads `N.x`, `N.N.x` and
    /// `N.x.x`: the number or two numbers that end the name, with or without a last `.x`
    /// (`9.1.x` → 9.1.x, `1.x.x` → 1.x, `release-3.5` → 3.5.x, `v2` → 2.x). Nil when the name does
    /// not end so (`main`, `release-3.5.2`, `2026.11.25`).
    package static func range(fromName branch: String) -> VersionRange? {
        var parts = branch.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        // Up to two wildcards at the end: `9.1.x`, `1.x.x`.
        for _ in 0..<2 where parts.count > 1 && ["x", "X", "*"].contains(parts[parts.count - 1]) { parts.removeLast() }
        guard (1...2).contains(parts.count) else { return nil }
        // The first number is the digits that end the first part (`release-3`, `v2`, `9`).
        let digits = parts[0].reversed().prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return nil }
        parts[0] = String(digits.reversed())
        return VersionRange(parts.joined(separator: ".") + ".x")
    }

    /// What `bump` and `plan` say about the rule.
    package var description: String {
        switch line {
        case .prerelease(let identifier): return "`\(name)` (prerelease `\(identifier)`)"
        case .maintenance(let range): return "`\(name)` (range `\(range)`)"
        case .rangeFromName: return "`\(name)` (range from the branch name)"
        }
    }

    /// A prerelease identifier SemVer accepts as the first one (`rc`, `beta`, `next-2`): not a number.
    package static func problem(prerelease identifier: String) -> String? {
        let allowed = identifier.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
        }
        guard !identifier.isEmpty, allowed else {
            return "`prerelease` `\(identifier)` must be letters, digits and `-` (e.g. `rc`, `beta`)"
        }
        guard identifier.contains(where: { !$0.isNumber }) else {
            return "`prerelease` `\(identifier)` is a number; it must name the line (e.g. `rc`, `beta`)"
        }
        return nil
    }

    /// The branch a command runs on: the checked-out branch, else the one CI names (a detached
    /// checkout in GitHub Actions or GitLab CI); nil when neither says.
    package static func currentBranch(git: Git) async -> String? {
        if let branch = try? await git.currentBranch(), !branch.isEmpty { return branch }
        let environment = git.context.environment
        if let branch = environment["CI_COMMIT_BRANCH"], !branch.isEmpty { return branch }
        if environment["GITHUB_REF_TYPE"] == "branch", let branch = environment["GITHUB_REF_NAME"], !branch.isEmpty {
            return branch
        }
        return nil
    }
}

/// `5.x` (a major line) or `5.2.x` (a minor line): the versions a maintenance branch releases.
package struct VersionRange: Sendable, Equatable, CustomStringConvertible {
    package var major: String
    package var minor: String?

    /// Nil unless `text` is `N.x` or `N.M.x` (also `N.*`, `N.M.*`), numbers without leading zeros.
    package init?(_ text: String) {
        var parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let last = parts.last, last == "x" || last == "*" || last == "X" else { return nil }
        parts.removeLast()
        func number(_ part: String) -> Bool {
            !part.isEmpty && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber)
                && (part == "0" || !part.hasPrefix("0"))
        }
        guard (1...2).contains(parts.count), parts.allSatisfy(number) else { return nil }
        major = parts[0]
        minor = parts.count == 2 ? parts[1] : nil
    }

    package func contains(_ version: SemanticVersion) -> Bool {
        version.major == major && (minor == nil || version.minor == minor)
    }

    /// The first version of the range (`5.0.0`, `5.2.0`).
    package var lowest: SemanticVersion {
        var version = SemanticVersion(major: 0, minor: 0, patch: 0)
        (version.major, version.minor) = (major, minor ?? "0")
        return version
    }

    package var description: String { minor.map { "\(major).\($0).x" } ?? "\(major).x" }
}
