import Foundation
import RelctlModel
import RelctlProject
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

@Suite("Workspace", .timeLimit(.minutes(30)), .removesTemporaries)
struct WorkspaceTests {
    func parse(_ text: String) throws -> Workspace {
        try Workspace.parse(
            try TOMLDocument(text: text, path: "relctl-workspace.toml"), base: URL(fileURLWithPath: "/w"))
    }

    @Test func wavesKeepFileOrderWithinAWave() throws {
        let workspace = try parse(
            """
            [[repo]]
            name = "server"
            path = "server"
            after = ["py", "core"]
            [[repo]]
            name = "py"
            path = "sdk/py"
            after = ["core"]
            [[repo]]
            name = "core"
            path = "core"
            [[repo]]
            name = "ts"
            path = "/abs/ts"
            after = ["core"]
            """)
        #expect(workspace.waves().map { $0.map(\.name) } == [["core"], ["py", "ts"], ["server"]])
        #expect(workspace.repositories[1].directory.path == "/w/sdk/py")
        #expect(workspace.repositories[3].directory.path == "/abs/ts")
    }

    @Test func problemsAreBadInputNamingTheRepository() throws {
        let cycle = #expect(throws: WorkspaceError.self) {
            try parse(
                "[[repo]]\nname = \"a\"\npath = \"a\"\nafter = [\"b\"]\n[[repo]]\nname = \"b\"\npath = \"b\"\nafter = [\"a\"]\n"
            )
        }
        #expect(cycle?.exitCode == .badInput)
        #expect(cycle?.message.contains("a → b → a") == true)

        let several = #expect(throws: ProblemList.self) {
            try parse(
                "[[repo]]\nname = \"a\"\npath = \"a\"\nnmae = 1\n[[repo]]\nname = \"a\"\npath = \"b\"\n[[repo]]\nname = \"c\"\n"
            )
        }
        #expect(several?.exitCode == .badInput)
        let text = several?.message ?? ""
        #expect(text.contains("unknown key `nmae`"))
        #expect(text.contains("`a` is used twice"))
        #expect(text.contains("`c` needs `path`"))
        #expect(throws: ProblemList.self) { try parse("") }
    }
}

@Suite("ReleaseLock", .timeLimit(.minutes(30)), .removesTemporaries)
struct ReleaseLockTests {
    @Test func aSecondHolderIsRefusedAndAStaleLockIsTakenOver() throws {
        try withTemporaryDirectory { directory in
            let url = directory.url.appendingPathComponent("relctl-release.lock")
            let first = try ReleaseLock.acquire(
                at: url, tag: "v1.0.0", clock: SystemClock(), onStale: { _ in Issue.record("not stale") })
            let refused = #expect(throws: ReleaseError.self) {
                _ = try ReleaseLock.acquire(at: url, tag: "v1.0.1", clock: SystemClock(), onStale: { _ in })
            }
            #expect(refused?.message.contains("relctl release v1.0.0 (pid \(getpid())") == true)
            first.release()
            #expect(!FileManager.default.fileExists(atPath: url.path))

            let dead = ReleaseLock.Holder(
                pid: Int32.max - 1, host: ProcessInfo.processInfo.hostName, tag: "v0.1.0", started: "then")
            try JSONOutput.encode(dead).write(to: url, atomically: true, encoding: .utf8)
            var takenFrom: ReleaseLock.Holder?
            let second = try ReleaseLock.acquire(
                at: url, tag: "v1.0.0", clock: SystemClock(), onStale: { takenFrom = $0 })
            #expect(takenFrom == dead)
            #expect(ReleaseLock.currentHolder(at: url)?.pid == getpid())
            second.release()

            // Another host's lock is never judged stale from here.
            let remote = ReleaseLock.Holder(pid: Int32.max - 1, host: "build-box-7", tag: "v0.1.0", started: "then")
            try JSONOutput.encode(remote).write(to: url, atomically: true, encoding: .utf8)
            #expect(throws: ReleaseError.self) {
                _ = try ReleaseLock.acquire(at: url, tag: "v1.0.0", clock: SystemClock(), onStale: { _ in })
            }
        }
    }
}

extension ReleaseLockTests {
    /// A process that lives longer than the 120 s a release waits for a child left running, until `end`.
    static func liveProcess() throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["600"]
        try process.run()
        return process
    }

    static func end(_ process: Process) {
        kill(process.processIdentifier, SIGKILL)
        try? process.waitForExit()
    }

    /// A killed holder's pid given to another process before the next release looks (a busy CI
    /// machine): the lock is still stale, because the process holding that pid started later.
    @Test func aHolderWhosePidWasReusedIsStale() throws {
        try withTemporaryDirectory { directory in
            let url = directory.url.appendingPathComponent(ReleaseLock.fileName)
            let other = try Self.liveProcess()
            defer { Self.end(other) }
            let live = try #require(ProcessStart.token(of: other.processIdentifier))
            #expect(ProcessStart.token(of: other.processIdentifier) == live)
            #expect(ProcessStart.token(of: getpid()) != live)

            func holder(_ process: String?) -> ReleaseLock.Holder {
                var holder = ReleaseLock.Holder(
                    pid: other.processIdentifier, host: ProcessInfo.processInfo.hostName, tag: "v0.1.0",
                    started: "then")
                holder.process = process
                return holder
            }
            // The same process: held. A lock from before the start was recorded: liveness alone.
            for held in [holder(live), holder(nil)] {
                try JSONOutput.encode(held).write(to: url, atomically: true, encoding: .utf8)
                #expect(!held.isStale)
                #expect(throws: ReleaseError.self) {
                    _ = try ReleaseLock.acquire(at: url, tag: "v1.0.0", clock: SystemClock(), onStale: { _ in })
                }
            }
            // The killed holder started at another moment: the live process is not it.
            let reused = holder(live.split(separator: ":").first.map { "\($0):1" })
            #expect(reused.isStale)
            try JSONOutput.encode(reused).write(to: url, atomically: true, encoding: .utf8)
            var takenFrom: ReleaseLock.Holder?
            let lock = try ReleaseLock.acquire(
                at: url, tag: "v1.0.0", clock: SystemClock(), onStale: { takenFrom = $0 })
            #expect(takenFrom == reused)
            // What this release records names its own process, so the next one can tell the same.
            #expect(ReleaseLock.currentHolder(at: url)?.process == ProcessStart.token(of: getpid()))
            lock.release()
        }
    }
}

extension ReleaseLockTests {
    /// A killed release's `git push` group id given to a later process group (a session leader of
    /// another program): the next release does not wait 120 s for it and refuse, because the
    /// group's leader started at another moment than the child the lock recorded.
    @Test func aChildGroupLedByALaterProcessIsNotWaitedFor() async throws {
        try await withTemporaryDirectory { directory in
            // Foundation starts a child as the leader of a process group of its own.
            let other = try Self.liveProcess()
            defer { Self.end(other) }
            let group = other.processIdentifier
            try #require(ChildProcesses.isGroupAlive(group), "sleep leads a process group of its own")
            let start = try #require(ProcessStart.token(of: group))

            var dead = ReleaseLock.Holder(
                pid: Int32.max - 1, host: ProcessInfo.processInfo.hostName, tag: "v1.0.0", started: "then")
            dead.children = [group]
            dead.childStarts = [String(group): String(start.prefix { $0 != ":" }) + ":1"]
            let running = await ReleaseRecovery.waitForChildren(
                of: dead, in: directory.url, context: Context(workingDirectory: directory.url))
            #expect(running == nil)
        }
    }
}

/// A stage that always fails, to exercise the pipeline's undo.
struct ExplodingStage: ReleaseStage {
    var name: String { "explode" }
    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        throw TestFailure("boom")
    }
}

/// A stage that claims to need what nobody before it produces.
struct NeedyStage: ReleaseStage {
    var name: String { "needy" }
    var needs: Set<ReleaseFact> { [.archives] }
    var produces: Set<ReleaseFact> { [.tag] }
    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? { nil }
}

@Suite("ReleasePipeline", .timeLimit(.minutes(30)), .removesTemporaries)
struct ReleasePipelineTests {
    func config(_ repository: GitRepository, release: String = "") throws -> RelctlConfig {
        try repository.commit(
            "feat: x", files: ["relctl.toml": "[project]\nname = \"x\"\n[release]\n\(release)\n", "VERSION": "1.0.0\n"])
        return try ConfigLoader.load(path: nil, context: Context(workingDirectory: repository.url))
    }

    @Test func preflightCollectsEveryProblem() async throws {
        let repository = try GitRepository()
        let config = try config(repository, release: "branches = [\"release/*\"]")
        try repository.git("tag", "v1.0.0")
        try repository.directory.write("dirty.txt", "x")
        var options = ReleaseOptions(tag: "v1.0.0")
        options.push = true
        let report = await ReleasePreflight.check(
            options, config: config, context: Context(workingDirectory: repository.url))
        #expect(report.diagnostics.exitCode == .failure)
        let text = report.problems.map(\.message).joined(separator: "\n")
        #expect(report.problems.count == 4, "\(text)")
        #expect(text.contains("?? dirty.txt"))
        #expect(text.contains("`release/*`"))
        #expect(text.contains("already exists locally"))
        #expect(text.contains("--push needs the remote `origin`"))

        var bad = ReleaseOptions(tag: "1.0.0")
        bad.dryRun = true
        try repository.directory.write("dirty.txt", "x")
        #expect(
            await ReleasePreflight.check(bad, config: config, context: Context(workingDirectory: repository.url))
                .diagnostics.exitCode
                == .badInput)
    }

    @Test func theStandardStagesKeepTheirContract() {
        #expect(ReleasePipeline.contractProblems(ReleasePipeline.standardStages).isEmpty)
        let names = ReleasePipeline.standardStages.map(\.name)
        #expect(
            names == [
                "before-hooks", "build", "package", "image", "linux-package", "repository", "npm", "msi", "python-wheel",
                "installer",
                "checksum", "channels",
                "sign", "provenance", "notes", "tag", "push", "dist", "image-push", "after-hooks", "publish",
                "channel-publish", "repository-publish", "npm-publish", "pypi-publish",
            ])
        #expect(ReleasePipeline.standardStages.filter(\.sealsRelease).map(\.name) == ["dist"])
    }

    @Test func aStageListThatBreaksTheContractIsNamed() {
        let problems = ReleasePipeline.contractProblems([NeedyStage(), TagStage()])
        #expect(problems == ["`needy` needs archives, which no earlier stage produces", "`tag` produces tag again"])
    }

    @Test func aFailedStageUndoesTheTagAndReportsIt() async throws {
        let repository = try GitRepository()
        let config = try config(repository)
        let pipeline = ReleasePipeline(stages: [TagStage(), ExplodingStage(), PushStage()])
        let outcome = try await pipeline.run(
            ReleaseOptions(tag: "v1.0.0"), config: config, context: Context(workingDirectory: repository.url))
        let error = try #require(outcome.error)
        #expect(error.exitCode == .failure)
        #expect(error.message.contains("stage `explode` failed: boom"))
        #expect(error.message.contains("deleted the local tag v1.0.0"))
        #expect(try repository.git("tag", "--list").isEmpty)
        #expect(outcome.plan.stages.map(\.status) == [.ok, .ok, .ok, .failed, .notRun])
        #expect(!FileManager.default.fileExists(atPath: repository.url.appendingPathComponent("dist").path))
    }
}
