import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlModel

/// The read rule on every kind of file relctl reads (issue 55), judged on generated trees of
/// links (`ConfinedPathPropertyTests.makeTree`: relative and absolute links, chains, `..`,
/// dangling links, loops, a root given through a link) against realpath(3):
/// - where the kernel lands outside the root (on the secret next to it), the reader refuses with
///   the read rule's error (exit 2), and the secret's bytes are never read, written or returned;
/// - where it lands on a file inside, the reader reads that file's bytes, or refuses (the rule is
///   stricter in one corner: a link out that comes back in through another);
/// - nothing else is ever read.
/// Each kind goes through the code relctl runs for it: relctl.toml and a member's (TOMLDocument),
/// a `[[version]]` manifest (ManifestReaders.read), a changelog (Changelog.updateReporting, which
/// writes too), a notes template (NotesTemplate.load), a lockfile (LockfileDependencies.read),
/// licence and readme files and a `previous` repository's files (ProjectFile, as the licence
/// reader, archive containment and RemoteRepository open them).
@Suite("safe reads on generated link trees", .timeLimit(.minutes(30)), .removesTemporaries)
struct SafeReadsPropertyTests {
    enum Kind: CaseIterable {
        case config, manifest, changelog, template, lockfile, licence, previous
    }

    static let secret = "x = \"secret\"\n"

    static func notes() throws -> ReleaseNotes {
        let entry = NotesEntry(
            commit: "0123456789abcdef", type: "fix", scope: nil, summary: "a fix", breaking: false,
            migrationNote: nil, authorName: "A", authorEmail: "a@example.com")
        return ReleaseNotes(
            tag: "v1.1.0", version: try SemanticVersion(parsing: "1.1.0"), previous: "v1.0.0", date: "2026-01-02",
            targetCommit: "0123456789abcdef", sections: [NotesSection(title: "Bug fixes", entries: [entry])],
            contributors: [], links: nil, manifest: nil)
    }

    /// Reads `path` under `root` as relctl reads a file of `kind`; returns the text it read.
    static func read(_ kind: Kind, _ path: String, root: URL) throws -> String? {
        switch kind {
        case .config:
            return try TOMLDocument(file: ProjectFile.open(path, in: root)).text
        case .manifest:
            return try ManifestReaders.read(VersionSource(path: path, kind: "plain"), root: root).text + "\n"
        case .changelog:
            let url = AbsolutePath(path, relativeTo: AbsolutePath(root)).url
            let file = try ProjectFile.open(path, in: root)
            let before = file.data().map { String(decoding: $0, as: UTF8.self) }
            _ = try Changelog.updateReporting(url, in: root, with: try notes(), force: true, displayPath: path)
            // What was written holds what was read, and never the secret.
            let written = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            #expect(!written.contains("secret"), "the changelog written holds the secret: \(path)")
            return before
        case .template:
            _ = try NotesTemplate.load(path, root: root)
            return try ProjectFile.open(path, in: root).data().map { String(decoding: $0, as: UTF8.self) }
        case .lockfile:
            _ = try LockfileDependencies.read(root: root)
            return try ProjectFile.open("Cargo.lock", in: root).data().map { String(decoding: $0, as: UTF8.self) }
        case .licence, .previous:
            let file = try ProjectFile.open(path, in: root, what: kind == .licence ? "license-file" : "previous")
            return file.data().map { String(decoding: $0, as: UTF8.self) }
        }
    }

    @Test("every kind of file relctl reads: inside the root or refused, never the secret")
    func everyKindStaysInsideOnGeneratedTrees() throws {
        let seed = UInt64(0x5555_0055)
        var random = ConfinedPathPropertyTests.Generator(state: seed)
        var read = 0, refused = 0, secretRefused = 0
        for treeIndex in 0..<60 {
            try withTemporaryDirectory { directory in
                var names = try ConfinedPathPropertyTests.makeTree(in: directory.url, &random)
                // Every file holds TOML every reader accepts; the secret beside the root too.
                try Data(Self.secret.utf8).write(to: directory.url.appendingPathComponent("outside/secret"))
                for name in names
                where FileKind.isRegularFile(directory.path + "/root/" + name)
                    && !ConfinedPathPropertyTests.isLink(directory.path + "/root/" + name)
                {
                    try Data("x = \"\(name)\"\n".utf8).write(to: directory.url.appendingPathComponent("root/" + name))
                }
                // The lockfile's fixed name, as a link to somewhere in (or out of) the tree.
                let lockTarget = random.pick(names + ["../outside/secret", directory.path + "/outside/secret"])
                try FileManager.default.createSymbolicLink(
                    atPath: directory.path + "/root/Cargo.lock", withDestinationPath: lockTarget)
                names.append("Cargo.lock")
                let realRoot = ConfinedPathPropertyTests.kernelPath(directory.path)! + "/root"
                let givenRoot = directory.url.appendingPathComponent(random.below(2) == 0 ? "root" : "via-link")
                for _ in 0..<12 {
                    let kind = random.pick(Kind.allCases)
                    var parts: [String] = []
                    for _ in 0..<(1 + random.below(3)) { parts.append(random.pick(names + ["..", "l0", "l1"])) }
                    let path = kind == .lockfile ? "Cargo.lock" : parts.joined(separator: "/")
                    let context = "seed \(seed), tree \(treeIndex), \(kind), path \(path)"
                    let kernel = ConfinedPathPropertyTests.kernelPath(givenRoot.path + "/" + path)
                    let kernelInside = kernel.map { $0 == realRoot || $0.hasPrefix(realRoot + "/") }
                    let kernelFile = kernel.flatMap { FileKind.isRegularFile($0) ? $0 : nil }
                    let expected = kernelFile.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }
                    do {
                        let text = try Self.read(kind, path, root: givenRoot)
                        read += 1
                        #expect(kernelInside != false, "read although the kernel leaves the root; \(context)")
                        #expect(text?.contains("secret") != true, "the secret was read; \(context)")
                        if let text, let expected, kind != .lockfile {
                            #expect(text == expected, "read \(text), the kernel's file holds \(expected); \(context)")
                        }
                    } catch let error as ConfinedPathError {
                        refused += 1
                        if kernelInside == false { secretRefused += 1 }
                        #expect(error.exitCode == .badInput, "\(context)")
                    } catch {
                        // Not the read rule's: a missing file, a folder, a template or TOML syntax
                        // error; allowed only where the kernel does not land outside.
                        #expect(kernelInside != false, "refused by \(error), not by the read rule; \(context)")
                    }
                    if kernelInside == false, kind == .lockfile || kind == .changelog {
                        #expect(
                            (try? String(contentsOfFile: directory.path + "/outside/secret", encoding: .utf8))
                                == Self.secret, "the secret is untouched; \(context)")
                    }
                }
            }
        }
        #expect(
            read > 100 && refused > 100 && secretRefused > 50,
            "read \(read), refused \(refused) (\(secretRefused) outside)")
    }
}
