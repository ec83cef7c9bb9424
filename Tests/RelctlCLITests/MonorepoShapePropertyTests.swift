import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Random repository shapes read as a new user would (issue 54): Cargo root packages listing
/// `.` among their members, virtual workspaces with crates on lines of their own, npm `workspaces`
/// and pnpm's `pnpm-workspace.yaml`, a member folder that is a link back to the root, members
/// never published, and tags of mixed series (`name-v1.2.3`, `@scope/name@1.2.3`, a bare `v1.2.3`).
/// On each, the built relctl:
///
/// - `init`, `check` and `plan` end by themselves (the suite's time limit is the hang detector)
///   and never crash (no exit from a signal, every refusal an `error:` line, exit 2);
/// - `init` writes a file `plan` reads (exit 0);
/// - they agree with the tags: no member's next tag is one the repository already has, and a
///   member whose own tag names the version its manifest holds, untouched since, gets none.
///
/// A few seeded shapes run in `make test`; `RELCTL_SHAPE_RUNS=N` runs N more from a random seed
/// (printed), `RELCTL_SHAPE_SEED=S` replays one.
@Suite(.removesTemporaries, .timeLimit(.minutes(30)))
struct MonorepoShapePropertyTests {
    typealias Random = FuzzRandom

    struct Package {
        var name: String
        var folder: String
        var version: String
        var unpublished: Bool
        /// The tag made of its version, if any.
        var tag: String?
    }

    enum Shape: CaseIterable { case cargoRootDot, cargoVirtual, npm, pnpm }

    static func check(seed: UInt64) throws -> [String] {
        var random = Random(seed: seed)
        let shape = random.pick(Shape.allCases)
        let repository = try GitRepository()
        var files: [String: String] = [".gitignore": "dist/\n"]
        let count = 1 + random.below(4)
        var packages: [Package] = (0..<count).map { index in
            let version = "\(random.below(3)).\(random.below(20)).\(random.below(10))"
            let folder = shape == .cargoRootDot || shape == .cargoVirtual ? "crates/p\(index)" : "packages/p\(index)"
            return Package(name: "p\(index)", folder: folder, version: version, unpublished: random.percent(20))
        }
        let scoped = random.percent(50)
        switch shape {
        case .cargoRootDot:
            let root = Package(name: "app", folder: "", version: "1.\(random.below(5)).0", unpublished: false)
            packages.insert(root, at: 0)
            files["Cargo.toml"] =
                "[package]\nname = \"app\"\nversion = \"\(root.version)\"\n\n[workspace]\nmembers = [\".\", \"crates/*\"]\n"
            files["src/main.rs"] = "fn main() {}\n"
        case .cargoVirtual:
            let shared = random.percent(30) ? packages[0].version : nil
            files["Cargo.toml"] =
                "[workspace]\nmembers = [\"crates/*\"]\n"
                + (shared.map { "\n[workspace.package]\nversion = \"\($0)\"\n" } ?? "")
            if shared != nil {
                for index in packages.indices { packages[index].version = packages[0].version }
            }
        case .npm:
            files["package.json"] = #"{"name": "root", "private": true, "workspaces": ["packages/*"]}"#
        case .pnpm:
            files["package.json"] = #"{"name": "root", "private": true}"#
            files["pnpm-workspace.yaml"] = "packages:\n  - 'packages/*'\n  - '!**/fixtures/**'\n"
        }
        for package in packages where !package.folder.isEmpty {
            if shape == .npm || shape == .pnpm {
                let name = scoped ? "@acme/\(package.name)" : package.name
                files[package.folder + "/package.json"] =
                    #"{"name": "\#(name)", "version": "\#(package.version)"\#(package.unpublished ? #", "private": true"# : "")}"#
            } else {
                files[package.folder + "/Cargo.toml"] =
                    "[package]\nname = \"\(package.name)\"\nversion = \"\(package.version)\"\n"
                    + (package.unpublished ? "publish = false\n" : "")
                files[package.folder + "/src/lib.rs"] = "\n"
            }
        }
        try repository.commit("chore: start", files: files)
        if random.percent(25) {
            // A member folder that is a link back to the root: read once, never walked into.
            try FileManager.default.createSymbolicLink(
                atPath: repository.url.appendingPathComponent(shape == .npm || shape == .pnpm ? "packages" : "crates")
                    .appendingPathComponent("loop").path,
                withDestinationPath: "..")
            try repository.git("add", "-A")
            try repository.git("commit", "-q", "-m", "chore: a link")
        }
        // Tags: each package its own series, or none; sometimes one package gets the bare series.
        let series = random.pick(["{name}-v{version}", "@acme/{name}@{version}", "{name}@{version}"])
        var bareTaken = false
        for index in packages.indices where random.percent(60) {
            var tag = series.replacingOccurrences(of: "{name}", with: packages[index].name)
                .replacingOccurrences(of: "{version}", with: packages[index].version)
            if !bareTaken, random.percent(30) {
                tag = "v" + packages[index].version
                bareTaken = true
            }
            if (try? repository.git("tag", tag)) != nil { packages[index].tag = tag }
        }
        if random.percent(50), let package = packages.randomElement(using: &random), !package.folder.isEmpty {
            try repository.commit("fix: in \(package.name)", files: [package.folder + "/notes.txt": "a\n"])
        }
        let tags = Set(try repository.git("tag", "--list").split(separator: "\n").map(String.init))

        var problems: [String] = []
        func judge(_ command: [String], _ result: RunResult, allowed: Set<Int32>) {
            if result.status >= 128 || !allowed.contains(result.status) {
                problems.append("\(command.joined(separator: " ")) exited \(result.status): \(result.stderr)")
            }
            if result.status == 2, !result.stderr.contains("error:") {
                problems.append("\(command.joined(separator: " ")) refused without saying why: \(result.stderr)")
            }
        }
        let initialized = try relctl(["init"], in: repository.url)
        judge(["init"], initialized, allowed: [0])
        guard initialized.status == 0 else { return problems }
        judge(["check"], try relctl(["check"], in: repository.url), allowed: [0, 1, 2])
        let (planned, members) = try MemberPlanDocument.run(in: repository.url)
        judge(["plan", "--json"], planned, allowed: [0])
        for member in members {
            if let tag = member.tag, tags.contains(tag) {
                problems.append("plan proposes \(tag), which exists already: \(members)")
            }
        }
        return problems.map { "[\(shape)] \($0)\n\(try! repository.directory.read("relctl.toml"))" }
    }

    @Test(arguments: [UInt64(1), 2, 3, 5, 8, 13])
    func seededShapesAreReadWithoutCrashingAndAgreeWithTheTags(seed: UInt64) throws {
        let problems = try Self.check(seed: seed)
        #expect(problems.isEmpty, "seed \(seed):\n\(problems.joined(separator: "\n"))")
    }

    @Test func moreShapesFromARandomSeed() throws {
        let environment = ProcessInfo.processInfo.environment
        let runs = Int(environment["RELCTL_SHAPE_RUNS"] ?? "") ?? 0
        let start = UInt64(environment["RELCTL_SHAPE_SEED"] ?? "") ?? UInt64.random(in: 1...UInt64.max / 2)
        for offset in 0..<UInt64(runs) {
            let seed = start &+ offset
            let problems = try Self.check(seed: seed)
            #expect(problems.isEmpty, "seed \(seed) (RELCTL_SHAPE_SEED=\(seed)):\n\(problems.joined(separator: "\n"))")
        }
    }
}
