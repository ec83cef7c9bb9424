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

/// Every refusal: exit 2, a message naming the path and what it points to, and nothing written.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct PackagingSafetyTests {
    func refusal(_ fixture: PackagingFixture, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String
    {
        var env = ProcessInfo.processInfo.environment
        env["SOURCE_DATE_EPOCH"] = "1700000000"
        let context = Context(workingDirectory: fixture.url, environment: env)
        let config = try ConfigLoader.load(path: nil, context: context)
        do {
            _ = try await Packager(context: context).package(
                config: config, tag: "v1.0.0", targets: try TargetResolver.resolveAll(config),
                outputDirectory: fixture.dist)
            Issue.record("packaging succeeded", sourceLocation: sourceLocation)
            return ""
        } catch let error as RelctlError {
            #expect(error.exitCode == .badInput, sourceLocation: sourceLocation)
            #expect(
                try fixture.distContents().isEmpty, "left behind: \((try? fixture.distContents()) ?? [])", sourceLocation: sourceLocation
            )
            return error.diagnostics.map(\.description).joined(separator: "\n")
        }
    }

    func link(_ fixture: PackagingFixture, _ path: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(
            atPath: fixture.url.appendingPathComponent(path).path, withDestinationPath: target)
    }

    @Test func absoluteSymlink() async throws {
        let fixture = try PackagingFixture()
        try link(fixture, "demo/passwd", to: "/etc/passwd")
        let message = try await refusal(fixture)
        #expect(
            message.contains("demo/passwd") && message.contains("/etc/passwd") && message.contains("absolute"),
            "\(message)")
        // The demo tree is shared: one line for all four targets, not one per target.
        #expect(message.split(separator: "\n").count == 1, "\(message)")
    }

    @Test func absoluteLinkFromASymlinkRuleNamesTheConfig() async throws {
        let fixture = try PackagingFixture(
            extraConfig: "\n[[archive.symlink]]\npath = \"usr/{binary}\"\nto = \"/usr/bin/{binary}\"\n")
        let message = try await refusal(fixture)
        #expect(message.hasPrefix("relctl.toml: "), "\(message)")
        #expect(
            message.contains("usr/velo-cli") && message.contains("/usr/bin/velo-cli") && message.contains("absolute"),
            "\(message)")
    }

    @Test func linkLeavingTheArchive() async throws {
        let fixture = try PackagingFixture()
        try link(fixture, "demo/1brc/escape", to: "../../../README.md")
        let message = try await refusal(fixture)
        #expect(
            message.contains("demo/1brc/escape") && message.contains("../../../README.md")
                && message.contains("outside"), "\(message)")
    }

    @Test func danglingLink() async throws {
        let fixture = try PackagingFixture()
        try link(fixture, "configs/current", to: "missing.yaml")
        let message = try await refusal(fixture)
        #expect(
            message.contains("configs/current") && message.contains("missing.yaml") && message.contains("dangling"),
            "\(message)")
    }

    @Test func linkToAFileWithATrailingSlashIsDangling() async throws {
        let fixture = try PackagingFixture()
        // `cat demo/readme` fails with "Not a directory" after extraction.
        try link(fixture, "demo/readme", to: "../README.md/")
        let message = try await refusal(fixture)
        #expect(
            message.contains("demo/readme") && message.contains("../README.md/") && message.contains("dangling"),
            "\(message)")
    }

    @Test func linkToAnExcludedFileIsDangling() async throws {
        let fixture = try PackagingFixture()
        try link(fixture, "demo/1brc/latest", to: "scratch.tmp")
        let message = try await refusal(fixture)
        #expect(message.contains("demo/1brc/latest") && message.contains("dangling"), "\(message)")
    }

    @Test func linkCycle() async throws {
        let fixture = try PackagingFixture()
        try link(fixture, "demo/ping", to: "pong")
        try link(fixture, "demo/pong", to: "ping")
        let message = try await refusal(fixture)
        #expect(message.contains("cycle") && message.contains("demo/p"), "\(message)")
    }

    @Test func folderLinkIntoItself() async throws {
        let fixture = try PackagingFixture()
        try link(fixture, "configs/nested/loop", to: "..")
        // A loop for anything that follows links, and endless copying for the Windows zip.
        let message = try await refusal(fixture)
        #expect(message.contains("configs/nested/loop") && message.contains("cycle"), "\(message)")
    }

    @Test func fifoAndSocket() async throws {
        let fixture = try PackagingFixture()
        #expect(mkfifo(fixture.url.appendingPathComponent("demo/pipe").path, 0o644) == 0)
        let message = try await refusal(fixture)
        #expect(message.contains("demo/pipe") && message.contains("FIFO"), "\(message)")

        let other = try PackagingFixture()
        let socket = try run(
            "python3", ["-c", "import socket; s = socket.socket(socket.AF_UNIX); s.bind('configs/control.sock')"],
            in: other.url)
        #expect(socket.status == 0, "\(socket)")
        let socketMessage = try await refusal(other)
        #expect(socketMessage.contains("configs/control.sock") && socketMessage.contains("socket"), "\(socketMessage)")
    }

    @Test func controlCharacterInName() async throws {
        let fixture = try PackagingFixture()
        try fixture.directory.write("demo/bad\u{1b}[31mname.txt", "x")
        let message = try await refusal(fixture)
        #expect(message.contains("control character") && message.contains("demo/bad"), "\(message)")
    }

    @Test func backslashInNameCouldLeaveTheFolderOnWindows() async throws {
        let fixture = try PackagingFixture()
        try fixture.directory.write("demo/..\\..\\..\\evil.txt", "x")
        let message = try await refusal(fixture)
        #expect(message.contains("demo/..\\..\\..\\evil.txt") && message.contains("backslash"), "\(message)")
    }

    @Test func treeThatIsAFifoIsNamedAsOne() async throws {
        let fixture = try PackagingFixture()
        try FileManager.default.removeItem(at: fixture.url.appendingPathComponent("configs"))
        #expect(mkfifo(fixture.url.appendingPathComponent("configs").path, 0o644) == 0)
        let message = try await refusal(fixture)
        #expect(
            message.contains("/configs") && message.contains("FIFO") && !message.contains("does not exist"),
            "\(message)")
    }

    @Test func twoSourcesForOnePath() async throws {
        let fixture = try PackagingFixture(
            extraConfig: "\n[[archive.symlink]]\npath = \"README.md\"\nto = \"bin/{binary}\"\n")
        let message = try await refusal(fixture)
        #expect(
            message.contains("README.md") && message.contains(fixture.url.appendingPathComponent("README.md").path)
                && message.contains("[[archive.symlink]]"), "\(message)")
    }

    @Test func missingBinaryIsNamed() async throws {
        let fixture = try PackagingFixture()
        try FileManager.default.removeItem(
            at: fixture.url.appendingPathComponent("target/x86_64-pc-windows-msvc/release/velo-cli.exe"))
        let message = try await refusal(fixture)
        #expect(
            message.contains("velo-cli.exe") && message.contains("x86_64-pc-windows-msvc")
                && message.contains("relctl build"), "\(message)")
    }
}
