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

@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct ManifestReaderTests {
    func read(
        _ path: String, kind: String? = nil, pattern: String? = nil, in dir: TemporaryDirectory
    ) throws -> ManifestVersion {
        let source = VersionSource(
            path: path, kind: kind ?? ManifestReaders.kind(forFileName: path) ?? "?", pattern: pattern)
        return try ManifestReaders.read(source, root: dir.url)
    }

    @Test func crlfByteOrderMarkAndBlankLinesKeepTheRightLine() throws {
        try withTemporaryDirectory { dir in
            try dir.write("Cargo.toml", "[package]\r\nname = \"x\"\r\n\r\nversion = \"1.0.0\"\r\n")
            try dir.write("VERSION", "\u{FEFF}\r\n\r\n 2.0.0 \r\n")
            try dir.write("app.swift", "// x\r\nlet version = \"3.0.0\"\r\n")
            let cargo = try read("Cargo.toml", in: dir)
            #expect(cargo.text == "1.0.0" && cargo.line == 4)
            let plain = try read("VERSION", in: dir)
            #expect(plain.text == "2.0.0" && plain.line == 3)
            let swift = try read("app.swift", in: dir)
            #expect(swift.text == "3.0.0" && swift.line == 2)
            try dir.write("two/VERSION", "1.0.0\n2.0.0\n")
            #expect(
                throws: ManifestError.invalid(
                    path: "two/VERSION", line: 2,
                    reason:
                        "a `plain` version file must hold only the version; use kind `regex` with a `pattern` for anything else"
                )
            ) {
                try read("two/VERSION", in: dir)
            }
            #expect(
                throws: ManifestError.invalid(
                    path: "two", line: nil,
                    reason: "is a directory; point `path` in its [[version]] entry at the manifest file inside it")
            ) {
                try read("two", kind: "plain", in: dir)
            }
        }
    }

    @Test func cargoPackageVersion() throws {
        try withTemporaryDirectory { dir in
            try dir.write(
                "Cargo.toml",
                """
                [package]
                name = "velostream"
                version = "1.4.0-beta.2"
                edition = "2021"

                [dependencies]
                serde = { version = "1.0", features = ["derive"] }
                """)
            let found = try read("Cargo.toml", in: dir)
            #expect(found.text == "1.4.0-beta.2")
            #expect(found.line == 3)
        }
    }

    @Test(arguments: ["version.workspace = true", "version = { workspace = true }"])
    func cargoWorkspaceInheritance(_ spelling: String) throws {
        try withTemporaryDirectory { dir in
            try dir.write(
                "Cargo.toml",
                """
                [workspace]
                members = ["crates/*"]
                resolver = "2"

                [workspace.package]
                version = "2.3.4"
                edition = "2021"
                """)
            try dir.write(
                "crates/velo-sql/Cargo.toml",
                """
                [package]
                name = "velo-sql"
                \(spelling)
                edition.workspace = true
                """)
            let member = try read("crates/velo-sql/Cargo.toml", in: dir)
            #expect(member.text == "2.3.4")
            #expect(member.foundIn == "Cargo.toml")
            #expect(member.line == 6)
            // The virtual root manifest itself.
            #expect(try read("Cargo.toml", in: dir).text == "2.3.4")
        }
    }

    @Test func cargoInheritanceWithoutWorkspaceVersionIsExplained() throws {
        try withTemporaryDirectory { dir in
            try dir.write("Cargo.toml", "[workspace]\nmembers = [\"a\"]\n")
            try dir.write("a/Cargo.toml", "[package]\nname = \"a\"\nversion.workspace = true\n")
            #expect {
                try read("a/Cargo.toml", in: dir)
            } throws: { error in
                (error as? ManifestError)?.message.contains("no [workspace.package] version") == true
            }
        }
    }

    @Test func npmPackageJSON() throws {
        try withTemporaryDirectory { dir in
            try dir.write(
                "package.json",
                #"{ "name": "@velo/sdk", "private": false, "version": "0.9.1", "dependencies": { "x": "1.0.0" } }"#)
            #expect(try read("package.json", in: dir).text == "0.9.1")
        }
    }

    @Test func npmLineIsTheTopLevelVersionNotANestedOne() throws {
        try withTemporaryDirectory { dir in
            try dir.write(
                "package.json",
                """
                {
                  "name": "velo",
                  "engines": { "version": "9.9.9" },
                  "description": "has \\"version\\": in a string",
                  "version": "0.9.1"
                }
                """)
            let found = try read("package.json", in: dir)
            #expect(found.text == "0.9.1")
            #expect(found.line == 5)
        }
    }

    @Test func pep621AndPoetry() throws {
        try withTemporaryDirectory { dir in
            try dir.write(
                "pyproject.toml",
                """
                [build-system]
                requires = ["hatchling"]
                build-backend = "hatchling.build"

                [project]
                name = "velo"
                version = "1.2.3rc1"
                dependencies = ["requests>=2"]
                """)
            #expect(try read("pyproject.toml", in: dir).text == "1.2.3rc1")
            try dir.write(
                "poetry/pyproject.toml",
                """
                [tool.poetry]
                name = "velo"
                version = "0.4.0"
                description = ""

                [tool.poetry.dependencies]
                python = "^3.11"
                """)
            #expect(try read("poetry/pyproject.toml", kind: "python", in: dir).text == "0.4.0")
        }
    }

    @Test func dynamicPythonVersionIsExplained() throws {
        try withTemporaryDirectory { dir in
            try dir.write("pyproject.toml", "[project]\nname = \"velo\"\ndynamic = [\"version\"]\n")
            #expect {
                try read("pyproject.toml", in: dir)
            } throws: { error in
                guard let error = error as? ManifestError, case .dynamicVersion = error else { return false }
                return error.exitCode == .badInput && error.message.contains("regex") && error.message.contains("plain")
            }
        }
    }

    @Test func plainRegexAndSwift() throws {
        try withTemporaryDirectory { dir in
            try dir.write("VERSION", "  3.1.4\n")
            #expect(try read("VERSION", in: dir).text == "3.1.4")
            try dir.write("sdk/version.py", "# generated\nVERSION = \"0.2.0\"\n")
            let regex = try read("sdk/version.py", kind: "regex", pattern: #"VERSION = "(?<version>[^"]+)""#, in: dir)
            #expect(regex.text == "0.2.0")
            #expect(regex.line == 2)
            try dir.write(
                "Sources/App/Version.swift", "public enum AppVersion {\n    public static let version = \"5.0.0\"\n}\n")
            #expect(try read("Sources/App/Version.swift", in: dir).text == "5.0.0")
        }
    }

    @Test func missingManifestAndUnknownKind() throws {
        try withTemporaryDirectory { dir in
            #expect(throws: ManifestError.missing(path: "Cargo.toml").self) { try read("Cargo.toml", in: dir) }
            try dir.write("x.cfg", "v=1")
            #expect {
                try read("x.cfg", kind: "cargoo", in: dir)
            } throws: { error in
                let message = (error as? RelctlError)?.message ?? ""
                return message.contains("did you mean `cargo`")
                    && message.contains("known kinds: cargo, helm, helm-app-version, npm, plain, python, regex, swift")
            }
        }
    }
}

extension ManifestError: Equatable {
    public static func == (a: ManifestError, b: ManifestError) -> Bool { a.message == b.message }
}

@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct GitStatusTests {
    @Test func dirtyPathsAreListedAsWritten() async throws {
        let repo = try GitRepository()
        try repo.commit("first", files: ["a.txt": "a"])
        try repo.directory.write("café.txt", "x")
        let dirty = try await Git(directory: repo.url, context: Context(workingDirectory: repo.url)).dirtyPaths()
        #expect(dirty == ["?? café.txt"])
    }
}
