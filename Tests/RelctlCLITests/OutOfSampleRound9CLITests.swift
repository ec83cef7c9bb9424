import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the ninth out-of-sample round of the back-test found (session 66: opentelemetry-go-contrib,
/// lexical, typos, …), each on a generated repository of the shape that was read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound9CLITests {
    static func field(_ json: String, _ key: String) throws -> Any? { try BacktestFindingsCLITests.field(json, key) }

    @discardableResult
    static func commit(_ repo: GitRepository, _ message: String, day: Int, files: [String: String] = [:]) throws -> String {
        try BacktestFindingsCLITests.commit(repo, message, day: day, files: files)
    }

    /// opentelemetry-go-contrib releases its stable modules together (`v1.38.0`,
    /// `detectors/gcp/v1.38.0`), and its root module path has no `/v2`: a breaking change gives
    /// the root a minor (Go's major version rule), yet the lockstep group took the changes' major
    /// and proposed 2.0.0 for every member (9 of its 10 release points).
    @Test func aLockstepGroupKeepsGosMajorVersionRule() throws {
        let repo = try GitRepository()
        let config = """
            [project]
            name = "contrib"
            tag-format = "v{version}"

            [workspace]
            members = [".", "detectors/gcp"]
            tag-format = "{member}/v{version}"

            [workspace.tag-formats]
            gcp = "detectors/gcp/v{version}"

            [[workspace.group]]
            name = "contrib"
            members = ["contrib", "gcp"]

            """
        try Self.commit(
            repo, "Release v1.38.0", day: 1,
            files: [
                "relctl.toml": config, "go.mod": "module go.opentelemetry.io/contrib\n\ngo 1.23\n",
                "version.go": "package contrib\n", "detectors/gcp/go.mod": "module go.opentelemetry.io/contrib/detectors/gcp\n\ngo 1.23\n",
                "detectors/gcp/gcp.go": "package gcp\n",
            ])
        try repo.git("tag", "v1.38.0")
        try repo.git("tag", "detectors/gcp/v1.38.0")
        try Self.commit(repo, "feat!: drop the deprecated option", day: 2, files: ["version.go": "package contrib\n// v2\n"])
        try Self.commit(repo, "fix(gcp): read the zone", day: 3, files: ["detectors/gcp/gcp.go": "package gcp\n// zone\n"])
        let plan = try relctl(["plan", "--json"], in: repo.url)
        #expect(plan.status == 0, "\(plan)")
        let members = try #require(try Self.field(plan.stdout, "members") as? [[String: Any]], "\(plan)")
        #expect(members.map { $0["next"] as? String } == ["1.39.0", "1.39.0"], "\(plan)")
        #expect(members.map { $0["tag"] as? String } == ["v1.39.0", "detectors/gcp/v1.39.0"], "\(plan)")
    }

    /// lexical tags each release on a commit of its own that main never merges (`v0.39.0` …
    /// `v0.49.0`, a minor every time): init read the cadence from the merged releases alone, found
    /// none, and proposed patches for untyped histories (9 of its 10 release points).
    @Test func releasesTaggedOffTheBranchStillGiveTheCadence() throws {
        let repo = try GitRepository()
        let manifest = { (version: String) in "{\n  \"name\": \"lexical\",\n  \"version\": \"\(version)\"\n}\n" }
        var day = 1
        try Self.commit(repo, "Initial commit", day: day, files: ["package.json": manifest("0.30.0"), "src/a.js": "a\n"])
        try repo.git("tag", "v0.30.0")
        for minor in 31...38 {
            day += 1
            try Self.commit(repo, "[lexical] Bug Fix: mend \(minor)", day: day, files: ["src/a.js": "a \(minor)\n"])
            // The release commit is made on a detached head and tagged there; main goes on.
            try repo.git("checkout", "-q", "--detach")
            day += 1
            try Self.commit(repo, "v0.\(minor).0", day: day, files: ["package.json": manifest("0.\(minor).0")])
            try repo.git("tag", "v0.\(minor).0")
            try repo.git("checkout", "-q", "main")
        }
        try Self.commit(repo, "[lexical-table] Bug Fix: keep the selection", day: day + 1, files: ["src/a.js": "b\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("cadence = \"minor\""), "\(config)")
        let plan = try relctl(["plan", "--json"], in: repo.url)
        let members = try #require(try Self.field(plan.stdout, "members") as? [[String: Any]], "\(plan)")
        #expect(members.first?["next"] as? String == "0.39.0", "\(plan)")
    }
}
