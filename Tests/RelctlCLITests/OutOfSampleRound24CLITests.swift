import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the twenty-fourth to twenty-seventh out-of-sample rounds (sessions 80 and 81) found and
/// session 81 read: each on a generated repository of the shape read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound24CLITests {
    /// A C library tagging `curl-8_16_0` whose header names the release in preparation.
    static func cLibrary(header: String, tags: [String] = ["curl-8_15_0", "curl-8_16_0", "curl-8_17_0"]) throws
        -> GitRepository
    {
        let repository = try GitRepository()
        for (index, tag) in tags.enumerated() {
            try repository.commit(
                "lib: handle a short read (#\(index))", files: ["lib/transfer.c": "int read_\(index);\n"],
                date: "2025-0\(index + 1)-10T10:00:00Z")
            try repository.git("tag", tag)
        }
        try repository.commit(
            "tool: add --follow-redirects", files: ["src/tool.c": "int follow;\n", "include/curl/curlver.h": header],
            date: "2025-06-10T10:00:00Z")
        return repository
    }

    /// curl tags `curl-8_17_0` and keeps the coming version in `include/curl/curlver.h`
    /// (`#define LIBCURL_VERSION "8.18.0-DEV"`): relctl read no tag (init wrote `v{version}`,
    /// every plan proposed 0.1.0, 10 points of round 24). The word before the numbers may end
    /// with `-`, and the header's define is a version location whose development marker names
    /// the next release.
    @Test func curlsTagsAndItsVersionHeader() throws {
        let header = "#ifndef CURLINC_CURLVER_H\n#define LIBCURL_COPYRIGHT \"Daniel Stenberg\"\n#define LIBCURL_VERSION \"8.18.0-DEV\"\n#define LIBCURL_VERSION_MAJOR 8\n#endif\n"
        let repository = try Self.cLibrary(header: header)
        let config = try VersionIntentCLITests.initialise(repository)
        #expect(config.contains("tag-format = \"curl-{major}_{minor}_{patch}\""), "\(config)")
        #expect(config.contains("path = \"include/curl/curlver.h\""), "\(config)")
        #expect(config.components(separatedBy: "[[version]]").count == 2, "one entry for the header: \(config)")
        let json = try VersionIntentCLITests.bumpJSON(repository)
        #expect(json["current"] as? String == "8.17.0", "\(json)")
        #expect(json["next"] as? String == "8.18.0", "\(json)")
        #expect(json["tag"] as? String == "curl-8_18_0", "\(json)")
        #expect(try relctl(["check"], in: repository.url).status == 0)
    }

    /// A header quoting a version that is neither the latest release nor a development marker
    /// above it (a bundled library's `zlibver.h`) is not the project's version.
    @Test func aHeaderQuotingAnotherVersionIsNotListed() throws {
        let repository = try Self.cLibrary(header: "#define ZLIB_VERSION \"1.3.1\"\n")
        try repository.git("mv", "include/curl/curlver.h", "include/zlibver.h")
        try repository.git("commit", "-qm", "vendor zlib's header")
        let config = try VersionIntentCLITests.initialise(repository)
        #expect(config.contains("tag-format = \"curl-{major}_{minor}_{patch}\""), "\(config)")
        #expect(!config.contains("path = \"include/zlibver.h\""), "\(config)")
        #expect(config.contains("relctl release curl-X_Y_Z --dry-run"), "\(config)")
        #expect(try VersionIntentCLITests.bumpJSON(repository)["next"] as? String == "8.17.1")
    }

    /// package-benchmark's semantic-release (its workflow writes `.releaserc.yml`) releases a commit
    /// by its scope: `fix(minor): …` is a minor, `feat(patch): …` a patch. relctl read the types
    /// and proposed 1.30.1, 1.31.1 for its `fix(minor)` releases (3 points of round 24). `init`
    /// writes `scope-levels = true` from the `releaseRules`; a scope naming a level raises the
    /// release to it.
    @Test func aScopeNamingALevelReleasesThatLevel() throws {
        let workflow = """
            name: Semantic Release
            jobs:
              semantic-release:
                steps:
                  - run: |
                      echo "
                      plugins:
                        - - '@semantic-release/commit-analyzer'
                          - releaseRules:
                            - type: feat
                              release: false
                            - scope: 'patch'
                              release: patch
                            - scope: 'minor'
                              release: minor
                            - scope: 'major'
                              release: major" > .releaserc.yml

            """
        let repository = try GitRepository()
        try repository.commit(
            "chore: start", files: ["Package.swift": "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"Benchmark\")\n"],
            date: "2025-01-10T10:00:00Z")
        try repository.git("tag", "1.29.10")
        try repository.commit("fix(patch): mark a function sendable (#345)", files: ["a.swift": "1\n"], date: "2025-02-10T10:00:00Z")
        try repository.git("tag", "1.29.11")
        try repository.commit("fix(minor): malloc counter regression (#351)", files: ["a.swift": "2\n"], date: "2025-03-10T10:00:00Z")
        try repository.commit("ci: sync workflows", files: [".github/workflows/semantic-release.yml": workflow], date: "2025-03-11T10:00:00Z")
        let config = try VersionIntentCLITests.initialise(repository)
        #expect(config.contains("scope-levels = true"), "\(config)")
        let json = try VersionIntentCLITests.bumpJSON(repository)
        #expect(json["next"] as? String == "1.30.0", "\(json)")
        #expect((json["notes"] as? [String])?.contains { $0.contains("names a minor in its scope") } == true, "\(json)")

        // Without the rules, the scope is a scope: a fix is a patch.
        try repository.git("rm", "-q", ".github/workflows/semantic-release.yml")
        try repository.git("commit", "-qm", "ci: drop semantic-release")
        try FileManager.default.removeItem(at: repository.url.appendingPathComponent("relctl.toml"))
        let plain = try VersionIntentCLITests.initialise(repository)
        #expect(!plain.contains("scope-levels"), "\(plain)")
        #expect(try VersionIntentCLITests.bumpJSON(repository)["next"] as? String == "1.29.12")
    }

    /// jq keeps a GNU `ChangeLog` last written in 2015 (dated entries, no version) beside its
    /// `NEWS.md`, whose `# 1.8.2` is written ahead of the release. init took the first changelog
    /// name it found, read nothing from it and stopped: jq's untyped-adds then proposed 1.9.0 for
    /// its security patch (2 points of the lead's C round). A file naming no version is passed over.
    @Test func aChangelogNamingNoVersionIsPassedOver() throws {
        let repository = try GitRepository()
        let gnu = "2015-07-10  Nicolas Williams  nico@example.com\n\n\tUse `include` for import into namespace\n"
        try repository.commit("Initial", files: ["ChangeLog": gnu, "src/main.c": "int main;\n", "NEWS.md": "# 1.8.0\n\n- Things.\n"], date: "2025-01-10T10:00:00Z")
        try repository.git("tag", "jq-1.8.0")
        try repository.commit("Support arm64 builds (#3463)", files: ["src/arm.c": "1\n"], date: "2025-02-10T10:00:00Z")
        try repository.commit("Update NEWS.md for 1.8.1", files: ["NEWS.md": "# 1.8.1\n\n- More.\n\n# 1.8.0\n\n- Things.\n"], date: "2025-02-11T10:00:00Z")
        try repository.git("tag", "jq-1.8.1")
        try repository.commit("Fix a heap overflow (#3500)", files: ["src/main.c": "int main2;\n"], date: "2025-03-10T10:00:00Z")
        try repository.commit(
            "Update NEWS.md for 1.8.2",
            files: ["NEWS.md": "# 1.8.2\n\nA patch release with security fixes.\n\n# 1.8.1\n\n- More.\n\n# 1.8.0\n\n- Things.\n"],
            date: "2025-03-11T10:00:00Z")
        try repository.git("remote", "add", "origin", "https://github.com/jqlang/jq")
        let config = try VersionIntentCLITests.initialise(repository)
        #expect(config.contains("changelog = \"NEWS.md\""), "\(config)")
        #expect(try VersionIntentCLITests.bumpJSON(repository)["next"] as? String == "1.8.2")
    }

    /// nginx tags `release-1.31.4` (594 tags, nothing else): init read none of them, wrote
    /// `v{version}` and proposed 0.1.0 at every point (0/10 in the lead's C round). A prefix that
    /// only says release is a series of its own, competing with bare tags on recency.
    @Test func releaseWordTagsAreASeries() throws {
        let repository = try GitRepository()
        for (index, version) in ["1.29.3", "1.29.4", "1.29.5"].enumerated() {
            try repository.commit("Fixed a worker crash (\(index)).", files: ["src/core/x.c": "\(index)\n"], date: "2025-0\(index + 1)-10T10:00:00Z")
            try repository.git("tag", "release-" + version)
        }
        try repository.commit("Resolver: fixed a leak.", files: ["src/core/y.c": "1\n"], date: "2025-05-10T10:00:00Z")
        let config = try VersionIntentCLITests.initialise(repository)
        #expect(config.contains("tag-format = \"release-{version}\""), "\(config)")
        let json = try VersionIntentCLITests.bumpJSON(repository)
        #expect(json["next"] as? String == "1.29.6" && json["tag"] as? String == "release-1.29.6", "\(json)")

        // Moved on to `v` tags: the newer series wins.
        for (index, version) in ["1.30.0", "1.30.1", "1.30.2", "1.31.0"].enumerated() {
            try repository.commit("Feature \(index).", files: ["src/core/z.c": "\(index)\n"], date: "2025-0\(index + 6)-10T10:00:00Z")
            try repository.git("tag", "v" + version)
        }
        try FileManager.default.removeItem(at: repository.url.appendingPathComponent("relctl.toml"))
        #expect(try VersionIntentCLITests.initialise(repository).contains("tag-format = \"v{version}\""))
    }

    /// raylib's `src/raylib.h` names the release in preparation, two numbers and skipping minors
    /// (`#define RAYLIB_VERSION  "4.2"` while 4.0.0 is the latest): a header named for the project
    /// is read as a version header, and one naming a final above the latest release, in its major
    /// or the next, is listed (1/10 → 6/10 in the lead's C round).
    @Test func aHeaderNamedForTheProjectNamesTheNextRelease() throws {
        let repository = try GitRepository()
        let header = { (version: String) in "#ifndef RAYLIB_H\n#define RAYLIB_H\n#define RAYLIB_VERSION  \"\(version)\"\n#endif\n" }
        try repository.commit("Initial", files: ["src/raylib.h": header("4.0"), "src/core.c": "1\n"], date: "2025-01-10T10:00:00Z")
        try repository.git("tag", "4.0.0")
        try repository.commit("REVIEWED: audio module", files: ["src/core.c": "2\n"], date: "2025-02-10T10:00:00Z")
        try repository.commit("Update version to raylib 4.2", files: ["src/raylib.h": header("4.2")], date: "2025-03-10T10:00:00Z")
        try repository.git("remote", "add", "origin", "https://github.com/raysan5/raylib")
        let config = try VersionIntentCLITests.initialise(repository)
        #expect(config.contains("path = \"src/raylib.h\""), "\(config)")
        #expect(try VersionIntentCLITests.bumpJSON(repository)["next"] as? String == "4.2.0")
    }

    /// OpenTelemetry's build tools keep one `.chloggen/*.yaml` entry a pull request, each with a
    /// `change_type`; relctl read commits and a minor cadence (20 of 40 points in round 26).
    /// `init` writes `fragments = "chloggen"`, and the entries decide the level: a lone
    /// `bug_fix` is a patch whatever the commits and the cadence say, an `enhancement` a minor.
    @Test func chloggenEntriesDecideTheLevel() throws {
        let repository = try GitRepository()
        let template = "# One of 'breaking', 'deprecation', 'new_component', 'enhancement', 'bug_fix'\nchange_type:\ncomponent:\nnote:\n"
        try repository.commit(
            "Initial", files: ["go.mod": "module go.opentelemetry.io/build-tools\n\ngo 1.22\n", ".chloggen/TEMPLATE.yaml": template],
            date: "2025-01-10T10:00:00Z")
        for (index, version) in ["0.20.0", "0.21.0", "0.22.0", "0.23.0"].enumerated() {
            try repository.commit("feat: tool \(index) (#\(index))", files: ["tool\(index).go": "package x\n"], date: "2025-0\(index + 2)-10T10:00:00Z")
            try repository.git("tag", "v" + version)
        }
        try repository.commit(
            "feat: trim issue titles (#700)",
            files: [".chloggen/trim_issue_title.yaml": "change_type: bug_fix\ncomponent: issuegenerator\nnote: Trim the title.\n", "trim.go": "package x\n"],
            date: "2025-07-10T10:00:00Z")
        let config = try VersionIntentCLITests.initialise(repository)
        #expect(config.contains("fragments = \"chloggen\""), "\(config)")
        let json = try VersionIntentCLITests.bumpJSON(repository)
        #expect(json["next"] as? String == "0.23.1", "\(json)")

        try repository.commit(
            "Add a flag (#701)", files: [".chloggen/flag.yaml": "change_type: 'enhancement' # a new flag\ncomponent: multimod\n"],
            date: "2025-07-11T10:00:00Z")
        #expect(try VersionIntentCLITests.bumpJSON(repository)["next"] as? String == "0.24.0")
    }

    /// sidekiq's changelog is `Changes.md` (relctl looked for `CHANGES.md` only) and PHPUnit keeps
    /// one per series, `ChangeLog-13.2.md`, replaced at each minor: neither was read, and their
    /// headings written ahead (`8.1.0` / `-----`, `## [13.2.0] - 2026-06-05`) went unseen
    /// (5 points of round 27).
    @Test func changelogsNamedInOtherCasesAndPerSeries() throws {
        for (file, text) in [
            ("Changes.md", "# Sidekiq Changes\n\n8.1.0\n----------\n\n- A new TUI.\n\n8.0.10\n----------\n\n- Fix.\n"),
            ("ChangeLog-8.1.md", "# Changes in PHPUnit 8.1\n\n## [8.1.0] - 2026-06-05\n\n### Added\n\n- Things.\n"),
        ] {
            let repository = try GitRepository()
            try repository.commit("Initial", files: ["lib/a.rb": "1\n"], date: "2025-01-10T10:00:00Z")
            try repository.git("tag", "v8.0.10")
            try repository.commit("Fix a leak", files: ["lib/a.rb": "2\n", file: text], date: "2025-02-10T10:00:00Z")
            let config = try VersionIntentCLITests.initialise(repository)
            #expect(config.contains("changelog = \"\(file)\""), "\(config)")
            #expect(try VersionIntentCLITests.bumpJSON(repository)["next"] as? String == "8.1.0", "\(file)")
        }
    }
}
