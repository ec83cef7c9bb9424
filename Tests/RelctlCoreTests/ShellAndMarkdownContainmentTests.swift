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

/// Values pasted into `sh -c` commands and commit bodies pasted into Markdown stay where they are put.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct ShellAndMarkdownContainmentTests {
    /// Runs `line` with sh and returns its stdout, so quoting is judged by a real shell.
    private func shell(_ line: String) throws -> String {
        try run("/bin/sh", ["-c", line]).stdout
    }

    @Test func everyValueIsOneLiteralWordWhereverItsPlaceholderStands() throws {
        let hostile = #"a'b"c $(echo INJECTED) `echo X` \ ; # ~ *"#
        let template = Template(#"printf '%s|' {project} "{project}" '{project}' pre-{project}-post"#)
        let output = try shell(template.renderForShell(["project": hostile]))
        #expect(output == "\(hostile)|\(hostile)|\(hostile)|pre-\(hostile)-post|")
    }

    @Test func safeValuesArePastedAsWrittenAndEmptyOnesVanish() {
        let template = Template("cargo build --target {target} -o out{exe} {version}")
        #expect(
            template.renderForShell(["target": "x86_64-unknown-linux-musl", "exe": "", "version": "1.2.3-rc.1+b.5"])
                == "cargo build --target x86_64-unknown-linux-musl -o out 1.2.3-rc.1+b.5")
    }

    @Test func anOpenFenceIsClosedAndAnEndlessHTMLBlockEscaped() {
        #expect(MarkdownEscaper.containBlock("run:\n```sh\nmigrate") == "run:\n```sh\nmigrate\n```")
        #expect(MarkdownEscaper.containBlock("~~~~\nx\n~~~") == "~~~~\nx\n~~~\n~~~~")
        #expect(MarkdownEscaper.containBlock("```\nclosed\n```\nafter") == "```\nclosed\n```\nafter")
        #expect(MarkdownEscaper.containBlock("<!-- gone") == "\\<!-- gone")
        #expect(MarkdownEscaper.containBlock("  <pre>\ncode") == "  \\<pre>\ncode")
        // Blocks that do end are left as written.
        #expect(MarkdownEscaper.containBlock("<!-- a\nb -->\ntext") == "<!-- a\nb -->\ntext")
        #expect(MarkdownEscaper.containBlock("<!-- one line -->") == "<!-- one line -->")
        // Inside a fence nothing is HTML.
        #expect(MarkdownEscaper.containBlock("```\n<!-- x\n```") == "```\n<!-- x\n```")
    }
}
