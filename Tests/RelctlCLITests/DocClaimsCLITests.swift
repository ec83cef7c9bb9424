import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Claims of the docs that did not hold (issue 46), each tried the way a user would.
@Suite(.serialized, .timeLimit(.minutes(45)), .removesTemporaries)
struct DocClaimsCLITests {
    /// releasing.md: `after` hooks see the release's files through RELCTL_DIST.
    @Test func afterHooksSeeTheReleasesFilesInRelctlDist() throws {
        let seen = try TemporaryDirectory(prefix: "relctl-hook-saw")
        let listing = seen.url.appendingPathComponent("dist.txt").path
        let fixture = try ReleaseFixture(release: "after = ['ls \"$RELCTL_DIST\" > \(listing)']")
        let result = try relctl(["release", "v1.0.0"], in: fixture.url)
        #expect(result.status == 0, "\(result)")
        let listed = try String(contentsOfFile: listing, encoding: .utf8)
        #expect(
            listed.contains("SHA256SUMS") && listed.contains("demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz"), "\(listed)"
        )
    }

    /// Every built-in channel is named where a user looks for it: `relctl channel --help`, the
    /// README's command row and docs/channels.md. The list comes from the binary itself (an unknown
    /// channel's error names the known ones), so a channel added without its docs fails here; aur and
    /// winget were missing from all three.
    @Test func everyBuiltInChannelIsNamedInTheHelpAndTheDocs() throws {
        let repo = try GitRepository()
        try repo.commit(
            "chore: start",
            files: [
                "relctl.toml": "[project]\nname = \"tiny\"\n\n[[version]]\npath = \"VERSION\"\n", "VERSION": "1.0.0\n",
            ])
        let unknown = try relctl(["channel", "no-such-channel", "--tag", "v1.0.0"], in: repo.url)
        #expect(unknown.status == 2, "\(unknown)")
        let listed = try #require(unknown.stderr.range(of: "known channels: "), "\(unknown)")
        let known = unknown.stderr[listed.upperBound...].prefix { $0 != "(" && $0 != "\n" }
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        #expect(Set(["chart", "nix", "homebrew", "scoop", "aur", "winget"]).isSubset(of: known), "\(known)")
        let help = try relctl(["channel", "--help"], in: repo.url)
        #expect(help.status == 0, "\(help)")
        let root = RunnableDocsTests.root
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let row = readme.split(separator: "\n").first { $0.hasPrefix("| `relctl channel ") }.map(String.init) ?? ""
        let page = try String(contentsOf: root.appendingPathComponent("docs/channels.md"), encoding: .utf8)
        for id in known {
            #expect(help.stdout.contains(id), "relctl channel --help names \(id)")
            #expect(row.contains("`\(id)`"), "the README's channel row names `\(id)`: \(row)")
            #expect(page.localizedCaseInsensitiveContains(id), "docs/channels.md names \(id)")
        }
    }

    /// A minified (one-line) package-lock.json gets both its versions written.
    @Test func bumpWritesBothVersionsOfAMinifiedPackageLock() throws {
        let repo = try GitRepository()
        try repo.directory.write("package.json", #"{"name":"tiny","version":"1.0.0","dependencies":{"a":"^1.0.0"}}"#)
        try repo.directory.write(
            "package-lock.json",
            #"{"name":"tiny","version":"1.0.0","lockfileVersion":3,"requires":true,"packages":{"":{"name":"tiny","version":"1.0.0","dependencies":{"a":"^1.0.0"}},"node_modules/a":{"version":"1.0.0"}}}"#
        )
        try repo.directory.write("relctl.toml", "[project]\nname = \"tiny\"\n\n[[version]]\npath = \"package.json\"\n")
        try repo.commit("chore: start")
        let bump = try relctl(["bump", "--set", "1.1.0", "--write"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        let lock = try JSONSerialization.jsonObject(with: Data(try repo.directory.read("package-lock.json").utf8))
        let object = try #require(lock as? [String: Any])
        let root = try #require((object["packages"] as? [String: Any])?[""] as? [String: Any])
        #expect(object["version"] as? String == "1.1.0")
        #expect(root["version"] as? String == "1.1.0", "packages[\"\"].version follows")
        let dependency = try #require((object["packages"] as? [String: Any])?["node_modules/a"] as? [String: Any])
        #expect(dependency["version"] as? String == "1.0.0", "a dependency's version is not the project's")
        let valid = try relctl(["validate-tag", "v1.1.0"], in: repo.url)
        #expect(valid.status == 0, "\(valid)")
    }

    /// `package --artifacts DIR` never puts one binary into several targets' archives.
    @Test func aFlatArtifactsFolderIsRefusedForSeveralTargets() throws {
        let fixture = try PackagingFixture()
        let flat = try TemporaryDirectory(prefix: "relctl-flat")
        for binary in PackagingFixture.binaries { try flat.write(binary, "#!/bin/sh\necho flat\n", executable: true) }
        let env = ["SOURCE_DATE_EPOCH": "1700000000"]
        let refused = try relctl(
            ["package", "--tag", "v1.0.0", "--target", "*-linux-gnu", "--artifacts", flat.path], in: fixture.url,
            environment: env)
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderr.contains("velo-sql") && refused.stderr.contains("--target"), "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: fixture.dist.path), "nothing written")
        // One target from the flat folder, or per-target subfolders, both work.
        let one = try relctl(
            ["package", "--tag", "v1.0.0", "--target", PackagingFixture.linuxGNU, "--artifacts", flat.path],
            in: fixture.url, environment: env)
        #expect(one.status == 0, "\(one)")
        let nested = try TemporaryDirectory(prefix: "relctl-nested")
        for triple in [PackagingFixture.linuxGNU, PackagingFixture.linuxARM] {
            for binary in PackagingFixture.binaries {
                try nested.write("target/\(triple)/release/\(binary)", "#!/bin/sh\necho \(triple)\n", executable: true)
            }
        }
        let both = try relctl(
            ["package", "--tag", "v1.0.0", "--target", "*-linux-gnu", "--artifacts", nested.path, "--out", "out"],
            in: fixture.url, environment: env)
        #expect(both.status == 0, "\(both)")
        // Per-target folders named after the triples, as CI jobs hand binaries over, work too.
        let perTarget = try TemporaryDirectory(prefix: "relctl-per-target")
        for triple in [PackagingFixture.linuxGNU, PackagingFixture.linuxARM] {
            for binary in PackagingFixture.binaries {
                try perTarget.write("\(triple)/\(binary)", "#!/bin/sh\necho per \(triple)\n", executable: true)
            }
        }
        let handedOver = try relctl(
            ["package", "--tag", "v1.0.0", "--target", "*-linux-gnu", "--artifacts", perTarget.path, "--out", "out2"],
            in: fixture.url, environment: env)
        #expect(handedOver.status == 0, "\(handedOver)")
        let name = fixture.archiveName(PackagingFixture.linuxARM)
        let handed = try run("tar", ["-xOJf", "out2/\(name).tar.xz", "\(name)/bin/velo-sql"], in: fixture.url)
        #expect(handed.stdout.contains("per \(PackagingFixture.linuxARM)"), "\(handed)")
        let content = try run("tar", ["-xOJf", "out/\(name).tar.xz", "\(name)/bin/velo-sql"], in: fixture.url)
        #expect(content.stdout.contains(PackagingFixture.linuxARM), "\(content)")
    }

    /// A calendar `bump --write` says the text it wrote (2026.09.03), not another spelling.
    @Test func calendarBumpSaysWhatItWrites() throws {
        let repo = try GitRepository()
        try repo.directory.write("app/__init__.py", "__version__ = \"2026.07.22\"\n")
        try repo.directory.write(
            "relctl.toml",
            "[project]\nname = \"app\"\ntag-format = \"{version}\"\nversion-scheme = \"calver\"\n\n[[version]]\npath = \"app/__init__.py\"\nkind = \"python\"\n"
        )
        try repo.commit("chore: start", date: "2026-07-22T10:00:00Z")
        for tag in ["2026.01.04", "2026.07.22"] { try repo.git("tag", tag) }
        try repo.commit("fix: later", date: "2026-09-03T10:00:00Z")
        let bump = try relctl(["bump", "--write"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try repo.directory.read("app/__init__.py").contains("\"2026.09.03\""))
        #expect(bump.stderr.contains("2026.07.22 → 2026.09.03"), "\(bump)")
        // Issue 57: printed as written and tagged, never 2026.9.3.
        #expect(bump.stdout == "2026.09.03\n", "\(bump)")
        #expect(!bump.stdout.contains("2026.9.3") && !bump.stderr.contains("2026.9.3"), "\(bump)")
        #expect(!bump.stderr.contains("set to 2026.9.3"), "\(bump)")
        // Nothing left to write is said as such.
        let again = try relctl(["bump", "--set", "2026.9.3", "--write"], in: repo.url)
        #expect(again.status == 0 && again.stderr.contains("nothing written"), "\(again)")
    }

    /// `bump --write` names the requirement it set, not "version set to".
    @Test func bumpNamesTheRequirementItSets() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "Cargo.toml",
            """
            [workspace]
            members = ["crates/*"]

            [workspace.package]
            version = "0.4.33"

            [workspace.dependencies]
            velo-core = { path = "crates/velo-core", version = "0.4.33" }

            """)
        try repo.directory.write(
            "crates/velo-core/Cargo.toml", "[package]\nname = \"velo-core\"\nversion.workspace = true\n")
        try repo.directory.write("relctl.toml", "[project]\nname = \"velo\"\n\n[[version]]\npath = \"Cargo.toml\"\n")
        try repo.commit("chore: start")
        let bump = try relctl(["bump", "--set", "0.4.34", "--write"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(bump.stderr.contains("requirement on `velo-core` 0.4.33 → 0.4.34"), "\(bump)")
        #expect(bump.stderr.contains("Cargo.toml:5: version 0.4.33 → 0.4.34"), "\(bump)")
        #expect(!bump.stderr.contains("version set to"), "\(bump)")
    }

    /// `check` and `package` report every bad link, and a bad compression-level hides nothing.
    @Test func everyBadLinkAndEveryProblemAtOnce() throws {
        let fixture = try PackagingFixture()
        let demo = fixture.url.appendingPathComponent("demo").path
        try FileManager.default.createSymbolicLink(atPath: demo + "/absolute", withDestinationPath: "/etc/hostname")
        try FileManager.default.createSymbolicLink(atPath: demo + "/escaping", withDestinationPath: "../../../outside")
        try FileManager.default.createSymbolicLink(atPath: demo + "/dangling", withDestinationPath: "no-such-file")
        let check = try relctl(["check"], in: fixture.url)
        #expect(check.status != 0, "\(check)")
        for name in ["demo/absolute", "demo/escaping", "demo/dangling"] {
            #expect(check.stderr.contains(name), "check names \(name): \(check.stderr)")
        }
        let package = try relctl(
            ["package", "--tag", "v1.0.0", "--target", PackagingFixture.linuxGNU], in: fixture.url,
            environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        #expect(package.status == 2, "\(package)")
        for name in ["demo/absolute", "demo/escaping", "demo/dangling"] {
            #expect(package.stderr.contains(name), "package names \(name): \(package.stderr)")
        }

        let other = try PackagingFixture()
        try FileManager.default.removeItem(at: other.url.appendingPathComponent("README.md"))
        let config = try other.directory.read("relctl.toml")
        try other.directory.write(
            "relctl.toml", config.replacingOccurrences(of: "[archive]\n", with: "[archive]\ncompression-level = 25\n"))
        let both = try relctl(["check"], in: other.url)
        #expect(both.status == 2, "\(both)")
        #expect(both.stderr.contains("compression-level") && both.stderr.contains("README.md"), "\(both)")
        let packaged = try relctl(
            ["package", "--tag", "v1.0.0", "--target", PackagingFixture.linuxGNU], in: other.url,
            environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        #expect(packaged.status == 2, "\(packaged)")
        #expect(packaged.stderr.contains("compression-level") && packaged.stderr.contains("README.md"), "\(packaged)")
    }

    /// Noise: a real release does not reprint the notes its dry run showed, and nothing a terminal
    /// would redraw reaches a log.
    @Test func aRealReleaseSaysWhereTheNotesAreInsteadOfReprintingThem() throws {
        let fixture = try ReleaseFixture()
        let dry = try relctl(["release", "v1.0.0", "--dry-run"], in: fixture.url)
        #expect(dry.status == 0 && dry.stderr.contains("    | ### Features"), "\(dry)")
        let real = try relctl(["release", "v1.0.0"], in: fixture.url)
        #expect(real.status == 0, "\(real)")
        #expect(!real.stderr.contains("    | ### Features"), "\(real)")
        #expect(real.stderr.contains("  notes     RELEASE_NOTES.md in "), "\(real)")
        for result in [dry, real] {
            #expect(!result.stderr.contains("\r") && !result.stderr.contains("\u{1B}["), "no redraws in a log")
        }
    }

    /// Noise: a changelog run that changes nothing says so instead of "updated".
    @Test func aChangelogRunThatChangesNothingSaysSo() throws {
        let fixture = try ReleaseFixture()
        let first = try relctl(["notes", "--tag", "v1.0.0", "--changelog", "CHANGELOG.md"], in: fixture.url)
        #expect(first.status == 0 && first.stderr.contains("updated CHANGELOG.md"), "\(first)")
        let second = try relctl(["notes", "--tag", "v1.0.0", "--changelog", "CHANGELOG.md"], in: fixture.url)
        #expect(second.status == 0, "\(second)")
        #expect(!second.stderr.contains("updated CHANGELOG.md"), "\(second)")
        #expect(second.stderr.contains("CHANGELOG.md already holds these notes; unchanged"), "\(second)")
    }

    /// `linux-package --artifacts DIR` keeps the same promise as `package`: no binary in two
    /// architectures' packages.
    @Test func aFlatArtifactsFolderIsRefusedForSeveralLinuxPackages() throws {
        let project = try RunnableDocsTests.fixture(for: "runnable example=velostream")
        defer { project.remove() }
        for binary in ["velo-sql", "velo-cli", "velo-1brc"] {
            try project.write("flat/\(binary)", "#!/bin/sh\necho flat\n", executable: true)
        }
        let refused = try relctl(
            ["linux-package", "--tag", "v1.0.0", "--format", "deb", "--artifacts", "flat"], in: project.url)
        #expect(refused.status == 2 && refused.stderr.contains("--artifacts would put"), "\(refused)")
        #expect(!project.exists("dist/velostream_1.0.0_amd64.deb"), "nothing written")
        let one = try relctl(
            [
                "linux-package", "--tag", "v1.0.0", "--format", "deb", "--artifacts", "flat", "--target",
                "x86_64-unknown-linux-musl",
            ], in: project.url)
        #expect(one.status == 0 && project.exists("dist/velostream_1.0.0_amd64.deb"), "\(one)")
    }

    /// `image --artifacts DIR` keeps the same promise: no binary in two platforms' images.
    @Test func aFlatArtifactsFolderIsRefusedForSeveralImagePlatforms() throws {
        let fixture = try ImageFixture(repository: "ghcr.io/acme/velostream")
        try FileManager.default.createDirectory(
            at: fixture.url.appendingPathComponent("flat"), withIntermediateDirectories: true)
        for binary in ["velo-sql", "velo-cli"] {
            try FileManager.default.copyItem(
                at: fixture.url.appendingPathComponent("target/\(ImageFixture.amd64)/release/\(binary)"),
                to: fixture.url.appendingPathComponent("flat/\(binary)"))
        }
        let refused = try relctl(["image", "--tag", "v1.0.0", "--artifacts", "flat"], in: fixture.url)
        #expect(refused.status == 2 && refused.stderr.contains("--artifacts would put"), "\(refused)")
        let one = try relctl(
            ["image", "--tag", "v1.0.0", "--artifacts", "flat", "--target", ImageFixture.amd64], in: fixture.url)
        #expect(one.status == 0, "\(one)")
    }

    static func page(_ name: String) throws -> String {
        try String(contentsOf: DogfoodCLITests.repositoryRoot.appendingPathComponent(name), encoding: .utf8)
            .replacingOccurrences(of: "\n", with: " ")
    }

    /// Issue 57, item 11: release-pull-requests.md said `release --pending` and `release-pr` do not
    /// take a workspace (exit 2); they do.
    @Test func pendingAndReleasePRTakeAWorkspace() throws {
        let repo = try GitRepository()
        try repo.commit(
            "chore: start",
            files: [
                "relctl.toml": "[project]\nname = \"mono\"\n\n[workspace]\nmembers = [\"crates/*\"]\n",
                "crates/core/Cargo.toml": "[package]\nname = \"core\"\nversion = \"1.1.0\"\nedition = \"2021\"\n",
                "crates/cli/Cargo.toml": "[package]\nname = \"cli\"\nversion = \"0.3.0\"\nedition = \"2021\"\n",
            ])
        try repo.git("tag", "core-v1.0.0")
        try repo.git("tag", "cli-v0.3.0")
        let pending = try relctl(["release", "--pending", "--dry-run"], in: repo.url)
        #expect(pending.status == 0, "\(pending)")
        #expect(pending.stdout.contains("relctl release core-v1.1.0") || pending.stderr.contains("relctl release core-v1.1.0"), "\(pending)")
        let request = try relctl(["release-pr", "--dry-run"], in: repo.url, environment: ["GITHUB_TOKEN": "", "GH_TOKEN": ""])
        #expect(request.status == 0, "\(request)")
        let page = try Self.page("docs/release-pull-requests.md")
        #expect(!page.contains("do not take a workspace"))
        #expect(page.contains("`release --pending` and `release-pr` take a workspace too"))
    }

    /// matrix.md said an unknown triple is a warning: it is an error until `runner` and `format`
    /// are given; then silent when relctl knows its words, a warning when it cannot read it.
    @Test func anUnknownTripleIsAnErrorUntilItsRunnerIsGiven() throws {
        try withTemporaryDirectory { dir in
            func config(_ triple: String, _ extra: String) throws {
                _ = try dir.write("relctl.toml", "[project]\nname = \"x\"\n\n[[target]]\ntriple = \"\(triple)\"\n\(extra)")
            }
            for command in [["check"], ["matrix"]] {
                try config("riscv64-unknown-freebsd", "")
                let bare = try relctl(command, in: dir.url)
                #expect(bare.status == 2, "\(command) \(bare)")
                #expect(bare.stderr.contains("relctl.toml:4: unknown target triple `riscv64-unknown-freebsd`"), "\(bare)")
                #expect(bare.stderr.contains("give `runner`"), "\(bare)")
                try config("riscv64-unknown-freebsd", "runner = \"self-hosted\"\nformat = \"tar.gz\"\n")
                let given = try relctl(command, in: dir.url)
                #expect(given.status == 0 && !given.stderr.contains("unknown target triple"), "\(command) \(given)")
                try config("mips99-unknown-weird", "runner = \"r\"\nformat = \"tar.gz\"\n")
                let odd = try relctl(command, in: dir.url)
                #expect(odd.status == 0, "\(command) \(odd)")
                #expect(odd.stderr.contains("warning: relctl.toml:4: unknown target triple `mips99-unknown-weird`"), "\(odd)")
            }
            #expect(!(try Self.page("docs/matrix.md")).contains("is reported as a warning"))
        }
    }

    /// channels.md says `check` fails on a plugin that cannot be found: it passed on a `command`
    /// whose program does not exist (and failed only at run time).
    @Test func checkFailsOnAPluginCommandThatCannotBeFound() throws {
        try withTemporaryDirectory { dir in
            for (command, expected) in [
                (#"["channels/missing.py"]"#, "its command `channels/missing.py` is not an executable file in the project"),
                (#"["relctl-no-such-program", "x"]"#, "its command `relctl-no-such-program` is not on PATH"),
            ] {
                _ = try dir.write(
                    "relctl.toml", "[project]\nname = \"x\"\n\n[[channel]]\nname = \"announce\"\ncommand = \(command)\n")
                let check = try relctl(["check"], in: dir.url)
                #expect(check.status == 2, "\(check)")
                #expect(check.stderr.contains("relctl.toml:4: [[channel]] `announce`: \(expected)"), "\(check)")
            }
            _ = try dir.write("channels/announce.sh", "#!/bin/sh\necho '{\"files\": []}'\n", executable: true)
            _ = try dir.write(
                "relctl.toml", "[project]\nname = \"x\"\n\n[[channel]]\nname = \"announce\"\ncommand = [\"channels/announce.sh\"]\n")
            let found = try relctl(["check"], in: dir.url)
            #expect(found.status == 0, "\(found)")
        }
    }

    /// checksums.md said SHA256SUMS has one line per archive: a release lists its SBOMs too. The
    /// README and linux-packages.md said the rpm is rpmlint-clean: unsigned, rpmlint reports
    /// `no-signature` (LinuxPackageCLITests runs rpmlint); the pages now say when it is clean.
    @Test func theReleaseListsItsSBOMsAndThePagesSayWhenAnRpmIsClean() throws {
        let fixture = try ReleaseFixture()
        let result = try relctl(["release", "v1.0.0"], in: fixture.url)
        #expect(result.status == 0, "\(result)")
        let sums = try fixture.repository.directory.read("dist/SHA256SUMS")
        #expect(sums.contains(".cdx.json\n") && sums.contains(".tar.gz\n"), "\(sums)")
        #expect(!sums.contains("manifest.json"), "\(sums)")
        let checksums = try Self.page("docs/checksums.md")
        #expect(!checksums.contains("one such line per archive,"))
        #expect(checksums.contains("SBOMs (`.cdx.json`)"))
        for page in ["README.md", "docs/linux-packages.md"] {
            let text = try Self.page(page)
            #expect(!text.contains("lintian/rpmlint-clean") && !text.contains("pass lintian and rpmlint without errors"), "\(page)")
            #expect(text.contains("no-signature"), "\(page)")
        }
    }
}
