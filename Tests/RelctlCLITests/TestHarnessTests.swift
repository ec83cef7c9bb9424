import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Synchronization
import Testing

/// Tests of the test suite itself (issue 47): the holes an audit found are shown closed by running
/// the real tests against a deliberately broken relctl or tool and seeing them fail, a test that
/// cannot run is shown to fail under CI=true (and the CI gate to refuse a run that skipped one),
/// and a missing tool or a hung child is shown to end its test. The runs of real tests go through
/// this very test binary, filtered to the one test, with its events written to a file.
@Suite("The test harness", .serialized, .timeLimit(.minutes(45)), .removesTemporaries)
struct TestHarnessTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// What a run of this test binary, filtered to some tests, did.
    struct ChildRun: CustomStringConvertible {
        var result: RunResult
        var eventsFile: URL
        /// The event stream's records (Swift Testing's ABI, version 0).
        var records: [[String: Any]]

        /// The kinds of the events about tests whose id contains `test`, in order.
        func eventKinds(of test: String) -> [String] {
            records.compactMap { record in
                guard record["kind"] as? String == "event", let payload = record["payload"] as? [String: Any],
                    (payload["testID"] as? String)?.contains(test) == true
                else { return nil }
                return payload["kind"] as? String
            }
        }

        /// The messages of the issues recorded for `test`.
        func issues(of test: String) -> [String] {
            records.compactMap { record in
                guard let payload = record["payload"] as? [String: Any], payload["kind"] as? String == "issueRecorded",
                    (payload["testID"] as? String)?.contains(test) == true
                else { return nil }
                return ((payload["messages"] as? [[String: Any]]) ?? []).compactMap { $0["text"] as? String }
                    .joined(separator: " ")
            }
        }

        var description: String { "\(result)" }
    }

    /// Runs the tests matching `filter` in a new process of this test binary.
    static func runTests(_ filter: String, environment: [String: String]) throws -> ChildRun {
        let folder = try TemporaryDirectory(prefix: "relctl-harness")
        let events = folder.url.appendingPathComponent("events.jsonl")
        let binary = CommandLine.arguments[0]
        try #require(binary.hasSuffix(".xctest"), "the tests run from their test binary: \(binary)")
        let result = try run(
            binary,
            [
                "--testing-library", "swift-testing", "--filter", filter, "--event-stream-output-path", events.path,
                "--event-stream-version", "0",
            ], environment: environment)
        let text = (try? String(contentsOf: events, encoding: .utf8)) ?? ""
        let records = text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        return ChildRun(result: result, eventsFile: events, records: records)
    }

    // MARK: - The two holes the audit showed

    /// A relctl without `bump --set` (as before issue 12): the test of `train run --set-version`
    /// used to ask the binary under test and skip, so "Test run passed". It now runs and fails.
    @Test func aRelctlWithoutBumpSetFailsTheSetVersionTest() throws {
        let bin = try TemporaryDirectory(prefix: "relctl-old-bin")
        let wrapper = try bin.write(
            "relctl",
            """
            #!/bin/sh
            # relctl as it was before `bump --set` and `train run --set-version` (issue 12).
            for argument in "$@"; do
                case "$argument" in
                --set|--set=*|--set-version) echo "Error: Unknown option '$argument'" >&2; exit 64 ;;
                esac
            done
            if [ "$1" = bump ] && [ "$2" = --help ]; then
                '\(relctlBinary.path)' "$@" | grep -v -e '--set'
                exit 0
            fi
            exec '\(relctlBinary.path)' "$@"
            """, executable: true)
        // The wrapper is the broken relctl it claims to be.
        let help = try run(wrapper.path, ["bump", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--write") && !help.stdout.contains("--set"), "\(help)")
        #expect(try run(wrapper.path, ["bump", "--set", "1.0.0"]).status == 64)

        let test = "setVersionCommitsTheManifestsWithThePins"
        let child = try Self.runTests("TrainPinCLITests/\(test)", environment: ["RELCTL_BIN": wrapper.path, "CI": ""])
        let kinds = child.eventKinds(of: test)
        #expect(kinds.contains("testStarted") && kinds.contains("issueRecorded"), "\(kinds)\n\(child)")
        #expect(!kinds.contains("testSkipped") && !kinds.contains("testCancelled"), "\(kinds)")
        #expect(child.result.status != 0, "the run of the test fails: \(child)")
    }

    /// A lintian that exits 2 (it could not judge the package) used to let the .deb test pass:
    /// its exit status was never read. The deb test now fails with it on PATH.
    @Test func aLintianThatExitsTwoFailsTheDebTest() throws {
        let bin = try TemporaryDirectory(prefix: "relctl-broken-lintian")
        try bin.write("lintian", "#!/bin/sh\necho 'lintian: cannot read the package' >&2\nexit 2\n", executable: true)
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")

        let test = "debIsReadByDpkgInstallsRunsAndPassesLintian"
        let child = try Self.runTests("LinuxPackageCLITests/\(test)", environment: ["PATH": path, "CI": ""])
        let kinds = child.eventKinds(of: test)
        #expect(kinds.contains("testStarted") && kinds.contains("issueRecorded"), "\(kinds)\n\(child)")
        #expect(
            child.issues(of: test).contains { $0.contains("lintian did not judge") }, "\(child.issues(of: test))")
        #expect(child.result.status != 0, "the run of the test fails: \(child)")
    }

    /// The check itself, against each way a lintian can fail to judge: it throws, so no
    /// assertion about the package can pass on it.
    @Test(arguments: [
        ("exit 2 with a message", "echo 'lintian: cannot read the package' >&2; exit 2"),
        ("exit 2 without an E: line", "echo 'W: hello: a-warning'; exit 2"),
        ("exit 1, a run-time error", "echo 'E: hello: some-error'; echo 'internal error' >&2; exit 1"),
        ("exit 1 silently", "exit 1"),
        ("exit 0 with stderr", "echo 'warning: profile missing' >&2; exit 0"),
        ("exit 0 with an E: line", "echo 'E: hello: some-error'; exit 0"),
    ])
    func lintiansThatDidNotJudgeAreRefused(what: String, script: String) throws {
        let bin = try TemporaryDirectory(prefix: "relctl-broken-lintian")
        try bin.write("lintian", "#!/bin/sh\n\(script)\n", executable: true)
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let package = try bin.write("hello.deb", "not read\n")
        #expect(throws: TestFailure.self, "\(what)") { try LintianVerdict.of(package, environment: ["PATH": path]) }
        // And one that judged: exit 2 with its E: lines is a verdict, read as such.
        try bin.write("lintian", "#!/bin/sh\necho 'E: hello: some-error detail'\nexit 2\n", executable: true)
        #expect(try LintianVerdict.of(package, environment: ["PATH": path]).errorTags == ["some-error"])
    }

    // MARK: - Other holes the audit named, shown closed the same way

    /// A relctl whose hasher is wrong everywhere it records a digest (SHA256SUMS and the release
    /// manifest the channels read): the channel tests compared the formula's and the Scoop
    /// manifest's digests with SHA256SUMS, so they agreed and passed. They now ask `sha256sum`.
    @Test func aRelctlWithAWrongHasherFailsTheChannelTests() throws {
        let bin = try TemporaryDirectory(prefix: "relctl-bad-hasher")
        let wrapper = try bin.write(
            "relctl",
            #"""
            #!/bin/sh
            # After `checksum`, every digest relctl recorded has its last hex digit changed.
            if [ "$1" = checksum ]; then
                '\#(relctlBinary.path)' "$@" || exit $?
                exec python3 - <<'PY'
            import re
            def flip(h): return h[:63] + ("1" if h[63] == "0" else "0")
            lines = open("dist/SHA256SUMS").read().splitlines()
            open("dist/SHA256SUMS", "w").write("".join(flip(l[:64]) + l[64:] + "\n" for l in lines))
            text = open("dist/manifest.json").read()
            text = re.sub(r'("sha256"\s*:\s*")([0-9a-f]{64})"', lambda m: m.group(1) + flip(m.group(2)) + '"', text)
            open("dist/manifest.json", "w").write(text)
            PY
            fi
            exec '\#(relctlBinary.path)' "$@"
            """#, executable: true)
        let child = try Self.runTests(
            "ChannelsCLITests/(homebrewFormulaLoadsUnderTheDSLStubWithTheReleaseDigests|scoopManifestValidatesAgainstScoopsSchema)",
            environment: ["RELCTL_BIN": wrapper.path, "CI": ""])
        for test in [
            "homebrewFormulaLoadsUnderTheDSLStubWithTheReleaseDigests", "scoopManifestValidatesAgainstScoopsSchema",
        ] {
            #expect(
                child.issues(of: test).contains { $0.contains("sha256sum") },
                "\(test): \(child.issues(of: test))\n\(child)")
        }
        #expect(child.result.status != 0, "\(child)")
    }

    /// A relctl that reads a whole 1 GiB manifest before refusing it took 1.8 s, well inside the
    /// 30 s the test used to allow. The test now counts the bytes read.
    @Test func aRelctlThatReadsAWholeOversizedFileFailsTheHostileInputTest() throws {
        let bin = try TemporaryDirectory(prefix: "relctl-reads-all")
        let wrapper = try bin.write(
            "relctl", "#!/bin/sh\n[ -f VERSION ] && cat VERSION > /dev/null\nexec '\(relctlBinary.path)' \"$@\"\n",
            executable: true)
        let test = "anOversizedManifestIsRefusedQuicklyWithoutEchoingIt"
        let child = try Self.runTests(
            "HostileFilesCLITests/\(test)", environment: ["RELCTL_BIN": wrapper.path, "CI": ""])
        #expect(
            child.issues(of: test).contains { $0.contains("bytesRead") }, "\(child.issues(of: test))\n\(child)")
        #expect(child.result.status != 0, "\(child)")
    }

    // MARK: - Tests that cannot run

    /// A test that needs what the machine lacks is cancelled with its reason, never passed; under
    /// CI=true it fails; and the CI gate (`make test` with CI=true) refuses a run that cancelled one.
    @Test func aTestThatCannotRunFailsUnderCIAndTheGateRefusesTheRun() throws {
        let test = "repositoryOwnedByAnotherUserNamesSafeDirectory"
        let filter = "FoundationCLITests/\(test)"

        let here = try Self.runTests(filter, environment: ["RELCTL_TEST_UNMET": "root", "CI": ""])
        let kinds = here.eventKinds(of: test)
        #expect(kinds.contains("testCancelled") && !kinds.contains("issueRecorded"), "\(kinds)\n\(here)")
        #expect(here.result.status == 0, "\(here)")
        // The gate lists it everywhere, and fails the run under CI=true.
        let gate = Self.root.appendingPathComponent("Tests/skipped-tests.py").path
        let listed = try run("python3", [gate, here.eventsFile.path], environment: ["CI": ""])
        #expect(listed.status == 0 && listed.stderr.contains(test) && listed.stderr.contains("needs root"), "\(listed)")
        let refused = try run("python3", [gate, here.eventsFile.path], environment: ["CI": "true"])
        #expect(refused.status == 1 && refused.stderr.contains(test), "\(refused)")

        let inCI = try Self.runTests(filter, environment: ["RELCTL_TEST_UNMET": "root", "CI": "true"])
        #expect(inCI.result.status != 0, "\(inCI)")
        #expect(!inCI.eventKinds(of: test).contains("testCancelled"), "\(inCI.eventKinds(of: test))")
        #expect(
            inCI.issues(of: test).contains { $0.contains("needs root (uid 0)") && $0.contains("CI=true") },
            "\(inCI.issues(of: test))")
        // That run cancelled nothing: its failure is the run's own, the gate has nothing to add.
        let gateOnPass = try run("python3", [gate, inCI.eventsFile.path], environment: ["CI": "true"])
        #expect(gateOnPass.status == 0, "a failed test is the run's failure, not the gate's: \(gateOnPass)")
    }

    /// The gate reads Swift Testing's own skip events too (from its condition traits, which
    /// SuiteRulesTests keeps out of the sources), and refuses under CI a run it cannot see whole.
    @Test func theGateRefusesSkippedTestsAndIncompleteRuns() throws {
        let folder = try TemporaryDirectory(prefix: "relctl-gate")
        let gate = Self.root.appendingPathComponent("Tests/skipped-tests.py").path
        func event(_ kind: String, _ test: String? = nil, _ text: String = "") -> String {
            let id = test.map { #","testID":"\#($0)""# } ?? ""
            return
                #"{"kind":"event","payload":{"kind":"\#(kind)"\#(id),"messages":[{"symbol":"default","text":"\#(text)"}]},"version":0}"#
        }
        let start = event("runStarted"), end = event("runEnded")
        let skipped = [start, event("testSkipped", "M.S/t()/S.swift:3:6", "Test t() skipped: \\\"no go\\\""), end]
        let cases: [(String, [String], Int32, Int32)] = [
            ("clean", [start, event("testStarted", "M.S/u()"), event("testEnded", "M.S/u()"), end], 0, 0),
            ("skipped", skipped, 0, 1),
            ("no end", [start, event("testStarted", "M.S/u()")], 0, 1),
            ("empty", [], 0, 1),
        ]
        for (name, lines, local, ci) in cases {
            let file = try folder.write("\(name).jsonl", lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n"))
            let here = try run("python3", [gate, file.path], environment: ["CI": ""])
            let inCI = try run("python3", [gate, file.path], environment: ["CI": "true"])
            #expect(here.status == local && inCI.status == ci, "\(name): \(here)\n\(inCI)")
        }
        let inCI = try run(
            "python3", [gate, folder.url.appendingPathComponent("skipped.jsonl").path], environment: ["CI": "true"])
        #expect(inCI.stderr.contains("M.S/t()") && inCI.stderr.contains("no go"), "\(inCI)")
        let missing = try run(
            "python3", [gate, folder.url.appendingPathComponent("none.jsonl").path], environment: ["CI": "true"])
        #expect(missing.status == 1, "\(missing)")
    }

    // MARK: - Missing tools and hung children

    /// A tool that is not installed is a thrown failure naming it, not an exit 127 a check could
    /// take for a rejection; so is a shell's "command not found".
    @Test func aMissingToolIsAFailureNotAnExitStatus() throws {
        do {
            let result = try run("relctl-test-no-such-tool", ["--verify"])
            Issue.record("a missing tool returned \(result)")
        } catch let failure as TestFailure {
            #expect(failure.message.contains("`relctl-test-no-such-tool` is not installed"), "\(failure)")
            #expect(failure.message.contains("scripts/install-deps --test"), "\(failure)")
        }
        do {
            let result = try sh("relctl-test-no-such-tool -V file")
            Issue.record("a shell's command not found returned \(result)")
        } catch let failure as TestFailure {
            #expect(failure.message.contains("exited 127"), "\(failure)")
        }
        // A tool that rejects (exit 1) is a result, read as such.
        #expect(try sh("exit 1").status == 1)
    }

    /// What a test's time limit does to the child it waits on: Swift Testing cancels the test's
    /// task, and the wait kills the child (with what it started) and throws, on the test's task
    /// and on a thread `TemporaryScope.blocking` handed the wait to. Cancelled by hand here.
    @Test(arguments: ["on the test's task", "on a blocking thread"])
    func aCancelledTestKillsTheChildItWaitsOn(where: String) async throws {
        let folder = try TemporaryDirectory(prefix: "relctl-hang")
        let pids = folder.url.appendingPathComponent("pids")
        // A shell that starts a grandchild, says both pids, and waits for ever.
        let line = "sleep 600 & echo $$ $! > '\(pids.path).tmp'; mv '\(pids.path).tmp' '\(pids.path)'; wait"
        let onBlockingThread = `where` == "on a blocking thread"
        let waiting = Task {
            if onBlockingThread {
                return try await TemporaryScope.blocking { try sh(line) }
            }
            return try sh(line)
        }
        // Polled with await, so this test holds no thread of the pool the waiting task needs;
        // the suite's time limit bounds it.
        while !FileManager.default.fileExists(atPath: pids.path) { try await Task.sleep(for: .milliseconds(20)) }
        let both = try String(contentsOf: pids, encoding: .utf8).split(separator: " ").compactMap {
            Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        try #require(both.count == 2)
        waiting.cancel()
        let outcome = await waiting.result
        #expect(throws: TestFailure.self) { try outcome.get() }
        #expect(!MatrixFixtures.isAlive(both[0]), "the shell was killed and reaped")
        // Killed before the shell was; dead once reaped, by whoever inherited it.
        var grandchildGone = false
        for _ in 0..<3000 where !grandchildGone {
            grandchildGone = !MatrixFixtures.isAlive(both[1])
            if !grandchildGone { try await Task.sleep(for: .milliseconds(20)) }
        }
        if !grandchildGone { kill(both[1], SIGKILL) }
        #expect(grandchildGone, "the child's own child was killed too")
    }
}
