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

@Suite("relctl build", .timeLimit(.minutes(45)), .removesTemporaries)
struct BuildCLITests {
    static let buildSection = """
        [build]
        command = "sh build.sh {target} {os}"
        binaries = ["demo-cli", "demo-sql"]
        binary-dir = "out/{target}"
        """

    /// A build script that makes both binaries and records its environment. The test harness's own
    /// `RELCTL_LAYER_CACHE=off` is inherited like any other variable of the caller, so it is left out.
    static let goodScript = """
        set -e
        mkdir -p "out/$1"
        suffix=""; [ "$2" = windows ] && suffix=.exe
        touch "out/$1/demo-cli$suffix" "out/$1/demo-sql$suffix"
        env | grep -E '^(RELCTL_|SOURCE_DATE_EPOCH|EXTRA=)' | grep -v '^RELCTL_LAYER_CACHE=' | sort > "out/$1/env.txt"
        echo "built $1"
        """

    @Test func buildsEveryTargetWithItsEnvironment() throws {
        let repo = try GitRepository()
        try MatrixFixtures.project(
            in: repo.directory, build: Self.buildSection + "\nenv = { EXTRA = \"{project}-{arch}\" }")
        try repo.directory.write("build.sh", Self.goodScript)
        let head = try repo.commit("initial")
        let result = try relctl(["build", "--jobs", "2"], in: repo.url)
        #expect(result.status == 0, "\(result)")
        #expect(repo.directory.exists("out/x86_64-pc-windows-msvc/demo-cli.exe"))
        let env = try repo.directory.read("out/aarch64-apple-darwin/env.txt")
        #expect(
            env == """
                EXTRA=demo-aarch64
                RELCTL_COMMIT=\(head)
                RELCTL_PROJECT=demo
                RELCTL_TAG=v1.2.3
                RELCTL_TARGET=aarch64-apple-darwin
                RELCTL_VERSION=1.2.3
                SOURCE_DATE_EPOCH=1767323045

                """)
        #expect(result.stderr.contains("[x86_64-unknown-linux-gnu] ok"))

        // --tag wins over the manifest; SOURCE_DATE_EPOCH from the environment wins over the commit time.
        let tagged = try relctl(
            ["build", "--target", "*linux*", "--tag", "v2.0.0-rc.1"], in: repo.url,
            environment: ["SOURCE_DATE_EPOCH": "42"])
        #expect(tagged.status == 0, "\(tagged)")
        let linuxEnv = try repo.directory.read("out/x86_64-unknown-linux-gnu/env.txt")
        #expect(linuxEnv.contains("RELCTL_VERSION=2.0.0-rc.1\n") && linuxEnv.contains("SOURCE_DATE_EPOCH=42\n"))
        // One target at a time streams its output prefixed with the triple.
        #expect(tagged.stderr.contains("[x86_64-unknown-linux-gnu] built x86_64-unknown-linux-gnu"))

        let badTag = try relctl(["build", "--tag", "2.0.0"], in: repo.url)
        #expect(badTag.status == 2)
        #expect(badTag.stderr.contains("2.0.0"))
    }

    @Test func failingBuildShowsItsTailAndStillReportsTheOthers() throws {
        try withTemporaryDirectory { dir in
            try MatrixFixtures.project(in: dir, build: Self.buildSection)
            // The Windows build prints 50 numbered lines and fails; the others succeed.
            try dir.write(
                "build.sh",
                """
                if [ "$2" = windows ]; then
                  i=1; while [ $i -le 50 ]; do echo "noise-$(printf %02d $i)"; i=$((i+1)); done
                  echo "error: linker exploded" >&2
                  exit 3
                fi
                \(Self.goodScript)
                """)
            let result = try relctl(["build", "--jobs", "3"], in: dir.url)
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("error: linker exploded"))
            #expect(result.stderr.contains("noise-50"))
            #expect(result.stderr.contains("noise-12"))
            // Only the last 40 lines: 11 of 50 noise lines (plus the error line) are dropped.
            #expect(!result.stderr.contains("noise-11"))
            #expect(result.stderr.contains("[x86_64-unknown-linux-gnu] ok"))
            #expect(result.stderr.contains("[aarch64-apple-darwin] ok"))
            #expect(
                result.stderr.contains(
                    "build for x86_64-pc-windows-msvc failed: `sh build.sh x86_64-pc-windows-msvc windows` exited with status 3"
                ))
            #expect(result.stderr.contains("1 target failed: x86_64-pc-windows-msvc"))
        }
    }

    @Test func missingBinariesAreNamed() throws {
        try withTemporaryDirectory { dir in
            try MatrixFixtures.project(in: dir, build: Self.buildSection)
            // Forgets the .exe suffix on Windows and demo-sql everywhere.
            try dir.write("build.sh", "mkdir -p out/$1 && touch out/$1/demo-cli\n")
            let result = try relctl(["build", "--json"], in: dir.url)
            #expect(result.status == 1, "\(result)")
            #expect(
                result.stderr.contains(
                    "build for x86_64-unknown-linux-gnu produced no `out/x86_64-unknown-linux-gnu/demo-sql`"))
            #expect(
                result.stderr.contains(
                    "`out/x86_64-pc-windows-msvc/demo-cli.exe`, `out/x86_64-pc-windows-msvc/demo-sql.exe`"))
            #expect(result.stderr.contains("3 targets failed"))
            let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let results = report?["results"] as? [[String: Any]]
            #expect(
                results?.map { $0["outcome"] as? String } == [
                    "missing-binaries", "missing-binaries", "missing-binaries",
                ])
        }
    }

    @Test func sourceDateEpochIsCheckedBeforeAnyBuildAndNeverPassedEmpty() throws {
        try withTemporaryDirectory { dir in
            try MatrixFixtures.project(in: dir, targets: ["x86_64-unknown-linux-gnu"], build: Self.buildSection)
            try dir.write("build.sh", Self.goodScript)
            let bad = try relctl(["build"], in: dir.url, environment: ["SOURCE_DATE_EPOCH": "yesterday"])
            #expect(bad.status == 2, "\(bad)")
            #expect(
                bad.stderr.contains(
                    "relctl: error: SOURCE_DATE_EPOCH=`yesterday` is not a whole number of seconds since 1970"))
            #expect(!dir.exists("out"))
            // Outside git there is no clock: the variable is unset, not inherited empty.
            let empty = try relctl(["build"], in: dir.url, environment: ["SOURCE_DATE_EPOCH": ""])
            #expect(empty.status == 0, "\(empty)")
            #expect(
                try dir.read("out/x86_64-unknown-linux-gnu/env.txt")
                    == "RELCTL_COMMIT=\nRELCTL_PROJECT=demo\nRELCTL_TAG=v1.2.3\nRELCTL_TARGET=x86_64-unknown-linux-gnu\nRELCTL_VERSION=1.2.3\n"
            )
        }
    }

    @Test func hostBuildsOnlyThisMachinesTarget() throws {
        try withTemporaryDirectory { dir in
            #if arch(x86_64)
            let hostTriple = "x86_64-unknown-linux-gnu"
            #else
            let hostTriple = "aarch64-unknown-linux-gnu"
            #endif
            try MatrixFixtures.project(
                in: dir, targets: ["x86_64-pc-windows-msvc", hostTriple], build: Self.buildSection)
            try dir.write("build.sh", Self.goodScript)
            let result = try relctl(["build", "--host"], in: dir.url)
            #expect(result.status == 0, "\(result)")
            #expect(dir.exists("out/\(hostTriple)/demo-cli"))
            #expect(!dir.exists("out/x86_64-pc-windows-msvc"))

            try MatrixFixtures.project(in: dir, targets: ["x86_64-pc-windows-msvc"], build: Self.buildSection)
            let none = try relctl(["build", "--host"], in: dir.url)
            #expect(none.status == 2)
            #expect(none.stderr.contains("no configured target matches this machine"))
        }
    }

    @Test func interruptStopsChildrenAndGrandchildren() throws {
        try withTemporaryDirectory { dir in
            // The aarch64 build ignores SIGTERM (inherited by its sleep), so only the SIGKILL that
            // follows the grace period stops it.
            try MatrixFixtures.project(
                in: dir, targets: ["x86_64-unknown-linux-gnu"],
                extraTargets: """
                    [[target]]
                    triple = "aarch64-unknown-linux-gnu"
                    command = "sh -c 'trap \\"\\" TERM; echo $$ > sh-{arch}.pid; sleep 100 & echo $! > sleep-{arch}.pid; wait'"
                    """,
                build: """
                    [build]
                    command = "sh -c 'echo $$ > sh-{arch}.pid; sleep 100 & echo $! > sleep-{arch}.pid; wait'"
                    binaries = []
                    """)
            let process = Process()
            process.executableURL = relctlBinary
            process.arguments = ["build", "--jobs", "2", "--tag", "v1.0.0"]
            process.currentDirectoryURL = dir.url
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let files = ["sh-x86_64.pid", "sleep-x86_64.pid", "sh-aarch64.pid", "sleep-aarch64.pid"]
            let started = MatrixFixtures.waitUntil(seconds: 30) {
                files.allSatisfy { ((try? dir.read($0)) ?? "").hasSuffix("\n") }
            }
            #expect(started)
            let pids = files.compactMap {
                Int32((try? dir.read($0))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
            }
            #expect(pids.count == 4)
            #expect(pids.allSatisfy(MatrixFixtures.isAlive))

            kill(process.processIdentifier, SIGINT)
            try process.waitForExit()
            #expect(process.terminationStatus == 130)
            let stopped = MatrixFixtures.waitUntil(seconds: 10) { !pids.contains(where: MatrixFixtures.isAlive) }
            #expect(stopped, "still running: \(pids.filter(MatrixFixtures.isAlive))")
            for pid in pids where MatrixFixtures.isAlive(pid) { kill(pid, SIGKILL) }
        }
    }
}
