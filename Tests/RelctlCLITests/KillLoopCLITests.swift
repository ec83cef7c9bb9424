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

/// SIGKILL and SIGINT at random moments of `package`, `checksum`, `release --push` (against a
/// bare remote whose pre-receive hook is slow) and `release` without a push, each followed by an
/// ordinary run. After every kill: no visible file in dist/ is partial; after an interrupt, no
/// temporary is left at all; after the next run, no temporary, lock or staging folder is left, the
/// next run succeeded or recovered (and said so), and no foreign tag was touched. The moments come
/// from a seeded generator; the seed and what each next run did are printed, and
/// `RELCTL_KILL_SEED=N` repeats a run (`RELCTL_KILL_ITERATIONS`, default 5 per command).
@Suite("kill loop", .serialized, .timeLimit(.minutes(60)), .removesTemporaries)
struct KillLoopCLITests {
    /// SplitMix64: small, seedable, good enough to spread kill moments.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    struct Command {
        var name: String
        var arguments: [String]
    }

    let environment: [String: String]
    let fixture: ReleaseFixture
    let scratch: TemporaryDirectory
    var dist: URL { fixture.url.appendingPathComponent("dist") }

    init() throws {
        fixture = try ReleaseFixture()
        scratch = try TemporaryDirectory(prefix: "relctl-kill-loop-tmp")
        // Every temporary relctl makes outside the project goes here, so "none left" is exact.
        environment = ["TMPDIR": scratch.path]
    }

    // Synchronous on purpose: the kill moments are timed with usleep on this thread, which a busy
    // cooperative pool (the rest of the suite running) cannot delay as it delays `Task.sleep`.
    @Test func killsAtRandomMomentsLeaveNothingHalfDoneAndTheNextRunRecovers() throws {
        let seed =
            ProcessInfo.processInfo.environment["RELCTL_KILL_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 0...UInt64.max)
        let iterations = ProcessInfo.processInfo.environment["RELCTL_KILL_ITERATIONS"].flatMap { Int($0) } ?? 5
        print("kill loop: seed \(seed), \(iterations) kills per command (RELCTL_KILL_SEED=\(seed) repeats this run)")
        var generator = SeededGenerator(state: seed)

        // A payload that takes compression a moment, so kills land inside the archive writes.
        try sh("head -c 3000000 /dev/urandom > data.bin", in: fixture.url)
        let config = try fixture.repository.directory.read("relctl.toml")
            .replacingOccurrences(of: #"files = ["README.md"]"#, with: #"files = ["README.md", "data.bin"]"#)
        try fixture.repository.commit("chore: ship data", files: ["relctl.toml": config])
        try fixture.repository.git("push", "-q", "origin", "main")
        // Tags that are not this release's: none may ever move or vanish.
        try fixture.repository.git("tag", "-a", "v0.9.0", "-m", "an older release, by hand", "HEAD~1")
        try fixture.repository.git("push", "-q", "origin", "v0.9.0")
        try fixture.remoteGit("tag", "someone-else", "main")
        let foreign = try foreignTags()
        try fixture.installRemoteHook("sleep 1; exit 0")
        #expect(try relctl(["build"], in: fixture.url, environment: environment).status == 0)

        let commands = [
            Command(name: "package", arguments: ["package", "--tag", "v1.0.0", "--clean"]),
            Command(name: "checksum", arguments: ["checksum"]),
            Command(name: "release", arguments: ["release", "v1.0.0", "--push"]),
            // Without --push, a kill after the tag leaves an unpushed tag: the next run rolls it back.
            Command(name: "release-local", arguments: ["release", "v1.0.0"]),
        ]
        var outcomes: [String: Int] = [:]
        for command in commands {
            try prepare(command)
            let started = Date()
            let baseline = try relctl(command.arguments, in: fixture.url, environment: environment)
            let duration = Date().timeIntervalSince(started)
            #expect(baseline.status == 0, "\(command.name) without a kill: \(baseline)")
            for iteration in 0..<iterations {
                try prepare(command)
                let signal = Bool.random(using: &generator) ? SIGKILL : SIGINT
                // Later runs are warmer than the timed one: most kills land inside the run.
                let delay = Double.random(in: 0...(duration * 0.9), using: &generator)
                let what =
                    "\(command.name) #\(iteration): \(signal == SIGKILL ? "SIGKILL" : "SIGINT") after \(Int(delay * 1000)) ms of ~\(Int(duration * 1000)) (seed \(seed))"
                let outcome = try killOnce(command, signal: signal, after: delay, what: what)
                outcomes["\(command.name) \(signal == SIGKILL ? "SIGKILL" : "SIGINT"): \(outcome)", default: 0] += 1
                #expect(try foreignTags() == foreign, "\(what): a foreign tag changed")
            }
        }
        print("kill loop outcomes (seed \(seed)):")
        for (outcome, count) in outcomes.sorted(by: { $0.key < $1.key }) { print("  \(count) × \(outcome)") }
    }

    /// One kill and the checks that follow it; returns what the next run did.
    func killOnce(_ command: Command, signal: Int32, after delay: Double, what: String) throws -> String {
        let process = try KilledReleaseCLITests.start(command.arguments, in: fixture.url, environment: environment)
        usleep(UInt32(delay * 1_000_000))
        kill(process.processIdentifier, signal)
        try process.waitForExit()
        let finished = process.terminationReason == .exit && process.terminationStatus == 0
        if signal == SIGINT, process.terminationReason == .exit {
            #expect([0, 130].contains(process.terminationStatus), "\(what): exit \(process.terminationStatus)")
        }
        try checkVisibleFilesAreComplete(what)
        if signal == SIGINT {
            // The handler cleans up before it exits: nothing waits for a next run.
            #expect(try leftovers().isEmpty, "\(what): Ctrl-C left \((try? leftovers()) ?? [])")
        }

        // The next, ordinary run.
        var outcome = finished ? "had finished before the signal" : "next run succeeded"
        if command.name.hasPrefix("release") {
            let lock = fixture.url.appendingPathComponent(".git/relctl-release.lock")
            let sealed = ReleaseLock.currentHolder(at: lock)?.sealed == true
            let released =
                finished || sealed
                || (!FileManager.default.fileExists(atPath: lock.path)
                    && (try? fixture.localTags().contains("v1.0.0")) == true)
            let next = try relctl(command.arguments, in: fixture.url, environment: environment)
            outcome =
                finished
                ? "had finished before the signal"
                : ["rolled back", "resuming", "had finished", "took over a stale release lock"].first {
                    next.stderr.contains($0)
                } ?? (released ? "released before the signal" : "nothing to recover")
            if released {
                // The killed run had released it (only its after hooks could be missing): done.
                #expect(next.status == 1 && next.stderr.contains("already exists"), "\(what): \(next)")
                if sealed { #expect(next.stderr.contains("had finished"), "\(what): \(next)") }
                #expect(try sh("sha256sum -c SHA256SUMS", in: dist).status == 0, "\(what)")
            } else {
                #expect(next.status == 0, "\(what): the next run failed: \(next)")
            }
            let tag = try fixture.repository.git("rev-parse", "refs/tags/v1.0.0")
            if command.name == "release" {
                #expect(
                    try fixture.remoteGit("rev-parse", "refs/tags/v1.0.0").stdout.hasPrefix(tag),
                    "\(what): the remote has the released tag")
            }
        } else {
            let next = try relctl(command.arguments, in: fixture.url, environment: environment)
            #expect(next.status == 0, "\(what): the next run failed: \(next)")
            #expect(try sh("sha256sum -c *.sha256", in: dist).status == 0, "\(what)")
        }
        try checkVisibleFilesAreComplete(what)
        #expect(try leftovers().isEmpty, "\(what): the next run left \((try? leftovers()) ?? [])")
        return outcome
    }

    /// The state each command starts from: archives for `checksum`, no release for `release`.
    func prepare(_ command: Command) throws {
        switch command.name {
        case "checksum":
            let archives =
                (try? FileManager.default.contentsOfDirectory(atPath: dist.path))?
                .filter { $0.hasSuffix(".tar.gz") } ?? []
            if archives.count < 2 {
                #expect(try relctl(["package", "--tag", "v1.0.0", "--clean"], in: fixture.url).status == 0)
            }
        case "release", "release-local":
            _ = try? fixture.repository.git("tag", "-d", "v1.0.0")
            _ = try fixture.remoteGit("tag", "-d", "v1.0.0")
            try? FileManager.default.removeItem(at: dist)
        default:
            break
        }
    }

    /// Every file a user can see in dist/ is whole: archives decompress to the end, checksum files
    /// match what they name, JSON parses.
    func checkVisibleFilesAreComplete(_ what: String) throws {
        let names = (try folderNames(dist.path)).filter {
            !$0.hasPrefix(".")
        }
        for name in names {
            let url = dist.appendingPathComponent(name)
            if name.hasSuffix(".tar.gz") {
                let test = try? sh("gzip -t '\(name)' && tar -tzf '\(name)' >/dev/null", in: dist)
                #expect(test?.status == 0, "\(what): \(name) is partial: \(test.map(\.description) ?? "")")
            } else if name.hasSuffix(".sha256"), !names.contains(String(name.dropLast(7))) {
                continue  // --clean removes an archive, then its checksum file: a kill may land between.
            } else if name.hasSuffix(".sha256") || name == "SHA256SUMS" {
                let check = try? sh("sha256sum --ignore-missing -c '\(name)'", in: dist)
                #expect(check?.status == 0, "\(what): \(name) does not match: \(check.map(\.description) ?? "")")
            } else if name.hasSuffix(".json") {
                let data = FileManager.default.contents(atPath: url.path) ?? Data()
                #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "\(what): \(name) is partial")
            }
        }
    }

    /// Temporaries of any kind: hidden entries in dist/, anything in the TMPDIR relctl used, the
    /// release lock and its updates.
    func leftovers() throws -> [String] {
        let hidden = (try folderNames(dist.path)).filter {
            $0.hasPrefix(".")
        }
        let temporary = (try folderNames(scratch.path))
        let git =
            (try folderNames(fixture.url.appendingPathComponent(".git").path)).filter { $0.contains("relctl") }
        return hidden.map { "dist/" + $0 } + temporary.map { "$TMPDIR/" + $0 } + git.map { ".git/" + $0 }
    }

    /// The foreign tags, local and remote, with their objects.
    func foreignTags() throws -> [String] {
        let local = try fixture.repository.git("for-each-ref", "--format=%(refname) %(objectname)", "refs/tags")
        let remote = try fixture.remoteGit("for-each-ref", "--format=%(refname) %(objectname)", "refs/tags").stdout
        return (local.split(separator: "\n") + remote.split(separator: "\n").map { "remote " + $0 })
            .map(String.init).filter { !$0.contains("refs/tags/v1.0.0 ") }.sorted()
    }
}
