import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// `[winget]`: version, installer and default-locale manifests, validated against winget's own
/// published 1.6.0 schemas (Tests/Fixtures/winget) and committed to a branch of the fork.
@Suite(.serialized, .timeLimit(.minutes(30)), .removesTemporaries) struct WingetChannelCLITests {
    static let folder = "winget/manifests/a/Acme/Velostream/1.0.0"

    func schema(_ kind: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/winget/manifest.\(kind).1.6.0.json").path
    }

    @Test func manifestsValidateAgainstWingetsSchemasAndGoToABranchOfTheFork() throws {
        let fork = try TemporaryDirectory(prefix: "relctl-winget-fork")
        let seeded = try sh(
            """
            git init -q --bare -b master "$FORK" && git init -q -b master seed && cd seed && echo fork > README.md && \
            git add README.md && git -c user.name=t -c user.email=t@example.com commit -qm seed && git push -q "$FORK" master
            """, in: try TemporaryDirectory(prefix: "relctl-winget-seed").url,
            environment: ["FORK": fork.path, "GIT_CONFIG_GLOBAL": "/dev/null"])
        try #require(seeded.status == 0, "\(seeded)")
        let fixture = try ChannelFixture(
            channels: """

                [winget]
                identifier = "Acme.Velostream"
                repository = "\(fork.path)"
                description = "Streaming SQL: \\"fast\\" # not a comment"
                license = "Apache-2.0"

                """)
        try fixture.packageAndChecksum()
        var environment = ChannelFixture.environment
        environment["GIT_CONFIG_GLOBAL"] = "/dev/null"
        let written = try relctl(["channel", "winget", "--tag", "v1.0.0"], in: fixture.url, environment: environment)
        try #require(written.status == 0, "\(written)")
        let folder = fixture.dist.appendingPathComponent(Self.folder)
        for (file, kind) in [
            ("Acme.Velostream.yaml", "version"), ("Acme.Velostream.installer.yaml", "installer"),
            ("Acme.Velostream.locale.en-US.yaml", "defaultLocale"),
        ] {
            let checked = try run(
                "check-jsonschema", ["--schemafile", schema(kind), folder.appendingPathComponent(file).path])
            #expect(checked.status == 0, "\(file): \(checked)")
        }
        let installer = try String(
            contentsOf: folder.appendingPathComponent("Acme.Velostream.installer.yaml"), encoding: .utf8)
        // docs/channels.md (issue 57, item 11): every value is a double-quoted YAML string, the
        // installer's Architecture included.
        for file in ["Acme.Velostream.yaml", "Acme.Velostream.installer.yaml", "Acme.Velostream.locale.en-US.yaml"] {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.hasSuffix(":") {
                let value = try #require(line.firstRange(of: ": ").map { line[$0.upperBound...] }, "\(file): \(line)")
                #expect(value.hasPrefix("\"") && value.hasSuffix("\""), "\(file): \(line)")
            }
        }
        #expect(installer.contains("- Architecture: \"x64\"\n"), "\(installer)")
        let name = "velostream-v1.0.0-x86_64-pc-windows-msvc.zip"
        let sha256 = try #require(try fixture.sums()[name])
        #expect(installer.contains("InstallerSha256: \"\(sha256.uppercased())\"\n"), "\(installer)")
        #expect(
            installer.contains("NestedInstallerType: \"portable\"\n")
                && installer.contains("InstallerUrl: \"\(ChannelFixture.baseURL)\(name)\"\n"), "\(installer)")
        #expect(
            installer.contains("RelativeFilePath: \"velostream-v1.0.0-x86_64-pc-windows-msvc\\\\bin\\\\velo-sql.exe\""),
            "\(installer)")
        // The description is one YAML string, quotes and `#` included.
        let locale = try String(
            contentsOf: folder.appendingPathComponent("Acme.Velostream.locale.en-US.yaml"), encoding: .utf8)
        let parsed = try run(
            "python3",
            [
                "-c", "import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))['ShortDescription'])",
                folder.appendingPathComponent("Acme.Velostream.locale.en-US.yaml").path,
            ])
        #expect(parsed.stdout == "Streaming SQL: \"fast\" # not a comment\n", "\(parsed)\n\(locale)")

        let published = try relctl(
            ["channel", "winget", "--tag", "v1.0.0", "--publish"], in: fixture.url, environment: environment)
        #expect(published.status == 0, "\(published)")
        let branch = "Acme.Velostream-1.0.0"
        let listed = try run("git", ["-C", fork.path, "ls-tree", "-r", "--name-only", branch])
        #expect(
            listed.stdout.contains("manifests/a/Acme/Velostream/1.0.0/Acme.Velostream.installer.yaml")
                && listed.stdout.contains("README.md"), "\(listed)")
        #expect(
            try run("git", ["-C", fork.path, "rev-list", "--count", "master"]).stdout == "1\n", "master is left alone")
        let head = try run("git", ["-C", fork.path, "rev-parse", branch]).stdout
        let again = try relctl(
            ["channel", "winget", "--tag", "v1.0.0", "--publish"], in: fixture.url, environment: environment)
        #expect(again.status == 0 && again.stderr.contains("already has"), "\(again)")
        #expect(
            try run("git", ["-C", fork.path, "rev-parse", branch]).stdout == head, "a second publish committed again")
    }
}
