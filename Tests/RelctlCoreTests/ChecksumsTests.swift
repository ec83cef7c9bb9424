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

@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct ChecksumsTests {
    @Test func fileHasherMatchesCoreutilsAcrossBufferBoundaries() async throws {
        try await withTemporaryDirectory { dir in
            // One byte past three buffers, an exact buffer, and an empty file.
            let sizes = [3 * FileHasher.bufferSize + 1, FileHasher.bufferSize, 0]
            var urls: [URL] = []
            for (index, size) in sizes.enumerated() {
                let url = dir.url.appendingPathComponent("f\(index).bin")
                try ChecksumFixtures.bytes(size, seed: UInt64(index + 7)).write(to: url)
                urls.append(url)
            }
            for url in urls {
                let sha256 = try run("sha256sum", [url.path]).stdout.prefix(64)
                let sha512 = try run("sha512sum", [url.path]).stdout.prefix(128)
                #expect(try FileHasher.sha256(of: url) == String(sha256))
                #expect(try FileHasher.sha512(of: url) == String(sha512))
            }
            let parallel = try await FileHasher.digests(of: urls, algorithms: [.sha256, .sha512], jobs: 3)
            #expect(parallel.map(\.url) == urls)
            #expect(parallel.map(\.size) == sizes.map(Int64.init))
            let oneByOne = try urls.map { try FileHasher.sha256(of: $0) }
            #expect(parallel.map { $0[.sha256] } == oneByOne)
        }
    }

    /// `checksum`'s compact hasher (a few workers pulling files, records in slots) gives what the
    /// per-file hasher gives, in the order of the names, whatever the sizes and the job count;
    /// the first unreadable name in that order is the one reported.
    @Test func compactHasherAgreesWithThePerFileHasher() async throws {
        try await withTemporaryDirectory { dir in
            let sizes = [0, 1, 4096, FileHasher.bufferSize + 3, 17, 2 * FileHasher.bufferSize, 5]
            var names: [String] = []
            for (index, size) in sizes.enumerated() {
                let name = "f\(index).tar.gz"
                try ChecksumFixtures.bytes(size, seed: UInt64(index + 3)).write(
                    to: dir.url.appendingPathComponent(name))
                names.append(name)
            }
            let urls = names.map { dir.url.appendingPathComponent($0) }
            let expected = try await FileHasher.digests(of: urls, algorithms: [.sha256, .sha512])
            for jobs in [1, 2, 5] {
                let hashed = try await FileHasher.hashFiles(named: names, in: dir.url, sha512: true, jobs: jobs)
                #expect(hashed.count == names.count)
                for index in names.indices {
                    #expect(hashed[index].size == expected[index].size)
                    #expect(hashed[index].hex(.sha256) == expected[index][.sha256])
                    #expect(hashed[index].hex(.sha512) == expected[index][.sha512])
                }
            }
            let plain = try await FileHasher.hashFiles(named: names, in: dir.url, sha512: false)
            #expect(plain[3].sha512 == nil && plain[3].hex(.sha256) == expected[3][.sha256])
            await #expect {
                _ = try await FileHasher.hashFiles(
                    named: [names[0], "gone-b.tar.gz", "gone-a.tar.gz"], in: dir.url, sha512: false, jobs: 3)
            } throws: { error in
                (error as? ChecksumError)?.message.contains("gone-b.tar.gz") == true
            }
        }
    }

    @Test func fileHasherReportsUnreadableFilesAsBadInput() throws {
        #expect {
            try FileHasher.sha256(of: URL(fileURLWithPath: "/nonexistent/relctl.tar.gz"))
        } throws: { error in
            let error = error as? ChecksumError
            return error?.exitCode == .badInput && error?.message.contains("/nonexistent/relctl.tar.gz") == true
        }
    }

    @Test func rendersSortedGNULinesWithoutTrailingBlankLine() {
        let a = String(repeating: "a", count: 64), b = String(repeating: "B", count: 64)
        let file = ChecksumFile(entries: [
            .init(name: "b.zip", digest: b, algorithm: .sha256),
            .init(name: "B.tar.gz", digest: a, algorithm: .sha256),
        ]).sorted
        #expect(file.render() == "\(a)  B.tar.gz\n\(b.lowercased())  b.zip\n")
    }

    @Test func parsesGNUBinaryBSDAndOpenSSLLines() throws {
        let h256 = String(repeating: "0123456789abcdef", count: 4)
        let h512 = String(repeating: "fedcba9876543210", count: 8)
        let text = """
            \(h256)  plain.tar.gz
            \(h256.uppercased()) *binary.zip\r
            SHA256 (bsd name.tar.xz) = \(h256)
            SHA2-256(openssl.tar.zst)= \(h256)
            \(h512)  big.tar.gz
            \\\(h256)  back\\\\slash\\nnewline.zip

            """
        let file = try ChecksumFile.parse(text, path: "SUMS")
        #expect(
            file.entries.map(\.name) == [
                "plain.tar.gz", "binary.zip", "bsd name.tar.xz", "openssl.tar.zst", "big.tar.gz",
                "back\\slash\nnewline.zip",
            ])
        #expect(file.entries.map(\.algorithm) == [.sha256, .sha256, .sha256, .sha256, .sha512, .sha256])
        #expect(file.entries.allSatisfy { $0.digest == $0.digest.lowercased() })
        #expect(file.entries.map(\.line) == [1, 2, 3, 4, 5, 6])
        // GNU escaping round-trips.
        #expect(
            try ChecksumFile.parse(ChecksumFile(entries: [file.entries[5]]).render(), path: "x").entries[0].name
                == "back\\slash\nnewline.zip")
    }

    @Test func byteOrderMarkFromWindowsEditorsIsSkipped() throws {
        let h = String(repeating: "ab", count: 32)
        let file = try ChecksumFile.parse("\u{FEFF}\(h)  a.zip\r\n", path: "SHA256SUMS")
        #expect(file.entries == [ChecksumFile.Entry(name: "a.zip", digest: h, algorithm: .sha256, line: 1)])
    }

    @Test func malformedLinesAreBadInputNamingEachLine() throws {
        let h = String(repeating: "a", count: 64)
        let text = "\(h)  ok.tar.gz\n\(h.dropLast())  short.tar.gz\nnot a checksum\n\(h) one-space.zip\n"
        #expect {
            try ChecksumFile.parse(text, path: "dist/SHA256SUMS")
        } throws: { error in
            guard let list = error as? ProblemList else { return false }
            return list.exitCode == .badInput && list.diagnostics.compactMap(\.line) == [2, 3, 4]
                && list.diagnostics.allSatisfy { $0.file == "dist/SHA256SUMS" }
        }
    }

    @Test func conflictingDuplicateIsBadInput() {
        let a = String(repeating: "a", count: 64), b = String(repeating: "b", count: 64)
        #expect(throws: ProblemList.self) {
            try ChecksumFile.parse("\(a)  x.zip\n\(b)  x.zip\n", path: "S")
        }
        #expect((try? ChecksumFile.parse("\(a)  x.zip\n\(a)  x.zip\n", path: "S").entries.count) == 1)
    }

    @Test func artifactNameRecoversTargetTagAndFormat() throws {
        let template = Template("{project}-{tag}-{target}")
        let name = try #require(
            ArtifactName.parse(
                "velostream-v1.0.0-rc.1-aarch64-apple-darwin.tar.zst", template: template, tagFormat: .default))
        #expect(name.project == "velostream")
        #expect(name.tag == "v1.0.0-rc.1")
        #expect(name.version == "1.0.0-rc.1")
        #expect(name.target == "aarch64-apple-darwin")
        #expect(name.format == "tar.zst")

        let hyphenated = try #require(
            ArtifactName.parse("my-tool-v2.3.4-x86_64-pc-windows-msvc.zip", template: template, tagFormat: .default))
        #expect(hyphenated.project == "my-tool")
        #expect(hyphenated.target == "x86_64-pc-windows-msvc")

        // A configured target wins over a split into a recognised triple.
        let custom = try #require(
            ArtifactName.parse(
                "tool-v1.0.0-beta-linux.tar.gz", template: template, tagFormat: .default, project: "tool",
                knownTargets: ["beta-linux"]))
        #expect(custom.tag == "v1.0.0")
        #expect(custom.target == "beta-linux")

        let versioned = try #require(
            ArtifactName.parse(
                "tool_1.2.3_x86_64-unknown-linux-gnu.tar.xz", template: Template("{project}_{version}_{target}"),
                tagFormat: .default))
        #expect(versioned.version == "1.2.3")
        #expect(versioned.tag == nil)
        #expect(versioned.target == "x86_64-unknown-linux-gnu")

        #expect(
            ArtifactName.parse(
                "velostream-v1.0.0-x86_64-unknown-linux-musl.tar.gz", template: template, tagFormat: .default,
                project: "other") == nil)
        #expect(ArtifactName.parse("notes.txt", template: template, tagFormat: .default) == nil)
        #expect(ArtifactName.format(of: ".tar.gz") == nil)
    }

    @Test func algorithmIdsAndNames() throws {
        #expect(try ChecksumAlgorithm(id: "SHA-512") == .sha512)
        #expect(ChecksumAlgorithm.sha512.sumsFileName == "SHA512SUMS")
        #expect(ChecksumAlgorithm.sha256.fileExtension == ".sha256")
        #expect(throws: ChecksumError.self) { try ChecksumAlgorithm(id: "md5") }
    }

    @Test func writerAndVerifierRunInProcess() async throws {
        try await withTemporaryDirectory { dir in
            let dist = try ChecksumFixtures.makeDist(in: dir)
            let context = Context(workingDirectory: dir.url)
            let config = RelctlConfig.defaults(root: dir.url)
            let report = try await ChecksumWriter.run(
                paths: [], algorithm: .sha256, config: config, context: context, jobs: 2)
            #expect(report.folders.map(\.directory) == ["dist"])
            #expect(
                report.folders[0].release.artifacts.map(\.target) == [
                    "x86_64-pc-windows-msvc", "x86_64-unknown-linux-musl",
                ])
            #expect(report.folders[0].release.artifacts.map(\.format) == ["zip", "tar.gz"])

            let clean = try await ChecksumVerifier.verify(sums: "dist/SHA256SUMS", context: context)
            #expect(clean.ok && clean.failure == nil)
            #expect(clean.files.map(\.status) == [.ok, .ok])

            try FileManager.default.removeItem(at: dist.appendingPathComponent(ChecksumFixtures.linux))
            let broken = try await ChecksumVerifier.verify(sums: "dist/SHA256SUMS", context: context)
            #expect(!broken.ok)
            #expect(broken.failure?.exitCode == .failure)
            #expect(broken.files.map(\.status) == [.ok, .missing])
        }
    }
}
