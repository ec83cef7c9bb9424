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

@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct CompanionTests {
    func v(_ text: String) throws -> SemanticVersion { try SemanticVersion(parsing: text) }

    @Test(arguments: [
        ("", "0.15.1", "0.15.9", true), ("", "0.15.1", "0.16.0", false), ("", "0.15", "0.15.0", true),
        ("^", "0.15", "0.16.0", false),
        ("", "1.2.3", "1.9.0", true), ("", "1.2.3", "2.0.0", false), ("", "1.2.3", "1.2.2", false),
        ("", "0.0.3", "0.0.4", false),
        ("", "1", "1.9.9", true), ("=", "0.15.1", "0.15.2", false), ("=", "0.15", "0.15.7", true),
        ("~", "1.2.3", "1.2.9", true),
        ("~", "1.2.3", "1.3.0", false), ("~", "1", "1.7.0", true), ("", "1.2.3", "1.2.4-rc.1", false),
    ])
    func cargoRequirementRules(_ op: String, _ requirement: String, _ version: String, _ admitted: Bool) throws {
        #expect(
            CargoRequirement.admits(operator: op, text: requirement, version: try v(version)) == admitted,
            "\(op)\(requirement) vs \(version)")
    }

    func requirement(_ text: String, _ op: String = "") -> Companion {
        Companion(
            kind: .cargoRequirement, file: "Cargo.toml", line: 1, text: text, what: "requirement",
            requirementOperator: op)
    }

    @Test func requirementsAreStaleOnlyWhenCargoWouldRefuseThem() throws {
        // A lagging but compatible requirement is no mismatch, and --write leaves it alone.
        #expect(requirement("0.3.1").expectedText(for: try v("0.3.5")) == nil)
        #expect(requirement("0.3.1").expectedText(for: try v("0.3.6"), previous: "0.3.5") == nil)
        #expect(requirement("0.3.1").expectedText(for: try v("0.4.0")) == "0.4.0")
        // In lockstep before the bump: in lockstep after it, operator kept by the caller's line edit.
        #expect(requirement("0.15.1").expectedText(for: try v("0.15.2"), previous: "0.15.1") == "0.15.2")
        #expect(requirement("0.15.1", "=").expectedText(for: try v("0.15.2")) == "0.15.2")
        #expect(requirement("0.15", "^").expectedText(for: try v("0.16.0"), previous: "0.15.1") == "0.16")
        #expect(requirement("0.15", "^").expectedText(for: try v("0.15.9"), previous: "0.15.1") == nil)
        #expect(requirement("0.15").expectedText(for: try v("0.16.0-rc.1")) == "0.16.0-rc.1")
    }

    @Test func jsonStringLinesTrackKeyPaths() {
        let scan = JSONStringLines(
            "{\n  \"version\": \"1.0.0\",\n  \"engines\": {\"version\": \"9\"},\n  \"packages\": {\n    \"\": {\n      \"version\": \"1.0.0\"\n    }\n  },\n  \"list\": [\"a\", {\"version\": \"x\"}]\n}\n"
        )
        #expect(scan.entry(at: ["version"])?.line == 2)
        #expect(scan.entry(at: ["engines", "version"])?.value == "9")
        #expect(scan.entry(at: ["packages", "", "version"])?.line == 6)
        #expect(scan.entry(at: ["list", "1", "version"])?.value == "x")
        #expect(JSONStringLines("}}]{").entries.isEmpty, "malformed input does not crash")
    }
}
