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

@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct NotesTests {
    func build(
        _ fixture: NotesFixture, tag: String? = "v0.2.0", from: String? = nil, to: String? = nil,
        configure: (inout RelctlConfig) -> Void = { _ in }
    ) async throws -> ReleaseNotes {
        var config = RelctlConfig.defaults(root: fixture.url)
        configure(&config)
        return try await ReleaseNotesBuilder(context: Context(workingDirectory: fixture.url)).build(
            config: config, tag: tag, from: from, to: to)
    }

    @Test func finalReleaseSkipsPrereleasesAndCategorises() async throws {
        let fixture = try NotesFixture.make()
        let notes = try await build(fixture)
        #expect(notes.tag == "v0.2.0" && notes.previous == "v0.1.0")
        #expect(notes.date == "2026-01-02")
        #expect(
            notes.sections.map(\.title) == [
                "Breaking changes", "Features", "Bug fixes", "Performance", "Documentation", "Reverts", "Other changes",
            ])
        let h = fixture.hashes
        func commits(_ title: String) -> [String] {
            notes.sections.first { $0.title == title }?.entries.map(\.commit) ?? []
        }
        #expect(commits("Breaking changes") == [h["bang"]!, h["footer"]!])
        #expect(commits("Features") == [h["api"]!, h["dark"]!])
        #expect(commits("Bug fixes") == [h["parser"]!, h["alice"]!])
        // A revert of something released earlier stays labelled as a revert.
        #expect(commits("Reverts") == [h["outsideRevert"]!])
        #expect(commits("Other changes") == [h["readme"]!])
        let all = Set(notes.entries.map(\.commit))
        for cancelled in ["temporary", "gitRevert", "oops", "conventionalRevert", "merge", "chore", "initial"] {
            #expect(!all.contains(h[cancelled]!), "\(cancelled) should not be listed")
        }
        let footer = try #require(notes.entries.first { $0.commit == h["footer"] })
        #expect(footer.migrationNote == "`Engine` is now `Runtime`; rename your imports.")
        #expect(footer.type == "refactor" && footer.scope == "core" && footer.breaking)
        #expect(
            notes.contributors == [
                NotesContributor(name: "Alice Liddell", email: "alice@example.com"),
                NotesContributor(name: "Test User", email: "test@example.com"),
            ])
    }

    @Test func prereleaseRangesAndSettings() async throws {
        let fixture = try NotesFixture.make()
        let withRC = try await build(fixture) { $0.notes.skipPrereleases = false }
        #expect(withRC.previous == "v0.2.0-rc.1")
        #expect(!withRC.entries.contains { $0.commit == fixture.hashes["api"] })
        let rc = try await build(fixture, tag: "v0.2.0-rc.1")
        #expect(rc.previous == "v0.1.0" && rc.targetCommit == fixture.hashes["docs"])
        #expect(rc.entries.map(\.commit) == ["api", "parser", "perf", "docs"].map { fixture.hashes[$0]! })
        let noOther = try await build(fixture) {
            $0.notes.includeOther = false; $0.notes.includeMerges = true
        }
        #expect(!noOther.sections.contains { $0.title == "Other changes" })
        let merges = try await build(fixture) { $0.notes.includeMerges = true }
        #expect(merges.entries.contains { $0.commit == fixture.hashes["merge"] && $0.type == "other" })
        let groups = try await build(fixture) {
            $0.notes.groups = [
                NotesGroup(title: "Fixes", types: ["fix"]), NotesGroup(title: "New", types: ["feat", "perf"]),
            ]
        }
        #expect(groups.sections.map(\.title) == ["Breaking changes", "Fixes", "New", "Other changes"])
    }

    @Test func wholeHistoryTagAtTargetAndUnknownRef() async throws {
        let fixture = try NotesFixture.make()
        let first = try await build(fixture, tag: "v0.1.0")
        #expect(first.previous == nil && first.entries.isEmpty)
        let detected = try await build(fixture, tag: nil)
        #expect(detected.tag == "v0.2.0" && detected.previous == "v0.1.0")
        try fixture.repository.commit("feat: after the release")
        let unreleased = try await build(fixture, tag: nil)
        #expect(unreleased.tag == nil && unreleased.previous == "v0.2.0" && unreleased.entries.count == 1)
        #expect(NotesMarkdown.heading(unreleased) == "## Unreleased - 2026-01-02")
        let fromTo = try await build(fixture, tag: nil, from: "v0.2.0-rc.1", to: "v0.2.0")
        #expect(fromTo.previous == "v0.2.0-rc.1" && fromTo.tag == "v0.2.0")
        await #expect(throws: GitError.self) { try await build(fixture, tag: nil, to: "no-such-ref") }
        do {
            _ = try await build(fixture, tag: nil, from: "v9.9.9")
            Issue.record("expected an error")
        } catch let error as GitError {
            #expect(error.exitCode == .badInput && error.message.contains("v9.9.9"))
        }
        await #expect(throws: VersionError.self) { try await build(fixture, tag: "release-1") }
    }

    @Test func markdownEscapesLinksAndHeading() async throws {
        let fixture = try NotesFixture.make()
        try fixture.repository.git("remote", "add", "origin", "git@github.com:acme/widget.git")
        let notes = try await build(fixture)
        let markdown = notes.markdown
        let parser = fixture.hashes["parser"]!
        #expect(markdown.hasPrefix("## [0.2.0](https://github.com/acme/widget/compare/v0.1.0...v0.2.0) - 2026-01-02\n"))
        #expect(
            markdown.contains(
                "- **parser:** handle \\*stars\\*, \\_underscores\\_ and \\<b\\>tags\\</b\\> in `code_span` \\[x\\] ([\(parser.prefix(7))](https://github.com/acme/widget/commit/\(parser)))\n"
            ))
        #expect(markdown.contains("\n  `Engine` is now `Runtime`; rename your imports.\n"))
        #expect(markdown.contains("### Contributors\n\n- Alice Liddell\n- Test User\n"))
        #expect(markdown.range(of: "### Breaking changes")!.lowerBound < markdown.range(of: "### Features")!.lowerBound)
        #expect(!markdown.contains("\n\n\n"))
        #expect(try await build(fixture).markdown == markdown, "same inputs, same bytes")
    }

    @Test func jsonHasExactlyTheContractKeys() async throws {
        let fixture = try NotesFixture.make()
        let json = try await build(fixture).json
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["tag", "previous", "date", "sections", "contributors"])
        let sections = try #require(object["sections"] as? [[String: Any]])
        #expect(Set(sections[0].keys) == ["title", "entries"])
        let entry = try #require((sections[0]["entries"] as? [[String: Any]])?.first)
        #expect(Set(entry.keys) == ["commit", "type", "scope", "summary", "breaking"])
        #expect(
            entry["commit"] as? String == fixture.hashes["bang"] && entry["breaking"] as? Bool == true
                && entry["scope"] as? String == "config")
        let other = try #require(sections.last?["entries"] as? [[String: Any]])
        #expect(other.last?["type"] as? String == "other" && other.last?["scope"] is NSNull)
        let contributors = try #require(object["contributors"] as? [[String: String]])
        #expect(contributors.first == ["name": "Alice Liddell", "email": "alice@example.com"])
    }

    @Test func installSectionFromManifest() async throws {
        let fixture = try NotesFixture.make()
        try fixture.repository.git("remote", "add", "origin", "https://github.com/acme/widget.git")
        let dist = fixture.url.appendingPathComponent("dist")
        var manifest = ReleaseManifest(
            project: "widget", tag: "v0.2.0", version: "0.2.0", commit: fixture.hashes["chore"]!)
        manifest.upsert([
            .init(
                name: "widget-v0.2.0-x86_64-unknown-linux-musl.tar.gz", target: "x86_64-unknown-linux-musl",
                format: "tar.gz", size: 2_400_000, sha256: String(repeating: "a", count: 64)),
            .init(
                name: "widget-v0.2.0-aarch64-apple-darwin.tar.gz", target: "aarch64-apple-darwin", format: "tar.gz",
                size: 900, sha256: String(repeating: "b", count: 64)),
            .init(
                name: "widget-v0.2.0-x86_64-pc-windows-msvc.zip", target: "x86_64-pc-windows-msvc", format: "zip",
                size: 3_000_000, sha256: String(repeating: "c", count: 64)),
        ])
        try manifest.write(in: dist)
        let notes = try await ReleaseNotesBuilder(context: Context(workingDirectory: fixture.url))
            .build(config: .defaults(root: fixture.url), tag: "v0.2.0", distDirectory: dist)
        let md = notes.markdown
        #expect(
            md.contains(
                "curl -fLO https://github.com/acme/widget/releases/download/v0.2.0/widget-v0.2.0-x86_64-unknown-linux-musl.tar.gz\n"
            ))
        #expect(
            md.contains(
                "echo '\(String(repeating: "a", count: 64))  widget-v0.2.0-x86_64-unknown-linux-musl.tar.gz' | sha256sum -c -\n"
            ))
        #expect(
            md.contains(
                "echo '\(String(repeating: "b", count: 64))  widget-v0.2.0-aarch64-apple-darwin.tar.gz' | shasum -a 256 -c -\n"
            ))
        // Only release assets are downloaded: no per-archive `.sha256` (CI's hand-over, not an asset).
        #expect(!md.contains(".sha256"), "\(md)")
        #expect(
            md.contains(
                "(Get-FileHash widget-v0.2.0-x86_64-pc-windows-msvc.zip -Algorithm SHA256).Hash -ne '\(String(repeating: "C", count: 64))'"
            ))
        #expect(
            md.contains(
                "| `widget-v0.2.0-x86_64-unknown-linux-musl.tar.gz` | `x86_64-unknown-linux-musl` | 2.3 MiB | `\(String(repeating: "a", count: 64))` |"
            ))
        #expect(md.contains("| 900 B |"))
    }

    @Test func userTemplateRendersAndReportsErrors() async throws {
        let fixture = try NotesFixture.make()
        try fixture.repository.directory.write(
            "notes.mustache",
            """
            # {{version}} ({{date}}) since {{previous}}
            {{#sections}}
            ## {{title}}
            {{#entries}}
            * {{#scope}}[{{.}}] {{/scope}}{{{summaryMarkdown}}} {{shortHash}}
            {{/entries}}
            {{/sections}}
            """)
        let notes = try await build(fixture) { $0.notes.template = "notes.mustache" }
        #expect(
            notes.markdown.hasPrefix(
                "# 0.2.0 (2026-01-02) since v0.1.0\n## Breaking changes\n* [config] drop the legacy `relctl.ini` format \(fixture.hashes["bang"]!.prefix(7))\n"
            ))
        try fixture.repository.directory.write("bad.mustache", "line one\n{{#sections}}\n{{title}}\n{{/entries}}\n")
        do {
            _ = try await build(fixture) { $0.notes.template = "bad.mustache" }
            Issue.record("expected a template error")
        } catch let error as NotesError {
            #expect(error.exitCode == .badInput)
            #expect(error.diagnostics.first?.file == "bad.mustache" && error.diagnostics.first?.line == 4)
        }
    }

    @Test func changelogInsertIsIdempotent() throws {
        func notes(_ version: String?, _ summary: String) throws -> ReleaseNotes {
            let entry = NotesEntry(
                commit: "0123456789abcdef", type: "feat", scope: nil, summary: summary, breaking: false,
                migrationNote: nil, authorName: "A", authorEmail: "a@example.com")
            return ReleaseNotes(
                tag: version.map { "v" + $0 }, version: try version.map { try SemanticVersion(parsing: $0) },
                previous: nil, date: "2026-01-02", targetCommit: "0123456789abcdef",
                sections: [NotesSection(title: "Features", entries: [entry])], contributors: [], links: nil,
                manifest: nil)
        }
        func insert(_ notes: ReleaseNotes, into text: String?) throws -> String {
            try Changelog.insert(notes, into: text, displayPath: "CHANGELOG.md").text
        }
        let release = try notes("1.0.0", "a")
        let marker = ChangelogDocument.marker(for: "## 1.0.0 - 2026-01-02\n\n### Features\n\n- a (0123456)\n")
        let first = try insert(release, into: nil)
        #expect(first == "# Changelog\n\n## 1.0.0 - 2026-01-02\n\n### Features\n\n- a (0123456)\n\n\(marker)\n")
        #expect(try insert(release, into: first) == first)
        let replaced = try insert(notes("1.0.0", "b"), into: first)
        #expect(
            replaced.contains("- b (0123456)") && !replaced.contains("- a ("), "relctl's unedited section is replaced")
        let existing = "# Changes\n\nAll notable changes.\n\n## 0.9.0 - 2025-01-01\n\n- old\n"
        let second = try insert(release, into: existing)
        #expect(
            second
                == "# Changes\n\nAll notable changes.\n\n## 1.0.0 - 2026-01-02\n\n### Features\n\n- a (0123456)\n\n\(marker)\n\n## 0.9.0 - 2025-01-01\n\n- old\n"
        )
        #expect(try insert(release, into: second) == second)
        let unreleased = try insert(notes(nil, "wip"), into: existing)
        #expect(
            unreleased.contains("## Unreleased - 2026-01-02\n\n### Features\n\n- wip (0123456)\n\n<!-- relctl-digest"))
        #expect(try insert(release, into: unreleased) == second, "the release replaces relctl's Unreleased")
        // A Windows-edited changelog: found sections, CRLF kept, still idempotent.
        let crlf = unreleased.replacingOccurrences(of: "\n", with: "\r\n")
        let released = try insert(release, into: crlf)
        #expect(released == second.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(try insert(release, into: released) == released)
        // A section written before markers existed, unchanged, is still relctl's.
        let legacy = "# Changelog\n\n## 1.0.0 - 2026-01-02\n\n### Features\n\n- a (0123456)\n"
        #expect(try insert(release, into: legacy) == first)
    }

    @Test func repositoryLinks() {
        let forms = [
            "https://github.com/acme/widget.git", "git@github.com:acme/widget.git", "ssh://git@github.com/acme/widget",
            "https://user:s3cret@github.com/acme/widget/",
        ]
        for form in forms {
            #expect(
                RepositoryLinks(remoteURL: form)
                    == RepositoryLinks(host: .github, baseURL: "https://github.com/acme/widget"), "\(form)")
        }
        let lab = RepositoryLinks(remoteURL: "git@gitlab.com:group/sub/app.git")
        #expect(lab?.baseURL == "https://gitlab.com/group/sub/app")
        #expect(lab?.commitURL("abc") == "https://gitlab.com/group/sub/app/-/commit/abc")
        #expect(lab?.compareURL(from: "v1", to: "v2") == "https://gitlab.com/group/sub/app/-/compare/v1...v2")
        #expect(RepositoryLinks(remoteURL: "/srv/git/app.git") == nil)
        #expect(RepositoryLinks(remoteURL: "https://example.com/a/b.git") == nil)
    }

    @Test func markdownEscaper() {
        #expect(MarkdownEscaper.escape("a*b_c [d](e) <f> | ~g~ \\") == "a\\*b\\_c \\[d\\](e) \\<f\\> \\| \\~g\\~ \\\\")
        #expect(MarkdownEscaper.escape("keep `x_*y` and ``a`b`` but `lone") == "keep `x_*y` and ``a`b`` but \\`lone")
    }
}
