import Foundation
import RelctlTestTraits
@testable import RelctlTOML
import Testing

/// TOML 1.1 (December 2025), which Cargo reads: newlines, comments and a trailing comma inside
/// an inline table, `\e` and `\xHH` escapes. biome's crates/biome_cli/Cargo.toml spreads
/// `tokio = {` over three lines; before, every `relctl plan` of the workspace exited 2 on it.
@Suite("TOML 1.1 texts", .timeLimit(.minutes(30)))
struct TOML11Tests {
    func parsed(_ text: String) throws -> [String: TOMLNode] { try TOMLParser.parse(text) }

    @Test("a multi-line inline table reads as its one-line form, comments and a trailing comma aside")
    func multiLineInlineTable() throws {
        let spread = """
            [package]
            name = "cli"
            version = "2.3.0"

            [dependencies]
            tokio = {
              workspace = true, # the workspace's version
              features  = ["io-std",
                           "macros"],
              nested = { a = 1,
                b = "x}#", },
            }
            serde = { workspace = true }
            """
        let oneLine = """
            [package]
            name = "cli"
            version = "2.3.0"

            [dependencies]
            tokio = { workspace = true, features = ["io-std", "macros"], nested = { a = 1, b = "x}#" } }
            serde = { workspace = true }
            """
        #expect(try parsed(spread) == parsed(oneLine))
        let tokio = try parsed(spread)["dependencies"]?.table?["tokio"]?.table
        #expect(tokio?["features"] == .array([.string("io-std"), .string("macros")]))
        #expect(tokio?["nested"]?.table?["b"] == .string("x}#"))
    }

    @Test("a multi-line string inside an inline table keeps its newlines")
    func multiLineStringInsideATable() throws {
        let text = "a = {\n  text = \"\"\"\none\ntwo\"\"\",\n  n = 1,\n}\n"
        #expect(try parsed(text)["a"]?.table?["text"] == .string("one\ntwo"))
        #expect(try parsed(text)["a"]?.table?["n"] == .integer(1))
    }

    @Test("the escapes TOML 1.1 added read as the characters they name")
    func newEscapes() throws {
        let table = try parsed("a = \"\\e[1m\"\nb = \"\\x41\\x7e\"\nc = 'lit\\e'\n")
        #expect(table["a"] == .string("\u{1B}[1m"))
        #expect(table["b"] == .string("A~"))
        #expect(table["c"] == .string("lit\\e"))  // a literal string has no escapes
    }

    @Test("an error after a multi-line inline table names its own line, not the table's")
    func errorLinesStayTrue() {
        let text = "[dependencies]\ntokio = {\n  workspace = true,\n  features = [],\n}\n\nname = \"x\nother = 1\n"
        do {
            _ = try TOMLParser.parse(text)
            Issue.record("accepted an unclosed string")
        } catch {
            #expect(error.line == 7, "\(error.line): \(error.message)")
        }
    }

    @Test("TOML 1.0 errors are the same as before: a text with nothing of 1.1 is not rewritten")
    func oneZeroErrorsUnchanged() {
        #expect(TOML11Lowering.lowered("a = 1\nb = [1,\n 2]\n[t]\nc = { x = 1 }\n") == nil)
        do {
            _ = try TOMLParser.parse("a = 1\na = 2\n")
            Issue.record("accepted a duplicate key")
        } catch {
            #expect(error.line == 2)
        }
    }
}
