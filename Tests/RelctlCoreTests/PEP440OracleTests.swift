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

/// PEP 440 parsing, normalisation, ordering and equality checked against `packaging.version`
/// (pypa/packaging, what pip uses) as the oracle, over cases modelled on packaging's own test
/// lists: every spelling, every ordering boundary, and the strings PEP 440 refuses.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct PEP440OracleTests {
    static let versions = [
        // releases, padding, leading zeros, huge numbers
        "1", "1.0", "1.0.0", "1.0.0.0", "01.02.03", "1.2", "1.2.3", "1.10", "1.9", "0", "0.0.0",
        "1.0.99999999999999999999", "1.0.100000000000000000000", "99999999999999999999999.0",
        // pre-releases in every spelling
        "1.0a1", "1.0.0a1", "1.0alpha1", "1.0-a1", "1.0_a_1", "1.0.a.1", "1.0a", "1.0A1", "1.0b2", "1.0beta2",
        "1.0-beta.2",
        "1.0c1", "1.0rc1", "1.0pre1", "1.0preview1", "1.0-rc.1", "1.0RC1", "1.0rc01", "1.0rc",
        // post and dev releases, implicit forms
        "1.0.post1", "1.0post1", "1.0-post1", "1.0_post_1", "1.0.post", "1.0-1", "1.0.rev1", "1.0r1", "1.0-r-1",
        "1.0.dev1", "1.0dev1", "1.0-dev1", "1.0.dev", "1.0dev", "1.0.DEV2",
        "1.0a1.dev1", "1.0rc1.post1", "1.0rc1.post1.dev2", "1.0.post1.dev1", "1.0-rc.1-dev.1",
        // epochs and local labels
        "1!1.0", "0!1.0", "2!0.1", "1.0+abc", "1.0+ABC.5", "1.0+5", "1.0+00", "1.0+0", "1.0+abc-def_1", "1.0+1.abc",
        "1.0+abc.1",
        "v1.0", "V1.0rc1", " 1.0 ", "\t1.0rc1\n",
        // refused by PEP 440
        "1.0.", "1.2.3-", "1.0+", "1.0+abc.", "1.0-rc.1.0", "1.0..0", ".1.0", "1.0a1a2", "1.0-rc.1.2",
        "1.0.post1.post2",
        "1.0+a+b", "1.0-", "", "abc", "1.0 rc1", "1.0-dev.1.2", "1.0_", "1.0rc1-", "1!", "!1.0", "1.0+-abc",
        "1.0.dev1.post1", "1.0.0-alpha.beta", "1.0-0.0", "1.2.3-x.7",
    ]

    /// SemVer spellings of tags, checked against every valid Python version above.
    static let semverTags = [
        "1.0.0", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-a.1", "1.0.0-beta.2", "1.0.0-rc.1", "1.0.0-RC.1", "1.0.0-rc1",
        "1.0.0-c.1", "1.0.0-pre.1", "1.0.0-preview.1", "1.0.0-dev", "1.0.0-dev.1", "1.0.0-rc.1-dev.1", "1.0.0-0",
        "1.0.0-0.0",
        "1.0.0-1", "1.0.0-post.1", "1.0.0-rc.1.0", "1.0.0+abc", "1.0.0+5", "1.0.0-x.7", "1.2.3", "1.0.0-alpha.beta",
    ]

    struct Oracle: Decodable {
        var valid: [String: String]
        var less: [[Bool]]
        var equal: [[Bool]]
        var tagEquals: [[Bool]]
    }

    static func oracle(_ valid: [String]) throws -> Oracle {
        let script = #"""
            import json, sys
            from packaging.version import Version, InvalidVersion
            data = json.load(sys.stdin)
            parsed = {}
            for text in data["versions"]:
                try:
                    parsed[text] = Version(text)
                except InvalidVersion:
                    pass
            valid = data["valid"]
            tags = [Version(t) for t in data["tags"]]
            print(json.dumps({
                "valid": {k: str(v) for k, v in parsed.items()},
                "less": [[parsed[a] < parsed[b] for b in valid] for a in valid],
                "equal": [[parsed[a] == parsed[b] for b in valid] for a in valid],
                "tagEquals": [[parsed[a] == t for t in tags] for a in valid],
            }))
            """#
        let input = try JSONSerialization.data(withJSONObject: [
            "versions": versions, "valid": valid,
            "tags": semverTags.map { semver -> String in
                // The oracle reads the tag text as PEP 440; tags it refuses compare as a sentinel nothing equals.
                (try? SemanticVersion(parsing: semver)).flatMap {
                    PEP440Version($0.description) != nil ? $0.description : nil
                } ?? "0!0.0.0.dev0+nomatch"
            },
        ])
        let dir = try TemporaryDirectory()
        try dir.write("in.json", String(decoding: input, as: UTF8.self))
        try dir.write("oracle.py", script)
        let result = try run("/bin/sh", ["-c", "python3 oracle.py < in.json"], in: dir.url)
        guard result.status == 0 else { throw TestFailure("packaging oracle failed: \(result)") }
        return try JSONDecoder().decode(Oracle.self, from: Data(result.stdout.utf8))
    }

    @Test func agreesWithPackagingOnEveryCase() throws {
        let ours = Self.versions.filter { PEP440Version($0) != nil }
        let oracle = try Self.oracle(ours)
        var disagreements: [String] = []
        for text in Self.versions {
            let mine = PEP440Version(text)?.description
            if mine != oracle.valid[text] {
                disagreements.append(
                    "parse \(text.debugDescription): ours \(mine ?? "refused"), packaging \(oracle.valid[text] ?? "refused")"
                )
            }
        }
        for (i, a) in ours.enumerated() {
            for (j, b) in ours.enumerated() {
                guard let x = PEP440Version(a), let y = PEP440Version(b) else { continue }
                if (x < y) != oracle.less[i][j] { disagreements.append("\(a) < \(b): ours \(x < y)") }
                if (x == y) != oracle.equal[i][j] { disagreements.append("\(a) == \(b): ours \(x == y)") }
                if (x == y) && x.hashValue != y.hashValue {
                    disagreements.append("\(a) and \(b) are equal but hash differently")
                }
            }
        }
        for (i, text) in ours.enumerated() {
            for (j, tag) in Self.semverTags.enumerated() {
                guard let version = try? SemanticVersion(parsing: tag) else { continue }
                // A SemVer prerelease PEP 440 reads as a post-release has no PEP 440 meaning (documented refusal).
                let refused = PEP440Version(tag).map { $0.post != nil } ?? true
                let expected = refused ? false : oracle.tagEquals[i][j]
                if TagValidator.matches(text, version, .pep440) != expected {
                    disagreements.append("manifest \(text) vs tag \(tag): ours \(!expected)")
                }
            }
        }
        #expect(
            disagreements.isEmpty,
            "\(disagreements.count) disagreements:\n\(disagreements.prefix(40).joined(separator: "\n"))")
        #expect(
            ours.count > 60 && Self.versions.count - ours.count > 20,
            "the list covers both accepted and refused spellings")
    }

    @Test func reportedCasesFromRealProjects() throws {
        func v(_ text: String) throws -> SemanticVersion { try SemanticVersion(parsing: text) }
        #expect(!TagValidator.matches("1.2.3", try v("1.2.3-0"), .pep440), "a prerelease never equals a final")
        #expect(!TagValidator.matches("1.2.3", try v("1.2.3-0.0"), .pep440))
        #expect(!TagValidator.matches("1.2.3rc1", try v("1.2.3-rc.1.0"), .pep440))
        #expect(TagValidator.matches("1.2.3rc1.dev1", try v("1.2.3-rc.1-dev.1"), .pep440))
        #expect(PEP440Version("1.0.") == nil && PEP440Version("1.2.3-") == nil)
        #expect(PEP440Version("1.0+00") == PEP440Version("1.0+0"))
        #expect(TagValidator.matches("1.0.99999999999999999999", try v("1.0.99999999999999999999"), .pep440))
        #expect(
            !TagValidator.matches("1.0.0.post1", try v("1.0.0-post.1"), .pep440),
            "-post.1 is below 1.0.0 in SemVer, above it in PEP 440: refused")
        #expect(PEP440Version.refusal(for: try v("1.0.0-post.1"))?.contains("post-release") == true)
        #expect(
            PEP440Version("3.2.0.dev")! < PEP440Version("3.2.0")!
                && PEP440Version("3.1.4")! < PEP440Version("3.2.0.dev")!)
    }
}
