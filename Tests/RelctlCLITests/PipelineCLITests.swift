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

/// The release pipeline's promises about its own work: how often it starts git, that it never
/// reads back an archive it wrote, that `--jobs` means parallel writes, and that progress moves.
@Suite("release pipeline", .serialized, .timeLimit(.minutes(45)), .removesTemporaries)
struct PipelineCLITests {
    /// A fixture whose build writes `megabytes` of incompressible bytes per target, so each
    /// archive takes long enough to watch.
    static func heavyFixture(targets: [String], megabytes: Int) throws -> ReleaseFixture {
        let build =
            "mkdir -p out/{target} && head -c \(megabytes)M /dev/urandom > out/{target}/hello && chmod +x out/{target}/hello"
        let fixture = try ReleaseFixture(buildCommand: build)
        let extra = targets.dropFirst(2).map { "[[target]]\ntriple = \"\($0)\"\n" }.joined(separator: "\n")
        if !extra.isEmpty {
            let config = try fixture.repository.directory.read("relctl.toml")
            try fixture.repository.commit(
                "chore: more targets",
                files: ["relctl.toml": config.replacingOccurrences(of: "[archive]", with: extra + "\n[archive]")])
        }
        return fixture
    }

    /// 15 git starts before the warm dry run (issue 62, section 3), which adds two: `git diff-index
    /// --name-only COMMIT` in the project and `git ls-files` in the scratch clone, to give unchanged
    /// files the project's modification times.
    @Test func aTwoTargetDryRunStartsGitAtMostSeventeenTimes() throws {
        let fixture = try ReleaseFixture()
        try withTemporaryDirectory { shim in
            let log = shim.url.appendingPathComponent("calls.log").path
            let realGit = try Tool.path("git")
            try shim.write(
                "bin/git", "#!/bin/sh\necho \"$*\" >> '\(log)'\nexec '\(realGit)' \"$@\"\n", executable: true)
            let path =
                shim.url.appendingPathComponent("bin").path + ":"
                + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            let result = try relctl(
                ["release", "v1.0.0", "--dry-run", "--push"], in: fixture.url, environment: ["PATH": path])
            #expect(result.status == 0, "\(result)")
            let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            #expect(calls.contains { $0.contains("tag -a") }, "the shim saw the dry run's tag: \(calls)")
            #expect(calls.count <= 17, "\(calls.count) git calls:\n\(calls.joined(separator: "\n"))")
        }
    }

    @Test func aReleaseNeverOpensAnArchiveAfterWritingIt() throws {
        let fixture = try ReleaseFixture()
        try withTemporaryDirectory { scratch in
            let trace = scratch.url.appendingPathComponent("trace.log").path
            let result = try run(
                "strace", ["-f", "-e", "trace=openat,open", "-o", trace, relctlBinary.path, "release", "v1.0.0"],
                in: fixture.url)
            #expect(result.status == 0, "\(result)")
            let opens = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").filter {
                $0.contains(".tar.gz")
            }
            // The only opens of an archive: creating its hidden temporary file, write-only (its
            // checksum file's temporary, `.NAME.tar.gz.sha256.relctl-tmp-…`, is another file).
            let created = opens.filter {
                $0.contains("O_WRONLY") && $0.contains("O_CREAT") && $0.contains(".tar.gz.relctl-tmp-")
            }
            #expect(created.count == 2, "\(opens.joined(separator: "\n"))")
            let reads = opens.filter { !$0.contains("O_WRONLY") }
            #expect(reads.isEmpty, "archives opened again after writing:\n\(reads.joined(separator: "\n"))")
            #expect(fixture.repository.directory.exists("dist/SHA256SUMS"))
            #expect(
                try run("sha256sum", ["-c", "SHA256SUMS"], in: fixture.url.appendingPathComponent("dist")).status == 0)
        }
    }

    @Test func packageJobsFourWritesFourArchivesAtOnce() throws {
        let targets = [
            "x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu", "x86_64-unknown-linux-musl",
            "aarch64-unknown-linux-musl",
        ]
        let fixture = try Self.heavyFixture(targets: targets, megabytes: 24)
        #expect(try relctl(["build"], in: fixture.url).status == 0)

        func order(jobs: Int) throws -> [String] {
            let result = try relctl(
                ["package", "--tag", "v1.0.0", "--jobs", String(jobs), "--clean", "-v"], in: fixture.url)
            #expect(result.status == 0, "\(result)")
            return result.stderr.split(separator: "\n").compactMap { line in
                line.hasPrefix("writing ") ? "start" : line.hasPrefix("packaged ") ? "end" : nil
            }
        }
        // Four writers: every archive starts before the first one ends.
        #expect(try order(jobs: 4) == ["start", "start", "start", "start", "end", "end", "end", "end"])
        // One writer: strictly one after another (the log tells the two apart).
        #expect(try order(jobs: 1) == ["start", "end", "start", "end", "start", "end", "start", "end"])
    }

    @Test func theProgressLineKeepsMovingWhileArchivesAreWritten() throws {
        let fixture = try Self.heavyFixture(
            targets: ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu"], megabytes: 160)
        // The real binary on a terminal of its own (util-linux `script`), so it draws the live line
        // a maintainer sees, in a process whose cooperative pool no other test shares.
        let command = "'\(relctlBinary.path)' release v1.0.0"
        let result = try run(
            "script", ["-q", "-e", "-c", command, "/dev/null"], in: fixture.url,
            environment: ["GITHUB_ACTIONS": "false", "NO_COLOR": "1"])
        #expect(result.status == 0, "\(result)")
        let screen = result.stdout
        let redraws = screen.components(separatedBy: "\r\u{1B}[K  … ").filter {
            $0.hasPrefix("packaging") || ($0.hasPrefix("[5/") && $0.contains("] package"))
        }
        let time = try #require(
            screen.firstMatch(of: /✓ package\s+ok ([0-9.]+)s/).flatMap { Double($0.1) }, "\(screen)")
        // The ticker redraws every 250 ms; a blocked cooperative pool would freeze it at one.
        #expect(time > 1, "packaging took \(time) s: too quick to judge")
        #expect(redraws.count >= 3, "\(redraws.count) redraws in \(time) s of packaging:\n\(screen)")
    }
}

/// Every command resolves a path from relctl.toml the same way (`RelctlConfig.resolve`).
@Suite("config paths", .timeLimit(.minutes(45)), .removesTemporaries)
struct ConfigPathCLITests {
    @Test(arguments: [false, true]) func checkAndNotesAgreeOnTheTemplatePath(absolute: Bool) throws {
        let fixture = try ReleaseFixture()
        let template = try fixture.repository.directory.write("docs/notes.mustache", "CUSTOM NOTES {{title}}\n")
        let written = absolute ? template.path : "docs/notes.mustache"
        let config = try fixture.repository.directory.read("relctl.toml") + "\n[notes]\ntemplate = \"\(written)\"\n"
        try fixture.repository.commit("chore: notes template", files: ["relctl.toml": config])
        let check = try relctl(["check"], in: fixture.url)
        #expect(check.status == 0, "\(check)")
        let notes = try relctl(["notes"], in: fixture.url)
        #expect(notes.status == 0 && notes.stdout.contains("CUSTOM NOTES"), "\(notes)")

        try FileManager.default.removeItem(at: template)
        let missingCheck = try relctl(["check"], in: fixture.url)
        let missingNotes = try relctl(["notes"], in: fixture.url)
        #expect(missingCheck.status != 0 && missingCheck.stderr.contains("notes template"), "\(missingCheck)")
        #expect(missingNotes.status == 2, "\(missingNotes)")
    }
}

/// Warnings reach the terminal and the command's JSON document alike.
@Suite("warnings in JSON", .timeLimit(.minutes(45)), .removesTemporaries)
struct WarningsCLITests {
    @Test func aStageWarningReachesTheReleasePlansJSON() throws {
        let fixture = try ReleaseFixture()
        let config = try fixture.repository.directory.read("relctl.toml")
            .replacingOccurrences(of: "[archive]\n", with: "[archive]\ncompression-level = 12\n")
        try fixture.repository.commit("chore: level", files: ["relctl.toml": config])
        let result = try relctl(["release", "v1.0.0", "--dry-run", "--json"], in: fixture.url)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("compression-level 12 is outside"))
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let warnings = try #require(plan["warnings"] as? [String])
        #expect(warnings.contains { $0.contains("compression-level 12 is outside") }, "\(warnings)")
    }

    @Test func checksumJSONCarriesItsWarnings() throws {
        try withTemporaryDirectory { dir in
            _ = try ChecksumFixtures.makeDist(in: dir)
            try dir.write("dist/gone.tar.gz.sha256", "\(String(repeating: "0", count: 64))  gone.tar.gz\n")
            let result = try relctl(["checksum", "--json"], in: dir.url)
            #expect(result.status == 0, "\(result)")
            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let warnings = try #require(document["warnings"] as? [String], "\(result.stdout)")
            #expect(
                warnings.count == 1 && warnings[0].contains("gone.tar.gz.sha256: its archive is gone"), "\(warnings)")
        }
    }
}
