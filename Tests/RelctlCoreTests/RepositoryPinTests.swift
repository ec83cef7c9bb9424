import Foundation
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject
@testable import RelctlRelease

@Suite("[[repo.pin]]", .timeLimit(.minutes(30)), .removesTemporaries)
struct RepositoryPinTests {
    let pin = RepositoryPin(path: "ci.yml", pattern: #"FFI_VERSION: "(?<version>[^"]+)""#, value: "{tag}")

    @Test func replacesOnlyTheVersionGroup() throws {
        let text = "env:\n  FFI_VERSION: \"v0.1.0\"  # keep\nother: 1\n"
        let result = try pin.apply(to: text, newValue: pin.resolvedValue(tag: "v0.2.0", version: "0.2.0"))
        #expect(result.text == "env:\n  FFI_VERSION: \"v0.2.0\"  # keep\nother: 1\n")
        #expect(result.old == "v0.1.0" && result.line == 2)
        #expect(
            RepositoryPin(path: "x", pattern: "x", value: "ffi-{version}").resolvedValue(
                tag: "v1.0.0", version: "1.0.0") == "ffi-1.0.0")
    }

    @Test func noMatchOrTwoMatchesAreRefused() {
        #expect(throws: RepositoryPin.PinError.self) { try pin.apply(to: "nothing here\n", newValue: "v1") }
        do {
            _ = try pin.apply(to: "FFI_VERSION: \"a\"\n\nFFI_VERSION: \"b\"\n", newValue: "v1")
            Issue.record("two matches must be refused")
        } catch {
            guard case .manyMatches(let lines) = error else { Issue.record("\(error)"); return }
            #expect(lines == [1, 3])
        }
    }

    @Test func patternAndValueAreChecked() {
        #expect(RepositoryPin.patternProblem(#"FFI_VERSION: "([^"]+)""#)?.contains("named group `version`") == true)
        #expect(RepositoryPin.patternProblem("(?<version>[") != nil)
        #expect(RepositoryPin.patternProblem(#"X=(?<version>\S+)"#) == nil)
        #expect(
            RepositoryPin.valueProblem("{tga}")?.contains("did you mean `{tag}`") == true
                || RepositoryPin.valueProblem("{tga}")?.contains("unknown placeholder") == true)
        #expect(RepositoryPin.valueProblem("{version}") == nil)
    }

    @Test func workspaceReadsPinsAndReportsBadOnes() throws {
        let base = URL(fileURLWithPath: "/tmp")
        let good = try TOMLDocument(
            text: """
                [[repo]]
                name = "py"
                path = "py"
                [[repo.pin]]
                path = ".github/workflows/ci.yml"
                pattern = 'FFI_VERSION: "(?<version>[^"]+)"'
                value = "{tag}"
                """, path: "ws.toml")
        let workspace = try Workspace.parse(good, base: base)
        #expect(
            workspace.repositories.first?.pins == [
                RepositoryPin(
                    path: ".github/workflows/ci.yml", pattern: #"FFI_VERSION: "(?<version>[^"]+)""#, value: "{tag}")
            ])

        let bad = try TOMLDocument(
            text: """
                [[repo]]
                name = "py"
                path = "py"
                [[repo.pin]]
                path = "../other/ci.yml"
                pattern = 'x'
                value = "{tag}"
                [[repo.pin]]
                path = "ci.yml"
                pattern = 'FFI: (\\S+)'
                value = "{tag}"
                """, path: "ws.toml")
        do {
            _ = try Workspace.parse(bad, base: base)
            Issue.record("bad pins must be refused")
        } catch let error as ProblemList {
            #expect(error.exitCode == .badInput)
            let text = error.diagnostics.map(\.description).joined(separator: "\n")
            #expect(text.contains("must stay inside the repository"))
            #expect(text.contains("named group `version`"))
        }
    }
}

/// A pin pattern runs under the regex manifests' time bound (issue 26, item 14).
@Suite("[[repo.pin]] runaway patterns", .timeLimit(.minutes(30)), .removesTemporaries)
struct RepositoryPinRunawayTests {
    @Test func aPatternThatBacktracksWithoutEndIsStoppedAndNamed() throws {
        let runaway = RepositoryPin(path: "ci.yml", pattern: "(?<version>(x+x+)+y)", value: "{tag}")
        do {
            _ = try runaway.apply(to: String(repeating: "x", count: 64) + "\n", newValue: "v1")
            Issue.record("a runaway pattern must be stopped")
        } catch {
            guard case .timedOut = error else {
                Issue.record("expected timedOut, got \(error)")
                return
            }
        }
    }
}
