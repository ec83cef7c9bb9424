import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Release shapes users already publish (issue 58) and binaries that match their targets
/// (issue 57, item 1): the header check, Go names, per-target names, one validation for every
/// command, universal macOS binaries, Swift's own triples.
@Suite(.serialized, .timeLimit(.minutes(45)), .removesTemporaries) struct BinaryShapesCLITests {
    /// This machine's CPU as a triple spells it (`x86_64`, `aarch64`).
    private func hostArch() throws -> String {
        let machine = try run("uname", ["-m"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return machine == "arm64" ? "aarch64" : machine
    }

    /// The fixture's relctl.toml with `old` replaced by `new`, committed and pushed.
    private func editConfig(_ fixture: ReleaseFixture, _ old: String, _ new: String) throws {
        let config = try fixture.repository.directory.read("relctl.toml")
        #expect(config.contains(old), "the fixture's relctl.toml holds \(old)")
        try fixture.repository.commit(
            "chore: config", files: ["relctl.toml": config.replacingOccurrences(of: old, with: new)])
        try fixture.repository.git("push", "-q", "origin", "main")
    }

    /// The fixture with its two Linux targets replaced by `targets` (TOML text).
    /// One `hello` script per target, `.exe` named on Windows.
    private static let scriptBuild =
        #"mkdir -p out/{target} && printf '#!/bin/sh\necho hello\n' > out/{target}/hello{exe} && chmod +x out/{target}/hello{exe}"#

    private func fixture(build: String = scriptBuild, targets: String) throws -> ReleaseFixture {
        let fixture = try ReleaseFixture(buildCommand: build)
        try editConfig(
            fixture,
            "[[target]]\ntriple = \"x86_64-unknown-linux-gnu\"\n\n[[target]]\ntriple = \"aarch64-unknown-linux-gnu\"\n",
            targets)
        return fixture
    }

    /// issue 57 item 1: a build command that ignores `{target}` (`swift build -c release`) hands
    /// the darwin target this machine's ELF; the dry run said "would succeed" and packaged it.
    @Test func aBinaryBuiltForAnotherPlatformIsNeverPackaged() throws {
        let arch = try hostArch()
        let fixture = try fixture(
            build: "mkdir -p out/{target} && cp /usr/bin/true out/{target}/hello",
            targets:
                "[[target]]\ntriple = \"\(arch)-unknown-linux-gnu\"\n[[target]]\ntriple = \"\(arch)-apple-darwin\"\n")
        let result = try relctl(
            ["release", "v1.0.0", "--dry-run", "--target", "*linux*", "--target", "*darwin*"], in: fixture.url)
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stderr.contains("binary `hello`") && result.stderr.contains("\(arch)-apple-darwin")
                && result.stderr.contains("ELF"), "names binary, target and what it is: \(result.stderr)")
        #expect(!result.stderr.contains("would succeed"), "\(result.stderr)")
        #expect(
            !result.stderr.contains("not a binary for target \(arch)-unknown-linux-gnu"),
            "the Linux binary fits: \(result.stderr)")

        // `package` refuses it too, and writes nothing.
        let built = try relctl(["build", "-q"], in: fixture.url)
        #expect(built.status == 0, "\(built)")
        let packaged = try relctl(["package", "--tag", "v1.0.0"], in: fixture.url)
        #expect(packaged.status == 1, "\(packaged)")
        #expect(packaged.stderr.contains("\(arch)-apple-darwin"), "\(packaged.stderr)")
        let dist = fixture.url.appendingPathComponent("dist")
        let written = try folderNames(dist)  // a dist/ that cannot be listed fails, not passes
        #expect(!written.contains { $0.hasSuffix(".tar.gz") }, "no archive written: \(written)")

        // The Linux target alone is fine: the header matches.
        let linux = try relctl(["package", "--tag", "v1.0.0", "--target", "*linux*"], in: fixture.url)
        #expect(linux.status == 0, "\(linux)")
    }

    /// A script (the stand-ins of the example and the fixtures) has no binary header: it fits any
    /// target, Windows included.
    @Test func aScriptFitsEveryTarget() throws {
        let fixture = try fixture(
            targets:
                "[[target]]\ntriple = \"x86_64-unknown-linux-gnu\"\n[[target]]\ntriple = \"aarch64-apple-darwin\"\n[[target]]\ntriple = \"x86_64-pc-windows-msvc\"\n"
        )
        let result = try relctl(["release", "v1.0.0", "--dry-run"], in: fixture.url)
        #expect(result.status == 0, "\(result)")
    }

    /// A thin 64-bit Mach-O executable header (little-endian: magic, CPU type and subtype,
    /// MH_EXECUTE, no load commands) followed by `payload`.
    private static func machO(cpu: UInt32, subtype: UInt32, payload: String) -> Data {
        var data = Data()
        for word: UInt32 in [0xFEED_FACF, cpu, subtype, 2, 0, 0, 0, 0] {
            littleEndianBytes(word) { data.append(contentsOf: $0) }
        }
        data.append(Data(payload.utf8))
        return data
    }

    private static func littleEndianBytes(_ word: UInt32, _ body: ([UInt8]) -> Void) {
        body([UInt8(word & 0xFF), UInt8(word >> 8 & 0xFF), UInt8(word >> 16 & 0xFF), UInt8(word >> 24)])
    }

    /// Commits `files` (binary contents) into the fixture and pushes.
    private func commitBinaries(_ fixture: ReleaseFixture, _ files: [String: Data]) throws {
        for (path, data) in files {
            let url = fixture.url.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
            try fixture.repository.git("add", path)
        }
        try fixture.repository.git("commit", "-q", "-m", "chore: prebuilt binaries")
        try fixture.repository.git("push", "-q", "origin", "main")
    }

    /// issue 58 item 5: `universal-apple-darwin` packages one fat Mach-O joined from the two macOS
    /// targets' binaries, written by relctl (no lipo on Linux).
    @Test func aUniversalTargetJoinsBothMacOSBinaries() throws {
        let fixture = try fixture(
            build: "mkdir -p out/{target} && cp bins/{target}/hello out/{target}/hello",
            targets:
                "[[target]]\ntriple = \"x86_64-apple-darwin\"\n[[target]]\ntriple = \"aarch64-apple-darwin\"\n[[target]]\ntriple = \"universal-apple-darwin\"\n"
        )
        let intel = Self.machO(cpu: 0x0100_0007, subtype: 3, payload: String(repeating: "intel code\n", count: 3000))
        let arm = Self.machO(cpu: 0x0100_000C, subtype: 0, payload: "arm code\n")
        try commitBinaries(
            fixture, ["bins/x86_64-apple-darwin/hello": intel, "bins/aarch64-apple-darwin/hello": arm])
        let checked = try relctl(["check"], in: fixture.url)
        #expect(checked.status == 0, "\(checked)")
        // The universal target alone: its two slices are built with it.
        let released = try relctl(["release", "v1.0.0", "--target", "universal-*"], in: fixture.url)
        #expect(released.status == 0, "\(released)")
        let archive = fixture.url.appendingPathComponent("dist/demo-v1.0.0-universal-apple-darwin.tar.gz")
        let out = fixture.url.appendingPathComponent("unpacked")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        _ = try run("tar", ["-xzf", archive.path, "-C", out.path])
        let fat = out.appendingPathComponent("demo-v1.0.0-universal-apple-darwin/bin/hello")
        // Read back independently: the fat header, each slice aligned and byte-identical to its input.
        let script = """
            import struct, sys
            data = open(sys.argv[1], 'rb').read()
            magic, count = struct.unpack('>II', data[:8])
            assert magic == 0xcafebabe, hex(magic)
            for i in range(count):
                cpu, sub, off, size, align = struct.unpack('>iiIII', data[8 + 20 * i: 28 + 20 * i])
                assert off % (1 << align) == 0, (off, align)
                print(hex(cpu), sub, off % 16384, open(sys.argv[2 + i], 'rb').read() == data[off:off + size])
            """
        let inputs = ["x86_64-apple-darwin", "aarch64-apple-darwin"].map {
            fixture.url.appendingPathComponent("bins/\($0)/hello").path
        }
        let readBack = try run("python3", ["-c", script, fat.path] + inputs)
        #expect(readBack.stdout == "0x1000007 3 0 True\n0x100000c 0 0 True\n", "\(readBack)")
        let described = try run("file", ["-b", fat.path]).stdout
        #expect(
            described.contains("Mach-O universal binary with 2 architectures") && described.contains("x86_64")
                && described.contains("arm64"), "\(described)")
        // The same inputs give the same archive.
        let first = try run("sha256sum", [archive.path]).stdout.prefix(64)
        let again = try relctl(["package", "--tag", "v1.0.0", "--target", "universal-*", "--clean"], in: fixture.url)
        #expect(again.status == 0, "\(again)")
        #expect(try run("sha256sum", [archive.path]).stdout.prefix(64) == first, "byte-identical")
    }

    /// A universal target needs both macOS targets: every command refuses it alone, and a slice of
    /// the wrong CPU is never joined.
    @Test func aUniversalTargetNeedsBothSlices() throws {
        let fixture = try fixture(
            build: "mkdir -p out/{target} && cp bins/x86_64-apple-darwin/hello out/{target}/hello",
            targets: "[[target]]\ntriple = \"x86_64-apple-darwin\"\n[[target]]\ntriple = \"universal-apple-darwin\"\n")
        for command in [["check"], ["build"], ["package", "--tag", "v1.0.0"]] {
            let result = try relctl(command, in: fixture.url)
            #expect(result.status == 2, "\(command): \(result)")
            #expect(result.stderr.contains("triple = \"aarch64-apple-darwin\""), "\(command): \(result.stderr)")
        }
        try editConfig(
            fixture, "[[target]]\ntriple = \"universal-apple-darwin\"\n",
            "[[target]]\ntriple = \"aarch64-apple-darwin\"\n[[target]]\ntriple = \"universal-apple-darwin\"\n")
        try commitBinaries(
            fixture, ["bins/x86_64-apple-darwin/hello": Self.machO(cpu: 0x0100_0007, subtype: 3, payload: "x")])
        let released = try relctl(["release", "v1.0.0", "--dry-run"], in: fixture.url)
        #expect(released.status == 1, "\(released)")
        #expect(
            released.stderr.contains("aarch64-apple-darwin") && released.stderr.contains("no aarch64 code"),
            "the arm64 slice holds x86_64 code: \(released.stderr)")
    }

    /// issue 58 item 3: `check` refused a duplicate [[target]] that `package` and `release` took.
    @Test func everyCommandRefusesADuplicateTarget() throws {
        let fixture = try fixture(
            targets:
                "[[target]]\ntriple = \"x86_64-unknown-linux-gnu\"\n[[target]]\ntriple = \"x86_64-unknown-linux-gnu\"\n"
        )
        for command in [
            ["check"], ["build"], ["package", "--tag", "v1.0.0"], ["release", "v1.0.0", "--dry-run"], ["matrix"],
        ] {
            let result = try relctl(command, in: fixture.url)
            #expect(result.status == 2, "\(command): \(result)")
            #expect(
                result.stderr.contains("target `x86_64-unknown-linux-gnu` is listed more than once"),
                "\(command): \(result.stderr)")
        }
    }

    /// issue 58 items 1 and 4: Go's names (prometheus' `{project}-{version}.{goos}-{goarch}`), an
    /// `amd64` triple, and a target's own name (SwiftFormat's `swiftformat_linux.zip`).
    @Test func goNamesAndPerTargetNames() throws {
        let fixture = try fixture(
            targets: """
                [[target]]
                triple = "amd64-unknown-linux-gnu"
                [[target]]
                triple = "aarch64-apple-darwin"
                [[target]]
                triple = "armv7-unknown-linux-gnueabihf"
                [[target]]
                triple = "x86_64-pc-windows-msvc"
                [[target]]
                triple = "x86_64-unknown-linux-musl"
                name = "{project}_linux"
                format = "zip"

                """)
        let config = try fixture.repository.directory.read("relctl.toml")
        try fixture.repository.commit(
            "chore: go names",
            files: [
                "relctl.toml": config.replacingOccurrences(
                    of: "[archive]\n", with: "[archive]\nname = \"{project}-{version}.{goos}-{goarch}{goarm}\"\n")
            ])
        try fixture.repository.git("push", "-q", "origin", "main")
        let checked = try relctl(["check"], in: fixture.url)
        #expect(checked.status == 0 && !checked.stderr.contains("unknown target"), "\(checked)")
        let released = try relctl(["release", "v1.0.0"], in: fixture.url)
        #expect(released.status == 0, "\(released)")
        let dist = fixture.url.appendingPathComponent("dist")
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: dist.path))
        for name in [
            "demo-1.0.0.linux-amd64.tar.gz", "demo-1.0.0.darwin-arm64.tar.gz", "demo-1.0.0.linux-armv7.tar.gz",
            "demo-1.0.0.windows-amd64.zip", "demo_linux.zip",
        ] {
            #expect(names.contains(name), "\(name) in \(names.sorted())")
        }
        // Each archive is listed with its own target, the per-target name included.
        let sums = try String(contentsOf: dist.appendingPathComponent("SHA256SUMS"), encoding: .utf8)
        #expect(sums.contains("demo_linux.zip") && sums.contains("demo-1.0.0.linux-amd64.tar.gz"), "\(sums)")
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: dist.appendingPathComponent("manifest.json")))
                as? [String: Any])
        let artifacts = try #require(manifest["artifacts"] as? [[String: Any]])
        let own = artifacts.first { $0["name"] as? String == "demo_linux.zip" }
        #expect(own?["target"] as? String == "x86_64-unknown-linux-musl", "\(artifacts)")
        let checksum = try relctl(["checksum", "--tag", "v1.0.0"], in: fixture.url)
        #expect(!checksum.stderr.contains("does not fit"), "\(checksum)")
    }

    /// Swift's own triples (`arm64-apple-macosx`, with or without a deployment version) are read as
    /// their Rust-style equivalents: recognised, with the runner and format of aarch64-apple-darwin.
    @Test func swiftTriplesAreRecognised() throws {
        let fixture = try fixture(
            targets:
                "[[target]]\ntriple = \"arm64-apple-macosx\"\n[[target]]\ntriple = \"x86_64-apple-macosx13.0\"\n[[target]]\ntriple = \"x86_64-unknown-linux-gnu\"\n"
        )
        let checked = try relctl(["check"], in: fixture.url)
        #expect(checked.status == 0 && !checked.stderr.contains("unknown target triple"), "\(checked)")
        let matrix = try relctl(["matrix"], in: fixture.url)
        #expect(matrix.status == 0, "\(matrix)")
        let rows = matrix.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(rows.contains(["arm64-apple-macosx", "macos-14", "tar.gz", "macos", "arm64", "keep"]), "\(matrix)")
        #expect(
            rows.contains(["x86_64-apple-macosx13.0", "macos-15-intel", "tar.gz", "macos", "x86_64", "keep"]),
            "\(matrix)")
    }
}
