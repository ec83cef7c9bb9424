import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlChanges
@testable import RelctlModel
@testable import RelctlProject

/// `[versioning] fragments = "release-file"`: the level a pull request's release file names, in
/// the spellings autopub (strawberry) and hypothesis write, and the RELEASE.md files that are no
/// release file.
@Suite(.timeLimit(.minutes(30))) struct ReleaseFileTests {
    @Test(arguments: [
        // autopub's front matter, as strawberry writes it today.
        ("---\nrelease type: minor\nsocial_messages:\n  x: >-\n    out!\n---\n\nAdds support for unions.\n", "minor"),
        // autopub's older form: the first line.
        ("Release type: patch\n\nFixes the parser.\n", "patch"),
        // hypothesis' RELEASE.rst.
        ("RELEASE_TYPE: major\n\nThis release drops Python 3.9.\n", "major"),
        // Blank lines first, a quoted value, spaces around the colon.
        ("\n\n---\nRelease Type : \"minor\"\n---\n", "minor"),
    ])
    func levelNamed(text: String, level: String) {
        #expect(ChangeFragments.releaseFileLevel(text)?.rawValue == level)
    }

    @Test(arguments: [
        // A RELEASE.md telling how to release is no release file.
        "# Releasing\n\nPick the release type: minor or patch, then tag.\n",
        // A release type named below the first line, outside front matter.
        "Notes\n\nrelease type: minor\n",
        // A level the file cannot name.
        "---\nrelease type: huge\n---\n",
        "release type: prerelease\n",
        // Front matter without the key; and nothing at all.
        "---\ntitle: 2.0\n---\nrelease type: minor\n",
        "",
    ])
    func noLevel(text: String) {
        #expect(ChangeFragments.releaseFileLevel(text) == nil)
    }
}

/// The front matter of changesets, covector's and knope's change files, whatever their line ends.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct ChangeFileFrontMatterTests {
    /// wry's `.changes/1344-with_scroll_bar_style.md` is written with CRLF line ends: Swift reads
    /// `"\r\n"` as one character, so a split on `"\n"` kept the whole file one line, and the
    /// file's minor was never read (wry 0.43.0 proposed as 0.42.1, round 35).
    @Test(arguments: ["\n", "\r\n"])
    func frontMatterIsReadWhateverTheLineEnds(end: String) {
        let text = ["---", "\"wry\": minor", "---", "", "Adds `with_scroll_bar_style`."].joined(separator: end)
        #expect(ChangeFragments.changesetLevel(text, names: ["wry"]) == .minor)
    }

    /// knope's lone `[package]` is `default` in its change files, with or without versioned files.
    @Test(arguments: ["[package]\nchangelog = \"CHANGELOG.md\"\n", "[package]\nversioned_files = [\"Cargo.toml\"]\n"])
    func knopesLonePackageIsDefault(knope: String) throws {
        let folder = try TemporaryDirectory()
        try Data(knope.utf8).write(to: folder.url.appendingPathComponent("knope.toml"))
        let config = try ConfigLoader.parse(try TOMLDocument(text: "[project]\nname = \"tool\"\n", path: "relctl.toml"), root: folder.url)
        #expect(ChangeFragments.knopeNames(config: config).contains("default"))
    }

    /// knope's custom change types (`note`, from `extra_changelog_sections`) are patches; without
    /// `otherTypes` (changesets, covector) a value naming no level is none.
    @Test func knopesCustomTypeIsAPatch() {
        let text = "---\nversioning: note\nconfig: note\n---\n\nBumped a dependency.\n"
        #expect(ChangeFragments.changesetLevel(text, names: ["versioning"], otherTypes: .patch) == .patch)
        #expect(ChangeFragments.changesetLevel(text, names: ["versioning"]) == nil)
        #expect(ChangeFragments.changesetLevel(text, names: ["knope"], otherTypes: .patch) == nil)
    }
}

/// changesets' package patterns: zag's `"fixed": [["@zag-js/**"]]` matched no package (the empty
/// piece between the stars found nothing), so init wrote no group and its 86 packages released
/// on their own (10 points of round 43).
@Suite(.timeLimit(.minutes(30))) struct ChangesetsPatternTests {
    @Test func aDoubleStarMatchesAsOneDoes() {
        #expect(ChangeFragments.matches("@zag-js/core", "@zag-js/**"))
        #expect(ChangeFragments.matches("@zag-js/machines-combobox", "@zag-js/**"))
        #expect(ChangeFragments.matches("@zag-js/core", "@zag-js/*"))
        #expect(ChangeFragments.matches("@zag-js/react-core", "@zag-js/**-core"))
        #expect(!ChangeFragments.matches("@ark-ui/core", "@zag-js/**"))
        #expect(!ChangeFragments.matches("@zag-js/core", "@zag-js/**-react"))
    }
}
