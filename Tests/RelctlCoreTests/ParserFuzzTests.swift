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

/// The parser fuzzer in the suite (issue 26): a fixed seed and a few hundred mutated inputs per
/// parser, so a regression in any parser of untrusted text shows here; `scripts/fuzz` runs the
/// same fuzzer for minutes from a random seed (docs/security.md, "Fuzzing").
@Suite("parser fuzzing", .timeLimit(.minutes(30)), .removesTemporaries)
struct ParserFuzzTests {
    static let seed: UInt64 = 0x2026_0026
    static let iterations = 200

    @Test(
        "every input parses or is refused with the parser's error naming the file",
        arguments: FuzzTargets.all.map(\.name))
    func invariant(target: String) async throws {
        var runner = FuzzRunner(seed: Self.seed, targets: FuzzTargets.named([target]))
        try await withTemporaryDirectory { directory in
            await runner.round(iterations: Self.iterations, scratch: directory.url)
        }
        let counts = try #require(runner.report.counts[target])
        #expect(counts.iterations == Self.iterations)
        for finding in runner.report.findings {
            Issue.record(
                "\(finding.problem)\ninput (\(finding.input.count) bytes): \(String(decoding: finding.input.prefix(400), as: UTF8.self).debugDescription)"
            )
        }
        // The seeds parse, so the harness reaches the parser's success path, and mutations reach its refusals.
        #expect(counts.parsed > 0, "no input parsed: the seeds or the harness are wrong")
        // `AuthChallenge` reads any non-empty header as a challenge, so only it never refuses.
        #expect(
            counts.refused > 0 || target == "WWW-Authenticate",
            "no input was refused: the mutations do not reach the parser")
    }

    @Test("the same seed gives the same inputs, another seed others")
    func deterministic() {
        let seed = Array("[project]\nname = \"x\"\n".utf8)
        func inputs(_ value: UInt64) -> [[UInt8]] {
            var random = FuzzRandom(seed: value, stream: "t")
            return (0..<50).map { _ in FuzzMutator.mutate(seed, others: [seed], random: &random) }
        }
        #expect(inputs(7) == inputs(7))
        #expect(inputs(7) != inputs(8))
    }

    @Test("mutations stay within the size budget that bounds each input's work")
    func bounded() {
        var random = FuzzRandom(seed: Self.seed)
        var input = Array(FuzzCorpus.config[0].utf8)
        for _ in 0..<300 {
            input = FuzzMutator.mutate(input, others: [], random: &random)
            #expect(input.count <= FuzzMutator.maximumSize)
        }
    }
}
