import Crypto
import Foundation
import RelctlArtifacts
import RelctlModel
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject

/// The .deb/.rpm writers stream (issue 39, finding 10): a member compressed from a temporary file
/// must be the very bytes the whole-buffer gzip made (the packages stay byte-identical), a source
/// that changes while it is read is refused, and no temporary outlives a failure.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct LinuxPackageStreamingTests {
    /// Bytes that compress in places and not in others: a counter-mode stream from SHA-256 (no
    /// generator of the code under test), runs of text and zeros between.
    static func mixed(_ count: Int) -> Data {
        var data = Data(capacity: count)
        var block = 0
        while data.count < count {
            switch block % 3 {
            case 0: data.append(contentsOf: SHA256.hash(data: withUnsafeBytes(of: block) { Data($0) }))
            case 1: data.append(Data(String(repeating: "velostream \(block) ", count: 3).utf8))
            default: data.append(Data(count: block % 200))
            }
            block += 1
        }
        return data.prefix(count)
    }

    @Test(arguments: [1, 4_097, 3 << 20, 9 << 20 + 17])
    func aMemberCompressedFromAFileIsTheWholeBufferMember(size: Int) throws {
        try withTemporaryDirectory { directory in
            let bytes = Self.mixed(size)
            let package = directory.url.appendingPathComponent("p_1.0_amd64.deb")
            let input = try PackageTemporary(beside: package, "data.tar")
            defer { input.remove() }
            let writer = PackageFileWriter(descriptor: input.descriptor, package: package, crc: true)
            try writer.write(bytes)
            try writer.flush()
            let output = try PackageTemporary(beside: package, "data.tar.gz")
            defer { output.remove() }
            let written = try Gzip.compress(
                file: input.descriptor, size: writer.count, crc: writer.crc, into: output.descriptor,
                destination: package)
            let member = try Data(contentsOf: output.url)
            #expect(written == member.count)
            let expected = try Gzip.compress(bytes, destination: "reference")
            #expect(member == expected, "\(size) bytes: \(member.count) against \(expected.count)")
            // And gzip itself reads it back.
            let gunzipped = try run("sh", ["-c", "gzip -dc \"$1\" | sha256sum", "sh", output.url.path])
            let digest = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
            #expect(gunzipped.status == 0 && gunzipped.stdout.hasPrefix(digest + " "), "\(gunzipped)")
        }
    }

    @Test func aSourceThatIsNotTheSizeItSaidIsRefusedNamingIt() throws {
        try withTemporaryDirectory { directory in
            let package = directory.url.appendingPathComponent("p_1.0_amd64.deb")
            let temporary = try PackageTemporary(beside: package, "data.tar")
            defer { temporary.remove() }
            let writer = PackageFileWriter(descriptor: temporary.descriptor, package: package)
            // /proc files say 0 bytes and then give some: what a file growing after it was opened does.
            var md5 = Insecure.MD5()
            let grown = PackagedFile(path: "/usr/bin/status", kind: .source("/proc/self/status"), mode: 0o755)
            do {
                _ = try writer.append(grown, hashing: &md5) { _ in [] }
                Issue.record("a file that grew was packaged")
            } catch let error as LinuxPackageError {
                #expect(error.message.contains("/proc/self/status"), "\(error.message)")
                #expect(
                    error.message.contains("changed while it was packaged (it grew past its 0 bytes)"),
                    "\(error.message)")
            }
            let folder = PackagedFile(path: "/usr/bin", kind: .source(directory.path), mode: 0o755)
            #expect(throws: LinuxPackageError.self) { try writer.append(folder, hashing: &md5) { _ in [] } }
        }
    }

    @Test func aFailedPackageLeavesNoTemporaryBehind() throws {
        try withTemporaryDirectory { directory in
            let binary = directory.url.appendingPathComponent("hello")
            try Self.mixed(3 << 20).write(to: binary)
            let metadata = try #require(
                PackageMetadata(
                    ProjectMetadata(description: "Says hello.", license: "MIT", maintainer: "A B <a@b.example>"),
                    licenseText: "MIT\n"))
            var spec = LinuxPackageSpec(
                name: "hello", version: LinuxPackageVersion("1.0.0"),
                architecture: LinuxArchitecture(triple: "x86_64-unknown-linux-gnu")!, metadata: metadata,
                section: "utils", group: "Applications/System", depends: [], release: "1", mtime: 1_700_000_000,
                changes: [], files: [PackagedFile(path: "/usr/bin/hello", kind: .source(binary.path), mode: 0o755)])
            let out = directory.url.appendingPathComponent("dist")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            for format in [DebPackageWriter() as any LinuxPackageFormat, RpmPackageWriter()] {
                let url = out.appendingPathComponent(format.fileName(spec))
                let written = try format.write(spec, to: url)
                let sums = try run("sha256sum", [url.path])
                #expect(sums.stdout.hasPrefix(written.sha256 + " "), "\(sums)")
                #expect(written.size == Int64(try Data(contentsOf: url).count))
            }
            // A file that changes under the writer fails the package after its temporaries were made.
            spec.files.append(PackagedFile(path: "/usr/bin/status", kind: .source("/proc/self/status"), mode: 0o755))
            for format in [DebPackageWriter() as any LinuxPackageFormat, RpmPackageWriter()] {
                let url = out.appendingPathComponent("failed-" + format.fileName(spec))
                #expect(throws: LinuxPackageError.self) { try format.write(spec, to: url) }
            }
            let left = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
            #expect(left == ["hello-1.0.0-1.x86_64.rpm", "hello_1.0.0_amd64.deb"], "\(left)")
        }
    }
}
