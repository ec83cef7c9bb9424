import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What session 84's rounds left and session 85's rounds 38 and 39 found: each on a generated
/// repository of the shape read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound38CLITests {
    /// flame: a Dart workspace (the root pubspec.yaml's `workspace:` lists `packages/**`; melos
    /// versions each package, tagged `flame_audio-v2.12.2`) whose packages depend on each other by
    /// name. init saw no workspace, so `flame_audio` was never a member, and its releases for a
    /// dependency's release alone ("Update a dependency to the latest release.") were missed: 3 of
    /// 10 points (round 34). An example (`publish_to: none`) is never released.
    @Test(arguments: [true, false])
    func aDartWorkspacesPackagesAreMembersReleasedWithTheirDependencies(pubWorkspace: Bool) throws {
        let repository = try GitRepository()
        func files(_ engine: String, _ audio: String) -> [String: String] {
            var files = [
                "packages/engine/pubspec.yaml": """
                    name: engine
                    \(pubWorkspace ? "resolution: workspace\n" : "")version: \(engine)
                    dependencies:
                      meta: ^1.12.0
                    dev_dependencies:
                      lints: ^1.0.0
                    """,
                "packages/engine/lib/engine.dart": "// engine\n",
                "packages/engine/example/pubspec.yaml": "name: engine_example\npublish_to: none\ndependencies:\n  engine: ^\(engine)\n",
                "packages/engine_audio/pubspec.yaml": """
                    name: engine_audio
                    version: \(audio)

                    dependencies:
                      audioplayers: ^6.2.0
                      engine: ^\(engine)   # the engine itself
                    """,
                "packages/engine_audio/lib/audio.dart": "// audio\n",
            ]
            if pubWorkspace {
                files["pubspec.yaml"] = "name: _\npublish_to: none\nworkspace:\n  - packages/**\n\ndev_dependencies:\n  melos: ^7.0.0\n"
            } else {
                files["melos.yaml"] = "name: engine_workspace\n\npackages:\n  - \"packages/**\"\n"
            }
            return files
        }
        for (index, (engine, audio)) in [("1.30.0", "2.11.7"), ("1.31.0", "2.11.8"), ("1.32.0", "2.11.9")].enumerated() {
            try repository.commit(
                "chore(release): publish packages", files: files(engine, audio), date: "2025-0\(index + 1)-10T10:00:00Z")
            try repository.git("tag", "engine-v\(engine)")
            try repository.git("tag", "engine_audio-v\(audio)")
        }
        try repository.commit(
            "feat: A camera that follows two targets (#3400)",
            files: ["packages/engine/lib/engine.dart": "// camera\n"], date: "2025-04-10T10:00:00Z")
        let initialised = try relctl(["init", "--quiet"], in: repository.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = (try? String(contentsOf: repository.url.appendingPathComponent("relctl.toml"), encoding: .utf8)) ?? ""
        #expect(config.contains("[workspace]") && config.contains("packages/**"), "\(config)")
        let result = try relctl(["plan", "--json"], in: repository.url)
        #expect(result.status == 0, "\(result)")
        let plan = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]) ?? [:]
        let rows = (plan["members"] as? [[String: Any]]) ?? []
        let engine = rows.first { $0["name"] as? String == "engine" }
        let audio = rows.first { $0["name"] as? String == "engine_audio" }
        let example = rows.first { $0["name"] as? String == "engine_example" }
        #expect(engine?["next"] as? String == "1.33.0", "\(rows)")
        #expect(audio?["next"] as? String == "2.11.10", "\(rows)")
        #expect(audio?["reason"] as? String == "dependency", "\(rows)")
        #expect(example == nil || example?["next"] == nil || example?["next"] is NSNull, "\(rows)")
    }

    /// community.hashi_vault's galaxy.yml holds `4.3.0-devel` and amazon.aws' `11.0.0-dev0` while
    /// the next release is prepared: relctl proposed the marker itself (`6.3.0-dev0`, round 39),
    /// which it never proposes. Both are development markers, as `-dev` is.
    @Test(arguments: ["1.5.0-dev0", "1.5.0-devel", "1.5.0-devel.2"])
    func developmentMarkersSpelledDevelAndDev0AreNeverProposed(held: String) throws {
        let repository = try GitRepository()
        for (index, version) in ["1.3.0", "1.4.0"].enumerated() {
            try repository.commit("Release \(version)", files: ["VERSION": "\(version)\n", "main.c": "int v\(index);\n"], date: "2024-0\(index + 1)-10T10:00:00Z")
            try repository.git("tag", "v\(version)")
        }
        try repository.commit("Next expected version", files: ["VERSION": "\(held)\n"], date: "2024-05-10T10:00:00Z")
        try repository.commit("fix: a leak", files: ["main.c": "int w;\n"], date: "2024-06-10T10:00:00Z")
        let initialised = try relctl(["init", "--quiet"], in: repository.url)
        #expect(initialised.status == 0, "\(initialised)")
        let bump = try relctl(["bump"], in: repository.url)
        #expect(bump.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1.5.0", "\(bump)")
    }

    /// jobset (a Kubernetes project) tags `vX.Y.0-devel` on main as each cycle opens, and cuts
    /// release branches so late that the next cycle's opening is often made before the release:
    /// `v0.10.0-devel` before 0.9.0 shipped. relctl took the newest opening as the latest release
    /// and proposed its final (0.10.0 for 0.9.0), or nothing when it sat on the commit itself:
    /// 5 of 10 points (round 39). The lowest opening not yet released is the release in preparation.
    @Test(arguments: [true, false])
    func theLowestOpenedVersionNotYetReleasedIsNext(openedOnHead: Bool) throws {
        let repository = try GitRepository()
        try repository.commit("feat: the first API", files: ["api.go": "package api\n"], date: "2024-01-10T10:00:00Z")
        try repository.git("tag", "v0.1.0")
        try repository.commit("Open 0.2", files: ["docs.md": "0.2\n"], date: "2024-02-10T10:00:00Z")
        try repository.git("tag", "v0.2.0-devel")
        try repository.commit("feat: a second API", files: ["api.go": "package api // 2\n"], date: "2024-03-10T10:00:00Z")
        try repository.git("tag", "v0.2.0")
        try repository.commit("Open 0.3", files: ["docs.md": "0.3\n"], date: "2024-04-10T10:00:00Z")
        try repository.git("tag", "v0.3.0-devel")
        try repository.commit("Add a failure policy (#402)", files: ["policy.go": "package api\n"], date: "2024-05-10T10:00:00Z")
        try repository.commit("Open 0.4", files: ["docs.md": "0.4\n"], date: "2024-06-10T10:00:00Z")
        try repository.git("tag", "v0.4.0-devel")
        if !openedOnHead {
            try repository.commit("Fix the webhook (#410)", files: ["hook.go": "package api\n"], date: "2024-07-10T10:00:00Z")
        }
        let initialised = try relctl(["init", "--quiet"], in: repository.url)
        #expect(initialised.status == 0, "\(initialised)")
        let bump = try relctl(["bump"], in: repository.url)
        #expect(bump.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.3.0", "\(bump)")
    }

    /// Ansible collections: antsibull-changelog releases the version galaxy.yml holds, which the
    /// maintainers set; community.general named 12.6.1 there over a `minor_changes` fragment and
    /// released 12.6.1 (relctl proposed 12.7.0: 8 points of round 39). A `major_changes` fragment
    /// is a large feature, not a breaking one (hashi_vault's 6.1.0); `breaking_changes` still
    /// lifts a galaxy.yml that names the cycle's minor.
    @Test(arguments: [
        ("2.26.1", "minor_changes", "2.26.1"), ("2.27.0", "major_changes", "2.27.0"),
        ("2.26.0", "breaking_changes", "3.0.0"),
    ])
    func galaxyYmlsVersionIsTheReleaseUnderAntsibull(galaxy: String, section: String, next: String) throws {
        let repository = try GitRepository()
        func files(_ version: String) -> [String: String] {
            [
                "galaxy.yml": "namespace: community\nname: crypto\nversion: \(version)\nreadme: README.md\n",
                "changelogs/config.yaml": "changelog_filename_template: ../CHANGELOG.rst\nkeep_fragments: false\n",
                "changelogs/fragments/.keep": "",
                "plugins/modules/openssl_key.py": "# \(version)\n",
            ]
        }
        for (index, version) in ["2.25.0", "2.26.0"].enumerated() {
            try repository.commit("Release \(version).", files: files(version), date: "2025-0\(index + 1)-10T10:00:00Z")
            try repository.git("tag", version)
        }
        try repository.commit("Prepare \(galaxy).", files: ["galaxy.yml": files(galaxy)["galaxy.yml"]!], date: "2025-03-10T10:00:00Z")
        try repository.commit(
            "Fix the key size check (#900)",
            files: [
                "plugins/modules/openssl_key.py": "# fixed\n",
                "changelogs/fragments/900-key-size.yml": "\(section):\n  - openssl_key - check the key size (https://github.com/x/y/pull/900).\n",
            ], date: "2025-04-10T10:00:00Z")
        let initialised = try relctl(["init", "--quiet"], in: repository.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = (try? String(contentsOf: repository.url.appendingPathComponent("relctl.toml"), encoding: .utf8)) ?? ""
        #expect(config.contains("fragments = \"antsibull\""), "\(config)")
        let bump = try relctl(["bump"], in: repository.url)
        #expect(bump.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == next, "\(bump)")
    }

    /// Gradle builds write the version in preparation as `-SNAPSHOT`: gradle.properties'
    /// `VERSION_NAME=4.4.0-SNAPSHOT` (apollo-kotlin, coil), `version=…` (mockk), or the root
    /// build script's `version = "5.1.0-SNAPSHOT"` (okhttp). init read none ("no manifest found")
    /// and proposed patches: apollo-kotlin 7 → 10, okhttp 5 → 10 (round 41).
    @Test(arguments: [
        ("gradle.properties", "GROUP=com.apollographql.apollo\nVERSION_NAME=4.4.0-SNAPSHOT\nkotlin.code.style=official\n"),
        ("build.gradle.kts", "plugins {\n  kotlin(\"jvm\")\n}\n\nallprojects {\n  version = \"4.4.0-SNAPSHOT\"\n}\n"),
        ("build.gradle", "apply plugin: 'java'\nversion = '4.4.0-SNAPSHOT'\n"),
    ])
    func aGradleBuildsSnapshotIsTheVersionInPreparation(path: String, text: String) throws {
        let repository = try GitRepository()
        try repository.commit(
            "Initial", files: ["settings.gradle.kts": "rootProject.name = \"apollo-kotlin\"\n", "src/A.kt": "class A\n"],
            date: "2025-01-10T10:00:00Z")
        for (index, version) in ["4.2.0", "4.3.0"].enumerated() {
            try repository.commit("Release \(version)", files: ["src/A.kt": "class A // \(index)\n"], date: "2025-0\(index + 2)-10T10:00:00Z")
            try repository.git("tag", "v\(version)")
        }
        try repository.commit("Prepare the next development version", files: [path: text], date: "2025-04-10T10:00:00Z")
        try repository.commit("Fix a crash in the normalized cache (#6110)", files: ["src/A.kt": "class A // fixed\n"], date: "2025-05-10T10:00:00Z")
        let initialised = try relctl(["init", "--quiet"], in: repository.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = (try? String(contentsOf: repository.url.appendingPathComponent("relctl.toml"), encoding: .utf8)) ?? ""
        #expect(config.contains("path = \"\(path)\""), "\(config)")
        #expect(config.contains("name = \"apollo-kotlin\""), "\(config)")
        let bump = try relctl(["bump"], in: repository.url)
        #expect(bump.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "4.4.0", "\(bump)")
    }

    /// circuit writes the next minor's `-SNAPSHOT` after every release and ships patches under it
    /// (0.33.1 while gradle.properties said `0.34.0-SNAPSHOT`), and snuba the next month's `.dev0`
    /// (26.4.1 under `26.5.0.dev0`): relctl proposed each marker's final (snuba 2 of 10 points,
    /// round 38). Once a release was cut below the marker its manifest held, markers do not bind.
    @Test(arguments: [
        ("gradle.properties", "VERSION_NAME=", "-SNAPSHOT", ""),
        ("pyproject.toml", "[project]\nname = \"snuba\"\nversion = \"", ".dev0", "\"\n"),
    ])
    func aMarkerTheProjectReleasedBelowDoesNotBind(path: String, head: String, marker: String, tail: String) throws {
        let repository = try GitRepository()
        func file(_ version: String) -> [String: String] { [path: head + version + tail] }
        try repository.commit("Initial", files: file("0.1.0" + marker).merging(["src.txt": "0\n"]) { $1 }, date: "2025-01-10T10:00:00Z")
        // 0.32.0, then the next minor's marker, and 0.32.1 cut below it.
        try repository.commit("Release 0.32.0", files: file("0.32.0"), date: "2025-02-10T10:00:00Z")
        try repository.git("tag", "0.32.0")
        try repository.commit("Prepare next development version", files: file("0.33.0" + marker), date: "2025-02-11T10:00:00Z")
        try repository.commit("Fix the overlay", files: ["src.txt": "1\n"], date: "2025-02-20T10:00:00Z")
        try repository.commit("Release 0.32.1", files: file("0.32.1"), date: "2025-03-10T10:00:00Z")
        try repository.git("tag", "0.32.1")
        try repository.commit("Prepare next development version", files: file("0.33.0" + marker), date: "2025-03-11T10:00:00Z")
        try repository.commit("Add the overlay host", files: ["src.txt": "2\n"], date: "2025-03-20T10:00:00Z")
        try repository.commit("Release 0.33.0", files: file("0.33.0"), date: "2025-04-10T10:00:00Z")
        try repository.git("tag", "0.33.0")
        try repository.commit("Prepare next development version", files: file("0.34.0" + marker), date: "2025-04-11T10:00:00Z")
        try repository.commit("Fix the navigator's back stack", files: ["src.txt": "3\n"], date: "2025-05-10T10:00:00Z")
        let initialised = try relctl(["init", "--quiet"], in: repository.url)
        #expect(initialised.status == 0, "\(initialised)")
        let bump = try relctl(["bump"], in: repository.url)
        #expect(bump.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.33.1", "\(bump)")
        #expect(bump.stderr.contains("0.32.1 was released while \(path) held 0.33.0\(marker)"), "\(bump)")
    }

    /// coredns' `v001` … `v011` of 2016 (read as 2.0.0 … 11.0.0) and docker-minecraft-server's
    /// `20200413` are tags of no release line relctl reads, yet became the latest release
    /// (coredns 0 of 10 points, round 41; itzg 0 of 10, round 42): another spelling's final counts
    /// only on the format's own major or the next, never with a leading zero.
    @Test(arguments: ["v011", "v002", "20200413"])
    func anOldCounterTagInAnotherSpellingIsNotTheLatestRelease(stray: String) throws {
        let repository = try GitRepository()
        try repository.commit("Initial", files: ["main.go": "package main\n"], date: "2016-01-10T10:00:00Z")
        try repository.git("tag", stray)
        for (index, version) in ["1.13.0", "1.13.1"].enumerated() {
            try repository.commit("Release \(version)", files: ["main.go": "package main // \(index)\n"], date: "2025-0\(index + 1)-10T10:00:00Z")
            try repository.git("tag", "v\(version)")
        }
        try repository.commit("fix: a leak in the cache plugin", files: ["cache.go": "package main\n"], date: "2025-04-10T10:00:00Z")
        let initialised = try relctl(["init", "--quiet"], in: repository.url)
        #expect(initialised.status == 0, "\(initialised)")
        let bump = try relctl(["bump"], in: repository.url)
        #expect(bump.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1.13.2", "\(bump)")
    }
}
