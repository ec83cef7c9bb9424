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

@Suite(.timeLimit(.minutes(45)), .removesTemporaries) struct NotesCLITests {
    @Test func notesWithoutConfigJSONOutputAndChangelog() throws {
        let fixture = try NotesFixture.make()
        let markdown = try relctl(["notes", "--tag", "v0.2.0"], in: fixture.url)
        #expect(markdown.status == 0, "\(markdown)")
        #expect(markdown.stdout.hasPrefix("## 0.2.0 - 2026-01-02\n\n### Breaking changes\n"))
        let json = try relctl(["notes", "--json"], in: fixture.url)
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["tag"] as? String == "v0.2.0" && object["previous"] as? String == "v0.1.0")

        let output = try relctl(["notes", "--output", "out/NOTES.md", "--changelog", "CHANGELOG.md"], in: fixture.url)
        #expect(output.status == 0, "\(output)")
        #expect(output.stdout.isEmpty)
        #expect(try fixture.repository.directory.read("out/NOTES.md") == markdown.stdout)
        let changelog = try fixture.repository.directory.read("CHANGELOG.md")
        #expect(
            changelog == "# Changelog\n\n" + markdown.stdout + "\n" + ChangelogDocument.marker(for: markdown.stdout)
                + "\n")
        #expect(try relctl(["notes", "--changelog", "CHANGELOG.md"], in: fixture.url).status == 0)
        #expect(try fixture.repository.directory.read("CHANGELOG.md") == changelog, "a second run does not duplicate")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.url.path).filter {
            $0.contains("relctl-tmp")
        }
        #expect(leftovers.isEmpty)
    }

    /// Issue 23 item 12: "Other changes" showed `deps: bump regex` as a bare sentence.
    @Test func otherChangesKeepTheirType() throws {
        let repo = try GitRepository()
        try repo.commit("chore: start")
        try repo.git("tag", "v0.2.0")
        try repo.commit("deps: bump regex")
        try repo.commit("doc: fix typo")
        try repo.commit("ignore(glob): faster matching")
        try repo.commit("Update the README")
        try repo.git("tag", "v0.3.0")
        let markdown = try relctl(["notes", "--tag", "v0.3.0"], in: repo.url)
        #expect(markdown.status == 0, "\(markdown)")
        for entry in [
            "- **deps:** bump regex (", "- **doc:** fix typo (", "- **ignore(glob):** faster matching (",
            "- Update the README (",
        ] {
            #expect(markdown.stdout.contains(entry), "\(entry) in\n\(markdown.stdout)")
        }
        let json = try relctl(["notes", "--tag", "v0.3.0", "--json"], in: repo.url)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let sections = try #require(object["sections"] as? [[String: Any]])
        let entries = try #require(sections.first?["entries"] as? [[String: Any]])
        #expect(entries.map { $0["type"] as? String } == ["deps", "doc", "ignore", "other"])
        #expect(entries.map { $0["summary"] as? String }.first == "bump regex", "summary stays the description")
    }

    @Test func badInputExitsTwoNamingIt() throws {
        let fixture = try NotesFixture.make()
        let unknown = try relctl(["notes", "--from", "v7.7.7"], in: fixture.url)
        #expect(unknown.status == 2 && unknown.stderr.contains("v7.7.7"), "\(unknown)")
        let badTag = try relctl(["notes", "--tag", "seven"], in: fixture.url)
        #expect(badTag.status == 2 && badTag.stderr.contains("seven"), "\(badTag)")
        try fixture.repository.directory.write("relctl.toml", "[notes]\ntemplate = \"t.mustache\"\n")
        try fixture.repository.directory.write("t.mustache", "ok\n{{#sections}}\n")
        let template = try relctl(["notes", "--output", "NOTES.md"], in: fixture.url)
        #expect(template.status == 2 && template.stderr.contains("t.mustache:"), "\(template)")
        #expect(!fixture.repository.directory.exists("NOTES.md"))
        let empty = try GitRepository()
        for command in ["notes", "bump"] {
            let unborn = try relctl([command], in: empty.url)
            #expect(unborn.status == 2 && unborn.stderr.contains("the repository has no commits yet"), "\(unborn)")
        }
        try fixture.repository.directory.write("relctl.toml", "")
        try FileManager.default.createDirectory(
            at: fixture.url.appendingPathComponent("docs"), withIntermediateDirectories: true)
        for flag in ["--output", "--changelog"] {
            let folder = try relctl(["notes", flag, "docs"], in: fixture.url)
            #expect(
                folder.status == 2 && folder.stderr.contains("docs: is a folder; \(flag) takes a file path"),
                "\(folder)")
            #expect(folder.stdout.isEmpty, "nothing printed when the notes cannot be written")
        }
    }

    @Test func bumpPrintsAndWrites() throws {
        let repo = try GitRepository()
        try repo.directory.write("relctl.toml", "[project]\nname = \"demo\"\n\n[[version]]\npath = \"package.json\"\n")
        try repo.directory.write("package.json", "{\n  \"name\": \"demo\",\n  \"version\": \"1.1.0\"\n}\n")
        try repo.commit("chore: start")
        try repo.git("tag", "v1.1.0")
        try repo.commit("feat: new thing")
        let plain = try relctl(["bump"], in: repo.url)
        #expect(plain.status == 0 && plain.stdout == "1.2.0\n", "\(plain)")
        let json = try relctl(["bump", "--write", "--json"], in: repo.url)
        #expect(json.status == 0, "\(json)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(
            object["next"] as? String == "1.2.0" && object["tag"] as? String == "v1.2.0"
                && object["level"] as? String == "minor")
        #expect(object["written"] as? [String] == ["package.json"])
        #expect(try repo.directory.read("package.json") == "{\n  \"name\": \"demo\",\n  \"version\": \"1.2.0\"\n}\n")
    }
}

@Suite(.timeLimit(.minutes(45)), .removesTemporaries) struct NotesShallowCloneCLITests {
    @Test func shallowCloneWarns() throws {
        let fixture = try NotesFixture.make()
        let clone = try TemporaryDirectory(prefix: "relctl-shallow")
        let result = try run("git", ["clone", "-q", "--depth", "1", "file://\(fixture.url.path)", clone.path + "/c"])
        #expect(result.status == 0, "\(result)")
        let notes = try relctl(["notes"], in: clone.url.appendingPathComponent("c"))
        #expect(notes.status == 0, "\(notes)")
        #expect(notes.stderr.contains("shallow clone"), "\(notes)")
    }
}
