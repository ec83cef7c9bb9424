import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject
@testable import RelctlRelease

@Suite("relctl train", .serialized, .timeLimit(.minutes(45)), .removesTemporaries)
struct TrainCLITests {
    static let build = ReleaseFixture.standInBuild

    @Test func planPrintsWavesInDependencyOrder() throws {
        let train = try TrainFixture([
            ("server", ["sdk-python", "sdk-core"], Self.build), ("sdk-python", ["sdk-core"], Self.build),
            ("sdk-ts", ["sdk-core"], Self.build), ("sdk-core", [], Self.build),
        ])
        let human = try relctl(["train", "plan", "v1.0.0", "--workspace", train.file], in: train.workspace.url)
        #expect(human.status == 0, "\(human)")
        #expect(human.stdout.contains("wave 1: sdk-core"))
        #expect(human.stdout.contains("wave 2: sdk-python"))
        #expect(human.stdout.contains("sdk-ts"))
        #expect(human.stdout.contains("wave 3: server"))

        let json = try relctl(
            ["train", "plan", "v1.0.0", "--workspace", "relctl-workspace.toml", "--json"], in: train.workspace.url)
        struct Plan: Decodable { struct Repo: Decodable { var name: String }; var waves: [[Repo]] }
        let plan = try JSONDecoder().decode(Plan.self, from: Data(json.stdout.utf8))
        #expect(plan.waves.map { $0.map(\.name) } == [["sdk-core"], ["sdk-python", "sdk-ts"], ["server"]])
    }

    @Test func aCycleOrAnUnknownNameIsBadInput() throws {
        let directory = try TemporaryDirectory()
        for name in ["a", "b", "c"] {
            try FileManager.default.createDirectory(
                at: directory.url.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        try directory.write(
            "cycle.toml",
            """
            [[repo]]
            name = "a"
            path = "a"
            after = ["c"]
            [[repo]]
            name = "b"
            path = "b"
            after = ["a"]
            [[repo]]
            name = "c"
            path = "c"
            after = ["b"]
            """)
        let cycle = try relctl(["train", "plan", "v1.0.0", "--workspace", "cycle.toml"], in: directory.url)
        #expect(cycle.status == 2, "\(cycle)")
        #expect(cycle.stderr.contains("cycle: a → c → b → a"))

        try directory.write(
            "unknown.toml",
            """
            [[repo]]
            name = "core"
            path = "a"
            [[repo]]
            name = "py"
            path = "b"
            after = ["kore"]
            """)
        let unknown = try relctl(["train", "run", "v1.0.0", "--workspace", "unknown.toml"], in: directory.url)
        #expect(unknown.status == 2, "\(unknown)")
        #expect(
            unknown.stderr.contains(
                "unknown.toml:7: [[repo]] `py`: `after` names unknown repository `kore` (did you mean `core`?)"))
    }

    @Test func runReleasesEveryRepositoryInOrder() throws {
        let train = try TrainFixture([("core", [], Self.build), ("app", ["core"], Self.build)])
        let result = try relctl(
            ["train", "run", "v1.0.0", "--workspace", train.file, "--json"], in: train.workspace.url)
        #expect(result.status == 0, "\(result)")
        for fixture in train.repositories.values {
            #expect(try fixture.remoteTags() == ["v1.0.0"])
            #expect(try fixture.repository.git("cat-file", "-t", "v1.0.0") == "tag")
            #expect(try sh("sha256sum -c SHA256SUMS", in: fixture.url.appendingPathComponent("dist")).status == 0)
        }
        let core = try #require(result.stderr.range(of: "releasing core"))
        let app = try #require(result.stderr.range(of: "releasing app"))
        #expect(core.lowerBound < app.lowerBound)
    }

    @Test func aLaterFailureRollsBackEveryPushedTag() throws {
        let train = try TrainFixture([
            ("core", [], Self.build), ("sdk", ["core"], Self.build),
            ("server", ["sdk"], "echo 'linker exploded' >&2; exit 7"),
        ])
        let result = try relctl(
            ["train", "run", "v1.0.0", "--workspace", train.file, "--json"], in: train.workspace.url)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("train v1.0.0 stopped at server"))
        #expect(result.stderr.contains("linker exploded"))
        #expect(result.stderr.contains("rolled back: sdk: deleted v1.0.0 on origin"))
        #expect(result.stderr.contains("rolled back: core: deleted local tag v1.0.0"))
        let sdkLine = try #require(result.stderr.range(of: "rolled back: sdk"))
        let coreLine = try #require(result.stderr.range(of: "rolled back: core"))
        #expect(sdkLine.lowerBound < coreLine.lowerBound, "reverse order")
        for fixture in train.repositories.values {
            #expect(try fixture.remoteTags().isEmpty, "\(fixture.name)")
            #expect(try fixture.localTags().isEmpty, "\(fixture.name)")
        }
        struct Report: Decodable { var ok: Bool; var rolledBack: [String]; var notRolledBack: [String] }
        let report = try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
        #expect(
            !report.ok && report.rolledBack.filter { $0.contains("deleted") }.count == 4 && report.notRolledBack.isEmpty
        )
        // The released repositories' dist/ files went too, so the same command can run again.
        #expect(report.rolledBack.contains { $0.hasPrefix("sdk: removed") && $0.contains("SHA256SUMS") })
        for fixture in train.repositories.values {
            let left =
                (try folderNames(fixture.url.appendingPathComponent("dist").path))
            #expect(left.filter { !$0.hasPrefix(".") }.isEmpty, "\(fixture.name): \(left)")
        }
    }

    @Test func preflightRunsEverywhereBeforeAnythingIsTagged() throws {
        let train = try TrainFixture([("core", [], Self.build), ("app", ["core"], Self.build)])
        let app = try #require(train.repositories["app"])
        try app.repository.directory.write("README.md", "uncommitted\n")
        let result = try relctl(["train", "run", "v1.0.0", "--workspace", train.file], in: train.workspace.url)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("preflight failed; nothing was tagged"))
        #expect(result.stderr.contains("app: "))
        // A malformed tag is bad input for the train as it is for each release.
        let malformed = try relctl(["train", "run", "1.0", "--workspace", train.file], in: train.workspace.url)
        #expect(malformed.status == 2, "\(malformed)")
        #expect(malformed.stderr.contains("core: tag `1.0` is malformed"))
        #expect(try train.repositories["core"]!.remoteTags().isEmpty)
        #expect(try train.repositories["core"]!.localTags().isEmpty)
    }

    @Test func aTagSomeoneElsePushedMeanwhileIsNotRolledBack() throws {
        // While core releases, a colleague pushes app's v1.0.0: app's release stops in preflight.
        let train = try TrainFixture(
            [("core", [], Self.build), ("app", ["core"], Self.build)],
            release: ["core": #"before = ['git -C "$APP_REMOTE" tag v1.0.0 main']"#])
        let app = try #require(train.repositories["app"])
        let result = try relctl(
            ["train", "run", "v1.0.0", "--workspace", train.file], in: train.workspace.url,
            environment: ["APP_REMOTE": app.remote.path])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("tag v1.0.0 already exists on `origin`"))
        #expect(result.stderr.contains("rolled back: core: deleted v1.0.0 on origin"))
        #expect(!result.stderr.contains("rolled back: app"))
        #expect(try app.remoteTags() == ["v1.0.0"], "the colleague's tag stays")
        #expect(try train.repositories["core"]!.remoteTags().isEmpty)
    }

    @Test func dryRunTouchesNoRepository() throws {
        let train = try TrainFixture([("core", [], Self.build), ("app", ["core"], Self.build)])
        let result = try relctl(
            ["train", "run", "v1.0.0", "--workspace", train.file, "--dry-run"], in: train.workspace.url)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("the dry run passed in all 2 repositories"))
        for fixture in train.repositories.values {
            #expect(try fixture.remoteTags().isEmpty && fixture.localTags().isEmpty)
            #expect(!fixture.repository.directory.exists("dist"))
        }
    }
}

@Suite("relctl train after-hooks", .serialized, .timeLimit(.minutes(45)), .removesTemporaries)
struct TrainAfterHookTests {
    @Test func aFailingAfterHookKeepsTheReleaseButTheTrainStillRollsBack() throws {
        let single = try ReleaseFixture(release: #"after = ["echo announcing $RELCTL_TAG", "exit 5"]"#)
        let result = try relctl(["release", "v1.0.0", "--push"], in: single.url)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("stage `after-hooks` failed"))
        #expect(result.stderr.contains("v1.0.0 is released (tag pushed and dist/ complete)"))
        #expect(try single.localTags() == ["v1.0.0"])
        #expect(try single.remoteTags() == ["v1.0.0"])

        // In a train, that repository's pushed tag is rolled back with the others.
        let build = ReleaseFixture.standInBuild
        let train = try TrainFixture(
            [("core", [], build), ("app", ["core"], build)], release: ["app": #"after = ["exit 5"]"#])
        let trained = try relctl(["train", "run", "v1.0.0", "--workspace", train.file], in: train.workspace.url)
        #expect(trained.status == 1, "\(trained)")
        #expect(trained.stderr.contains("rolled back: app: deleted v1.0.0 on origin"))
        // The message says what happens next, not "finish it by hand" (issue 11, item 8).
        #expect(!trained.stderr.contains("finish it by hand"), "\(trained)")
        #expect(
            trained.stderr.contains(
                "v1.0.0 was tagged (tag pushed, dist/ complete) before `after-hooks` failed; `relctl train run` started this release, so the train now rolls it back"
            ), "\(trained)")
        #expect(
            trained.stderr.contains("the tag here and on the remote, any pin commit, the files in dist/"), "\(trained)")
        #expect(trained.stderr.contains("rolled back: core: deleted v1.0.0 on origin"))
        for fixture in train.repositories.values {
            #expect(try fixture.remoteTags().isEmpty && fixture.localTags().isEmpty, "\(fixture.name)")
        }
    }
}

@Suite("relctl train interrupted", .serialized, .timeLimit(.minutes(45)), .removesTemporaries)
struct TrainInterruptTests {
    @Test func ctrlCRollsBackWhatTheTrainPushed() async throws {
        let build = ReleaseFixture.standInBuild
        // app's build says when it runs (a gate for the interrupt, not a guessed delay) and then
        // waits far longer than any loaded machine needs to reach the interrupt: the interrupt ends
        // it, never the clock.
        let gate = try TemporaryDirectory(prefix: "relctl-gate")
        let building = gate.url.appendingPathComponent("app-building").path
        let train = try TrainFixture([("core", [], build), ("app", ["core"], "touch '\(building)' && sleep 600")])
        let core = try #require(train.repositories["core"])
        let process = Process()
        process.executableURL = relctlBinary
        process.arguments = ["train", "run", "v1.0.0", "--workspace", train.file]
        process.currentDirectoryURL = train.workspace.url
        process.standardOutput = FileHandle.nullDevice
        let log = train.workspace.url.appendingPathComponent("train.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        var pushed = false
        // The waits keep their thread (usleep, not Task.sleep): with the whole suite running, a
        // cooperative pool busy with blocking tests could otherwise resume this one late.
        for _ in 0..<1200 where !pushed {  // up to a minute: the whole suite runs in parallel on two cores
            usleep(50_000)
            pushed = (try? core.remoteTags()) == ["v1.0.0"]
        }
        #expect(
            pushed, "core was released before the interrupt: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        let appBuilding = MatrixFixtures.waitUntil(seconds: 60) { FileManager.default.fileExists(atPath: building) }
        #expect(appBuilding, "app's build started")
        kill(process.processIdentifier, SIGINT)
        try process.waitForExit()
        #expect(process.terminationStatus == 130)
        for fixture in train.repositories.values {
            #expect(try fixture.remoteTags().isEmpty && fixture.localTags().isEmpty, "\(fixture.name)")
        }
    }
}
