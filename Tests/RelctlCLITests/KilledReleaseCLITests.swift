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

/// relctl killed outright (SIGKILL: no handler runs) in the middle of a release, and what the next
/// run does with what it left: roll back an unpushed tag, resume a pushed one, refuse another tag
/// while a pushed one is unfinished; and temporaries of killed runs reclaimed, live ones kept.
@Suite("killed releases", .serialized, .timeLimit(.minutes(60)), .removesTemporaries)
struct KilledReleaseCLITests {
    /// Starts `relctl ARGS` in the background (output discarded).
    static func start(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = relctlBinary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Polls `condition` every 20 ms for up to `seconds` (a bound on a gate, which the suite's time
    /// limit bounds too; the outcome is what the condition says, never how long it took).
    static func waitFor(seconds: Double = 120, _ condition: () -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }

    /// Kills a release with SIGKILL while its push is under way (the remote's hook holds it until
    /// the kill is done), then lets the orphaned push go on to `hookEnd` (`exit 0` lands it,
    /// `exit 1` refuses it); returns the tag object the killed run created.
    static func killDuringPush(
        _ fixture: ReleaseFixture, hookEnd: String, tag: String = "v1.0.0"
    ) async throws -> String {
        let go = fixture.remote.url.appendingPathComponent("go")
        let waiting = fixture.remote.url.appendingPathComponent("hooks/waiting")
        try fixture.installRemoteHook(
            "touch '\(waiting.path)'; while [ ! -e '\(go.path)' ]; do sleep 0.05; done; \(hookEnd)")
        let process = try start(["release", tag, "--push"], in: fixture.url)
        // The hook runs only once `git push` started, so the tag exists and the lock says so.
        let pushing = try await waitFor {
            FileManager.default.fileExists(atPath: waiting.path)
        }
        #expect(pushing, "the release reached the push")
        kill(process.processIdentifier, SIGKILL)
        try process.waitForExit()
        #expect(process.terminationReason == .uncaughtSignal)
        try fixture.remote.write("go", "")
        return try fixture.repository.git("rev-parse", "refs/tags/\(tag)")
    }

    @Test func aTagTheKilledRunNeverPushedIsRolledBackAndTheReleaseStartsOver() async throws {
        let fixture = try ReleaseFixture()
        // The remote refuses the killed run's push once it is dead: that push never lands.
        let killedObject = try await Self.killDuringPush(fixture, hookEnd: "exit 1")
        #expect(fixture.repository.directory.exists(".git/relctl-release.lock"))
        try fixture.installRemoteHook("exit 0")

        // A dry run says what the real run will do, predicts its success, and does nothing.
        let dry = try relctl(["release", "v1.0.0", "--push", "--dry-run"], in: fixture.url)
        #expect(dry.status == 0, "\(dry)")
        #expect(dry.stderr.contains("rolling back the release of v1.0.0 killed at pid"), "\(dry.stderr)")
        #expect(dry.stderr.contains("dry run: nothing done"), "\(dry.stderr)")
        #expect(try fixture.repository.git("rev-parse", "refs/tags/v1.0.0") == killedObject)
        #expect(fixture.repository.directory.exists(".git/relctl-release.lock"))

        let next = try relctl(["release", "v1.0.0", "--push"], in: fixture.url)
        #expect(next.status == 0, "\(next)")
        #expect(next.stderr.contains("rolled back the release of v1.0.0 killed at pid"), "\(next.stderr)")
        #expect(next.stderr.contains("deleted its unpushed tag v1.0.0"), "\(next.stderr)")
        #expect(next.stderr.contains("releasing v1.0.0 from the start"), "\(next.stderr)")
        let object = try fixture.repository.git("rev-parse", "refs/tags/v1.0.0")
        // Made again by this run's tag stage. (Within the same second it is byte-identical to the
        // killed run's: same commit, message and tagger time.)
        #expect(next.stderr.contains("tag: ok"), "\(next.stderr)")
        _ = killedObject
        #expect(try fixture.remoteGit("rev-parse", "refs/tags/v1.0.0").stdout.hasPrefix(object))
        let check = try sh("sha256sum -c SHA256SUMS", in: fixture.url.appendingPathComponent("dist"))
        #expect(check.status == 0, "\(check)")
        #expect(!fixture.repository.directory.exists(".git/relctl-release.lock"))
    }

    @Test func aTagTheKilledRunPushedIsResumedAndAnotherTagIsRefusedMeanwhile() async throws {
        let fixture = try ReleaseFixture()
        // Someone else's tag on the remote, which nothing may touch.
        try fixture.remoteGit("tag", "someone-else", "main")
        let foreign = try fixture.remoteGit("rev-parse", "refs/tags/someone-else").stdout
        // The remote accepts the push once relctl is gone.
        let killedObject = try await Self.killDuringPush(fixture, hookEnd: "exit 0")

        // Another tag is refused until the pushed one is finished or removed; the lock stays.
        let other = try relctl(["release", "v1.0.1", "--push"], in: fixture.url)
        #expect(other.status == 1, "\(other)")
        #expect(other.stderr.contains("pushed v1.0.0 to `origin` but did not finish dist/"), "\(other.stderr)")
        #expect(other.stderr.contains("relctl release v1.0.0 --push"), "\(other.stderr)")
        #expect(try fixture.repository.directory.read(".git/relctl-release.lock").contains("\"v1.0.0\""))

        // A resume that fails (here its preflight: the tree is dirty) keeps the record, so the
        // next run still resumes.
        try fixture.repository.directory.write("README.md", "edited\n")
        let failed = try relctl(["release", "v1.0.0", "--push"], in: fixture.url)
        #expect(failed.status == 1, "\(failed)")
        #expect(failed.stderr.contains("resuming the release of v1.0.0 killed at pid"), "\(failed.stderr)")
        #expect(try fixture.repository.directory.read(".git/relctl-release.lock").contains("\"pushed\" : true"))
        try fixture.repository.git("checkout", "README.md")

        let next = try relctl(["release", "v1.0.0", "--push"], in: fixture.url)
        #expect(next.status == 0, "\(next)")
        #expect(next.stderr.contains("resuming the release of v1.0.0 killed at pid"), "\(next.stderr)")
        #expect(next.stderr.contains("kept v1.0.0, created and pushed by the killed release"), "\(next.stderr)")
        #expect(try fixture.repository.git("rev-parse", "refs/tags/v1.0.0") == killedObject, "the tag is kept")
        #expect(try fixture.remoteGit("rev-parse", "refs/tags/v1.0.0").stdout.hasPrefix(killedObject))
        #expect(try fixture.remoteGit("rev-parse", "refs/tags/someone-else").stdout == foreign)
        let dist = fixture.url.appendingPathComponent("dist")
        #expect(try sh("sha256sum -c SHA256SUMS", in: dist).status == 0)
        // The tag lists exactly the archives now in dist/.
        let message = try fixture.repository.git("cat-file", "tag", "v1.0.0")
        for line in try String(contentsOf: dist.appendingPathComponent("SHA256SUMS"), encoding: .utf8)
            .split(separator: "\n") where line.hasSuffix(".tar.gz")
        {
            #expect(message.contains(String(line)))
        }
        #expect(!fixture.repository.directory.exists(".git/relctl-release.lock"))
    }

    /// A SIGKILL between starting `git push` and recording its pid: the lock says a push began but
    /// names no child. The next run must still wait for that push (found by its refspec) before
    /// asking the remote, or it would take a tag about to land for an unpushed one and roll it back.
    @Test func aPushTheKilledRunHadNotRecordedIsWaitedFor() async throws {
        let fixture = try ReleaseFixture()
        let go = fixture.remote.url.appendingPathComponent("go")
        let waiting = fixture.remote.url.appendingPathComponent("hooks/waiting")
        try fixture.installRemoteHook(
            "touch '\(waiting.path)'; while [ ! -e '\(go.path)' ]; do sleep 0.05; done; exit 0")
        let killed = try Self.start(["release", "v1.0.0", "--push"], in: fixture.url)
        let pushing = try await Self.waitFor { FileManager.default.fileExists(atPath: waiting.path) }
        #expect(pushing, "the release reached the push")
        kill(killed.processIdentifier, SIGKILL)
        try killed.waitForExit()
        let killedObject = try fixture.repository.git("rev-parse", "refs/tags/v1.0.0")
        // The record as a kill just before the pid was written leaves it: a push begun, no child.
        let lockURL = fixture.url.appendingPathComponent(".git/relctl-release.lock")
        var record = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: lockURL)) as? [String: Any])
        #expect(record["pushing"] != nil, "the lock says a push began")
        record.removeValue(forKey: "children")
        try JSONSerialization.data(withJSONObject: record).write(to: lockURL)

        // The orphaned push lands once the next run says it waits for it (a gate, not a clock).
        // A run that does not wait ends first, or pushes the tag itself: its push reaches the
        // remote's hook, which says so afresh in `waiting`. Either opens the gate too, and fails below.
        try FileManager.default.removeItem(at: waiting)
        let running = try BackgroundProcess.relctl(["release", "v1.0.0", "--push"], in: fixture.url)
        defer { running.killTree() }
        let gate = try await Self.waitFor {
            running.stderrSoFar.contains("waiting for `git`") || !running.isRunning
                || FileManager.default.fileExists(atPath: waiting.path)
        }
        #expect(gate, "the next run neither waited for the push nor ended: \(running.stderrSoFar)")
        #expect(
            !FileManager.default.fileExists(atPath: waiting.path),
            "the next run pushed while the killed run's push was held")
        try fixture.remote.write("go", "")
        let next = try await TemporaryScope.blocking { try running.wait() }
        #expect(next.status == 0, "\(next)")
        #expect(next.stderr.contains("waiting for `git`"), "\(next.stderr)")
        #expect(next.stderr.contains("resuming the release of v1.0.0 killed at pid"), "\(next.stderr)")
        #expect(try fixture.repository.git("rev-parse", "refs/tags/v1.0.0") == killedObject, "the tag is kept")
        #expect(try fixture.remoteGit("rev-parse", "refs/tags/v1.0.0").stdout.hasPrefix(killedObject))
    }

    /// The search for an unrecorded push looks at this repository only: another project pushing a
    /// tag of the same name on the machine (another release, another CI job) is not waited for.
    /// Found by the full suite, where the kill loop's recovery once waited 120 s for another
    /// test's push of `v1.0.0` and then refused to release.
    @Test func aPushOfTheSameTagInAnotherRepositoryIsNotWaitedFor() async throws {
        let fixture = try ReleaseFixture()
        // Our killed release's own push lands at once; its lock names no child.
        let killedObject = try await Self.killDuringPush(fixture, hookEnd: "exit 0")
        let landed = try await Self.waitFor {
            (try? fixture.remoteGit("rev-parse", "refs/tags/v1.0.0").stdout.hasPrefix(killedObject)) == true
        }
        #expect(landed, "the killed run's push landed")
        let lockURL = fixture.url.appendingPathComponent(".git/relctl-release.lock")
        var record = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: lockURL)) as? [String: Any])
        record.removeValue(forKey: "children")
        try JSONSerialization.data(withJSONObject: record).write(to: lockURL)

        // Meanwhile another project pushes its own v1.0.0, held in its remote's hook.
        let other = try ReleaseFixture()
        let release = other.remote.url.appendingPathComponent("go")
        let held = other.remote.url.appendingPathComponent("hooks/waiting")
        try other.installRemoteHook(
            "touch '\(held.path)'; while [ ! -e '\(release.path)' ]; do sleep 0.05; done; exit 0")
        try other.repository.git("tag", "-a", "v1.0.0", "-m", "the other project's release")
        let push = Process()
        push.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        push.arguments = [
            "git", "-C", other.url.path, "push", "--porcelain", "origin", "refs/tags/v1.0.0:refs/tags/v1.0.0",
        ]
        push.standardOutput = FileHandle.nullDevice
        push.standardError = FileHandle.nullDevice
        try push.run()
        defer {
            _ = try? other.remote.write("go", "")
            try? push.waitForExit()
        }
        #expect(try await Self.waitFor { FileManager.default.fileExists(atPath: held.path) }, "the other push is held")

        // The next run ends with the other push still held. One that waited for it would say so
        // and wait on: that opens the gate at once, and the test fails instead of hanging.
        let running = try BackgroundProcess.relctl(["release", "v1.0.0", "--push"], in: fixture.url)
        defer { running.killTree() }
        _ = try await Self.waitFor { running.stderrSoFar.contains("waiting for `git`") || !running.isRunning }
        let otherStillHeld = push.isRunning
        if running.isRunning { try other.remote.write("go", "") }
        let next = try await TemporaryScope.blocking { try running.wait() }
        #expect(next.status == 0, "\(next)")
        #expect(
            !next.stderr.contains("waiting for `git`"),
            "the next run waited for the other project's push: \(next.stderr)")
        #expect(next.stderr.contains("resuming the release of v1.0.0 killed at pid"), "\(next.stderr)")
        #expect(otherStillHeld, "the other push was still held while the release ran")
    }

    @Test func aPushedTagIsNeverRewrittenWhenTheRebuildDiffers() async throws {
        // A build that is not reproducible: each run's binary differs.
        let fixture = try ReleaseFixture(
            buildCommand:
                #"mkdir -p out/{target} && printf '#!/bin/sh\necho %s\n' "$(date +%s%N)" > out/{target}/hello && chmod +x out/{target}/hello"#
        )
        let killedObject = try await Self.killDuringPush(fixture, hookEnd: "exit 0")
        let next = try relctl(["release", "v1.0.0", "--push"], in: fixture.url)
        #expect(next.status == 1, "\(next)")
        #expect(next.stderr.contains("resuming the release of v1.0.0"), "\(next.stderr)")
        #expect(next.stderr.contains("lists other archives or SHA256s than this run built"), "\(next.stderr)")
        #expect(fixture.repository.directory.exists(".git/relctl-release.lock"), "the record stays for a later resume")
        #expect(try fixture.repository.git("rev-parse", "refs/tags/v1.0.0") == killedObject)
        #expect(try fixture.remoteGit("rev-parse", "refs/tags/v1.0.0").stdout.hasPrefix(killedObject))
        #expect(!fixture.repository.directory.exists("dist/SHA256SUMS"), "dist/ was not filled with other archives")
    }

    @Test func aLockFromBeforeRecoveryRecordsIsStillTakenOver() throws {
        let fixture = try ReleaseFixture()
        let dead = try deadPid()
        // The lock format of earlier versions: no progress fields.
        try fixture.repository.directory.write(
            ".git/relctl-release.lock",
            #"{"host":"\#(ProcessInfo.processInfo.hostName)","pid":\#(dead),"started":"then","tag":"v1.0.0"}"#)
        let next = try relctl(["release", "v1.0.0"], in: fixture.url)
        #expect(next.status == 0, "\(next)")
        #expect(next.stderr.contains("took over a stale release lock"), "\(next.stderr)")
    }

    @Test func temporariesOfKilledRunsAreReclaimedAndALiveRunsAreKept() throws {
        let fixture = try ReleaseFixture()
        let scratch = try TemporaryDirectory(prefix: "relctl-tmpdir")
        #expect(try relctl(["build"], in: fixture.url).status == 0)
        let dead = try deadPid()
        let live = getpid()
        let archive = "demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz"
        let deadFiles = [
            "dist/.\(archive).relctl-tmp-\(dead)-1a2b3c4d", "dist/.\(archive).sha256.relctl-tmp-\(dead)-99",
            "dist/.manifest.json.relctl-tmp-\(dead)-abc", "dist/.relctl-staging-v1.0.0.relctl-tmp-\(dead)-5/x",
        ]
        let liveFiles = ["dist/.SHA256SUMS.relctl-tmp-\(live)-77", "dist/.notes.relctl-tmp-beef"]
        for file in deadFiles + liveFiles { try fixture.repository.directory.write(file, "partial") }
        try scratch.write("relctl-dry-run-v1.0.0.relctl-tmp-\(dead)-0f/clone/file", "x")
        try scratch.write("relctl-stage-x.relctl-tmp-\(live)-0f/file", "x")
        try scratch.write("relctl-unrelated/file", "x")
        try scratch.write("other.relctl-tmp-\(dead)-0f", "not relctl's: no relctl- prefix in a shared folder")

        let result = try relctl(
            ["package", "--tag", "v1.0.0", "-v"], in: fixture.url, environment: ["TMPDIR": scratch.path])
        #expect(result.status == 0, "\(result)")
        for file in deadFiles {
            let top = file.split(separator: "/").prefix(2).joined(separator: "/")
            #expect(!fixture.repository.directory.exists(top), "\(top) of a killed run is reclaimed")
        }
        for file in liveFiles { #expect(fixture.repository.directory.exists(file), "\(file) is kept") }
        #expect(!scratch.exists("relctl-dry-run-v1.0.0.relctl-tmp-\(dead)-0f"))
        #expect(scratch.exists("relctl-stage-x.relctl-tmp-\(live)-0f/file"))
        #expect(scratch.exists("relctl-unrelated/file"))
        #expect(scratch.exists("other.relctl-tmp-\(dead)-0f"))
        #expect(result.stderr.contains("temporary file(s) that killed relctl runs left"), "\(result.stderr)")
    }

    @Test func everyTemporaryAReleaseCreatesIsRelctlsOwnAndNamesItsPid() throws {
        let fixture = try ReleaseFixture()
        let scratch = try TemporaryDirectory(prefix: "relctl-tmpdir")
        let trace = scratch.url.deletingLastPathComponent().appendingPathComponent("relctl-trace-\(getpid()).txt")
        defer { try? FileManager.default.removeItem(at: trace) }
        var created: [String] = []
        for arguments in [["release", "v1.0.0", "--dry-run"], ["release", "v1.0.0"], ["checksum"]] {
            let result = try run(
                "strace",
                ["-f", "-e", "trace=openat,open,mkdir,mkdirat", "-o", trace.path, relctlBinary.path] + arguments,
                in: fixture.url, environment: ["TMPDIR": scratch.path, "NO_COLOR": "1"])
            #expect(result.status == 0, "\(arguments): \(result)")
            let lines = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n")
            for line in lines where (line.contains("O_CREAT") || line.contains("mkdir")) && !line.contains("= -1") {
                guard let open = line.firstIndex(of: "\""),
                    let close = line[line.index(after: open)...].firstIndex(of: "\"")
                else { continue }
                created.append(String(line[line.index(after: open)..<close]))
            }
        }
        let dist = fixture.url.appendingPathComponent("dist").path + "/"
        var checked = 0
        for path in created {
            // Hidden names in dist/ and whatever sits at the top of $TMPDIR are temporaries: they
            // must follow relctl's naming, with a pid, so that a later run can tell whose they are.
            let temporaries: [Substring]
            if path.hasPrefix(dist) {
                temporaries = path.dropFirst(dist.count).split(separator: "/").filter { $0.hasPrefix(".") }
            } else if path.hasPrefix(scratch.path + "/") {
                temporaries = Array(path.dropFirst(scratch.path.count + 1).split(separator: "/").prefix(1))
            } else {
                continue
            }
            checked += 1
            for name in temporaries {
                #expect(Temporaries.owner(of: String(name)) != nil, "\(path): a temporary relctl cannot recognise")
            }
        }
        #expect(checked > 10, "the trace saw the files written (\(checked))")
    }

    /// A pid that belonged to a process which has exited.
    func deadPid() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        try process.waitForExit()
        return process.processIdentifier
    }
}
