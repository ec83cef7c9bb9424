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

/// Train pins follow bump's link rules (issue 26, item 7): a pinned file reached through a link
/// that leaves the repository is refused (exit 2) before anything is written, dry run included,
/// since the dry run and the preflight make the same plan; a link inside the repository is
/// written through and the file it points to is what the pin commit holds.
@Suite("Train pins and links", .timeLimit(.minutes(30)), .removesTemporaries)
struct PinLinkTests {
    static let pin = RepositoryPin(
        path: ".github/workflows/ci.yml", pattern: #"FFI_VERSION: "(?<version>[^"]+)""#, value: "{tag}")

    static func repository(in directory: TemporaryDirectory) throws -> Workspace.Repository {
        let root = directory.url.appendingPathComponent("repo")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent(".git"), withIntermediateDirectories: true)
        return Workspace.Repository(name: "sdk", path: "repo", directory: root, after: [], pins: [Self.pin])
    }

    @Test("a linked folder that leads out of the repository is refused and nothing is written")
    func linkedFolderOutside() throws {
        try withTemporaryDirectory { directory in
            let repository = try Self.repository(in: directory)
            try directory.write("outside/workflows/ci.yml", "FFI_VERSION: \"v0.1.0\"\n")
            try FileManager.default.createSymbolicLink(
                atPath: repository.directory.appendingPathComponent(".github").path,
                withDestinationPath: directory.url.appendingPathComponent("outside").path)
            let error = #expect(throws: ProblemList.self) {
                try PinPlan.make(for: repository, tag: "v0.2.0", version: "0.2.0", workspaceFile: "ws.toml")
            }
            #expect(error?.exitCode == .badInput)
            #expect(error?.message.contains("outside the repository") == true, "\(String(describing: error?.message))")
            #expect(try directory.read("outside/workflows/ci.yml") == "FFI_VERSION: \"v0.1.0\"\n")
        }
    }

    @Test("a linked file pointing outside is refused")
    func linkedFileOutside() throws {
        try withTemporaryDirectory { directory in
            let repository = try Self.repository(in: directory)
            try directory.write("outside.yml", "FFI_VERSION: \"v0.1.0\"\n")
            try FileManager.default.createDirectory(
                at: repository.directory.appendingPathComponent(".github/workflows"), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: repository.directory.appendingPathComponent(Self.pin.path).path,
                withDestinationPath: directory.url.appendingPathComponent("outside.yml").path)
            #expect(throws: ProblemList.self) {
                try PinPlan.make(for: repository, tag: "v0.2.0", version: "0.2.0", workspaceFile: "ws.toml")
            }
        }
    }

    @Test("a linked file inside the repository stays a link; the file it points to gets the pin")
    func linkedFileInside() throws {
        try withTemporaryDirectory { directory in
            let repository = try Self.repository(in: directory)
            try directory.write("repo/ci/shared.yml", "FFI_VERSION: \"v0.1.0\"\n")
            let link = repository.directory.appendingPathComponent(Self.pin.path)
            try FileManager.default.createDirectory(
                at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "../../ci/shared.yml")
            let plan = try PinPlan.make(for: repository, tag: "v0.2.0", version: "0.2.0", workspaceFile: "ws.toml")
            #expect(plan.changedPaths == ["ci/shared.yml"])
            try plan.write(in: repository.directory)
            #expect(try directory.read("repo/ci/shared.yml") == "FFI_VERSION: \"v0.2.0\"\n")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "../../ci/shared.yml")
        }
    }
}
