import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the sixteenth out-of-sample round (session 74) left, taken up in session 75, each on a
/// generated repository of the shape that was read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound16LeftoversCLITests {
    /// briefcase (towncrier) shipped "Backward Incompatible Changes" in eight 0.3.x patches and
    /// in 0.4.2, one minor (0.4.0) between: relctl read each `removal` fragment as a minor below
    /// 1.0.0 and proposed 0.4.0 and 0.5.0 (7 points). towncrier's own notes show how the 0.x
    /// releases shipped; where they show the breaking sections released as minors, a removal
    /// fragment still gives one.
    @Test(arguments: [true, false])
    func towncrierNotesShowingBreakingPatchesBelowOneKeepThePatch(patches: Bool) throws {
        let repo = try GitRepository()
        let pyproject = """
            [project]
            name = "demo"
            version = "0.1.0"

            [tool.towncrier]
            directory = "changes"
            filename = "docs/about/releases.md"
            title_format = "## {version} ({project_date})"
            type = [
                { directory = "feature", name = "Features", showcontent = true },
                { directory = "bugfix", name = "Bugfixes", showcontent = true },
                { directory = "removal", name = "Backward Incompatible Changes", showcontent = true },
            ]

            """
        let versions = patches ? ["0.3.0", "0.3.1", "0.3.2", "0.3.3", "0.3.4"] : ["0.1.0", "0.2.0", "0.3.0", "0.4.0", "0.4.1"]
        var notes = ""
        for (index, version) in versions.enumerated() {
            notes =
                "## \(version) (2025-0\(index + 1)-01)\n\n### Features\n\n- A feature ([#\(index)0](x))\n\n"
                + "### Backward Incompatible Changes\n\n- An option was removed ([#\(index)1](x))\n\n" + notes
            try repo.commit(
                "Release \(version)",
                files: [
                    "pyproject.toml": pyproject.replacingOccurrences(of: "0.1.0", with: version),
                    "docs/about/releases.md": "# Release History\n\n<!-- towncrier release notes start -->\n\n" + notes,
                    "changes/.gitignore": "!.gitignore\n",
                ])
            try repo.git("tag", "v\(version)")
        }
        try repo.commit(
            "Drop the old --update flag", files: ["changes/90.removal.md": "The `--update` flag was removed.\n"])
        try repo.commit("Add a new command", files: ["changes/91.feature.md": "A `dev` command.\n"])
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("fragments = \"towncrier\""), "\(config)")
        #expect(config.contains("zero-major = \"patch\"") == patches, "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try BacktestFindingsCLITests.field(bump.stdout, "next") as? String == (patches ? "0.3.5" : "0.5.0"), "\(bump)")
    }

    /// moto writes the next version's changelog section in a "Prep release 5.1.19" commit after the
    /// range's changes (new methods, a `feat(acm-pca)` among them) and released 5.1.19: relctl took
    /// the heading as a floor under the feat's 5.2.0 (3 points). A heading written after every
    /// change that calls for more is the release in preparation; a feat after it lifts it.
    @Test(arguments: [false, true])
    func aChangelogHeadingWrittenAfterTheFeatsIsTheRelease(featAfter: Bool) throws {
        let repo = try GitRepository()
        let history = "Changelog\n=========\n\n5.1.18\n------\n\n    Miscellaneous:\n        * A fix\n"
        try repo.commit(
            "Prep release 5.1.18",
            files: ["CHANGELOG.md": history, "pyproject.toml": "[project]\nname = \"demo\"\nversion = \"5.1.18\"\n"])
        try repo.git("tag", "5.1.18")
        try repo.commit("feat(acm-pca): implement `RevokeCertificate` API (#8838)", files: ["src/acm.py": "a = 1\n"])
        try repo.commit("EC2: fix flow logs type mismatch (#9531)", files: ["src/ec2.py": "b = 1\n"])
        try repo.commit(
            "Prep release 5.1.19 (#9597)",
            files: [
                "CHANGELOG.md": history.replacingOccurrences(
                    of: "5.1.18\n", with: "5.1.19\n------\n\n    New Methods:\n        * ACM-PCA: revoke_certificate()\n\n5.1.18\n",
                    options: [], range: history.range(of: "5.1.18\n"))
            ])
        if featAfter { try repo.commit("feat(s3): a later feature", files: ["src/s3.py": "c = 1\n"]) }
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("changelog = \"CHANGELOG.md\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try BacktestFindingsCLITests.field(bump.stdout, "next") as? String == (featAfter ? "5.2.0" : "5.1.19"), "\(bump)")
    }

    /// socket2's master holds 0.6.0 in Cargo.toml while its changelog's top names 0.5.10, a
    /// backport released from the 0.5 branch and written there after the range's feats: the
    /// heading is no release in preparation below what the manifest holds.
    @Test func aChangelogHeadingBelowTheManifestsVersionIsNoRelease() throws {
        let repo = try GitRepository()
        func cargo(_ version: String) -> String { "[package]\nname = \"demo\"\nversion = \"\(version)\"\n" }
        try repo.commit("chore: release 0.5.7", files: ["Cargo.toml": cargo("0.5.7"), "CHANGELOG.md": "# 0.5.7\n\n* A fix.\n"])
        try repo.git("tag", "v0.5.7")
        try repo.commit("chore: start 0.6", files: ["Cargo.toml": cargo("0.6.0")])
        try repo.commit("feat: a new socket option", files: ["src/lib.rs": "pub fn a() {}\n"])
        try repo.commit(
            "docs: the 0.5.10 changelog",
            files: ["CHANGELOG.md": "# 0.5.10\n\n* Backported fix.\n\n# 0.5.7\n\n* A fix.\n"])
        _ = try OutOfSampleRound15CLITests.initialise(repo)
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try BacktestFindingsCLITests.field(bump.stdout, "next") as? String == "0.6.0", "\(bump)")
    }
}
