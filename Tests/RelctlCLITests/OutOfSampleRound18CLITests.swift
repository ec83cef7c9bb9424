import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the eighteenth out-of-sample round (session 76) and the regression set's leftovers found
/// reading real repositories, each on a generated repository of the shape that was read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound18CLITests {
    /// unocss tags `v66.7.0-beta.1`, then `v66.7.0` on the next commit, which changes only the
    /// versions; syncthing tags its final on its last rc's commit; supabase-js's member promotes
    /// a CI canary. With nothing since the prerelease, `plan` proposed nothing (16 points of the
    /// regression set, 5 of round 17): another prerelease of the same code is no release, its
    /// final is. A change since it still continues the counter.
    @Test(arguments: [false, true])
    func aPrereleaseWithNothingSinceIsPromotedToItsFinal(changedSince: Bool) throws {
        let repo = try GitRepository()
        func package(_ version: String) -> String { "{\n  \"name\": \"demo\",\n  \"version\": \"\(version)\"\n}\n" }
        try repo.commit("feat: start", files: ["package.json": package("1.0.0"), "src/a.js": "a\n"], date: "2025-01-01T00:00:00Z")
        try repo.git("tag", "v1.0.0")
        try repo.commit("feat: a new option", files: ["src/a.js": "b\n"], date: "2025-02-01T00:00:00Z")
        try repo.commit("chore: release v1.1.0-beta.1", files: ["package.json": package("1.1.0-beta.1")], date: "2025-02-02T00:00:00Z")
        try repo.git("tag", "v1.1.0-beta.1")
        if changedSince {
            try repo.commit("fix: a typo", files: ["src/a.js": "c\n"], date: "2025-02-03T00:00:00Z")
        }
        _ = try OutOfSampleRound15CLITests.initialise(repo)
        let row = try OutOfSampleRound15CLITests.rows(repo)["."]
        #expect(row?["current"] as? String == "1.1.0-beta.1", "\(String(describing: row))")
        #expect(row?["next"] as? String == (changedSince ? "1.1.0-beta.2" : "1.1.0"), "\(String(describing: row))")
        #expect(row?["tag"] as? String == (changedSince ? "v1.1.0-beta.2" : "v1.1.0"), "\(String(describing: row))")
        let bump = try relctl(["bump"], in: repo.url)
        #expect(bump.status == 0 && bump.stdout == (changedSince ? "1.1.0-beta.2\n" : "1.1.0\n"), "\(bump)")
        if !changedSince {
            #expect(bump.stderr.contains("nothing changed since the prerelease v1.1.0-beta.1"), "\(bump)")
        }
    }

    /// In a workspace a member's prerelease with nothing since is shown promoted, but `bump --write`
    /// releasing the members with changes leaves it alone (an old beta must not become a final
    /// because another member had a fix), and no group or dependent moves with it; `--member`
    /// names it to write it. A development tag (`-dev`) opens a version: nothing to promote.
    @Test func aMembersPromotionIsShownAndWrittenOnlyWhenNamed() throws {
        let repo = try GitRepository()
        func crate(_ name: String, _ version: String) -> String {
            "[package]\nname = \"\(name)\"\nversion = \"\(version)\"\nedition = \"2021\"\n"
        }
        try repo.commit(
            "chore: workspace",
            files: [
                "Cargo.toml": "[workspace]\nmembers = [\"crates/*\"]\n",
                "crates/core/Cargo.toml": crate("core", "1.0.0"), "crates/core/src/lib.rs": "\n",
                "crates/cli/Cargo.toml": crate("cli", "0.4.0"), "crates/cli/src/main.rs": "fn main() {}\n",
                "crates/dev/Cargo.toml": crate("dev", "0.2.0"), "crates/dev/src/lib.rs": "\n",
            ], date: "2025-01-01T00:00:00Z")
        for tag in ["core-v1.0.0", "cli-v0.4.0", "dev-v0.2.0"] { try repo.git("tag", tag) }
        try repo.commit("feat(core)!: a new API", files: ["crates/core/src/lib.rs": "pub fn a() {}\n"], date: "2025-02-01T00:00:00Z")
        try repo.commit(
            "chore: release core-v2.0.0-rc.1", files: ["crates/core/Cargo.toml": crate("core", "2.0.0-rc.1")],
            date: "2025-02-02T00:00:00Z")
        try repo.git("tag", "core-v2.0.0-rc.1")
        try repo.git("tag", "dev-v0.3.0-dev")
        try repo.commit("fix(cli): a flag's help", files: ["crates/cli/src/main.rs": "fn main() { }\n"], date: "2025-02-03T00:00:00Z")
        _ = try OutOfSampleRound15CLITests.initialise(repo)
        let rows = try OutOfSampleRound15CLITests.rows(repo)
        #expect(rows["crates/core"]?["next"] as? String == "2.0.0", "\(rows)")
        #expect(rows["crates/core"]?["reason"] as? String == "none", "\(rows)")
        #expect(rows["crates/cli"]?["next"] as? String == "0.4.1", "\(rows)")
        #expect(rows["crates/dev"]?["next"] == nil || rows["crates/dev"]?["next"] is NSNull, "\(rows)")
        let all = try relctl(["bump", "--write"], in: repo.url)
        #expect(all.status == 0 && all.stdout == "cli 0.4.1\n", "\(all)")
        #expect(all.stderr.contains("`--member core` promotes it to 2.0.0"), "\(all)")
        #expect(try repo.directory.read("crates/core/Cargo.toml").contains("version = \"2.0.0-rc.1\""))
        let named = try relctl(["bump", "--write", "--member", "core"], in: repo.url)
        #expect(named.status == 0 && named.stdout == "core 2.0.0\n", "\(named)")
        #expect(try repo.directory.read("crates/core/Cargo.toml").contains("version = \"2.0.0\""))
    }
}
