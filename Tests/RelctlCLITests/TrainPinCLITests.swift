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

/// The seed's coordinated release (`multi-repo-release-process.md`) end to end on four
/// repositories with real bare remotes: pins committed and tagged, rollback, resume.
@Suite("relctl train with pins", .serialized, .timeLimit(.minutes(60)), .removesTemporaries)
struct TrainPinCLITests {
    struct Report: Decodable {
        struct Repository: Decodable {
            struct Pin: Decodable { var path: String; var old: String; var new: String }
            var name: String; var status: String; var pins: [Pin]; var pinCommit: String?; var push: String?
        }
        var ok: Bool; var seconds: Double; var repositories: [Repository]; var rolledBack: [String];
        var notRolledBack: [String]
    }

    static let pinLine = #"FFI_VERSION: "v0.2.0""#

    @Test func pinsAreCommittedAndTheTagsPointAtThePinCommits() throws {
        let seed = try SeedTrainFixture()
        // sdk-kotlin's remote cannot do atomic pushes: the train pushes branch then tag, and says so.
        _ = try seed["sdk-kotlin"].remoteGit("config", "receive.advertiseAtomic", "false")
        let result = try relctl(
            ["train", "run", "v0.2.0", "--workspace", seed.file, "--json", "--jobs", "2"], in: seed.workspace.url)
        #expect(result.status == 0, "\(result)")
        let report = try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
        #expect(report.ok && report.seconds > 0)
        for name in SeedTrainFixture.names {
            let repository = seed[name]
            #expect(try repository.remoteTags() == ["v0.2.0"], "\(name)")
            // The tag is on the remote's branch tip: branch and tag went together.
            #expect(
                try repository.remoteGit("rev-parse", "v0.2.0^{commit}") == repository.remoteGit("rev-parse", "main"),
                "\(name)")
            #expect(try repository.remoteGit("cat-file", "-t", "v0.2.0") == "tag")
        }
        for name in SeedTrainFixture.sdks {
            let repository = seed[name]
            let tagged = try repository.remoteGit("show", "v0.2.0:.github/workflows/ci.yml")
            #expect(tagged.contains(Self.pinLine), "the tagged tree holds the new pin: \(tagged)")
            #expect(!tagged.contains("v0.1.0"))
            let subject = try repository.remoteGit("log", "-1", "--format=%s", "v0.2.0^{commit}")
            #expect(subject == "chore(release): pin .github/workflows/ci.yml to v0.2.0")
            let entry = try #require(report.repositories.first { $0.name == name })
            #expect(entry.pins.map(\.old) == ["v0.1.0"] && entry.pins.map(\.new) == ["v0.2.0"])
            #expect(entry.push == (name == "sdk-kotlin" ? "separate" : "atomic"))
            #expect(try entry.pinCommit == repository.remoteGit("rev-parse", "v0.2.0^{commit}"))
        }
        // Repositories without pins are tagged where they were.
        #expect(
            try seed["sdk-rust"].remoteGit("log", "-1", "--format=%s", "v0.2.0^{commit}") == "feat: the sdk-rust part")
        #expect(try seed["sdk-rust"].distFiles().contains("flovyn-ffi-v0.2.0-x86_64-unknown-linux-gnu.tar.gz"))
        // The two SDKs were one wave, started together, with prefixed output.
        #expect(result.stderr.contains("wave 2: releasing sdk-python, sdk-kotlin"))
        #expect(result.stderr.contains("[sdk-kotlin]"))
        #expect(
            result.stderr.contains(
                "sdk-kotlin: origin does not support `git push --atomic`; pushed main then v0.2.0 one after the other"))

        // The same command again: everything is already released, nothing is tagged twice.
        let objects = try SeedTrainFixture.names.map { try seed[$0].remoteGit("rev-parse", "v0.2.0") }
        let again = try relctl(["train", "run", "v0.2.0", "--workspace", seed.file], in: seed.workspace.url)
        #expect(again.status == 0, "\(again)")
        #expect(again.stderr.contains("4 already released by an earlier run, skipped"))
        #expect(try SeedTrainFixture.names.map { try seed[$0].remoteGit("rev-parse", "v0.2.0") } == objects)
    }

    @Test func aFailureInTheLastWaveLeavesNothingBehindAndTheSameCommandThenSucceeds() throws {
        let seed = try SeedTrainFixture(before: [
            "flovyn-server": #"test -z "$FAIL_SERVER" || { echo 'migrations failed' >&2; exit 3; }"#
        ])
        let failed = try relctl(
            ["train", "run", "v0.2.0", "--workspace", seed.file, "--json"], in: seed.workspace.url,
            environment: ["FAIL_SERVER": "1"])
        #expect(failed.status == 1, "\(failed)")
        #expect(failed.stderr.contains("train v0.2.0 stopped at flovyn-server (wave 3)"))
        #expect(failed.stderr.contains("migrations failed"))
        let report = try JSONDecoder().decode(Report.self, from: Data(failed.stdout.utf8))
        #expect(report.notRolledBack.isEmpty, "\(report.notRolledBack)")
        #expect(report.seconds > 0)
        for name in SeedTrainFixture.names {
            let repository = seed[name]
            #expect(try repository.remoteTags().isEmpty && repository.localTags().isEmpty, "no tag anywhere: \(name)")
            #expect(
                try repository.distFiles().filter { !$0.hasPrefix(".") }.isEmpty,
                "no dist/ leftovers in \(name): \((try? repository.distFiles()) ?? [])")
        }
        #expect(failed.stderr.contains("rolled back: sdk-rust: removed"))
        for name in SeedTrainFixture.sdks {
            let repository = seed[name]
            let pin = try #require(report.repositories.first { $0.name == name }?.pinCommit)
            // Reverted by a new commit on top: the pin commit stays in main's history.
            #expect(
                try run("git", ["-C", repository.remote.path, "merge-base", "--is-ancestor", pin, "main"]).status == 0)
            #expect(
                try repository.remoteGit("log", "-1", "--format=%s", "main").hasPrefix("Revert \"chore(release): pin"))
            #expect(
                try repository.remoteGit("show", "main:.github/workflows/ci.yml").contains(#"FFI_VERSION: "v0.1.0""#))
            #expect(try repository.repository.git("rev-parse", "HEAD") == repository.remoteGit("rev-parse", "main"))
            #expect(failed.stderr.contains("rolled back: \(name): reverted pin commit \(pin.prefix(12))"))
        }

        let retried = try relctl(["train", "run", "v0.2.0", "--workspace", seed.file], in: seed.workspace.url)
        #expect(retried.status == 0, "\(retried)")
        for name in SeedTrainFixture.names {
            #expect(try seed[name].remoteTags() == ["v0.2.0"], "\(name)")
        }
        for name in SeedTrainFixture.sdks {
            #expect(try seed[name].remoteGit("show", "v0.2.0:.github/workflows/ci.yml").contains(Self.pinLine))
            #expect(
                try seed[name].remoteGit("rev-parse", "v0.2.0^{commit}") == seed[name].remoteGit("rev-parse", "main"))
        }
    }

    @Test func theRollbackLeavesATagItDidNotMakeAlone() throws {
        // While the server releases, someone moves sdk-python's tag on its remote; then the server fails.
        let seed = try SeedTrainFixture(before: [
            "flovyn-server": #"git -C "$PY_REMOTE" tag -f v0.2.0 main~1 >/dev/null && exit 4"#
        ])
        let python = seed["sdk-python"]
        let result = try relctl(
            ["train", "run", "v0.2.0", "--workspace", seed.file], in: seed.workspace.url,
            environment: ["PY_REMOTE": python.remote.path])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("sdk-python: v0.2.0 on origin is"))
        #expect(result.stderr.contains("not the tag this run made; left alone"))
        #expect(try python.remoteTags() == ["v0.2.0"], "the foreign tag stays")
        #expect(
            try python.remoteGit("rev-parse", "v0.2.0") == python.remoteGit("rev-parse", "main~2"),
            "main~1 then, before the revert")
        #expect(try python.localTags().isEmpty, "this run's local tag is gone")
        #expect(try seed["sdk-kotlin"].remoteTags().isEmpty && seed["sdk-rust"].remoteTags().isEmpty)
    }

    @Test func aTagLeftUnpushedAtTheCommitToTagIsPushedNotMadeAgain() throws {
        let seed = try SeedTrainFixture()
        // As a train killed between sdk-rust's release and its push would leave it.
        let core = seed["sdk-rust"]
        let local = try relctl(["release", "v0.2.0"], in: core.url)
        #expect(local.status == 0, "\(local)")
        let object = try core.repository.git("rev-parse", "v0.2.0")
        let result = try relctl(["train", "run", "v0.2.0", "--workspace", seed.file], in: seed.workspace.url)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("sdk-rust: v0.2.0 is already tagged locally at HEAD"))
        #expect(try core.remoteGit("rev-parse", "v0.2.0") == object, "the same tag object, pushed")
        #expect(try seed["flovyn-server"].remoteTags() == ["v0.2.0"])
    }

    @Test func aKilledTrainCompletesWhenRunAgainWithoutTaggingTwice() throws {
        let marker = try TemporaryDirectory(prefix: "relctl-marker")
        // The hook records its pid and its parent's (sdk-python's `relctl release`), then waits for
        // as long as that parent lives. A fixed sleep let a starved test see the train finish on
        // its own (CI: the poll resumed after the hook's 60 s were up).
        let seed = try SeedTrainFixture(before: [
            "sdk-python":
                #"if [ -n "$SLOW_PYTHON" ]; then echo "$$ $PPID" > "$SLOW_PYTHON.tmp"; mv "$SLOW_PYTHON.tmp" "$SLOW_PYTHON"; while kill -0 $PPID 2>/dev/null; do sleep 0.1; done; exit 1; fi"#
        ])
        let flag = marker.url.appendingPathComponent("python-started").path
        let process = Process()
        process.executableURL = relctlBinary
        process.arguments = ["train", "run", "v0.2.0", "--workspace", seed.file, "--jobs", "1"]
        process.currentDirectoryURL = seed.workspace.url
        var environment = ProcessInfo.processInfo.environment
        environment["SLOW_PYTHON"] = flag
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The wait keeps its thread (usleep, not Task.sleep), as in TrainInterruptTests.
        let started = MatrixFixtures.waitUntil(seconds: 300) { FileManager.default.fileExists(atPath: flag) }
        #expect(started, "sdk-python's release reached its before hook")
        // SIGKILL the train, sdk-python's release and its hook at once, as a lost machine would.
        let pids = ((try? String(contentsOfFile: flag, encoding: .utf8)) ?? "").split(whereSeparator: \.isWhitespace)
            .compactMap { Int32($0) }
        kill(process.processIdentifier, SIGKILL)
        for pid in pids { kill(pid, SIGKILL) }
        try process.waitForExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(try seed["sdk-rust"].remoteTags() == ["v0.2.0"], "wave 1 was out before the kill")
        #expect(try seed["flovyn-server"].remoteTags().isEmpty)
        let coreTag = try seed["sdk-rust"].remoteGit("rev-parse", "v0.2.0")

        let resumed = try relctl(["train", "run", "v0.2.0", "--workspace", seed.file], in: seed.workspace.url)
        #expect(resumed.status == 0, "\(resumed)")
        #expect(resumed.stderr.contains("sdk-rust: v0.2.0 is already on origin at HEAD"))
        #expect(try seed["sdk-rust"].remoteGit("rev-parse", "v0.2.0") == coreTag, "not tagged twice")
        for name in SeedTrainFixture.names {
            #expect(try seed[name].remoteTags() == ["v0.2.0"], "\(name)")
            #expect(
                try seed[name].remoteGit("rev-parse", "v0.2.0^{commit}") == seed[name].remoteGit("rev-parse", "main"),
                "\(name)")
        }
        for name in SeedTrainFixture.sdks {
            let pins = try seed[name].remoteGit("log", "--format=%s", "main").split(separator: "\n").filter {
                $0.hasPrefix("chore(release): pin")
            }
            #expect(pins.count == 1, "one pin commit in \(name): \(pins)")
            #expect(try seed[name].remoteGit("show", "v0.2.0:.github/workflows/ci.yml").contains(Self.pinLine))
        }
    }

    @Test func theDryRunReportsThePinsAndABadPatternIsBadInputBeforeAnythingChanges() throws {
        let seed = try SeedTrainFixture()
        let heads = try SeedTrainFixture.names.map { try seed[$0].repository.git("rev-parse", "HEAD") }
        let plan = try relctl(["train", "plan", "v0.2.0", "--workspace", seed.file], in: seed.workspace.url)
        #expect(plan.stdout.contains("after sdk-rust, pins .github/workflows/ci.yml), sdk-kotlin ("), "\(plan.stdout)")
        #expect(plan.stdout.contains("wave 3: flovyn-server"))
        let dry = try relctl(["train", "run", "v0.2.0", "--workspace", seed.file, "--dry-run"], in: seed.workspace.url)
        #expect(dry.status == 0, "\(dry)")
        #expect(dry.stderr.contains(#"sdk-python: would pin .github/workflows/ci.yml:4: v0.1.0 → v0.2.0"#))
        #expect(try SeedTrainFixture.names.map { try seed[$0].repository.git("rev-parse", "HEAD") } == heads)
        #expect(try seed["sdk-python"].repository.git("status", "--porcelain").isEmpty)

        // A second FFI_VERSION line in sdk-kotlin's CI: the pattern matches twice.
        let kotlin = seed["sdk-kotlin"]
        let ci = try kotlin.repository.directory.read(".github/workflows/ci.yml")
        try kotlin.repository.commit(
            "ci: a second job",
            files: [".github/workflows/ci.yml": ci + "  other:\n    env:\n      FFI_VERSION: \"v0.1.0\"\n"])
        try kotlin.repository.git("push", "-q", "origin", "main")
        for arguments in [["--dry-run"], []] {
            let bad = try relctl(
                ["train", "run", "v0.2.0", "--workspace", seed.file] + arguments, in: seed.workspace.url)
            #expect(bad.status == 2, "\(bad)")
            #expect(
                bad.stderr.contains("[[repo]] `sdk-kotlin`: pin in \(kotlin.url.path)/.github/workflows/ci.yml"),
                "\(bad.stderr)")
            #expect(bad.stderr.contains("matches 2 times (lines 4, 13)"), "\(bad.stderr)")
        }
        for name in SeedTrainFixture.names {
            #expect(try seed[name].remoteTags().isEmpty && seed[name].localTags().isEmpty)
        }
        #expect(
            try seed["sdk-python"].repository.git("log", "-1", "--format=%s") == "feat: the sdk-python part",
            "no pin commit anywhere")
    }

    @Test func aDryRunWithACheckFailureAndBadInputExitsOne() throws {
        let seed = try SeedTrainFixture()
        // sdk-python's manifest says 0.3.0 (a check fails, exit 1); the server's config is broken (exit 2).
        try seed["sdk-python"].repository.commit("chore: 0.3.0", files: ["VERSION": "0.3.0\n"])
        try seed["sdk-python"].repository.git("push", "-q", "origin", "main")
        try seed["flovyn-server"].repository.commit(
            "chore: typo", files: ["relctl.toml": "[project]\nname = \"flovyn-server\"\nnmae = \"x\"\n"])
        try seed["flovyn-server"].repository.git("push", "-q", "origin", "main")
        let dry = try relctl(["train", "run", "v0.2.0", "--workspace", seed.file, "--dry-run"], in: seed.workspace.url)
        #expect(dry.status == 1, "\(dry)")
        #expect(dry.stderr.contains("sdk-python: "))
        #expect(dry.stderr.contains("flovyn-server: "))
        #expect(dry.stderr.contains("nmae"))
    }

    /// `--set-version` runs `relctl bump --set VERSION --write` (issue 12) in each repository.
    /// Unconditional: a relctl without `bump --set` fails here (TestHarnessTests shows it does).
    @Test func setVersionCommitsTheManifestsWithThePins() throws {
        let seed = try SeedTrainFixture(version: "0.1.0")
        let result = try relctl(
            ["train", "run", "v0.2.0", "--workspace", seed.file, "--set-version"], in: seed.workspace.url)
        #expect(result.status == 0, "\(result)")
        #expect(try seed["sdk-rust"].remoteGit("show", "v0.2.0:Cargo.toml").contains(#"version = "0.2.0""#))
        for name in SeedTrainFixture.sdks {
            #expect(try seed[name].remoteGit("show", "v0.2.0:VERSION") == "0.2.0")
            let files = try seed[name].remoteGit("show", "--name-only", "--format=", "v0.2.0^{commit}")
            #expect(
                files.split(separator: "\n").sorted() == [".github/workflows/ci.yml", "VERSION"],
                "one commit with pins and version")
        }
        #expect(
            try seed["flovyn-server"].remoteGit("log", "-1", "--format=%s", "v0.2.0^{commit}")
                == "chore(release): set version 0.2.0 for v0.2.0")
    }
}
