import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Docs that cannot drift (issue 46). Over README.md and every docs/*.md, whatever pages exist:
/// - every shell example marked `<!-- runnable -->` is run with the built relctl in a temporary
///   repository, and its shown output and exit code compared (the marker's grammar is in
///   docs/development.md, "Runnable docs");
/// - every TOML example of relctl.toml is loaded by `relctl check`;
/// - every option of every subcommand's `--help` appears in the docs, and every `--flag` the docs
///   write after `relctl SUBCOMMAND` exists in that subcommand's `--help`.
@Suite("Runnable docs", .serialized, .timeLimit(.minutes(60)), .removesTemporaries)
struct RunnableDocsTests {
    static let root = DogfoodCLITests.repositoryRoot

    // MARK: Pages and blocks

    struct Block {
        var page: String
        /// 1-based line of the opening fence.
        var line: Int
        var language: String
        /// The HTML comment on the line before the fence, without `<!--`/`-->`, if any.
        var marker: String?
        var lines: [String]
    }

    static var pages: [String] { DocumentationTests.pages }

    static func blocks(in page: String) throws -> [Block] {
        let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
        var blocks: [Block] = []
        var open: Block?
        var previous = ""
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var block = open {
                if trimmed == "```" {
                    blocks.append(block)
                    open = nil
                } else {
                    block.lines.append(line)
                    open = block
                }
            } else if trimmed.hasPrefix("```") {
                var marker: String?
                if previous.hasPrefix("<!--"), previous.hasSuffix("-->") {
                    marker = String(previous.dropFirst(4).dropLast(3)).trimmingCharacters(in: .whitespaces)
                }
                open = Block(
                    page: page, line: index + 1, language: String(trimmed.dropFirst(3)), marker: marker, lines: [])
            }
            if !trimmed.isEmpty { previous = trimmed }
        }
        return blocks
    }

    static func allBlocks() throws -> [Block] { try pages.flatMap { try blocks(in: $0) } }

    // MARK: Runnable shell examples

    /// One `$ command` of a runnable block, what it shows, and the exit it expects.
    struct Step {
        var command: String
        var expectedStatus: Int32
        var shown: [String]
    }

    /// `$ relctl validate-tag v9.0.0   # exit 1`: the comment states the exit (0 without one);
    /// the lines up to the next `$ ` are output that must appear, each whole line, in the order
    /// shown, among the command's stdout and stderr lines. `...` stands for lines left out.
    static func steps(of block: Block) -> [Step] {
        var steps: [Step] = []
        for line in block.lines {
            if line.hasPrefix("$ ") {
                var command = String(line.dropFirst(2))
                var status: Int32 = 0
                if let match = command.firstMatch(of: /\s+#\s*exit\s+(\d+)\s*$/) {
                    status = Int32(match.output.1) ?? 0
                    command = String(command[..<match.range.lowerBound])
                }
                steps.append(Step(command: command, expectedStatus: status, shown: []))
            } else if !steps.isEmpty {
                let shown = line.trimmingCharacters(in: .whitespaces)
                if !shown.isEmpty && shown != "..." && shown != "…" { steps[steps.count - 1].shown.append(shown) }
            }
        }
        return steps
    }

    /// `runnable` alone: an empty git repository; `runnable example=NAME`: a committed copy of
    /// `Examples/NAME`, the project the README's demo releases.
    static func fixture(for marker: String) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory(prefix: "relctl-docs")
        if let example = marker.firstMatch(of: /example=([A-Za-z0-9._-]+)/)?.output.1 {
            let source = root.appendingPathComponent("Examples/\(example)")
            let copied = try run("cp", ["-R", source.path + "/.", directory.path])
            if copied.status != 0 { throw TestFailure("copying \(source.path): \(copied)") }
        }
        let repository = try GitRepository(directory: directory)
        if marker.contains("example=") { try repository.commit("feat: first release") }
        return directory
    }

    static var environment: [String: String] {
        let binaries = relctlBinary.deletingLastPathComponent().path
        return [
            "PATH": binaries + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "NO_COLOR": "1", "RELCTL_LAYER_CACHE": "off",
            "GIT_AUTHOR_NAME": "Doc Writer", "GIT_AUTHOR_EMAIL": "doc@example.com",
            "GIT_COMMITTER_NAME": "Doc Writer", "GIT_COMMITTER_EMAIL": "doc@example.com",
            "GIT_AUTHOR_DATE": "2026-01-02T03:04:05Z", "GIT_COMMITTER_DATE": "2026-01-02T03:04:05Z",
            "GITHUB_ACTIONS": "", "CI": "",
        ]
    }

    static var runnableBlocks: [Block] {
        get throws {
            try allBlocks().filter { $0.marker?.hasPrefix("runnable") == true && $0.language != "toml" }
        }
    }

    /// What one block got wrong, empty when it holds.
    static func failures(of block: Block) throws -> [String] {
        let where_ = "\(block.page):\(block.line)"
        guard block.language == "console" else { return ["\(where_): a runnable block must be ```console"] }
        let steps = steps(of: block)
        guard !steps.isEmpty else { return ["\(where_): a runnable block without a `$ ` command"] }
        let directory = try fixture(for: block.marker ?? "runnable")
        defer { directory.remove() }
        var failures: [String] = []
        for step in steps {
            let result = try sh(step.command, in: directory.url, environment: environment)
            if result.status != step.expectedStatus {
                failures.append(
                    "\(where_): `\(step.command)` exited \(result.status), the docs say \(step.expectedStatus)\n\(result)"
                )
                break
            }
            let actual = (result.stdout + "\n" + result.stderr).split(separator: "\n").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            var from = actual.startIndex
            for line in step.shown {
                // A shown line ending in `…` stands for every line that starts with the rest
                // (a commit hash, a size or a time left out).
                let prefix = line.hasSuffix("…") ? String(line.dropLast()).trimmingCharacters(in: .whitespaces) : nil
                guard
                    let found = actual[from...].firstIndex(where: { prefix.map($0.hasPrefix) ?? ($0 == line) })
                else {
                    failures.append("\(where_): `\(step.command)` did not print `\(line)`\n\(result)")
                    break
                }
                from = actual.index(after: found)
            }
        }
        return failures
    }

    @Test func everyRunnableShellExampleDoesWhatItShows() throws {
        let blocks = try Self.runnableBlocks
        // The docs keep a good share of their examples runnable; a marker lost in an edit shows here.
        #expect(blocks.count >= 12, "only \(blocks.count) runnable examples")
        var failures: [String] = []
        for block in blocks { failures += try Self.failures(of: block) }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
    }

    /// The runner is a judge that can fail: a block whose output or exit is wrong is caught.
    @Test func aWrongExampleIsCaught() throws {
        let wrongOutput = Block(
            page: "test.md", line: 1, language: "console", marker: "runnable",
            lines: ["$ relctl validate-tag v1.0.0", "not what relctl prints"])
        #expect(!(try Self.failures(of: wrongOutput)).isEmpty)
        let wrongExit = Block(
            page: "test.md", line: 1, language: "console", marker: "runnable", lines: ["$ relctl check --no-such-flag"])
        #expect(!(try Self.failures(of: wrongExit)).isEmpty)
        let right = Block(
            page: "test.md", line: 1, language: "console", marker: "runnable",
            lines: ["$ relctl check --no-such-flag   # exit 64", "$ relctl validate-tag 1.0   # exit 2"])
        #expect(try Self.failures(of: right).isEmpty)
    }

    // MARK: Config examples

    /// A ```toml block is a relctl.toml example unless the line before it names another file
    /// (`<!-- file: Cargo.toml -->`). A fragment without `[project]` gets one. The config must
    /// load: `check --json` prints its report (findings about files the example names but this
    /// folder lacks are fine), never a load error.
    @Test func everyConfigExampleLoads() throws {
        var failures: [String] = []
        var checked = 0
        for block in try Self.allBlocks() where block.language == "toml" {
            if let marker = block.marker, let file = marker.firstMatch(of: /file:\s*(\S+)/)?.output.1,
                file != "relctl.toml"
            {
                continue
            }
            let text = Self.completed(block.lines.joined(separator: "\n") + "\n")
            let directory = try TemporaryDirectory(prefix: "relctl-docs-toml")
            defer { directory.remove() }
            _ = try GitRepository(directory: directory)
            try directory.write("relctl.toml", text)
            let result = try relctl(["check", "--json"], in: directory.url, environment: Self.environment)
            checked += 1
            let document = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            if document?["manifests"] == nil {
                failures.append("\(block.page):\(block.line): relctl.toml does not load\n\(result.stderr)")
            }
        }
        #expect(checked >= 10, "only \(checked) config examples")
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
    }

    /// A fragment in the project it belongs to: the tables it leaves out come from a small
    /// complete project (one Linux target, two binaries, the metadata packages need), so a
    /// fragment is judged on its own keys, not on what the page shows elsewhere.
    static func completed(_ fragment: String) -> String {
        func has(_ header: String) -> Bool {
            fragment.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix(header) }
        }
        var base = ""
        if !has("[project]") {
            base +=
                "[project]\nname = \"velostream\"\ndescription = \"Streaming SQL engine\"\nlicense = \"Apache-2.0\"\n"
                + "homepage = \"https://example.com/velostream\"\n"
                + "maintainer = \"Velostream Maintainers <maintainers@example.com>\"\n\n"
        }
        if !has("[build]") {
            base += "[build]\ncommand = \"true\"\nbinaries = [\"velo-sql\", \"velo-cli\"]\n\n"
        }
        if !has("[[target]]") { base += "[[target]]\ntriple = \"x86_64-unknown-linux-gnu\"\n\n" }
        return base + fragment
    }

    // MARK: Release stages

    /// releasing.md's stage table lists exactly the stages a release runs, in order.
    @Test func theStageTableIsTheStagesOfARun() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/releasing.md"), encoding: .utf8)
        let table = try #require(page.firstRange(of: "| stage | what it does |"))
        let documented = page[table.upperBound...].split(separator: "\n").dropFirst().prefix { $0.hasPrefix("|") }
            .compactMap { $0.split(separator: "|").first?.trimmingCharacters(in: .whitespaces) }
        let fixture = try ReleaseFixture()
        let dry = try relctl(["release", "v1.0.0", "--dry-run", "--json"], in: fixture.url)
        #expect(dry.status == 0, "\(dry)")
        let plan = try JSONDecoder().decode(PlanDocument.self, from: Data(dry.stdout.utf8))
        #expect(documented == plan.stages.map(\.name), "\(documented) vs \(plan.stages.map(\.name))")
    }

    // MARK: Flags

    /// Every command path (`check`, `ci generate`, `train run`…) from `relctl --help`, recursively.
    static func commands() throws -> [[String]] {
        var found: [[String]] = []
        var queue: [[String]] = [[]]
        while !queue.isEmpty {
            let path = queue.removeFirst()
            let result = try relctl(path + ["--help"], in: root)
            guard result.status == 0, path.count <= 3 else {
                throw TestFailure("relctl \(path.joined(separator: " ")) --help failed: \(result)")
            }
            if !path.isEmpty { found.append(path) }
            let help = result.stdout
            guard let section = help.range(of: "SUBCOMMANDS:") else { continue }
            for line in help[section.upperBound...].split(separator: "\n") {
                // `  name   abstract`: a name in lower case; the closing "See 'relctl help…'" is not one.
                guard let match = line.firstMatch(of: /^  ([a-z][a-z0-9-]*)(?:\s|$)/), match.output.1 != "help"
                else { continue }
                queue.append(path + [String(match.output.1)])
            }
        }
        return found
    }

    /// The long options `relctl PATH --help` lists.
    static func options(of path: [String]) throws -> Set<String> {
        let help = try relctl(path + ["--help"], in: root).stdout
        guard let section = help.range(of: "OPTIONS:") else { return [] }
        return Set(help[section.upperBound...].matches(of: /--[a-z0-9][a-z0-9-]*/).map { String($0.output) })
    }

    static func docsText() throws -> String {
        try pages.map { try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8) }.joined(
            separator: "\n")
    }

    @Test func everyHelpFlagIsDocumented() throws {
        let commands = try Self.commands()
        #expect(commands.count >= 20, "\(commands)")
        let docs = try Self.docsText()
        var missing: [String] = []
        for path in commands {
            for option in try Self.options(of: path).sorted() where !["--help", "--version"].contains(option) {
                if docs.firstMatch(of: try Regex(NSRegularExpression.escapedPattern(for: option) + "(?![a-z0-9-])"))
                    == nil
                {
                    missing.append("relctl \(path.joined(separator: " ")) \(option)")
                }
            }
        }
        #expect(missing.isEmpty, "flags in --help that no page documents:\n\(missing.joined(separator: "\n"))")
    }

    /// Each `relctl SUBCOMMAND …` the docs write, in code: the text up to the end of the code span
    /// or the shell command, with the command path resolved as long as the words name one.
    /// A word written `plan|run` (or `plan\\|run` in a table) names each of its alternatives:
    /// the flags after it belong to any of them.
    static func documentedInvocations(
        commands: [[String]]
    ) throws -> [(
        page: String, paths: [[String]], text: String
    )] {
        var result: [(String, [[String]], String)] = []
        for page in pages {
            let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
            var snippets: [String] = []
            var inFence = false
            for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let line = String(raw)
                if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                    inFence.toggle()
                    continue
                }
                if inFence {
                    snippets += line.split(separator: /&&|\|\||;|\|(?=\s)/).map(String.init)
                } else {
                    snippets += line.matches(of: /`([^`\n]+)`/).map { String($0.output.1) }
                }
            }
            for snippet in snippets {
                for match in snippet.matches(of: /(?:^|[\s(])relctl((?:\s+[a-z][a-z|\\-]*)+)([^#]*)/) {
                    let words = match.output.1.split(separator: " ").map(String.init)
                    var paths: [[String]] = [[]]
                    for word in words {
                        let alternatives = word.replacingOccurrences(of: "\\", with: "").split(separator: "|")
                            .map(String.init)
                        let longer = paths.flatMap { path in
                            alternatives.map { path + [$0] }.filter { commands.contains($0) }
                        }
                        if longer.isEmpty { break }
                        paths = longer
                    }
                    guard paths.allSatisfy({ !$0.isEmpty }) else { continue }
                    result.append((page, paths, String(match.output.0)))
                }
            }
        }
        return result
    }

    @Test func everyDocumentedFlagExists() throws {
        let commands = try Self.commands()
        let invocations = try Self.documentedInvocations(commands: commands)
        #expect(invocations.count >= 100, "only \(invocations.count) documented invocations")
        var options: [[String]: Set<String>] = [:]
        var unknown: Set<String> = []
        for (page, paths, text) in invocations {
            var known: Set<String> = ["--help", "--version"]
            for path in paths {
                if options[path] == nil { options[path] = try Self.options(of: path) }
                known.formUnion(options[path, default: []])
            }
            let shown = paths.map { $0.joined(separator: " ") }.joined(separator: " | ")
            for flag in text.matches(of: /(?:^|[\s\[(|])(--[a-z0-9][a-z0-9-]*)/).map({ String($0.output.1) })
            where !known.contains(flag) {
                unknown.insert("\(page): relctl \(shown) \(flag)  (in `\(text)`)")
            }
        }
        #expect(
            unknown.isEmpty,
            "flags the docs give that --help does not list:\n\(unknown.sorted().joined(separator: "\n"))")
    }
}
