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

@Suite("relctl matrix", .timeLimit(.minutes(45)), .removesTemporaries)
struct MatrixCLITests {
    @Test func githubFormatIsTheExactCompactDocument() throws {
        try withTemporaryDirectory { dir in
            try MatrixFixtures.project(in: dir)
            let result = try relctl(["matrix", "--format", "github"], in: dir.url)
            #expect(result.status == 0, "\(result)")
            #expect(
                result.stdout == """
                    {"include":[{"target":"x86_64-unknown-linux-gnu","runner":"ubuntu-latest","format":"tar.gz","os":"linux","arch":"x86_64"},\
                    {"target":"aarch64-apple-darwin","runner":"macos-14","format":"tar.gz","os":"macos","arch":"aarch64"},\
                    {"target":"x86_64-pc-windows-msvc","runner":"windows-latest","format":"zip","os":"windows","arch":"x86_64"}]}

                    """)
            // python3 reads it as a GitHub `fromJSON` would.
            let parsed = try sh(
                "python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d[\"include\"]), d[\"include\"][2][\"format\"])' <<'EOF'\n\(result.stdout)EOF",
                in: dir.url)
            #expect(parsed.stdout == "3 zip\n")
        }
    }

    @Test func globsSelectTargetsInConfiguredOrder() throws {
        try withTemporaryDirectory { dir in
            try MatrixFixtures.project(
                in: dir, targets: ["x86_64-unknown-linux-gnu", "aarch64-apple-darwin", "aarch64-unknown-linux-musl"])
            let result = try relctl(
                ["matrix", "--format", "github", "--target", "*apple*", "--target", "*linux*"], in: dir.url)
            #expect(result.status == 0, "\(result)")
            let data = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: [[String: String]]]
            #expect(
                data?["include"]?.map { $0["target"] ?? "" } == [
                    "x86_64-unknown-linux-gnu", "aarch64-apple-darwin", "aarch64-unknown-linux-musl",
                ])

            let musl = try relctl(["matrix", "--format", "github", "--target", "*-musl"], in: dir.url)
            #expect(musl.stdout.contains("aarch64-unknown-linux-musl") && !musl.stdout.contains("gnu"))

            let none = try relctl(["matrix", "--target", "*freebsd*"], in: dir.url)
            #expect(none.status == 2)
            #expect(none.stderr.contains("`*freebsd*` matches no configured target"))
        }
    }

    @Test func tableAndJSONFormats() throws {
        try withTemporaryDirectory { dir in
            try MatrixFixtures.project(in: dir)
            let table = try relctl(["matrix"], in: dir.url)
            #expect(table.status == 0)
            let lines = table.stdout.split(separator: "\n")
            #expect(lines.first?.hasPrefix("TARGET") == true)
            #expect(lines.count == 4)
            #expect(lines.last?.contains("windows-latest") == true && lines.last?.hasSuffix("copy") == true)

            let json = try relctl(["matrix", "--format", "json"], in: dir.url)
            let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            let targets = object?["targets"] as? [[String: Any]]
            #expect(targets?.count == 3)
            #expect(targets?[2]["executable-suffix"] as? String == ".exe")
            #expect(targets?[0]["env"] as? String == "gnu")
            #expect(targets?[1]["links"] as? String == "keep")
        }
    }

    @Test func unknownTripleIsWarnedOnStderrAndStillListed() throws {
        try withTemporaryDirectory { dir in
            try MatrixFixtures.project(
                in: dir, targets: ["x86_64-unknown-linux-gnu"],
                extraTargets: """
                    [[target]]
                    triple = "sparc64-sun-solaris"
                    runner = "self-hosted"
                    format = "tar.xz"
                    """)
            let result = try relctl(["matrix", "--format", "github"], in: dir.url)
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.contains("warning: relctl.toml:"))
            #expect(result.stderr.contains("unknown target triple `sparc64-sun-solaris`"))
            #expect(
                result.stdout.contains(
                    #"{"target":"sparc64-sun-solaris","runner":"self-hosted","format":"tar.xz","os":"solaris","arch":"sparc64"}"#
                ))
        }
    }
}
