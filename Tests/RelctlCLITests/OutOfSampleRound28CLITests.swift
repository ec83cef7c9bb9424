import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the out-of-sample rounds left for session 82 and its rounds 28 and 29 found: each on a
/// generated repository of the shape read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound28CLITests {
    /// An application tagged `v0.32.0`, `v0.32.1`, `v0.33.0` beside its chart in `helm/app`
    /// (`helm-v2.17.5`, appVersion 0.32.0), the chart untouched after its release while the
    /// application moves on.
    static func applicationWithChart(appVersion: String = "0.32.0", appTags: [String] = ["v0.31.0", "v0.32.0", "v0.32.1"])
        throws -> GitRepository
    {
        let repository = try GitRepository()
        let chart = "apiVersion: v2\nname: app\nversion: 2.17.5\nappVersion: \(appVersion)\n"
        try repository.commit(
            "Release chart 2.17.5", files: ["main.go": "package main\n", "helm/app/Chart.yaml": chart],
            date: "2025-01-10T10:00:00Z")
        try repository.git("tag", "helm-v2.17.5")
        for (index, tag) in appTags.enumerated() {
            try repository.commit(
                "Fix the controller's retry (#\(index))", files: ["main.go": "package main\n// \(index)\n"],
                date: "2025-02-1\(index)T10:00:00Z")
            try repository.git("tag", tag)
        }
        return repository
    }

    static func chartPlan(_ repository: GitRepository) throws -> [String: Any] {
        let folder = repository.url.appendingPathComponent("helm/app")
        let initialised = try relctl(["init", "--quiet"], in: folder)
        #expect(initialised.status == 0, "\(initialised)")
        let result = try relctl(["plan", "--json"], in: folder)
        #expect(result.status == 0, "\(result)")
        let plan = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]) ?? [:]
        return ((plan["members"] as? [[String: Any]]) ?? []).first ?? [:]
    }

    /// sealed-secrets releases its chart (`helm-v2.17.6`) for each application release (`v0.32.1`)
    /// in a commit that only moves `appVersion`: at the commit before it nothing changed in the
    /// chart's folder and relctl proposed nothing (7 points of round 26; metrics-server 3 and
    /// actions-runner-controller 2 more). An appVersion the repository's bare series has passed
    /// makes the chart's patch due, reason `dependency`.
    @Test func aChartTrailingItsApplicationIsDueAPatch() throws {
        let repository = try Self.applicationWithChart()
        let row = try Self.chartPlan(repository)
        #expect(row["current"] as? String == "2.17.5", "\(row)")
        #expect(row["next"] as? String == "2.17.6", "\(row)")
        #expect(row["tag"] as? String == "helm-v2.17.6", "\(row)")
        #expect(row["reason"] as? String == "dependency", "\(row)")
        #expect(row["commits"] as? Int == 0, "\(row)")
        let bump = try relctl(["bump"], in: repository.url.appendingPathComponent("helm/app"))
        #expect(bump.stderr.contains("appVersion 0.32.0 trails the application's release v0.32.1"), "\(bump)")
    }

    /// A chart at its application's latest release, or one whose appVersion no bare tag names (a
    /// repository of charts, where another chart's `name-0.32.0` is no application of this one),
    /// has nothing to release.
    @Test func aChartAtItsApplicationsReleaseOrWithoutOneHasNothingDue() throws {
        let current = try Self.applicationWithChart(appVersion: "0.32.1")
        #expect(try Self.chartPlan(current)["next"] is NSNull)
        let charts = try Self.applicationWithChart(appTags: ["other-0.31.0", "other-0.32.0", "other-0.33.0"])
        let row = try Self.chartPlan(charts)
        #expect(row["next"] is NSNull, "\(row)")
        #expect(row["reason"] as? String == "none", "\(row)")
    }

    /// A repository whose member folder `folder` releases in a series relctl's tag reading does not
    /// choose: three releases tagged `tags` (oldest first), the folder holding `files`, and old
    /// `v` tags of the repository's first years.
    static func memberSeries(folder: String, files: [String: String], tags: [String]) throws -> GitRepository {
        let repository = try GitRepository()
        try repository.commit("Initial import", files: ["README.md": "x\n"], date: "2019-01-10T10:00:00Z")
        for old in ["v1.0.0", "v1.1.0", "v2.0.0"] {
            try repository.commit("Release \(old)", files: ["README.md": "\(old)\n"], date: "2019-02-10T10:00:00Z")
            try repository.git("tag", old)
        }
        var withFolder: [String: String] = [:]
        for (path, text) in files { withFolder[folder + "/" + path] = text }
        try repository.commit("Add the package", files: withFolder, date: "2024-01-10T10:00:00Z")
        for (index, tag) in tags.enumerated() {
            try repository.commit(
                "fix: handle an empty input (#\(index))", files: ["\(folder)/src/fix\(index).txt": "\(index)\n"],
                date: "2024-0\(index + 2)-10T10:00:00Z")
            try repository.git("tag", tag)
        }
        try repository.commit("fix: close the reader", files: ["\(folder)/src/reader.txt": "x\n"], date: "2024-09-10T10:00:00Z")
        return repository
    }

    static func folderInit(_ repository: GitRepository, _ folder: String) throws -> (config: String, next: String?) {
        let url = repository.url.appendingPathComponent(folder)
        let initialised = try relctl(["init", "--quiet"], in: url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = (try? String(contentsOf: url.appendingPathComponent("relctl.toml"), encoding: .utf8)) ?? ""
        let bump = try relctl(["bump"], in: url)
        return (config, bump.status == 0 ? bump.stdout.trimmingCharacters(in: .whitespacesAndNewlines) : nil)
    }

    /// haystack's integrations name their series in `pyproject.toml` (hatch-vcs' `tag-pattern =
    /// 'integrations\/amazon_bedrock-v(?P<version>.*)'`); relctl wrote `v{version}` and proposed
    /// 0.1.0 (20 points of round 29). opentelemetry-dotnet's `<MinVerTagPrefix>core-` (6 points of
    /// round 28) and gson's maven-release-plugin tags `gson-parent-2.13.2` (the default
    /// `artifactId-version`; javalin's too: 10 points) the same: the build configuration's series.
    @Test(arguments: [
        (
            "integrations/amazon_bedrock",
            [
                "pyproject.toml":
                    "[project]\nname = \"amazon-bedrock-haystack\"\ndynamic = [\"version\"]\n\n[tool.hatch.version]\nsource = \"vcs\"\ntag-pattern = 'integrations\\/amazon_bedrock-v(?P<version>.*)'\n"
            ],
            ["integrations/amazon_bedrock-v6.1.0", "integrations/amazon_bedrock-v6.2.0", "integrations/amazon_bedrock-v6.2.1"],
            "integrations/amazon_bedrock-v{version}", "6.2.2"
        ),
        (
            "src/OpenTelemetry",
            ["OpenTelemetry.csproj": "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <MinVerTagPrefix>core-</MinVerTagPrefix>\n  </PropertyGroup>\n</Project>\n"],
            ["core-1.12.0", "core-1.13.0", "core-1.13.1"], "core-{version}", "1.13.2"
        ),
        (
            "java",
            ["pom.xml": "<project>\n  <parent>\n    <artifactId>oss-parent</artifactId>\n  </parent>\n  <artifactId>gson-parent</artifactId>\n  <version>2.13.3-SNAPSHOT</version>\n</project>\n"],
            ["gson-parent-2.12.0", "gson-parent-2.13.0", "gson-parent-2.13.1"], "gson-parent-{version}", "2.13.2"
        ),
    ])
    func theSeriesTheBuildConfigurationNames(
        folder: String, files: [String: String], tags: [String], format: String, expected: String
    ) throws {
        let repository = try Self.memberSeries(folder: folder, files: files, tags: tags)
        let (config, next) = try Self.folderInit(repository, folder)
        #expect(config.contains("tag-format = \"\(format)\""), "\(config)")
        #expect(next == expected)
    }

    /// spotless' `plugin-gradle/CHANGES.md` heads each release `## [8.9.0] - 2026-07-27`, tagged
    /// `gradle/8.9.0`; the repository's `v` tags ended years ago and its `lib/` series is another
    /// package's. init wrote `v{version}` (20 points of round 28): the series the changelog's
    /// newest releases are tagged in is the folder's, and where two are (`lib/3.8.0` of 2020 and
    /// `maven/3.8.0`), the one the folder's name holds.
    @Test func theSeriesTheChangelogsReleasesAreTaggedIn() throws {
        let changes = "# spotless-plugin-maven\n\n## [Unreleased]\n\n## [3.8.0] - 2024-04-10\n- x\n\n## [3.7.0] - 2024-03-10\n- y\n\n## [3.6.0] - 2024-02-10\n- z\n"
        let repository = try Self.memberSeries(
            folder: "plugin-maven", files: ["CHANGES.md": changes], tags: ["maven/3.6.0", "maven/3.7.0", "maven/3.8.0"])
        for old in ["lib/3.6.0", "lib/3.7.0", "lib/3.8.0"] { try repository.git("tag", old, "v1.0.0") }
        let (config, next) = try Self.folderInit(repository, "plugin-maven")
        #expect(config.contains("tag-format = \"maven/{version}\""), "\(config)")
        #expect(next == "3.8.1")
    }

    /// bloc's `packages/bloc`: init read the releases' `feat(vscode)` and `feat(intellij)`, other
    /// folders' commits, as the package's and wrote `features = "patch"` (4 points of round 28).
    /// Run in a member's folder, init reads the folder's commits, as plan counts them.
    @Test func aMembersHabitsAreReadFromItsOwnCommits() throws {
        let repository = try GitRepository()
        try repository.commit("chore: start", files: ["packages/bloc/pubspec.yaml": "name: bloc\n"], date: "2024-01-01T10:00:00Z")
        try repository.git("tag", "bloc-v8.0.0")
        for index in 1...4 {
            try repository.commit(
                "feat(vscode): add snippet \(index)", files: ["extensions/vscode/s\(index).json": "{}\n"],
                date: "2024-0\(index + 1)-01T10:00:00Z")
            try repository.commit(
                "fix: a typo \(index)", files: ["packages/bloc/lib/t\(index).dart": "x\n"], date: "2024-0\(index + 1)-02T10:00:00Z")
            try repository.git("tag", "bloc-v8.0.\(index)")
        }
        try repository.commit("feat: add Emitter.onEach", files: ["packages/bloc/lib/emitter.dart": "x\n"], date: "2024-07-01T10:00:00Z")
        let (config, next) = try Self.folderInit(repository, "packages/bloc")
        #expect(config.contains("tag-format = \"{project}-v{version}\""), "\(config)")
        #expect(!config.contains("features = \"patch\""), "\(config)")
        #expect(next == "8.1.0")
    }

    /// PostgREST tags two numbers (`v14.10`, "MAJOR.PATCH two-part versioning"): its `### Fixed`
    /// section under Unreleased turned off the minor cadence init wrote, and relctl proposed
    /// 14.10.1 for v14.11 (7 points), on its `v14` line too (7 more). A fix steps the second number.
    @Test func twoNumberVersionsStepTheSecondForAFix() throws {
        let repository = try GitRepository()
        for (index, minor) in (5...10).enumerated() {
            try repository.commit(
                "fix: a leak (#\(index))", files: ["src/Main.hs": "-- \(index)\n"], date: "2025-0\(index + 1)-10T10:00:00Z")
            try repository.git("tag", "v14.\(minor)")
        }
        try repository.commit(
            "fix: close the pool", files: ["src/Pool.hs": "x\n", "CHANGELOG.md": "# Changelog\n\n## Unreleased\n\n### Fixed\n\n- Close the pool\n\n## [14.10] - 2025-06-10\n\n- x\n"],
            date: "2025-08-10T10:00:00Z")
        _ = try VersionIntentCLITests.initialise(repository)
        let bump = try relctl(["bump"], in: repository.url)
        #expect(bump.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "14.11.0", "\(bump)")
        #expect(bump.stderr.contains("the releases are tagged with two numbers (v14.10): a fix steps the second"), "\(bump)")
    }

    /// community.docker writes the next release into `galaxy.yml` ahead of it ("The next expected
    /// release will be 5.1.0.") and keeps antsibull-changelog's fragments (`minor_changes:`,
    /// `bugfixes:`) in `changelogs/fragments/`; relctl read no manifest and no fragment
    /// (community.docker 8/10, kubernetes.core's `stable-5` 2/10). init lists galaxy.yml's
    /// `version:` and writes `fragments = "antsibull"`; a fragment's sections give the level.
    /// Where galaxy.yml names the next release, that is the release (antsibull-changelog releases
    /// it: community.general's 12.6.1 over a `minor_changes` fragment, round 39).
    @Test(arguments: [
        ("minor_changes", false, "5.1.0"), ("minor_changes", true, "5.0.7"), ("bugfixes", true, "5.0.7"),
        ("trivial", true, "5.0.7"),
    ])
    func anAnsibleCollectionsGalaxyFileAndFragments(section: String, prepared: Bool, expected: String) throws {
        let repository = try GitRepository()
        let galaxy = { (version: String) in "---\nnamespace: community\nname: docker\nversion: \(version)\nreadme: README.md\n" }
        try repository.commit(
            "Release 5.0.6.",
            files: [
                "galaxy.yml": galaxy("5.0.6"), "changelogs/config.yaml": "changelog_filename_template: ../CHANGELOG.rst\n",
                "changelogs/fragments/.keep": "", "plugins/modules/docker_container.py": "x = 1\n",
            ])
        try repository.git("tag", "5.0.6")
        if prepared { try repository.commit("Prepare 5.0.7.", files: ["galaxy.yml": galaxy("5.0.7")]) }
        try repository.commit(
            "docker_container: handle a missing network (#1248)",
            files: [
                "plugins/modules/docker_container.py": "x = 2\n",
                "changelogs/fragments/1248-network.yml": "\(section):\n  - docker_container - handle a missing network (https://github.com/ansible-collections/community.docker/pull/1248).\n",
            ])
        let config = try VersionIntentCLITests.initialise(repository)
        #expect(config.contains("path = \"galaxy.yml\""), "\(config)")
        #expect(config.contains("fragments = \"antsibull\""), "\(config)")
        #expect(try VersionIntentCLITests.bumpJSON(repository)["next"] as? String == expected)
        #expect(try relctl(["check"], in: repository.url).status == 0)
    }

    /// dart-lang/http's packages write the coming version into `pubspec.yaml` (`1.2.0-wip` while
    /// it is prepared, the Dart team's marker) and publish before tagging; relctl read no
    /// pubspec and proposed the next patch (4 points of round 28). init lists `version:` and names
    /// the package from `name:`; `-wip` is a development marker.
    @Test func aDartPackagesPubspecNamesTheReleaseInPreparation() throws {
        let repository = try GitRepository()
        let pubspec = { (version: String) in "name: http\ndescription: A composable HTTP client.\nversion: \(version)\n" }
        try repository.commit("Release 1.1.0", files: ["pkgs/http/pubspec.yaml": pubspec("1.1.0"), "pkgs/http/lib/http.dart": "x\n"])
        try repository.git("tag", "http-v1.1.0")
        try repository.commit("Start 1.2.0", files: ["pkgs/http/pubspec.yaml": pubspec("1.2.0-wip")])
        try repository.commit("Fix a header's case", files: ["pkgs/http/lib/http.dart": "y\n"])
        let (config, next) = try Self.folderInit(repository, "pkgs/http")
        #expect(config.contains("path = \"pubspec.yaml\""), "\(config)")
        #expect(config.contains("name = \"http\""), "\(config)")
        #expect(next == "1.2.0")
    }

    /// riverpod heads its pending changes `## Unreleased minor` (`Unreleased patch`, `Unreleased
    /// fix`) above flat entries; relctl proposed a patch for its 3.2.0. The heading's word is the
    /// level.
    @Test(arguments: [("minor", "3.2.0"), ("patch", "3.1.1"), ("fix", "3.1.1")])
    func anUnreleasedHeadingNamingALevel(word: String, expected: String) throws {
        let repository = try GitRepository()
        let released = "## 3.1.0 - 2025-10-01\n\n- Fix a rebuild.\n"
        try repository.commit(
            "riverpod : 3.0.3 -> 3.1.0",
            files: ["packages/riverpod/pubspec.yaml": "name: riverpod\nversion: 3.1.0\n", "packages/riverpod/CHANGELOG.md": released])
        try repository.git("tag", "riverpod-v3.1.0")
        try repository.commit(
            "Support Ref.listenSelf in notifiers (#4300)",
            files: [
                "packages/riverpod/lib/ref.dart": "x\n",
                "packages/riverpod/CHANGELOG.md": "## Unreleased \(word)\n\n- Support `Ref.listenSelf` in notifiers.\n\n" + released,
            ])
        let (config, next) = try Self.folderInit(repository, "packages/riverpod")
        #expect(config.contains("changelog = \"CHANGELOG.md\""), "\(config)")
        #expect(next == expected)
    }

    /// langgraph tags its checkpoint library `checkpoint==4.1.1`, a pip requirement's spelling,
    /// beside the repository's bare `1.2.9`; in `libs/checkpoint`, whose pyproject.toml holds
    /// 4.1.1, init took the bare series (4 points of round 29). A name ending in `==` starts a
    /// series too.
    @Test func aSeriesSpelledAsARequirement() throws {
        let repository = try GitRepository()
        let pyproject = { (version: String) in "[project]\nname = \"langgraph-checkpoint\"\nversion = \"\(version)\"\n" }
        for (index, version) in ["1.2.7", "1.2.8", "1.2.9"].enumerated() {
            try repository.commit("release \(version)", files: ["libs/langgraph/src/g\(index).py": "x\n"])
            try repository.git("tag", version)
        }
        for version in ["4.0.3", "4.1.0", "4.1.1"] {
            try repository.commit("checkpoint \(version)", files: ["libs/checkpoint/pyproject.toml": pyproject(version)])
            try repository.git("tag", "checkpoint==\(version)")
        }
        try repository.commit("fix(checkpoint): close the saver", files: ["libs/checkpoint/src/saver.py": "x\n"])
        let (config, next) = try Self.folderInit(repository, "libs/checkpoint")
        #expect(config.contains("tag-format = \"checkpoint=={version}\""), "\(config)")
        #expect(next == "4.1.2")
    }
}
