import Foundation
import RelctlModel
import RelctlProject
import RelctlTestSupport
import RelctlTestTraits
import Synchronization
import Testing

@testable import RelctlBasics
@testable import RelctlRelease

/// A signal one test stage gives and another waits for. Run one after the other, the waiter
/// would wait forever for a stage that starts only after it ends: it gives up after `timeout`
/// and fails, so a pipeline that does not overlap fails the test instead of hanging it.
final class StageGate: Sendable {
    private let isOpen = Atomic<Bool>(false)

    func open() { isOpen.store(true, ordering: .releasing) }

    func wait(timeout: Duration = .seconds(30)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !isOpen.load(ordering: .acquiring) {
            guard ContinuousClock.now < deadline else { throw TestFailure("the gate was never opened") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// A stage that runs alongside others and records one fact. In turn it may open a gate as it
/// starts (`announces`), wait for one, open one, and fail; what it records names the facts it
/// read, as it saw them.
struct GatedStage: ReleaseStage {
    var name: String
    var fact: ReleaseFact
    var reading: Set<ReleaseFact> = []
    var announces: StageGate?
    var waitsFor: StageGate?
    var timeout: Duration = .seconds(30)
    var opens: StageGate?
    var fails = false
    var warns: String?
    var alongside = true
    /// Lines it prints: one as it starts, one once it has waited.
    var says = false
    /// Why it is skipped, if it is.
    var skips: String?
    /// Stands for a run whose configuration has the stage run a user command (`[archive] stage`).
    var commands = false

    var produces: Set<ReleaseFact> { [fact] }
    var reads: Set<ReleaseFact> { reading }
    var runsAlongside: Bool { alongside }
    func runsCommands(_ run: ReleaseRun) -> Bool { commands }
    func skipReason(_ run: ReleaseRun, _ outputs: ReleaseOutputs) -> String? { skips }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        if says { run.context.console.info("line of \(name): starting") }
        announces?.open()
        try await waitsFor?.wait(timeout: timeout)
        if says { run.context.console.info("line of \(name): done") }
        opens?.open()
        if let warns { run.context.console.warning(warns) }
        if fails { throw TestFailure("\(name) broke") }
        // What it saw of the facts it reads, so a test can tell it ran after them.
        let seen = reading.sorted().map { "\($0.rawValue)=\(Self.value(of: $0, in: outputs) ?? "none")" }
        let value = ([name] + seen).joined(separator: " ")
        switch fact {
        case .installers: outputs.installers = [value]
        case .signatures: outputs.signatures = [value]
        case .provenance: outputs.provenance = value
        case .notes: outputs.notes = value
        default: throw TestFailure("GatedStage cannot produce \(fact.rawValue)")
        }
        return value
    }

    static func value(of fact: ReleaseFact, in outputs: ReleaseOutputs) -> String? {
        switch fact {
        case .installers: return outputs.installers?.joined()
        case .signatures: return outputs.signatures?.joined()
        case .provenance: return outputs.provenance
        case .notes: return outputs.notes
        default: return nil
        }
    }
}

/// A stage that would create the release, yet says it runs alongside others.
struct OverlappingTagStage: ReleaseStage {
    var name: String { "eager-tag" }
    var needsPassingPreflight: Bool { true }
    var runsAlongside: Bool { true }
    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? { nil }
}

/// The pipeline overlaps stages that run alongside others (issue 45): proven with gates that
/// deadlock a serial run, the records and outputs the same as the serial order's.
@Suite("ReleaseOverlap", .timeLimit(.minutes(30)), .removesTemporaries)
struct ReleaseOverlapTests {
    func config(_ repository: GitRepository) throws -> RelctlConfig {
        try repository.commit(
            "feat: x", files: ["relctl.toml": "[project]\nname = \"x\"\n[release]\n", "VERSION": "1.0.0\n"])
        return try ConfigLoader.load(path: nil, context: Context(workingDirectory: repository.url))
    }

    func run(
        _ stages: [any ReleaseStage], serial: Bool = false, dryRun: Bool = true, log: Log? = nil
    ) async throws -> (outcome: ReleaseOutcome, repository: GitRepository) {
        let repository = try GitRepository()
        let config = try config(repository)
        var context = Context(workingDirectory: repository.url)
        context.environment[ReleasePipeline.serialVariable] = serial ? "1" : nil
        if let log {
            context.environment["GITHUB_ACTIONS"] = nil
            context.console = Console(out: { _ in }, err: { text in log.text.withLock { $0 += text } })
        }
        var options = ReleaseOptions(tag: "v1.0.0")
        options.dryRun = dryRun
        let outcome = try await ReleasePipeline(stages: stages).run(options, config: config, context: context)
        return (outcome, repository)
    }

    /// The first stage waits for a signal only the second gives: one after the other, the first
    /// would give up waiting and fail the release.
    @Test func independentStagesOverlap() async throws {
        let gate = StageGate()
        let (outcome, _) = try await run([
            GatedStage(name: "waits", fact: .installers, waitsFor: gate),
            GatedStage(name: "signals", fact: .signatures, opens: gate),
        ])
        #expect(outcome.error == nil, "\(outcome.error?.message ?? "")")
        #expect(outcome.plan.stages.map(\.name) == ["preflight", "scratch", "waits", "signals"])
        #expect(outcome.plan.stages.map(\.status) == [.ok, .ok, .ok, .ok])
    }

    /// `reader` reads what `slow` produces: it starts only once `slow` has ended (and sees its
    /// fact), while `slow` itself overlaps `signals`, which comes before `reader`.
    static func readerStages(gated: Bool) -> [any ReleaseStage] {
        let gate = StageGate()
        return [
            GatedStage(name: "slow", fact: .installers, waitsFor: gated ? gate : nil),
            GatedStage(name: "signals", fact: .provenance, opens: gate),
            GatedStage(name: "reader", fact: .signatures, reading: [.installers, .provenance]),
            GatedStage(name: "notes", fact: .notes, reading: [.signatures]),
        ]
    }

    @Test func aStageReadingASiblingsFactWaitsForItAndTheRunIsTheSerialOnes() async throws {
        let (overlapped, _) = try await run(Self.readerStages(gated: true))
        #expect(overlapped.error == nil, "\(overlapped.error?.message ?? "")")
        let (serial, _) = try await run(Self.readerStages(gated: false), serial: true)
        #expect(serial.error == nil, "\(serial.error?.message ?? "")")
        let reader = "reader provenance=signals installers=slow"
        #expect(overlapped.plan.notes == "notes signatures=\(reader)")
        for outcome in [overlapped, serial] {
            #expect(outcome.plan.stages.map(\.name) == ["preflight", "scratch", "slow", "signals", "reader", "notes"])
            #expect(outcome.plan.stages.map(\.status) == [.ok, .ok, .ok, .ok, .ok, .ok])
        }
        #expect(overlapped.plan.stages.map(\.detail).dropFirst(2) == serial.plan.stages.map(\.detail).dropFirst(2))
        #expect(overlapped.plan.notes == serial.plan.notes)
    }

    /// `later` warns first (`earlier` waits for it to start), yet the run lists the warnings in
    /// stage order, as a serial run does.
    @Test func warningsAreRecordedInStageOrder() async throws {
        let started = StageGate()
        let (outcome, _) = try await run([
            GatedStage(name: "earlier", fact: .installers, waitsFor: started, warns: "from earlier"),
            GatedStage(name: "later", fact: .signatures, opens: started, warns: "from later"),
        ])
        #expect(outcome.error == nil, "\(outcome.error?.message ?? "")")
        #expect(outcome.plan.warnings.filter { $0.hasPrefix("from ") } == ["from earlier", "from later"])
    }

    /// `breaks` fails once `finishes` has started; `finishes` ends only after that, and still
    /// completes. The stage reading `breaks`'s fact never starts, and the tag made before is
    /// deleted; the error names `breaks`.
    @Test func aFailureLetsItsSiblingFinishThenUndoesTheCompletedStages() async throws {
        let started = StageGate(), failing = StageGate()
        let (outcome, repository) = try await run(
            [
                TagStage(),
                GatedStage(name: "breaks", fact: .installers, waitsFor: started, opens: failing, fails: true),
                GatedStage(name: "finishes", fact: .signatures, announces: started, waitsFor: failing),
                GatedStage(name: "after", fact: .notes, reading: [.installers]),
                PushStage(),
            ], dryRun: false)
        let error = try #require(outcome.error)
        #expect(error.exitCode == .failure)
        #expect(error.message.contains("stage `breaks` failed: breaks broke"), "\(error.message)")
        #expect(error.message.contains("deleted the local tag v1.0.0"), "\(error.message)")
        #expect(try repository.git("tag", "--list").isEmpty)
        #expect(
            outcome.plan.stages.map(\.name) == ["preflight", "lock", "tag", "breaks", "finishes", "after", "push"])
        #expect(outcome.plan.stages.map(\.status) == [.ok, .ok, .ok, .failed, .ok, .notRun, .notRun])
    }

    /// A stage that runs alone (a hook, the tag) waits for every stage before it and holds back
    /// every stage after: `alone` would deadlock waiting for `signals` were it run alongside.
    @Test func aStageThatRunsAloneOverlapsNothing() async throws {
        let gate = StageGate()
        let (outcome, _) = try await run([
            GatedStage(name: "alone", fact: .installers, opens: gate, alongside: false),
            GatedStage(name: "after", fact: .signatures, waitsFor: gate),
        ])
        #expect(outcome.error == nil, "\(outcome.error?.message ?? "")")
        let stopped = StageGate()
        let (blocked, _) = try await run([
            GatedStage(name: "alone", fact: .installers, waitsFor: stopped, timeout: .seconds(1), alongside: false),
            GatedStage(name: "would-open", fact: .signatures, opens: stopped),
        ])
        // `would-open` never starts while `alone` runs: `alone` gives up waiting.
        #expect(blocked.error?.message.contains("stage `alone` failed") == true)
        #expect(blocked.plan.stages.map(\.status).suffix(2) == [.failed, .notRun])
        // Nor beside a stage that would run alongside, were it not to run a user command this time.
        let commanded = StageGate()
        let (withCommand, _) = try await run([
            GatedStage(name: "commands", fact: .installers, waitsFor: commanded, timeout: .seconds(1), commands: true),
            GatedStage(name: "would-open", fact: .signatures, opens: commanded),
        ])
        #expect(withCommand.error?.message.contains("stage `commands` failed") == true)
        #expect(withCommand.plan.stages.map(\.status).suffix(2) == [.failed, .notRun])
    }

    /// What a release printed on stderr (a plain log).
    final class Log: Sendable {
        let text = Mutex("")
        var lines: [String] { text.withLock { $0 }.split(separator: "\n").map(String.init) }
    }

    /// Issue 57: `first` prints a line, then waits for `second`, which prints its lines and ends
    /// meanwhile; each stage's lines still sit under its own `==>` header, in stage order.
    @Test func overlappingStagesPrintUnderTheirOwnHeaders() async throws {
        let gate = StageGate()
        let log = Log()
        let (outcome, _) = try await run(
            [
                GatedStage(name: "first", fact: .installers, waitsFor: gate, says: true),
                GatedStage(name: "second", fact: .signatures, opens: gate, says: true),
            ], log: log)
        #expect(outcome.error == nil, "\(outcome.error?.message ?? "")")
        var header: String?
        var seen: [String] = []
        for line in log.lines {
            if line.hasPrefix("==> ") {
                header = line.split(separator: " ").last.map(String.init)
                seen.append(header ?? "")
            } else if line.hasPrefix("line of ") || line.hasPrefix("    first:") || line.hasPrefix("    second:") {
                let stage = line.dropFirst(line.hasPrefix("line of ") ? 8 : 4).prefix { $0 != ":" }
                #expect(String(stage) == header, "\(line) printed under \(header ?? "no header"):\n\(log.lines)")
            }
        }
        #expect(seen == ["preflight", "scratch", "first", "second"], "\(log.lines)")
        #expect(log.lines.filter { $0.hasPrefix("line of ") }.count == 4, "\(log.lines)")
    }

    /// Issue 57: the step counter counts every stage, run or skipped, without gaps: a skipped
    /// stage's line carries its number.
    @Test func theStepCounterHasNoGaps() async throws {
        let log = Log()
        let (outcome, _) = try await run(
            [
                GatedStage(name: "runs", fact: .installers),
                GatedStage(name: "skipped", fact: .signatures, skips: "nothing to sign"),
                GatedStage(name: "also-runs", fact: .provenance),
            ], log: log)
        #expect(outcome.error == nil, "\(outcome.error?.message ?? "")")
        let numbers = log.lines.compactMap { line -> String? in
            guard line.hasPrefix("==> [") || line.hasPrefix("--  [") else { return nil }
            return String(line.dropFirst(5).prefix { $0 != "]" })
        }
        #expect(numbers == ["1/5", "2/5", "3/5", "4/5", "5/5"], "\(log.lines)")
        #expect(log.lines.contains("--  [4/5] skipped: skipped — nothing to sign"), "\(log.lines)")
    }

    @Test func theContractRefusesReadsOfLaterStagesAndOverlappingReleaseStages() {
        let problems = ReleasePipeline.contractProblems([
            GatedStage(name: "early", fact: .notes, reading: [.installers]),
            GatedStage(name: "late", fact: .installers),
            OverlappingTagStage(),
        ])
        #expect(
            problems == [
                "`early` reads installers, which only the later stage `late` produces",
                "`eager-tag` creates or seals the release, so it cannot run alongside other stages",
            ])
        // The release's own stages: whatever writes git or runs user commands runs alone.
        let alongside = ReleasePipeline.standardStages.filter(\.runsAlongside).map(\.name)
        #expect(
            alongside == [
                "package", "image", "linux-package", "repository", "npm", "msi", "python-wheel", "installer",
                "checksum", "sign", "provenance", "notes",
            ])
    }
}
