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

    /// acme+line: minors v1.0.0 … v1.5.0 on main, each after a `fix:` (a minor cadence the commits
    /// do not explain), then v1.5.1 made only on the branch `v1.5-stable` by a `Bumping version`
    /// commit (yq's subject), above every release before it, so it is a point of the default line.
    /// It is replayed at the fix, on that branch, as its maintainer made it: relctl reads a
    /// maintenance line there and proposes 1.5.1. (With `main` reset onto the commit, main's minor
    /// cadence gave 1.6.0: rclone's v1.74.1, fluxcd's runtime v0.110.1.)
    @Test func aReleaseMadeOnlyOnAMaintenanceBranchIsReplayedOnThatBranch() throws {
        try withTemporaryDirectory { mirrors in
            let folder = try TemporaryDirectory(prefix: "relctl-backtest-line")
            let repo = try GitRepository(directory: folder)
            var day = 0
            func commit(_ message: String, version: String? = nil, file: String? = nil) throws {
                day += 1
                var files: [String: String] = [:]
                if let version { files["package.json"] = "{\n  \"name\": \"line\",\n  \"version\": \"\(version)\"\n}\n" }
                if let file { files[file] = message + "\n" }
                try repo.commit(message, files: files, date: String(format: "2026-01-%02dT03:00:00Z", day))
            }
            try commit("feat: start", version: "1.0.0", file: "index.js")
            try repo.git("tag", "v1.0.0")
            for minor in 1...5 {
                try commit("fix: change \(minor)", file: "f\(minor).js")
                try commit("Bumping version", version: "1.\(minor).0")
                try repo.git("tag", "v1.\(minor).0")
            }
            try repo.git("checkout", "-q", "-b", "v1.5-stable")
            try commit("fix: a crash, backported", file: "crash.js")
            try commit("Bumping version", version: "1.5.1")
            try repo.git("tag", "v1.5.1")
            try repo.git("checkout", "-q", "main")
            try commit("fix: change 6", file: "f6.js")
            let points = try Self.replayedPoints(of: folder, as: "acme+line", entry: "acme+line kind=js", in: mirrors)
            let point = try #require(points.first { $0["tag"] as? String == "v1.5.1" }, "\(points)")
            // `Bumping version` is the release commit: the replay is at its parent, the fix.
            #expect(point["subjects"] as? [String] == ["fix: a crash, backported"], "\(point)")
            #expect((point["row"] as? [String: Any])?["next"] as? String == "1.5.1", "\(point)")
            #expect(point["match"] as? Bool == true, "\(point)")
        }
    }

    /// semantic-release/commit-analyzer merges its pull requests from branches of its own
    /// organisation: "Merge pull request #608 from semantic-release/corepack" named no release,
    /// yet the owner's `release` made it one, and the replay stood before the merged `feat!:`
    /// (round 21, 3 points). The owner is not read; a branch named for a release still is.
    @Test func aMergeFromAnOwnerNamedReleaseIsNoReleaseCommit() throws {
        try withTemporaryDirectory { mirrors in
            let folder = try TemporaryDirectory(prefix: "relctl-backtest-merge")
            let repo = try GitRepository(directory: folder)
            try repo.commit("feat: start", files: ["package.json": "{\"name\":\"ca\",\"version\":\"1.0.0\"}\n"], date: "2026-01-01T00:00:00Z")
            try repo.git("tag", "v1.0.0")
            try repo.git("checkout", "-q", "-b", "corepack")
            try repo.commit("feat!: require Node.js 20", files: ["engines.js": "20\n"], date: "2026-01-02T00:00:00Z")
            try repo.git("checkout", "-q", "main")
            try repo.commit("fix: a parse error", files: ["parse.js": "p\n"], date: "2026-01-03T00:00:00Z")
            try repo.git(
                ["merge", "-q", "--no-ff", "-m", "Merge pull request #608 from semantic-release/corepack", "corepack"],
                environment: ["GIT_COMMITTER_DATE": "2026-01-04T00:00:00Z", "GIT_AUTHOR_DATE": "2026-01-04T00:00:00Z"])
            try repo.git("tag", "v2.0.0")
            try repo.commit("fix: after", files: ["after.js": "a\n"], date: "2026-01-05T00:00:00Z")
            let points = try Self.replayedPoints(of: folder, as: "acme+ca", entry: "acme+ca kind=js", in: mirrors)
            let point = try #require(points.first { $0["tag"] as? String == "v2.0.0" }, "\(points)")
            #expect((point["row"] as? [String: Any])?["next"] as? String == "2.0.0", "\(point)")
            #expect(point["match"] as? Bool == true, "\(point)")
        }
    }

    /// acme+rc: syncthing tags its final on the last rc's commit a week later (`v1.0.1-rc.1`, then
    /// `v1.0.1` on the same commit). The rc existed before the release, so the replay shows it:
    /// relctl's current is the rc (the script hid it, and a patch over v1.0.0 "matched"). Twin
    /// tags made at the release itself stay hidden with it. With nothing since the rc, relctl
    /// promotes it (session 76): the match is now read from the rc, not from a patch over v1.0.0.
    @Test func aPrereleaseTaggedDaysEarlierOnTheReleasedCommitIsVisible() throws {
        try withTemporaryDirectory { mirrors in
            let folder = try TemporaryDirectory(prefix: "relctl-backtest-rc")
            let repo = try GitRepository(directory: folder)
            func tag(_ name: String, on date: String) throws {
                try repo.git(
                    ["tag", "-a", name, "-m", name], environment: ["GIT_COMMITTER_DATE": date, "GIT_AUTHOR_DATE": date])
            }
            try repo.commit(
                "feat: start", files: ["package.json": "{\"name\":\"rc\",\"version\":\"1.0.0\"}\n"],
                date: "2026-01-01T00:00:00Z")
            try tag("v1.0.0", on: "2026-01-01T00:00:00Z")
            try repo.commit("fix: a crash", files: ["a.js": "a\n"], date: "2026-01-05T00:00:00Z")
            try tag("v1.0.1-rc.1", on: "2026-01-05T00:00:00Z")
            try tag("v1.0.1", on: "2026-01-12T00:00:00Z")
            try tag("1.0.1", on: "2026-01-12T00:00:30Z")
            let points = try Self.replayedPoints(of: folder, as: "acme+rc", entry: "acme+rc tags=v{version} kind=js", in: mirrors)
            let point = try #require(points.first { $0["tag"] as? String == "v1.0.1" }, "\(points)")
            #expect((point["row"] as? [String: Any])?["current"] as? String == "1.0.1-rc.1", "\(point)")
            #expect((point["row"] as? [String: Any])?["commits"] as? Int == 0, "\(point)")
            #expect(point["match"] as? Bool == true, "\(point)")
        }
    }

    /// The points the script replays for `folder`'s repository, cloned bare into `mirrors` as `name`
    /// and listed by `entry` (one entry, the script's exit checked).
    static func replayedPoints(
        of folder: TemporaryDirectory, as name: String, entry: String, in mirrors: TemporaryDirectory
    ) throws -> [[String: Any]] {
        let cloned = try run("git", ["clone", "-q", "--bare", folder.path, mirrors.url.appendingPathComponent(name).path])
        #expect(cloned.status == 0, "\(cloned)")
        let list = try mirrors.write("repos.txt", entry + "\n")
        let json = mirrors.url.appendingPathComponent("out.json")
        let result = try run(
            DogfoodCLITests.repositoryRoot.appendingPathComponent("scripts/backtest").path,
            ["--relctl", relctlBinary.path, "--mirrors", mirrors.path, "--list", list.path, "--json", json.path],
            in: mirrors.url, environment: ["NO_COLOR": "1"])
        #expect(result.status == 0, "\(result)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        return try #require((document["results"] as? [[String: Any]])?.first?["points"] as? [[String: Any]])
    }
}
