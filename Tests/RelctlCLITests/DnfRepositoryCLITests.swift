import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// `relctl repository` with `[dnf]`: repodata read by dnf itself into an installroot with
/// `gpgcheck=1` and `repo_gpgcheck=1` (signed rpms, signed repomd.xml), installed and upgraded.
@Suite(.serialized, .timeLimit(.minutes(30)), .removesTemporaries) struct DnfRepositoryCLITests {
    /// The project, its rpm signing key (OpenSSH Ed25519) and its repository key (gpg's).
    /// - Parameter tables: more tables, before `[repository]` (which stays last, so a test can append to it).
    /// - Parameter algorithm: the repository key's, as gpg names it.
    func project(tables: String = "", algorithm: String = "ed25519") throws -> (LinuxPackageFixture, GPGKey) {
        let keys = try TemporaryDirectory(prefix: "relctl-rpm-key")
        let rpmKey = keys.url.appendingPathComponent("rpm_ed25519")
        let made = try run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "rpm", "-f", rpmKey.path])
        try #require(made.status == 0, "\(made)")
        let fixture = try LinuxPackageFixture(
            packages: """
                [[package]]
                format = "rpm"
                signing-key = "\(rpmKey.path)"

                [dnf]
                enabled = true

                \(tables)
                [repository]
                signing-key = "\(keys.path)/repo.asc"

                """)
        let key = try GPGKey(algorithm: algorithm)
        try Data(key.secretArmored.utf8).write(to: keys.url.appendingPathComponent("repo.asc"))
        return (fixture, key)
    }

    func released(_ fixture: LinuxPackageFixture, version: String) throws -> RunResult {
        let build = try relctl(["build"], in: fixture.url)
        try #require(build.status == 0, "\(build)")
        let packaged = try relctl(["linux-package", "--tag", "v\(version)"], in: fixture.url)
        try #require(packaged.status == 0, "\(packaged)")
        return try relctl(["repository", "--tag", "v\(version)"], in: fixture.url)
    }

    /// dnf with its own configuration, repos folder and cache under `state`, into `root`.
    func dnf(_ arguments: String, state: URL, root: URL, published: URL) throws -> RunResult {
        let script = """
            set -eu
            mkdir -p repos cache
            cat > dnf.conf <<EOF
            [main]
            gpgcheck=1
            repo_gpgcheck=1
            reposdir=$PWD/repos
            cachedir=$PWD/cache
            keepcache=0
            install_weak_deps=0
            EOF
            cat > repos/hello.repo <<EOF
            [hello]
            name=hello
            baseurl=file://$PUBLISHED/dnf
            enabled=1
            gpgcheck=1
            repo_gpgcheck=1
            gpgkey=file://$PUBLISHED/dnf/RPM-GPG-KEY-hello file://$PUBLISHED/dnf/RPM-GPG-KEY-hello-packages
            EOF
            exec dnf -y -q -c dnf.conf --installroot="$ROOT" --releasever=1 --setopt=reposdir="$PWD/repos" \
              --disablerepo='*' --enablerepo=hello \(arguments)
            """
        return try sh(script, in: state, environment: ["PUBLISHED": published.path, "ROOT": root.path])
    }

    @Test func dnfInstallsAndUpgradesWithGpgcheckAndRepoGpgcheck() throws {
        let (fixture, key) = try project()
        let first = try released(fixture, version: "1.0.0")
        try #require(first.status == 0, "\(first)")
        let repodata = fixture.dist.appendingPathComponent("dnf/repodata")
        let signature = try run(
            "gpgv",
            [
                "--keyring", key.keyring.path, repodata.appendingPathComponent("repomd.xml.asc").path,
                repodata.appendingPathComponent("repomd.xml").path,
            ])
        #expect(signature.status == 0, "\(signature)")
        let verified = try relctl(["verify", "--repository-key", key.keyring.path], in: fixture.url)
        #expect(verified.status == 0 && verified.stderr.contains("dnf: signatures good"), "\(verified)")

        let published = try TemporaryDirectory(prefix: "relctl-published")
        _ = try sh("cp -a dist/dnf \"$OUT\"/dnf", in: fixture.url, environment: ["OUT": published.path])
        let state = try TemporaryDirectory(prefix: "relctl-dnf-state")
        let root = try TemporaryDirectory(prefix: "relctl-dnf-root")
        let installed = try dnf("install hello", state: state.url, root: root.url, published: published.url)
        #expect(installed.status == 0, "\(installed)")
        #expect(
            try run(root.url.appendingPathComponent("usr/bin/hello").path, []).stdout
                == "hello 1.0.0 x86_64-unknown-linux-gnu\n")

        _ = try fixture.repository.commit(
            "feat: say more",
            files: [
                "VERSION": "1.1.0\n",
                "relctl.toml": try String(
                    contentsOf: fixture.url.appendingPathComponent("relctl.toml"), encoding: .utf8)
                    + "previous = \"\(published.path)\"\n",
            ])
        let second = try released(fixture, version: "1.1.0")
        try #require(second.status == 0, "\(second)")
        _ = try sh(
            "rm -rf \"$OUT\"/dnf && cp -a dist/dnf \"$OUT\"/dnf", in: fixture.url, environment: ["OUT": published.path])
        let listed = try dnf(
            "--refresh --showduplicates list hello", state: state.url, root: root.url, published: published.url)
        #expect(listed.stdout.contains("1.0.0-1") && listed.stdout.contains("1.1.0-1"), "\(listed)")
        let upgraded = try dnf("upgrade hello", state: state.url, root: root.url, published: published.url)
        #expect(upgraded.status == 0, "\(upgraded)")
        #expect(
            try run(root.url.appendingPathComponent("usr/bin/hello").path, []).stdout
                == "hello 1.1.0 x86_64-unknown-linux-gnu\n")

        // A repomd.xml changed after signing is refused.
        let repomd = published.url.appendingPathComponent("dnf/repodata/repomd.xml")
        let text = try String(contentsOf: repomd, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "<revision>", with: "<revision>1").utf8).write(to: repomd)
        _ = try sh("rm -rf cache", in: state.url)
        let tampered = try dnf("--refresh makecache", state: state.url, root: root.url, published: published.url)
        #expect(
            tampered.status != 0 && (tampered.stdout + tampered.stderr).lowercased().contains("signature"),
            "\(tampered)")
    }
}

extension DnfRepositoryCLITests {
    /// Every file under dist/apt and dist/dnf with its SHA-256 (sha256sum's, not relctl's).
    func treeDigests(_ fixture: LinuxPackageFixture) throws -> String {
        let listed = try sh("find apt dnf -type f | LC_ALL=C sort | xargs sha256sum", in: fixture.dist)
        try #require(listed.status == 0 && listed.stderr.isEmpty, "\(listed)")
        return listed.stdout
    }

    /// Byte-identical (issue 44): running `repository` again for the same tag, alone or on top of
    /// its own published copy (`[repository] previous`), changes no byte of either repository:
    /// not repomd.xml, its signature, the compressed indexes, nor apt's Release files.
    @Test func rerunningForTheSameTagChangesNoByteWithOrWithoutPrevious() throws {
        let (fixture, _) = try project(tables: "[[package]]\nformat = \"deb\"\n\n[apt]\nsuite = \"stable\"\n")
        let first = try released(fixture, version: "1.0.0")
        try #require(first.status == 0, "\(first)")
        let before = try treeDigests(fixture)
        for file in [
            "dnf/repodata/repomd.xml", "dnf/repodata/repomd.xml.asc", "-primary.xml.gz", "-filelists.xml.gz",
            "-other.xml.gz", "dnf/Packages/hello-1.0.0-1.x86_64.rpm", "apt/dists/stable/InRelease",
            "apt/dists/stable/Release.gpg", "apt/dists/stable/main/binary-amd64/Packages.gz",
        ] {
            #expect(before.contains(file), "\(file) missing in\n\(before)")
        }

        let again = try relctl(["repository", "--tag", "v1.0.0"], in: fixture.url)
        #expect(again.status == 0, "\(again)")
        #expect(try treeDigests(fixture) == before)

        // Published, then named as the previous repository: the same release adds nothing.
        let published = try TemporaryDirectory(prefix: "relctl-published")
        _ = try sh("cp -a dist/apt dist/dnf \"$OUT\"/", in: fixture.url, environment: ["OUT": published.path])
        try Data(
            (try String(contentsOf: fixture.url.appendingPathComponent("relctl.toml"), encoding: .utf8)
                + "previous = \"\(published.path)\"\n").utf8
        ).write(to: fixture.url.appendingPathComponent("relctl.toml"))
        let extended = try relctl(["repository", "--tag", "v1.0.0"], in: fixture.url)
        #expect(extended.status == 0, "\(extended)")
        #expect(try treeDigests(fixture) == before)
        let diff = try run(
            "diff", ["-r", published.url.appendingPathComponent("dnf").path, "dist/dnf"], in: fixture.url)
        #expect(diff.status == 0 && diff.stdout.isEmpty, "\(diff)")
    }
}

extension DnfRepositoryCLITests {
    /// An RSA repository key as gpg exports it (issue 44): both repositories signed with it
    /// (PKCS#1 v1.5 over SHA-256), accepted by gpgv, apt-get and dnf, checked by `relctl verify`.
    @Test func anRSAKeySignsBothRepositoriesForGpgvAptAndDnf() throws {
        let (fixture, key) = try project(
            tables: "[[package]]\nformat = \"deb\"\n\n[apt]\nsuite = \"stable\"\n", algorithm: "rsa3072")
        let first = try released(fixture, version: "1.0.0")
        try #require(first.status == 0, "\(first)")
        let suite = fixture.dist.appendingPathComponent("apt/dists/stable")
        let repodata = fixture.dist.appendingPathComponent("dnf/repodata")
        for arguments in [
            [suite.appendingPathComponent("InRelease").path],
            [suite.appendingPathComponent("Release.gpg").path, suite.appendingPathComponent("Release").path],
            [
                repodata.appendingPathComponent("repomd.xml.asc").path,
                repodata.appendingPathComponent("repomd.xml").path,
            ],
        ] {
            let checked = try run("gpgv", ["--keyring", key.keyring.path] + arguments)
            #expect(checked.status == 0 && checked.stderr.contains("using RSA key"), "\(checked)")
        }
        // PKCS#1 v1.5 has no random part: a re-run signs to the same bytes.
        let signatures = [suite.appendingPathComponent("InRelease"), repodata.appendingPathComponent("repomd.xml.asc")]
        let before = try signatures.map { try Data(contentsOf: $0) }
        let again = try relctl(["repository", "--tag", "v1.0.0"], in: fixture.url)
        #expect(again.status == 0, "\(again)")
        #expect(try signatures.map { try Data(contentsOf: $0) } == before)
        let verified = try relctl(["verify", "--repository-key", key.keyring.path], in: fixture.url)
        #expect(
            verified.status == 0 && verified.stderr.contains("apt: signatures good")
                && verified.stderr.contains("dnf: signatures good"), "\(verified)")

        let published = try TemporaryDirectory(prefix: "relctl-published")
        _ = try sh("cp -a dist/apt dist/dnf \"$OUT\"/", in: fixture.url, environment: ["OUT": published.path])
        let apt = AptRepositoryCLITests()
        let source =
            "deb [signed-by=\(published.path)/apt/hello-archive-keyring.gpg] copy:\(published.path)/apt stable main"
        let aptState = try TemporaryDirectory(prefix: "relctl-apt-state")
        let aptRoot = try apt.dpkgRoot()
        let update = try apt.apt("update", state: aptState.url, root: aptRoot.url, source: source)
        #expect(update.status == 0 && !update.stdout.contains("W:") && !update.stderr.contains("W:"), "\(update)")
        let download = try apt.apt(
            "install -y --download-only hello", state: aptState.url, root: aptRoot.url, source: source)
        #expect(download.status == 0 && download.stdout.contains("hello"), "\(download)")

        let dnfState = try TemporaryDirectory(prefix: "relctl-dnf-state")
        let dnfRoot = try TemporaryDirectory(prefix: "relctl-dnf-root")
        let installed = try dnf("install hello", state: dnfState.url, root: dnfRoot.url, published: published.url)
        #expect(installed.status == 0, "\(installed)")
        #expect(
            try run(dnfRoot.url.appendingPathComponent("usr/bin/hello").path, []).stdout
                == "hello 1.0.0 x86_64-unknown-linux-gnu\n")

        // The same key still refuses a changed file.
        let inRelease = suite.appendingPathComponent("InRelease")
        let text = try String(contentsOf: inRelease, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "Suite: stable", with: "Suite: stabl3").utf8).write(to: inRelease)
        let tampered = try relctl(["verify", "--repository-key", key.keyring.path], in: fixture.url)
        #expect(tampered.status == 1 && tampered.stderr.contains("BAD signature"), "\(tampered)")
    }
}

extension DnfRepositoryCLITests {
    /// `--publish` with `[repository] branch` and `folder` (issue 44): both repositories committed
    /// to a new, history-less `gh-pages` of the project's remote; a second publish commits nothing;
    /// a repository that would drop a published package (no `previous`) is refused, and with the
    /// branch checked out as `previous` the next release adds to it.
    @Test func publishCommitsTheRepositoriesToABranchOnceAndNeverDropsAPackage() throws {
        let (fixture, _) = try project(tables: "[[package]]\nformat = \"deb\"\n\n[apt]\nsuite = \"stable\"\n")
        let config = fixture.url.appendingPathComponent("relctl.toml")
        let remote = try TemporaryDirectory(prefix: "relctl-pages-remote")
        let environment = ["GIT_CONFIG_GLOBAL": "/dev/null"]
        _ = try fixture.repository.commit(
            "chore: publish the repositories",
            files: [
                "relctl.toml": try String(contentsOf: config, encoding: .utf8)
                    + "branch = \"gh-pages\"\nfolder = \"packages\"\n"
            ])
        let made = try run("git", ["init", "-q", "--bare", "-b", "main", remote.path])
        try #require(made.status == 0, "\(made)")
        _ = try fixture.repository.git("remote", "add", "origin", remote.path)
        _ = try fixture.repository.git("push", "-q", "origin", "HEAD:refs/heads/main")
        let main = try run("git", ["-C", remote.path, "rev-parse", "main"]).stdout
        let first = try released(fixture, version: "1.0.0")
        try #require(first.status == 0, "\(first)")

        let published = try relctl(
            ["repository", "--tag", "v1.0.0", "--publish"], in: fixture.url, environment: environment)
        #expect(published.status == 0, "\(published)")
        let listed = try run("git", ["-C", remote.path, "ls-tree", "-r", "--name-only", "gh-pages"])
        for path in [
            "packages/apt/dists/stable/InRelease", "packages/apt/pool/main/h/hello/hello_1.0.0_amd64.deb",
            "packages/apt/hello-archive-keyring.gpg", "packages/dnf/repodata/repomd.xml.asc",
            "packages/dnf/Packages/hello-1.0.0-1.x86_64.rpm",
        ] {
            #expect(listed.stdout.contains(path + "\n"), "\(path) missing in\n\(listed)")
        }
        // A branch of its own: nothing of the project's default branch in it.
        #expect(
            listed.status == 0 && listed.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("packages/") },
            "\(listed)")
        #expect(try run("git", ["-C", remote.path, "rev-list", "--count", "gh-pages"]).stdout == "1\n")
        #expect(try run("git", ["-C", remote.path, "rev-parse", "main"]).stdout == main, "main is left alone")
        let inRelease = try run("git", ["-C", remote.path, "show", "gh-pages:packages/apt/dists/stable/InRelease"])
        #expect(
            inRelease.stdout
                == (try String(
                    contentsOf: fixture.dist.appendingPathComponent("apt/dists/stable/InRelease"), encoding: .utf8)))
        let head = try run("git", ["-C", remote.path, "rev-parse", "gh-pages"]).stdout
        let again = try relctl(
            ["repository", "--tag", "v1.0.0", "--publish"], in: fixture.url, environment: environment)
        #expect(again.status == 0 && again.stderr.contains("already has"), "\(again)")
        #expect(try run("git", ["-C", remote.path, "rev-parse", "gh-pages"]).stdout == head, "a no-op committed")

        // The next release, in a fresh dist/ (as a new CI checkout has) and without `previous`,
        // lists 1.1.0 only: publishing it would drop 1.0.0.
        _ = try fixture.repository.commit("feat: say more", files: ["VERSION": "1.1.0\n"])
        try FileManager.default.removeItem(at: fixture.dist)
        let second = try released(fixture, version: "1.1.0")
        try #require(second.status == 0, "\(second)")
        let refused = try relctl(
            ["repository", "--tag", "v1.1.0", "--publish"], in: fixture.url, environment: environment)
        #expect(
            refused.status == 1 && refused.stderr.contains("1.0.0") && refused.stderr.contains("previous"),
            "\(refused)")
        #expect(try run("git", ["-C", remote.path, "rev-parse", "gh-pages"]).stdout == head, "a refusal committed")

        // With the branch checked out as `previous`: both versions published, old indexes gone.
        let checkout = try TemporaryDirectory(prefix: "relctl-pages-checkout")
        let cloned = try run("git", ["clone", "-q", "--branch", "gh-pages", remote.path, checkout.path])
        try #require(cloned.status == 0, "\(cloned)")
        _ = try fixture.repository.commit(
            "chore: extend the published repository",
            files: [
                "relctl.toml": try String(contentsOf: config, encoding: .utf8)
                    + "previous = \"\(checkout.path)/packages\"\n"
            ])
        let extended = try released(fixture, version: "1.1.0")
        try #require(extended.status == 0, "\(extended)")
        let republished = try relctl(
            ["repository", "--tag", "v1.1.0", "--publish"], in: fixture.url, environment: environment)
        #expect(republished.status == 0, "\(republished)")
        #expect(try run("git", ["-C", remote.path, "rev-list", "--count", "gh-pages"]).stdout == "2\n")
        let both = try run("git", ["-C", remote.path, "ls-tree", "-r", "--name-only", "gh-pages"]).stdout
        for path in [
            "packages/apt/pool/main/h/hello/hello_1.0.0_amd64.deb",
            "packages/apt/pool/main/h/hello/hello_1.1.0_amd64.deb",
            "packages/dnf/Packages/hello-1.0.0-1.x86_64.rpm", "packages/dnf/Packages/hello-1.1.0-1.x86_64.rpm",
        ] {
            #expect(both.contains(path + "\n"), "\(path) missing in\n\(both)")
        }
        #expect(both.split(separator: "\n").filter { $0.hasSuffix("-primary.xml.gz") }.count == 1, "\(both)")
    }
}

extension DnfRepositoryCLITests {
    /// The release workflow `ci generate` writes for `[repository] branch` (issue 56) publishes the
    /// repository: its "Publish the APT and DNF repository" step, read from the YAML and run by
    /// bash as a runner runs it, makes `gh-pages` with the first release and, on the next release
    /// from a fresh dist/, checks the branch out as `--previous` so both versions are published.
    @Test func theGeneratedWorkflowPublishesTheRepositoryAndKeepsEveryVersion() throws {
        let (fixture, _) = try project(tables: "[[package]]\nformat = \"deb\"\n\n[apt]\nsuite = \"stable\"\n")
        let config = fixture.url.appendingPathComponent("relctl.toml")
        let remote = try TemporaryDirectory(prefix: "relctl-pages-remote")
        let runnerTemp = try TemporaryDirectory(prefix: "relctl-runner-temp")
        _ = try fixture.repository.commit(
            "chore: publish the repositories",
            files: [
                "relctl.toml": try String(contentsOf: config, encoding: .utf8)
                    + "branch = \"gh-pages\"\nfolder = \"packages\"\n"
            ])
        let made = try run("git", ["init", "-q", "--bare", "-b", "main", remote.path])
        try #require(made.status == 0, "\(made)")
        _ = try fixture.repository.git("remote", "add", "origin", remote.path)
        _ = try fixture.repository.git("push", "-q", "origin", "HEAD:refs/heads/main")

        let generated = try relctl(["ci", "generate"], in: fixture.url)
        try #require(generated.status == 0, "\(generated)")
        let read = try run(
            "python3",
            [
                "-c",
                "import json, sys, yaml; print(json.dumps([s.get('name') for s in yaml.safe_load(open(sys.argv[1]))['jobs']['release']['steps']])); print(json.dumps([s for s in yaml.safe_load(open(sys.argv[1]))['jobs']['release']['steps'] if s.get('name') == 'Publish the APT and DNF repository']))",
                fixture.url.appendingPathComponent(".github/workflows/release.yml").path,
            ])
        try #require(read.status == 0, "\(read)")
        let lines = read.stdout.split(separator: "\n").map { Data($0.utf8) }
        let names = try #require(try JSONSerialization.jsonObject(with: lines[0]) as? [String])
        #expect(
            names.suffix(2) == ["Publish the GitHub release", "Publish the APT and DNF repository"],
            "the repository is published after the release: \(names)")
        let steps = try #require(try JSONSerialization.jsonObject(with: lines[1]) as? [[String: Any]])
        try #require(steps.count == 1, "\(read.stdout)")
        let env = try #require(steps[0]["env"] as? [String: String])
        let script = try #require(steps[0]["run"] as? String)
        #expect(env["RELCTL_REPOSITORY_KEY"] == "${{ secrets.RELCTL_REPOSITORY_KEY }}", "\(env)")
        #expect(env["PAGES_BRANCH"] == "gh-pages" && env["PAGES_FOLDER"] == "packages", "\(env)")
        #expect(!script.contains("gh-pages") && !script.contains("${{"), "values reach the script as variables: \(script)")

        // The step as the runner runs it: its env (expressions left out: no secret here, the key is
        // the config's file), TAG, RUNNER_TEMP and the relctl under test on PATH.
        func runStep(tag: String) throws -> RunResult {
            var environment = env.filter { !$0.value.contains("${{") }
            environment["TAG"] = tag
            environment["RUNNER_TEMP"] = runnerTemp.path
            environment["GIT_CONFIG_GLOBAL"] = "/dev/null"
            environment["PATH"] =
                relctlBinary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")
            return try run(
                "bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], in: fixture.url,
                environment: environment)
        }
        let first = try released(fixture, version: "1.0.0")
        try #require(first.status == 0, "\(first)")
        let published = try runStep(tag: "v1.0.0")
        #expect(published.status == 0, "\(published)")
        let listed = try run("git", ["-C", remote.path, "ls-tree", "-r", "--name-only", "gh-pages"])
        #expect(listed.stdout.contains("packages/apt/pool/main/h/hello/hello_1.0.0_amd64.deb\n"), "\(listed)")

        // The next release from a fresh dist/: without the branch as `--previous` it would be refused.
        _ = try fixture.repository.commit("feat: say more", files: ["VERSION": "1.1.0\n"])
        try FileManager.default.removeItem(at: fixture.dist)
        let second = try released(fixture, version: "1.1.0")
        try #require(second.status == 0, "\(second)")
        let extended = try runStep(tag: "v1.1.0")
        #expect(extended.status == 0, "\(extended)")
        #expect(try run("git", ["-C", remote.path, "rev-list", "--count", "gh-pages"]).stdout == "2\n")
        let both = try run("git", ["-C", remote.path, "ls-tree", "-r", "--name-only", "gh-pages"]).stdout
        for path in [
            "packages/apt/pool/main/h/hello/hello_1.0.0_amd64.deb",
            "packages/apt/pool/main/h/hello/hello_1.1.0_amd64.deb",
            "packages/dnf/Packages/hello-1.0.0-1.x86_64.rpm", "packages/dnf/Packages/hello-1.1.0-1.x86_64.rpm",
        ] {
            #expect(both.contains(path + "\n"), "\(path) missing in\n\(both)")
        }
    }
}
