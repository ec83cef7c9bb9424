import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlBasics

/// ShellEmitter against real shells (issue 39): every hostile value is assigned in a script that
/// dash (POSIX sh) and bash run, and printed back NUL-separated; shellcheck reads the script.
/// A value holding NUL is refused (a shell word cannot carry it). `RELCTL_EMITTER_SEED` and
/// `RELCTL_EMITTER_COUNT` replay or lengthen a run (scripts/fuzz).
@Suite("Shell emitter", .timeLimit(.minutes(30)), .removesTemporaries)
struct ShellEmitterTests {
    @Test("every value without NUL reads back unchanged in dash and bash, and shellcheck passes the script")
    func roundTrip() throws {
        let all = EmitterRuns.values()
        let values = all.filter { !$0.unicodeScalars.contains("\0") }
        #expect(values.count > 300)
        for value in all where value.unicodeScalars.contains("\0") {
            #expect(throws: EmitterError.self) { try ShellEmitter.quoted(value) }
        }
        var lines = ["#!/bin/sh", "# \(ShellEmitter.comment(values.joined()))"]
        for (index, value) in values.enumerated() {
            // Half as plain words where they may be, half as assignments: both forms are used.
            lines.append(
                index % 2 == 0
                    ? "v\(index)=" + (try ShellEmitter.word(value))
                    : try ShellEmitter.assignment("v\(index)", value))
        }
        lines.append("printf '%s\\0' " + values.indices.map { "\"$v\($0)\"" }.joined(separator: " "))
        lines.append("printf '%s\\0' " + (try values.map { try ShellEmitter.word($0) }.joined(separator: " ")))
        try withTemporaryDirectory { directory in
            let script = try directory.write("emitted.sh", lines.joined(separator: "\n") + "\n")
            for shell in ["dash", "bash"] {
                let result = try run(shell, [script.path], in: directory.url, environment: ["LC_ALL": "C.UTF-8"])
                #expect(result.status == 0, "\(shell): \(result.stderr)")
                #expect(!directory.exists("PWNED"), "\(shell) ran a payload")
                let back = result.stdout.split(separator: "\0", omittingEmptySubsequences: false).dropLast()
                    .map(String.init)
                #expect(back.count == 2 * values.count, "\(shell): \(back.count) fields")
                for (index, got) in back.enumerated() where index < 2 * values.count {
                    let value = values[index % values.count]
                    #expect(
                        sameScalars(got, value),
                        "\(shell): \(value.debugDescription) came back as \(got.debugDescription)")
                }
            }
            // SC1112 warns that a typographic quote inside quotes may be a typing slip; here it is
            // the data under test, and the shells above read it back whole.
            let check = try run(
                "shellcheck", ["--shell=sh", "--severity=warning", "--exclude=SC1112", script.path])
            #expect(check.status == 0, "shellcheck: \(check.stdout)")
        }
    }

    @Test("names are checked; comments lose every line break")
    func namesAndComments() throws {
        #expect(throws: EmitterError.self) { try ShellEmitter.assignment("A;touch PWNED", "x") }
        #expect(throws: EmitterError.self) { try ShellEmitter.assignment("1A", "x") }
        #expect(try ShellEmitter.export("RELCTL_X", "it's") == #"export RELCTL_X='it'\''s'"#)
        #expect(ShellEmitter.comment("a\nrm -rf /\r\u{85}b") == "arm -rf /\u{85}b")
        #expect(try ShellEmitter.word("--target") == "'--target'")
        #expect(try ShellEmitter.word("x86_64-unknown-linux-gnu") == "x86_64-unknown-linux-gnu")
    }
}
