import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Issue 63, "Read intent where projects record it": change fragments (towncrier, changesets),
/// Cargo's 0.x rule as release-plz applies it, and a release cadence, each a `[versioning]` key
/// that `init` writes from the repository and `bump`/`plan` honour. Generated repositories shaped
/// like the projects that keep them, driven through the built binary.
/// Every commit changes a file: empty commits share one patch id, which `--cherry-pick` would drop.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct VersionIntentCLITests {
    static func bump(_ repository: GitRepository, _ arguments: [String] = []) throws -> (RunResult, String) {
        let result = try relctl(["bump"] + arguments, in: repository.url)
        #expect(result.status == 0, "\(result)")
        return (result, result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    static func bumpJSON(_ repository: GitRepository) throws -> [String: Any] {
        let result = try relctl(["bump", "--json"], in: repository.url)
        #expect(result.status == 0, "\(result)")
        return (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]) ?? [:]
    }

    static func pyproject(_ version: String, towncrier: String = "") -> String {
        "[project]\nname = \"attrs\"\nversion = \"\(version)\"\n\n" + towncrier
    }

    static func initialise(_ repository: GitRepository) throws -> String {
        let result = try relctl(["init"], in: repository.url)
        #expect(result.status == 0, "\(result)")
        return try repository.directory.read("relctl.toml")
    }

    /// towncrier (pytest, attrs, twisted): commit subjects carry no type; the fragments in
    /// `changelog.d/` say a feature is coming (a minor) or a removal (a major). `init` writes
    /// `fragments = "towncrier"` from `[tool.towncrier]`, and bump and plan read the folder it names.
    @Test func towncrierFragmentsGiveTheLevel() throws {
        let repository = try GitRepository()
        let towncrier = "[tool.towncrier]\ndirectory = \"changelog.d\"\n"
        try repository.commit(
            "Release 1.4.0",
            files: ["pyproject.toml": Self.pyproject("1.4.0", towncrier: towncrier), "README.md": "x\n"])
        try repository.git("tag", "-a", "1.4.0", "-m", "1.4.0")
        try repository.commit(
            "Add a way to frobnicate", files: ["src/a.py": "a\n", "changelog.d/1234.feature.md": "Frobnicate.\n"])
        try repository.commit("Fix a typo", files: ["src/b.py": "b\n", "changelog.d/1240.bugfix.md": "Typo.\n"])
        let written = try Self.initialise(repository)
        #expect(written.contains("[versioning]\nfragments = \"towncrier\""), "\(written)")
        let (result, next) = try Self.bump(repository)
        #expect(next == "1.5.0", "a feature fragment gives a minor: \(result)")
        #expect(result.stderr.contains("changelog.d/1234.feature.md calls for a minor"), "says why: \(result)")
        let planned = try MemberPlanDocument.run(in: repository.url).members.first
        #expect(planned?.next == "1.5.0" && planned?.reason == "feat", "\(String(describing: planned))")

        // towncrier's default `removal` is "Deprecations and Removals" (urllib3 ships them in
        // minors); a breaking fragment is a major. A custom folder from `[tool.towncrier] directory` is read.
        try repository.commit("Drop Python 3.8", files: ["changelog.d/1250.removal.md": "Gone.\n"])
        #expect(try Self.bump(repository).1 == "1.5.0")
        try repository.commit("Rename the entry point", files: ["changelog.d/1251.breaking.md": "Renamed.\n"])
        #expect(try Self.bump(repository).1 == "2.0.0")
        try repository.git("rm", "-q", "changelog.d/1251.breaking.md")
        try repository.commit("Keep the entry point")
        // Where the project names its removals breaking (pytest), a removal is a major.
        try repository.directory.write(
            "pyproject.toml",
            Self.pyproject(
                "1.4.0",
                towncrier: towncrier
                    + "\n[[tool.towncrier.type]]\ndirectory = \"removal\"\nname = \"Removals and backward incompatible breaking changes\"\n\n[[tool.towncrier.type]]\ndirectory = \"feature\"\nname = \"Features\"\n"))
        try repository.commit("Name the removals")
        #expect(try Self.bump(repository).1 == "2.0.0")

        // Without the key, the same history is a patch: the fragments are what made it a minor.
        try repository.directory.write(
            "relctl.toml", written.replacingOccurrences(of: "fragments = \"towncrier\"", with: ""))
        #expect(try Self.bump(repository).1 == "1.4.1")
    }

    /// Below 1.0.0 a removal is a minor, as a breaking commit is; fragments in towncrier's default
    /// `newsfragments/` with the project's own types (`[[tool.towncrier.type]]`), and the highest
    /// of the commits and the fragments wins (a `feat!:` commit over a bugfix fragment).
    @Test func towncrierBelowOneAndTheHighestOfBoth() throws {
        let repository = try GitRepository()
        let towncrier = """
            [tool.towncrier]
            package = "frob"

            [[tool.towncrier.type]]
            directory = "breaking"
            name = "Breaking changes"

            [[tool.towncrier.type]]
            directory = "bugfix"
            name = "Fixes"

            """
        let config =
            "[project]\nname = \"frob\"\ntag-format = \"v{version}\"\n\n[[version]]\npath = \"pyproject.toml\"\n\n[versioning]\nfragments = \"towncrier\"\n"
        try repository.commit(
            "v0.7.2", files: ["pyproject.toml": Self.pyproject("0.7.2", towncrier: towncrier), "relctl.toml": config])
        try repository.git("tag", "-a", "v0.7.2", "-m", "v0.7.2")
        try repository.commit("Rework the API", files: ["frob/newsfragments/12.breaking.rst": "New API.\n"])
        #expect(try Self.bump(repository).1 == "0.8.0", "a breaking fragment below 1.0.0 is a minor")
        try repository.git("rm", "-q", "frob/newsfragments/12.breaking.rst")
        try repository.commit("feat!: change the CLI", files: ["frob/newsfragments/13.bugfix.rst": "Fix.\n"])
        let json = try Self.bumpJSON(repository)
        #expect(json["next"] as? String == "0.8.0", "the commit's breaking change wins over the bugfix: \(json)")
    }

    /// changesets in a pnpm workspace (sveltejs/kit): each member's level is the highest its
    /// changesets give it, by package name, `major` meaning 1.0.0 below it as `changeset version`
    /// does; a member no changeset names keeps its commits' level. `init` writes the key.
    @Test func changesetsGiveEachMemberItsLevel() throws {
        let repository = try GitRepository()
        func package(_ name: String, _ version: String) -> String {
            "{\n  \"name\": \"\(name)\",\n  \"version\": \"\(version)\"\n}\n"
        }
        try repository.commit(
            "chore: release",
            files: [
                "package.json":
                    "{\n  \"name\": \"root\",\n  \"private\": true,\n  \"workspaces\": [\"packages/*\"]\n}\n",
                ".changeset/config.json": "{}\n",
                ".changeset/README.md": "---\n\"@acme/kit\": major\n---\nNot a changeset.\n",
                "packages/kit/package.json": package("@acme/kit", "2.2.0"),
                "packages/adapter/package.json": package("@acme/adapter", "0.3.1"),
                "packages/other/package.json": package("@acme/other", "1.0.0"),
            ])
        for tag in ["@acme/kit@2.2.0", "@acme/adapter@0.3.1", "@acme/other@1.0.0"] {
            try repository.git("tag", "-a", tag, "-m", tag)
        }
        let written = try Self.initialise(repository)
        #expect(written.contains("fragments = \"changesets\""), "\(written)")
        try repository.commit(
            "Add the thing",
            files: [
                "packages/kit/src/a.js": "a\n", "packages/adapter/src/b.js": "b\n", "packages/other/src/c.js": "c\n",
                ".changeset/brave-dogs-sing.md":
                    "---\n\"@acme/kit\": minor\n'@acme/adapter': patch\n---\n\nThe thing.\n",
                ".changeset/calm-cats-run.md": "---\n\"@acme/adapter\": major\n\"@acme/kit\": patch\n---\n\nBig.\n",
            ])
        let (result, members) = try MemberPlanDocument.run(in: repository.url)
        let next = Dictionary(uniqueKeysWithValues: members.map { ($0.path, $0.next ?? "-") })
        #expect(
            next == ["packages/kit": "2.3.0", "packages/adapter": "1.0.0", "packages/other": "1.0.1"],
            "\(next) \(result)")
    }

    /// release-plz's rule for 0.x crates (cargo-binstall's libraries): a feat gives a patch
    /// (0.13.44 → 0.13.45), a breaking change a minor. `init` writes `zero-major = "cargo"` when the
    /// crate's own releases show feats released as patches; without it the default stays.
    @Test func cargosZeroMajorRule() throws {
        let repository = try GitRepository()
        func cargo(_ version: String) -> String { "[package]\nname = \"binstalk\"\nversion = \"\(version)\"\n" }
        try repository.commit("chore: release", files: ["Cargo.toml": cargo("0.13.41"), "src/lib.rs": "\n"])
        try repository.git("tag", "-a", "v0.13.41", "-m", "v0.13.41")
        for (index, version) in ["0.13.42", "0.13.43", "0.13.44"].enumerated() {
            try repository.commit("feat: feature \(index)", files: ["src/f\(index).rs": "\n"])
            try repository.commit("chore: release \(version)", files: ["Cargo.toml": cargo(version)])
            try repository.git("tag", "-a", "v\(version)", "-m", "v\(version)")
        }
        try repository.commit("feat: another feature", files: ["src/g.rs": "\n"])
        let written = try Self.initialise(repository)
        #expect(written.contains("zero-major = \"cargo\""), "\(written)")
        let (result, next) = try Self.bump(repository)
        #expect(next == "0.13.45", "\(result)")
        #expect(result.stderr.contains("zero-major = \"cargo\""), "says why: \(result)")
        try repository.commit("feat!: a breaking change", files: ["src/h.rs": "\n"])
        #expect(try Self.bump(repository).1 == "0.14.0")

        // The default is unchanged: a feat below 1.0.0 is a minor.
        try repository.git("reset", "-q", "--hard", "HEAD~1")
        try repository.directory.write(
            "relctl.toml", written.replacingOccurrences(of: "zero-major = \"cargo\"", with: ""))
        #expect(try Self.bump(repository).1 == "0.14.0")
    }

    /// A crate whose feats were released as minors gets no `zero-major` from init.
    @Test func initLeavesTheDefaultWhereFeatsWereMinors() throws {
        let repository = try GitRepository()
        func cargo(_ version: String) -> String { "[package]\nname = \"app\"\nversion = \"\(version)\"\n" }
        try repository.commit("chore: release", files: ["Cargo.toml": cargo("0.1.0"), "src/lib.rs": "\n"])
        try repository.git("tag", "-a", "v0.1.0", "-m", "v0.1.0")
        for (index, version) in ["0.2.0", "0.2.1", "0.3.0"].enumerated() {
            try repository.commit(
                version.hasSuffix(".1") ? "fix: a fix" : "feat: a feature", files: ["src/f\(index).rs": "\n"])
            try repository.commit("chore: release \(version)", files: ["Cargo.toml": cargo(version)])
            try repository.git("tag", "-a", "v\(version)", "-m", "v\(version)")
        }
        let written = try Self.initialise(repository)
        #expect(!written.contains("zero-major"), "\(written)")
    }

    /// A project that makes a minor every release whatever its commits say (untyped subjects):
    /// `init` writes `cadence = "minor"` from the last releases, and a plain fix then gives the
    /// next minor; a major cadence likewise (wasmtime's monthly majors, its patch releases on
    /// release branches not counted).
    @Test func aCadenceFromTheTagHistory() throws {
        for (kind, versions, expected) in [
            ("minor", ["1.3.0", "1.4.0", "1.5.0", "1.6.0", "1.7.0", "1.8.0"], "1.9.0"),
            ("major", ["43.0.0", "44.0.0", "45.0.0", "46.0.0", "47.0.0", "48.0.0"], "49.0.0"),
        ] {
            let repository = try GitRepository()
            try repository.commit("Start", files: ["VERSION": versions[0] + "\n"])
            try repository.git("tag", "-a", "v" + versions[0], "-m", versions[0])
            for version in versions.dropFirst() {
                try repository.commit("Release \(version)", files: ["VERSION": version + "\n"])
                try repository.git("tag", "-a", "v" + version, "-m", version)
            }
            if kind == "major" {
                // A patch on a release branch is that line's, not the cadence of main.
                try repository.git("checkout", "-q", "-b", "release-47", "v47.0.0")
                try repository.commit("Backport a fix", files: ["fix.txt": "f\n"])
                try repository.git("tag", "-a", "v47.0.1", "-m", "47.0.1")
                try repository.git("checkout", "-q", "main")
            }
            try repository.commit("Fix a crash", files: ["src/a.txt": "a\n"])
            let written = try Self.initialise(repository)
            #expect(written.contains("cadence = \"\(kind)\""), "\(kind): \(written)")
            let (result, next) = try Self.bump(repository)
            #expect(next == expected, "\(kind): \(result)")
            #expect(result.stderr.contains("cadence = \"\(kind)\""), "says why: \(result)")
            let planned = try MemberPlanDocument.run(in: repository.url).members.first
            #expect(planned?.next == expected, "\(String(describing: planned))")
        }
    }

    /// Patches among the last releases: no cadence.
    @Test func noCadenceWhereReleasesVary() throws {
        let repository = try GitRepository()
        for version in ["1.3.0", "1.4.0", "1.4.1", "1.5.0", "1.6.0", "1.7.0", "1.8.0"] {
            try repository.commit("Release \(version)", files: ["VERSION": version + "\n"])
            try repository.git("tag", "-a", "v" + version, "-m", version)
        }
        try repository.commit("Fix a crash", files: ["src/a.txt": "a\n"])
        let written = try Self.initialise(repository)
        #expect(!written.contains("cadence"), "\(written)")
        #expect(try Self.bump(repository).1 == "1.8.1")
    }

    /// attrs' `YY.N.0`: the first number the year each release was tagged in, the second counting
    /// the year's releases from 1. `init` writes `cadence = "year-counter"`; the next release in
    /// the same year counts on, the first of a new year is `YY.1.0`.
    @Test func aYearCounterCadence() throws {
        let repository = try GitRepository()
        let releases = [
            ("23.1.0", "2023-04-10"), ("23.2.0", "2023-12-31"), ("24.1.0", "2024-08-06"), ("24.2.0", "2024-08-06"),
            ("24.3.0", "2024-12-16"), ("25.1.0", "2025-03-13"), ("25.2.0", "2025-06-20"),
        ]
        for (version, day) in releases {
            let date = day + "T10:00:00Z"
            try repository.commit("Prepare \(version)", files: ["VERSION": version + "\n"], date: date)
            try repository.git(
                ["tag", "-a", version, "-m", version],
                environment: ["GIT_COMMITTER_DATE": date, "GIT_AUTHOR_DATE": date])
        }
        try repository.commit("Fix a thing", files: ["src/a.txt": "a\n"], date: "2025-09-01T10:00:00Z")
        let written = try Self.initialise(repository)
        #expect(written.contains("cadence = \"year-counter\""), "\(written)")
        let (result, next) = try Self.bump(repository)
        #expect(next == "25.3.0", "\(result)")
        try repository.commit("Fix another", files: ["src/b.txt": "b\n"], date: "2026-01-20T10:00:00Z")
        #expect(try Self.bump(repository).1 == "26.1.0")
        let planned = try MemberPlanDocument.run(in: repository.url).members.first
        #expect(planned?.next == "26.1.0" && planned?.tag == "26.1.0", "\(String(describing: planned))")
    }

    /// Issue 54: a member glob with `**` (pnpm's `packages/**`) reaches members deeper than one
    /// folder below it, never into node_modules; `plan` lists each once.
    @Test func deepMemberGlobs() throws {
        let repository = try GitRepository()
        func package(_ name: String) -> String { "{\n  \"name\": \"\(name)\",\n  \"version\": \"1.0.0\"\n}\n" }
        try repository.commit(
            "chore: start",
            files: [
                "relctl.toml": "[project]\nname = \"mono\"\n\n[workspace]\nmembers = [\"packages/**\"]\n",
                "packages/a/package.json": package("a"),
                "packages/group/b/package.json": package("b"),
                "packages/group/deeper/c/package.json": package("c"),
                "packages/a/node_modules/dep/package.json": package("dep"),
            ])
        let (result, members) = try MemberPlanDocument.run(in: repository.url)
        #expect(
            members.map(\.path) == ["packages/a", "packages/group/b", "packages/group/deeper/c"], "\(result)")
    }

    /// Issue 54: SwiftFormat keeps its version in a source file (`let swiftFormatVersion = "0.62.1"`)
    /// and a podspec. `init` writes a [[version]] for each (it only named them before), so `check`
    /// passes, `validate-tag` compares them and `bump --write` updates both lines; a file holding
    /// another version is not the project's: `init` and `check` name it, and it is left alone.
    @Test func aVersionInASwiftConstantOrAPodspecIsWrittenAsAVersionEntry() throws {
        let repository = try GitRepository()
        try repository.commit(
            "start",
            files: [
                "Package.swift":
                    "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"SwiftFormat\", products: [.executable(name: \"swiftformat\", targets: [\"CommandLineTool\"])], targets: [.executableTarget(name: \"CommandLineTool\")])\n",
                "Sources/SwiftFormat.swift":
                    "import Foundation\n\n/// The version\nlet swiftFormatName = \"x\"\nlet swiftFormatVersion = \"0.62.1\"\n",
                "Sources/CommandLineTool/main.swift": "print(1)\n",
                "Sources/CommandLineTool/CommandLineTool.swift": "let version = \"9.9.9\"\n",
                "SwiftFormat.podspec.json": "{\n  \"name\": \"SwiftFormat\",\n  \"version\": \"0.62.1\"\n}\n",
            ])
        try repository.git("tag", "-a", "0.62.1", "-m", "0.62.1")
        let result = try relctl(["init"], in: repository.url)
        #expect(result.status == 0, "\(result)")
        let config = try repository.directory.read("relctl.toml")
        #expect(config.contains("[[version]]\npath = \"Sources/SwiftFormat.swift\"\nkind = \"swift\""), "\(config)")
        #expect(config.contains("[[version]]\npath = \"SwiftFormat.podspec.json\"\nkind = \"regex\""), "\(config)")
        #expect(!config.contains("path = \"Sources/CommandLineTool/CommandLineTool.swift\""), "\(config)")
        let other = "Sources/CommandLineTool/CommandLineTool.swift holds `let version = \"9.9.9\"`"
        #expect(result.stderr.contains(other), "\(result)")
        #expect(!result.stderr.contains("SwiftFormat.podspec.json holds"), "\(result)")
        try repository.commit("chore: relctl.toml")

        let check = try relctl(["check"], in: repository.url)
        #expect(check.status == 0, "\(check)")
        #expect((check.stdout + check.stderr).contains(other), "\(check)")
        #expect(!(check.stdout + check.stderr).contains("Sources/SwiftFormat.swift holds"), "\(check)")
        #expect(try relctl(["validate-tag", "0.62.1"], in: repository.url).status == 0)
        let mismatch = try relctl(["validate-tag", "0.63.0"], in: repository.url)
        #expect(mismatch.status == 1 && mismatch.stderr.contains("Sources/SwiftFormat.swift"), "\(mismatch)")

        try repository.commit("feat: a new rule", files: ["Sources/CommandLineTool/main.swift": "print(2)\n"])
        let bumped = try relctl(["bump", "--write"], in: repository.url)
        #expect(bumped.status == 0, "\(bumped)")
        #expect(
            try repository.directory.read("Sources/SwiftFormat.swift").contains("let swiftFormatVersion = \"0.63.0\"\n"))
        #expect(try repository.directory.read("SwiftFormat.podspec.json").contains("\"version\": \"0.63.0\""))
        #expect(try repository.directory.read("Sources/CommandLineTool/CommandLineTool.swift") == "let version = \"9.9.9\"\n")
    }

    /// An unknown value is exit 2 naming the key and the values it takes.
    @Test func anUnknownValueIsRefused() throws {
        let repository = try GitRepository()
        try repository.commit(
            "start", files: ["relctl.toml": "[project]\nname = \"x\"\n\n[versioning]\nfragments = \"towncier\"\n"])
        let result = try relctl(["check"], in: repository.url)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("did you mean `towncrier`"), "\(result)")
    }
}
