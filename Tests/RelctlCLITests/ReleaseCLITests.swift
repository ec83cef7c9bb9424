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

/// The parts of `relctl release --json` these tests read.
struct PlanDocument: Decodable {
    struct Artifact: Decodable { var name: String; var size: Int; var sha256: String; var target: String }
    struct Stage: Decodable { var name: String; var status: String }
    var ok: Bool
    var dryRun: Bool
    var tag: String
    var artifacts: [Artifact]
    var notes: String?
    var tagMessage: String?
    var problems: [String]
    var stages: [Stage]
    var scratch: String?
    var tagCreated: Bool
    var tagPushed: Bool
}

@Suite("relctl release", .serialized, .timeLimit(.minutes(45)), .removesTemporaries)
struct ReleaseCLITests {
    @Test func dryRunRunsEverythingAndLeavesNoTrace() throws {
        let fixture = try ReleaseFixture()
        let before = try fixture.statusIncludingIgnored()
        let result = try relctl(["release", "v1.0.0", "--dry-run", "--push", "--json"], in: fixture.url)
        #expect(result.status == 0, "\(result)")
        let plan = try JSONDecoder().decode(PlanDocument.self, from: Data(result.stdout.utf8))
        #expect(plan.ok && plan.dryRun)
        #expect(
            plan.artifacts.map(\.name) == [
                "demo-v1.0.0-aarch64-unknown-linux-gnu.tar.gz", "demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz",
            ])
        #expect(plan.artifacts.allSatisfy { $0.sha256.count == 64 && $0.size > 0 })
        #expect(plan.notes?.contains("say hello") == true)
        #expect(plan.tagMessage?.contains(plan.artifacts[0].sha256) == true)
        #expect(plan.stages.first { $0.name == "tag" }?.status == "ok")
        #expect(plan.stages.first { $0.name == "push" }?.status == "ok", "push --dry-run to the real remote")
        #expect(!plan.tagCreated && !plan.tagPushed)
        #expect(plan.scratch == nil)
        // No trace: same status (ignored files included), no dist/, no tag anywhere, no lock.
        #expect(try fixture.statusIncludingIgnored() == before)
        #expect(!fixture.repository.directory.exists("dist"))
        #expect(!fixture.repository.directory.exists("out"))
        #expect(try fixture.localTags().isEmpty)
        #expect(try fixture.remoteTags().isEmpty)
        #expect(!fixture.repository.directory.exists(".git/relctl-release.lock"))
    }

    @Test func dryRunPrintsAReadablePlanAndKeepsScratchOnRequest() throws {
        let fixture = try ReleaseFixture()
        let human = try relctl(["release", "v1.0.0", "--dry-run"], in: fixture.url)
        #expect(human.status == 0, "\(human)")
        #expect(human.stderr.contains("would create annotated tag v1.0.0"))
        #expect(human.stderr.contains("demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz"))
        #expect(human.stderr.contains("The real run would succeed: relctl release v1.0.0\n"))
        // The command to run next keeps the dry run's selection, quoted for the shell.
        let selected = try relctl(
            ["release", "v1.0.0", "--dry-run", "--push", "--target", "x86_64-*"], in: fixture.url)
        #expect(
            selected.stderr.contains("The real run would succeed: relctl release v1.0.0 --push --target 'x86_64-*'\n"),
            "\(selected)")
        #expect(human.stdout.isEmpty)

        let kept = try relctl(["release", "v1.0.0", "--dry-run", "--keep", "--json"], in: fixture.url)
        let plan = try JSONDecoder().decode(PlanDocument.self, from: Data(kept.stdout.utf8))
        let scratch = try #require(plan.scratch)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        // A kept folder is output, not a leftover: a later run, which reclaims what dead runs
        // left in $TMPDIR, does not take it.
        #expect(try relctl(["release", "v1.0.0", "--dry-run"], in: fixture.url).status == 0)
        #expect(FileManager.default.fileExists(atPath: scratch), "the kept scratch folder survives a later run")
        let sums = try sh("cd */dist && sha256sum -c SHA256SUMS", in: URL(fileURLWithPath: scratch))
        #expect(sums.status == 0, "\(sums)")
    }

    @Test func realRunTagsPushesAndWritesACompleteDist() throws {
        let fixture = try ReleaseFixture()
        let dry = try relctl(["release", "v1.0.0", "--dry-run", "--json"], in: fixture.url)
        let predicted = try JSONDecoder().decode(PlanDocument.self, from: Data(dry.stdout.utf8))
        let result = try relctl(["release", "v1.0.0", "--push"], in: fixture.url)
        #expect(result.status == 0, "\(result)")
        #expect(try fixture.repository.git("cat-file", "-t", "v1.0.0") == "tag")
        #expect(
            try fixture.remoteGit("cat-file", "-t", "v1.0.0").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == "tag")
        #expect(
            try fixture.repository.git("rev-parse", "v1.0.0^{commit}") == fixture.repository.git("rev-parse", "HEAD"))
        let message = try fixture.repository.git("tag", "-l", "--format=%(contents)", "v1.0.0")
        #expect(message.contains("demo v1.0.0") && message.contains("demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz"))

        let dist = fixture.url.appendingPathComponent("dist")
        let names = try FileManager.default.contentsOfDirectory(atPath: dist.path).sorted()
        #expect(
            names == [
                "RELEASE_NOTES.md", "SHA256SUMS",
                "demo-v1.0.0-aarch64-unknown-linux-gnu.cdx.json",
                "demo-v1.0.0-aarch64-unknown-linux-gnu.tar.gz", "demo-v1.0.0-aarch64-unknown-linux-gnu.tar.gz.sha256",
                "demo-v1.0.0-x86_64-unknown-linux-gnu.cdx.json",
                "demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz", "demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz.sha256",
                "manifest.json",
            ])
        #expect(try sh("sha256sum -c SHA256SUMS", in: dist).status == 0)
        #expect(try sh("sha256sum -c demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz.sha256", in: dist).status == 0)
        let manifest = try #require(try ReleaseManifest.read(in: dist))
        #expect(manifest.tag == "v1.0.0" && manifest.artifacts.count == 2)
        // Reproducible archives: the dry run predicted the real run's bytes exactly.
        #expect(manifest.artifacts.map(\.sha256) == predicted.artifacts.map(\.sha256))
        #expect(try fixture.repository.directory.read("dist/RELEASE_NOTES.md").contains("say it louder"))
        #expect(!fixture.repository.directory.exists(".git/relctl-release.lock"))

        // A second run refuses: the tag exists (locally and remotely) and dist/ holds it.
        let again = try relctl(["release", "v1.0.0", "--push"], in: fixture.url)
        #expect(again.status == 1)
        #expect(again.stderr.contains("tag v1.0.0 already exists locally"))
        #expect(again.stderr.contains("already exists on `origin`"))
        #expect(again.stderr.contains("already holds files of v1.0.0"))
    }

    @Test func aTagOnlyOnTheRemoteIsCaughtInPreflight() throws {
        let fixture = try ReleaseFixture()
        try fixture.repository.git("tag", "v1.0.0")
        try fixture.repository.git("push", "-q", "origin", "v1.0.0")
        try fixture.repository.git("tag", "-d", "v1.0.0")
        for arguments in [["release", "v1.0.0"], ["release", "v1.0.0", "--dry-run"]] {
            let result = try relctl(arguments, in: fixture.url)
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("tag v1.0.0 already exists on `origin`"))
            #expect(!result.stderr.contains("already exists locally"))
        }
        #expect(!fixture.repository.directory.exists("dist"))
        #expect(try fixture.localTags().isEmpty)
    }

    @Test func dirtyTreeAndWrongBranchAreBothReported() throws {
        let fixture = try ReleaseFixture()
        try fixture.repository.git("checkout", "-q", "-b", "feature")
        try fixture.repository.directory.write("README.md", "changed\n")
        try fixture.repository.directory.write("notes.txt", "untracked\n")
        let result = try relctl(["release", "v1.0.0"], in: fixture.url)
        #expect(result.status == 1, "\(result)")
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("relctl: error:") }
        #expect(errors.count == 2, "\(result)")
        #expect(result.stderr.contains("uncommitted changes (M README.md, ?? notes.txt)"))
        #expect(result.stderr.contains("on branch `feature`"))
        #expect(!fixture.repository.directory.exists("dist"))
        #expect(!fixture.repository.directory.exists("out"), "nothing is built before preflight passes")
    }

    @Test func aRejectedPushLeavesNoLocalTag() throws {
        let fixture = try ReleaseFixture()
        try fixture.installRemoteHook("echo 'tags are frozen here' >&2; exit 1")
        let result = try relctl(["release", "v1.0.0", "--push"], in: fixture.url)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("rejected the push of tag v1.0.0"))
        #expect(result.stderr.contains("the local tag v1.0.0 was deleted"))
        #expect(result.stderr.contains("tags are frozen here"))
        #expect(try fixture.localTags().isEmpty)
        #expect(try fixture.remoteTags().isEmpty)
        let left =
            (try folderNames(fixture.url.appendingPathComponent("dist").path))
        #expect(left.isEmpty, "nothing is published when the push fails: \(left)")
    }

    @Test func aHeldLockStopsASecondReleaseAndAStaleOneIsTakenOver() throws {
        let fixture = try ReleaseFixture()
        let host = ProcessInfo.processInfo.hostName
        let lock = ".git/relctl-release.lock"
        try fixture.repository.directory.write(
            lock, #"{"pid":\#(getpid()),"host":"\#(host)","tag":"v0.9.0","started":"2026-01-01T00:00:00Z"}"#)
        let held = try relctl(["release", "v1.0.0"], in: fixture.url)
        #expect(held.status == 1, "\(held)")
        #expect(held.stderr.contains("another release is running: relctl release v0.9.0 (pid \(getpid()) on \(host)"))
        #expect(try fixture.localTags().isEmpty)

        // A finished process's pid on this host: the lock is stale.
        let gone = try sh("sh -c 'echo $$'").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try fixture.repository.directory.write(
            lock, #"{"pid":\#(gone),"host":"\#(host)","tag":"v0.9.0","started":"2026-01-01T00:00:00Z"}"#)
        let stale = try relctl(["release", "v1.0.0"], in: fixture.url)
        #expect(stale.status == 0, "\(stale)")
        #expect(stale.stderr.contains("took over a stale release lock"))
        #expect(try fixture.localTags() == ["v1.0.0"])
        #expect(!fixture.repository.directory.exists(lock))
    }

    @Test func aFailingBuildOrBeforeHookLeavesNoTagAndNoFiles() throws {
        let hook = try ReleaseFixture(release: #"before = ["echo preparing $RELCTL_VERSION", "exit 4"]"#)
        let hooked = try relctl(["release", "v1.0.0"], in: hook.url)
        #expect(hooked.status == 1, "\(hooked)")
        #expect(hooked.stderr.contains("stage `before-hooks` failed"))
        #expect(hooked.stderr.contains("exit 4"))
        #expect(try hook.localTags().isEmpty)

        let broken = try ReleaseFixture(buildCommand: "echo 'cc: fatal error' >&2; exit 3")
        let built = try relctl(["release", "v1.0.0", "--push"], in: broken.url)
        #expect(built.status == 1, "\(built)")
        #expect(built.stderr.contains("stage `build` failed"))
        #expect(built.stderr.contains("cc: fatal error"))
        #expect(try broken.localTags().isEmpty)
        #expect(try broken.remoteTags().isEmpty)
        #expect(!broken.repository.directory.exists("dist"))
    }

    @Test func badInputAndManifestMismatch() throws {
        let fixture = try ReleaseFixture()
        let syntax = try relctl(["release", "1.0"], in: fixture.url)
        #expect(syntax.status == 2, "\(syntax)")
        let mismatch = try relctl(["release", "v1.1.0", "--dry-run"], in: fixture.url)
        #expect(mismatch.status == 1, "\(mismatch)")
        #expect(mismatch.stderr.contains("VERSION:1: holds version 1.0.0, but tag v1.1.0 says 1.1.0"))
        #expect(mismatch.stderr.contains("The real run would FAIL"))
    }

    @Test func aDryRunPushesToARelativeRemoteFromTheProject() throws {
        let fixture = try ReleaseFixture()
        // `../name` is relative to the project, not to the scratch clone the dry run works in.
        try fixture.repository.git("remote", "set-url", "origin", "../\(fixture.remote.url.lastPathComponent)")
        let result = try relctl(["release", "v1.0.0", "--dry-run", "--push"], in: fixture.url)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("would push v1.0.0 to origin"))
        #expect(try fixture.remoteTags().isEmpty)
    }

    @Test func unpushedCommitsAreAWarningNotAFailure() throws {
        let fixture = try ReleaseFixture()
        try fixture.repository.git("branch", "-q", "--set-upstream-to=origin/main")
        try fixture.repository.commit("docs: not pushed yet")
        let result = try relctl(["release", "v1.0.0", "--preflight-only"], in: fixture.url)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("HEAD has 1 commit(s) not on origin/main"))
    }

    @Test func prebuiltArtifactsAndTargetSelection() throws {
        // The configured build would fail: with --artifacts it must not run at all.
        let fixture = try ReleaseFixture(buildCommand: "echo 'must not run' >&2; exit 9")
        let prebuilt = try TemporaryDirectory(prefix: "relctl-prebuilt")
        for triple in ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu"] {
            try prebuilt.write("out/\(triple)/hello", "#!/bin/sh\necho prebuilt \(triple)\n", executable: true)
        }
        let result = try relctl(
            ["release", "v1.0.0", "--artifacts", prebuilt.path, "--target", "x86_64*"], in: fixture.url)
        #expect(result.status == 0, "\(result)")
        #expect(!result.stderr.contains("must not run"))
        let dist = fixture.url.appendingPathComponent("dist")
        let archives = try FileManager.default.contentsOfDirectory(atPath: dist.path).filter { $0.hasSuffix(".tar.gz") }
        #expect(archives == ["demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz"])
        let listed = try sh(
            "tar -xOzf demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz demo-v1.0.0-x86_64-unknown-linux-gnu/bin/hello",
            in: dist)
        #expect(listed.stdout.contains("prebuilt x86_64-unknown-linux-gnu"), "\(listed)")

        let missing = try relctl(["release", "v1.0.0", "--dry-run", "--artifacts", fixture.url.path], in: fixture.url)
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("prebuilt binaries missing"))
    }

    @Test func githubActionsGetsGroupsAndErrorAnnotations() throws {
        let fixture = try ReleaseFixture()
        try fixture.repository.directory.write("README.md", "changed\n")
        let result = try relctl(
            ["release", "v1.0.0", "--dry-run"], in: fixture.url, environment: ["GITHUB_ACTIONS": "true"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("::group::relctl: build"))
        #expect(result.stderr.contains("::endgroup::"))
        #expect(result.stderr.contains("::error title=relctl release::"))
        let opened = result.stderr.components(separatedBy: "::group::").count
        let closed = result.stderr.components(separatedBy: "::endgroup::").count
        #expect(opened == closed, "every group is closed once")
    }

    @Test func ctrlCDuringThePushLeavesNoTag() throws {
        let fixture = try ReleaseFixture()
        let gate = try TemporaryDirectory(prefix: "relctl-gate")
        let open = gate.url.appendingPathComponent("open").path
        // The remote holds the push until the test opens the gate (at most 10 minutes), so the
        // interrupt lands while the new tag exists locally however late a busy machine runs the poll.
        try fixture.installRemoteHook(
            "i=0; while [ ! -e '\(open)' ] && [ $i -lt 6000 ]; do sleep 0.1; i=$((i+1)); done; exit 1")
        let process = Process()
        process.executableURL = relctlBinary
        process.arguments = ["release", "v1.0.0", "--push"]
        process.currentDirectoryURL = fixture.url
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let sawTag = MatrixFixtures.waitUntil(seconds: 300) {
            (try? fixture.localTags())?.contains("v1.0.0") == true
        }
        #expect(sawTag, "the release reached the push")
        kill(process.processIdentifier, SIGINT)
        _ = FileManager.default.createFile(atPath: open, contents: nil)
        try process.waitForExit()
        #expect(process.terminationStatus == 130)
        #expect(try fixture.localTags().isEmpty)
        #expect(!fixture.repository.directory.exists(".git/relctl-release.lock"))
        let left =
            (try folderNames(fixture.url.appendingPathComponent("dist").path))
        #expect(left.isEmpty, "\(left)")
    }
}

extension ReleaseCLITests {
    @Test func aPrereleaseInDistDoesNotBlockTheFinalRelease() throws {
        let fixture = try ReleaseFixture(version: "1.0.0-rc.1")
        let candidate = try relctl(["release", "v1.0.0-rc.1"], in: fixture.url)
        #expect(candidate.status == 0, "\(candidate)")
        try fixture.repository.commit("chore: 1.0.0", files: ["VERSION": "1.0.0\n"])
        // `demo-v1.0.0-rc.1-….tar.gz` contains "v1.0.0" but is not one of v1.0.0's archives.
        let final = try relctl(["release", "v1.0.0", "--dry-run"], in: fixture.url)
        #expect(final.status == 0, "\(final)")
        #expect(!final.stderr.contains("already holds files of v1.0.0"))
        // The final release's own archive name is still caught.
        try fixture.repository.directory.write("dist/demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz.sha256", "x\n")
        let clash = try relctl(["release", "v1.0.0", "--preflight-only"], in: fixture.url)
        #expect(clash.status == 1, "\(clash)")
        #expect(
            clash.stderr.contains("already holds files of v1.0.0 (demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz.sha256)"))
    }

    @Test func aDryRunsNotesLinkToTheRealRemoteLikeTheRealRun() throws {
        let fixture = try ReleaseFixture()
        // The notes' links come from the remote's URL; pushes still reach the bare remote.
        try fixture.repository.git("remote", "set-url", "origin", "git@github.com:acme/demo.git")
        try fixture.repository.git("config", "url.\(fixture.remote.path).insteadOf", "git@github.com:acme/demo.git")
        let dry = try relctl(["release", "v1.0.0", "--dry-run", "--push", "--json"], in: fixture.url)
        #expect(dry.status == 0, "\(dry)")
        let plan = try JSONDecoder().decode(PlanDocument.self, from: Data(dry.stdout.utf8))
        #expect(plan.notes?.contains("](https://github.com/acme/demo/commit/") == true, "\(plan.notes ?? "")")
        #expect(plan.notes?.contains("https://github.com/acme/demo/releases/download/v1.0.0/") == true)

        let real = try relctl(["release", "v1.0.0", "--json"], in: fixture.url)
        let released = try JSONDecoder().decode(PlanDocument.self, from: Data(real.stdout.utf8))
        #expect(released.notes == plan.notes, "the dry run shows the notes the real run writes")
    }

    @Test func aTagWithASlashLeavesNoStagingFolderBehind() throws {
        let fixture = try ReleaseFixture()
        var config = try fixture.repository.directory.read("relctl.toml")
        config = config.replacingOccurrences(
            of: "name = \"demo\"", with: "name = \"demo\"\ntag-format = \"release/{version}\"")
        config = config.replacingOccurrences(
            of: "[archive]", with: "[archive]\nname = \"{project}-{version}-{target}\"")
        try fixture.repository.commit("chore: slash tags", files: ["relctl.toml": config])
        let result = try relctl(["release", "release/1.0.0"], in: fixture.url)
        #expect(result.status == 0, "\(result)")
        let dist = try FileManager.default.contentsOfDirectory(atPath: fixture.url.appendingPathComponent("dist").path)
        #expect(!dist.contains { $0.hasPrefix(".") }, "\(dist)")
    }

    @Test func ctrlCDuringTheBuildLeavesNoDistFolder() throws {
        // Long enough that a late poll on a busy machine still finds the build running; the
        // interrupt ends it.
        let fixture = try ReleaseFixture(buildCommand: "sleep 600")
        let process = Process()
        process.executableURL = relctlBinary
        process.arguments = ["release", "v1.0.0"]
        process.currentDirectoryURL = fixture.url
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let dist = fixture.url.appendingPathComponent("dist").path
        let staging = MatrixFixtures.waitUntil(seconds: 300) {
            ((try? FileManager.default.contentsOfDirectory(atPath: dist)) ?? []).contains {
                $0.hasPrefix(".relctl-staging-")
            }
        }
        #expect(staging, "the release reached the build")
        kill(process.processIdentifier, SIGINT)
        try process.waitForExit()
        #expect(process.terminationStatus == 130)
        #expect(!FileManager.default.fileExists(atPath: dist), "the dist/ made for staging is gone too")
        #expect(!fixture.repository.directory.exists(".git/relctl-release.lock"))
        #expect(try fixture.localTags().isEmpty)
    }

    @Test func aDryRunChecksOutTheSubmodulesTheProjectHas() throws {
        let fixture = try ReleaseFixture()
        let library = try GitRepository()
        try library.commit("lib", files: ["lib.txt": "LIB\n"])
        try fixture.repository.git(
            "-c", "protocol.file.allow=always", "submodule", "add", "-q", library.url.path, "vendor/lib")
        let config = try fixture.repository.directory.read("relctl.toml")
            .replacingOccurrences(of: #"files = ["README.md"]"#, with: #"files = ["README.md", "vendor/lib/lib.txt"]"#)
        try fixture.repository.commit("chore: vendor lib", files: ["relctl.toml": config])
        let dry = try relctl(["release", "v1.0.0", "--dry-run", "--json"], in: fixture.url)
        #expect(dry.status == 0, "\(dry)")
        let real = try relctl(["release", "v1.0.0", "--json"], in: fixture.url)
        #expect(real.status == 0, "\(real)")
        let predicted = try JSONDecoder().decode(PlanDocument.self, from: Data(dry.stdout.utf8)).artifacts.map(\.sha256)
        let released = try JSONDecoder().decode(PlanDocument.self, from: Data(real.stdout.utf8)).artifacts.map(\.sha256)
        #expect(!predicted.isEmpty && predicted == released)
    }

    @Test func aDryRunDoesNotEvenRefreshTheIndex() throws {
        let fixture = try ReleaseFixture()
        // A touched file makes `git status` want to rewrite .git/index with fresh stat data.
        let readme = fixture.url.appendingPathComponent("README.md")
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: readme.path)
        let index = fixture.url.appendingPathComponent(".git/index").path
        let before = try Data(contentsOf: URL(fileURLWithPath: index))
        let result = try relctl(["release", "v1.0.0", "--dry-run"], in: fixture.url)
        #expect(result.status == 0, "\(result)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: index)) == before)
    }
}

@Suite("relctl release signing", .serialized, .timeLimit(.minutes(45)), .removesTemporaries)
struct ReleaseSigningTests {
    @Test func signTrueMakesASignedTagInDryRunAndRealRun() throws {
        let fixture = try ReleaseFixture(release: "sign = true")
        let key = fixture.repository.directory.url.deletingLastPathComponent().appendingPathComponent(
            "relctl-test-key-\(UUID().uuidString.prefix(6))")
        defer {
            try? FileManager.default.removeItem(at: key); try? FileManager.default.removeItem(atPath: key.path + ".pub")
        }
        #expect(try run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", key.path]).status == 0)
        try fixture.repository.git("config", "gpg.format", "ssh")
        try fixture.repository.git("config", "user.signingkey", key.path)

        let dry = try relctl(["release", "v1.0.0", "--dry-run"], in: fixture.url)
        #expect(dry.status == 0, "\(dry)")
        #expect(dry.stderr.contains("would create signed annotated tag v1.0.0"))
        #expect(try fixture.localTags().isEmpty)

        let real = try relctl(["release", "v1.0.0"], in: fixture.url)
        #expect(real.status == 0, "\(real)")
        #expect(try fixture.repository.git("cat-file", "-p", "v1.0.0").contains("-----BEGIN SSH SIGNATURE-----"))

        // A gpg key that does not exist: the dry run predicts the real run's failure.
        let broken = try ReleaseFixture(release: "sign = true")
        try broken.repository.git("config", "user.signingkey", "DEADBEEF00000000")
        let failing = try relctl(["release", "v1.0.0", "--dry-run"], in: broken.url)
        #expect(failing.status == 1, "\(failing)")
        #expect(failing.stderr.contains("stage `tag` failed"))
        #expect(failing.stderr.contains("signing is on"))
    }
}
