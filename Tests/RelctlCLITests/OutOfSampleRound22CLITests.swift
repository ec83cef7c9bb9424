import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What round 21's leftovers and the twenty-second and twenty-third out-of-sample rounds (session
/// 79) found reading real repositories, each on a generated repository of the shape read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound22CLITests {
    static func pyproject(_ version: String, autopub: Bool) -> String {
        "[project]\nname = \"berry\"\nversion = \"\(version)\"\n"
            + (autopub ? "\n[tool.autopub]\ngit-username = \"Botberry\"\ngit-email = \"bot@example.com\"\n" : "")
    }

    /// A Python project releasing `0.3.0` and `0.3.1` from its pull requests' release files, a
    /// change pending with `file` (nil: none).
    static func releaseFileProject(autopub: Bool, pending subject: String, file: (name: String, text: String)?) throws -> GitRepository {
        let repo = try GitRepository()
        try repo.commit("Initial import", files: ["pyproject.toml": pyproject("0.3.0", autopub: autopub), "berry.py": "0\n"])
        try repo.git("tag", "0.3.0")
        try repo.commit("Fix the parser (#2)", files: ["berry.py": "1\n", "RELEASE.md": "Release type: patch\n\nFixes the parser.\n"])
        try repo.git("rm", "--quiet", "RELEASE.md")
        try repo.commit("Release 0.3.1", files: ["pyproject.toml": pyproject("0.3.1", autopub: autopub)])
        try repo.git("tag", "0.3.1")
        var files = ["berry.py": "2\n"]
        if let file { files[file.name] = file.text }
        try repo.commit(subject, files: files)
        return repo
    }

    /// strawberry releases with autopub: each pull request adds `RELEASE.md` whose front matter
    /// says `release type: minor`, the bot releases that level and removes the file. Its merges
    /// are untyped (`Add support for mapping exception to types via unions (#4492)`), so relctl
    /// proposed patches for its minors (3 points of round 21). init writes `[versioning]
    /// fragments = "release-file"` where pyproject.toml configures autopub, or a release file
    /// naming a level is there (hypothesis' `RELEASE.rst`, `RELEASE_TYPE: patch`); the file
    /// decides over the commits, as changesets do.
    @Test func theReleaseFileGivesTheLevel() throws {
        let strawberry = try Self.releaseFileProject(
            autopub: true, pending: "Add support for unions (#4492)",
            file: ("RELEASE.md", "---\nrelease type: minor\nsocial_messages:\n  x: out now\n---\n\nUnions map exceptions.\n"))
        let config = try OutOfSampleRound15CLITests.initialise(strawberry)
        #expect(config.contains("fragments = \"release-file\""), "\(config)")
        #expect(config.contains("autopub"), "\(config)")
        #expect(try OutOfSampleRound15CLITests.rows(strawberry)["."]?["next"] as? String == "0.4.0")

        // The file decides over a typed subject; RELEASE.rst without autopub is read too.
        let hypothesis = try Self.releaseFileProject(
            autopub: false, pending: "feat: a new strategy (#5)", file: ("RELEASE.rst", "RELEASE_TYPE: patch\n\nA new strategy.\n"))
        let second = try OutOfSampleRound15CLITests.initialise(hypothesis)
        #expect(second.contains("fragments = \"release-file\""), "\(second)")
        #expect(second.contains("RELEASE.rst"), "\(second)")
        #expect(try OutOfSampleRound15CLITests.rows(hypothesis)["."]?["next"] as? String == "0.3.2")
    }

    /// Where the release file is gone (the release removed it) the commits decide; a RELEASE.md
    /// telling how to release is no release file, and init writes no key for it.
    @Test func withoutAReleaseFileTheCommitsDecide() throws {
        let strawberry = try Self.releaseFileProject(autopub: true, pending: "feat: a new resolver (#7)", file: nil)
        #expect(try OutOfSampleRound15CLITests.initialise(strawberry).contains("fragments = \"release-file\""))
        #expect(try OutOfSampleRound15CLITests.rows(strawberry)["."]?["next"] as? String == "0.4.0")

        let howTo = try Self.releaseFileProject(
            autopub: false, pending: "fix: the reader (#8)",
            file: ("RELEASE.md", "# Releasing\n\nChoose the release type: minor or patch, then run the workflow.\n"))
        let config = try OutOfSampleRound15CLITests.initialise(howTo)
        #expect(!config.contains("release-file"), "\(config)")
        #expect(try OutOfSampleRound15CLITests.rows(howTo)["."]?["next"] as? String == "0.3.2")
    }
}

extension OutOfSampleRound22CLITests {
    /// elasticsearch-py releases every minor from an `X.Y` branch: `9.2` is cut from main while
    /// `9.1` ships 9.1.2 (neither holds the other's release commits), and nothing names 9.2 until
    /// `Release 9.2.0`. On `9.2`, init wrote no branch rule and plan proposed 9.1.3 (4 points of
    /// round 23). A branch named for the minor line after the latest release, which no release has
    /// opened, is that line: init writes `[[branch]] range = "9.2.x"`, and plan proposes 9.2.0. A
    /// branch named for a line further on is left alone, and so is one whose line another tag of
    /// the repository already names (tauri's `1.6` carries `tauri-v1.6.x` while its api package
    /// ships 1.5.x patches there), or named as a maintenance line is once open (`v9.2.x`: socket2's
    /// `v0.5.x`).
    @Test(arguments: ["9.2", "9.3", "9.2 tagged", "v9.2.x"])
    func aBranchNamedForTheNextMinorLineIsThatLine(argument: String) throws {
        let branch = String(argument.split(separator: " ")[0])
        let repo = try GitRepository()
        var day = 1
        func commit(_ subject: String, _ files: [String: String]) throws {
            try repo.commit(subject, files: files, date: String(format: "2026-02-%02dT10:00:00Z", day))
            day += 1
        }
        func version(_ text: String) -> [String: String] {
            ["pyproject.toml": "[project]\nname = \"search\"\nversion = \"\(text)\"\n"]
        }
        try commit("Initial import", version("9.0.0").merging(["search.py": "0\n"]) { a, _ in a })
        try repo.git("tag", "v9.0.0")
        try commit("Add the point-in-time API (#10)", ["search.py": "1\n"])
        try repo.git("checkout", "-q", "-b", "9.1")
        for patch in 0...2 {
            try commit("Fix the transport (#\(20 + patch))", ["transport.py": "\(patch)\n"])
            try commit("Release 9.1.\(patch)", version("9.1.\(patch)"))
            try repo.git("tag", "v9.1.\(patch)")
        }
        try repo.git("checkout", "-q", "main")
        try commit("Add the inference API (#30)", ["search.py": "2\n"])
        try repo.git("checkout", "-q", "-b", branch)
        try commit("Auto-generated code for \(branch) (#31)", ["api.py": "1\n"])
        if argument.hasSuffix("tagged") { try repo.git("tag", "core-v9.2.0") }
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        let next = try OutOfSampleRound15CLITests.rows(repo)["."]?["next"] as? String
        if argument == "9.2" {
            #expect(config.contains("name = \"9.2\"") && config.contains("range = \"9.2.x\""), "\(config)")
            #expect(next == "9.2.0")
        } else {
            #expect(!config.contains("[[branch]]"), "\(config)")
        }
    }
}

extension OutOfSampleRound22CLITests {
    /// mvdan/sh tags `v3.6.0-0.dev` on master the day 3.5.0 ships, so Go's pseudo-versions sort
    /// above it; each such tag was followed by its final. relctl continued it as `3.6.0-1.dev`
    /// (round 23, 1 point): like grpc-go's `-dev`, it opens 3.6.0's development.
    @Test func aZeroDevTagOpensItsVersionsDevelopment() throws {
        let repo = try GitRepository()
        try repo.directory.write("go.mod", "module mvdan.cc/sh/v3\n\ngo 1.22\n")
        try repo.commit("all: release v3.5.0", files: ["sh.go": "package sh\n"], date: "2026-03-01T10:00:00Z")
        try repo.git("tag", "v3.5.0")
        try repo.commit("cmd/shfmt: undo the Docker side of the version rename", files: ["sh.go": "package sh // 1\n"], date: "2026-03-02T10:00:00Z")
        try repo.git("tag", "v3.6.0-0.dev")
        try repo.commit("syntax: fix a crash on empty heredocs", files: ["sh.go": "package sh // 2\n"], date: "2026-03-03T10:00:00Z")
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        #expect(try OutOfSampleRound15CLITests.rows(repo)["."]?["next"] as? String == "3.6.0")
    }
}
