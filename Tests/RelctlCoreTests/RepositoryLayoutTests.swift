import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What a newcomer sees at the top of the repository, and what `make bench` runs (issue 41,
/// housekeeping): a stray file committed by accident (a 715-line file named `0` sat at the root for
/// a round) fails here the day it is committed, and a new benchmark script that `scripts/bench`
/// does not run fails here too.
@Suite("The repository's layout", .timeLimit(.minutes(30)), .removesTemporaries)
struct RepositoryLayoutTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every file and folder the root may hold in git. Adding one is a decision: add it here.
    static let intendedAtRoot: Set<String> = [
        ".ci", ".github", ".gitignore", ".swift-format", "BENCHMARKS.md", "Examples", "LICENSE", "Makefile",
        "Package.swift", "README.md", "Sources", "Tests", "docs", "relctl.toml", "scripts",
        // The shell completions and the man page relctl's own release ships (scripts/generate-shell-files).
        "share",
    ]

    @Test func theRootHoldsOnlyIntendedFiles() throws {
        let listed = try run("git", ["-C", Self.root.path, "ls-files", "-z"])
        try #require(listed.status == 0, "git ls-files failed: \(listed)")
        let tops = Set(listed.stdout.split(separator: "\0").map { String($0.split(separator: "/").first ?? "") })
        #expect(tops.subtracting(Self.intendedAtRoot).sorted() == [], "unexpected files at the repository root")
        #expect(tops.isSuperset(of: ["README.md", "Makefile", "Package.swift", "BENCHMARKS.md"]))
    }

    @Test func makeBenchRunsEveryBenchmarkScript() throws {
        let scripts = Self.root.appendingPathComponent("scripts")
        let names = try FileManager.default.contentsOfDirectory(atPath: scripts.path)
            .filter { $0.hasPrefix("bench-") }.map { String($0.dropFirst("bench-".count)) }
        #expect(!names.isEmpty)
        let runner = try String(contentsOf: scripts.appendingPathComponent("bench"), encoding: .utf8)
        let line = try #require(runner.split(separator: "\n").first { $0.hasPrefix("all=(") }, "scripts/bench has no all=(…) list")
        let listed = Set(line.dropFirst("all=(".count).dropLast().split(separator: " ").map(String.init))
        #expect(Set(names).subtracting(listed).sorted() == [], "benchmarks `make bench` does not run")
        #expect(listed.subtracting(names).sorted() == [], "scripts/bench names benchmarks that do not exist")
        let makefile = try String(contentsOf: Self.root.appendingPathComponent("Makefile"), encoding: .utf8)
        #expect(makefile.contains("\tscripts/bench"), "the Makefile's bench target must run scripts/bench")
    }
}
