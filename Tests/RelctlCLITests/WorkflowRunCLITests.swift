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

/// The workflow `relctl ci generate` writes, executed job by job as GitHub would for a tag push
/// (Tests/Support/workflow_runner.py), publishing to the GitHub stand-in: what CI publishes must
/// be what `relctl release --dry-run` predicts for the same commit (issue 24).
@Suite("The generated workflow, run", .serialized, .timeLimit(.minutes(60)), .removesTemporaries)
struct WorkflowRunCLITests {
    static let tag = "v1.0.0"

    /// Pushes the tag, runs the workflow, and checks every promise of a published release.
    @Test func multiTargetReleaseEqualsTheDryRunAndRerunsAsANoOp() async throws {
        let fixture = try WorkflowFixture()
        try await releaseThroughTheWorkflow(fixture, repository: "acme/multi", targets: 4)
    }

    /// A `{project}-v{version}` tag format (the trigger filter `sdk-v*.*.*`) and a prerelease,
    /// which GitHub must show as one; a tag the filter does not match runs nothing.
    @Test func projectTagFormatPrereleaseThroughTheWorkflow() async throws {
        let targets = """
            [[target]]
            triple = "x86_64-unknown-linux-musl"

            [[target]]
            triple = "x86_64-pc-windows-gnu"
            runner = "ubuntu-latest"

            """
        let fixture = try WorkflowFixture(
            name: "sdk", version: "2.0.0-rc.1", tagFormat: "{project}-v{version}", targets: targets)
        let release = try await releaseThroughTheWorkflow(
            fixture, tag: "sdk-v2.0.0-rc.1", repository: "acme/sdk", targets: 2)
        #expect(release?.prerelease == true)

        try fixture.pushTag("v2.0.0")
        let standIn = try GitHubStandIn(repository: "acme/sdk", tags: [], gitDirectory: fixture.remote.url)
        defer { standIn.stop() }
        let untriggered = try fixture.runWorkflow(tag: "v2.0.0", standIn: standIn, repository: "acme/sdk")
        #expect(untriggered.status == 1 && untriggered.report?.result == "not-triggered", "\(untriggered)")
    }

    @Test func velostreamExampleReleasesThroughItsWorkflow() async throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/velostream")
        // Its [npm] packages and [pypi] wheels go to a registry stand-in and a local pypiserver,
        // with the tokens the release job takes from the repository's secrets.
        let npm = try NpmRegistryStandIn()
        defer { npm.stop() }
        let index = try PythonWheelCLITests.LocalIndex()
        defer { index.stop() }
        let fixture = try WorkflowFixture(copying: example) { config in
            config.replacingOccurrences(of: "\n[npm]\n", with: "\n[npm]\nregistry = \"\(npm.url)\"\n")
                .replacingOccurrences(of: "\n[pypi]\n", with: "\n[pypi]\nrepository-url = \"\(index.url)\"\n")
        }
        // Its stand-in builds run anywhere, so its macOS and Windows legs run here too.
        try await releaseThroughTheWorkflow(
            fixture, repository: "acme/velostream", targets: 5,
            runAsLinux: ["macos-15-intel", "macos-14", "windows-latest"],
            secrets: ["NPM_TOKEN": NpmRegistryStandIn.token, "PYPI_TOKEN": PythonWheelCLITests.token])
        // Each build job wrote its target's npm package and wheel (and the same main package); the
        // release job listed them and its `relctl publish` sent each once (the re-run sent nothing).
        let puts = try await npm.log().filter { $0.method == "PUT" }
        #expect(puts.count == 6 && puts.allSatisfy { $0.status == 200 }, "\(puts)")
        #expect(puts.last?.path == "/@acme%2fvelostream", "the main package goes last: \(puts)")
        #expect(try index.files().count == 5 && index.files().allSatisfy { $0.hasPrefix("velostream-1.0.0-py3-none-") })
    }

    /// A tag-only project (Examples/workspace-tag-only: no `[[target]]`) gets one release job:
    /// the tag is checked against the Cargo workspace, the notes are the release's body, nothing
    /// is attached, and a re-run writes nothing. A tag the manifests disagree with publishes nothing.
    @Test func tagOnlyExampleReleasesItsNotesThroughItsWorkflow() async throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/workspace-tag-only")
        let fixture = try WorkflowFixture(copying: example)
        let repository = "acme/tally"
        let standIn = try GitHubStandIn(repository: repository, tags: [], gitDirectory: fixture.remote.url)
        defer { standIn.stop() }

        // The workspace is at 0.3.0: v0.4.0 fails the tag check before any notes or request that writes.
        try fixture.pushTag("v0.4.0")
        let wrong = try fixture.runWorkflow(tag: "v0.4.0", standIn: standIn, repository: repository)
        #expect(wrong.status == 1, "\(wrong)")
        let refused = try #require(wrong.report?.jobs.first { $0.id == "release" }, "\(wrong)")
        #expect(refused.steps.first { $0.name == "Check the tag against the manifests" }?.result == "failure")
        #expect(refused.steps.first { $0.name == "Publish the GitHub release" }?.result == "skipped")
        #expect(try await standIn.releases().isEmpty)
        try fixture.repository.git("tag", "-d", "v0.4.0")
        try fixture.repository.git("push", "-q", "origin", ":refs/tags/v0.4.0")

        let tag = "v0.3.0"
        try fixture.pushTag(tag)
        let outcome = try fixture.runWorkflow(tag: tag, standIn: standIn, repository: repository)
        #expect(outcome.status == 0, "\(outcome)")
        let jobs = try #require(outcome.report?.jobs, "\(outcome)")
        #expect(jobs.map(\.id) == ["release"] && jobs[0].result == "success", "\(outcome)")
        #expect(
            jobs[0].steps.map(\.name) == [
                "Check out", "Install relctl", "Check the tag against the manifests", "Write the release notes",
                "Publish the GitHub release",
            ])

        // The notes relctl writes for this tag on a maintainer's machine are the release's body.
        let notes = fixture.url.appendingPathComponent("expected-notes.md")
        let written = try relctl(["notes", "--tag", tag, "--output", notes.path], in: fixture.url)
        try #require(written.status == 0, "\(written)")
        let expected = try String(contentsOf: notes, encoding: .utf8)
        let releases = try await standIn.releases()
        try #require(releases.count == 1, "\(releases)")
        let release = releases[0]
        #expect(release.tag_name == tag && !release.draft && !release.prerelease, "\(release)")
        #expect(release.assets.isEmpty, "a tag-only release has no assets: \(release.assets.map(\.name))")
        #expect(!expected.isEmpty && release.body == expected, "body \(release.body ?? "nil"), notes \(expected)")

        let requestsBefore = try await standIn.log().count
        let again = try fixture.runWorkflow(tag: tag, standIn: standIn, repository: repository)
        #expect(again.status == 0, "\(again)")
        let writes = try await standIn.log().dropFirst(requestsBefore).filter { $0.method != "GET" }
        #expect(writes.isEmpty, "a re-run wrote to the release: \(writes.map { "\($0.method) \($0.path)" })")
        let after = try await standIn.releases()
        #expect(after.count == 1 && after[0].body == expected && after[0].assets.isEmpty)
    }

    @Test func aFailedBuildPublishesNothing() async throws {
        let targets =
            WorkflowFixture.multiTargets + """
                [[target]]
                triple = "riscv64gc-unknown-linux-gnu"
                command = "echo 'no riscv toolchain here' >&2; exit 3"

                """
        let fixture = try WorkflowFixture(targets: targets)
        try fixture.pushTag(Self.tag)
        let standIn = try GitHubStandIn(repository: "acme/multi", tags: [], gitDirectory: fixture.remote.url)
        defer { standIn.stop() }
        let outcome = try fixture.runWorkflow(tag: Self.tag, standIn: standIn, repository: "acme/multi")
        #expect(outcome.status == 1, "\(outcome)")
        let jobs = try #require(outcome.report?.jobs, "\(outcome)")
        let builds = jobs.filter { $0.id == "build" }
        #expect(builds.count == 5)
        #expect(builds.filter { $0.result == "success" }.count == 4, "fail-fast: false keeps the other legs")
        #expect(builds.first { $0.matrix?["target"] == "riscv64gc-unknown-linux-gnu" }?.result == "failure")
        #expect(jobs.first { $0.id == "release" }?.result == "skipped")
        #expect(try await standIn.releases().isEmpty)
        #expect(try await standIn.log().allSatisfy { $0.method == "GET" }, "no request that writes")
    }

    /// A typo in a matrix expression and a release job that never downloads the archives: the
    /// runner must fail both, never fake its way past them.
    @Test func brokenWorkflowsFailTheRun() async throws {
        let fixture = try WorkflowFixture()
        try fixture.pushTag(Self.tag)
        let standIn = try GitHubStandIn(repository: "acme/multi", tags: [], gitDirectory: fixture.remote.url)
        defer { standIn.stop() }
        let generated = try String(contentsOf: fixture.workflow, encoding: .utf8)
        let broken = try TemporaryDirectory(prefix: "relctl-broken")

        let typos = [
            ("fromJSON(needs.plan.outputs.matrix)", "fromJSON(needs.plan.outputs.matrx)", "needs.plan.outputs.matrx"),
            ("TARGET: ${{ matrix.target }}", "TARGET: ${{ matrix.targte }}", "matrix.targte"),
            ("fromJSON(needs.plan", "fromJSONN(needs.plan", "fromJSONN"),
        ]
        for (index, (right, wrong, named)) in typos.enumerated() {
            #expect(generated.contains(right))
            let file = try broken.write("typo-\(index).yml", generated.replacingOccurrences(of: right, with: wrong))
            let outcome = try fixture.runWorkflow(
                tag: Self.tag, standIn: standIn, repository: "acme/multi", workflow: file)
            #expect(outcome.status == 2, "\(outcome)")
            #expect(outcome.log.contains(named), "\(outcome)")
        }

        // The release job without its download step: nothing to checksum, nothing published.
        let lines = generated.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.contains("- name: Download the archives") })
        let end = try #require(lines[(start + 1)...].firstIndex { $0.hasPrefix("      - name:") })
        let withoutDownload = (lines[..<start] + lines[end...]).joined(separator: "\n")
        let file = try broken.write("no-download.yml", withoutDownload)
        let outcome = try fixture.runWorkflow(tag: Self.tag, standIn: standIn, repository: "acme/multi", workflow: file)
        #expect(outcome.status == 1, "\(outcome)")
        let release = try #require(outcome.report?.jobs.first { $0.id == "release" })
        #expect(release.result == "failure")
        #expect(release.steps.first { $0.name == "Write SHA256SUMS" }?.result == "failure")
        #expect(release.steps.first { $0.name == "Publish the GitHub release" }?.result == "skipped")
        #expect(try await standIn.releases().isEmpty)
    }

    /// The generated default "Install relctl" step installs, on each runner kind, exactly what
    /// building relctl needs (read from the workflow as a YAML reader sees it). The expectation
    /// does not come from the generator's own list: it is the system libraries' providers that
    /// Package.swift names (`.apt([...])`, `.brew([...])`), which SwiftPM itself reads, plus the
    /// pkg-config tool SwiftPM runs to find them (Debian's `pkg-config`, Homebrew's `pkgconf`).
    @Test func defaultInstallStepInstallsTheListedPackages() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        func providers(_ kind: String) -> [String] {
            manifest.matches(of: try! Regex(#"\.\#(kind)\(\[([^\]]*)\]\)"#)).flatMap { match in
                (match.output[1].substring ?? "").split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                }
            }
        }
        let expectedApt = providers("apt") + ["pkg-config"]
        let expectedBrew = providers("brew") + ["pkgconf"]
        #expect(
            expectedApt.count == 4 && expectedApt.contains("libarchive-dev"), "read from Package.swift: \(expectedApt)")
        let lines = try Self.defaultInstallLines()
        let apt = try #require(lines.first { $0.contains("apt-get install -y -qq -o DPkg::Lock::Timeout=600 ") })
        #expect(
            apt.components(separatedBy: "apt-get install -y -qq -o DPkg::Lock::Timeout=600 ").last?.split(separator: " ").map(String.init)
                == expectedApt, "\(apt)")
        let brew = try #require(lines.first { $0.hasPrefix("brew install ") })
        #expect(brew.dropFirst("brew install ".count).split(separator: " ").map(String.init) == expectedBrew, "\(brew)")
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The default step's Linux `apt-get install`, run for real (idempotent on a machine that
    /// builds relctl), must leave what Package.swift reads: the pkg-config files it names and
    /// libdeflate's header and static library.
    @Test(.requires(.root, .packageInstall))
    func defaultInstallStepsAptLineInstallsWhatTheBuildNeeds() throws {
        let apt = try #require(try Self.defaultInstallLines().first { $0.contains("apt-get install -y -qq -o DPkg::Lock::Timeout=600 ") })
        let packages = try #require(apt.components(separatedBy: "apt-get install -y -qq -o DPkg::Lock::Timeout=600 ").last)
        // Waits for the dpkg lock: relctl's own workflow's install step (OwnWorkflowRunCLITests,
        // running beside this one) may hold it, and on a machine whose packages came in just
        // before, its `apt-get update` held it long enough to fail this step (exit 100).
        let install = try sh(
            "apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends \(packages)",
            environment: ["DEBIAN_FRONTEND": "noninteractive"])
        #expect(install.status == 0, "\(install)")
        // The pkg-config names Package.swift gives SwiftPM (libdeflate has none on Linux: it links statically).
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        // (RELCTL_STATIC=1, relctl's own release build, sets them to nil: scripts/build-release.)
        let pkgConfigNames = manifest.matches(of: #/pkgConfig: (?:staticCLibraries \? nil : )?"([^"]+)"/#).map {
            String($0.output.1)
        }
        #expect(pkgConfigNames == ["libarchive", "libsodium"], "read from Package.swift: \(pkgConfigNames)")
        let found = try sh("pkg-config --exists \(pkgConfigNames.joined(separator: " "))")
        #expect(found.status == 0, "\(found)")
        let deflate = try sh("dpkg -L libdeflate-dev")
        #expect(deflate.stdout.contains("/usr/include/libdeflate.h"))
        #expect(deflate.stdout.contains("/libdeflate.a"), "RelctlArtifacts links libdeflate statically on Linux")
    }

    /// The lines of the default "Install relctl" step of a freshly generated workflow.
    static func defaultInstallLines() throws -> [String] {
        let project = try TemporaryDirectory(prefix: "relctl-default-setup")
        try MatrixFixtures.project(in: project)
        let generate = try relctl(["ci", "generate"], in: project.url)
        try #require(generate.status == 0, "\(generate)")
        let read = try run(
            "python3",
            [
                "-c",
                "import sys, yaml; w = yaml.safe_load(open(sys.argv[1])); "
                    + "print(next(s['run'] for s in w['jobs']['build']['steps'] if s.get('name') == 'Install relctl'))",
                project.url.appendingPathComponent(".github/workflows/release.yml").path,
            ])
        try #require(read.status == 0, "\(read)")
        return read.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    // MARK: -

    /// Returns the published release (nil when there was none to return).
    @discardableResult
    private func releaseThroughTheWorkflow(
        _ fixture: WorkflowFixture, tag: String = WorkflowRunCLITests.tag, repository: String, targets: Int,
        runAsLinux: [String] = [], secrets: [String: String] = [:]
    ) async throws -> GitHubStandIn.Release? {
        // What a maintainer's dry run predicts for this very commit, before the tag exists.
        let dryRun = try relctl(["release", tag, "--dry-run", "--keep", "--json"], in: fixture.url)
        try #require(dryRun.status == 0, "\(dryRun)")
        let plan = try JSONDecoder().decode(PlanDocument.self, from: Data(dryRun.stdout.utf8))
        // One archive per target (manifest.json's artifacts also hold the npm packages, `.tgz`).
        #expect(plan.artifacts.filter { !$0.name.hasSuffix(".tgz") }.count == targets)
        // Every file the dry run's SHA256SUMS lists (archives and their SBOMs), with its SHA256.
        let scratch = try #require(plan.scratch)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let predictedSums = try sh("cat */dist/SHA256SUMS", in: URL(fileURLWithPath: scratch))
        try #require(predictedSums.status == 0, "\(predictedSums)")
        let predicted = Dictionary(
            uniqueKeysWithValues: predictedSums.stdout.split(separator: "\n").map { line in
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                return (String(fields.last!), String(fields.first!))
            })
        #expect(Set(plan.artifacts.map(\.name)).isSubset(of: predicted.keys))

        try fixture.pushTag(tag)
        let standIn = try GitHubStandIn(repository: repository, tags: [], gitDirectory: fixture.remote.url)
        defer { standIn.stop() }
        let outcome = try fixture.runWorkflow(
            tag: tag, standIn: standIn, repository: repository, runAsLinux: runAsLinux, secrets: secrets)
        #expect(outcome.status == 0, "\(outcome)")
        let jobs = try #require(outcome.report?.jobs, "\(outcome)")
        #expect(jobs.map(\.id) == ["plan"] + Array(repeating: "build", count: targets) + ["release"])
        #expect(jobs.allSatisfy { $0.result == "success" }, "\(outcome)")

        // One public release whose archives are the dry run's, byte for byte.
        let releases = try await standIn.releases()
        try #require(releases.count == 1, "\(releases)")
        let release = releases[0]
        #expect(release.tag_name == tag && !release.draft)
        let assets = Dictionary(uniqueKeysWithValues: release.assets.map { ($0.name, $0) })
        for artifact in plan.artifacts {
            #expect(assets[artifact.name]?.digest == "sha256:" + artifact.sha256, "\(artifact.name)")
        }
        for (name, sha256) in predicted {
            #expect(assets[name]?.digest == "sha256:" + sha256, "\(name): published as the dry run made it")
        }
        #expect(assets["SHA256SUMS"] != nil && assets["manifest.json"] != nil)
        #expect(!assets.keys.contains { $0.hasSuffix(".sha256") }, "per-archive .sha256 files stay CI's hand-over")

        // Downloaded as a user would (the API's octet-stream download), they check out.
        let downloads = try TemporaryDirectory(prefix: "relctl-downloads")
        for asset in release.assets {
            let fetched = try run(
                "curl",
                [
                    "-fsS", "-H", "Authorization: Bearer \(GitHubStandIn.token)", "-H",
                    "Accept: application/octet-stream",
                    "-H", "User-Agent: relctl-tests", "-o", downloads.url.appendingPathComponent(asset.name).path,
                    "\(standIn.apiURL)/repos/\(repository)/releases/assets/\(asset.id)",
                ])
            try #require(fetched.status == 0, "\(fetched)")
        }
        let sums = try downloads.read("SHA256SUMS")
        let listed = Set(sums.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) })
        #expect(
            Set(assets.keys) == listed.union(["SHA256SUMS", "manifest.json"]),
            "assets = SHA256SUMS' files + it + manifest")
        #expect(listed == Set(predicted.keys), "CI's SHA256SUMS lists what the dry run's lists")
        let check = try sh("sha256sum -c SHA256SUMS", in: downloads.url)
        #expect(check.status == 0, "\(check)")
        struct Manifest: Decodable {
            struct Artifact: Decodable { var name: String; var target: String?; var sha256: String }
            var tag: String
            var artifacts: [Artifact]
        }
        let manifest = try JSONDecoder().decode(
            Manifest.self, from: Data(contentsOf: downloads.url.appendingPathComponent("manifest.json")))
        #expect(manifest.tag == tag)
        #expect(
            Set(manifest.artifacts.compactMap(\.target)) == Set(plan.artifacts.map(\.target)),
            "manifest.json lists every target")

        // Every job again (a re-run of the whole workflow from fresh runners): nothing changes.
        let requestsBefore = try await standIn.log().count
        let again = try fixture.runWorkflow(
            tag: tag, standIn: standIn, repository: repository, runAsLinux: runAsLinux, secrets: secrets)
        #expect(again.status == 0, "\(again)")
        let writes = try await standIn.log().dropFirst(requestsBefore).filter { $0.method != "GET" }
        #expect(writes.isEmpty, "a re-run wrote to the release: \(writes.map { "\($0.method) \($0.path)" })")
        let after = try await standIn.releases()
        #expect(after.count == 1 && after[0].assets.map(\.digest) == release.assets.map(\.digest))
        return release
    }
}
