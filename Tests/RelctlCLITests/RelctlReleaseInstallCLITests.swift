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

/// `[ci] relctl = "release"`: the default "Install relctl" step downloads relctl's published
/// archive instead of building relctl from source, and refuses it unless SHA256SUMS (and with
/// `relctl-minisign-key`, SHA256SUMS' minisign signature) vouches for it (issue 24, item 5).
@Suite("[ci] relctl = \"release\"", .serialized, .timeLimit(.minutes(60)), .removesTemporaries)
struct RelctlReleaseInstallCLITests {
    static let version = RelctlVersion.version
    static let linuxStem = "relctl-v\(RelctlVersion.version)-x86_64-unknown-linux-gnu"
    static let oneTarget = """
        [[target]]
        triple = "x86_64-unknown-linux-gnu"

        """

    @Test func unknownModeNamesTheFileTheKeyAndTheAllowedValues() throws {
        try withTemporaryDirectory { dir in
            let refused = try Self.generate(ci: "relctl = \"binary\"", in: dir)
            #expect(refused.status == 2, "\(refused)")
            #expect(refused.stderr.contains("relctl.toml"), "\(refused)")
            #expect(refused.stderr.contains("`ci.relctl`: unknown value `binary`"), "\(refused)")
            #expect(refused.stderr.contains(#"allowed: "source", "release""#), "\(refused)")
            #expect(!FileManager.default.fileExists(atPath: dir.url.appendingPathComponent(".github").path))
        }
    }

    @Test func aKeyThatIsNotMinisignsOrBesideSourceOrASetupIsRefused() throws {
        let cases = [
            ("relctl = \"release\"\nrelctl-minisign-key = \"RWnotakey\"", "is not a minisign public key"),
            ("relctl-minisign-key = \"\(try Self.minisignKeyPair().publicKey)\"", "it needs `relctl = \"release\"`"),
            ("relctl = \"release\"\nsetup = ['echo hi']", "`ci.setup` replaces that step; keep one of them"),
        ]
        for (ci, message) in cases {
            try withTemporaryDirectory { dir in
                let refused = try Self.generate(ci: ci, in: dir)
                #expect(refused.status == 2, "\(refused)")
                #expect(refused.stderr.contains(message), "\(ci): \(refused)")
            }
        }
    }

    /// Where the downloaded relctl cannot run or is not used, `ci generate` says so (a warning):
    /// an Intel macOS build job, and the GitLab pipeline, which keeps building relctl from source.
    @Test func runnersWithoutAPublishedArchiveAndGitLabAreWarnedAbout() throws {
        try withTemporaryDirectory { dir in
            try MatrixFixtures.project(
                in: dir, targets: ["x86_64-unknown-linux-gnu"],
                extraTargets: "[[target]]\ntriple = \"x86_64-apple-darwin\"\nrunner = \"macos-13\"\n",
                extra: "[ci]\nrelctl = \"release\"\nproviders = [\"github\", \"gitlab\"]\n")
            let generate = try relctl(["ci", "generate"], in: dir.url)
            #expect(generate.status == 0, "\(generate)")
            #expect(
                generate.stderr.contains(
                    "x86_64-apple-darwin: its build job runs on macos-13, for which relctl publishes no archive"),
                "\(generate)")
            #expect(
                generate.stderr.contains("the GitLab pipeline's default setup still builds relctl from source"),
                "\(generate)")
            #expect(!generate.stderr.contains("x86_64-unknown-linux-gnu: its build job"), "\(generate)")
        }
    }

    /// The generated step passes actionlint (with shellcheck on its script) and zizmor, with and
    /// without a key; `source` stays the default and stays what it was.
    @Test func generatedStepIsLintClean() throws {
        let key = try Self.minisignKeyPair().publicKey
        for ci in ["relctl = \"release\"", "relctl = \"release\"\nrelctl-minisign-key = \"\(key)\""] {
            try withTemporaryDirectory { dir in
                let generate = try Self.generate(ci: ci, in: dir)
                try #require(generate.status == 0, "\(generate)")
                let workflow = try dir.read(".github/workflows/release.yml")
                #expect(!workflow.contains("swift build"), "the release mode builds nothing")
                #expect(workflow.contains("sha256sum -c archive.sha256"))
                #expect(workflow.contains("minisign -Vqm SHA256SUMS") == ci.contains("minisign-key"))
                #expect(try CIGenerateCLITests.tool("shellcheck", ["--version"], in: dir.url).status == 0)
                let lint = try CIGenerateCLITests.tool(
                    "actionlint", ["-no-color", ".github/workflows/release.yml"], in: dir.url)
                #expect(lint.status == 0, "\(lint)")
                let audit = try CIGenerateCLITests.tool(
                    "zizmor", ["--offline", "--no-progress", ".github/workflows/release.yml"], in: dir.url)
                #expect(audit.status == 0, "\(audit)")
            }
        }
        try withTemporaryDirectory { dir in
            try MatrixFixtures.project(in: dir)
            let plain = try relctl(["ci", "generate"], in: dir.url)
            let plainWorkflow = try dir.read(".github/workflows/release.yml")
            let config = try dir.read("relctl.toml")
            try dir.write("relctl.toml", config + "\n[ci]\nrelctl = \"source\"\n")
            let source = try relctl(["ci", "generate"], in: dir.url)
            #expect(plain.status == 0 && source.status == 0, "\(plain)\n\(source)")
            let sourceWorkflow = try dir.read(".github/workflows/release.yml")
            #expect(sourceWorkflow.contains("swift build -c release --product relctl"))
            #expect(plainWorkflow == sourceWorkflow, "relctl = \"source\" is the default")
        }
    }

    /// The whole workflow with `relctl = "release"`: every job downloads relctl's archive from the
    /// release of its version (here the GitHub stand-in, serving the relctl under test), checks it
    /// against SHA256SUMS and its minisign signature, and the relctl it unpacked releases the project.
    /// A tampered archive, and an archive with a SHA256SUMS rewritten to match it, are refused
    /// before they run: the plan job fails at the install step and nothing is published.
    /// The install step runs `sudo apt-get install`: apt-get, and root or sudo without a password.
    @Test(.requires(.packageInstall))
    func workflowInstallsTheVerifiedArchiveAndRefusesATamperedOne() async throws {
        let keys = try Self.minisignKeyPair()
        let fixture = try WorkflowFixture(
            targets: Self.oneTarget, ci: "relctl = \"release\"\nrelctl-minisign-key = \"\(keys.publicKey)\"")
        let tag = "v1.0.0"
        try fixture.pushTag(tag)

        // relctl's release: the relctl under test in relctl's archive layout, its SHA256SUMS signed.
        let published = try TemporaryDirectory(prefix: "relctl-published")
        let (good, goodSHA256) = try Self.archive(of: relctlBinary, in: published, named: "good")
        let sums = "\(goodSHA256)  \(Self.linuxStem).tar.gz\n"
        try published.write("SHA256SUMS", sums)
        let signature = try Self.sign(published.url.appendingPathComponent("SHA256SUMS"), keys: keys)

        // A tampered relctl: a script that leaves a mark if it ever runs.
        let mark = published.url.appendingPathComponent("tampered-relctl-ran")
        let script = published.url.appendingPathComponent("tampered")
        try "#!/bin/sh\ntouch '\(mark.path)'\n".write(to: script, atomically: true, encoding: .utf8)
        try #require(try run("chmod", ["+x", script.path]).status == 0)
        let (tampered, tamperedSHA256) = try Self.archive(of: script, in: published, named: "bad")
        let rewrittenSums = "\(tamperedSHA256)  \(Self.linuxStem).tar.gz\n"

        let cases: [(String, [String: Data], Bool)] = [
            (
                "the published archive",
                ["SHA256SUMS": Data(sums.utf8), "SHA256SUMS.minisig": signature, "\(Self.linuxStem).tar.gz": good], true
            ),
            (
                "a tampered archive",
                ["SHA256SUMS": Data(sums.utf8), "SHA256SUMS.minisig": signature, "\(Self.linuxStem).tar.gz": tampered],
                false
            ),
            (
                "a tampered archive with SHA256SUMS rewritten to match",
                [
                    "SHA256SUMS": Data(rewrittenSums.utf8), "SHA256SUMS.minisig": signature,
                    "\(Self.linuxStem).tar.gz": tampered,
                ], false
            ),
        ]
        for (what, assets, accepted) in cases {
            let relctlReleases = try GitHubStandIn(repository: "relctl/relctl", tags: [])
            defer { relctlReleases.stop() }
            try await relctlReleases.seed(tag: "v\(Self.version)", draft: false, assets: assets)
            let workflow = try String(contentsOf: fixture.workflow, encoding: .utf8)
            #expect(workflow.contains("RELCTL_INSTALL_REPOSITORY: 'https://github.com/relctl/relctl'"))
            // github.com, for this run, is the stand-in.
            let pointed = try published.write(
                "release-\(accepted).yml",
                workflow.replacingOccurrences(
                    of: "https://github.com/relctl/relctl",
                    with: "http://127.0.0.1:\(relctlReleases.port)/relctl/relctl"))
            let project = try GitHubStandIn(repository: "acme/multi", tags: [], gitDirectory: fixture.remote.url)
            defer { project.stop() }
            let outcome = try fixture.runWorkflow(
                tag: tag, standIn: project, repository: "acme/multi", workflow: pointed)
            let jobs = try #require(outcome.report?.jobs, "\(what): \(outcome)")
            if accepted {
                #expect(outcome.status == 0, "\(what): \(outcome)")
                #expect(jobs.map(\.id) == ["plan", "build", "release"] && jobs.allSatisfy { $0.result == "success" })
                // Every job fetched the archive itself (through the release page's redirect).
                let downloads = try await relctlReleases.log().filter { $0.path.hasPrefix("/release-assets/") }
                #expect(
                    downloads.count == 3 * 3, "SHA256SUMS, its signature and the archive, in 3 jobs: \(downloads.count)"
                )
                let releases = try await project.releases()
                #expect(releases.count == 1 && releases[0].tag_name == tag, "\(releases)")
                #expect(
                    releases.first?.assets.contains { $0.name == "multi-v1.0.0-x86_64-unknown-linux-gnu.tar.gz" }
                        == true)
            } else {
                #expect(outcome.status == 1, "\(what): \(outcome)")
                let plan = try #require(jobs.first { $0.id == "plan" })
                #expect(plan.result == "failure", "\(what): \(outcome)")
                #expect(plan.steps.first { $0.name == "Install relctl" }?.result == "failure", "\(what)")
                #expect(jobs.dropFirst().allSatisfy { $0.result == "skipped" }, "\(what): \(jobs.map(\.result))")
                #expect(try await project.releases().isEmpty, "\(what): nothing published")
            }
            #expect(!FileManager.default.fileExists(atPath: mark.path), "\(what): the tampered relctl ran")
        }
    }

    // MARK: -

    /// `relctl ci generate` on the matrix fixture project with `ci` as its `[ci]` table.
    static func generate(ci: String, in dir: TemporaryDirectory) throws -> RunResult {
        try MatrixFixtures.project(in: dir)
        let config = try dir.read("relctl.toml")
        try dir.write("relctl.toml", config + "\n[ci]\n\(ci)\n")
        return try relctl(["ci", "generate"], in: dir.url)
    }

    /// A minisign key pair without a password, made by the real minisign.
    static func minisignKeyPair() throws -> (folder: TemporaryDirectory, publicKey: String, secretKey: URL) {
        let folder = try TemporaryDirectory(prefix: "relctl-minisign")
        let secret = folder.url.appendingPathComponent("relctl.key")
        let made = try CIGenerateCLITests.tool(
            "minisign", ["-G", "-W", "-p", folder.url.appendingPathComponent("relctl.pub").path, "-s", secret.path],
            in: folder.url)
        try #require(made.status == 0, "\(made)")
        let pub = try folder.read("relctl.pub").split(separator: "\n").map(String.init)
        return (folder, try #require(pub.last), secret)
    }

    static func sign(_ file: URL, keys: (folder: TemporaryDirectory, publicKey: String, secretKey: URL)) throws -> Data
    {
        let signed = try run("minisign", ["-S", "-s", keys.secretKey.path, "-m", file.path])
        try #require(signed.status == 0, "\(signed)")
        return try Data(contentsOf: URL(fileURLWithPath: file.path + ".minisig"))
    }

    /// `binary` as `relctl` in the archive layout of relctl's release (one top folder, the stem):
    /// the archive's bytes and their SHA-256 as sha256sum prints it.
    static func archive(of binary: URL, in folder: TemporaryDirectory, named name: String) throws -> (Data, String) {
        let stage = folder.url.appendingPathComponent("\(name)/\(linuxStem)")
        try FileManager.default.createDirectory(at: stage, withIntermediateDirectories: true)
        try #require(try run("cp", [binary.path, stage.appendingPathComponent("relctl").path]).status == 0)
        let file = folder.url.appendingPathComponent("\(name).tar.gz")
        let packed = try run("tar", ["-czf", file.path, "-C", folder.url.appendingPathComponent(name).path, linuxStem])
        try #require(packed.status == 0, "\(packed)")
        let sum = try run("sha256sum", [file.path])
        let hex = try #require(sum.stdout.split(separator: " ").first.map(String.init), "\(sum)")
        return (try Data(contentsOf: file), hex)
    }
}
