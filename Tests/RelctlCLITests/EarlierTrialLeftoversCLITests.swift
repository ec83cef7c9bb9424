import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Issue 26's leftovers from the earlier adversarial trial, each through the built binary: an
/// inherited descriptor past the open-file limit, a Latin-1 name in a SHA256SUMS written by
/// sha256sum, and an unclosed code fence in a BREAKING CHANGE note under a notes template.
@Suite(.timeLimit(.minutes(45)), .removesTemporaries) struct EarlierTrialLeftoversCLITests {
    @Test func aDescriptorInheritedPastTheOpenFileLimitDoesNotStopGit() throws {
        let repository = try GitRepository()
        try repository.commit("feat: say hello", files: ["VERSION": "1.0.0\n"])
        // The parent opens descriptor 300, then lowers the limit (soft and hard) below it.
        let notes = try run(
            "bash", ["-c", "exec 300</dev/null; ulimit -n 256; exec \"$RELCTL\" notes"], in: repository.url,
            environment: ["RELCTL": relctlBinary.path, "NO_COLOR": "1"])
        #expect(notes.status == 0, "\(notes)")
        #expect(notes.stdout.contains("say hello"), "\(notes)")
    }

    @Test func aLatin1NameInSHA256SUMSNamesTheLineAndWhatToDo() throws {
        try withTemporaryDirectory { directory in
            // sha256sum itself writes the list, the name as the file system's bytes (0xE9 for é).
            let made = try run(
                "bash",
                [
                    "-c",
                    "printf 'x' > \"$(printf 'caf\\351.txt')\" && printf 'y' > ok.txt && sha256sum ok.txt caf*.txt > SHA256SUMS",
                ],
                in: directory.url)
            try #require(made.status == 0, "\(made)")
            let verified = try relctl(["verify", "SHA256SUMS"], in: directory.url)
            #expect(verified.status == 2, "\(verified)")
            #expect(verified.stderr.contains("SHA256SUMS:2:"), "\(verified.stderr)")
            #expect(
                verified.stderr.contains("caf\\xE9.txt") && verified.stderr.contains("rename"), "\(verified.stderr)")
            #expect(!verified.stderr.contains("save it as UTF-8"), "\(verified.stderr)")
        }
    }

    /// Round 1's leftover: a 242-byte archive name failed late, after the build, when a file named
    /// after it (`.NAME.cdx.json.relctl-tmp-N`) passed 255 bytes. It is refused before anything is
    /// built, by `check` and by `package`, naming the limit; the longest name allowed packages
    /// end to end and `sha256sum -c` reads its checksum file.
    @Test func anArchiveNameTooLongForItsSiblingsIsRefusedBeforeTheBuild() throws {
        func project(padding: Int) throws -> GitRepository {
            let repository = try GitRepository()
            let pad = String(repeating: "a", count: padding)
            let config = """
                [project]
                name = "hello"
                [[version]]
                path = "VERSION"
                [build]
                command = "mkdir -p out && printf '#!/bin/sh\\necho hi\\n' > out/hello && chmod +x out/hello && touch built"
                binaries = ["hello"]
                binary-dir = "out"
                [[target]]
                triple = "x86_64-unknown-linux-gnu"
                [archive]
                name = "{project}-{tag}-{target}-\(pad)"

                """
            try repository.commit(
                "feat: hello",
                files: ["relctl.toml": config, "VERSION": "1.0.0\n", ".gitignore": "out/\ndist/\nbuilt\n"])
            return repository
        }
        // `hello-v1.0.0-x86_64-unknown-linux-gnu-` is 38 bytes, `.tar.gz` 7.
        let long = try project(padding: 197)
        let checked = try relctl(["check"], in: long.url)
        #expect(checked.status == 2, "\(checked)")
        #expect(checked.stderr.contains("242 bytes") && checked.stderr.contains("within 223 bytes"), "\(checked)")
        let released = try relctl(["release", "v1.0.0"], in: long.url)
        #expect(released.status == 2 && released.stderr.contains("242 bytes"), "\(released)")
        #expect(!long.directory.exists("built"), "refused before the build ran")
        #expect(try long.git("tag", "--list").isEmpty, "no tag")

        let longest = try project(padding: 223 - 45)
        let packaged = try relctl(["release", "v1.0.0"], in: longest.url)
        #expect(packaged.status == 0, "\(packaged)")
        let name = "hello-v1.0.0-x86_64-unknown-linux-gnu-" + String(repeating: "a", count: 178) + ".tar.gz"
        #expect(name.utf8.count == 223)
        let verified = try run("sha256sum", ["-c", name + ".sha256"], in: longest.url.appendingPathComponent("dist"))
        #expect(verified.status == 0 && verified.stdout.contains(": OK"), "\(verified)")
    }

    @Test func anUnclosedFenceInABreakingNoteDoesNotSwallowLaterSectionsOfATemplate() throws {
        let repository = try GitRepository()
        let template = """
            # {{title}}
            {{#sections}}

            ## {{title}}

            {{#entries}}
            - {{{summaryMarkdown}}}
            {{#migrationNote}}

            {{{migrationNote}}}
            {{/migrationNote}}
            {{/entries}}
            {{/sections}}

            """
        try repository.commit(
            "chore: start",
            files: [
                "VERSION": "1.0.0\n", "notes.mustache": template,
                "relctl.toml": "[notes]\ntemplate = \"notes.mustache\"\n",
            ])
        try repository.commit("feat!: new storage\n\nBREAKING CHANGE: migrate first:\n```sh\nvelostream migrate")
        try repository.commit("fix: keep the log short")
        let notes = try relctl(["notes"], in: repository.url)
        #expect(notes.status == 0, "\(notes)")
        let file = repository.url.appendingPathComponent("NOTES.md")
        try notes.stdout.write(to: file, atomically: true, encoding: .utf8)
        let html = try run("cmark", [file.path]).stdout
        // The sections after the note are headings, not lines of its code block.
        #expect(html.contains("<h2>Bug fixes</h2>") || html.contains("<h2>Bug Fixes</h2>"), "\(html)")
        #expect(html.contains("<li>keep the log short</li>"), "\(html)")
    }
}
