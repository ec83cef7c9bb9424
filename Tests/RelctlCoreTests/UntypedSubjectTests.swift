import RelctlTestTraits
import Testing

@testable import RelctlChanges

/// Which subjects without a type say they add something (`[versioning] untyped-adds`).
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct UntypedSubjectTests {
    @Test(arguments: [
        "Add support for GitHub Apps (#3090)", "Adds `intlFormatDistance`", "added .wrapAll", "Support Python 3.13",
        "Allow overriding the base URL", "Implement `Repository.get_rules`", "net/http: add Server.Protocols",
        "[cli] Add a --json flag", "Introduce the `pick` function", "Expose `Timeout` in the public API",
        "Add md5 checksums to the manifest",
        // swift-asn1's (round 26): the tests come with the change.
        "Added visible string implementation with tests (#113)",
    ])
    func addingSubjects(subject: String) {
        #expect(UntypedSubject.adds(subject), "\(subject)")
    }

    @Test(arguments: [
        "Add tests for the parser", "Add missing import", "Add CI job for macOS", "Fix the crash in `parse`",
        "Update README", "Bump requests from 2.31 to 2.32", "Addressing review comments", "Add docs for `get_rules`",
        "Adding a changeset", "Supporting the old API is dropped", "Remove the old flag", "",
        "some area with spaces: add a flag",
        // typeguard's release commit, in every range: its patches looked as adding as its minors.
        "Added release date", "Add release notes for 4.4.0",
        // RediStack's (round 21): a file for editors, nothing its users gain.
        "add .editorconfig file",
        // go-jose's (round 22): a bot's configuration, `.github/dependabot.yml` alone.
        "Add dependabot configuration for Go and GH Actions (#119)", "Add renovate config",
        // rubocop's (round 25): a Markdown file for contributors and their tools.
        "Add newline at end of CLAUDE.md", "Add AGENTS.md and CLAUDE.md",
        "Add tests with fixtures for the parser",
    ])
    func otherSubjects(subject: String) {
        #expect(!UntypedSubject.adds(subject), "\(subject)")
    }
}
