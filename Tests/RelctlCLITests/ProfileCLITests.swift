import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// `relctl release --profile` and `RELCTL_PROFILE=1` (issue 45): where a run's time goes, per
/// stage and per kind of work, printed after the command's own output whatever `-q` says.
@Suite("relctl --profile", .timeLimit(.minutes(30)), .removesTemporaries)
struct ProfileCLITests {
    /// The rows of the profile's two tables: name → the numbers after it.
    static func rows(_ stderr: String) -> [String: [String]] {
        guard let start = stderr.range(of: "profile: seconds of wall and CPU time") else { return [:] }
        var rows: [String: [String]] = [:]
        for line in stderr[start.upperBound...].split(separator: "\n").dropFirst() where line.hasPrefix("  ") {
            let columns = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            let numbers = columns.reversed().prefix { Double($0) != nil || $0 == "-" }.reversed()
            rows[columns.dropLast(numbers.count).joined(separator: " ")] = Array(numbers)
        }
        return rows
    }

    @Test func aDryRunReleaseShowsEachStageAndEachKindOfWork() throws {
        let fixture = try ReleaseFixture()
        let result = try relctl(["release", "v1.0.0", "--dry-run", "--profile", "-q"], in: fixture.url)
        #expect(result.status == 0, "\(result)")
        let rows = Self.rows(result.stderr)
        let whole = try #require(rows["whole run"]).compactMap(Double.init)
        #expect(whole.count == 2)
        // Start, end, wall and CPU: the offsets show which stages overlapped (issue 45).
        for stage in ["preflight", "build", "package", "checksum", "notes", "tag"] {
            let numbers = try #require(rows[stage], "no row for the \(stage) stage:\n\(result.stderr)")
                .compactMap(Double.init)
            #expect(numbers.count == 4 && numbers.allSatisfy { $0 >= 0 }, "\(stage): \(numbers)")
            #expect(abs(numbers[0] + numbers[2] - numbers[1]) < 0.0015, "\(stage): end = start + wall")
            #expect(numbers[1] <= whole[0] + 0.001, "\(stage) ends within the whole run")
        }
        // Stages that run alone do not overlap: the tag starts after the notes end.
        let notes = try #require(rows["notes"]).compactMap(Double.init)
        let tag = try #require(rows["tag"]).compactMap(Double.init)
        #expect(tag[0] >= notes[1] - 0.001, "notes \(notes), tag \(tag)")
        // git ran (preflight, scratch clone, tag); archives were compressed and hashed, SBOMs and
        // files written; the configuration was read (the project's, then the scratch clone's).
        for kind in ["git", "compression", "hashing", "SBOM", "writes", "configuration", "process start"] {
            let numbers = try #require(rows[kind], "no row for \(kind):\n\(result.stderr)")
            #expect(Int(numbers.last ?? "") ?? 0 > 0, "\(kind) was measured at least once")
        }
        // The process start is counted once, with relctl's CPU before the command began, and the
        // whole run (counted from the exec) holds it.
        let start = try #require(rows["process start"])
        #expect(start.count == 3 && start[2] == "1" && start[0...1].allSatisfy { (Double($0) ?? -1) >= 0 }, "\(start)")
        #expect(whole[0] >= Double(start[0]) ?? .infinity && whole[1] >= Double(start[1]) ?? .infinity)
        #expect(rows["git"]?[1] == "-", "a child's CPU is its own, not shown as relctl's")
    }

    /// Four targets' archives hold the same two trees (`demo`, `configs`): each is walked once for
    /// all of them (issue 45), and every archive still lists the trees' files.
    @Test func packagingWalksEachTreeOnceForEveryTarget() throws {
        let fixture = try PackagingFixture()
        let result = try relctl(
            ["package", "--tag", "v1.0.0"], in: fixture.url,
            environment: ["RELCTL_PROFILE": "1", "SOURCE_DATE_EPOCH": "1700000000"])
        #expect(result.status == 0, "\(result)")
        let walk = try #require(Self.rows(result.stderr)["file walk"], "\(result.stderr)")
        #expect(walk.last == "2", "walks of the two trees for four targets: \(walk)")
        for triple in PackagingFixture.triples {
            let name = fixture.archiveName(triple)
            let file = try #require(
                try FileManager.default.contentsOfDirectory(atPath: fixture.dist.path).first {
                    $0.hasPrefix(name + ".") && !$0.hasSuffix(".sha256") && !$0.hasSuffix(".json")
                })
            let list = try run("bsdtar", ["-tf", "dist/" + file], in: fixture.url)
            let paths = Set(list.stdout.split(separator: "\n").map(String.init))
            #expect(list.status == 0, "\(list)")
            for path in ["demo/1brc/measurements.csv", "demo/trading/start-demo.sh", "configs/nested/deep/log.yaml"] {
                #expect(paths.contains("\(name)/\(path)"), "\(file) lacks \(path): \(paths.sorted())")
            }
            #expect(!paths.contains("\(name)/demo/1brc/scratch.tmp"), "\(file) holds an excluded file")
        }
    }

    /// The plan without its clock: every `seconds` taken out, and the scratch clone's own path.
    static func timeless(_ json: String) throws -> NSDictionary {
        func strip(_ value: Any) -> Any {
            if var object = value as? [String: Any] {
                if object["name"] as? String == "scratch" { object["detail"] = nil }
                return object.filter { $0.key != "seconds" }.mapValues(strip)
            }
            if let array = value as? [Any] { return array.map(strip) }
            return value
        }
        return try #require(strip(try JSONSerialization.jsonObject(with: Data(json.utf8))) as? NSDictionary)
    }

    /// `RELCTL_SERIAL_STAGES=1` runs the stages one after another (issue 45): the plan, warnings and
    /// stage records are the overlapping run's, but for the clock.
    @Test func theSerialRunPrintsTheSamePlan() throws {
        let fixture = try ReleaseFixture()
        let overlapped = try relctl(["release", "v1.0.0", "--dry-run", "--json"], in: fixture.url)
        #expect(overlapped.status == 0, "\(overlapped)")
        let serial = try relctl(
            ["release", "v1.0.0", "--dry-run", "--json"], in: fixture.url,
            environment: ["RELCTL_SERIAL_STAGES": "1"])
        #expect(serial.status == 0, "\(serial)")
        let plan = try Self.timeless(overlapped.stdout), serialPlan = try Self.timeless(serial.stdout)
        let differing = Set((plan.allKeys + serialPlan.allKeys).compactMap { $0 as? String }).filter {
            (plan[$0] as? NSObject) != (serialPlan[$0] as? NSObject)
        }
        #expect(differing.isEmpty, "\(differing.sorted()): \(overlapped.stdout)\n\(serial.stdout)")
        #expect((plan["stages"] as? [Any])?.count ?? 0 > 10)
    }

    @Test func theEnvironmentProfilesAnyCommandAndIsOffOtherwise() throws {
        let fixture = try ReleaseFixture()
        #expect(try relctl(["build", "--tag", "v1.0.0"], in: fixture.url).status == 0)
        let plain = try relctl(["package", "--tag", "v1.0.0"], in: fixture.url)
        #expect(plain.status == 0, "\(plain)")
        #expect(!plain.stderr.contains("profile:"))
        let profiled = try relctl(
            ["package", "--tag", "v1.0.0", "--clean"], in: fixture.url, environment: ["RELCTL_PROFILE": "1"])
        #expect(profiled.status == 0, "\(profiled)")
        let rows = Self.rows(profiled.stderr)
        #expect(rows["compression"] != nil && rows["git"] != nil, "\(profiled.stderr)")
        #expect(rows["configuration"]?.last == "1", "package reads relctl.toml once: \(profiled.stderr)")
        #expect(rows["whole run"]?.count == 2)
        let off = try relctl(
            ["package", "--tag", "v1.0.0", "--clean"], in: fixture.url, environment: ["RELCTL_PROFILE": "0"])
        #expect(!off.stderr.contains("profile:"))
    }
}
