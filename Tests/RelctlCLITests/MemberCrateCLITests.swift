import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Issue 23, part B: relctl.toml in a member crate of a Cargo workspace (ripgrep's
/// `crates/ignore`, tagged `ignore-0.4.x` while the application is tagged `15.2.1`).
@Suite(.timeLimit(.minutes(45)), .removesTemporaries) struct MemberCrateCLITests {
    /// ripgrep's shape: the application at the root, the `ignore` crate as a member it depends on
    /// by path with a version requirement, one Cargo.lock at the root.
    static func ripgrep() throws -> GitRepository {
        let repo = try GitRepository()
        try repo.directory.write(
            "Cargo.toml",
            """
            [package]
            name = "ripgrep"
            version = "15.2.1"
            edition = "2021"

            [workspace]
            members = ["crates/ignore"]

            [dependencies]
            ignore = { version = "0.4.29", path = "crates/ignore" }

            """)
        try repo.directory.write("src/main.rs", "fn main() {}\n")
        try repo.directory.write(
            "crates/ignore/Cargo.toml", "[package]\nname = \"ignore\"\nversion = \"0.4.29\"\nedition = \"2021\"\n")
        try repo.directory.write("crates/ignore/src/lib.rs", "\n")
        try repo.directory.write("crates/ignore/COPYING", "see LICENSE-MIT or UNLICENSE\n")
        let lock = try run("cargo", ["generate-lockfile", "--offline"], in: repo.url)
        guard lock.status == 0 else { throw TestFailure("cargo generate-lockfile: \(lock)") }
        try repo.directory.write(".gitignore", "/target/\n")
        try repo.commit("chore: start")
        return repo
    }

    @Test func bumpInAMemberUpdatesTheWorkspaceLockAndRequirements() throws {
        let repo = try Self.ripgrep()
        let member = repo.url.appendingPathComponent("crates/ignore")
        try repo.directory.write(
            "crates/ignore/relctl.toml",
            "[project]\nname = \"ignore\"\ntag-format = \"{project}-{version}\"\n\n[[version]]\npath = \"Cargo.toml\"\n"
        )
        let stale = try relctl(["validate-tag", "ignore-0.4.29"], in: member)
        #expect(stale.status == 0, "\(stale)")
        let bump = try relctl(["bump", "--set", "0.5.0", "--write"], in: member)
        #expect(bump.status == 0, "\(bump)")
        #expect(try repo.directory.read("crates/ignore/Cargo.toml").contains("version = \"0.5.0\""))
        #expect(
            try repo.directory.read("Cargo.toml").contains(
                "ignore = { version = \"0.5.0\", path = \"crates/ignore\" }"),
            "the workspace root's requirement follows")
        #expect(try repo.directory.read("Cargo.toml").contains("version = \"15.2.1\""), "the application keeps its own")
        #expect(bump.stderr.contains("../../Cargo.lock"), "written files named from the member: \(bump)")
        let locked = try run("cargo", ["metadata", "--locked", "--offline", "--format-version", "1"], in: repo.url)
        #expect(locked.status == 0, "Cargo.lock follows: \(locked.stderr)")
        #expect(try relctl(["validate-tag", "ignore-0.5.0"], in: member).status == 0)
        // A stale root lock is a mismatch named from the member's point of view.
        try repo.directory.write(
            "crates/ignore/Cargo.toml", "[package]\nname = \"ignore\"\nversion = \"0.5.1\"\nedition = \"2021\"\n")
        let mismatch = try relctl(["validate-tag", "ignore-0.5.1"], in: member)
        #expect(mismatch.status == 1 && mismatch.stderr.contains("../../Cargo.lock:"), "\(mismatch)")
    }

    @Test func initInAMemberTakesTheMembersTags() throws {
        let repo = try Self.ripgrep()
        for tag in ["15.2.0", "15.2.1", "ignore-0.4.28", "ignore-0.4.29", "globset-0.4.20"] { try repo.git("tag", tag) }
        try repo.commit("fix(ignore): handle a bad glob")
        let member = repo.url.appendingPathComponent("crates/ignore")
        let initialised = try relctl(["init"], in: member)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("crates/ignore/relctl.toml")
        #expect(config.contains("name = \"ignore\""), "\(config)")
        #expect(config.contains("tag-format = \"{project}-{version}\""), "\(config)")
        #expect(!config.contains("\n[build]"), "a library member ships no binary of the application: \(config)")
        let bump = try relctl(["bump"], in: member)
        #expect(bump.status == 0 && bump.stdout == "0.4.30\n", "\(bump)")
        let check = try relctl(["check"], in: member)
        #expect(check.status == 0, "\(check)")
        // The application at the root keeps its bare tags.
        let root = try relctl(["init"], in: repo.url)
        #expect(root.status == 0)
        #expect(try repo.directory.read("relctl.toml").contains("tag-format = \"{version}\""))
        #expect(try relctl(["bump"], in: repo.url).stdout == "15.2.2\n")
    }

    /// A changesets-style monorepo member: the npm package `@acme/cli` is tagged `@acme/cli@3.0.1`
    /// (found by scripts/corpus on changesets, where `bump` proposed the already tagged 3.0.1).
    @Test func initInAScopedNpmMemberTakesItsScopedTags() throws {
        let repo = try GitRepository()
        try repo.directory.write("package.json", #"{"name": "acme-monorepo", "private": true, "version": "0.0.0"}"#)
        try repo.directory.write("packages/cli/package.json", #"{"name": "@acme/cli", "version": "3.0.1"}"#)
        try repo.directory.write("packages/core/package.json", #"{"name": "@acme/core", "version": "1.4.0"}"#)
        try repo.commit("chore: start")
        for tag in ["@acme/cli@3.0.0", "@acme/cli@3.0.1", "@acme/core@1.4.0", "v9.0.0"] { try repo.git("tag", tag) }
        try repo.commit("fix(cli): quieter output", files: ["packages/cli/index.js": "//\n"])
        let member = repo.url.appendingPathComponent("packages/cli")
        let initialised = try relctl(["init"], in: member)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("packages/cli/relctl.toml")
        #expect(config.contains("tag-format = \"@acme/cli@{version}\""), "\(config)")
        let bump = try relctl(["bump"], in: member)
        #expect(bump.status == 0 && bump.stdout == "3.0.2\n", "\(bump)")
        #expect(try relctl(["validate-tag", "@acme/cli@3.0.1"], in: member).status == 0)
    }
}
