import Foundation

/// What a fuzzing run found: counts per target, and each input that broke the invariant.
package struct FuzzReport: Sendable {
    package struct Counts: Sendable, Equatable {
        package var iterations = 0
        package var parsed = 0
        package var refused = 0
        package var violations = 0

        package init() {}
    }

    package struct Finding: Sendable {
        package var target: String
        package var problem: String
        package var input: [UInt8]
    }

    package var counts: [String: Counts] = [:]
    package var findings: [Finding] = []

    package var iterations: Int { counts.values.reduce(0) { $0 + $1.iterations } }
}

/// Runs targets on mutated seeds, deterministically from one seed: the suite runs a few hundred
/// inputs per parser, `scripts/fuzz` keeps calling `round` until its minutes are up.
package struct FuzzRunner {
    package let seed: UInt64
    package let targets: [FuzzTarget]
    private var randoms: [String: FuzzRandom]
    /// Inputs that parsed, per target: mutating what got through goes deeper than the seeds alone.
    private var pools: [String: [[UInt8]]]
    package private(set) var report = FuzzReport()

    package init(seed: UInt64, targets: [FuzzTarget]) {
        self.seed = seed
        self.targets = targets
        randoms = Dictionary(uniqueKeysWithValues: targets.map { ($0.name, FuzzRandom(seed: seed, stream: $0.name)) })
        pools = Dictionary(uniqueKeysWithValues: targets.map { ($0.name, $0.seeds) })
    }

    /// `iterations` inputs per target (the seeds themselves first). `willRun` sees each input
    /// before the parser does, so a crash that kills the process still leaves its input behind.
    package mutating func round(
        iterations: Int, scratch: URL, willRun: (String, [UInt8]) -> Void = { _, _ in }
    ) async {
        for target in targets {
            var random = randoms[target.name]!
            var pool = pools[target.name]!
            var counts = report.counts[target.name] ?? FuzzReport.Counts()
            for _ in 0..<iterations {
                let input: [UInt8]
                if counts.iterations < target.seeds.count {
                    input = target.seeds[counts.iterations]
                } else {
                    input = FuzzMutator.mutate(pool[random.below(pool.count)], others: target.seeds, random: &random)
                }
                willRun(target.name, input)
                counts.iterations += 1
                switch await target.run(input, scratch) {
                case .parsed:
                    counts.parsed += 1
                    // Bounded, and small inputs only, so the pool stays cheap to mutate.
                    if input.count < 4096, random.chance(4) {
                        if pool.count < 256 { pool.append(input) } else { pool[random.below(pool.count)] = input }
                    }
                case .refused:
                    counts.refused += 1
                case .violation(let problem):
                    counts.violations += 1
                    // One finding per distinct problem (the first line of it) is enough to fix it.
                    let headline = problem.prefix { $0 != ":" }
                    if !report.findings.contains(where: { $0.target == target.name && $0.problem.prefix { $0 != ":" } == headline }) {
                        report.findings.append(.init(target: target.name, problem: problem, input: input))
                    }
                }
            }
            randoms[target.name] = random
            pools[target.name] = pool
            report.counts[target.name] = counts
        }
    }
}
