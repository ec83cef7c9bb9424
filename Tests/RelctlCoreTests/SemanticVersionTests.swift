import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject
@testable import RelctlRelease

@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct SemanticVersionTests {
    @Test func specPrecedenceChain() throws {
        // SemVer 2.0.0 §11's example chain, plus the numeric-part ordering of §11.2.
        let chain = try [
            "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2",
            "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "2.0.0", "2.1.0", "2.1.1",
        ].map { try SemanticVersion(parsing: $0) }
        for (lower, higher) in zip(chain, chain.dropFirst()) {
            #expect(lower < higher, "\(lower) < \(higher)")
            #expect(!(higher < lower), "\(higher) !< \(lower)")
        }
        #expect(chain.shuffled().sorted() == chain)
    }

    @Test func numericIdentifiersCompareNumericallyAndBelowAlphanumeric() throws {
        #expect(try SemanticVersion(parsing: "1.0.0-2") < SemanticVersion(parsing: "1.0.0-10"))
        #expect(try SemanticVersion(parsing: "1.0.0-999") < SemanticVersion(parsing: "1.0.0-a"))
        #expect(try SemanticVersion(parsing: "1.0.0-Z") < SemanticVersion(parsing: "1.0.0-a"))  // ASCII order
    }

    @Test func arbitrarilyLargeNumbersCompareCorrectly() throws {
        let big = try SemanticVersion(parsing: "18446744073709551616.0.0")  // 2^64, beyond UInt64
        let bigger = try SemanticVersion(parsing: "99999999999999999999999.0.0")
        #expect(try SemanticVersion(parsing: "9.0.0") < big)
        #expect(big < bigger)
        #expect(bigger.description == "99999999999999999999999.0.0")
        #expect(
            try SemanticVersion(parsing: "1.0.0-123456789012345678901234567890")
                > SemanticVersion(parsing: "1.0.0-99999999999999999999"))
    }

    @Test func buildMetadataIsParsedButIgnoredInPrecedence() throws {
        let a = try SemanticVersion(parsing: "1.0.0+20130313144700")
        let b = try SemanticVersion(parsing: "1.0.0+exp.sha.5114f85")
        #expect(a.hasSamePrecedence(as: b))
        #expect(a != b)
        #expect(b.build == ["exp", "sha", "5114f85"])
        #expect(try SemanticVersion(parsing: "1.0.0-beta+exp.sha.5114f85").prerelease == [.alphanumeric("beta")])
    }

    @Test(arguments: [
        "0.0.4", "1.2.3", "10.20.30", "1.1.2-prerelease+meta", "1.1.2+meta", "1.1.2+meta-valid", "1.0.0-alpha",
        "1.0.0-alpha.beta.1", "1.0.0-alpha0.valid", "1.0.0-alpha.0valid", "1.0.0-rc.1+build.1", "2.0.0-rc.1+build.123",
        "1.2.3-beta", "10.2.3-DEV-SNAPSHOT", "1.2.3-SNAPSHOT-123", "2.0.0+build.1848", "1.0.0-0A.is.legal",
        "1.2.3----RC-SNAPSHOT.12.9.1--.12+788", "1.0.0+0.build.1-rc.10000aaa-kk-0.1",
    ])
    func validVersionsRoundTrip(_ text: String) throws {
        #expect(try SemanticVersion(parsing: text).description == text)
    }

    @Test(arguments: [
        "", "1", "1.2", "1.2.3.4", "01.1.1", "1.01.1", "1.1.01", "1.2.3-0123", "1.2.3-0123.0123", "1.1.2+.123",
        "+invalid", "-invalid", "-invalid+invalid", "alpha", "alpha.beta.1", "1.0.0-alpha..1", "1.0.0-alpha_beta",
        "1.2.3.DEV", "1.2-SNAPSHOT", "1.2.31.2.3----RC-SNAPSHOT.12.09.1--..12+788", "+justmeta", "9.8.7+meta+meta",
        "9.8.7-whatever+meta+meta", "1.0.0-", "1.0.0+", "v1.2.3", " 1.2.3", "1.2.3 ", "1.-2.3", "1.2.x", "１.2.3",
    ])
    func malformedVersionsAreRejected(_ text: String) {
        #expect(throws: VersionError.self) { try SemanticVersion(parsing: text) }
    }

    @Test func errorsExplainTheRuleBroken() {
        #expect(throws: VersionError.malformed("01.1.1", "the major version `01` has a leading zero")) {
            try SemanticVersion(parsing: "01.1.1")
        }
        #expect(throws: VersionError.malformed("1.2.3-01", "the numeric prerelease identifier `01` has a leading zero"))
        {
            try SemanticVersion(parsing: "1.2.3-01")
        }
        #expect(throws: VersionError.malformed("1.0.0-alpha..1", "it has an empty prerelease identifier")) {
            try SemanticVersion(parsing: "1.0.0-alpha..1")
        }
    }
}

@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct TagFormatTests {
    @Test(arguments: ["1.2.3", "v1.2", "V1.2.3", "v01.2.3", "v1.2.3.4", "v", "vv1.2.3", "v1.2.3-", "release-1.2.3"])
    func malformedTagsForTheDefaultFormat(_ tag: String) {
        #expect(throws: VersionError.self) { try TagFormat.default.version(of: tag) }
    }

    @Test func defaultFormatParsesAndFormats() throws {
        let version = try TagFormat.default.version(of: "v1.2.3-rc.1+build.5")
        #expect(version.description == "1.2.3-rc.1+build.5")
        #expect(TagFormat.default.tag(for: version) == "v1.2.3-rc.1+build.5")
    }

    @Test func literalPrefixSuffixAndProject() throws {
        let release = try TagFormat("release-{version}")
        #expect(try release.version(of: "release-2.0.0").description == "2.0.0")
        #expect(!release.matches("v2.0.0"))
        let suffixed = try TagFormat("{version}-final")
        #expect(try suffixed.version(of: "1.0.0-final").description == "1.0.0")
        let mono = try TagFormat("{project}@{version}", project: "sdk-core")
        #expect(try mono.version(of: "sdk-core@0.3.0").description == "0.3.0")
        #expect(!mono.matches("sdk-python@0.3.0"))
    }

    @Test(arguments: [
        "rel {version}", "v{version}~", "-{version}", "v{version}.lock", "v{version}:x", "a//{version}", "{version}.",
    ])
    func formatsGitCannotTagAreRejected(_ pattern: String) {
        #expect(throws: VersionError.self) { try TagFormat(pattern) }
    }

    @Test func projectNameThatGitCannotTagIsRejected() throws {
        #expect(throws: VersionError.self) { try TagFormat("{project}-v{version}", project: "my app") }
        #expect(try TagFormat("{project}/v{version}", project: "sdk-core").matches("sdk-core/v1.0.0"))
    }

    @Test func formatsWithoutExactlyOneVersionPlaceholderAreRejected() {
        #expect(throws: VersionError.self) { try TagFormat("v{vresion}") }
        #expect(throws: VersionError.self) { try TagFormat("{version}-{version}") }
        #expect(throws: VersionError.self) { try TagFormat("{version}-{target}") }
    }
}

@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct PEP440Tests {
    @Test func releaseSegmentsArePaddedWithZeros() throws {
        #expect(PEP440Version("1.2") == PEP440Version("1.2.0"))
        #expect(PEP440Version("2") == PEP440Version("2.0.0"))
        #expect(PEP440Version("1.2rc1") == PEP440Version("1.2.0rc1"))
        #expect(PEP440Version("1.2") != PEP440Version("1.2.1"))
        #expect(PEP440Version("1.0.10") != PEP440Version("1.0.1"))
        #expect(TagValidator.matches("1.2", try SemanticVersion(parsing: "1.2.0"), .pep440))
        #expect(PEP440Version("1.2")?.description == "1.2")
    }

    @Test(arguments: [
        ("1.2.3rc1", "1.2.3-rc.1"), ("1.2.3RC1", "1.2.3-rc.1"), ("1.2.3-rc.1", "1.2.3-rc.1"), ("1.2.3c1", "1.2.3-rc.1"),
        ("1.0.0a2", "1.0.0-alpha.2"), ("1.0.0.alpha.2", "1.0.0-a.2"), ("1.0.0b3", "1.0.0-beta.3"),
        ("2.0.0.dev4", "2.0.0-dev.4"),
        ("1.2.3", "1.2.3"), ("v1.2.3", "1.2.3"), ("1.02.3", "1.2.3"),
    ])
    func equalAfterNormalisation(_ python: String, _ semver: String) throws {
        let version = try SemanticVersion(parsing: semver)
        #expect(TagValidator.matches(python, version, .pep440), "\(python) == \(semver)")
    }

    @Test(arguments: [
        ("1.2.3rc2", "1.2.3-rc.1"), ("1.2.3", "1.2.3-rc.1"), ("1.2.3rc1", "1.2.3"), ("1.2.4", "1.2.3"),
        ("1.2.3a1", "1.2.3-beta.1"),
    ])
    func differentVersionsDoNotMatch(_ python: String, _ semver: String) throws {
        #expect(!TagValidator.matches(python, try SemanticVersion(parsing: semver), .pep440))
    }

    /// Issue 62's mutation audit: versions one patch apart never match, under either comparison,
    /// nor do versions apart in any one field.
    @Test(arguments: [
        ("1.2.3", "1.2.4"), ("1.2.4", "1.2.3"), ("1.2.3", "1.3.3"), ("1.2.3", "2.2.3"), ("1.2.3", "1.2.3-rc.1"),
    ])
    func versionsOneFieldApartNeverMatch(manifest: String, tag: String) throws {
        let version = try SemanticVersion(parsing: tag)
        #expect(!TagValidator.matches(manifest, version, .semver), "\(manifest) vs \(tag)")
        #expect(!TagValidator.matches(manifest, version, .pep440), "\(manifest) vs \(tag) (PEP 440)")
        #expect(TagValidator.matches(tag, version, .semver))
        #expect(TagValidator.matches(manifest, try SemanticVersion(parsing: manifest), .semver))
    }

    @Test func normalisedSpelling() {
        #expect(PEP440Version("1.0.0-RC.1")?.description == "1.0.0rc1")
        #expect(PEP440Version("1.0.0_post_2.dev3")?.description == "1.0.0.post2.dev3")
        #expect(PEP440Version("not a version") == nil)
    }
}
