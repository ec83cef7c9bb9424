import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the fourteenth out-of-sample round of the back-test found (session 72: pyjwt, sqlc, rig),
/// each on a generated repository of the shape that was read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound14CLITests {
    static func next(_ repo: GitRepository) throws -> String? {
        let result = try relctl(["bump", "--json"], in: repo.url)
        #expect(result.status == 0, "\(result)")
        return try BacktestFindingsCLITests.field(result.stdout, "next") as? String
    }

    static func initialise(_ repo: GitRepository) throws -> String {
        let result = try relctl(["init", "--quiet"], in: repo.url)
        #expect(result.status == 0, "\(result)")
        return try repo.directory.read("relctl.toml")
    }

    /// pyjwt's CHANGELOG.rst heads each release with a link (`` `v2.10.1 <…/compare/…>`__ ``,
    /// its underline shorter than the link in places) under an empty `` `Unreleased <…>`__ ``.
    /// Neither the link headings nor the empty section below its underline were read: init wrote
    /// a minor cadence and no changelog, and a fix the changelog names 1.4.2 gave 1.5.0.
    @Test func reStructuredTextLinkHeadingsUnderAnEmptyUnreleasedNameTheNextRelease() throws {
        let repo = try GitRepository()
        func section(_ title: String, _ body: String) -> String {
            "\(title)\n\(String(repeating: "-", count: 20))\n\n\(body)"
        }
        let oldSections = ["1.3.0", "1.2.0", "1.1.0", "1.0.0"].map {
            section("`v\($0) <https://example.com/compare/\($0)>`__", "Added\n~~~~~\n\n- A feature.\n\n")
        }.joined()
        func pyproject(_ version: String) -> String { "[project]\nname = \"frob\"\nversion = \"\(version)\"\n" }
        for version in ["1.0.0", "1.1.0", "1.2.0", "1.3.0"] {
            try repo.commit("Release \(version)", files: ["pyproject.toml": pyproject(version), "f\(version)": "\n"])
            try repo.git("tag", version)
        }
        try repo.commit(
            "Release 1.4.0",
            files: [
                "pyproject.toml": pyproject("1.4.0"),
                "CHANGELOG.rst": "Changelog\n=========\n\n" + section("`v1.4.0 <https://example.com>`__", "- First.\n\n")
                    + oldSections,
            ])
        try repo.git("tag", "1.4.0")
        try repo.commit(
            "Prevent partial matching of the iss claim",
            files: [
                "src.py": "\n",
                "CHANGELOG.rst": "Changelog\n=========\n\n"
                    + section("`Unreleased <https://example.com/compare/1.4.2...HEAD>`__", "\n")
                    + section("`v1.4.2 <https://example.com/compare/1.4.0...1.4.2>`__", "Fixed\n~~~~~\n\n- Frob.\n\n")
                    + section("`v1.4.0 <https://example.com>`__", "- First.\n\n") + oldSections,
            ])
        let config = try Self.initialise(repo)
        #expect(config.contains("changelog = \"CHANGELOG.rst\""), "\(config)")
        #expect(try Self.next(repo) == "1.4.2")

        // The section notes --changelog writes names its version plainly, not the old link.
        try repo.directory.write(
            "CHANGELOG.rst",
            "Changelog\n=========\n\n" + section("`v1.4.0 <https://example.com>`__", "- First.\n\n") + oldSections)
        let notes = try relctl(["notes", "--tag", "1.4.1", "--changelog", "CHANGELOG.rst"], in: repo.url)
        #expect(notes.status == 0, "\(notes)")
        let written = try repo.directory.read("CHANGELOG.rst")
        #expect(written.hasPrefix("Changelog\n=========\n\nv1.4.1\n------\n"), "\(written)")
    }

    /// sqlc keeps its changelog on its documentation site, `docs/reference/changelog.md`, with a
    /// MyST label above each heading: init did not look there, and a minor cadence gave 1.6.0
    /// for the fix release the changelog names 1.5.1.
    @Test func aChangelogUnderDocsReferenceIsRead() throws {
        let repo = try GitRepository()
        try repo.commit("feat: init", files: ["go.mod": "module example.com/tool\n", "main.go": "package main\n"])
        try repo.git("tag", "v1.0.0")
        for minor in 1...5 {
            try repo.commit("feat: thing \(minor)", files: ["f\(minor).go": "package main\n"])
            try repo.git("tag", "v1.\(minor).0")
        }
        try repo.commit(
            "fix: x",
            files: [
                "main.go": "package main\n// fixed\n",
                "docs/reference/changelog.md":
                    "# Changelog\n\n(v1-5-1)=\n## [1.5.1](https://example.com/releases/tag/v1.5.1)\nReleased 2026-04-22\n\n### Bug Fixes\n\n- x\n\n(v1-5-0)=\n## [1.5.0](https://example.com/releases/tag/v1.5.0)\n\n### Features\n\n- y\n",
            ])
        let config = try Self.initialise(repo)
        #expect(config.contains("changelog = \"docs/reference/changelog.md\""), "\(config)")
        #expect(try Self.next(repo) == "1.5.1")
    }

    /// A crate released with release-plz whose own 0.x history shows feats released as minors
    /// (rig-core's, before its `release-plz.toml` and after): the file's default 0.x rule (a feat
    /// gives a patch) is not written over what the history shows. One feat released as a patch
    /// keeps the rule.
    @Test func releasePlzsDefaultDoesNotOverruleAHistoryOfFeatMinors() throws {
        for featPatch in [false, true] {
            let repo = try GitRepository()
            func cargo(_ version: String) -> String { "[package]\nname = \"llmkit\"\nversion = \"\(version)\"\n" }
            try repo.commit("chore: init", files: ["Cargo.toml": cargo("0.1.0"), "src/main.rs": "fn main() {}\n"])
            try repo.git("tag", "v0.1.0")
            var versions = ["0.2.0", "0.3.0", "0.4.0"]
            if featPatch { versions.insert("0.1.1", at: 0) }
            for version in versions {
                try repo.commit("feat: provider \(version)", files: ["src/p\(version).rs": "\n"])
                try repo.commit("chore: release", files: ["Cargo.toml": cargo(version)])
                try repo.git("tag", "v\(version)")
            }
            try repo.commit("chore: add release-plz.toml", files: ["release-plz.toml": "[workspace]\nchangelog_update = true\n"])
            try repo.commit("feat: provider 5", files: ["src/p5.rs": "\n"])
            let config = try Self.initialise(repo)
            #expect(config.contains("zero-major = \"cargo\"") == featPatch, "\(config)")
            #expect(try Self.next(repo) == (featPatch ? "0.4.1" : "0.5.0"))
        }
    }

    /// typeorm at 0.3.29: three `v1.0.0-beta.N` tags on its 1.0 branch, newer than master's 104
    /// plain `0.3.x`. The five newest tags voted for the spelling, the betas won 3 to 2: init wrote
    /// `v{version}`, read no 0.x history under it and proposed v0.4.0 for a feat. Prereleases
    /// HEAD does not contain no longer vote; the same betas on HEAD's own line still do.
    @Test func prereleasesOnAnotherLineDoNotChooseTheTagSpelling() throws {
        for betasOnThisLine in [false, true] {
            let repo = try GitRepository()
            func package(_ version: String) -> String { "{\"name\": \"orm\", \"version\": \"\(version)\"}\n" }
            try repo.commit("chore: init", files: ["package.json": package("0.3.0")])
            for patch in 1...5 {
                try repo.commit("feat: thing \(patch)", files: ["f\(patch)": "\n"])
                try repo.commit("chore(release): 0.3.\(patch)", files: ["package.json": package("0.3.\(patch)")])
                try repo.git("tag", "0.3.\(patch)")
            }
            if !betasOnThisLine { try repo.git("checkout", "-q", "-b", "next") }
            for beta in 1...3 {
                try repo.commit("feat!: next \(beta)", files: ["b\(beta)": "\n"])
                try repo.git("tag", "v1.0.0-beta.\(beta)")
            }
            if !betasOnThisLine {
                try repo.git("checkout", "-q", "main")
                try repo.git("branch", "-q", "-D", "next")
                try repo.commit("feat: more", files: ["g": "\n"])
            }
            let config = try Self.initialise(repo)
            #expect(config.contains("tag-format = \"\(betasOnThisLine ? "v" : ""){version}\""), "\(config)")
            if !betasOnThisLine { #expect(try Self.next(repo) == "0.3.6") }
        }
    }

    /// opentelemetry-js: `api/v1.9.0` names a member, but the experimental packages are released
    /// together on `experimental/v0.212.0` and the stable ones on `v2.x`. init gave every
    /// untagged package a format of its own that no tag has (`@otel/sdk-node/v{version}`), so
    /// sdk-node had no release and was proposed at its manifest's version as a first one. The
    /// folder's series is now those members' format, and they are one group.
    @Test func aFoldersTagSeriesReleasesTheMembersBelowItTogether() throws {
        let repo = try GitRepository()
        func package(_ name: String, _ version: String) -> String {
            "{\"name\": \"@otel/\(name)\", \"version\": \"\(version)\"}\n"
        }
        try repo.commit(
            "chore: init",
            files: [
                "package.json": #"{"name": "root", "private": true, "workspaces": ["api", "packages/*", "experimental/packages/*"]}"#
                    + "\n",
                "api/package.json": package("api", "1.0.0"),
                "packages/core/package.json": package("core", "2.0.0"),
                "packages/sdk-trace/package.json": package("sdk-trace", "2.0.0"),
                "experimental/packages/sdk-node/package.json": package("sdk-node", "0.3.0"),
                "experimental/packages/sdk-logs/package.json": package("sdk-logs", "0.3.0"),
            ])
        for tag in ["api/v1.0.0", "v2.0.0", "experimental/v0.1.0", "experimental/v0.2.0", "experimental/v0.3.0"] {
            try repo.git("tag", tag)
        }
        try repo.commit("feat(sdk-node): a", files: ["experimental/packages/sdk-node/a.js": "\n"])
        let config = try Self.initialise(repo)
        #expect(config.contains("sdk-node = \"experimental/v{version}\""), "\(config)")
        #expect(config.contains("name = \"experimental\"\nmembers = [\"sdk-logs\", \"sdk-node\"]"), "\(config)")
        let check = try relctl(["check"], in: repo.url)
        #expect(check.status == 0, "\(check)")
        let plan = try relctl(["plan", "--json"], in: repo.url)
        #expect(plan.status == 0, "\(plan)")
        #expect(plan.stdout.contains("\"tag\" : \"experimental/v0.4.0\""), "\(plan.stdout)")
        #expect(!plan.stdout.contains("@otel/sdk-node/v"), "\(plan.stdout)")
    }

    /// freqtrade's release points are merges that replaced large `.whl` files a partial copy
    /// lacked: `git show -s` of a merge still works out its combined diff, with rename detection
    /// reading the blobs of files it added and removed, failed, and `plan` exited 1. A commit's
    /// time is read with `git log -1`, which reads no blob.
    @Test func aMergeWhoseBlobIsMissingStillPlans() throws {
        let repo = try GitRepository()
        let lines = (1...200).map(String.init).joined(separator: "\n") + "\n"
        try repo.commit(
            "chore: init",
            files: ["pyproject.toml": "[project]\nname = \"bot\"\nversion = \"2024.3\"\n", "old.txt": lines])
        try repo.git("tag", "2024.3")
        try repo.git("checkout", "-q", "-b", "side")
        try repo.commit("fix: side", files: ["g": "b\n"])
        try repo.git("checkout", "-q", "main")
        try repo.commit("fix: main", files: ["h": "c\n"])
        try repo.git("merge", "-q", "--no-commit", "side")
        try repo.git("rm", "-q", "old.txt")
        try repo.directory.write("new.txt", lines + "x\n")
        try repo.git("add", "new.txt")
        try repo.git("commit", "-q", "-m", "Merge side")
        let blob = try repo.git("rev-parse", "HEAD:new.txt").trimmingCharacters(in: .whitespacesAndNewlines)
        try FileManager.default.removeItem(
            at: repo.url.appendingPathComponent(".git/objects/\(blob.prefix(2))/\(blob.dropFirst(2))"))
        #expect(throws: (any Error).self) { try repo.git("show", "-s", "--format=%ct", "HEAD") }
        try repo.directory.write(
            "relctl.toml",
            "[project]\nname = \"bot\"\ntag-format = \"{version}\"\nversion-scheme = \"calver\"\n[[version]]\npath = \"pyproject.toml\"\n")
        // A calendar version is dated by the commit: its time is read.
        let plan = try relctl(["plan", "--json"], in: repo.url)
        #expect(plan.status == 0, "\(plan)")
        #expect(plan.stdout.contains("\"next\" : \"2026.1\""), "\(plan.stdout)")
    }
}
