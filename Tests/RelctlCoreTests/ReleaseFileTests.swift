import Foundation
import RelctlTestTraits
import Testing

@testable import RelctlChanges

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
