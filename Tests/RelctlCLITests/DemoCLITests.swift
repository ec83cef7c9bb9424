import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// `make demo` is the README's first quick-start command: it must pass for a new user, whose
/// machine has no git identity, and for a maintainer whose global config demands signing.
@Suite("scripts/demo", .timeLimit(.minutes(60)), .removesTemporaries)
struct DemoCLITests {
    @Test func demoPassesWithoutGitIdentityAndWithSigningRequired() throws {
        try withTemporaryDirectory { home in
            // `gpg.program = false` makes any signing attempt fail, as it would without a key.
            try home.write(
                ".gitconfig", "[commit]\n\tgpgSign = true\n[tag]\n\tgpgSign = true\n[gpg]\n\tprogram = false\n")
            let result = try run(
                DogfoodCLITests.repositoryRoot.appendingPathComponent("scripts/demo").path, [relctlBinary.path],
                in: DogfoodCLITests.repositoryRoot,
                environment: [
                    "HOME": home.path, "XDG_CONFIG_HOME": home.path, "GIT_CONFIG_NOSYSTEM": "1", "EMAIL": "",
                    "NO_COLOR": "1",
                ]
            )
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.contains("The real run would succeed: relctl release v1.0.0"))
            // The demo ends by rebuilding the release it made and comparing every file.
            #expect(result.stderr.contains("relctl reproduce v1.0.0 (commit "), "\(result)")
            // Every file SHA256SUMS lists (archives, SBOMs, packages, channel files) rebuilt identical.
            let verdict = try #require(
                result.stderr.firstMatch(of: /: reproducible: (\d+) of (\d+) file\(s\) identical/), "\(result)")
            #expect(verdict.output.1 == verdict.output.2 && Int(verdict.output.1) ?? 0 >= 10, "\(result)")
            #expect(result.stdout.contains("demo: ok") || result.stderr.contains("demo: ok"))
        }
    }
}
