import Foundation
import RelctlArtifacts
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

/// Release shapes real projects have (issue 40): archive names without the version, flat
/// archives, several formats per target, Go-style names, chart-only projects.
@Suite(.serialized, .timeLimit(.minutes(45)), .removesTemporaries) struct ReleaseShapesCLITests {
    /// The fixture's relctl.toml with `text` added to its `[archive]` table, committed and pushed.
    private func setArchive(_ fixture: ReleaseFixture, _ text: String) throws {
        let config = try fixture.repository.directory.read("relctl.toml")
        try fixture.repository.commit(
            "chore: archive settings",
            files: ["relctl.toml": config.replacingOccurrences(of: "[archive]\n", with: "[archive]\n" + text)])
        try fixture.repository.git("push", "-q", "origin", "main")
    }

    /// The fixture's relctl.toml with `old` replaced by `new`, committed and pushed.
    private func editConfig(_ fixture: ReleaseFixture, _ old: String, _ new: String) throws {
        let config = try fixture.repository.directory.read("relctl.toml")
        #expect(config.contains(old), "the fixture's relctl.toml holds \(old)")
        try fixture.repository.commit(
            "chore: config", files: ["relctl.toml": config.replacingOccurrences(of: old, with: new)])
        try fixture.repository.git("push", "-q", "origin", "main")
    }

    private func sha256(_ url: URL) throws -> String {
        String(try run("sha256sum", [url.path]).stdout.prefix(64))
    }

    /// eza's `{project}_{target}`: every release writes the same names. The second release must
    /// not replace the first one's archive, `.sha256` and SBOM (old code did, warning "they stay").
    @Test func versionlessNamesNeverReplaceAnotherReleasesFiles() throws {
        let fixture = try ReleaseFixture()
        try setArchive(fixture, "name = \"{project}_{target}\"\n")
        let first = try relctl(["release", "v1.0.0"], in: fixture.url)
        #expect(first.status == 0, "\(first)")
        let dist = fixture.url.appendingPathComponent("dist")
        let stem = "demo_x86_64-unknown-linux-gnu"
        let files = [stem + ".tar.gz", stem + ".tar.gz.sha256", stem + ".cdx.json"]
        var before: [String: String] = [:]
        for name in files { before[name] = try sha256(dist.appendingPathComponent(name)) }

        try fixture.repository.commit("feat: more", files: ["VERSION": "1.1.0\n", "src/more.txt": "more\n"])
        try fixture.repository.git("push", "-q", "origin", "main")
        let second = try relctl(["release", "v1.1.0"], in: fixture.url)
        #expect(second.status == 1, "\(second)")
        #expect(second.stderr.contains("has no {version} or {tag}") && second.stderr.contains(stem), "\(second.stderr)")
        #expect(second.stderr.contains("of v1.0.0"), "names the release the files belong to: \(second.stderr)")
        for name in files { #expect(try sha256(dist.appendingPathComponent(name)) == before[name], "\(name) kept") }
        #expect(try fixture.localTags() == ["v1.0.0"], "nothing was tagged")

        // Deleting (or moving away) the earlier release is the way on.
        try FileManager.default.removeItem(at: dist)
        let again = try relctl(["release", "v1.1.0"], in: fixture.url)
        #expect(again.status == 0, "\(again)")
        let listing = try run("tar", ["-tzf", dist.appendingPathComponent(stem + ".tar.gz").path]).stdout
        #expect(listing.contains("\(stem)/bin/hello"), "\(listing)")
    }

    /// GoReleaser's default: no top folder. `tar`, `unzip` and the SBOM see the files at the root.
    @Test func flatArchivesHoldTheirFilesAtTheRoot() throws {
        let fixture = try ReleaseFixture()
        try setArchive(fixture, "name = \"{project}_{os}_{arch}\"\ntop-folder = false\n")
        try editConfig(
            fixture, "[[target]]\ntriple = \"aarch64-unknown-linux-gnu\"\n",
            "[[target]]\ntriple = \"aarch64-unknown-linux-gnu\"\nformat = \"zip\"\n")
        let checked = try relctl(["check"], in: fixture.url)
        #expect(checked.status == 0, "\(checked)")
        let released = try relctl(["release", "v1.0.0"], in: fixture.url)
        #expect(released.status == 0, "\(released)")
        let dist = fixture.url.appendingPathComponent("dist")
        let tarList = try run("tar", ["-tzf", dist.appendingPathComponent("demo_linux_x86_64.tar.gz").path]).stdout
            .split(separator: "\n").map(String.init).sorted()
        #expect(tarList.contains("bin/hello") && tarList.contains("README.md"), "\(tarList)")
        #expect(!tarList.contains { $0.hasPrefix("demo_linux_x86_64") }, "no top folder: \(tarList)")
        let zipList = try run("unzip", ["-Z1", dist.appendingPathComponent("demo_linux_aarch64.zip").path]).stdout
        #expect(zipList.split(separator: "\n").contains("bin/hello"), "\(zipList)")
        #expect(!zipList.contains("demo_linux_aarch64/"), "\(zipList)")
        let sbom = try fixture.repository.directory.read("dist/demo_linux_x86_64.cdx.json")
        #expect(sbom.contains("\"bin/hello\""), "the SBOM names the files where they are")
        let unpacked = fixture.url.appendingPathComponent("unpacked")
        try FileManager.default.createDirectory(at: unpacked, withIntermediateDirectories: true)
        _ = try run("tar", ["-xzf", dist.appendingPathComponent("demo_linux_x86_64.tar.gz").path, "-C", unpacked.path])
        let output = try run(unpacked.appendingPathComponent("bin/hello").path, []).stdout
        #expect(output.contains("hello 1.0.0 x86_64-unknown-linux-gnu"), "\(output)")
    }

    /// One target in tar.gz and zip (`format = ["tar.gz", "zip"]`): `check` accepts it, each
    /// archive gets its own SBOM, and SHA256SUMS lists every file once.
    @Test func oneTargetShipsSeveralFormats() throws {
        let fixture = try ReleaseFixture()
        try editConfig(
            fixture, "[[target]]\ntriple = \"aarch64-unknown-linux-gnu\"\n",
            "[[target]]\ntriple = \"aarch64-unknown-linux-gnu\"\nformat = [\"tar.gz\", \"zip\"]\n")
        let checked = try relctl(["check"], in: fixture.url)
        #expect(checked.status == 0, "\(checked)")
        let matrix = try relctl(["matrix"], in: fixture.url)
        #expect(matrix.stdout.contains("tar.gz,zip"), "the matrix shows both formats: \(matrix)")
        let released = try relctl(["release", "v1.0.0"], in: fixture.url)
        #expect(released.status == 0, "\(released)")
        let dist = fixture.url.appendingPathComponent("dist")
        let stem = "demo-v1.0.0-aarch64-unknown-linux-gnu"
        for format in ["tar.gz", "zip"] {
            let sbom = try fixture.repository.directory.read("dist/\(stem).\(format).cdx.json")
            #expect(sbom.contains("\"\(stem).\(format)\""), "the \(format) SBOM describes the \(format) archive")
        }
        let sums = try fixture.repository.directory.read("dist/SHA256SUMS")
        let names = sums.split(separator: "\n").map { String($0.split(separator: " ").last ?? "") }
        #expect(Set(names).count == names.count, "each file once: \(sums)")
        for name in ["\(stem).tar.gz", "\(stem).zip", "\(stem).tar.gz.cdx.json", "\(stem).zip.cdx.json"] {
            #expect(names.contains(name), "\(name) listed: \(sums)")
        }
        let verified = try run("sha256sum", ["-c", "SHA256SUMS"], in: dist)
        #expect(verified.status == 0, "\(verified)")
        let manifest = try #require(try ReleaseManifest.read(in: dist))
        #expect(
            manifest.artifacts.filter { $0.target == "aarch64-unknown-linux-gnu" }.map(\.format).sorted()
                == ["tar.gz", "zip"], "\(manifest.artifacts)")
    }

    /// k9s's `{project}_{os}_{arch}`, in CI: each job packages one target, the merge job has only
    /// the archives and runs `relctl checksum`. manifest.json keeps every archive's target, and the
    /// tag, version and commit (old code: targets dropped, and an empty tag, version and commit).
    @Test func goStyleNamesKeepTargetsAndTheReleaseInTheCIMerge() throws {
        let fixture = try ReleaseFixture()
        try setArchive(fixture, "name = \"{project}_{os}_{arch}\"\n")
        try fixture.repository.git("tag", "-a", "v1.0.0", "-m", "v1.0.0")
        let commit = try fixture.repository.git("rev-parse", "HEAD").trimmingCharacters(in: .whitespacesAndNewlines)
        let triples = ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu"]
        let merged = fixture.url.appendingPathComponent("merged")
        try FileManager.default.createDirectory(at: merged, withIntermediateDirectories: true)
        for triple in triples {
            let out = "job-\(triple)"
            let built = try relctl(["build", "--target", triple, "--tag", "v1.0.0"], in: fixture.url)
            #expect(built.status == 0, "\(built)")
            let packaged = try relctl(
                ["package", "--tag", "v1.0.0", "--target", triple, "--out", out], in: fixture.url)
            #expect(packaged.status == 0, "\(packaged)")
            for name in try FileManager.default.contentsOfDirectory(
                atPath: fixture.url.appendingPathComponent(out).path)
            where name != "manifest.json" {
                try FileManager.default.copyItem(
                    at: fixture.url.appendingPathComponent(out).appendingPathComponent(name),
                    to: merged.appendingPathComponent(name))
            }
        }
        let summed = try relctl(["checksum", "merged"], in: fixture.url)
        #expect(summed.status == 0, "\(summed)")
        let manifest = try #require(try ReleaseManifest.read(in: merged))
        #expect(manifest.artifacts.map(\.name).sorted() == ["demo_linux_aarch64.tar.gz", "demo_linux_x86_64.tar.gz"])
        #expect(manifest.artifacts.map(\.target).sorted() == triples.sorted(), "\(manifest.artifacts)")
        #expect(manifest.tag == "v1.0.0" && manifest.version == "1.0.0", "\(manifest)")
        #expect(manifest.commit == commit, "\(manifest)")

        // Without the tag on HEAD, the manifest cannot name the release: said, not silent.
        try fixture.repository.git("tag", "-d", "v1.0.0")
        try FileManager.default.removeItem(at: merged.appendingPathComponent("manifest.json"))
        let untagged = try relctl(["checksum", "merged"], in: fixture.url)
        #expect(untagged.status == 0 && untagged.stderr.contains("HEAD carries no release tag"), "\(untagged)")
    }

    /// A chart project: `relctl.toml` with `extra`, a chart in `charts/metrics-server` at
    /// `chartVersion` for the application at `appVersion`, committed on `main`.
    private func chartProject(extra: String, chartVersion: String, appVersion: String) throws -> GitRepository {
        let repository = try GitRepository()
        let config = """
            [project]
            name = "metrics-server"

            [[chart]]
            path = "charts/metrics-server"
            \(extra)
            """
        _ = try repository.commit(
            "feat: chart",
            files: [
                "relctl.toml": config, ".gitignore": "dist/\n", "VERSION": appVersion + "\n",
                "charts/metrics-server/Chart.yaml":
                    "apiVersion: v2\nname: metrics-server\ndescription: Metrics Server\nversion: \(chartVersion)\nappVersion: \"\(appVersion)\"\n",
                "charts/metrics-server/values.yaml": "replicas: 1\n",
                "charts/metrics-server/templates/service.yaml": "apiVersion: v1\nkind: Service\n",
            ])
        return repository
    }

    /// metrics-server: `[[chart]]` and no `[[target]]`. `release` packages the chart (old code:
    /// exit 0 with no chart), and `relctl chart` works with no archives and no dist/manifest.json.
    @Test func aChartOnlyProjectReleasesItsChart() throws {
        let repository = try chartProject(extra: "", chartVersion: "0.9.0", appVersion: "0.9.0")
        let released = try relctl(["release", "v0.9.0"], in: repository.url)
        #expect(released.status == 0, "\(released)")
        let dist = repository.url.appendingPathComponent("dist")
        let chart = dist.appendingPathComponent("metrics-server-0.9.0.tgz")
        let listing = try run("tar", ["-tzf", chart.path]).stdout
        #expect(listing.contains("metrics-server/Chart.yaml"), "\(listing)")
        #expect(listing.contains("metrics-server/templates/service.yaml"), "\(listing)")
        let sums = try repository.directory.read("dist/SHA256SUMS")
        #expect(sums.contains("metrics-server-0.9.0.tgz"), "\(sums)")
        let verified = try run("sha256sum", ["-c", "SHA256SUMS"], in: dist)
        #expect(verified.status == 0, "\(verified)")

        let packaged = try Data(contentsOf: chart)
        try FileManager.default.removeItem(at: dist)
        let again = try relctl(["chart", "--tag", "v0.9.0"], in: repository.url)
        #expect(again.status == 0, "\(again)")
        #expect(try Data(contentsOf: chart) == packaged, "the same chart, byte for byte")
    }

    /// A chart versioned on its own (3.13.1 while the app is 0.9.0): a `[[version]]` naming the
    /// Chart.yaml's `appVersion` makes only that field follow the release (old code: the chart
    /// could not be packaged by any configuration).
    @Test func aChartWithItsOwnVersionKeepsIt() throws {
        let repository = try chartProject(
            extra: """

                [[version]]
                path = "VERSION"

                [[version]]
                path = "charts/metrics-server/Chart.yaml"
                kind = "helm-app-version"

                """, chartVersion: "3.13.1", appVersion: "0.9.0")
        let validated = try relctl(["validate-tag", "v0.9.0"], in: repository.url)
        #expect(validated.status == 0, "\(validated)")
        let released = try relctl(["release", "v0.9.0"], in: repository.url)
        #expect(released.status == 0, "\(released)")
        let chart = repository.url.appendingPathComponent("dist/metrics-server-3.13.1.tgz")
        let chartYAML = try run("tar", ["-xzOf", chart.path, "metrics-server/Chart.yaml"]).stdout
        #expect(chartYAML.contains("version: 3.13.1") && chartYAML.contains("appVersion: \"0.9.0\""), "\(chartYAML)")

        // The next release moves appVersion only.
        _ = try repository.commit("feat: more", files: ["src/more.txt": "more\n"])
        let bumped = try relctl(["bump", "--write", "--set", "0.10.0"], in: repository.url)
        #expect(bumped.status == 0, "\(bumped)")
        let written = try repository.directory.read("charts/metrics-server/Chart.yaml")
        #expect(written.contains("version: 3.13.1") && written.contains("appVersion: \"0.10.0\""), "\(written)")
    }

    /// A glibc binary in a `scratch` image could never start (no `ld-linux` there): `relctl image`
    /// reads the ELF interpreter and refuses, naming it and the bases to use (old code: exit 0).
    @Test func aDynamicBinaryIsRefusedInAScratchImage() throws {
        // Debian's /bin/true is dynamically linked against glibc; readelf is the judge of that.
        let interpreterLine = try run("readelf", ["-l", "/bin/true"]).stdout.split(separator: "\n")
            .first { $0.contains("Requesting program interpreter") }
        let interpreter = try #require(interpreterLine.map { String($0.split(separator: ": ").last!.dropLast()) })
        let fixture = try ReleaseFixture(buildCommand: "mkdir -p out/{target} && cp /bin/true out/{target}/hello")
        let config = try fixture.repository.directory.read("relctl.toml")
        try fixture.repository.commit(
            "chore: image",
            files: [
                "relctl.toml": config
                    + "\n[[image]]\nrepository = \"ghcr.io/acme/demo\"\ntargets = [\"x86_64-unknown-linux-gnu\"]\n"
            ])
        let built = try relctl(["build", "--tag", "v1.0.0", "--target", "x86_64-*"], in: fixture.url)
        #expect(built.status == 0, "\(built)")
        let image = try relctl(["image", "--tag", "v1.0.0"], in: fixture.url)
        #expect(image.status == 2, "\(image)")
        #expect(image.stderr.contains("dynamically linked") && image.stderr.contains(interpreter), "\(image.stderr)")
        #expect(image.stderr.contains("base"), "says which base to use: \(image.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fixture.url.appendingPathComponent("dist/oci/demo").path))

        // A file with no interpreter (the stand-in script here) is not refused.
        try fixture.repository.commit(
            "chore: script",
            files: [
                "relctl.toml": try fixture.repository.directory.read("relctl.toml")
                    .replacingOccurrences(
                        of: "cp /bin/true out/{target}/hello",
                        with: "printf '#!/bin/sh\\n' > out/{target}/hello && chmod +x out/{target}/hello")
            ])
        let rebuilt = try relctl(["build", "--tag", "v1.0.0", "--target", "x86_64-*"], in: fixture.url)
        #expect(rebuilt.status == 0, "\(rebuilt)")
        let again = try relctl(["image", "--tag", "v1.0.0"], in: fixture.url)
        #expect(again.status == 0, "\(again)")
    }

    /// just: a root package with `publish = false` helper crates as members. `cargo build` at the
    /// root builds the root package only, so `init` lists `just` alone (old code also listed
    /// `generate-book`, which `relctl build` then could not find).
    @Test func initInARootPackageWorkspaceListsTheRootsBinaries() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "Cargo.toml",
            "[package]\nname = \"just\"\nversion = \"1.40.0\"\n\n[workspace]\nmembers = [\"crates/*\"]\n")
        try repo.directory.write("src/main.rs", "fn main() {}\n")
        try repo.directory.write(
            "crates/generate-book/Cargo.toml",
            "[package]\nname = \"generate-book\"\nversion = \"0.0.0\"\npublish = false\n")
        try repo.directory.write("crates/generate-book/src/main.rs", "fn main() {}\n")
        try repo.directory.write(
            "crates/update-contributors/Cargo.toml",
            "[package]\nname = \"update-contributors\"\nversion = \"0.0.0\"\npublish = false\n")
        try repo.directory.write("crates/update-contributors/src/main.rs", "fn main() {}\n")
        try repo.commit("chore: start")
        let initialised = try relctl(["init"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("binaries = [\"just\"]"), "\(config)")
        #expect(!config.contains("generate-book") && !config.contains("update-contributors"), "\(config)")
    }

    /// A Go project with no manifest relctl knows: named from go.mod's module path (the major
    /// version suffix dropped), not from the folder it was cloned into.
    @Test func initNamesAGoProjectFromItsModulePath() throws {
        let repo = try GitRepository()
        try repo.directory.write("go.mod", "module github.com/derailed/k9s/v2\n\ngo 1.24\n")
        try repo.directory.write("main.go", "package main\n\nfunc main() {}\n")
        try repo.commit("chore: start")
        #expect(repo.url.lastPathComponent != "k9s")
        let initialised = try relctl(["init"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("name = \"k9s\""), "\(config)")
    }

    /// The download URLs come from `origin` (a GitHub URL, fetched through an `insteadOf` rule):
    /// `reproduce` rebuilds in a clone that keeps the project's remotes, so the installer it
    /// writes points at the same URLs (old code: the rebuild failed without a download URL).
    @Test func reproduceKeepsTheOriginalRemoteURL() throws {
        let fixture = try ReleaseFixture(release: "\n[installer]\nenabled = true\n")
        let github = "https://github.com/acme/demo.git"
        try fixture.repository.git("remote", "set-url", "origin", github)
        try fixture.repository.git("config", "url.\(fixture.remote.url.path).insteadOf", github)
        let released = try relctl(["release", "v1.0.0"], in: fixture.url)
        #expect(released.status == 0, "\(released)")
        let installer = try fixture.repository.directory.read("dist/demo-installer.sh")
        #expect(
            installer.contains("https://github.com/acme/demo/releases/download/v1.0.0"), "\(installer.prefix(2000))")
        let reproduced = try relctl(["reproduce", "v1.0.0"], in: fixture.url)
        #expect(reproduced.status == 0, "\(reproduced)")
        #expect(reproduced.stderr.contains("reproducible:"), "\(reproduced.stderr)")
    }

    /// The SLSA statement inside `dist/NAME.intoto.jsonl` (a DSSE envelope).
    private func provenanceStatement(_ fixture: ReleaseFixture) throws -> [String: Any] {
        let line = try fixture.repository.directory.read("dist/demo-v1.0.0.intoto.jsonl")
        let envelope = try #require(
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let encoded = try #require(envelope["payload"] as? String)
        let payload = try #require(Data(base64Encoded: encoded))
        return try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
    }

    private func sourceURI(_ statement: [String: Any]) -> String? {
        let predicate = statement["predicate"] as? [String: Any]
        let definition = predicate?["buildDefinition"] as? [String: Any]
        let dependencies = definition?["resolvedDependencies"] as? [[String: Any]]
        return dependencies?.first?["uri"] as? String
    }

    /// SLSA's provenance names the source repository in `resolvedDependencies`: a remote that is
    /// a folder becomes a `file://` URI, and with no remote the `[publish] github` repository is
    /// named (old code: a bare path, or no `uri` at all).
    @Test func provenanceNamesTheSourceRepository() throws {
        let extra = """

            [sign]
            ssh-key = "keys/release_ed25519"

            [provenance]
            enabled = true

            [publish]
            github = "acme/demo"
            """
        let fixture = try ReleaseFixture(release: extra)
        try fixture.repository.commit("chore: keys", files: [".gitignore": "out/\ndist/\nkeys/\n"])
        try fixture.repository.git("push", "-q", "origin", "main")
        _ = try SigningKeysFixture(in: fixture.url.appendingPathComponent("keys"))
        let released = try relctl(["release", "v1.0.0"], in: fixture.url)
        #expect(released.status == 0, "\(released)")
        let local = sourceURI(try provenanceStatement(fixture))
        #expect(local == "git+file://\(fixture.remote.url.path)@refs/tags/v1.0.0", "\(local ?? "no uri")")

        // The same release from a clone with no remote at all.
        try FileManager.default.removeItem(at: fixture.url.appendingPathComponent("dist"))
        try fixture.repository.git("tag", "-d", "v1.0.0")
        try fixture.repository.git("remote", "remove", "origin")
        let again = try relctl(["release", "v1.0.0"], in: fixture.url)
        #expect(again.status == 0, "\(again)")
        let published = sourceURI(try provenanceStatement(fixture))
        #expect(published == "git+https://github.com/acme/demo@refs/tags/v1.0.0", "\(published ?? "no uri")")
    }

    /// GitLab (the strict stand-in): a 502 answers the upload of manifest.json after it was
    /// stored. relctl looks at the package before sending it again: one package file per name,
    /// and the release complete (old code re-sent it blindly, leaving a duplicate).
    @Test func aGitLab502AfterAStoredUploadLeavesNoDuplicate() async throws {
        let forges = ForgePublishCLITests()
        try await forges.withStandIn(.gitlab, size: 20_000) { fixture, server in
            try await server.setFaults(
                #"[{"action":"status","status":502,"after":true,"kind":"upload","name":"manifest.json"}]"#)
            let published = try await forges.publish(["v1.0.0", "--forge", "gitlab"], fixture, server)
            #expect(published.status == 0, "\(published)")
            let log = try await server.log()
            #expect(log.contains { $0.name == "manifest.json" && $0.status == 502 }, "the fault was served")
            let state = try #require(try await server.state() as? [String: Any])
            var copies: [String: Int] = [:]
            for package in state["packages"] as? [[String: Any]] ?? [] {
                for file in package["files"] as? [[String: Any]] ?? [] {
                    copies[file["file_name"] as? String ?? "", default: 0] += 1
                }
            }
            #expect(copies["manifest.json"] == 1, "\(copies)")
            #expect(copies.values.allSatisfy { $0 == 1 }, "one package file per asset: \(copies)")
            try await forges.expectExactlyPublished(server, fixture)
        }
    }

    /// CHANGELOG.md on GitHub: `(#1234)` becomes a link (a file is not autolinked as a release body
    /// is), and a file whose `[1.0.0]` headings have no link definitions gets none added, its end
    /// (blank lines included) kept as it was (old code: a `[1.1.0]: …` line appended, no PR links).
    @Test func changelogLinksPullRequestsAndKeepsTheFilesStyle() throws {
        let repo = try GitRepository()
        try repo.git("remote", "add", "origin", "https://github.com/acme/demo.git")
        let original = "# Changelog\n\n## [1.0.0] - 2024-01-01\n\n- first\n\n\n"
        try repo.commit(
            "chore: start",
            files: [
                "relctl.toml": "[project]\nname = \"demo\"\n\n[[version]]\npath = \"VERSION\"\n",
                "VERSION": "1.0.0\n", "CHANGELOG.md": original,
            ])
        try repo.git("tag", "v1.0.0")
        try repo.commit("feat: add a thing (#1234)", files: ["src/thing.txt": "thing\n"])
        try repo.commit("fix: mend it (#99)", files: ["VERSION": "1.1.0\n"])
        let notes = try relctl(["notes", "--tag", "v1.1.0", "--changelog", "CHANGELOG.md"], in: repo.url)
        #expect(notes.status == 0, "\(notes)")
        let changelog = try repo.directory.read("CHANGELOG.md")
        #expect(changelog.contains("add a thing ([#1234](https://github.com/acme/demo/issues/1234))"), "\(changelog)")
        #expect(changelog.contains("mend it ([#99](https://github.com/acme/demo/issues/99))"), "\(changelog)")
        #expect(!changelog.contains("[1.1.0]:"), "no link definition in a file that has none: \(changelog)")
        #expect(changelog.hasSuffix("## [1.0.0] - 2024-01-01\n\n- first\n\n\n"), "the end is kept: \(changelog)")
    }

    /// `{project}_{os}_{arch}` for a gnu and a musl build of one CPU: both archives would have one
    /// name. `check` says so before anything is built, as `package` would refuse it (old code:
    /// `check` passed).
    @Test func checkFindsArchiveNameCollisions() throws {
        let fixture = try ReleaseFixture()
        try setArchive(fixture, "name = \"{project}_{os}_{arch}\"\n")
        try editConfig(
            fixture, "triple = \"aarch64-unknown-linux-gnu\"", "triple = \"x86_64-unknown-linux-musl\"")
        let checked = try relctl(["check"], in: fixture.url)
        #expect(checked.status == 2, "\(checked)")
        #expect(
            checked.stderr.contains("demo_linux_x86_64.tar.gz") && checked.stderr.contains("x86_64-unknown-linux-musl"),
            "\(checked.stderr)")
        let built = try relctl(["build", "--tag", "v1.0.0"], in: fixture.url)
        #expect(built.status == 0, "\(built)")
        let packaged = try relctl(["package", "--tag", "v1.0.0"], in: fixture.url)
        #expect(packaged.status == 2, "package refuses the same collision: \(packaged)")
    }

    /// A Go project's SBOM lists go.sum's modules as `pkg:golang` components; a module only
    /// vouched for by a `/go.mod` line (read during version selection, never built) is left out
    /// (old code: no Go component at all).
    @Test func goSBOMsListGoSumModules() throws {
        let fixture = try ReleaseFixture()
        try fixture.repository.commit(
            "chore: go module",
            files: [
                "go.mod": "module github.com/acme/demo\n\ngo 1.24\n\nrequire github.com/spf13/cobra v1.8.0\n",
                "go.sum": """
                github.com/inconshreveable/mousetrap v1.1.0 h1:wN+x4NVGpMsO7ErUn/mUI3vEoE6Jt13X2s0bqwp9tc8=
                github.com/inconshreveable/mousetrap v1.1.0/go.mod h1:vpF70FUmC8bwa3OWnCshd2FqLfsEA9PFc4w1p2J65bw=
                github.com/spf13/cobra v1.8.0 h1:7aJaZx1B85qltLMc546zn58BxxfZdR/W22ej9CFoEf0=
                github.com/spf13/cobra v1.8.0/go.mod h1:WXLWApfZ71AjXPya3WOlMsY9yMs7YeiHhFVlvLyhcho=
                gopkg.in/yaml.v3 v3.0.1/go.mod h1:K4uyk7z7BCEPqu6E+C64Yfv1cQ7kz7rIZviUmN+EgEM=

                """,
            ])
        try fixture.repository.git("push", "-q", "origin", "main")
        let released = try relctl(["release", "v1.0.0"], in: fixture.url)
        #expect(released.status == 0, "\(released)")
        let sbom = try fixture.repository.directory.read("dist/demo-v1.0.0-x86_64-unknown-linux-gnu.cdx.json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(sbom.utf8)) as? [String: Any])
        let purls = Set((document["components"] as? [[String: Any]] ?? []).compactMap { $0["purl"] as? String })
        #expect(purls.contains("pkg:golang/github.com/spf13/cobra@v1.8.0"), "\(purls)")
        #expect(purls.contains("pkg:golang/github.com/inconshreveable/mousetrap@v1.1.0"), "\(purls)")
        #expect(!purls.contains { $0.contains("yaml") }, "a go.mod-only module is not built: \(purls)")
    }

    /// The CI of a chart-only project writes the chart before publishing, as `relctl release`
    /// does (old code: the tag-only job published the notes and no chart).
    @Test func aChartOnlyProjectsCIWritesTheChart() throws {
        let repository = try chartProject(extra: "", chartVersion: "0.9.0", appVersion: "0.9.0")
        let github = try relctl(["ci", "generate", "--provider", "github"], in: repository.url)
        #expect(github.status == 0, "\(github)")
        let workflow = try repository.directory.read(".github/workflows/release.yml")
        let chart = try #require(workflow.range(of: "relctl chart --tag \"$TAG\""), "\(workflow)")
        let publish = try #require(workflow.range(of: "relctl publish \"$TAG\""), "\(workflow)")
        #expect(chart.lowerBound < publish.lowerBound, "the chart is written before publishing")
        let gitlab = try relctl(["ci", "generate", "--provider", "gitlab"], in: repository.url)
        #expect(gitlab.status == 0, "\(gitlab)")
        let pipeline = try repository.directory.read(".gitlab-ci.yml")
        let gitlabChart = try #require(pipeline.range(of: "relctl chart --tag "), "\(pipeline)")
        let gitlabNotes = try #require(pipeline.range(of: "relctl notes --tag"), "\(pipeline)")
        #expect(gitlabChart.lowerBound < gitlabNotes.lowerBound)
    }
}
