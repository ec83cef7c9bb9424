import Foundation
import RelctlTestSupport
import Testing
@testable import RelctlBasics
@testable import RelctlCore

/// The fuzzer's first finding (issue 26, docs/security.md "Fuzzing"): a table header whose
/// brackets are not followed by a key (`[`, `[[[`, `[!]`, `[é]`) made toml++ abort the process
/// (SIGABRT in `parse_key`) while reading relctl.toml, Cargo.toml or pyproject.toml.
@Suite("TOML headers the fuzzer found")
struct TOMLHeaderFuzzFindingTests {
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
        "brackets that are not headers still parse: values, strings, comments, quoted keys",
        arguments: [
            "a = [\n[[1]],\n[[2], [3]],\n]\n", "a = \"\"\"\n[!]\n[[[\n\"\"\"\n", "a = '''\n[\n'''\n", "# [!]\n[b]\n",
            "[ \"quoted key\" ]\n", "[[ 'x' ]]\n", "[a.\"!\"]\n", "a = \"[\"\n[b]\n", "[ a . b ]\n", "[_]\n[-]\n[0]\n",
            "a = \"\"\"\\\n[!]\"\"\"\n", "a = { b = [\n1] }\n",
        ])
    func accepted(text: String) throws {
        _ = try TOMLDocument(text: text, path: "x.toml")
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
}
