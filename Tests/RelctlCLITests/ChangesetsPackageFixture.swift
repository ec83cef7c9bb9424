import Foundation
import RelctlTestSupport

/// One npm package released with changesets (`fragments = "changesets"`), as the back-test's
/// changesets findings were reproduced: its relctl.toml and `.changeset/config.json` written, and
/// the files a release or `changeset pre` commits.
struct ChangesetsPackageFixture {
    let repo: GitRepository
    /// The package.json `name` (`@apollo/client`), which changesets' front matter names.
    let package: String

    init(package: String, project: String, tagFormat: String) throws {
        repo = try GitRepository()
        self.package = package
        try repo.directory.write(
            "relctl.toml",
            "[project]\nname = \"\(project)\"\ntag-format = \"\(tagFormat)\"\n\n[[version]]\npath = \"package.json\"\n\n[versioning]\nfragments = \"changesets\"\n"
        )
        try repo.directory.write(".changeset/config.json", "{}\n")
    }

    /// package.json at `version`.
    func manifest(_ version: String) -> [String: String] {
        ["package.json": "{\n  \"name\": \"\(package)\",\n  \"version\": \"\(version)\"\n}\n"]
    }

    /// `.changeset/pre.json` as `changeset pre enter TAG` (mode `pre`) or `pre exit` (mode `exit`) leaves it.
    func pre(_ mode: String, _ tag: String) -> [String: String] {
        [".changeset/pre.json": "{\n  \"mode\": \"\(mode)\",\n  \"tag\": \"\(tag)\",\n  \"initialVersions\": {},\n  \"changesets\": []\n}\n"]
    }

    /// A changeset file `name`.md giving the package `level`.
    func changeset(_ name: String, _ level: String, _ summary: String) -> [String: String] {
        [".changeset/\(name).md": "---\n\"\(package)\": \(level)\n---\n\n\(summary)\n"]
    }
}
