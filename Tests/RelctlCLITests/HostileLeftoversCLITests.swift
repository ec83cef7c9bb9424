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

/// The last items of the hostile-input audit (issue 18), each through the built binary as a
/// user would meet it: links written through, runaway patterns stopped, notes that stay whole,
/// shell-quoted placeholders, files relctl did not create left alone, honest dry runs, files
/// that change while packaged, and messages that say what is really wrong.
@Suite("hostile input: leftovers", .timeLimit(.minutes(45)), .removesTemporaries)
struct HostileLeftoversCLITests {
    @Test func bumpWritesThroughALinkAndKeepsTheFileAndItsMode() throws {
        let fixture = try ReleaseFixture()
        let root = fixture.url
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("meta"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(
            at: root.appendingPathComponent("VERSION"), to: root.appendingPathComponent("meta/VERSION"))
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o640], ofItemAtPath: root.appendingPathComponent("meta/VERSION").path)
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("VERSION").path, withDestinationPath: "meta/VERSION")
        try fixture.repository.git("add", "-A")
        try fixture.repository.git("commit", "-q", "-m", "chore: version file behind a link")

        let bump = try relctl(["bump", "--set", "1.1.0", "--write", "--json"], in: root)
        #expect(bump.status == 0, "\(bump)")
        #expect(bump.stderr.contains("VERSION is a link: writing the version through it to meta/VERSION"), "\(bump)")
        #expect(bump.stdout.contains("\"meta/VERSION\""), "the file really written is reported: \(bump.stdout)")
        let link = try FileManager.default.destinationOfSymbolicLink(
            atPath: root.appendingPathComponent("VERSION").path)
        #expect(link == "meta/VERSION", "the link was replaced")
        #expect(try fixture.repository.directory.read("meta/VERSION") == "1.1.0\n")
        let mode =
            try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent("meta/VERSION").path)[
                .posixPermissions] as? Int
        #expect(mode == 0o640, "mode \(String(mode ?? 0, radix: 8))")

        // A link out of the repository is refused before anything is written.
        try withTemporaryDirectory { outside in
            let target = try outside.write("VERSION", "1.1.0\n")
            try FileManager.default.removeItem(at: root.appendingPathComponent("VERSION"))
            try FileManager.default.createSymbolicLink(
                atPath: root.appendingPathComponent("VERSION").path, withDestinationPath: target.path)
            let refused = try relctl(["bump", "--set", "1.2.0", "--write"], in: root)
            #expect(refused.status == 2, "\(refused)")
            #expect(
                refused.stderr.contains("`VERSION` passes through the link") && refused.stderr.contains(target.path)
                    && refused.stderr.contains("leads outside"), "\(refused)")
            #expect(try outside.read("VERSION") == "1.1.0\n")
            #expect(
                (try? FileManager.default.destinationOfSymbolicLink(
                    atPath: root.appendingPathComponent("VERSION").path)) == target.path)
        }
    }

    @Test func aRegexManifestIsBoundedInSizeAndInWork() throws {
        try withTemporaryDirectory { dir in
            try dir.write(
                "relctl.toml",
                """
                [project]
                name = "x"
                [[version]]
                path = "sdk/version.txt"
                kind = "regex"
                pattern = '(?<version>(a+)+)b'
                """)
            try dir.write("sdk/version.txt", String(repeating: "a", count: 64) + "\n")
            // Exponential backtracking: without a bound this runs for longer than the universe.
            // `timeout` is the hang guard; relctl's own exit 2 and message prove its bound stopped
            // the match (no wall-clock check: a loaded machine stretches any, issue 62).
            let runaway = try sh("timeout 120 '\(relctlBinary.path)' validate-tag v1.0.0", in: dir.url)
            #expect(runaway.status == 2, "\(runaway)")
            #expect(
                runaway.stderr.contains("sdk/version.txt: pattern `(?<version>(a+)+)b` ran for more than 3 s"),
                "\(runaway)")

            try dir.write(
                "relctl.toml",
                """
                [project]
                name = "x"
                [[version]]
                path = "sdk/version.txt"
                kind = "regex"
                pattern = 'VERSION = "(?<version>[^"]+)"'
                """)
            try dir.write("sdk/version.txt", String(repeating: "x", count: 2 << 20) + "\nVERSION = \"1.0.0\"\n")
            let large = try relctl(["validate-tag", "v1.0.0"], in: dir.url)
            #expect(large.status == 2, "\(large)")
            #expect(large.stderr.contains("sdk/version.txt: is 2.00 MiB, more than relctl searches with a `pattern`"))
        }
    }

    @Test func aBreakingChangeWithAnOpenFenceOrCommentLeavesTheRestOfTheNotes() throws {
        let fixture = try ReleaseFixture()
        try fixture.repository.commit(
            "feat!: new config format\n\nBREAKING CHANGE: convert your config:\n```sh\nrelctl migrate",
            files: ["a": "1"])
        try fixture.repository.commit(
            "refactor!: drop the old API\n\nBREAKING-CHANGE: <!-- the old API is gone", files: ["b": "1"])
        try fixture.repository.commit("fix: keep the last section visible", files: ["c": "1"])
        let notes = try relctl(["notes"], in: fixture.url)
        #expect(notes.status == 0, "\(notes)")
        try fixture.repository.directory.write("NOTES.md", notes.stdout)
        let html = try run("cmark", [fixture.url.appendingPathComponent("NOTES.md").path])
        #expect(html.status == 0, "\(html)")
        // Every section after the breaking changes is still rendered as Markdown.
        #expect(html.stdout.contains("<h3>Features</h3>"), "\(html.stdout)")
        #expect(html.stdout.contains("<h3>Bug fixes</h3>"), "\(html.stdout)")
        #expect(html.stdout.contains("<li>keep the last section visible"), "\(html.stdout)")
        // The migration notes are still there, as text and code.
        #expect(html.stdout.contains("<code class=\"language-sh\">relctl migrate"), "\(html.stdout)")
        #expect(html.stdout.contains("&lt;!-- the old API is gone"), "\(html.stdout)")
    }

    @Test func placeholdersInShellCommandsStayOneLiteralWord() throws {
        let name = "it's $(touch pwned-$$) `touch pwned2`; touch pwned3 #"
        let build =
            #"mkdir -p out/{target} && echo {project} > out/{target}/plain && echo "{project}" > out/{target}/double && echo '{project}' > out/{target}/single && printf '#!/bin/sh\n' > out/{target}/hello && chmod +x out/{target}/hello"#
        let fixture = try ReleaseFixture(name: name, buildCommand: build)
        let result = try relctl(["build", "--target", "x86_64-unknown-linux-gnu"], in: fixture.url)
        #expect(result.status == 0, "\(result)")
        let files = try FileManager.default.contentsOfDirectory(atPath: fixture.url.path)
        #expect(!files.contains { $0.hasPrefix("pwned") }, "the project name ran as a command: \(files)")
        for quoting in ["plain", "double", "single"] {
            #expect(
                try fixture.repository.directory.read("out/x86_64-unknown-linux-gnu/\(quoting)") == name + "\n",
                "\(quoting)")
        }
    }

    @Test func whatAppearsAtAnArchiveNameDuringTheReleaseIsLeftAlone() throws {
        let archive = "dist/demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz"
        let fixture = try ReleaseFixture(
            release: "before = [\"mkdir -p \(archive) && echo keep > \(archive)/precious\"]")
        let result = try relctl(["release", "v1.0.0"], in: fixture.url)
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stderr.contains("\(archive): a folder appeared here during the release"), "\(result)")
        #expect(try fixture.repository.directory.read(archive + "/precious") == "keep\n", "relctl deleted it")
        #expect(try fixture.localTags().isEmpty, "the tag stays although the release failed")
        let dist = try FileManager.default.contentsOfDirectory(atPath: fixture.url.appendingPathComponent("dist").path)
        #expect(dist.sorted() == ["demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz"], "\(dist)")
    }

    @Test func aDryRunPushSaysItCannotSeeServerHooks() throws {
        let fixture = try ReleaseFixture()
        try fixture.installRemoteHook("echo 'tags are frozen' >&2; exit 1")
        let dryRun = try relctl(["release", "v1.0.0", "--dry-run", "--push", "--json"], in: fixture.url)
        #expect(dryRun.status == 0, "\(dryRun)")
        #expect(dryRun.stderr.contains("the dry run cannot see origin's server-side hooks"), "\(dryRun)")
        let plan = try JSONSerialization.jsonObject(with: Data(dryRun.stdout.utf8)) as? [String: Any]
        let warnings = plan?["warnings"] as? [String] ?? []
        #expect(warnings.contains { $0.contains("cannot see origin's server-side hooks") }, "\(warnings)")
        // And rightly so: the real push is refused by the hook.
        let real = try relctl(["release", "v1.0.0", "--push"], in: fixture.url)
        #expect(real.status == 1 && real.stderr.contains("tags are frozen"), "\(real)")
    }

    @Test func aFileThatGrowsWhilePackagedIsAnErrorNotAPrefix() throws {
        let fixture = try ReleaseFixture()
        #expect(try relctl(["build"], in: fixture.url).status == 0)
        let binary = fixture.url.appendingPathComponent("out/x86_64-unknown-linux-gnu/hello")
        #expect(try sh("head -c 32000000 /dev/zero > '\(binary.path)'").status == 0)
        // A build still writing its output: appends for as long as the packaging runs.
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", "while :; do echo more >> '\(binary.path)'; done"]
        try writer.run()
        defer {
            // SIGKILL: a child of the test runner may inherit SIGTERM blocked.
            kill(writer.processIdentifier, SIGKILL)
            try? writer.waitForExit()
        }
        let result = try relctl(
            ["package", "--tag", "v1.0.0", "--target", "x86_64-unknown-linux-gnu"], in: fixture.url)
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stderr.contains("\(binary.path) changed size while it was being archived"), "\(result)")
        let dist =
            (try folderNames(fixture.url.appendingPathComponent("dist").path))
        #expect(!dist.contains { $0.contains(".tar.gz") }, "\(dist)")
    }

    @Test(.requires(.tmpfsMount))
    func aFullDiskIsReportedAsAFullDisk() throws {
        try withTemporaryDirectory { dir in
            let mount = try TmpfsMount(at: dir.url.appendingPathComponent("small"), size: "1m")
            defer { mount.unmount() }
            try dir.write("small/dist/demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz", "archive\n")
            // Fill it up: dd stops at "No space left on device".
            _ = try sh("dd if=/dev/zero of=small/fill bs=4k", in: dir.url)
            let result = try relctl(["checksum", "small/dist"], in: dir.url)
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("No space left on device; free some space"), "\(result)")
            #expect(!result.stderr.contains("writable"), "\(result)")
        }
    }

    /// A binary in a folder only root may read, run as another user: Foundation cannot find its
    /// main bundle there, and creating a URLSession (which reads it) traps. A command that sends
    /// nothing must not create one (it did for a while: `Context` made the HTTP client eagerly).
    @Test func aCommandThatSendsNothingRunsFromAFolderItsUserCannotRead() throws {
        try withTemporaryDirectory { dir in
            // As in a fresh clone under mktemp -d: a private folder, and the binary two levels below.
            let hidden = dir.url.appendingPathComponent("hidden")
            let bin = hidden.appendingPathComponent("bin")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            let binary = bin.appendingPathComponent("relctl")
            // A child copies it: a copy this process wrote could be busy to exec (`writeExecutable`).
            try #require(try run("/bin/cp", [relctlBinary.path, binary.path]).status == 0)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin.path)
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: hidden.path)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path)
            let project = dir.url.appendingPathComponent("project")
            try dir.write("project/relctl.toml", "[project]\nname = \"x\"\n[[version]]\npath = \"VERSION\"\n")
            try dir.write("project/VERSION", "1.0.0\n")
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: project.path)
            let asNobody = try sh(
                "setpriv --reuid=65534 --regid=65534 --clear-groups '\(binary.path)' validate-tag v1.0.0", in: project)
            #expect(asNobody.status == 0, "\(asNobody)")
            #expect(!asNobody.stderr.contains("crashed"), "\(asNobody)")
        }
    }

    @Test func anUnreadableManifestIsNotReportedAsMissing() throws {
        try withTemporaryDirectory { dir in
            try dir.write("relctl.toml", "[project]\nname = \"x\"\n[[version]]\npath = \"sdk/VERSION\"\n")
            try dir.write("sdk/VERSION", "1.0.0\n")
            // The folder may be listed but not entered, by anyone but root.
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o644], ofItemAtPath: dir.url.appendingPathComponent("sdk").path)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path)
            defer {
                try? FileManager.default.setAttributes(
                    [.posixPermissions: 0o755], ofItemAtPath: dir.url.appendingPathComponent("sdk").path)
            }
            let asNobody = try sh(
                "setpriv --reuid=65534 --regid=65534 --clear-groups '\(relctlBinary.path)' validate-tag v1.0.0",
                in: dir.url)
            #expect(asNobody.status == 2, "\(asNobody)")
            #expect(asNobody.stderr.contains("sdk/VERSION: cannot be read: Permission denied"), "\(asNobody)")
            #expect(!asNobody.stderr.contains("not found"), "\(asNobody)")

            // A FIFO and a device are not regular files (and reading them would never end).
            for special in ["fifo", "/dev/zero"] {
                if special == "fifo" { #expect(try sh("mkfifo fifo", in: dir.url).status == 0) }
                try dir.write(
                    "relctl.toml", "[project]\nname = \"x\"\n[[version]]\npath = \"\(special)\"\nkind = \"plain\"\n")
                let result = try sh("timeout 60 '\(relctlBinary.path)' validate-tag v1.0.0", in: dir.url)
                // A FIFO inside is not a regular file; /dev/zero is refused earlier, as outside the project.
                let refusal = special == "fifo" ? "is not a regular file" : "leads outside"
                #expect(result.status == 2 && result.stderr.contains(refusal), "\(special): \(result)")
            }
        }
    }

    @Test func aCorruptLockOrAFolderAtItsPathIsNotAnotherRelease() throws {
        let fixture = try ReleaseFixture()
        let lock = fixture.url.appendingPathComponent(".git/relctl-release.lock")
        try Data("garbage\n".utf8).write(to: lock)
        let garbage = try relctl(["release", "v1.0.0"], in: fixture.url)
        #expect(garbage.status == 1, "\(garbage)")
        #expect(garbage.stderr.contains("the release lock is corrupt"), "\(garbage)")
        #expect(garbage.stderr.contains("rm '\(lock.path)'"), "\(garbage)")
        #expect(!garbage.stderr.contains("another release is running"), "\(garbage)")

        try FileManager.default.removeItem(at: lock)
        try FileManager.default.createDirectory(at: lock, withIntermediateDirectories: true)
        let folder = try relctl(["release", "v1.0.0"], in: fixture.url)
        #expect(folder.status == 1, "\(folder)")
        #expect(folder.stderr.contains("is a folder, not a lock file relctl wrote"), "\(folder)")
        #expect(!folder.stderr.contains("started at the same moment"), "\(folder)")
        #expect(try fixture.localTags().isEmpty)
        // Removing it as the message says lets the release run.
        try FileManager.default.removeItem(at: lock)
        #expect(try relctl(["release", "v1.0.0"], in: fixture.url).status == 0)
    }

    @Test func aTagTooLongForTheFilesNamedAfterItIsRefusedUpFront() throws {
        let version = "1.0.0-" + String(repeating: "a", count: 239)
        let fixture = try ReleaseFixture(version: version)
        let tag = "v" + version
        #expect(tag.utf8.count == 246)
        for arguments in [["validate-tag", tag], ["release", tag, "--dry-run"], ["release", tag]] {
            let result = try relctl(arguments, in: fixture.url)
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(result.stderr.contains("is 246 bytes long"), "\(arguments): \(result)")
            #expect(!result.stderr.contains("file name is invalid"), "\(arguments): \(result)")
        }
    }

    @Test func aHugeProjectNameIsBadInputFoundByCheck() throws {
        let fixture = try ReleaseFixture(name: String(repeating: "x", count: 100_000))
        for arguments in [["check"], ["package", "--tag", "v1.0.0"], ["release", "v1.0.0"]] {
            let result = try relctl(arguments, in: fixture.url)
            #expect(result.status == 2, "\(arguments): \(result.stderr.prefix(600))")
            #expect(
                result.stderr.contains("`project.name` is 100000 bytes"), "\(arguments): \(result.stderr.prefix(600))")
            #expect(result.stderr.utf8.count < 4000, "\(arguments): the name is echoed whole")
        }
        #expect(try fixture.localTags().isEmpty)
    }

    @Test func checkRefusesWhatPackageWouldRefuseLater() throws {
        let fixture = try ReleaseFixture()
        let config = try fixture.repository.directory.read("relctl.toml")
        try fixture.repository.directory.write(
            "relctl.toml", config.replacingOccurrences(of: #"["hello"]"#, with: #"["hello", "hello"]"#))
        let duplicate = try relctl(["check"], in: fixture.url)
        #expect(duplicate.status == 2, "\(duplicate)")
        #expect(
            duplicate.stderr.contains("binary `hello` is listed more than once in [build] binaries"), "\(duplicate)")

        // 240 bytes fit a file name, but not `.NAME.cdx.json.relctl-tmp-N` beside it.
        // `demo-v1.0.0-x86_64-unknown-linux-gnu-` is 37 bytes, `.tar.gz` 7.
        let stem = "{project}-{tag}-{target}-" + String(repeating: "p", count: 240 - 37 - 7)
        try fixture.repository.directory.write(
            "relctl.toml", config.replacingOccurrences(of: "[archive]\n", with: "[archive]\nname = \"\(stem)\"\n"))
        #expect(try relctl(["build"], in: fixture.url).status == 0)
        let check = try relctl(["check"], in: fixture.url)
        #expect(check.status == 2, "\(check)")
        #expect(check.stderr.contains("is 240 bytes; relctl writes files named after it"), "\(check)")
        let package = try relctl(["package", "--tag", "v1.0.0"], in: fixture.url)
        #expect(package.status == 2, "\(package)")
        #expect(package.stderr.contains("is 240 bytes"), "\(package)")
        let dist =
            (try folderNames(fixture.url.appendingPathComponent("dist").path))
        #expect(dist.isEmpty, "\(dist)")
    }
}

/// A small tmpfs for full-disk tests; only root may mount one.
struct TmpfsMount {
    let url: URL

    init(at url: URL, size: String) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let result = try run("mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", url.path])
        guard result.status == 0 else { throw TestFailure("cannot mount a tmpfs: \(result.stderr)") }
        self.url = url
    }

    func unmount() { _ = try? run("umount", [url.path]) }
}
