import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// The test suite's own rules, checked in its sources (docs/development.md, "Tests that cannot go
/// green by accident"): every suite has a time limit, no test is switched off or marked as
/// expected to fail except through `.requires(...)` (which fails under CI=true), and no test
/// waits on a child in a way its time limit cannot end. New test files are caught the day they
/// are added, whoever adds them.
@Suite("The test suite's rules", .timeLimit(.minutes(30)), .removesTemporaries)
struct SuiteRulesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every Swift file under Tests/, by its path from Tests/.
    static func testSources() throws -> [(path: String, text: String)] {
        let tests = root.appendingPathComponent("Tests")
        let paths = FileManager.default.enumerator(atPath: tests.path)?.compactMap { $0 as? String } ?? []
        return try paths.sorted().filter { $0.hasSuffix(".swift") }.map {
            ($0, try String(contentsOf: tests.appendingPathComponent($0), encoding: .utf8))
        }
    }

    /// One top-level declaration: its attributes, its kind and name, and its body.
    struct Declaration {
        var header: String
        var kind: String
        var name: String
        var body: String
        var line: Int
    }

    /// The top-level declarations of a Swift file (swift-format puts them, their attributes and
    /// their closing brace at column 0).
    static func declarations(in text: String) -> [Declaration] {
        let lines = text.components(separatedBy: "\n")
        let declaration =
            #/^(?:@\w+(?:\(.*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|final|nonisolated) +)*(struct|class|enum|actor|extension|func) +([A-Za-z_][A-Za-z0-9_]*)/#
        var found: [Declaration] = []
        var attributesStart: Int?
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if line.hasPrefix("@"), attributesStart == nil { attributesStart = index }
            // Only column-0 lines can start one (and Swift's Regex is slow on the rest).
            if let first = line.first, first == "@" || first.isLetter, let match = line.firstMatch(of: declaration) {
                // The body ends at the next `}` in column 0, unless it opens and closes on this line.
                var end = index
                let opens = line.filter { $0 == "{" }.count, closes = line.filter { $0 == "}" }.count
                if !(opens > 0 && opens == closes) {
                    while end + 1 < lines.count, lines[end] != "}" { end += 1 }
                }
                let start = attributesStart ?? index
                found.append(
                    Declaration(
                        header: lines[start...index].joined(separator: "\n"), kind: String(match.output.1),
                        name: String(match.output.2), body: lines[index...end].joined(separator: "\n"), line: index + 1)
                )
                attributesStart = nil
                index = end + 1
                continue
            }
            if !line.hasPrefix("@"), !line.hasPrefix(" "), !line.hasPrefix("\t"), !line.isEmpty,
                !line.hasPrefix("//"), !line.hasPrefix(")")
            {
                attributesStart = nil
            }
            index += 1
        }
        return found
    }

    /// Where a test could run without a time limit: a suite without `.timeLimit(`, a free `@Test`
    /// without one, a type holding tests without `@Suite` (an implicit suite), or an extension
    /// adding tests to a type that is not such a suite.
    static func missingTimeLimits(in files: [(path: String, text: String)]) -> [String] {
        let all = files.map { file in (file.path, declarations(in: file.text)) }
        let limitedSuites = Set(
            all.flatMap(\.1).filter { $0.header.contains("@Suite") && $0.header.contains(".timeLimit(") }.map(\.name))
        var problems: [String] = []
        for (path, declarations) in all {
            for item in declarations {
                let hasTests = item.body.contains("@Test")
                switch item.kind {
                case "func" where item.header.contains("@Test"):
                    if !item.header.contains(".timeLimit(") {
                        problems.append("\(path):\(item.line): @Test func \(item.name) has no .timeLimit(.minutes(N))")
                    }
                case "extension":
                    if hasTests, !limitedSuites.contains(item.name) {
                        problems.append(
                            "\(path):\(item.line): extension \(item.name) adds tests to a type with no @Suite(.timeLimit(...))"
                        )
                    }
                case "func":
                    break
                default:
                    if item.header.contains("@Suite") {
                        if !item.header.contains(".timeLimit(") {
                            problems.append("\(path):\(item.line): suite \(item.name) has no .timeLimit(.minutes(N))")
                        }
                    } else if hasTests {
                        problems.append(
                            "\(path):\(item.line): \(item.name) holds tests but is no @Suite: declare it"
                                + " @Suite(.timeLimit(.minutes(N)), .removesTemporaries)")
                    }
                }
            }
        }
        return problems
    }

    /// Swift Testing's own ways to switch a test off or expect it to fail, and probing PATH for a
    /// tool to decide what runs. Spelled in pieces so this file does not name them itself.
    static let forbidden: [(needle: String, why: String)] = [
        ("." + "enabled(", "use .requires(...) (a failure under CI=true), or make the test unconditional"),
        ("." + "disabled(", "a test that is off is a test that passes without checking anything"),
        ("with" + "KnownIssue", "an expected failure passes whether or not the bug is there"),
        ("Test." + "cancel(", "only .requires(...) may stop a test (and under CI=true it fails)"),
        ("command " + "-v \\(", "look tools up with Tool.path (throws when missing), never to decide what runs"),
    ]

    /// Waits on a child that a test's time limit cannot end (`run`, `Process.waitForExit()` and
    /// `BackgroundProcess.wait()` kill the child when the test is cancelled).
    static let unboundedWait = "." + "waitUntilExit()"

    static func forbiddenUses(in files: [(path: String, text: String)]) -> [String] {
        var problems: [String] = []
        for file in files where file.path != "Traits/Requirements.swift" {
            for (number, line) in file.text.components(separatedBy: "\n").enumerated() {
                for rule in forbidden where line.contains(rule.needle) {
                    problems.append(
                        "\(file.path):\(number + 1): \(rule.needle.replacingOccurrences(of: "\\", with: "")): \(rule.why)"
                    )
                }
                // Support's stand-ins reap children they have just SIGKILLed; tests wait through the helpers.
                if !file.path.hasPrefix("Support/"), line.contains(unboundedWait) {
                    problems.append(
                        "\(file.path):\(number + 1): waitUntilExit() outlives the test's time limit; use waitForExit()")
                }
            }
        }
        return problems
    }

    /// The shortest time limit a test may have. Swift Testing's clock for a test runs from its
    /// start, and its end (or its timer) needs a thread of the cooperative pool, which has one
    /// thread per core and which the suite's synchronous tests hold while their children run: a
    /// test that took a second has been reported past a 5-minute limit after the pool was held
    /// for 32 minutes (two builds on a loaded two-core machine). A limit is a bound for a hang,
    /// longer than a whole run (about 20 minutes in CI), not a measure of the test's speed.
    static let shortestLimit = 30

    /// Limits shorter than `shortestLimit` minutes.
    static func tooShortLimits(in files: [(path: String, text: String)]) -> [String] {
        files.flatMap { file in
            file.text.components(separatedBy: "\n").enumerated().compactMap { number, line -> String? in
                guard line.hasPrefix("@") || line.hasPrefix("    @"),
                    let match = line.firstMatch(of: #/\.timeLimit\(\.minutes\((\d+)\)\)/#),
                    let minutes = Int(match.output.1), minutes < shortestLimit
                else { return nil }
                return
                    "\(file.path):\(number + 1): .timeLimit(.minutes(\(minutes))) is shorter than \(shortestLimit) minutes"
            }
        }
    }

    @Test func everySuiteHasATimeLimit() throws {
        let files = try Self.testSources()
        #expect(files.count > 100, "the test sources are read: \(files.count)")
        let problems = Self.missingTimeLimits(in: files) + Self.tooShortLimits(in: files)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func noTestIsSwitchedOffOrWaitsWithoutALimit() throws {
        let problems = Self.forbiddenUses(in: try Self.testSources())
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// The checks find what they are for (so an empty list above means something).
    @Test func theChecksCatchWhatTheyLookFor() {
        let source = """
            import Testing

            /// Documented.
            @Suite("limited", .timeLimit(.minutes(3)), .removesTemporaries)
            struct Limited {
                @Test func a() {}
            }

            @Suite(
                "unlimited", .serialized,
                .removesTemporaries)
            struct Unlimited {
                @Test func b() {}
            }

            struct Implicit {
                @Test func c() {}
            }

            extension Limited {
                @Test func d() {}
            }

            extension Implicit {
                @Test func e() {}
            }

            @Test(.removesTemporaries) func free() {}

            @Test(.timeLimit(.minutes(1))) func freeLimited() {}

            struct Helper {
                func f() {}
            }
            """
        let problems = Self.missingTimeLimits(in: [("X.swift", source)])
        #expect(
            problems == [
                "X.swift:12: suite Unlimited has no .timeLimit(.minutes(N))",
                "X.swift:16: Implicit holds tests but is no @Suite: declare it @Suite(.timeLimit(.minutes(N)), .removesTemporaries)",
                "X.swift:24: extension Implicit adds tests to a type with no @Suite(.timeLimit(...))",
                "X.swift:28: @Test func free has no .timeLimit(.minutes(N))",
            ], "\(problems.joined(separator: "\n"))")

        #expect(
            Self.tooShortLimits(in: [("X.swift", source)]) == [
                "X.swift:4: .timeLimit(.minutes(3)) is shorter than 30 minutes",
                "X.swift:30: .timeLimit(.minutes(1)) is shorter than 30 minutes",
            ])

        let uses = """
            @Test(.\("enabled")(if: hasTool)) func a() {}
            func b() { with\("KnownIssue") { } }
            let p = try sh("command -v \\(tool)")
            process.\("waitUntilExit")()
            """
        let found = Self.forbiddenUses(in: [("RelctlCLITests/X.swift", uses)])
        #expect(found.count == 4, "\(found.joined(separator: "\n"))")
        #expect(Self.forbiddenUses(in: [("Support/X.swift", "process.\("waitUntilExit")()")]).isEmpty)
    }
}
