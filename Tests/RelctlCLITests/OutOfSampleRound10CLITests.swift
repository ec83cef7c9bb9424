import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the tenth out-of-sample round of the back-test found (session 68: jmoiron/sqlx, …), each
/// on a generated repository of the shape that was read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound10CLITests {
    /// A Go module at the repository's top, named `sqlx` by its origin, tagged `sqlx-v1.0` and
    /// `sqlx-v1.1` in its first years and then `v1.2.0`, `v1.3.0`, … over the following years.
    /// `years` is how long the bare releases went on after the named ones.
    func renamedSeries(bareReleases: Int, years: Int) throws -> GitRepository {
        let repo = try GitRepository()
        try repo.git("remote", "add", "origin", "https://github.com/acme/sqlx.git")
        try repo.commit("first", files: ["go.mod": "module github.com/acme/sqlx\n\ngo 1.20\n", "sqlx.go": "package sqlx\n"], date: "2014-04-29T10:00:00Z")
        try repo.git("tag", "sqlx-v1.0")
        try repo.commit("more", files: ["sqlx.go": "package sqlx\n// 1.1\n"], date: "2015-01-10T10:00:00Z")
        try repo.git("tag", "sqlx-v1.1")
        // Spread over `years` from 2015: the newest bare release that many years after the named ones.
        let step = Double(years) * 365 * 86_400 / Double(bareReleases)
        for index in 1...bareReleases {
            let date = Date(timeIntervalSince1970: 1_420_884_000 + step * Double(index))
            try repo.commit("change \(index)", files: ["sqlx.go": "package sqlx\n// \(index)\n"], date: ISO8601DateFormatter().string(from: date))
            try repo.git("tag", "v1.\(index + 1).0")
        }
        try repo.commit("fixes #688", files: ["sqlx.go": "package sqlx\n// next\n"], date: "2024-06-01T10:00:00Z")
        return repo
    }

    /// jmoiron/sqlx: init wrote `{project}-v{version}` for its two tags of 2014-15 and proposed
    /// `sqlx-v1.1.1` at each of its last 7 release points, whose tags were `v1.3.0` … `v1.4.0`.
    /// A project at the repository's top owns its bare tags: a named series they left behind for
    /// years is not its current series.
    @Test func aProjectsOldNamedTagsLeftBehindByItsBareReleasesAreNotItsSeries() throws {
        let repo = try renamedSeries(bareReleases: 4, years: 6)
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("tag-format = \"v{version}\""), "\(config)")
        let plan = try relctl(["plan", "--json"], in: repo.url)
        let members = try #require(try BacktestFindingsCLITests.field(plan.stdout, "members") as? [[String: Any]], "\(plan)")
        #expect(members.first?["current"] as? String == "1.5.0" && members.first?["tag"] as? String == "v1.5.1", "\(plan)")
    }

    /// The rule needs years: bare tags a project made soon after its named ones (a year here) may
    /// be another thing's, and the named series stays, as before.
    @Test func namedTagsFollowedSoonByBareOnesKeepTheirSeries() throws {
        let repo = try renamedSeries(bareReleases: 4, years: 1)
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("tag-format = \"{project}-v{version}\""), "\(config)")
    }
}
