import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Synchronization
import Testing

@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlModel

/// Walks of one repository run at once (a train's members, a task group of readers) each see
/// every commit of their own range: a walk that came back short would read as "no changes" and
/// exit 0 with a wrong version.
@Suite(.removesTemporaries, .timeLimit(.minutes(30))) struct ConcurrentGitReadsTests {
    @Test func concurrentWalksOfOneGitSeeTheirWholeRanges() async throws {
        let repo = try GitRepository()
        try sh(
            """
            set -e
            for i in $(seq 1 60); do
              mkdir -p pkgs/p$((i % 3)); echo $i >> pkgs/p$((i % 3))/f.txt
              git add -A; git commit -q -m "feat: change $i"
              if [ $((i % 6)) = 0 ]; then git tag v0.$((i / 6)).0; fi
            done
            """, in: repo.url, environment: GitRepository.fixedEnvironment)
        let git = Git(directory: repo.url, context: Context(workingDirectory: repo.url))
        var ranges: [GitLogRange] = []
        for step in 1..<10 {
            ranges.append(GitLogRange(target: "v0.\(step + 1).0", excluded: ["v0.\(step).0"]))
            ranges.append(GitLogRange(target: "v0.\(step + 1).0", excluded: ["v0.\(step).0"], paths: [":(top)pkgs/p1/"]))
            ranges.append(GitLogRange(target: "HEAD", bases: ["v0.\(step).0"], paths: [":(top)pkgs/p2/"]))
        }
        func count(_ range: GitLogRange) async throws -> Int {
            let seen = Mutex(0)
            try await git.forEachCommit(in: range) { _ in seen.withLock { $0 += 1 } }
            return seen.withLock { $0 }
        }
        var expected: [Int] = []
        for range in ranges { expected.append(try await count(range)) }
        #expect(expected.allSatisfy { $0 > 0 })
        for round in 0..<8 {
            let found = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                for (index, range) in ranges.enumerated() {
                    group.addTask { (index, try await count(range)) }
                }
                var found = Array(repeating: -1, count: ranges.count)
                for try await (index, value) in group { found[index] = value }
                return found
            }
            #expect(found == expected, "round \(round)")
        }
        // The same through the history engine, as init's readings of release steps call it.
        let history = ReleaseHistory(
            tags: try await git.tagList(), format: try TagFormat("v{version}"), paths: HistoryPaths(folder: "pkgs/p1"))
        let releases = history.releases
        #expect(releases.count == 10)
        func steps() async throws -> [Int] {
            try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                for index in 0..<(releases.count - 1) {
                    group.addTask {
                        let seen = Mutex(0)
                        try await history.changes(in: git, to: releases[index].commit, since: releases[index + 1]) { _ in
                            seen.withLock { $0 += 1 }
                        }
                        return (index, seen.withLock { $0 })
                    }
                }
                var found = Array(repeating: -1, count: releases.count - 1)
                for try await (index, value) in group { found[index] = value }
                return found
            }
        }
        #expect(try await steps() == Array(repeating: 2, count: releases.count - 1))
        for _ in 0..<8 { #expect(try await steps() == Array(repeating: 2, count: releases.count - 1)) }
    }
}
