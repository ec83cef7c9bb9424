import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// `release --dry-run` builds in a scratch clone that borrows the project's build cache without
/// sharing it (issue 62, section 3; `DryRunCache`, docs/releasing.md "A warm dry run"): a Cargo
/// project's `target/` is copied in and the unchanged files keep the project's modification
/// times, so the dry run's `cargo build` finds everything fresh, and what it writes is byte for
/// byte what a cold dry run writes.
@Suite("A warm dry run", .timeLimit(.minutes(30)), .removesTemporaries)
struct WarmDryRunCLITests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A one-binary crate with a lockfile (no dependencies: nothing to download).
    static func crate() throws -> GitRepository {
        let repo = try GitRepository()
        try repo.directory.write("Cargo.toml", "[package]\nname = \"crab\"\nversion = \"1.0.0\"\nedition = \"2021\"\n")
        try repo.directory.write("Cargo.lock", "version = 4\n\n[[package]]\nname = \"crab\"\nversion = \"1.0.0\"\n")
        try repo.directory.write("src/main.rs", "fn main() {\n    println!(\"crab {}\", 6 * 7);\n}\n")
        try repo.directory.write(".gitignore", "/target\n/dist\n")
        try repo.directory.write(
            "relctl.toml",
            """
            [project]
            name = "crab"

            [[version]]
            path = "Cargo.toml"

            [build]
            command = "cargo build --release --locked --target {target}"
            binaries = ["crab"]
            binary-dir = "target/{target}/release"

            [[target]]
            triple = "\(FirstHourCLITests.hostTriple)"

            """)
        try repo.commit("feat: crab")
        return repo
    }

    /// A kept dry run's scratch clone (the repository inside the kept folder) and its dist/.
    private func keptDryRun(
        _ repo: GitRepository, environment: [String: String] = [:]
    ) throws -> (clone: URL, dist: URL, result: RunResult) {
        let result = try relctl(
            ["release", "v1.0.0", "--dry-run", "--host", "--keep", "--json", "--verbose"], in: repo.url,
            environment: environment)
        try #require(result.status == 0, "\(result)")
        let plan = try JSONDecoder().decode(PlanDocument.self, from: Data(result.stdout.utf8))
        let scratch = URL(fileURLWithPath: try #require(plan.scratch, "\(result)"))
        let clone = scratch.appendingPathComponent(repo.url.lastPathComponent)
        return (clone, clone.appendingPathComponent("dist"), result)
    }

    /// The modification time of a file, to the nanosecond (`stat`).
    private func modified(_ url: URL) throws -> String {
        let stat = try run("stat", ["-c", "%y", url.path])
        try #require(stat.status == 0, "\(stat)")
        return stat.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every file under `folder` with its size, modification time and inode.
    private func snapshot(_ folder: URL) throws -> String {
        let listed = try sh("find . -printf '%P %s %T@ %i\\n' | LC_ALL=C sort", in: folder)
        try #require(listed.status == 0 && !listed.stdout.isEmpty, "\(listed)")
        return listed.stdout
    }

    @Test func aDryRunReusesTheProjectsCargoBuildAndWritesWhatAColdOneWrites() throws {
        let repo = try Self.crate()
        let triple = FirstHourCLITests.hostTriple
        let binary = "target/\(triple)/release/crab"

        // Cold: the project has built nothing yet, so there is nothing to borrow.
        let cold = try keptDryRun(repo)
        defer { try? FileManager.default.removeItem(at: cold.clone.deletingLastPathComponent()) }
        #expect(!cold.result.stderr.contains("copied target/"), "\(cold.result.stderr)")

        // The project builds as its real run would: its target/ is now a warm cache.
        let built = try run("cargo", ["build", "--release", "--locked", "--target", triple], in: repo.url)
        try #require(built.status == 0, "\(built)")
        let before = try snapshot(repo.url.appendingPathComponent("target"))

        let warm = try keptDryRun(repo)
        defer { try? FileManager.default.removeItem(at: warm.clone.deletingLastPathComponent()) }
        #expect(warm.result.stderr.contains("copied target/"), "\(warm.result.stderr)")
        // cargo in the clone found the copied build fresh: it neither compiled nor linked again.
        #expect(try modified(warm.clone.appendingPathComponent(binary)) == modified(repo.url.appendingPathComponent(binary)))
        // Byte for byte what the cold dry run wrote.
        let compared = try run(Self.root.appendingPathComponent("scripts/compare-builds").path, ["--dist", cold.dist.path, warm.dist.path])
        #expect(compared.status == 0, "\(compared)")
        #expect(compared.stdout.contains("compare-builds: identical:") && compared.stdout.contains(".tar.gz"), "\(compared)")
        // A copy, not shared: the project's own target/ is as it was, file for file.
        #expect(try snapshot(repo.url.appendingPathComponent("target")) == before)
        #expect(try repo.git("status", "--porcelain").isEmpty)

        // A changed file is not taken as fresh: committed after the project's build, it rebuilds.
        try repo.commit("fix: answer", files: ["src/main.rs": "fn main() {\n    println!(\"crab {}\", 7 * 6 + 1);\n}\n"])
        let changed = try keptDryRun(repo)
        defer { try? FileManager.default.removeItem(at: changed.clone.deletingLastPathComponent()) }
        let ran = try run(changed.clone.appendingPathComponent(binary).path, [])
        #expect(ran.stdout == "crab 43\n", "\(ran)")
        #expect(try snapshot(repo.url.appendingPathComponent("target")) == before, "the project's target/ untouched")

        // RELCTL_DRY_RUN_CACHE=0: the cold dry run of before, nothing borrowed.
        let off = try keptDryRun(repo, environment: ["RELCTL_DRY_RUN_CACHE": "0"])
        defer { try? FileManager.default.removeItem(at: off.clone.deletingLastPathComponent()) }
        #expect(!off.result.stderr.contains("copied target/") && !off.result.stderr.contains("modification times"))
        let again = try run(
            Self.root.appendingPathComponent("scripts/compare-builds").path, ["--dist", changed.dist.path, off.dist.path])
        #expect(again.status == 0, "\(again)")
    }
}
