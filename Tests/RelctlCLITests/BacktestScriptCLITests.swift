import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// `scripts/backtest` (issue 63) replays a project's releases with the built relctl: at the commit
/// before each release, with the tags made later hidden, `init` then `plan --json`, against the
/// version the project released, beside the naive "next patch".
@Suite("scripts/backtest", .timeLimit(.minutes(30)), .removesTemporaries)
struct BacktestScriptCLITests {
    /// acme+tool: v1.0.0, then `fix` released as 1.0.1 and `feat` as 1.1.0 (each by a
    /// "chore: release" commit, so the replay runs at its parent), then a `fix` the project
    /// released as 1.3.0 (its own choice). Lightweight tags, one minute apart.
    static func makeProject(in mirrors: TemporaryDirectory) throws {
        let folder = try TemporaryDirectory(prefix: "relctl-backtest-project")
        let repo = try GitRepository(directory: folder)
        var minute = 0
        func commit(_ message: String, version: String? = nil, file: String? = nil) throws {
            minute += 1
            var files: [String: String] = [:]
            if let version { files["package.json"] = "{\n  \"name\": \"tool\",\n  \"version\": \"\(version)\"\n}\n" }
            if let file { files[file] = message + "\n" }
            try repo.commit(message, files: files, date: String(format: "2026-01-02T03:%02d:00Z", minute))
        }
        try commit("feat: start", version: "1.0.0", file: "index.js")
        try repo.git("tag", "v1.0.0")
        try commit("fix: a crash on empty input", file: "a.js")
        try commit("chore: release 1.0.1", version: "1.0.1")
        try repo.git("tag", "v1.0.1")
        try commit("feat: a --quiet option", file: "b.js")
        try commit("chore: release 1.1.0", version: "1.1.0")
        try repo.git("tag", "v1.1.0")
        try commit("fix: the --quiet option's help", file: "c.js")
        try commit("chore: release 1.3.0", version: "1.3.0")
        try repo.git("tag", "v1.3.0")
        let result = try run(
            "git", ["clone", "-q", "--bare", folder.path, mirrors.url.appendingPathComponent("acme+tool").path])
        #expect(result.status == 0, "\(result)")
    }

    @Test func replaysEachReleaseWithLaterTagsHiddenAndClassifiesTheMiss() throws {
        try withTemporaryDirectory { mirrors in
            try Self.makeProject(in: mirrors)
            let list = try mirrors.write("repos.txt", "# a comment\nacme+tool kind=js\n")
            let json = mirrors.url.appendingPathComponent("out.json")
            let table = mirrors.url.appendingPathComponent("out.md")
            let result = try run(
                DogfoodCLITests.repositoryRoot.appendingPathComponent("scripts/backtest").path,
                [
                    "--relctl", relctlBinary.path, "--mirrors", mirrors.path, "--list", list.path, "--json", json.path,
                    "--markdown", table.path,
                ],
                in: mirrors.url, environment: ["NO_COLOR": "1"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("acme+tool: 2/3 (naive 1)"), "\(result)")
            #expect(result.stdout.contains("wall time"), "\(result)")

            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
            let results = try #require(document["results"] as? [[String: Any]])
            let points = try #require(results.first?["points"] as? [[String: Any]])
            #expect(points.map { $0["tag"] as? String } == ["v1.0.1", "v1.1.0", "v1.3.0"])
            // The release commits' parents are replayed, with the release's own tag hidden.
            #expect(points.map { $0["match"] as? Bool } == [true, true, false])
            #expect(points.map { $0["tag_match"] as? Bool } == [true, true, false])
            #expect(points.map { $0["naive"] as? String } == ["1.0.1", "1.0.2", "1.1.1"])
            let miss = try #require(points.last)
            #expect((miss["row"] as? [String: Any])?["next"] as? String == "1.1.1", "\(miss)")
            #expect(miss["class"] as? String == "project's own choice", "\(miss)")
            #expect(miss["subjects"] as? [String] == ["fix: the --quiet option's help"], "\(miss)")

            let markdown = try String(contentsOf: table, encoding: .utf8)
            #expect(markdown.contains("| acme+tool | js | 2/3 | 2/3 | 1/3 | project's own choice 1 |"), "\(markdown)")
            #expect(markdown.contains("**v1.3.0** (after 1.1.0, 1 commits): relctl 1.1.1"), "\(markdown)")
        }
    }
}
