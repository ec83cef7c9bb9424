import Foundation
import RelctlTestTraits
import Testing

/// The README is an index into `docs/`: a link that lost its page or its heading when a section
/// moved is a dead end for a reader, so every relative link must land.
@Suite("README and docs/", .timeLimit(.minutes(45)), .removesTemporaries)
struct DocumentationTests {
    static let root = DogfoodCLITests.repositoryRoot

    static var pages: [String] {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    /// GitHub's heading anchors: lower case, punctuation other than `-` and `_` dropped, spaces to `-`.
    static func anchors(in text: String) -> Set<String> {
        var result: Set<String> = []
        var inFence = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inFence.toggle() }
            guard !inFence, let heading = String(line).wholeMatch(of: /#{1,6} (.*)/) else { continue }
            let title = heading.output.1.lowercased()
            let kept = title.unicodeScalars.filter {
                CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" || $0 == " "
            }
            result.insert(String(String.UnicodeScalarView(kept)).replacingOccurrences(of: " ", with: "-"))
        }
        return result
    }

    static func links(in text: String) -> [String] {
        // Code (fenced or inline) shows link syntax as text, so only prose is read.
        let prose = text.replacing(/```.*?```/.dotMatchesNewlines(), with: "").replacing(/`[^`\n]*`/, with: "")
        return prose.matches(of: /\[[^\]]*\]\(([^)\s]+)\)/).map { String($0.output.1) }
    }

    @Test func everyRelativeLinkLandsOnAFileAndAHeading() throws {
        var dead: [String] = []
        for page in Self.pages {
            let url = Self.root.appendingPathComponent(page)
            let text = try String(contentsOf: url, encoding: .utf8)
            for link in Self.links(in: text) where !link.hasPrefix("http") && !link.hasPrefix("mailto:") {
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let file = String(parts[0])
                let target = file.isEmpty ? url : url.deletingLastPathComponent().appendingPathComponent(file)
                guard FileManager.default.fileExists(atPath: target.standardizedFileURL.path) else {
                    dead.append("\(page): \(link) (no such file)")
                    continue
                }
                if parts.count == 2, target.pathExtension == "md" {
                    let other = try String(contentsOf: target, encoding: .utf8)
                    if !Self.anchors(in: other).contains(String(parts[1])) {
                        dead.append("\(page): \(link) (no such heading)")
                    }
                }
            }
        }
        #expect(dead.isEmpty, "\(dead.joined(separator: "\n"))")
    }

    @Test func theQuickStartHasExactlyTwoCommandsAndCIRunsTheSecond() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let quickStart = try #require(readme.firstMatch(of: /## Quick start\n(?s:.*?)```sh\n((?s:.*?))```/))
        let commands = quickStart.output.1.split(separator: "\n").map {
            $0.split(separator: "#")[0].trimmingCharacters(in: .whitespaces)
        }
        #expect(commands == ["make demo", "make test"], "\(commands)")
        let ci = try String(contentsOf: Self.root.appendingPathComponent(".ci/run"), encoding: .utf8)
        #expect(ci.split(separator: "\n").contains("make test"), "\(ci)")
    }

    /// Issue 56: users install a release, contributors build from source. The Install section
    /// comes before the quick start and opens with one command: relctl's own installer, by the
    /// name relctl.toml's `[installer]` gives it, from its `[publish] github` repository; then
    /// Homebrew (its `[homebrew] tap`) and the packages; "Build from source" stays.
    @Test func theInstallSectionOpensWithOneCommandForUsers() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let opening = "\n## Install\n\n```sh\n"
        let start = try #require(readme.range(of: opening), "README has no Install section opening with a sh block")
        let section = readme[start.upperBound...].components(separatedBy: "\n## ")[0]
        let fenced = section.components(separatedBy: "```\n")
        let commands = fenced[0].split(separator: "\n")
        #expect(
            commands == ["curl -fsSL https://github.com/relctl/relctl/releases/latest/download/relctl-installer.sh | sh"],
            "\(commands)")
        let rest = fenced.dropFirst().joined(separator: "```\n")
        #expect(rest.contains("brew install relctl/tap/relctl"))
        #expect(rest.contains("sudo apt install relctl"))
        let config = try String(contentsOf: Self.root.appendingPathComponent("relctl.toml"), encoding: .utf8)
        #expect(config.contains("github = \"relctl/relctl\"") && config.contains("tap = \"relctl/homebrew-tap\""))
        #expect(config.contains("[installer]\nenabled = true"))
        let order = ["\n## Install\n", "\n## Quick start\n", "\n## Build from source\n"].map {
            readme.range(of: $0)?.lowerBound
        }
        #expect(order.allSatisfy { $0 != nil } && order == order.sorted { $0! < $1! }, "the sections and their order")
    }
}
