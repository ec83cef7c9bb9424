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

/// What the fuzzer found in the TOML door (issue 26, docs/security.md "Fuzzing"), for
/// relctl.toml, Cargo.toml and pyproject.toml alike: a table header whose brackets are not
/// followed by a key (`[`, `[[[`, `[!]`, `[é]`) made toml++ abort the process (SIGABRT in
/// `parse_key`); so did a `}` where an array expects a value (`[1, }]`, `parse_value`); a key
/// of thousands of dotted parts overflowed the stack (SIGSEGV).
@Suite("TOML inputs the fuzzer found", .timeLimit(.minutes(30)), .removesTemporaries)
struct TOMLFuzzFindingTests {
    @Test(
        "a header without a key is a syntax error naming the file and line, not an abort",
        arguments: [
            ("[", 1), ("[[[", 1), ("[[[a]]]", 1), ("[!]", 1), ("[ =]", 1), ("[[{]]", 1), ("[é]", 1), ("[\t\n", 1),
            ("[[ [", 1), ("[package]\nname = \"x\"\n\t[!]\n", 3), ("a = \"\"\"\nx\n\"\"\"\n[.]", 4),
            ("a = [\n 1,\n]\n[#]", 4), ("a = 1\r\n[\r\n", 2),
        ])
    func refused(text: String, line: Int) throws {
        do {
            _ = try TOMLDocument(text: text, path: "Cargo.toml")
            Issue.record("accepted \(text.debugDescription)")
        } catch let error as ConfigError {
            #expect(error.exitCode == .badInput)
            #expect(error.message.contains("Cargo.toml:\(line)"), "\(error.message)")
            #expect(error.message.contains("table header"), "\(error.message)")
        }
    }

    @Test(
        "brackets that are not headers still parse, to the values TOML says: values, strings, comments, quoted keys",
        arguments: [
            (
                "a = [\n[[1]],\n[[2], [3]],\n]\n",
                [
                    "a": .array([
                        .array([.array([.integer(1)])]), .array([.array([.integer(2)]), .array([.integer(3)])]),
                    ])
                ]
            ),
            ("a = \"\"\"\n[!]\n[[[\n\"\"\"\n", ["a": .string("[!]\n[[[\n")]),
            ("a = '''\n[\n'''\n", ["a": .string("[\n")]),
            ("# [!]\n[b]\n", ["b": .table([:])]),
            ("[ \"quoted key\" ]\n", ["quoted key": .table([:])]),
            ("[[ 'x' ]]\n", ["x": .array([.table([:])])]),
            ("[a.\"!\"]\n", ["a": .table(["!": .table([:])])]),
            ("a = \"[\"\n[b]\n", ["a": .string("["), "b": .table([:])]),
            ("[ a . b ]\n", ["a": .table(["b": .table([:])])]),
            ("[_]\n[-]\n[0]\n", ["_": .table([:]), "-": .table([:]), "0": .table([:])]),
            ("a = \"\"\"\\\n[!]\"\"\"\n", ["a": .string("[!]")]),
            ("a = { b = [\n1] }\n", ["a": .table(["b": .array([.integer(1)])])]),
        ] as [(String, [String: TOMLNode])])
    func accepted(text: String, expected: [String: TOMLNode]) throws {
        let document = try TOMLDocument(text: text, path: "x.toml")
        #expect(document.root == expected, "\(text.debugDescription)")
    }

    @Test("relctl check on such a relctl.toml exits 2 naming the file, no abort")
    func cli() throws {
        try withTemporaryDirectory { directory in
            try directory.write("relctl.toml", "[project]\nname = \"demo\"\n[[[\n")
            let result = try relctl(["check"], in: directory.url)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("relctl.toml:3"), "\(result)")
        }
    }

    @Test(
        "a `}` where an array expects a value is a syntax error naming the file and line, not an abort",
        arguments: [
            ("a = [1,}]", 1), ("a = [}]", 1), ("a = [1,}", 1), ("x = 1\na = [ # c\n}]", 3), ("a = [[}]]", 1),
            ("a = {b = [}]}", 1), ("a = [1,\t}]", 1), ("trees = [{ from = \"demo\", to = \"demo\" },}]", 1),
        ])
    func braceInArray(text: String, line: Int) throws {
        do {
            _ = try TOMLDocument(text: text, path: "relctl.toml")
            Issue.record("accepted \(text.debugDescription)")
        } catch let error as ConfigError {
            #expect(error.exitCode == .badInput)
            #expect(error.message.contains("relctl.toml:\(line)"), "\(error.message)")
            #expect(error.message.contains("array"), "\(error.message)")
        }
    }

    @Test(
        "arrays with inline tables, comments and braces in strings still parse, to the values TOML says",
        arguments: [
            ("a = [{b = 1}, {c = 2}]\n", .array([.table(["b": .integer(1)]), .table(["c": .integer(2)])])),
            ("a = [\n# }\n1,\n]\n", .array([.integer(1)])),
            ("a = { b = [1, 2] }\n", .table(["b": .array([.integer(1), .integer(2)])])),
            ("a = [\"}\", '}', \"\"\"}\"\"\"]\n", .array([.string("}"), .string("}"), .string("}")])),
            ("a = [[1], [2],]\n", .array([.array([.integer(1)]), .array([.integer(2)])])),
            ("a = [ {} ]\n", .array([.table([:])])),
        ] as [(String, TOMLNode)])
    func arraysStillParse(text: String, expected: TOMLNode) throws {
        let document = try TOMLDocument(text: text, path: "relctl.toml")
        #expect(document.root == ["a": expected], "\(text.debugDescription)")
    }

    @Test(
        "a key thousands of dotted parts deep is a syntax error naming the file, not a stack overflow",
        arguments: [
            "[project]\nname" + String(repeating: ".post3", count: 12_000) + " = \"x\"\n",
            "[a" + String(repeating: ".b", count: 12_000) + "]\n",
            "a" + String(repeating: ".b", count: 40) + " = { c" + String(repeating: ".d", count: 40) + " = 1 }\n",
        ])
    func deepKeys(text: String) throws {
        do {
            _ = try TOMLDocument(text: text, path: "pyproject.toml")
            Issue.record("accepted a key \(text.count) characters long")
        } catch let error as ConfigError {
            #expect(error.exitCode == .badInput)
            #expect(error.message.contains("pyproject.toml"), "\(error.message)")
            #expect(error.message.contains("levels deep"), "\(error.message)")
        }
    }

    @Test("tables nested as deep as real manifests go still parse")
    func deepEnough() throws {
        // The dotted key first, at the top level: under the header it would be 4 levels deeper.
        let text =
            "a" + String(repeating: ".b", count: 60) + " = 1\n"
            + "[target.'cfg(unix)'.dependencies.libc]\nversion = \"0.2\"\n"
        let document = try TOMLDocument(text: text, path: "Cargo.toml")
        #expect(document.root["target"]?["cfg(unix)", "dependencies", "libc", "version"]?.string == "0.2")
    }
}
