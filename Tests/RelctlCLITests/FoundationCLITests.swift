import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// End-to-end: the built binary on temporary projects, asserting exit codes and messages.
@Suite(.timeLimit(.minutes(45)), .removesTemporaries) struct FoundationCLITests {
    static let config = """
        [project]
        name = "velo"

        [[version]]
        path = "Cargo.toml"
        [[version]]
        path = "python/pyproject.toml"
        """

    func project(cargo: String = "1.2.3-rc.1", python: String = "1.2.3rc1") throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        try dir.write("relctl.toml", Self.config)
        try dir.write("Cargo.toml", "[package]\nname = \"velo\"\nversion = \"\(cargo)\"\n")
        try dir.write("python/pyproject.toml", "[project]\nname = \"velo\"\nversion = \"\(python)\"\n")
        return dir
    }

    @Test func validateTagMatchesEveryManifest() throws {
        let dir = try project()
        let result = try relctl(["validate-tag", "v1.2.3-rc.1"], in: dir.url)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("matches 2 manifests"))
        #expect(result.stdout.isEmpty)
    }

    @Test func validateTagMismatchNamesEachFileAndVersion() throws {
        let dir = try project(cargo: "1.2.2")
        let result = try relctl(["validate-tag", "v1.2.3-rc.1"], in: dir.url)
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stderr.contains(
                "relctl: error: Cargo.toml:3: holds version 1.2.2, but tag v1.2.3-rc.1 says 1.2.3-rc.1"))
        #expect(!result.stderr.contains("pyproject.toml:3: holds"))
    }

    /// Issue 62's mutation audit: a tag one patch release away from the manifests (v1.2.4 on
    /// 1.2.3) is a mismatch in every manifest, Cargo's and Python's alike, and the same files pass
    /// with the tag that names their version.
    @Test func validateTagDifferingOnlyInThePatchIsAMismatch() throws {
        let dir = try project(cargo: "1.2.3", python: "1.2.3")
        let result = try relctl(["validate-tag", "v1.2.4"], in: dir.url)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("Cargo.toml:3: holds version 1.2.3, but tag v1.2.4 says 1.2.4"), "\(result)")
        #expect(result.stderr.contains("pyproject.toml:3: holds version 1.2.3, but tag v1.2.4 says 1.2.4"), "\(result)")
        let json = try relctl(["validate-tag", "v1.2.4", "--json"], in: dir.url)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let sources = try #require(object["sources"] as? [[String: Any]])
        #expect(sources.map { $0["matches"] as? Bool } == [false, false], "\(json)")
        #expect(try relctl(["validate-tag", "v1.2.3"], in: dir.url).status == 0)
    }

    @Test func validateTagJSON() throws {
        let dir = try project(cargo: "1.2.2")
        let result = try relctl(["validate-tag", "v1.2.3-rc.1", "--json"], in: dir.url)
        #expect(result.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["tag"] as? String == "v1.2.3-rc.1")
        #expect(json["version"] as? String == "1.2.3-rc.1")
        let sources = try #require(json["sources"] as? [[String: Any]])
        #expect(sources.count == 2)
        #expect(sources[0]["path"] as? String == "Cargo.toml")
        #expect(sources[0]["kind"] as? String == "cargo")
        #expect(sources[0]["version"] as? String == "1.2.2")
        #expect(sources[0]["matches"] as? Bool == false)
        #expect(sources[1]["matches"] as? Bool == true)
    }

    @Test func inheritedCargoMismatchPointsAtTheWorkspaceRoot() throws {
        try withTemporaryDirectory { dir in
            try dir.write(
                "relctl.toml", "[project]\nname = \"velo\"\n[[version]]\npath = \"crates/velo sql/Cargo.toml\"\n")
            try dir.write(
                "Cargo.toml", "[workspace]\nmembers = [\"crates/*\"]\n\n[workspace.package]\nversion = \"1.0.0\"\n")
            try dir.write("crates/velo sql/Cargo.toml", "[package]\nname = \"velo-sql\"\nversion.workspace = true\n")
            let result = try relctl(["validate-tag", "v1.1.0", "--json"], in: dir.url)
            #expect(result.status == 1, "\(result)")
            #expect(
                result.stderr.contains(
                    "relctl: error: Cargo.toml:5: (inherited by crates/velo sql/Cargo.toml) holds version 1.0.0"))
            let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let sources = try #require(json["sources"] as? [[String: Any]])
            #expect(sources.first?["path"] as? String == "crates/velo sql/Cargo.toml")
        }
    }

    @Test func tagFormatGitCannotCreateIsRejectedByCheck() throws {
        try withTemporaryDirectory { dir in
            try dir.write("relctl.toml", "[project]\nname = \"velo\"\ntag-format = \"release {version}\"\n")
            let result = try relctl(["check"], in: dir.url)
            #expect(result.status == 2, "\(result)")
            #expect(
                result.stderr.contains(
                    "relctl: error: relctl.toml:3: tag format `release {version}` gives tags git cannot create (`release 1.2.3`: it contains a space)"
                ))
        }
    }

    @Test func missingGitIsNamedNotMistakenForMissingRepository() throws {
        let repo = try GitRepository()
        try repo.directory.write("relctl.toml", "[project]\nname = \"velo\"\n")
        try repo.commit("initial")
        let noGit = ["PATH": repo.directory.path + "/no-bin"]
        let check = try relctl(["check"], in: repo.url, environment: noGit)
        #expect(check.status == 0, "\(check)")
        #expect(check.stderr.contains("relctl: warning: git is not installed or not on PATH"))
        #expect(!check.stderr.contains("not a git repository"))
        let notes = try relctl(["notes"], in: repo.url, environment: noGit)
        #expect(notes.status == 2, "\(notes)")
        #expect(notes.stderr.contains("relctl: error: git is not installed or not on PATH"))
    }

    /// CI containers often check out as one user and run as another; git then refuses the
    /// repository, which must not read as "not a git repository". Needs root to chown.
    @Test(.requires(.root)) func repositoryOwnedByAnotherUserNamesSafeDirectory() throws {
        let repo = try GitRepository()
        try repo.directory.write("relctl.toml", "[project]\nname = \"velo\"\n")
        try repo.commit("initial")
        #expect(try sh("chown -R nobody '\(repo.directory.path)'").status == 0)
        let notes = try relctl(
            ["notes"], in: repo.url,
            environment: ["HOME": repo.directory.path + "/no-home", "GIT_CONFIG_NOSYSTEM": "1"])
        #expect(notes.status == 2, "\(notes)")
        #expect(
            notes.stderr.contains(
                "git refuses this repository because another user owns it; if you trust it, run `git config --global --add safe.directory '\(repo.directory.path)'`"
            ))
    }

    @Test(arguments: ["1.2.3", "v1.2", "V1.2.3", "v01.2.3"])
    func malformedTagIsExitTwo(_ tag: String) throws {
        let dir = try project()
        let result = try relctl(["validate-tag", tag], in: dir.url)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("relctl: error: tag `\(tag)` is malformed for tag format `v{version}`"))
    }

    @Test func missingManifestAndMissingConfigAreExitTwo() throws {
        let dir = try project()
        try FileManager.default.removeItem(at: dir.url.appendingPathComponent("Cargo.toml"))
        let missing = try relctl(["validate-tag", "v1.2.3-rc.1"], in: dir.url)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("relctl: error: Cargo.toml: manifest not found"))
        let noConfig = try relctl(["validate-tag", "v1.0.0", "--config", "other.toml"], in: dir.url)
        #expect(noConfig.status == 2)
        #expect(noConfig.stderr.contains("other.toml: config file not found; run `relctl init`"))
    }

    @Test func badConfigListsEveryProblemWithLines() throws {
        try withTemporaryDirectory { dir in
            try dir.write(
                "relctl.toml", "[project]\ntag-fromat = \"v{version}\"\n\n[build]\ncommand = \"make {targt}\"\n")
            for command in [["check"], ["validate-tag", "v1.0.0"]] {
                let result = try relctl(command, in: dir.url)
                #expect(result.status == 2, "\(result)")
                #expect(
                    result.stderr.contains(
                        "relctl: error: relctl.toml:2: unknown key `tag-fromat` in [project] (did you mean `tag-format`?)"
                    ))
                #expect(
                    result.stderr.contains(
                        "relctl: error: relctl.toml:5: unknown placeholder `{targt}` in `make {targt}`; did you mean `{target}`?"
                    ))
            }
            try dir.write("relctl.toml", "[project\nname = 1\n")
            let syntax = try relctl(["check"], in: dir.url)
            #expect(syntax.status == 2)
            #expect(syntax.stderr.contains("relctl: error: relctl.toml:1: TOML syntax error"))
        }
    }

    @Test func checkReportsManifestAndTargetProblemsTogether() throws {
        try withTemporaryDirectory { dir in
            try dir.write(
                "relctl.toml",
                """
                [[version]]
                path = "Cargo.toml"
                [[version]]
                path = "pyproject.toml"
                [[target]]
                triple = "x86_64-unknown-linux-gnu"
                [[target]]
                triple = "sparc-sun-plan9"
                [[target]]
                triple = "riscv64-custom-elf"
                runner = "self-hosted"
                format = "tar.xz"
                [archive]
                files = ["README.md"]
                """)
            try dir.write("Cargo.toml", "[package]\nname = \"x\"\nversion = \"1.0\"\n")
            try dir.write("pyproject.toml", "[project]\nname = \"x\"\ndynamic = [\"version\"]\n")
            let result = try relctl(["check", "--json"], in: dir.url)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("Cargo.toml:3: version `1.0` is not a valid SemVer 2.0.0 version"))
            #expect(result.stderr.contains("pyproject.toml: the version is dynamic"))
            #expect(result.stderr.contains("relctl.toml:7: unknown target triple `sparc-sun-plan9`"))
            #expect(result.stderr.contains("warning: relctl.toml:9: unknown target triple `riscv64-custom-elf`"))
            #expect(result.stderr.contains("archive path `README.md` does not exist"))
            let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            #expect(json["ok"] as? Bool == false)
            #expect((json["problems"] as? [Any])?.count == 4)
        }
    }

    @Test func initDetectsManifestsAndNeverOverwrites() throws {
        try withTemporaryDirectory { dir in
            try dir.write(
                "Cargo.toml", "[package]\nname = \"velo\"\nversion = \"0.3.0\"\n\n[[bin]]\nname = \"velo-sql\"\n")
            try dir.write("package.json", "{\"name\": \"velo\", \"version\": \"0.3.0\"}")
            try dir.write("README.md", "# velo\n")
            let first = try relctl(["init"], in: dir.url)
            #expect(first.status == 0, "\(first)")
            #expect(first.stderr.contains("found Cargo.toml, package.json"))
            let written = try dir.read("relctl.toml")
            #expect(written.contains("name = \"velo\""))
            #expect(written.contains("path = \"Cargo.toml\""))
            #expect(written.contains("binaries = [\"velo-sql\"]"))
            // The starter file is valid and agrees with the manifests.
            let check = try relctl(["validate-tag", "v0.3.0"], in: dir.url)
            #expect(check.status == 0, "\(check)")
            try dir.write("relctl.toml", "# mine\n")
            let second = try relctl(["init"], in: dir.url)
            #expect(second.status == 2)
            #expect(second.stderr.contains("relctl.toml: already exists; relctl init never overwrites it"))
            #expect(try dir.read("relctl.toml") == "# mine\n")
        }
    }

    @Test func initWritesValidTOMLForAnyDirectoryName() throws {
        let dir = try TemporaryDirectory(prefix: "we\"ird\\dír")
        let result = try relctl(["init"], in: dir.url)
        #expect(result.status == 0, "\(result)")
        let check = try relctl(["check", "--json"], in: dir.url)
        #expect(check.status == 0, "\(check)")
        #expect(
            try dir.read("relctl.toml").contains(#"name = "we\"ird-dír-"#),
            "a backslash would split archive names on Windows")
        // --config names where it went, not ./relctl.toml.
        let elsewhere = try relctl(["init", "--config", "sub/release.toml"], in: dir.url)
        #expect(elsewhere.status == 0, "\(elsewhere)")
        #expect(elsewhere.stderr.contains("wrote sub/release.toml ("))
        #expect(dir.exists("sub/release.toml"))
    }

    @Test func unwritableStdoutIsAnErrorNotACrash() throws {
        let dir = try project()
        let result = try sh(
            "'\(relctlBinary.path)' validate-tag v1.2.3-rc.1 --json > /dev/full", in: dir.url,
            environment: ["NO_COLOR": "1"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("relctl: error: cannot write to standard output:"))
        #expect(!result.stderr.contains("Fatal error"))
    }

    @Test func fileSystemErrorsAreOneRelctlErrorLine() throws {
        try withTemporaryDirectory { dir in
            try dir.write("relctl.toml", "# a file, where init is asked to make a folder\n")
            let result = try relctl(["init", "--config", "relctl.toml/inner.toml"], in: dir.url)
            #expect(result.status == 1, "\(result)")
            #expect(
                result.stderr
                    == "relctl: error: \(dir.path)/relctl.toml: cannot create the folder: File exists; check the path and its permissions\n"
            )
        }
    }

    @Test func colourAndQuietOptions() throws {
        let dir = try project(cargo: "9.9.9")
        let coloured = try relctl(["validate-tag", "v1.2.3-rc.1", "--color", "always"], in: dir.url)
        #expect(coloured.stderr.contains("\u{1B}[31merror:\u{1B}[0m"))
        let plain = try relctl(["validate-tag", "v1.2.3-rc.1", "--color", "auto"], in: dir.url)
        #expect(!plain.stderr.contains("\u{1B}["))
        let ok = try project()
        let quiet = try relctl(["validate-tag", "v1.2.3-rc.1", "-q"], in: ok.url)
        #expect(quiet.status == 0)
        #expect(quiet.stderr.isEmpty)
    }

    @Test func usageErrorsAreExit64() throws {
        let result = try relctl(["validate-tag"], in: URL(fileURLWithPath: NSTemporaryDirectory()))
        #expect(result.status == 64)
        let unknown = try relctl(["frobnicate"], in: URL(fileURLWithPath: NSTemporaryDirectory()))
        #expect(unknown.status == 64)
    }
}
