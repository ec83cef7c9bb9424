import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Synchronization
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject
@testable import RelctlRelease

@Suite("BuildRunner from core", .timeLimit(.minutes(30)), .removesTemporaries)
struct BuildRunnerTests {
    @Test func reportsEveryTargetThroughTheGivenConsole() async throws {
        let directory = try TemporaryDirectory()
        try MatrixFixtures.project(
            in: directory, targets: ["x86_64-unknown-linux-gnu", "x86_64-pc-windows-msvc"],
            build: """
                [build]
                command = "mkdir -p bin/{target} && echo made {os} && touch bin/{target}/tool"
                binaries = ["tool"]
                binary-dir = "bin/{target}"
                """)
        let captured = Mutex<String>("")
        let console = Console(verbosity: .verbose, out: { _ in }, err: { text in captured.withLock { $0 += text } })
        let context = Context(
            workingDirectory: directory.url, environment: ProcessInfo.processInfo.environment, console: console)
        let config = try ConfigLoader.load(path: nil, context: context)
        let targets = try TargetResolver.resolveAll(config)
        let identity = try await ReleaseIdentity.resolve(tag: "v3.0.0", config: config, context: context, .build)
        let report = await BuildRunner(context: context).run(
            targets: targets, config: config, inputs: identity.buildInputs, jobs: 2)

        #expect(report.tag == "v3.0.0" && report.version == "3.0.0")
        #expect(report.results.map(\.target) == ["x86_64-unknown-linux-gnu", "x86_64-pc-windows-msvc"])
        // The Windows target wants tool.exe, which this command never makes.
        #expect(report.results.map(\.outcome) == [.succeeded, .missingBinaries])
        #expect(report.results[1].missing == ["bin/x86_64-pc-windows-msvc/tool.exe"])
        #expect(report.failure?.exitCode == .failure)
        let text = captured.withLock { $0 }
        // -v streams even parallel builds, prefixed with the triple.
        #expect(text.contains("[x86_64-pc-windows-msvc] made windows"))
        #expect(text.contains("[x86_64-unknown-linux-gnu] ok"))
    }
}
