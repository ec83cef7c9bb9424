import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the nineteenth out-of-sample round (session 77) and the regression set's leftovers found
/// reading real repositories, each on a generated repository of the shape that was read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound19CLITests {
    /// go-zero released `feat:` ranges as 1.8.x/1.9.x patches seven times to two minors, unocss
    /// six to two: relctl proposed the next minor each time (regression set: go-zero 3/10, unocss
    /// 5/10). Where the typed history at 1.0.0 and above shows feats released as patches (three at
    /// least, three for each feat minor), init writes `features = "patch"`; a project whose feats
    /// made minors and whose fixes made patches keeps SemVer's minor. A breaking change is still a major.
    @Test(arguments: [true, false])
    func typedHistoryShowingFeatPatchesKeepsThePatch(patches: Bool) throws {
        let repo = try GitRepository()
        func package(_ version: String) -> String { "{\n  \"name\": \"demo\",\n  \"version\": \"\(version)\"\n}\n" }
        try repo.commit("feat: start", files: ["package.json": package("1.0.0"), "src/a.js": "0\n"])
        try repo.git("tag", "v1.0.0")
        // Each step: (subject of its one change, version released).
        let steps: [(String, String)] =
            patches
            ? [("feat: an option", "1.0.1"), ("feat: a flag", "1.0.2"), ("feat: a mode", "1.1.0"),
               ("feat: a hook", "1.1.1"), ("fix: a crash", "1.1.2"), ("feat: a format", "1.1.3")]
            : [("feat: an option", "1.1.0"), ("fix: a typo", "1.1.1"), ("feat: a flag", "1.2.0"),
               ("fix: a crash", "1.2.1"), ("feat: a mode", "1.3.0"), ("fix: a leak", "1.3.1")]
        for (index, (subject, version)) in steps.enumerated() {
            try repo.commit(subject, files: ["src/a.js": "\(index + 1)\n"])
            try repo.commit("chore: release v\(version)", files: ["package.json": package(version)])
            try repo.git("tag", "v\(version)")
        }
        try repo.commit("feat: a new command", files: ["src/b.js": "b\n"])
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("features = \"patch\"") == patches, "\(config)")
        let latest = steps.last?.1 ?? ""
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try BacktestFindingsCLITests.field(bump.stdout, "next") as? String == (patches ? "1.1.4" : "1.4.0"), "\(bump) after \(latest)")
        try repo.commit("feat!: drop the old command", files: ["src/b.js": "c\n"])
        let major = try relctl(["bump"], in: repo.url)
        #expect(major.status == 0 && major.stdout == "2.0.0\n", "\(major)")
    }
}
