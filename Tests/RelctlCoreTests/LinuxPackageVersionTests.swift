import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject
@testable import RelctlRelease

/// SemVer versions spelled for Debian and RPM, with the distributions' own comparisons as the
/// judges: `dpkg --compare-versions` and rpm's `rpm.vercmp` (the function `rpmdev-vercmp` and
/// dnf use). A list in SemVer precedence order must stay in that order once mapped.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct LinuxPackageVersionTests {
    /// Ascending by SemVer 2.0.0 precedence (section 11's example list, and more).
    static let ascending = [
        "0.9.9", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11",
        "1.0.0-rc.1", "1.0.0-rc.1-hotfix", "1.0.0", "1.0.1-0", "1.0.1", "1.1.0-rc.1", "1.1.0", "1.10.0", "2.0.0-RC.1",
        "2.0.0-rc.1", "10.0.0",
    ]

    /// Where rpm disagrees with SemVer and no spelling can help: rpm sorts a numeric segment
    /// after an alphabetic one (rpmvercmp), SemVer before it. Documented in docs/linux-packages.md.
    static let rpmReversed: Set<[String]> = [["1.0.0-alpha.1", "1.0.0-alpha.beta"]]

    @Test func mappingSpellsPrereleasesWithTilde() {
        #expect(LinuxPackageVersion("1.2.0-rc.1").debian == "1.2.0~rc.1")
        #expect(LinuxPackageVersion("1.2.0-rc.1").rpm == "1.2.0~rc.1")
        #expect(LinuxPackageVersion("1.2.0").debian == "1.2.0")
        #expect(LinuxPackageVersion("1.0.0-rc.1-hotfix").debian == "1.0.0~rc.1.hotfix")
        #expect(LinuxPackageVersion("1.0.0+build-5").rpm == "1.0.0+build.5")
        #expect(LinuxPackageVersion.problem(in: "v1.0") != nil)
        #expect(LinuxPackageVersion.problem(in: "1.0.0~rc.1") == nil)
    }

    @Test func dpkgOrdersTheMappedVersionsAsSemVerDoes() throws {
        for (lower, higher) in zip(Self.ascending, Self.ascending.dropFirst()) {
            #expect(try SemanticVersion(parsing: lower) < SemanticVersion(parsing: higher))
            let a = LinuxPackageVersion(lower).debian, b = LinuxPackageVersion(higher).debian
            let less = try run("dpkg", ["--compare-versions", a, "lt", b])
            #expect(less.status == 0, "dpkg does not sort \(a) before \(b)")
            // The check can fail: the reverse is refused.
            #expect(try run("dpkg", ["--compare-versions", b, "lt", a]).status == 1)
        }
    }

    @Test func rpmOrdersTheMappedVersionsAsSemVerDoesButForNumbersAfterLetters() throws {
        let pairs = Array(zip(Self.ascending, Self.ascending.dropFirst()))
        let calls = pairs.map { lower, higher in
            // rpm's print adds no newline inside a macro: separate the answers with spaces.
            "print(rpm.vercmp(\"\(LinuxPackageVersion(lower).rpm)\", \"\(LinuxPackageVersion(higher).rpm)\") .. \" \")"
        }.joined(separator: " ")
        let result = try run("rpm", ["--eval", "%{lua: \(calls)}"])
        #expect(result.status == 0, "\(result)")
        let answers = result.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
        try #require(answers.count == pairs.count, "\(result)")
        for ((lower, higher), answer) in zip(pairs, answers) {
            let expected = Self.rpmReversed.contains([lower, higher]) ? "1" : "-1"
            #expect(answer == expected, "rpm.vercmp(\(lower), \(higher)) = \(answer)")
        }
    }
}
