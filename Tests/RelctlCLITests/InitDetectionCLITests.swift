import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Issue 23, part B: what `relctl init` reads from a repository (swift-argument-parser's
/// platform-only executables, fd's package name, ripgrep's license files) and the smaller
/// findings on tags and build folders.
@Suite(.timeLimit(.minutes(60)), .removesTemporaries) struct InitDetectionCLITests {
    /// swift-argument-parser: a library whose executable targets are examples and tools, two of
    /// them declared only `#if os(macOS)`: a tag-only release.
    @Test func swiftLibraryWithExampleExecutablesIsTagOnly() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "Package.swift",
            """
            // swift-tools-version:6.0
            import PackageDescription

            var package = Package(
              name: "swift-argument-parser",
              products: [
                .library(name: "ArgumentParser", targets: ["ArgumentParser"]),
              ],
              targets: [
                .target(name: "ArgumentParser"),
                .executableTarget(name: "roll", dependencies: ["ArgumentParser"], path: "Examples/roll"),
                .executableTarget(name: "math", dependencies: ["ArgumentParser"], path: "Examples/math"),
              ]
            )

            #if os(macOS)
            package.targets.append(contentsOf: [
              .executableTarget(name: "count-lines", dependencies: ["ArgumentParser"], path: "Examples/count-lines"),
            ])
            #endif

            """)
        try repo.commit("chore: start")
        try repo.git("tag", "1.8.2")
        #expect(try relctl(["init"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(!config.contains("\n[build]") && !config.contains("\n[[target]]"), "a library is tag-only: \(config)")
        #expect(config.contains("roll, math, count-lines"), "the note names the example executables: \(config)")
        #expect(try relctl(["check"], in: repo.url).status == 0)
    }

    /// A tool whose second executable exists only on macOS: optional, so the Linux build passes.
    @Test func swiftMacOnlyExecutableIsOptional() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "Package.swift",
            """
            // swift-tools-version:6.0
            import PackageDescription

            var package = Package(
              name: "tool",
              products: [.executable(name: "tool", targets: ["tool"])],
              targets: [.executableTarget(name: "tool")]
            )
            #if os(macOS)
            package.products.append(.executable(name: "mac-helper", targets: ["mac-helper"]))
            package.targets.append(.executableTarget(name: "mac-helper"))
            #endif

            """)
        try repo.directory.write(".gitignore", ".build/\n")
        try repo.commit("chore: start")
        #expect(try relctl(["init"], in: repo.url).status == 0)
        var config = try repo.directory.read("relctl.toml")
        #expect(config.contains("binaries = [\"tool\", \"mac-helper\"]"), "\(config)")
        #expect(config.contains("optional-binaries = [\"mac-helper\"]"), "\(config)")
        // The Linux build makes only `tool`, as swift build does there, and passes.
        config = config.replacingOccurrences(
            of: "command = \"swift build -c release\"",
            with:
                "command = \"mkdir -p .build/release && printf '#!/bin/sh\\\\n' > .build/release/tool && chmod +x .build/release/tool\""
        )
        try repo.directory.write("relctl.toml", config)
        try repo.commit("chore: relctl")
        let build = try relctl(["build", "--target", "x86_64-unknown-linux-gnu", "--tag", "v1.0.0"], in: repo.url)
        #expect(build.status == 0, "\(build)\n\(config)")
    }

    /// fd: the Cargo package is `fd-find`, the binary and the repository are `fd`; ripgrep-style
    /// license files all go into the archive.
    @Test func projectNameAndArchiveFilesFollowTheRepository() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "Cargo.toml",
            "[package]\nname = \"fd-find\"\nversion = \"10.2.0\"\nedition = \"2021\"\n\n[[bin]]\nname = \"fd\"\npath = \"src/main.rs\"\n"
        )
        try repo.directory.write("src/main.rs", "fn main() {}\n")
        for file in ["README.md", "LICENSE-MIT", "LICENSE-APACHE", "UNLICENSE", "COPYING", "CHANGELOG.md"] {
            try repo.directory.write(file, "\(file)\n")
        }
        try repo.git("remote", "add", "origin", "https://github.com/sharkdp/fd.git")
        try repo.commit("chore: start")
        try repo.git("tag", "v10.2.0")
        #expect(try relctl(["init"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("name = \"fd\"\n"), "\(config)")
        #expect(
            config.contains(
                "files = [\"README.md\", \"CHANGELOG.md\", \"COPYING\", \"LICENSE-APACHE\", \"LICENSE-MIT\", \"UNLICENSE\"]"
            ),
            "\(config)")
        // No .gitignore for target/: check says the build will dirty the tree.
        let check = try relctl(["check"], in: repo.url)
        #expect(
            check.stderr.contains("binary-dir `target/x86_64-unknown-linux-gnu/release` is not ignored by git"),
            "\(check)")
        #expect(check.stderr.contains("add `/target/` to .gitignore"), "\(check)")
        try repo.directory.write(".gitignore", "/target\n")
        let clean = try relctl(["check"], in: repo.url)
        #expect(!clean.stderr.contains("is not ignored by git"), "\(clean)")
    }

    /// `v15.2.1` on a project whose tags are bare: the message says which tag to use.
    @Test func validateTagSuggestsTheProjectsSpelling() throws {
        let repo = try GitRepository()
        try repo.directory.write("VERSION", "15.2.1\n")
        try repo.directory.write(
            "relctl.toml", "[project]\nname = \"rg\"\ntag-format = \"{version}\"\n\n[[version]]\npath = \"VERSION\"\n")
        try repo.commit("chore: start")
        let bare = try relctl(["validate-tag", "v15.2.1"], in: repo.url)
        #expect(bare.status == 2 && bare.stderr.contains("spelled `15.2.1`"), "\(bare)")
        #expect(!bare.stderr.contains("is not a number"), "\(bare)")
        try repo.directory.write(
            "relctl.toml", "[project]\nname = \"rg\"\n\n[[version]]\npath = \"VERSION\"\n")
        let prefixed = try relctl(["validate-tag", "15.2.1"], in: repo.url)
        #expect(prefixed.status == 2 && prefixed.stderr.contains("spelled `v15.2.1`"), "\(prefixed)")
    }
}
