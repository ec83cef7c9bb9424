import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Issue 63, "Read intent where projects record it": a changelog written ahead of the release
/// (`[versioning] changelog`). Commit subjects carry no type; the changelog's newest section says
/// what is coming. Generated repositories driven through the built binary, `init` to `bump`.
/// Every commit changes a file: empty commits share one patch id, which `--cherry-pick` would drop.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct ChangelogIntentCLITests {
    static func bump(_ repository: GitRepository) throws -> (RunResult, String) {
        let result = try relctl(["bump"], in: repository.url)
        #expect(result.status == 0, "\(result)")
        return (result, result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    static let released = "# Changelog\n\n## [1.4.0] - 2026-01-02\n\n### Fixed\n\n- A crash.\n"

    /// `init` sees `## [Unreleased]` with an `### Added` entry above 1.4.0 and writes the key;
    /// `bump` gives a minor over untyped subjects, says which section raised it, and `plan`'s
    /// reason follows. A heading naming 2.0.0 gives 2.0.0; without the key, a patch.
    @Test func initWritesItAndBumpReadsTheUnreleasedSection() throws {
        let repository = try GitRepository()
        try repository.commit(
            "Release 1.4.0",
            files: [
                "pyproject.toml": "[project]\nname = \"frob\"\nversion = \"1.4.0\"\n", "CHANGELOG.md": Self.released,
            ])
        try repository.git("tag", "-a", "1.4.0", "-m", "1.4.0")
        let unreleased = Self.released.replacingOccurrences(
            of: "## [1.4.0]", with: "## [Unreleased]\n\n### Added\n\n- Frobnicate.\n\n## [1.4.0]")
        try repository.commit("Add a way to frobnicate", files: ["src/a.py": "a\n", "CHANGELOG.md": unreleased])
        let initialised = try relctl(["init"], in: repository.url)
        #expect(initialised.status == 0, "\(initialised)")
        let written = try repository.directory.read("relctl.toml")
        #expect(written.contains("[versioning]\nchangelog = \"CHANGELOG.md\"   # CHANGELOG.md:5 `[Unreleased]` has entries under `Added`"), "\(written)")
        let (result, next) = try Self.bump(repository)
        #expect(next == "1.5.0", "an Added entry gives a minor: \(result)")
        #expect(
            result.stderr.contains("CHANGELOG.md:5 `[Unreleased]` has entries under `Added` ([versioning] changelog): calls for a minor"),
            "says why: \(result)")
        let planned = try MemberPlanDocument.run(in: repository.url).members.first
        #expect(planned?.next == "1.5.0" && planned?.reason == "feat", "\(String(describing: planned))")

        // A heading naming the next version gives it.
        let named = unreleased.replacingOccurrences(of: "## [Unreleased]", with: "## [2.0.0] - unreleased")
        try repository.commit("Prepare 2.0", files: ["CHANGELOG.md": named])
        #expect(try Self.bump(repository).1 == "2.0.0")

        // Without the key the same history is a patch: the changelog is what made it more.
        try repository.directory.write(
            "relctl.toml", written.replacingOccurrences(of: "changelog = \"CHANGELOG.md\"", with: ""))
        #expect(try Self.bump(repository).1 == "1.4.1")
    }

    /// Below 1.0.0 a `Breaking` section is a minor (the default rule), and under
    /// `zero-major = "cargo"` an `Added` section is a patch; with no commit since the release the
    /// changelog says nothing (`plan` has no next version).
    @Test func zeroMajorRulesAndNoCommits() throws {
        let repository = try GitRepository()
        let config = { (rule: String) in
            "[project]\nname = \"frob\"\ntag-format = \"v{version}\"\n\n[[version]]\npath = \"pyproject.toml\"\n\n[versioning]\nchangelog = \"CHANGES.md\"\n\(rule)"
        }
        let changes = "# Upcoming release\n\n## Breaking changes\n\n- New API.\n\n# v0.7.2\n\n- Old.\n"
        try repository.commit(
            "v0.7.2",
            files: [
                "pyproject.toml": "[project]\nname = \"frob\"\nversion = \"0.7.2\"\n", "relctl.toml": config(""),
                "CHANGES.md": "# v0.7.2\n\n- Old.\n",
            ])
        try repository.git("tag", "-a", "v0.7.2", "-m", "v0.7.2")
        let plan = try MemberPlanDocument.run(in: repository.url).members.first
        #expect(plan?.next == nil && plan?.reason == "none", "no commits, no release: \(String(describing: plan))")
        // The section is written after the release (one standing as it stood then says nothing).
        try repository.commit("Rework the API", files: ["src/a.py": "a\n", "CHANGES.md": changes])
        #expect(try Self.bump(repository).1 == "0.8.0", "a breaking section below 1.0.0 is a minor")
        try repository.commit(
            "Use the cargo rule",
            files: [
                "relctl.toml": config("zero-major = \"cargo\"\n"),
                "CHANGES.md": changes.replacingOccurrences(of: "Breaking changes", with: "Features"),
            ])
        #expect(try Self.bump(repository).1 == "0.7.3", "a feature section under cargo's rule is a patch")
    }

    /// zoxide: below 1.0.0 its `### Added` sections ship as patches. `init` writes the changelog
    /// and, from the same file, Cargo's 0.x rule, so an `Added` section gives 0.9.4, not 0.10.0.
    @Test func initReadsFeaturesReleasedAsPatchesBelowOne() throws {
        let repository = try GitRepository()
        let released = ["0.9.3", "0.9.2", "0.9.1", "0.9.0"].map { version in
            "## [\(version)]\n\n### \(version == "0.9.0" ? "Removed" : "Added")\n\n- Something.\n"
        }.joined(separator: "\n")
        try repository.commit(
            "Release 0.9.3",
            files: [
                "Cargo.toml": "[package]\nname = \"frob\"\nversion = \"0.9.3\"\nedition = \"2021\"\n",
                "src/main.rs": "fn main() {}\n", "CHANGELOG.md": "# Changelog\n\n" + released,
            ])
        try repository.git("tag", "-a", "v0.9.3", "-m", "v0.9.3")
        try repository.commit(
            "Add a way to frobnicate",
            files: [
                "src/a.rs": "a\n",
                "CHANGELOG.md": "# Changelog\n\n## [Unreleased]\n\n### Added\n\n- Frobnicate.\n\n" + released,
            ])
        let initialised = try relctl(["init"], in: repository.url)
        #expect(initialised.status == 0, "\(initialised)")
        let written = try repository.directory.read("relctl.toml")
        #expect(written.contains("changelog = \"CHANGELOG.md\""), "\(written)")
        #expect(
            written.contains(
                "zero-major = \"cargo\"   # CHANGELOG.md: sections adding features were released as patches below 1.0.0 (0.9.3, 0.9.2, 0.9.1)"
            ), "\(written)")
        #expect(try Self.bump(repository).1 == "0.9.4", "an Added section is a patch under cargo's rule")
    }

    /// In a `[workspace]` each member reads its own changelog (the root's `[versioning]` table,
    /// inherited): `a`'s `Features` section makes it a minor, `b`, without a changelog, a patch.
    @Test func workspaceMembersReadTheirOwnChangelog() throws {
        let repository = try GitRepository()
        func package(_ name: String) -> String { "{\n  \"name\": \"\(name)\",\n  \"version\": \"1.0.0\"\n}\n" }
        try repository.commit(
            "Release 1.0.0",
            files: [
                "relctl.toml":
                    "[project]\nname = \"mono\"\n\n[workspace]\nmembers = [\"packages/*\"]\n\n[versioning]\nchangelog = \"CHANGELOG.md\"\n",
                "packages/a/package.json": package("a"), "packages/b/package.json": package("b"),
                "packages/a/CHANGELOG.md": "# 1.0.0\n\n- First.\n",
            ])
        try repository.git("tag", "-a", "a-v1.0.0", "-m", "a")
        try repository.git("tag", "-a", "b-v1.0.0", "-m", "b")
        try repository.commit(
            "Frobnicate",
            files: [
                "packages/a/index.js": "a\n", "packages/b/index.js": "b\n",
                "packages/a/CHANGELOG.md": "# Upcoming release\n\n## Features\n\n- Frobnicate.\n\n# 1.0.0\n\n- First.\n",
            ])
        let (result, members) = try MemberPlanDocument.run(in: repository.url)
        let next = Dictionary(uniqueKeysWithValues: members.map { ($0.name, $0.next ?? "") })
        #expect(next == ["a": "1.1.0", "b": "1.0.1"], "\(result)")
        #expect(members.first { $0.name == "a" }?.reason == "feat", "\(result)")
        let bump = try relctl(["bump"], in: repository.url)
        #expect(
            bump.stderr.contains("packages/a/CHANGELOG.md:3 `Upcoming release` has entries under `Features`"),
            "\(bump)")
    }
}
