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

/// Cases found by trying relctl on real public projects, each reproduced on a generated
/// repository shaped like the project it came from.
@Suite("real repositories", .timeLimit(.minutes(60)), .removesTemporaries)
struct RealRepositoryCLITests {
    /// velostream-shaped: a demo tree whose demo writes an ignored data file, a cache folder the
    /// demo fills, and an empty folder its scripts expect.
    static func velostreamShaped() throws -> ReleaseFixture {
        let fixture = try ReleaseFixture(name: "velostream")
        let config = try fixture.repository.directory.read("relctl.toml")
            .replacingOccurrences(
                of: "files = [\"README.md\"]",
                with: "files = [\"README.md\"]\ntrees = [{ from = \"demo\", to = \"demo\" }]")
        try fixture.repository.commit(
            "chore: ship the demo",
            files: [
                "relctl.toml": config,
                ".gitignore": "out/\ndist/\ndemo/1brc/measurements.txt\ndemo/**/*.log\ndemo/cache/\n",
                "demo/1brc/run.sh": "#!/bin/sh\necho generating\n",
                "demo/trading/README.md": "# trading demo\n",
            ])
        try fixture.repository.git("push", "-q", "origin", "main")
        let demo = fixture.url.appendingPathComponent("demo")
        try Data(repeating: 0x41, count: 200_000).write(to: demo.appendingPathComponent("1brc/measurements.txt"))
        try Data("debug\n".utf8).write(to: demo.appendingPathComponent("trading/run.log"))
        try FileManager.default.createDirectory(
            at: demo.appendingPathComponent("cache/deep"), withIntermediateDirectories: true)
        try Data("cached\n".utf8).write(to: demo.appendingPathComponent("cache/deep/blob.bin"))
        try FileManager.default.createDirectory(
            at: demo.appendingPathComponent("trading/data"), withIntermediateDirectories: true)
        return fixture
    }

    static func sha256s(_ json: String) throws -> [String: String] {
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let artifacts = try #require(plan["artifacts"] as? [[String: Any]])
        return Dictionary(
            uniqueKeysWithValues: artifacts.map { ($0["name"] as? String ?? "", $0["sha256"] as? String ?? "") })
    }

    @Test func ignoredFilesAndEmptyFoldersNeverReachAnArchive() throws {
        let fixture = try Self.velostreamShaped()
        let dry = try relctl(["release", "v1.0.0", "--dry-run", "--json"], in: fixture.url)
        #expect(dry.status == 0, "\(dry)")
        // `package` in place, into another folder, before the tag exists.
        #expect(try relctl(["build"], in: fixture.url).status == 0)
        let inPlace = try relctl(["package", "--tag", "v1.0.0", "--out", "elsewhere", "--json"], in: fixture.url)
        #expect(inPlace.status == 0, "\(inPlace)")
        try FileManager.default.removeItem(at: fixture.url.appendingPathComponent("elsewhere"))
        let real = try relctl(["release", "v1.0.0", "--json"], in: fixture.url)
        #expect(real.status == 0, "\(real)")

        let dryDigests = try Self.sha256s(dry.stdout)
        #expect(dryDigests.count == 2)
        #expect(
            try Self.sha256s(real.stdout) == dryDigests, "the dry run predicted other archives than the real run wrote")
        let packaged = try #require(
            try JSONSerialization.jsonObject(with: Data(inPlace.stdout.utf8)) as? [[String: Any]])
        #expect(
            Dictionary(
                uniqueKeysWithValues: packaged.map { ($0["name"] as? String ?? "", $0["sha256"] as? String ?? "") })
                == dryDigests)

        let archive = fixture.url.appendingPathComponent("dist/velostream-v1.0.0-x86_64-unknown-linux-gnu.tar.gz").path
        let listing = try run("tar", ["-tzf", archive]).stdout
        #expect(listing.contains("demo/1brc/run.sh") && listing.contains("demo/trading/README.md"), "\(listing)")
        for absent in ["measurements.txt", "run.log", "cache", "trading/data"] {
            #expect(!listing.contains(absent), "\(absent) was packaged:\n\(listing)")
        }
    }

    @Test func anIgnoredFileNamedInFilesIsPackaged() throws {
        let fixture = try ReleaseFixture()
        let config = try fixture.repository.directory.read("relctl.toml")
            .replacingOccurrences(of: "files = [\"README.md\"]", with: "files = [\"README.md\", \"GENERATED.txt\"]")
        try fixture.repository.commit(
            "chore: ship a generated file",
            files: ["relctl.toml": config, ".gitignore": "out/\ndist/\nGENERATED.txt\n"])
        try fixture.repository.directory.write("GENERATED.txt", "made by a hook\n")
        #expect(try relctl(["build"], in: fixture.url).status == 0)
        #expect(try relctl(["package", "--tag", "v1.0.0"], in: fixture.url).status == 0)
        let listing = try run(
            "tar",
            ["-tzf", fixture.url.appendingPathComponent("dist/demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz").path]
        ).stdout
        #expect(listing.contains("GENERATED.txt"), "\(listing)")
    }

    @Test func packagingAnOlderTagFromALaterHeadIsRefused() throws {
        let fixture = try ReleaseFixture(version: "0.1.0")
        try fixture.repository.git("tag", "v0.1.0")
        let tagged = try fixture.repository.git("rev-parse", "HEAD").trimmingCharacters(in: .whitespacesAndNewlines)
        try fixture.repository.commit("feat: later work", files: ["src/later.txt": "later\n"])
        let head = try fixture.repository.git("rev-parse", "HEAD").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try relctl(["build", "--tag", "v0.1.0"], in: fixture.url).status == 0)
        let result = try relctl(["package", "--tag", "v0.1.0"], in: fixture.url)
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stderr.contains(String(tagged.prefix(12))) && result.stderr.contains(String(head.prefix(12))),
            "\(result)")
        #expect(!fixture.repository.directory.exists("dist/demo-v0.1.0-x86_64-unknown-linux-gnu.tar.gz"))
        // At the tag it works.
        try fixture.repository.git("checkout", "-q", "v0.1.0")
        #expect(try relctl(["package", "--tag", "v0.1.0"], in: fixture.url).status == 0)
    }

    @Test func aProjectWithoutTargetsIsATagOnlyRelease() throws {
        let repository = try GitRepository()
        let remote = try repository.addBareRemote()
        try repository.commit(
            "chore: start",
            files: [
                "relctl.toml": "[project]\nname = \"sdk-python\"\n\n[[version]]\npath = \"VERSION\"\n",
                "VERSION": "0.2.0\n",
            ])
        try repository.commit("feat: retries")
        try repository.git("push", "-q", "origin", "main")
        let dry = try relctl(["release", "v0.2.0", "--dry-run", "--push"], in: repository.url)
        #expect(dry.status == 0, "\(dry)")
        let real = try relctl(["release", "v0.2.0", "--push", "--json"], in: repository.url)
        #expect(real.status == 0, "\(real)")
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(real.stdout.utf8)) as? [String: Any])
        let stages = try #require(plan["stages"] as? [[String: Any]])
        let status = Dictionary(
            uniqueKeysWithValues: stages.map { ($0["name"] as? String ?? "", $0["status"] as? String ?? "") })
        #expect(
            status["build"] == "skipped" && status["package"] == "skipped" && status["checksum"] == "skipped",
            "\(status)")
        #expect(status["notes"] == "ok" && status["tag"] == "ok" && status["push"] == "ok", "\(status)")
        #expect(try run("git", ["-C", remote.path, "tag", "--list"]).stdout == "v0.2.0\n")
        let dist = try FileManager.default.contentsOfDirectory(
            atPath: repository.url.appendingPathComponent("dist").path)
        #expect(dist == ["RELEASE_NOTES.md"], "\(dist)")
    }

    @Test func blockMarkdownInSubjectsStaysOneListItem() throws {
        let repository = try GitRepository()
        let subjects = [
            "- fixing tests", "# Modernize SQL parsing", "10. **Add NULL handling", "+ plus sign", "--- three dashes",
            "1) parenthesis", "    indented four", "> quoted", "=== equals", "feat: # heading after a type",
        ]
        try repository.commit("chore: start", files: ["VERSION": "1.0.0\n"])
        for subject in subjects { try repository.commit(subject) }
        let notes = try relctl(["notes"], in: repository.url)
        #expect(notes.status == 0, "\(notes)")
        let file = repository.url.appendingPathComponent("NOTES.md")
        try notes.stdout.write(to: file, atomically: true, encoding: .utf8)
        let html = try run("cmark", [file.path]).stdout
        func count(_ tag: String) -> Int { html.components(separatedBy: tag).count - 1 }
        // Every subject and the one contributor is one list item; one list per section.
        #expect(count("<li>") == subjects.count + 1, "\(count("<li>")) list items:\n\(html)")
        #expect(count("<ul>") == count("<h3>"), "a nested list:\n\(html)")
        #expect(count("<h2>") == 1, "a heading from a subject:\n\(html)")
        for tag in ["<h1", "<h4", "<ol", "<hr", "<pre", "<blockquote", "<p>"] {
            #expect(!html.contains(tag), "\(tag) in:\n\(html)")
        }
    }

    @Test func aRevertStaysLabelledAsARevert() throws {
        let repository = try GitRepository()
        try repository.commit("chore: start", files: ["VERSION": "1.0.0\n"])
        try repository.git("tag", "v1.0.0")
        try repository.commit("revert(parser): support for tabs")
        let notes = try relctl(["notes"], in: repository.url)
        #expect(notes.status == 0, "\(notes)")
        #expect(notes.stdout.contains("### Reverts\n\n- **parser:** support for tabs"), "\(notes.stdout)")
        #expect(!notes.stdout.contains("Other changes"), "\(notes.stdout)")
    }

    @Test func aLiteralSymlinkRuleIsMadeOnceAndCheckFindsLayoutConflicts() throws {
        let fixture = try ReleaseFixture()
        var config = try fixture.repository.directory.read("relctl.toml")
            .replacingOccurrences(of: "binaries = [\"hello\"]", with: "binaries = [\"hello\", \"hello-cli\"]")
            .replacingOccurrences(
                of: "chmod +x out/{target}/hello",
                with: "chmod +x out/{target}/hello && cp out/{target}/hello out/{target}/hello-cli")
        config += "\n[[archive.symlink]]\npath = \"run\"\nto = \"bin/hello\"\n"
        try fixture.repository.commit("chore: a run shortcut", files: ["relctl.toml": config])
        #expect(try relctl(["check"], in: fixture.url).status == 0)
        #expect(try relctl(["build"], in: fixture.url).status == 0)
        let packaged = try relctl(["package", "--tag", "v1.0.0"], in: fixture.url)
        #expect(packaged.status == 0, "\(packaged)")
        let listing = try run(
            "tar",
            ["-tvzf", fixture.url.appendingPathComponent("dist/demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz").path]
        ).stdout
        #expect(listing.contains("demo-v1.0.0-x86_64-unknown-linux-gnu/run -> bin/hello"), "\(listing)")

        // A rule that puts a link where a packaged file already is: check says so before any build.
        try fixture.repository.commit(
            "chore: clash",
            files: ["relctl.toml": config + "\n[[archive.symlink]]\npath = \"README.md\"\nto = \"bin/{binary}\"\n"])
        let check = try relctl(["check"], in: fixture.url)
        #expect(check.status == 2 && check.stderr.contains("README.md"), "\(check)")
    }

    @Test func tagsGitCannotCreateAreRefusedUpFront() throws {
        let fixture = try ReleaseFixture()
        for tag in ["v1.0.0-x.lock", "v1.0.0-rc..1"] {
            let validate = try relctl(["validate-tag", tag], in: fixture.url)
            #expect(validate.status == 2 && validate.stderr.contains("cannot be a git tag"), "\(validate)")
            let release = try relctl(["release", tag, "--dry-run"], in: fixture.url)
            #expect(release.status == 2, "\(release)")
            #expect(!release.stderr.contains("stage `build`"), "refused only after building: \(release)")
        }
    }

    @Test func verifyReadsCoreutilsCarriageReturnEscapes() throws {
        try withTemporaryDirectory { dir in
            let name = "odd\rname.tar.gz"
            try Data("payload\n".utf8).write(to: dir.url.appendingPathComponent(name))
            let sums = try run("sha256sum", [name], in: dir.url).stdout
            #expect(sums.hasPrefix("\\"), "coreutils escapes the name: \(sums)")
            try sums.write(to: dir.url.appendingPathComponent("SHA256SUMS"), atomically: true, encoding: .utf8)
            let verify = try relctl(["verify", "SHA256SUMS"], in: dir.url)
            #expect(verify.status == 0, "\(verify)")
            // And what relctl writes, coreutils reads.
            try FileManager.default.removeItem(at: dir.url.appendingPathComponent("SHA256SUMS"))
            #expect(try relctl(["checksum", name], in: dir.url).status == 0)
            #expect(try run("sha256sum", ["-c", "SHA256SUMS"], in: dir.url).status == 0)
        }
    }
}

/// A `before` hook that commits: the tag goes on what is there, never on the stale commit.
@Suite("tag what is there", .timeLimit(.minutes(60)), .removesTemporaries)
struct TagWhatIsThereCLITests {
    @Test func aHookThatCommitsMovesTheTagToTheNewHead() throws {
        let fixture = try ReleaseFixture(
            release:
                #"before = ["echo 'released' > CHANGES.txt && git add CHANGES.txt && git commit -qm 'docs: changes for the release'"]"#
        )
        let dry = try relctl(["release", "v1.0.0", "--dry-run", "--json"], in: fixture.url)
        #expect(dry.status == 0, "\(dry)")
        #expect(dry.stderr.contains("goes on the new HEAD"), "\(dry)")
        let real = try relctl(["release", "v1.0.0", "--push"], in: fixture.url)
        #expect(real.status == 0, "\(real)")
        let head = try fixture.repository.git("rev-parse", "HEAD").trimmingCharacters(in: .whitespacesAndNewlines)
        let tagged = try fixture.repository.git("rev-parse", "v1.0.0^{commit}").trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(tagged == head, "the tag is on the hook's commit")
        #expect(
            try fixture.repository.git("show", "v1.0.0:CHANGES.txt").trimmingCharacters(in: .whitespacesAndNewlines)
                == "released")
        #expect(
            try fixture.remoteGit("rev-parse", "v1.0.0^{commit}").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == head)
    }

    @Test func aHookThatCommitsAnotherVersionIsRefused() throws {
        let fixture = try ReleaseFixture(
            release: #"before = ["echo 1.0.1 > VERSION && git commit -qam 'chore: bump'"]"#)
        let real = try relctl(["release", "v1.0.0"], in: fixture.url)
        #expect(real.status == 1, "\(real)")
        #expect(real.stderr.contains("no longer match v1.0.0"), "\(real)")
        #expect(try fixture.localTags().isEmpty)
    }
}

/// What velostream's hand-written pipeline does that relctl must express: `{exe}` in file names,
/// binaries built only on some platforms, and a generator run inside each archive's staging folder.
@Suite("velostream's pipeline", .timeLimit(.minutes(60)), .removesTemporaries)
struct VelostreamPipelineCLITests {
    @Test func exeOptionalBinariesAndAStageHook() throws {
        let build =
            #"mkdir -p out/{target} && printf '#!/bin/sh\necho hi\n' > out/{target}/hello && chmod +x out/{target}/hello && case {target} in x86_64*) cp out/{target}/hello out/{target}/hello-bench ;; esac && cp out/{target}/hello out/{target}/launcher"#
        let fixture = try ReleaseFixture(buildCommand: build)
        let config =
            try fixture.repository.directory.read("relctl.toml")
            .replacingOccurrences(
                of: "binaries = [\"hello\"]",
                with: "binaries = [\"hello\", \"hello-bench\"]\noptional-binaries = [\"hello-bench\"]"
            )
            .replacingOccurrences(
                of: "files = [\"README.md\"]",
                with: #"files = ["README.md", { from = "out/{target}/launcher", to = "launcher{exe}" }]"#
                    + "\nstage = '''printf 'install %s for %s\\n' \"$RELCTL_ARCHIVE\" \"$RELCTL_TARGET\" > INSTALL.txt'''"
            )
            + "\n[[archive.symlink]]\npath = \"{binary}\"\nto = \"bin/{binary}\"\n"
        try fixture.repository.commit("chore: velostream-like packaging", files: ["relctl.toml": config])
        #expect(try relctl(["check"], in: fixture.url).status == 0)
        let built = try relctl(["build"], in: fixture.url)
        #expect(built.status == 0, "an optional binary the build did not make is not a failure: \(built)")
        let packaged = try relctl(["package", "--tag", "v1.0.0"], in: fixture.url)
        #expect(packaged.status == 0, "\(packaged)")

        let x86 = try run(
            "tar",
            ["-tvzf", fixture.url.appendingPathComponent("dist/demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz").path]
        ).stdout
        let arm = try run(
            "tar",
            ["-tvzf", fixture.url.appendingPathComponent("dist/demo-v1.0.0-aarch64-unknown-linux-gnu.tar.gz").path]
        ).stdout
        #expect(x86.contains("bin/hello-bench") && x86.contains("hello-bench -> bin/hello-bench"), "\(x86)")
        #expect(!arm.contains("hello-bench"), "no binary and no dangling link where the build made none: \(arm)")
        #expect(arm.contains("demo-v1.0.0-aarch64-unknown-linux-gnu/launcher\n") || arm.hasSuffix("launcher"), "\(arm)")
        let install = try run(
            "tar",
            [
                "-xzOf", fixture.url.appendingPathComponent("dist/demo-v1.0.0-aarch64-unknown-linux-gnu.tar.gz").path,
                "demo-v1.0.0-aarch64-unknown-linux-gnu/INSTALL.txt",
            ]
        ).stdout
        #expect(
            install == "install demo-v1.0.0-aarch64-unknown-linux-gnu for aarch64-unknown-linux-gnu\n", "\(install)")
    }

    @Test func aFailingStageHookWritesNoArchive() throws {
        let fixture = try ReleaseFixture()
        let config = try fixture.repository.directory.read("relctl.toml")
            .replacingOccurrences(
                of: "files = [\"README.md\"]",
                with: "files = [\"README.md\"]\nstage = \"echo generator broke >&2; exit 3\"")
        try fixture.repository.commit("chore: broken generator", files: ["relctl.toml": config])
        #expect(try relctl(["build"], in: fixture.url).status == 0)
        let packaged = try relctl(["package", "--tag", "v1.0.0"], in: fixture.url)
        #expect(packaged.status == 1 && packaged.stderr.contains("generator broke"), "\(packaged)")
        let dist =
            (try folderNames(fixture.url.appendingPathComponent("dist").path))
        #expect(!dist.contains { $0.hasSuffix(".tar.gz") }, "\(dist)")
    }
}

/// Issue 11's done-when: `Examples/workspace-tag-only`, a Cargo workspace (three member crates
/// inheriting `[workspace.package] version`, Cargo.lock) whose own CI builds on tag push, made
/// into a repository by `scripts/workspace-example` (history with block-Markdown subjects, a
/// bare remote, a 256 MiB ignored demo file) and released as a new user would.
@Suite("Examples/workspace-tag-only", .timeLimit(.minutes(60)), .removesTemporaries)
struct WorkspaceExampleTests {
    static func stageStatus(_ json: String) throws -> [String: String] {
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let stages = try #require(plan["stages"] as? [[String: Any]])
        return Dictionary(
            uniqueKeysWithValues: stages.map { ($0["name"] as? String ?? "", $0["status"] as? String ?? "") })
    }

    @Test func aTagOnlyWorkspaceReleaseTagsPushesAndWritesOneListItemPerSubject() throws {
        try withTemporaryDirectory { dir in
            let project = dir.url.appendingPathComponent("tally")
            let made = try run(
                DogfoodCLITests.repositoryRoot.appendingPathComponent("scripts/workspace-example").path,
                [project.path])
            #expect(made.status == 0, "\(made)")
            let remote = project.path + ".git"
            let ignored = project.appendingPathComponent("demo/data/measurements.txt")
            let before = try Data(contentsOf: ignored, options: .alwaysMapped).prefix(64)
            #expect(try run("git", ["-C", project.path, "status", "--porcelain"]).stdout.isEmpty)

            // check names the configuration for what it is; the tag is checked against the
            // workspace version and every member's Cargo.lock entry.
            let check = try relctl(["check"], in: project)
            #expect(check.status == 0, "\(check)")
            #expect(check.stderr.contains("relctl.toml: ok (1 manifest, 0 targets: a tag-only release)"), "\(check)")
            let validate = try relctl(["validate-tag", "v0.3.0"], in: project)
            #expect(
                validate.status == 0 && validate.stderr.contains("1 manifest and 5 lock/pin entries"), "\(validate)")

            let dry = try relctl(["release", "v0.3.0", "--dry-run", "--push", "--json"], in: project)
            #expect(dry.status == 0, "\(dry)")
            let real = try relctl(["release", "v0.3.0", "--push", "--json"], in: project)
            #expect(real.status == 0, "\(real)")

            // Check, notes, tag, push: nothing built, packaged, checksummed or signed.
            for json in [dry.stdout, real.stdout] {
                let status = try Self.stageStatus(json)
                let ran = Set(status.filter { $0.value == "ok" }.keys)
                #expect(
                    ran.isSubset(of: ["preflight", "scratch", "lock", "notes", "tag", "push", "dist"]), "\(status)")
                #expect(ran.isSuperset(of: ["preflight", "notes", "tag", "push"]), "\(status)")
                for stage in ["build", "package", "checksum", "sign", "image", "installer"] {
                    #expect(status[stage] == "skipped", "\(stage): \(status)")
                }
            }
            let plan = try #require(try JSONSerialization.jsonObject(with: Data(real.stdout.utf8)) as? [String: Any])
            let dryPlan = try #require(try JSONSerialization.jsonObject(with: Data(dry.stdout.utf8)) as? [String: Any])
            #expect((plan["artifacts"] as? [Any])?.isEmpty == true)
            #expect(plan["tagPushed"] as? Bool == true)
            #expect(plan["notes"] as? String == dryPlan["notes"] as? String, "the dry run predicted other notes")
            #expect(try run("git", ["-C", remote, "tag", "--list"]).stdout == "v0.2.0\nv0.3.0\n")
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: project.appendingPathComponent("dist").path) == [
                    "RELEASE_NOTES.md"
                ])
            #expect(
                !FileManager.default.fileExists(atPath: project.appendingPathComponent("target").path),
                "something was built")

            // The ignored demo file is in no commit and untouched, and the tree is as clean as before.
            let tree = try run("git", ["-C", project.path, "ls-tree", "-r", "--name-only", "v0.3.0"]).stdout
            #expect(tree.contains("demo/1brc/run-1brc.sh") && !tree.contains("demo/data"), "\(tree)")
            let attributes = try FileManager.default.attributesOfItem(atPath: ignored.path)
            #expect((attributes[.size] as? NSNumber)?.intValue == 256 << 20)
            #expect(try Data(contentsOf: ignored, options: .alwaysMapped).prefix(64) == before)
            #expect(try run("git", ["-C", project.path, "status", "--porcelain"]).stdout.isEmpty)

            // Each subject is one list item of plain text, as cmark renders the notes.
            let html = try run("cmark", [project.appendingPathComponent("dist/RELEASE_NOTES.md").path]).stdout
            func count(_ tag: String) -> Int { html.components(separatedBy: tag).count - 1 }
            for subject in ["- fixing tests", "# Modernize SQL parsing", "10. **Add NULL handling"] {
                #expect(html.contains("<li>\(subject) ("), "\(subject):\n\(html)")
            }
            #expect(count("<li>") == 7, "6 entries and 1 contributor:\n\(html)")
            #expect(count("<ul>") == count("<h3>") && count("<h2>") == 1, "\(html)")
            for tag in ["<h1", "<h4", "<ol", "<hr", "<pre", "<blockquote", "<strong>Add", "<p>"] {
                #expect(!html.contains(tag), "\(tag) in:\n\(html)")
            }
        }
    }
}
