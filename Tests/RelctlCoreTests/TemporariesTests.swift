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

@Suite("Temporaries", .timeLimit(.minutes(30)), .removesTemporaries)
struct TemporariesTests {
    /// The streamed listing `checksum` and `reclaim` use gives exactly FileManager's names, for
    /// many entries of every length up to the longest a file system takes (the first version
    /// copied each 256-byte name field whole and faulted past glibc's buffer on 10,000 archives).
    @Test func theStreamedListingIsTheWholeListing() throws {
        try withTemporaryDirectory { dir in
            var expected: Set<String> = []
            for index in 0..<3000 {
                // At most 255 bytes, the longest name ext4 and tmpfs take.
                let name = String(repeating: "n", count: 1 + index % 240) + "-\(index)" + (index % 3 == 0 ? "-ü" : "")
                try #require(
                    FileManager.default.createFile(atPath: dir.url.appendingPathComponent(name).path, contents: nil))
                expected.insert(name)
            }
            var listed: [String] = []
            try FileSystem.forEachName(in: dir.url) { listed.append($0) }
            #expect(listed.count == expected.count)
            #expect(Set(listed).symmetricDifference(expected).isEmpty)
            #expect(Set(try FileSystem.names(in: dir.url)).symmetricDifference(expected).isEmpty)
            #expect(throws: FileSystemError.self) {
                try FileSystem.forEachName(in: dir.url.appendingPathComponent("missing")) { _ in }
            }
        }
    }

    @Test func everyTemporaryNameCarriesItsPid() {
        let name = Temporaries.name(".demo.tar.gz.sha256")
        #expect(name.hasPrefix(".demo.tar.gz.sha256.relctl-tmp-\(getpid())-"))
        #expect(Temporaries.owner(of: name) == getpid())
        #expect(
            Temporaries.owner(of: AtomicFile.temporaryURL(for: URL(fileURLWithPath: "/x/SHA256SUMS")).lastPathComponent)
                == getpid())
        // Names of other schemes (or of older relctl versions, without a pid) are nobody's to reclaim.
        for other in [
            ".notes.relctl-tmp-12345", "relctl-dry-run-v1-1A2B3C4D", ".dat.nosync1a2b", "a.relctl-tmp--ff",
            "a.relctl-tmp-12-", "a.relctl-tmp-12-xyz",
        ] {
            #expect(Temporaries.owner(of: other) == nil, "\(other)")
        }
    }

    @Test func nothingIsCreatedOnceTheInterruptCleanupRan() throws {
        try withTemporaryDirectory { directory in
            let registry = CleanupRegistry()
            let before = directory.url.appendingPathComponent("before")
            let descriptor = registry.create(before)
            #expect(descriptor >= 0)
            close(descriptor)
            registry.removeAll()
            #expect(!directory.exists("before"), "what was registered is removed")
            // After the cleanup began, a late writer can neither create nor link anything into place.
            #expect(registry.create(directory.url.appendingPathComponent("late")) == -1)
            #expect(throws: (any Error).self) {
                try registry.makeDirectory(directory.url.appendingPathComponent("dir"))
            }
            try directory.write("done", "x")
            let linked = registry.appear(directory.url.appendingPathComponent("linked")) {
                link(
                    directory.url.appendingPathComponent("done").path,
                    directory.url.appendingPathComponent("linked").path)
            }
            #expect(linked == -1)
            #expect(!directory.exists("late") && !directory.exists("dir") && !directory.exists("linked"))
        }
    }

    @Test func atomicWritesLeaveNoForeignTemporaryAndKeepTheMode() throws {
        try withTemporaryDirectory { directory in
            let url = directory.url.appendingPathComponent("out/file.txt")
            try AtomicFile.write("hello\n", to: url, permissions: 0o640)
            #expect(try directory.read("out/file.txt") == "hello\n")
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            #expect((attributes[.posixPermissions] as? Int) == 0o640)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path) == [
                    "file.txt"
                ])
        }
    }

    /// A write that fails part way leaves the destination as it was and no hidden temporary
    /// beside it: the stream already wrote bytes to the temporary, then the writer threw (the
    /// mutation audit's atomic-temporary mutant, the temporary kept, survived every other suite).
    @Test func aFailedAtomicWriteLeavesNoTemporaryAndTheOldFileWhole() throws {
        try withTemporaryDirectory { dir in
            let destination = dir.url.appendingPathComponent("SHA256SUMS")
            try AtomicFile.write("old\n", to: destination)
            #expect(throws: TestFailure.self) {
                try AtomicFile.write(to: destination) { piece in
                    try piece(String(repeating: "partial line\n", count: 10_000))
                    throw TestFailure("the writer stops part way")
                }
            }
            #expect(try folderNames(dir.url) == ["SHA256SUMS"])
            #expect(try String(contentsOf: destination, encoding: .utf8) == "old\n")
        }
    }
}

@Suite("ReleaseLock discovery", .timeLimit(.minutes(30)), .removesTemporaries)
struct ReleaseLockDiscoveryTests {
    @Test func theLockIsFoundWithoutGitInARepositoryAndInALinkedWorktree() async throws {
        let repository = try GitRepository()
        try repository.commit("start", files: ["a/b/file.txt": "x\n"])
        let expected = repository.url.appendingPathComponent(".git/relctl-release.lock").standardizedFileURL.path
        #expect(ReleaseLock.url(near: repository.url.appendingPathComponent("a/b"))?.path == expected)
        let worktree = repository.url.deletingLastPathComponent().appendingPathComponent(
            repository.url.lastPathComponent + "-wt")
        defer { try? FileManager.default.removeItem(at: worktree) }
        try repository.git("worktree", "add", "-q", worktree.path)
        #expect(ReleaseLock.url(near: worktree.appendingPathComponent("a"))?.path == expected)
        #expect(
            try await ReleaseLock.url(for: Git(directory: worktree, context: Context(workingDirectory: worktree))).path
                == expected)
    }
}
