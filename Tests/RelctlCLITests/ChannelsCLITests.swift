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

/// The built-in channels through their step commands (`relctl chart`, `relctl channel NAME`),
/// judged by the real tools: Python's tarfile against Helm's packaging rules, nix evaluating the
/// flake offline and hashing the archives itself, ruby loading the formula under a stub of
/// Homebrew's DSL, Scoop's own JSON schema, git with bare remotes, skopeo against a registry.
@Suite(.serialized, .timeLimit(.minutes(60)), .removesTemporaries) struct ChannelsCLITests {
    /// Reads a .tgz back with Python: the gzip header's flags, extra field and comment, then every
    /// member's name, type, mode, ids, names and time, and each file's bytes as hex.
    static let tarfileReader = #"""
        import gzip, json, sys, tarfile
        raw = open(sys.argv[1], "rb").read()
        flags = raw[3]
        header = {"flags": flags, "mtime": int.from_bytes(raw[4:8], "little"), "os": raw[9]}
        at = 10
        if flags & 4:
            length = int.from_bytes(raw[at:at + 2], "little")
            header["extra"] = raw[at + 2:at + 2 + length].decode()
            at += 2 + length
        if flags & 16:
            end = raw.index(b"\0", at)
            header["comment"] = raw[at:end].decode()
        members = []
        with tarfile.open(sys.argv[1], "r:gz") as archive:
            for member in archive.getmembers():
                data = archive.extractfile(member).read() if member.isfile() else b""
                members.append({"name": member.name, "file": member.isfile(), "mode": member.mode,
                                "uid": member.uid, "gid": member.gid, "uname": member.uname,
                                "gname": member.gname, "mtime": member.mtime, "data": data.decode()})
        print(json.dumps({"header": header, "members": members}))
        """#

    func readTarball(_ url: URL) throws -> (header: [String: Any], members: [[String: Any]]) {
        let result = try run("python3", ["-c", Self.tarfileReader, url.path])
        guard result.status == 0 else { throw TestFailure("tarfile could not read \(url.path): \(result)") }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        return (try #require(object["header"] as? [String: Any]), try #require(object["members"] as? [[String: Any]]))
    }

    @Test func chartIsLaidOutAsHelmPackageLaysItOutAndIsByteIdentical() throws {
        let fixture = try ChannelFixture()
        let chart = "charts/velostream/"
        // What Helm's loader and save code do with each: ignored, dropped, moved first, BOM stripped.
        _ = try fixture.directory.write(chart + ".helmignore", "# editor files\n*.orig\n/docs/\nsecret*\n")
        _ = try fixture.directory.write(chart + "values.yaml", "\u{FEFF}replicas: 1\n")
        _ = try fixture.directory.write(chart + "values.schema.json", "{\"type\": \"object\"}\n")
        _ = try fixture.directory.write(chart + "Chart.lock", "dependencies: []\n")
        _ = try fixture.directory.write(chart + "templates/service.yaml", "kind: Service\n")
        _ = try fixture.directory.write(chart + "templates/a/deployment.yaml", "kind: Deployment\n")
        _ = try fixture.directory.write(chart + "templates/.hidden.yaml", "kind: Ignored\n")
        _ = try fixture.directory.write(chart + "templates/z.yaml.orig", "old\n")
        _ = try fixture.directory.write(chart + "README.md", "# chart\n")
        _ = try fixture.directory.write(chart + "docs/guide.md", "ignored: anchored folder\n")
        _ = try fixture.directory.write(chart + "files/docs/guide.md", "kept: /docs/ is anchored\n")
        _ = try fixture.directory.write(chart + "secret-values.yaml", "ignored\n")
        _ = try fixture.directory.write(chart + "requirements.yaml", "dependencies: []\n")
        _ = try fixture.directory.write(chart + "charts/_helpers/ignored.txt", "skipped by Helm\n")
        try fixture.packageAndChecksum()

        let first = try relctl(
            ["chart", "--tag", "v1.0.0", "--json"], in: fixture.url, environment: ChannelFixture.environment)
        #expect(first.status == 0, "\(first)")
        let package = fixture.dist.appendingPathComponent("velostream-1.0.0.tgz")
        let bytes = try Data(contentsOf: package)
        let (header, members) = try readTarball(package)
        #expect(header["extra"] as? String == "+aHR0cHM6Ly95b3V0dS5iZS96OVV6MWljandyTQo=")
        #expect(header["comment"] as? String == "Helm")
        #expect(header["mtime"] as? Int == 0)
        #expect(
            members.map { $0["name"] as? String ?? "" } == [
                "velostream/Chart.yaml", "velostream/Chart.lock", "velostream/values.yaml",
                "velostream/values.schema.json", "velostream/templates/a/deployment.yaml",
                "velostream/templates/service.yaml", "velostream/.helmignore", "velostream/README.md",
                "velostream/files/docs/guide.md",
            ], "\(members.map { $0["name"] ?? "" })")
        for member in members {
            #expect(member["file"] as? Bool == true && member["mode"] as? Int == 0o644, "\(member)")
            #expect(member["uid"] as? Int == 0 && member["gid"] as? Int == 0, "\(member)")
            #expect(member["uname"] as? String == "" && member["gname"] as? String == "", "\(member)")
            #expect(member["mtime"] as? Int == 1_700_000_000, "\(member)")
        }
        #expect(
            members.first { $0["name"] as? String == "velostream/values.yaml" }?["data"] as? String == "replicas: 1\n")

        // Listed in SHA256SUMS, which sha256sum accepts; the same bytes on a second run.
        #expect(try fixture.sums()["velostream-1.0.0.tgz"] != nil)
        let check = try run("sha256sum", ["-c", "SHA256SUMS"], in: fixture.dist)
        #expect(check.status == 0, "\(check)")
        let second = try relctl(["chart", "--tag", "v1.0.0"], in: fixture.url, environment: ChannelFixture.environment)
        #expect(second.status == 0, "\(second)")
        #expect(try Data(contentsOf: package) == bytes, "the chart package differs between two runs")
        #expect(
            (try String(contentsOf: fixture.dist.appendingPathComponent("SHA256SUMS"), encoding: .utf8)).components(
                separatedBy: "velostream-1.0.0.tgz"
            ).count == 2)
    }

    @Test func chartWithADependencyFolderOrALinkOutsideIsRefused() throws {
        let fixture = try ChannelFixture()
        try fixture.packageAndChecksum()
        try FileManager.default.createSymbolicLink(
            atPath: fixture.url.appendingPathComponent("charts/velostream/leak.txt").path,
            withDestinationPath: "../../Cargo.toml")
        let refused = try relctl(
            ["chart", "--tag", "v1.0.0"], in: fixture.url, environment: ChannelFixture.environment)
        #expect(
            refused.status == 2 && refused.stderr.contains("leak.txt") && refused.stderr.contains("outside the chart"),
            "\(refused)")
        #expect(
            !FileManager.default.fileExists(atPath: fixture.dist.appendingPathComponent("velostream-1.0.0.tgz").path))
        let check = try relctl(["check"], in: fixture.url)
        #expect(check.status != 0 && check.stderr.contains("leak.txt"), "\(check)")
    }

    @Test func chartVersionAndAppVersionAreVersionLocations() throws {
        let fixture = try ChannelFixture()
        _ = try fixture.directory.write(
            "charts/velostream/Chart.yaml",
            "apiVersion: v2\nname: velostream\nversion: 0.9.0 # chart\nappVersion: \"1.0.0\"\n")
        let mismatch = try relctl(["validate-tag", "v1.0.0"], in: fixture.url)
        #expect(
            mismatch.status == 1 && mismatch.stderr.contains("charts/velostream/Chart.yaml:3: holds version 0.9.0"),
            "\(mismatch)")
        let bumped = try relctl(["bump", "--write", "--set", "1.1.0"], in: fixture.url)
        #expect(bumped.status == 0, "\(bumped)")
        #expect(
            try fixture.directory.read("charts/velostream/Chart.yaml")
                == "apiVersion: v2\nname: velostream\nversion: 1.1.0 # chart\nappVersion: \"1.1.0\"\n")
        let valid = try relctl(["validate-tag", "v1.1.0"], in: fixture.url)
        #expect(valid.status == 0, "\(valid)")
    }

    @Test func flakeEvaluatesOfflineWithTheHashesNixComputes() throws {
        let fixture = try ChannelFixture()
        // file:// URLs, so nix itself can fetch and hash each archive without a network.
        var environment = ChannelFixture.environment
        environment["INSTALLER_BASE_URL"] = "file://" + fixture.dist.path + "/"
        let packaged = try relctl(["package", "--tag", "v1.0.0"], in: fixture.url, environment: environment)
        #expect(packaged.status == 0, "\(packaged)")
        #expect(try relctl(["checksum"], in: fixture.url, environment: environment).status == 0)
        let written = try relctl(["channel", "nix", "--tag", "v1.0.0"], in: fixture.url, environment: environment)
        #expect(written.status == 0, "\(written)")
        let tarball = fixture.dist.appendingPathComponent("velostream-v1.0.0-flake.tar.gz")
        #expect(try fixture.sums()["velostream-v1.0.0-flake.tar.gz"] != nil)

        let work = try TemporaryDirectory(prefix: "relctl-flake")
        #expect(try run("tar", ["-xzf", tarball.path, "-C", work.path]).status == 0)
        let flake = work.url.appendingPathComponent("velostream-v1.0.0-flake")
        let nixEnvironment = ["HOME": work.path, "XDG_CACHE_HOME": work.path + "/cache"]
        let evaluated = try run(
            "nix",
            [
                "eval", "--extra-experimental-features", "nix-command flakes", "--offline", "--no-write-lock-file",
                "--override-input", "nixpkgs", "path:" + ChannelFixture.fixture("nixpkgs-stub").path, "--json",
                "path:\(flake.path)#packages", "--apply",
                "builtins.mapAttrs (system: p: { inherit (p.default) pname version sourceRoot stdenv; url = p.default.src.url; hash = p.default.src.hash; hook = toString p.default.nativeBuildInputs; libs = toString p.default.buildInputs; })",
            ], environment: nixEnvironment)
        #expect(evaluated.status == 0, "\(evaluated)")
        let packages = try #require(
            try JSONSerialization.jsonObject(with: Data(evaluated.stdout.utf8)) as? [String: [String: String]])
        #expect(packages.keys.sorted() == ["aarch64-darwin", "aarch64-linux", "x86_64-darwin", "x86_64-linux"])
        let expected = [
            "x86_64-linux": "x86_64-unknown-linux-musl", "aarch64-linux": "aarch64-unknown-linux-gnu",
            "x86_64-darwin": "x86_64-apple-darwin", "aarch64-darwin": "aarch64-apple-darwin",
        ]
        for (system, triple) in expected {
            let package = try #require(packages[system])
            let name = "velostream-v1.0.0-\(triple).tar.gz"
            #expect(
                package["url"] == "file://\(fixture.dist.path)/\(name)"
                    && package["sourceRoot"] == "velostream-v1.0.0-\(triple)")
            #expect(package["pname"] == "velostream" && package["version"] == "1.0.0")
            // A glibc binary is patched to nixpkgs' loader (issue 40, finding 20); static ones are left alone.
            let glibc = triple.hasSuffix("-linux-gnu")
            #expect(package["hook"] == (glibc ? "autoPatchelfHook" : ""), "\(system): \(package)")
            #expect(package["libs"] == (glibc ? "libgcc" : ""), "\(system): \(package)")
            #expect(package["stdenv"] == (glibc ? "stdenv" : "stdenvNoCC"), "\(system): \(package)")
            // Nix fetches the archive itself and says its hash in SRI form.
            let prefetched = try run(
                "nix",
                [
                    "store", "prefetch-file", "--extra-experimental-features", "nix-command", "--json",
                    package["url"] ?? "",
                ],
                environment: nixEnvironment)
            #expect(prefetched.status == 0, "\(prefetched)")
            let answer = try JSONSerialization.jsonObject(with: Data(prefetched.stdout.utf8)) as? [String: Any]
            #expect(answer?["hash"] as? String == package["hash"], "\(system): \(prefetched.stdout) vs \(package)")
        }
    }

    @Test func homebrewFormulaLoadsUnderTheDSLStubWithTheReleaseDigests() throws {
        let fixture = try ChannelFixture()
        try fixture.packageAndChecksum()
        let written = try relctl(
            ["channel", "homebrew", "--tag", "v1.0.0"], in: fixture.url, environment: ChannelFixture.environment)
        #expect(written.status == 0, "\(written)")
        let formula = fixture.dist.appendingPathComponent("homebrew/Formula/velostream.rb")
        #expect(
            try fixture.sums()["homebrew/Formula/velostream.rb"] == nil, "the formula goes to the tap, not the release")
        let syntax = try run("ruby", ["-c", formula.path])
        #expect(syntax.status == 0 && syntax.stdout.contains("Syntax OK"), "\(syntax)")
        let loaded = try run("ruby", [ChannelFixture.fixture("homebrew_dsl_stub.rb").path, formula.path, "Velostream"])
        #expect(loaded.status == 0, "\(loaded)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(loaded.stdout.utf8)) as? [String: Any])
        let fields = try #require(object["fields"] as? [String: String])
        #expect(fields == ["desc": "Streaming SQL engine", "version": "1.0.0", "license": "Apache-2.0"], "\(fields)")
        let artifacts = try #require(object["artifacts"] as? [[String: String]])
        let expected = [
            ("macos", "arm", "aarch64-apple-darwin"), ("macos", "intel", "x86_64-apple-darwin"),
            ("linux", "arm", "aarch64-unknown-linux-gnu"), ("linux", "intel", "x86_64-unknown-linux-musl"),
        ]
        #expect(artifacts.count == expected.count, "\(artifacts)")
        for (os, cpu, triple) in expected {
            let name = "velostream-v1.0.0-\(triple).tar.gz"
            let artifact = artifacts.first { $0["os"] == os && $0["cpu"] == cpu }
            #expect(artifact?["url"] == ChannelFixture.baseURL + name, "\(os)/\(cpu): \(artifacts)")
            #expect(artifact?["sha256"] == (try fixture.sha256sum(name)), "\(os)/\(cpu): not the archive's sha256sum")
        }
        let tests = try #require(object["test_lines"] as? [String])
        #expect(tests.contains("assert_predicate bin/\"velo-sql\", :executable?"), "\(tests)")
    }

    @Test func scoopManifestValidatesAgainstScoopsSchema() throws {
        let fixture = try ChannelFixture()
        try fixture.packageAndChecksum()
        let written = try relctl(
            ["channel", "scoop", "--tag", "v1.0.0"], in: fixture.url, environment: ChannelFixture.environment)
        #expect(written.status == 0, "\(written)")
        let manifest = fixture.dist.appendingPathComponent("scoop/bucket/velostream.json")
        let validation = try run(
            "python3",
            [
                "-c",
                "import json, sys, jsonschema; jsonschema.Draft7Validator(json.load(open(sys.argv[1])), format_checker=jsonschema.FormatChecker()).validate(json.load(open(sys.argv[2]))); print('valid')",
                ChannelFixture.fixture("scoop-schema.json").path, manifest.path,
            ])
        #expect(validation.status == 0 && validation.stdout.contains("valid"), "\(validation)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as? [String: Any])
        let architecture = try #require(object["architecture"] as? [String: [String: String]])
        let name = "velostream-v1.0.0-x86_64-pc-windows-msvc.zip"
        #expect(architecture.keys.sorted() == ["64bit"])
        #expect(architecture["64bit"]?["url"] == ChannelFixture.baseURL + name)
        #expect(architecture["64bit"]?["hash"] == (try fixture.sha256sum(name)), "not the archive's sha256sum")
        #expect(architecture["64bit"]?["extract_dir"] == "velostream-v1.0.0-x86_64-pc-windows-msvc")
        #expect(object["bin"] as? [String] == ["bin\\velo-sql.exe", "bin\\velo-cli.exe"])
        let autoupdate = try #require(object["autoupdate"] as? [String: Any])
        let update = (autoupdate["architecture"] as? [String: [String: String]])?["64bit"]
        #expect(
            update?["url"]
                == "https://downloads.example.com/velostream/v$version/velostream-v$version-x86_64-pc-windows-msvc.zip")
        #expect(object["checkver"] != nil)
    }

    @Test func tapAndBucketAreCommittedAndPushedOnceThenLeftAlone() throws {
        let tap = try TemporaryDirectory(prefix: "relctl-tap")
        let bucket = try TemporaryDirectory(prefix: "relctl-bucket")
        for remote in [tap, bucket] {
            #expect(try run("git", ["init", "-q", "--bare", "-b", "main", remote.path]).status == 0)
        }
        let fixture = try ChannelFixture(tap: tap.path, bucket: bucket.path)
        try fixture.packageAndChecksum()
        var environment = ChannelFixture.environment
        environment["GIT_CONFIG_GLOBAL"] = "/dev/null"

        let dry = try relctl(
            ["channel", "homebrew", "--tag", "v1.0.0", "--publish", "--dry-run"], in: fixture.url,
            environment: environment)
        #expect(dry.status == 0, "\(dry)")
        #expect(
            try run("git", ["-C", tap.path, "rev-parse", "--verify", "-q", "HEAD"]).status != 0,
            "a dry run pushes nothing")

        for (name, remote, path) in [
            ("homebrew", tap, "Formula/velostream.rb"), ("scoop", bucket, "bucket/velostream.json"),
        ] {
            let published = try relctl(
                ["channel", name, "--tag", "v1.0.0", "--publish"], in: fixture.url, environment: environment)
            #expect(published.status == 0, "\(published)")
            let head = try run("git", ["-C", remote.path, "rev-parse", "HEAD"]).stdout
            let content = try run("git", ["-C", remote.path, "show", "HEAD:\(path)"]).stdout
            let local = try String(
                contentsOf: fixture.dist.appendingPathComponent(
                    name == "homebrew" ? "homebrew/" + path : "scoop/" + path),
                encoding: .utf8)
            #expect(content == local, "\(name): the pushed file differs from dist's")
            let again = try relctl(
                ["channel", name, "--tag", "v1.0.0", "--publish"], in: fixture.url, environment: environment)
            #expect(again.status == 0 && again.stderr.contains("already has"), "\(again)")
            #expect(
                try run("git", ["-C", remote.path, "rev-parse", "HEAD"]).stdout == head,
                "\(name): a second publish committed again")
            #expect(try run("git", ["-C", remote.path, "rev-list", "--count", "HEAD"]).stdout.hasPrefix("1"))
        }
    }

    /// Issue 39, finding 2: a tap whose `Formula` (or a bucket whose `bucket`) is a committed
    /// symlink to a folder outside the clone got the formula written there, even with --dry-run.
    @Test func aLinkCommittedInTheTapNeverCarriesTheWriteOut() throws {
        let outside = try TemporaryDirectory(prefix: "relctl-outside")
        let tap = try TemporaryDirectory(prefix: "relctl-tap")
        let bucket = try TemporaryDirectory(prefix: "relctl-bucket")
        for (remote, folder) in [(tap, "Formula"), (bucket, "bucket")] {
            #expect(try run("git", ["init", "-q", "--bare", "-b", "main", remote.path]).status == 0)
            let work = try GitRepository()
            #expect(try run("ln", ["-s", outside.path, work.url.appendingPathComponent(folder).path]).status == 0)
            try work.commit("a link where the formulae go")
            try work.git("push", "-q", remote.path, "HEAD:main")
        }
        let fixture = try ChannelFixture(tap: tap.path, bucket: bucket.path)
        try fixture.packageAndChecksum()
        var environment = ChannelFixture.environment
        environment["GIT_CONFIG_GLOBAL"] = "/dev/null"
        for (name, folder) in [("homebrew", "Formula"), ("scoop", "bucket")] {
            for dry in [["--dry-run"], []] {
                let result = try relctl(
                    ["channel", name, "--tag", "v1.0.0", "--publish"] + dry, in: fixture.url, environment: environment)
                #expect(result.status == 2, "\(name) \(dry): \(result)")
                #expect(
                    result.stderr.contains("/\(folder)") && result.stderr.contains("is a symbolic link"),
                    "\(name) \(dry): \(result)")
                let leaked = try FileManager.default.contentsOfDirectory(atPath: outside.path)
                #expect(leaked.isEmpty, "\(name) \(dry) wrote outside the clone: \(leaked)")
            }
        }
    }

    @Test func chartPushReadsBackAsDistBytesAndASecondPushKeepsTheDigest() throws {
        let registry = try TestRegistry()
        defer { registry.stop() }
        let fixture = try ChannelFixture(
            channels: "\n[[chart]]\npath = \"charts/velostream\"\nrepository = \"oci://\(registry.host)/acme/charts\"\n"
        )
        try fixture.packageAndChecksum()
        var environment = ChannelFixture.environment
        environment["DOCKER_CONFIG"] = fixture.url.appendingPathComponent(".docker").path

        let dry = try relctl(
            ["chart", "--tag", "v1.0.0", "--push", "--dry-run"], in: fixture.url, environment: environment)
        #expect(dry.status == 0, "\(dry)")
        #expect(
            !registry.requests().contains { $0.hasPrefix("PUT ") || $0.hasPrefix("POST ") }, "\(registry.requests())")

        let pushed = try relctl(
            ["chart", "--tag", "v1.0.0", "--push", "--json"], in: fixture.url, environment: environment)
        #expect(pushed.status == 0, "\(pushed)")
        let reference = "docker://\(registry.host)/acme/charts/velostream:1.0.0"
        let manifest = try run("skopeo", ["inspect", "--tls-verify=false", "--raw", reference])
        #expect(manifest.status == 0, "\(manifest)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(manifest.stdout.utf8)) as? [String: Any])
        let config = try #require(object["config"] as? [String: Any])
        let layers = try #require(object["layers"] as? [[String: Any]])
        #expect(config["mediaType"] as? String == "application/vnd.cncf.helm.config.v1+json")
        #expect(
            layers.count == 1
                && layers[0]["mediaType"] as? String == "application/vnd.cncf.helm.chart.content.v1.tar+gzip")

        // The layer, copied out by skopeo, is dist's package byte for byte.
        let work = try TemporaryDirectory(prefix: "relctl-chart-pull")
        let copy = try run("skopeo", ["copy", "--src-tls-verify=false", reference, "dir:\(work.path)/pulled"])
        #expect(copy.status == 0, "\(copy)")
        let layerDigest = try #require((layers[0]["digest"] as? String)?.dropFirst("sha256:".count))
        let pulled = try Data(contentsOf: work.url.appendingPathComponent("pulled/\(layerDigest)"))
        #expect(pulled == (try Data(contentsOf: fixture.dist.appendingPathComponent("velostream-1.0.0.tgz"))))

        let digest = try run(
            "/bin/bash", ["-c", "set -o pipefail; skopeo inspect --tls-verify=false --raw \(reference) | sha256sum"]
        ).stdout.prefix(64)
        let again = try relctl(["chart", "--tag", "v1.0.0", "--push"], in: fixture.url, environment: environment)
        #expect(again.status == 0, "\(again)")
        let digestAgain = try run(
            "/bin/bash", ["-c", "set -o pipefail; skopeo inspect --tls-verify=false --raw \(reference) | sha256sum"]
        ).stdout.prefix(64)
        #expect(digest == digestAgain, "a second push changed the manifest")
        #expect(pushed.stdout.contains("sha256:\(digest)"), "\(pushed.stdout)")
    }

    @Test func unknownChannelListsTheKnownOnes() throws {
        let fixture = try ChannelFixture(channels: "\n[[channel]]\nname = \"nosuch\"\n")
        let bin = try TemporaryDirectory(prefix: "relctl-plugins")
        _ = try bin.write("relctl-channel-found", "#!/bin/sh\necho '{}'\n", executable: true)
        let environment = ["PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")]
        let check = try relctl(["check"], in: fixture.url, environment: environment)
        #expect(check.status == 2, "\(check)")
        #expect(
            check.stderr.contains("unknown channel `nosuch`")
                && check.stderr.contains("known channels: aur, chart, found, homebrew, nix, scoop, winget"), "\(check)")
        let step = try relctl(["channel", "nix", "--tag", "v1.0.0"], in: fixture.url, environment: environment)
        #expect(step.status == 2 && step.stderr.contains("[nix]"), "\(step)")
        let unknown = try relctl(["channel", "nixx", "--tag", "v1.0.0"], in: fixture.url, environment: environment)
        #expect(unknown.status == 2 && unknown.stderr.contains("did you mean `nix`"), "\(unknown)")
        // A plugin found on PATH runs like a configured one, with the release on stdin.
        _ = try bin.write(
            "relctl-channel-found",
            "#!/bin/sh\nset -e\ngrep -q '\"tag\":\"v1.0.0\"' && printf 'hi\\n' > \"$RELCTL_DIST/hi.txt\" && echo '{\"files\":[\"hi.txt\"]}'\n",
            executable: true)
        try fixture.packageAndChecksum()
        let found = try relctl(
            ["channel", "found", "--tag", "v1.0.0"], in: fixture.url,
            environment: environment.merging(ChannelFixture.environment) { $1 })
        #expect(found.status == 0, "\(found)")
        let sums = try fixture.sums()
        #expect(sums["hi.txt"] == "98ea6e4f216f2fb4b69fff9b3a44842c38686ca685f3f55dc48c5d3fb1107be4", "\(sums)")
    }
}

/// The request a plugin reads is the one docs/channels.md documents: captured from a real run and
/// validated against the schema printed there.
@Suite(.timeLimit(.minutes(45)), .removesTemporaries) struct ChannelProtocolCLITests {
    @Test func thePluginRequestMatchesTheDocumentedSchema() throws {
        let fixture = try ChannelFixture(
            channels: #"""

                [[channel]]
                name = "capture"
                command = ["sh", "-c", "cat > request.json; echo '{\"files\": [], \"published\": [\"https://example.com/x\"]}'"]

                """#)
        try fixture.packageAndChecksum()
        let result = try relctl(
            ["channel", "capture", "--tag", "v1.0.0", "--json"], in: fixture.url,
            environment: ChannelFixture.environment)
        #expect(result.status == 0 && result.stdout.contains("https://example.com/x"), "\(result)")
        let docs = ChannelFixture.fixture("").deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/channels.md")
        let validation = try run(
            "python3",
            [
                "-c",
                """
                import json, re, sys, jsonschema
                schema = json.loads(re.findall(r"```json\\n(.*?)```", open(sys.argv[1]).read(), re.S)[0])
                request = json.load(open(sys.argv[2]))
                jsonschema.Draft202012Validator(schema).validate(request)
                assert request["archives"][0]["url"].startswith("https://downloads.example.com/"), request
                print(len(request["archives"]))
                """,
                docs.path, fixture.url.appendingPathComponent("request.json").path,
            ])
        #expect(validation.status == 0 && validation.stdout == "5\n", "\(validation)")
    }
}

extension ChannelsCLITests {
    /// The formula installs the completions and manual page the archive carries (issue 57): its
    /// `install` run by a stand-in of Homebrew's Pathname#install in the unpacked Linux archive puts
    /// each where Homebrew links it from, byte for byte what the project ships; files the archive
    /// does not carry (README.md) are not named.
    @Test func homebrewFormulaInstallsTheCompletionsAndManualPageOfTheArchive() throws {
        let fixture = try ChannelFixture()
        let config = fixture.url.appendingPathComponent("relctl.toml")
        let shipped = [
            "share/velo.bash": "complete -F _velo velo-sql\n", "share/_velo": "#compdef velo-sql\n",
            "share/velo.fish": "complete -c velo-sql\n", "share/velo-sql.1": ".TH VELO-SQL 1\n",
        ]
        for (path, text) in shipped { _ = try fixture.directory.write(path, text) }
        let text = try String(contentsOf: config, encoding: .utf8)
        try #require(text.contains("files = [\"README.md\"]"))
        try Data(
            text.replacingOccurrences(
                of: "files = [\"README.md\"]",
                with: """
                    files = [
                        "README.md",
                        { from = "share/velo.bash", to = "completions/velo.bash" },
                        { from = "share/_velo", to = "completions/_velo" },
                        { from = "share/velo.fish", to = "completions/velo.fish" },
                        { from = "share/velo-sql.1", to = "man/velo-sql.1" },
                    ]
                    """
            ).utf8
        ).write(to: config)
        try fixture.packageAndChecksum()
        let written = try relctl(
            ["channel", "homebrew", "--tag", "v1.0.0"], in: fixture.url, environment: ChannelFixture.environment)
        #expect(written.status == 0, "\(written)")
        let formula = fixture.dist.appendingPathComponent("homebrew/Formula/velostream.rb")
        let syntax = try run("ruby", ["-c", formula.path])
        #expect(syntax.status == 0 && syntax.stdout.contains("Syntax OK"), "\(syntax)")
        let source = try String(contentsOf: formula, encoding: .utf8)
        #expect(!source.contains("README"), "\(source)")

        let unpacked = try TemporaryDirectory(prefix: "relctl-brew-unpacked")
        let prefix = try TemporaryDirectory(prefix: "relctl-brew-prefix")
        let archive = fixture.dist.appendingPathComponent("velostream-v1.0.0-x86_64-unknown-linux-musl.tar.gz")
        let extracted = try run("tar", ["-xzf", archive.path, "-C", unpacked.path])
        try #require(extracted.status == 0, "\(extracted)")
        let top = unpacked.url.appendingPathComponent("velostream-v1.0.0-x86_64-unknown-linux-musl")
        let installed = try run(
            "ruby",
            [ChannelFixture.fixture("homebrew_install_stub.rb").path, formula.path, "Velostream", prefix.path],
            in: top)
        #expect(installed.status == 0, "\(installed)")
        let expected = [
            "bin/velo-sql": nil, "bin/velo-cli": nil,
            "etc/bash_completion.d/velo": "share/velo.bash", "share/zsh/site-functions/_velo": "share/_velo",
            "share/fish/vendor_completions.d/velo.fish": "share/velo.fish",
            "share/man/man1/velo-sql.1": "share/velo-sql.1",
        ]
        for (path, origin) in expected {
            let file = prefix.url.appendingPathComponent(path)
            #expect(installed.stdout.contains(file.path + "\n"), "\(path): \(installed)")
            if let origin {
                #expect(try String(contentsOf: file, encoding: .utf8) == shipped[origin], "\(path)")
            }
        }
        #expect(installed.stdout.split(separator: "\n").count == expected.count, "\(installed)")
    }
}
