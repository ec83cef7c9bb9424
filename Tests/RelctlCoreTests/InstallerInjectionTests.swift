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

/// Hostile values in every placeholder of both installers stay data (issue 26, item 5). The sh
/// script is judged by real shells (dash and bash); PowerShell is not installed on these
/// machines, so the .ps1 is judged by its language's single-quoted-string rule (about_Quoting_Rules:
/// a `'…'` string ends at the first unpaired single quote, U+2018–U+201B counting as one).
@Suite("Installer injection", .timeLimit(.minutes(30)), .removesTemporaries)
struct InstallerInjectionTests {
    static let payloads = [
        "';touch PWNED;#@COMMENT_PROJECT@",
        "@PROJECT@';touch PWNED;'@TAG@",
        "$(touch PWNED)",
        "`touch PWNED`",
        "\"; touch PWNED; \"",
        "x\ntouch PWNED\n#",
        "x\r\ntouch PWNED",
        "a\u{2019}; New-Item PWNED; #\u{2018}",
        "@TABLE@\n@MINISIGN_KEY@",
        "\\'; touch PWNED; echo \\",
    ]
    static let places = ["project", "tag", "base", "key", "archive"]

    static func script(_ place: String, _ value: String) -> InstallerScript {
        let project = place == "project" ? value : "velo"
        let archive = place == "archive" ? value + ".tar.gz" : "velo-1.0.0-x86_64-unknown-linux-musl.tar.gz"
        let windows = place == "archive" ? value + ".zip" : "velo-1.0.0-x86_64-pc-windows-msvc.zip"
        var manifest = ReleaseManifest(
            project: project, tag: place == "tag" ? value : "v1.0.0", version: "1.0.0", commit: "abc")
        manifest.artifacts = [
            .init(name: archive, target: "x86_64-unknown-linux-musl", format: "tar.gz", size: 1, sha256: "00"),
            .init(name: windows, target: "x86_64-pc-windows-msvc", format: "zip", size: 1, sha256: "00"),
        ]
        return InstallerScript(
            manifest: manifest, baseURL: place == "base" ? value : "https://example.test/releases/",
            minisignPublicKey: place == "key" ? value : "RWQkey")
    }

    @Test("sh: no payload in any placeholder runs, and each value reads back whole", arguments: places)
    func shell(place: String) throws {
        try withTemporaryDirectory { directory in
            for value in Self.payloads {
                let installer = Self.script(place, value)
                try directory.write("installer.sh", try installer.shell())
                for shell in ["dash", "bash"] {
                    let help = try run(shell, ["installer.sh", "--help"], in: directory.url)
                    #expect(help.status == 0, "\(shell) \(place) \(value.debugDescription): \(help)")
                    #expect(!directory.exists("PWNED"), "\(shell) \(place) \(value.debugDescription) ran code")
                    #expect(
                        help.stdout.hasPrefix("Install \(installer.manifest.project) \(installer.manifest.tag).\n"),
                        "\(shell) \(place) \(value.debugDescription): \(help.stdout)")
                    // The assignments and the archive table, evaluated without installing anything.
                    let probe = try run(
                        shell,
                        [
                            "-c",
                            #"eval "$(awk '/^say\(\) \{/ { exit } /^APP=/ { p = 1 } p' installer.sh)"; eval "$(sed -n '/^archives_for()/,/^}/p' installer.sh)"; printf '%s\0' "$APP" "$TAG" "$DEFAULT_BASE_URL" "$MINISIGN_PUBLIC_KEY" "$(archives_for linux-x86_64)""#,
                        ], in: directory.url)
                    #expect(!directory.exists("PWNED"), "\(shell) \(place) \(value.debugDescription) ran code")
                    #expect(
                        probe.stdout.split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(
                            String.init)
                            == [
                                installer.manifest.project, installer.manifest.tag, installer.baseURL ?? "",
                                installer.minisignPublicKey ?? "", installer.manifest.artifacts[0].name,
                            ], "\(shell) \(place) \(value.debugDescription): \(probe)")
                }
            }
        }
    }

    @Test("PowerShell: each value is one single-quoted literal that ends its line", arguments: places)
    func powerShell(place: String) throws {
        for value in Self.payloads {
            let installer = Self.script(place, value)
            let text = try installer.powerShell()
            let expected: [(prefix: String, value: String)] = [
                ("$App = ", installer.manifest.project), ("$Tag = ", installer.manifest.tag),
                ("$DefaultBaseUrl = ", installer.baseURL ?? ""),
                ("$MinisignPublicKey = ", installer.minisignPublicKey ?? ""),
                ("    @{ Arch = 'AMD64'; Name = ", installer.manifest.artifacts[1].name),
            ]
            for (prefix, wanted) in expected {
                let start = try #require(text.range(of: "\n" + prefix)?.upperBound, "\(prefix) in \(place)")
                let (literal, rest) = try #require(Self.powerShellLiteral(text[start...]), "\(prefix) \(place)")
                #expect(literal == wanted, "\(prefix) \(place) \(value.debugDescription)")
                let line = rest.prefix { $0 != "\n" && $0 != "\r" }
                #expect(
                    line == (prefix.hasPrefix("    @{") ? " }" : ""), "\(prefix) \(place) \(value.debugDescription)")
            }
            // Comment lines hold no line break of any kind: every header line starts with `#`.
            let header = text.components(separatedBy: "param(")[0]
            for line in header.split(omittingEmptySubsequences: true, whereSeparator: { $0.isNewline }) {
                #expect(line.hasPrefix("#"), "\(place) \(value.debugDescription): \(line)")
            }
        }
    }

    /// Reads a PowerShell verbatim (single-quoted) string at the start of `text`: quote characters
    /// are `'` and U+2018–U+201B; two in a row stand for one. Returns the value and what follows.
    static func powerShellLiteral(_ text: Substring) -> (String, Substring)? {
        let quotes: Set<Character> = ["'", "\u{2018}", "\u{2019}", "\u{201A}", "\u{201B}"]
        var scalars = text.unicodeScalars[...]
        guard let first = scalars.first, quotes.contains(Character(first)) else { return nil }
        scalars = scalars.dropFirst()
        var value = String.UnicodeScalarView()
        while let scalar = scalars.first {
            scalars = scalars.dropFirst()
            if quotes.contains(Character(scalar)) {
                if let next = scalars.first, quotes.contains(Character(next)) {
                    value.append(scalar)
                    scalars = scalars.dropFirst()
                    continue
                }
                return (String(value), Substring(scalars))
            }
            value.append(scalar)
        }
        return nil
    }
}
