import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// The exit-code rule (README.md, "Global options and exit codes") over every subcommand
/// `relctl --help` lists, including the ones added after this test was written: an unknown option
/// and a value outside an enumerated option's list are usage errors (64), printed in the one error
/// format, with a JSON error document on stdout under `--json`.
@Suite(.serialized, .timeLimit(.minutes(45)), .removesTemporaries)
struct ExitCodeContractCLITests {
    /// Options whose value comes from a fixed list wherever a command has them; an option whose
    /// help shows ArgumentParser's `(values: …)` is enumerated too.
    static let enumeratedNames: Set<String> = ["--format", "--forge", "--provider", "--algorithm", "--color"]

    /// What every command's own failures and usage errors must look like.
    static let badValue = "zz-not-a-value"

    struct Usage {
        /// Positional arguments and options the usage line requires, filled with plausible values,
        /// so that the parser gets as far as the option under test.
        var required: [String]
        var enumerated: [String]
    }

    static func usage(of path: [String], in directory: URL) throws -> Usage {
        let help = try relctl(path + ["--help"], in: directory).stdout
        var required: [String] = []
        if let line = help.split(separator: "\n").first(where: { $0.hasPrefix("USAGE:") }) {
            // Drop optional groups, then read what remains: `<tag>` and `--tag <tag>`.
            var text = String(line)
            while let range = text.firstRange(of: /\[[^\[\]]*\]/) { text.removeSubrange(range) }
            var tokens = text.split(separator: " ").map(String.init).dropFirst(1 + 1 + path.count)
            while let token = tokens.first {
                tokens = tokens.dropFirst()
                if token.hasPrefix("--") {
                    required.append(token)
                    if let value = tokens.first, value.hasPrefix("<") {
                        tokens = tokens.dropFirst()
                        required.append(value.contains("tag") || value.contains("version") ? "v1.0.0" : "x")
                    }
                } else if token.hasPrefix("<") {
                    required.append(token.contains("path") || token.contains("file") ? "x" : "v1.0.0")
                }
            }
        }
        var enumerated: Set<String> = []
        if let section = help.range(of: "OPTIONS:") {
            let options = help[section.upperBound...]
            // One entry per option: its line and the wrapped lines under it.
            var current: String?
            var text = ""
            func close() {
                if let current, Self.enumeratedNames.contains(current) || text.contains("(values:") {
                    enumerated.insert(current)
                }
            }
            for line in options.split(separator: "\n") {
                if let match = line.firstMatch(of: /^\s{2}(?:-[a-z], )?(--[a-z0-9-]+)( <[^>]+>)?/) {
                    close()
                    current = match.output.2 == nil ? nil : String(match.output.1)
                    text = String(line)
                } else {
                    text += " " + line.trimmingCharacters(in: .whitespaces)
                }
            }
            close()
        }
        return Usage(required: required, enumerated: enumerated.sorted())
    }

    @Test func everySubcommandFollowsTheUsageRule() throws {
        let directory = try TemporaryDirectory(prefix: "relctl-exit-codes")
        defer { directory.remove() }
        _ = try GitRepository(directory: directory)
        let commands = try RunnableDocsTests.commands()
        #expect(commands.count >= 20, "\(commands)")
        var failures: [String] = []
        var enumeratedChecked: Set<String> = []
        for path in commands {
            let usage = try Self.usage(of: path, in: directory.url)
            let name = "relctl " + path.joined(separator: " ")
            // An unknown option: 64, `relctl: error:` first, a JSON error document under --json.
            let unknown = try relctl(path + ["--no-such-option", "--json"], in: directory.url)
            if unknown.status != 64 { failures.append("\(name) --no-such-option exited \(unknown.status)") }
            if !unknown.stderr.hasPrefix("relctl: error: ") {
                failures.append("\(name) --no-such-option printed \(unknown.stderr)")
            }
            let document = try? JSONSerialization.jsonObject(with: Data(unknown.stdout.utf8)) as? [String: Any]
            if (document?["exitCode"] as? Int) != 64 || (document?["ok"] as? Bool) != false {
                failures.append("\(name) --no-such-option --json printed no error document: \(unknown.stdout)")
            }
            for option in usage.enumerated {
                let arguments = path + usage.required + [option, Self.badValue]
                let result = try relctl(arguments, in: directory.url)
                enumeratedChecked.insert("\(name) \(option)")
                if result.status != 64 || !result.stderr.contains(Self.badValue)
                    || !result.stderr.hasPrefix("relctl: error: ")
                {
                    failures.append(
                        "relctl \(arguments.joined(separator: " ")): exit \(result.status)\n\(result.stderr)")
                }
            }
        }
        // The options the issue found giving 2 are among those checked.
        for known in [
            "relctl checksum --algorithm", "relctl publish --forge", "relctl linux-package --format",
            "relctl matrix --format", "relctl ci generate --provider", "relctl check --color",
        ] {
            #expect(enumeratedChecked.contains(known), "\(known) was not checked: \(enumeratedChecked.sorted())")
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    /// A failing `--json` command prints one JSON error document on stdout (publish had none).
    @Test func aFailingJSONCommandPrintsAnErrorDocument() throws {
        let fixture = try ReleaseFixture()
        let publish = try relctl(
            ["publish", "v1.0.0", "--json"], in: fixture.url, environment: ["GITHUB_TOKEN": "", "GH_TOKEN": ""])
        #expect(publish.status == 2, "\(publish)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(publish.stdout.utf8)) as? [String: Any], "\(publish)")
        #expect(document["ok"] as? Bool == false && document["exitCode"] as? Int == 2)
        let errors = try #require(document["errors"] as? [[String: Any]])
        #expect(!errors.isEmpty && errors.allSatisfy { ($0["message"] as? String)?.isEmpty == false }, "\(document)")
        // A command with a document of its own keeps it, and gets no second one.
        let validate = try relctl(["validate-tag", "v9.9.9", "--json"], in: fixture.url)
        #expect(validate.status == 1, "\(validate)")
        #expect(try JSONSerialization.jsonObject(with: Data(validate.stdout.utf8)) is [String: Any], "\(validate)")
    }
}
