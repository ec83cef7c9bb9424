import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlBasics

/// RubyEmitter, NixEmitter and PowerShellEmitter on hostile values (issue 39). Ruby and Nix
/// literals are read back by the real interpreters (`ruby`, `nix-instantiate --eval`); PowerShell
/// is not installable on these machines (it ships through NuGet/Microsoft's feeds, which this
/// workplace cannot reach), so its literals are read by the grammar of a verbatim string from
/// about_Quoting_Rules and about_Parsing: a `'…'` string starts and ends at any of `'` and
/// U+2018–U+201B, two of them in a row stand for one, and nothing else is special.
@Suite("Language emitters", .timeLimit(.minutes(30)), .removesTemporaries)
struct LanguageEmitterTests {
    @Test("Ruby: every hostile value reads back unchanged through ruby")
    func ruby() throws {
        let values = EmitterRuns.values()
        var source = ["# frozen_string_literal: true", "require \"json\"", "values = ["]
        source += values.map { "  " + RubyEmitter.string($0) + "," }
        source += ["]", "STDOUT.write(JSON.generate(values, ascii_only: true))", ""]
        try withTemporaryDirectory { directory in
            let file = try directory.write("values.rb", source.joined(separator: "\n"))
            let result = try run("ruby", [file.path], in: directory.url)
            #expect(result.status == 0, "ruby: \(result.stderr)")
            #expect(!directory.exists("PWNED"))
            let back = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String])
            #expect(back.count == values.count)
            for (value, got) in zip(values, back) {
                #expect(sameScalars(got, value), "ruby read \(value.debugDescription) as \(got.debugDescription)")
            }
        }
    }

    @Test("Ruby: formula class names follow Homebrew's rule; anything else is refused, never pasted")
    func rubyClassNames() throws {
        let expected = [
            "foo-bar@2": "FooBarAT2", "velo-stream": "VeloStream", "python@3.12": "PythonAT312", "gtk+3": "Gtkx3",
            "lib_foo.bar": "LibFooBar", "charm-gum": "CharmGum", "x": "X", "7zip": nil, "FooBar": "Foobar",
        ]
        for (name, className) in expected {
            if let className {
                #expect(try RubyEmitter.className(formula: name) == className, "\(name)")
            } else {
                #expect(throws: EmitterError.self, "\(name)") { try RubyEmitter.className(formula: name) }
            }
        }
        var accepted: [String] = []
        for value in EmitterRuns.values() + ["x < Formula; system(\"touch PWNED\"); class Y", "a--b", "a@b", "@2"] {
            guard let name = try? RubyEmitter.className(formula: value) else { continue }
            accepted.append(name)
        }
        // Every derived name is a constant Ruby defines as a class.
        let source = accepted.map { "class \($0) < Object; end; puts \($0).name" }.joined(separator: "\n") + "\n"
        try withTemporaryDirectory { directory in
            let file = try directory.write("classes.rb", source)
            let result = try run("ruby", [file.path], in: directory.url)
            #expect(result.status == 0, "ruby: \(result.stderr)")
            #expect(result.stdout == accepted.map { $0 + "\n" }.joined())
            #expect(!directory.exists("PWNED"))
        }
    }

    @Test("Nix: every value without NUL reads back unchanged through nix-instantiate")
    func nix() throws {
        let all = EmitterRuns.values()
        let values = all.filter { !$0.unicodeScalars.contains("\0") }
        for value in all where value.unicodeScalars.contains("\0") {
            #expect(throws: EmitterError.self) { try NixEmitter.string(value) }
        }
        var source = ["{"]
        for (index, value) in values.enumerated() {
            source.append("  \(try NixEmitter.attributeName("k\(index)-" + value)) = \(try NixEmitter.string(value));")
        }
        source.append("}")
        try withTemporaryDirectory { directory in
            let file = try directory.write("values.nix", source.joined(separator: "\n") + "\n")
            let result = try run(
                "nix-instantiate", ["--eval", "--strict", "--json", file.path], in: directory.url,
                environment: ["NIX_STATE_DIR": directory.url.appendingPathComponent("state").path])
            #expect(result.status == 0, "nix-instantiate: \(result.stderr)")
            // A raw U+FEFF did not survive Foundation's JSON reading here; Python re-encodes
            // the answer as ASCII JSON so every code point arrives as an escape.
            let json = try directory.write("values.json", result.stdout)
            let ascii = try run(
                "python3",
                ["-c", "import json,sys; print(json.dumps(json.load(open(sys.argv[1], encoding='utf-8'))))", json.path])
            let back = try #require(
                try JSONSerialization.jsonObject(with: Data(ascii.stdout.utf8)) as? [String: String])
            #expect(back.count == values.count)
            for (index, value) in values.enumerated() {
                let got = back.first { sameScalars($0.key, "k\(index)-" + value) }?.value
                #expect(
                    got.map { sameScalars($0, value) } == true,
                    "nix read \(value.unicodeScalars.map { $0.value }) as \(String(describing: got?.unicodeScalars.map { $0.value }))"
                )
            }
        }
    }

    @Test("PowerShell: every value is one verbatim literal by the language's quoting grammar")
    func powerShell() throws {
        for value in EmitterRuns.values() {
            let refused = value.unicodeScalars.contains {
                ($0.value < 0x20 && !["\t", "\n", "\r"].contains($0)) || $0.value == 0x7F
            }
            guard !refused else {
                #expect(throws: EmitterError.self) { try PowerShellEmitter.quoted(value) }
                continue
            }
            let literal = try PowerShellEmitter.quoted(value)
            let (read, rest) = try #require(
                PowerShellGrammar.verbatimString(Substring(literal + "; x")), "\(value.debugDescription)")
            #expect(sameScalars(read, value), "\(value.debugDescription) read as \(read.debugDescription)")
            #expect(
                rest == "; x", "\(value.debugDescription): the literal ended early, leaving \(rest.debugDescription)")
            let comment = PowerShellEmitter.comment(value)
            #expect(!comment.unicodeScalars.contains { $0 == "\n" || $0 == "\r" || $0 == "\u{85}" || $0 == "\u{2028}" })
        }
        // The round-3 bug: a typographic quote ends the string unless doubled.
        #expect(try PowerShellEmitter.quoted("a\u{2019}b") == "'a\u{2019}\u{2019}b'")
        #expect(try PowerShellEmitter.environmentAssignment("X", "\u{2018}") == "$env:X = '\u{2018}\u{2018}'")
    }
}
