import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlBasics

/// Issue 57, item 10: `relctl completions bash|zsh|fish` and `relctl manual` write the shell
/// completions and the manual page from the command tree; each shell loads its script, groff and
/// mandoc read the page without a warning, and relctl's own release ships them (archives, deb, rpm).
@Suite(.timeLimit(.minutes(45)), .removesTemporaries) struct ShellFilesCLITests {
    static let root = DogfoodCLITests.repositoryRoot
    static let shipped = [
        ("bash", "share/completions/relctl.bash"), ("zsh", "share/completions/_relctl"),
        ("fish", "share/completions/relctl.fish"),
    ]

    static func file(_ path: String) -> String { root.appendingPathComponent(path).path }

    /// The committed copies are what the binary writes (scripts/generate-shell-files rewrites them).
    @Test func committedCopiesAreCurrent() throws {
        for (shell, path) in Self.shipped {
            let written = try relctl(["completions", shell], in: Self.root)
            #expect(written.status == 0, "\(written)")
            #expect(
                written.stdout == (try String(contentsOfFile: Self.file(path), encoding: .utf8)),
                "\(path) is stale: run scripts/generate-shell-files")
        }
        let committed = try String(contentsOfFile: Self.file("share/man/relctl.1"), encoding: .utf8)
        let date = try #require(committed.firstMatch(of: /^\.TH "RELCTL" 1 "([0-9-]+)"/)?.output.1)
        let page = try relctl(["manual", "--date", String(date)], in: Self.root)
        #expect(page.status == 0, "\(page)")
        #expect(page.stdout == committed, "share/man/relctl.1 is stale: run scripts/generate-shell-files")
    }

    @Test func bashCompletesCommandsAndValues() throws {
        try withTemporaryDirectory { dir in
            let script = try relctl(["completions", "bash"], in: dir.url)
            #expect(script.status == 0, "\(script)")
            _ = try dir.write("relctl.bash", script.stdout)
            let probe = """
                source ./relctl.bash
                complete -p relctl
                COMP_WORDS=(relctl rel); COMP_CWORD=1; COMP_LINE='relctl rel'; COMP_POINT=${#COMP_LINE}
                _relctl relctl rel relctl; echo "commands: ${COMPREPLY[*]}"
                COMPREPLY=(); COMP_WORDS=(relctl completions ''); COMP_CWORD=2; COMP_LINE='relctl completions '; COMP_POINT=${#COMP_LINE}
                _relctl relctl '' completions; echo "shells: ${COMPREPLY[*]}"
                COMPREPLY=(); COMP_WORDS=(relctl matrix --format ''); COMP_CWORD=3; COMP_LINE='relctl matrix --format '; COMP_POINT=${#COMP_LINE}
                _relctl relctl '' --format; echo "formats: ${COMPREPLY[*]}"
                """
            let result = try run("bash", ["--noprofile", "--norc", "-c", probe], in: dir.url)
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
            #expect(result.stdout.contains("complete -o filenames -F _relctl relctl"), "\(result)")
            #expect(result.stdout.contains("commands: release release-pr"), "\(result)")
            #expect(result.stdout.contains("shells: bash zsh fish"), "\(result)")
            #expect(result.stdout.contains("formats: table json github"), "\(result)")
        }
    }

    @Test func zshLoadsTheFunction() throws {
        try withTemporaryDirectory { dir in
            let script = try relctl(["completions", "zsh"], in: dir.url)
            #expect(script.status == 0, "\(script)")
            #expect(script.stdout.hasPrefix("#compdef relctl"), "\(script.stdout.prefix(200))")
            _ = try dir.write("functions/_relctl", script.stdout)
            let probe = """
                fpath=(\(dir.url.appendingPathComponent("functions").path) $fpath)
                autoload -Uz compinit && compinit -u -d \(dir.url.appendingPathComponent("zcompdump").path)
                print -r -- "relctl: ${_comps[relctl]}"
                autoload -Uz +X _relctl && print -r -- "loaded: ${+functions[_relctl]}"
                """
            let result = try run("zsh", ["-f", "-c", probe], in: dir.url)
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
            #expect(result.stdout.contains("relctl: _relctl"), "\(result)")
            #expect(result.stdout.contains("loaded: 1"), "\(result)")
        }
    }

    @Test func fishCompletesCommandsAndValues() throws {
        try withTemporaryDirectory { dir in
            let script = try relctl(["completions", "fish"], in: dir.url)
            #expect(script.status == 0, "\(script)")
            _ = try dir.write("relctl.fish", script.stdout)
            let result = try run(
                "fish",
                ["--no-config", "-c", "source ./relctl.fish; complete -C 'relctl comp'; complete -C 'relctl completions '"],
                in: dir.url, environment: ["HOME": dir.path, "XDG_CONFIG_HOME": dir.path, "XDG_DATA_HOME": dir.path])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("completions\tPrint the shell completion script"), "\(result)")
            for shell in ["bash", "zsh", "fish"] {
                #expect(result.stdout.split(separator: "\n").contains { $0.hasPrefix(shell) }, "\(result)")
            }
        }
    }

    @Test func theManualPageRendersWithoutWarnings() throws {
        try withTemporaryDirectory { dir in
            let page = try relctl(["manual", "--date", "2026-11-25"], in: dir.url)
            #expect(page.status == 0, "\(page)")
            let file = try dir.write("relctl.1", page.stdout)
            let groff = try run(
                "groff", ["-man", "-Tutf8", "-ww", "-z", file.path], environment: ["LC_ALL": "C"])
            #expect(groff.status == 0 && groff.stderr.isEmpty, "\(groff)")
            let lint = try run("mandoc", ["-Tlint", "-W", "style", file.path])
            #expect(lint.status == 0 && lint.stdout.isEmpty && lint.stderr.isEmpty, "\(lint)")
            let shown = try run("man", ["-l", file.path], environment: ["MANWIDTH": "100", "LC_ALL": "C.UTF-8"])
            #expect(shown.status == 0 && shown.stderr.isEmpty, "\(shown)")
            // Every command is there under its full path, with its options.
            let help = try relctl(["--help"], in: dir.url)
            for command in ["release", "release-pr", "linux-package", "ci generate", "completions", "manual"] {
                #expect(shown.stdout.contains("   relctl \(command)\n"), "no section for relctl \(command)")
            }
            #expect(help.stdout.contains("completions"), "\(help)")
            // A command that writes its own usage (linux-package: --tag is required unless
            // --export-key) shows those lines, as its --help does, not a generic one.
            for line in [
                "       relctl linux-package --tag <tag> [--target <triple|glob> ...] [--format <id> ...]",
                "       relctl linux-package --export-key <file> [<global options>]\n",
            ] {
                #expect(shown.stdout.contains(line), "\(line): \(shown.stdout)")
            }
            #expect(!shown.stdout.contains("relctl linux-package [<options>]"))
            #expect(shown.stdout.contains("--dry-run"), "\(shown.stdout.prefix(400))")
            #expect(shown.stdout.contains("EXIT STATUS"))
            #expect(page.stdout.hasPrefix(".TH \"RELCTL\" 1 \"2026-11-25\" \"relctl\""), "\(page.stdout.prefix(200))")
            // The same binary writes the same bytes; SOURCE_DATE_EPOCH gives the day.
            let dated = try relctl(["manual"], in: dir.url, environment: ["SOURCE_DATE_EPOCH": "1795564800"])
            #expect(dated.stdout == page.stdout)
            let badDay = try relctl(["manual", "--date", "25.11.2026"], in: dir.url)
            #expect(badDay.status == 64 && badDay.stderr.contains("--date 25.11.2026"), "\(badDay)")
        }
    }

    /// roff escapes: a backslash, a line that would start a request, `-` in option names, and
    /// characters beyond ASCII.
    @Test func manualTextIsEscapedForRoff() {
        let page = ManualPageEmitter.Page(
            name: "tool", version: "", date: "2026-01-02",
            root: .init(path: "tool", abstract: "Do it.", discussion: "", usage: "tool <command>", options: []),
            commands: [
                .init(
                    path: "tool run", abstract: "Run.", discussion: ".hidden start\n'quote start C:\\dir — ok",
                    usage: "tool run [<options>]",
                    options: [.init(synopsis: "--dry-run", text: "Nothing written.")])
            ],
            sections: [])
        let text = ManualPageEmitter.render(page)
        #expect(text.contains("\n\\&.hidden start 'quote start C:\\edir \\[u2014] ok\n"), "\(text)")
        #expect(text.contains("\n\\fB\\-\\-dry\\-run\\fR\n"), "\(text)")
        #expect(!text.contains("\n.PP\n.PP"), "\(text)")
    }

    /// relctl's own relctl.toml ships them: its archive under completions/ and man/, its deb and
    /// rpm where each distribution's shells and man look.
    @Test func relctlsOwnReleaseShipsThem() throws {
        let repo = try GitRepository()
        for path in [
            "relctl.toml", "README.md", "LICENSE", "Sources/RelctlBasics/Support/RelctlVersion.swift",
            "share/completions/relctl.bash", "share/completions/_relctl", "share/completions/relctl.fish",
            "share/man/relctl.1",
        ] {
            _ = try repo.directory.write(path, try String(contentsOfFile: Self.file(path), encoding: .utf8))
        }
        try repo.commit("relctl")
        let version = try #require(
            try repo.directory.read("Sources/RelctlBasics/Support/RelctlVersion.swift")
                .firstMatch(of: /version = "([^"]+)"/)?.output.1)
        let tag = "v\(version)"
        // A real x86-64 ELF stands in for relctl (the header check reads it).
        let binaries = repo.url.appendingPathComponent("prebuilt")
        try FileManager.default.createDirectory(at: binaries, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try Tool.path("true"), toPath: binaries.appendingPathComponent("relctl").path)
        let target = "x86_64-unknown-linux-gnu"
        let packaged = try relctl(
            ["package", "--tag", tag, "--target", target, "--artifacts", binaries.path], in: repo.url)
        #expect(packaged.status == 0, "\(packaged)")
        let archive = "dist/relctl-\(tag)-\(target).tar.gz"
        let listing = try run("tar", ["-tzf", archive], in: repo.url)
        for inside in ["completions/relctl.bash", "completions/_relctl", "completions/relctl.fish", "man/relctl.1"] {
            #expect(listing.stdout.contains("relctl-\(tag)-\(target)/\(inside)\n"), "\(listing)")
        }
        let packages = try relctl(
            ["linux-package", "--tag", tag, "--target", target, "--artifacts", binaries.path], in: repo.url)
        #expect(packages.status == 0, "\(packages)")
        let deb = try run("dpkg-deb", ["-c", "dist/relctl_\(version)_amd64.deb"], in: repo.url)
        for path in [
            "./usr/share/bash-completion/completions/relctl", "./usr/share/zsh/vendor-completions/_relctl",
            "./usr/share/fish/vendor_completions.d/relctl.fish", "./usr/share/man/man1/relctl.1.gz",
        ] {
            #expect(deb.stdout.contains(" \(path)\n"), "\(deb)")
        }
        let rpmFile = try #require(
            try FileManager.default.contentsOfDirectory(atPath: repo.url.appendingPathComponent("dist").path)
                .first { $0.hasSuffix(".rpm") })
        let rpm = try run("rpm", ["-qlp", "dist/" + rpmFile], in: repo.url)
        for path in [
            "/usr/share/bash-completion/completions/relctl", "/usr/share/zsh/site-functions/_relctl",
            "/usr/share/fish/vendor_completions.d/relctl.fish", "/usr/share/man/man1/relctl.1.gz",
        ] {
            #expect(rpm.stdout.split(separator: "\n").contains(Substring(path)), "\(rpm)")
        }
        // Its Homebrew formula installs them from the archive too.
        let summed = try relctl(["checksum"], in: repo.url)
        #expect(summed.status == 0, "\(summed)")
        let channel = try relctl(["channel", "homebrew", "--tag", tag], in: repo.url)
        #expect(channel.status == 0, "\(channel)")
        let formula = try String(
            contentsOf: repo.url.appendingPathComponent("dist/homebrew/Formula/relctl.rb"), encoding: .utf8)
        for line in [
            "    bash_completion.install \"completions/relctl.bash\" => \"relctl\"\n",
            "    zsh_completion.install \"completions/_relctl\"\n",
            "    fish_completion.install \"completions/relctl.fish\"\n", "    man1.install \"man/relctl.1\"\n",
        ] {
            #expect(formula.contains(line), "\(line): \(formula)")
        }
    }
}
