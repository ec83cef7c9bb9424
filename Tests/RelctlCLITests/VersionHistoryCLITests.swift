import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Issue 23, part B: versions read from history. Each test rebuilds the shape of a real project
/// (fzf, python-certifi, httpx, ripgrep's member crates) and drives the built binary through
/// `init`, `validate-tag` and `bump` the way a new user would.
@Suite(.timeLimit(.minutes(45)), .removesTemporaries) struct VersionHistoryCLITests {
    /// fzf: 139 old tags without `v`, then 39 recent ones with it. The latest releases decide the
    /// format, and `bump` never proposes a version a tag names in another spelling.
    @Test func recentTagsChooseTheFormatAndBumpSkipsOtherSpellings() throws {
        let repo = try GitRepository()
        try repo.commit("chore: start")
        for minor in 1...30 { try repo.git("tag", "0.\(minor).0") }
        try repo.commit("feat: preview window")
        try repo.git("tag", "0.53.0")
        for minor in 54...56 {
            try repo.commit("feat: release \(minor)")
            try repo.git("tag", "v0.\(minor).0")
        }
        try repo.commit("feat: something new")
        let initialised = try relctl(["init"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("tag-format = \"v{version}\""), "the latest releases use v: \(config)")
        #expect(config.contains("(v0.56.0)"), "the comment names the latest tag: \(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0 && bump.stdout.contains("\"next\" : \"0.57.0\""), "\(bump)")

        // A config kept from before (bare tags) still never proposes 0.54.0, which shipped as v0.54.0.
        try repo.directory.write("relctl.toml", "[project]\nname = \"fzf\"\ntag-format = \"{version}\"\n")
        let bare = try relctl(["bump", "--json"], in: repo.url)
        #expect(bare.status == 0 && bare.stdout.contains("\"next\" : \"0.57.0\""), "\(bare)")
        #expect(bare.stdout.contains("\"tag\" : \"0.57.0\""), "spelled as configured: \(bare)")
        // And --set refuses to write a version a tag names in any spelling.
        try repo.directory.write("VERSION", "0.53.0\n")
        try repo.directory.write(
            "relctl.toml", "[project]\nname = \"fzf\"\ntag-format = \"{version}\"\n\n[[version]]\npath = \"VERSION\"\n")
        let reused = try relctl(["bump", "--set", "0.55.0", "--write"], in: repo.url)
        #expect(reused.status == 1 && reused.stderr.contains("`v0.55.0`"), "\(reused)")
        #expect(try repo.directory.read("VERSION") == "0.53.0\n", "nothing written")
    }

    /// python-certifi: zero-padded calendar versions (`2026.07.22`) in tags and in
    /// `certifi/__init__.py`, read by setup.py.
    @Test func certifiZeroPaddedCalendarVersions() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "pyproject.toml",
            "[build-system]\nrequires = [\"setuptools >= 42.0.0\"]\nbuild-backend = \"setuptools.build_meta\"\n")
        try repo.directory.write("setup.py", "import re\nversion_regex = r'__version__ = [\"\\']([^\"\\']*)[\"\\']'\n")
        try repo.directory.write(
            "certifi/__init__.py",
            "from .core import contents, where\n\n__all__ = [\"contents\", \"where\"]\n__version__ = \"2026.07.22\"\n")
        try repo.commit("chore: start", date: "2026-07-22T10:00:00Z")
        for tag in ["v1.0.0", "2015.09.06", "2025.11.12", "2026.01.04", "2026.07.22"] { try repo.git("tag", tag) }
        let initialised = try relctl(["init"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(
            config.contains("tag-format = \"{version}\"") && config.contains("version-scheme = \"calver\""), "\(config)"
        )
        #expect(config.contains("path = \"certifi/__init__.py\"") && config.contains("kind = \"python\""), "\(config)")
        let check = try relctl(["check"], in: repo.url)
        #expect(check.status == 0, "\(check)")
        let valid = try relctl(["validate-tag", "2026.07.22"], in: repo.url)
        #expect(valid.status == 0, "the manifest holds the tag's own text: \(valid)")

        // The next release is dated by its commit, above the latest, spelled with the padding.
        try repo.commit("fix: update bundle", date: "2026-08-05T10:00:00Z")
        let bump = try relctl(["bump", "--write"], in: repo.url)
        #expect(bump.status == 0 && bump.stdout == "2026.08.05\n", "printed as written (issue 57): \(bump)")
        #expect(
            try repo.directory.read("certifi/__init__.py").contains("__version__ = \"2026.08.05\""),
            "the project's spelling is kept")
        #expect(try relctl(["validate-tag", "2026.08.05"], in: repo.url).status == 0)

        // The same file read with a pattern (kind regex) compares as a calendar version too.
        try repo.directory.write(
            "relctl.toml",
            "[project]\nname = \"certifi\"\ntag-format = \"{version}\"\nversion-scheme = \"calver\"\n\n[[version]]\npath = \"certifi/__init__.py\"\nkind = \"regex\"\npattern = '__version__ = \"(?<version>[^\"]+)\"'\n"
        )
        let regex = try relctl(["validate-tag", "2026.08.05"], in: repo.url)
        #expect(regex.status == 0, "\(regex)")
        #expect(try relctl(["bump", "--set", "2026.8.4", "--write"], in: repo.url).status == 1, "never lower")
        #expect(try repo.directory.read("certifi/__init__.py").contains("\"2026.08.05\""))
        // Without the scheme (a config from before), the padded tags and file still count:
        // never 2025.11.13 from the last tag SemVer happens to accept.
        try repo.directory.write(
            "relctl.toml",
            "[project]\nname = \"certifi\"\ntag-format = \"{version}\"\n\n[[version]]\npath = \"certifi/__init__.py\"\nkind = \"regex\"\npattern = '__version__ = \"(?<version>[^\"]+)\"'\n"
        )
        let semver = try relctl(["bump"], in: repo.url)
        #expect(semver.status == 0 && semver.stdout == "2026.8.5\n", "\(semver)")
    }

    /// httpx's shape, uncommitted: hatch reads the version from `httpx/__version__.py`, `1.0.0b1`.
    static func httpx() throws -> GitRepository {
        let repo = try GitRepository()
        try repo.directory.write(
            "pyproject.toml",
            "[project]\nname = \"httpx\"\ndynamic = [\"version\"]\n\n[tool.hatch.version]\npath = \"httpx/__version__.py\"\n"
        )
        try repo.directory.write("httpx/__version__.py", "__title__ = \"httpx\"\n__version__ = \"1.0.0b1\"\n")
        return repo
    }

    /// httpx: hatch reads `__version__` from a module; a PEP 440 prerelease there is never lowered
    /// (kind regex, as earlier inits wrote it, and kind python).
    @Test func pep440PrereleaseInAVersionFileIsNeverLowered() throws {
        let repo = try Self.httpx()
        try repo.directory.write(
            "relctl.toml",
            "[project]\nname = \"httpx\"\n\n[[version]]\npath = \"httpx/__version__.py\"\nkind = \"regex\"\npattern = '__version__ = \"(?<version>[^\"]+)\"'\n"
        )
        try repo.commit("chore: start")
        try repo.git("tag", "v0.9.0")
        try repo.commit("fix: a bug")
        let bump = try relctl(["bump", "--write"], in: repo.url)
        #expect(bump.status == 0 && bump.stdout == "1.0.0-beta.1\n", "\(bump)")
        // Kind regex compares by SemVer, so the file gets SemVer's spelling of the same version.
        #expect(try repo.directory.read("httpx/__version__.py").contains("__version__ = \"1.0.0-beta.1\""))
        #expect(try relctl(["validate-tag", "v1.0.0-beta.1"], in: repo.url).status == 0)
        let lower = try relctl(["bump", "--set", "0.9.1", "--write"], in: repo.url)
        #expect(lower.status == 1 && lower.stderr.contains("holds 1.0.0-beta.1"), "\(lower)")
        #expect(try repo.directory.read("httpx/__version__.py").contains("\"1.0.0-beta.1\""), "nothing written")
        // The same with kind python: PEP 440 order and spelling.
        try repo.directory.write("httpx/__version__.py", "__title__ = \"httpx\"\n__version__ = \"1.0.0b1\"\n")
        try repo.directory.write(
            "relctl.toml",
            "[project]\nname = \"httpx\"\n\n[[version]]\npath = \"httpx/__version__.py\"\nkind = \"python\"\n")
        let python = try relctl(["bump", "--set", "0.9.1", "--write"], in: repo.url)
        #expect(python.status == 1 && python.stderr.contains("holds 1.0.0b1"), "\(python)")
        let next = try relctl(["bump", "--set", "1.0.0-beta.2", "--write"], in: repo.url)
        #expect(next.status == 0, "\(next)")
        #expect(try repo.directory.read("httpx/__version__.py").contains("__version__ = \"1.0.0b2\""))
    }

    /// httpx with `kind = "python"` on the hatch module: read as PEP 440, and `init` writes that kind.
    @Test func pythonKindReadsAHatchVersionModule() throws {
        let repo = try Self.httpx()
        try repo.commit("chore: start")
        #expect(try relctl(["init"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("path = \"httpx/__version__.py\"\nkind = \"python\"\n"), "\(config)")
        let valid = try relctl(["validate-tag", "v1.0.0-beta.1"], in: repo.url)
        #expect(valid.status == 0, "1.0.0b1 is PEP 440 for 1.0.0-beta.1: \(valid)")
        #expect(try relctl(["validate-tag", "v1.0.0"], in: repo.url).status == 1)
        // `pattern` is honoured for kind python.
        try repo.directory.write("httpx/other.py", "RELEASE = '2.1.0rc2'\n")
        try repo.directory.write(
            "relctl.toml",
            "[project]\nname = \"httpx\"\n\n[[version]]\npath = \"httpx/other.py\"\nkind = \"python\"\npattern = \"RELEASE = '(?<version>[^']+)'\"\n"
        )
        let patterned = try relctl(["validate-tag", "v2.1.0-rc.2"], in: repo.url)
        #expect(patterned.status == 0, "\(patterned)")
    }
}
