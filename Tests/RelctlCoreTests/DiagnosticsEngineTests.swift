import Foundation
import RelctlProject
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject

@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct DiagnosticsEngineTests {
    @Test func errorsAndWarningsAreKeptApartInOrderAndTheWorstExitCodeWins() throws {
        let engine = DiagnosticsEngine()
        #expect(engine.problems() == nil)
        #expect(engine.exitCode == .success)
        engine.warning(file: "relctl.toml", "first warning")
        #expect(!engine.hasErrors, "a warning does not stop a check")
        #expect(engine.exitCode == .success)
        engine.error(.failure, file: "a.toml", line: 3, "a failure")
        engine.error(.badInput, "bad input")
        engine.error(.failure, "another failure")
        #expect(engine.errors.map(\.message) == ["a failure", "bad input", "another failure"])
        #expect(engine.warnings.map(\.description) == ["relctl.toml: first warning"])
        #expect(engine.exitCode == .badInput)
        let thrown = try #require(engine.problems())
        #expect(thrown.exitCode == .badInput)
        #expect(thrown.diagnostics.map(\.description) == ["a.toml:3: a failure", "bad input", "another failure"])
        #expect(throws: ProblemList.self) { try engine.throwIfErrors() }
    }

    @Test func aRelctlErrorKeepsItsOwnExitCode() {
        let engine = DiagnosticsEngine()
        engine.error(ProblemList(exitCode: .badInput, diagnostics: [Diagnostic(file: "x", "one"), Diagnostic("two")]))
        #expect(engine.errors.count == 2)
        #expect(engine.exitCode == .badInput)
    }

    /// `relctl check` and a release's preflight report through the engine: the JSON view and the
    /// thrown error come from the same findings.
    @Test func checkReportIsAViewOfItsEngine() throws {
        var report = CheckReport()
        report.manifests = 1
        report.problem(Diagnostic(file: "relctl.toml", line: 2, "broken", severity: .warning))
        report.warning(Diagnostic("just so you know"))
        #expect(!report.ok)
        #expect(report.problems == [CheckReport.Item(file: "relctl.toml", line: 2, message: "broken")])
        #expect(report.warnings.map(\.message) == ["just so you know"])
        let error = try #require(report.error)
        #expect(error.exitCode == .badInput, "everything check finds is bad input")
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any]
        #expect(json?["ok"] as? Bool == false)
        #expect((json?["problems"] as? [[String: Any]])?.first?["message"] as? String == "broken")
    }
}
