import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the eleventh out-of-sample round of the back-test found (session 69: actix-web, …), each
/// on a generated repository of the shape that was read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound11CLITests {
    /// actix-web's Cargo workspace: the crates `actix-web` and `actix-http` are tagged `web-v4.x`
    /// and `http-v3.x`, their shared first word left off. init wrote `{member}-v{version}` and plan
    /// proposed `actix-web-v4.0.0`, the manifest's version, as if nothing had been released.
    @Test func membersTaggedByTheirShortNamesAreReleasesOfThem() throws {
        let repo = try GitRepository()
        let crate = { (name: String, version: String) in MonorepoShapesCLITests.crate(name, version) }
        try repo.commit(
            "first",
            files: [
                "Cargo.toml": "[workspace]\nmembers = [\"actix-web\", \"actix-http\"]\n",
                "actix-web/Cargo.toml": crate("actix-web", "4.0.0"), "actix-web/src/lib.rs": "\n",
                "actix-http/Cargo.toml": crate("actix-http", "3.0.0"), "actix-http/src/lib.rs": "\n",
            ])
        try repo.git("tag", "web-v4.0.0")
        try repo.git("tag", "http-v3.0.0")
        try repo.commit("fix(web): a header", files: ["actix-web/src/lib.rs": "// fixed\n"])

        let (config, members) = try BacktestFindingsCLITests.initialisedPlan(repo)
        #expect(config.contains("actix-web = \"web-v{version}\""), "\(config)")
        let web = try #require(members.first { $0["name"] as? String == "actix-web" }, "\(members)")
        #expect(web["current"] as? String == "4.0.0" && web["tag"] as? String == "web-v4.0.1", "\(members)")
        let http = try #require(members.first { $0["name"] as? String == "actix-http" }, "\(members)")
        #expect(http["current"] as? String == "3.0.0", "\(members)")
    }

    /// effect: changesets' pre mode moved from `beta` to `rc` after `effect@4.0.0-beta.107`, and
    /// changesets released `4.0.0-rc.108`: its counter goes on from the package's current
    /// prerelease whatever its name. relctl proposed `4.0.0-rc.0`. Where the project's own history
    /// started a new name over (apollo-client, `OutOfSampleCLITests`), that is followed instead.
    @Test func changesetsPreModeCountsOnAcrossANameChange() throws {
        let effect = try ChangesetsPackageFixture(package: "effect", project: "effect", tagFormat: "{project}@{version}")
        let repo = effect.repo
        try repo.commit("chore: release 3.19.0", files: effect.manifest("3.19.0"))
        try repo.git("tag", "effect@3.19.0")
        try repo.commit(
            "feat!: effect 4", files: effect.pre("pre", "beta").merging(effect.changeset("big-bang", "major", "Effect 4.")) { $1 })
        try repo.commit("chore: version packages (beta)", files: effect.manifest("4.0.0-beta.6"))
        try repo.git("tag", "effect@4.0.0-beta.6")
        try repo.commit(
            "fix: a fiber", files: effect.pre("pre", "rc").merging(effect.changeset("calm", "patch", "Fiber.")) { $1 })
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try BacktestFindingsCLITests.field(bump.stdout, "next") as? String == "4.0.0-rc.7", "\(bump)")
    }

    /// datasette: PEP 440 alphas spelled with two numbers (`1.0a36`). `bump --write` rewrote
    /// version.py's `1.0a37` as `1.0.0a37`, the same version, and would write `1.0.0a38` next. A
    /// file keeps its own spelling now where PEP 440 reads it alike. The tag stays three numbers
    /// (`1.0.0a37`): the contract has relctl read two-number versions, never write them.
    @Test func aPEP440FileSpellingTwoNumbersKeepsItsSpelling() throws {
        let repo = try GitRepository()
        func version(_ text: String) -> [String: String] { ["datasette/version.py": "__version__ = \"\(text)\"\n"] }
        try repo.commit("Release 0.65.2", files: version("0.65.2"))
        try repo.git("tag", "0.65.2")
        try repo.commit("Release 1.0a36", files: version("1.0a36"))
        try repo.git("tag", "1.0a36")
        try repo.commit("Fixed a bug in the row page", files: ["datasette/app.py": "# fixed\n"])
        try repo.directory.write(
            "relctl.toml",
            "[project]\nname = \"datasette\"\ntag-format = \"{version}\"\n\n[[version]]\npath = \"datasette/version.py\"\nkind = \"python\"\n")

        let write = try relctl(["bump", "--write", "--set", "1.0.0-alpha.37"], in: repo.url)
        #expect(write.status == 0, "\(write)")
        #expect(try repo.directory.read("datasette/version.py") == "__version__ = \"1.0a37\"\n")
        let again = try relctl(["bump", "--write", "--set", "1.0.0-alpha.37"], in: repo.url)
        #expect(again.status == 0 && again.stderr.contains("nothing written"), "\(again)")
        let valid = try relctl(["validate-tag", "1.0.0a37"], in: repo.url)
        #expect(valid.status == 0, "\(valid)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try BacktestFindingsCLITests.field(bump.stdout, "tag") as? String == "1.0.0a37", "\(bump)")
    }
}
