import Foundation
import RelctlArtifacts
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlDistribution
@testable import RelctlModel

/// One record for every file a release makes (issue 41): what each reader writes from it must be
/// exactly what the five types it replaced wrote.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct ArtifactTests {
    static let digest = String(repeating: "0123456789abcdef", count: 4)
    static let sha512 = String(repeating: "fedcba9876543210", count: 8)

    /// An archive as the packager writes it: everything this run knows.
    static func written(_ name: String = "velo-v1.0.0-x86_64-unknown-linux-musl.tar.gz") -> Artifact {
        Artifact(
            name: name, kind: .archive, target: "x86_64-unknown-linux-musl", format: "tar.gz", size: 4096,
            sha256: digest, sha512: sha512, path: "/tmp/dist/" + name, producedBy: .package)
    }

    /// manifest.json as every release before the artifact model wrote it (schema 1, five keys).
    static let goldenManifest = """
        {
          "artifacts" : [
            {
              "format" : "tar.gz",
              "name" : "velo-v1.0.0-x86_64-unknown-linux-musl.tar.gz",
              "sha256" : "\(digest)",
              "size" : 4096,
              "target" : "x86_64-unknown-linux-musl"
            },
            {
              "format" : "zip",
              "name" : "velo_windows_amd64.zip",
              "sha256" : "\(digest)",
              "size" : 0,
              "target" : ""
            }
          ],
          "commit" : "0123456789abcdef0123456789abcdef01234567",
          "project" : "velo",
          "schema" : 1,
          "tag" : "v1.0.0",
          "version" : "1.0.0"
        }

        """

    static func manifest(_ artifacts: [Artifact]) -> ReleaseManifest {
        var manifest = ReleaseManifest(
            project: "velo", tag: "v1.0.0", version: "1.0.0", commit: "0123456789abcdef0123456789abcdef01234567")
        manifest.upsert(artifacts)
        return manifest
    }

    @Test func aManifestEntryIsTheFiveKeysWhateverElseTheArtifactKnows() throws {
        let unfit = Artifact(name: "velo_windows_amd64.zip", format: "zip", size: 0, sha256: Self.digest)
        // Path, SHA-512, kind and producer are this run's: none reaches manifest.json.
        let manifest = Self.manifest([Self.written(), unfit])
        #expect(try manifest.encoded() == Self.goldenManifest)
        #expect(try JSONOutput.encode(manifest) == Self.goldenManifest)
        #expect(try Self.manifest([Self.written().manifestEntry, unfit]).encoded() == Self.goldenManifest)
        let entry = String(decoding: try JSONEncoder().encode(Self.written()), as: UTF8.self)
        let keys = try #require(try JSONSerialization.jsonObject(with: Data(entry.utf8)) as? [String: Any]).keys
        #expect(Set(keys) == ["name", "target", "format", "size", "sha256"])
    }

    @Test func anExistingManifestReadsBackAndWritesTheSameBytes() throws {
        try withTemporaryDirectory { dir in
            try dir.write(ReleaseManifest.fileName, Self.goldenManifest)
            let read = try #require(try ReleaseManifest.read(in: dir.url))
            #expect(read.artifacts.map(\.name) == ["velo-v1.0.0-x86_64-unknown-linux-musl.tar.gz", "velo_windows_amd64.zip"])
            #expect(read.artifacts.allSatisfy { $0.kind == .archive && $0.path == nil && $0.sha512 == nil })
            #expect(read.artifacts[0] == Self.written().manifestEntry)
            #expect(read.artifacts[1].target.isEmpty)
            try read.write(in: dir.url)
            #expect(try dir.read(ReleaseManifest.fileName) == Self.goldenManifest)
        }
    }

    @Test func checksumListLinesComeFromTheArtifacts() throws {
        let archive = Self.written()
        #expect(archive.sha256Entry.rendered == "\(Self.digest)  \(archive.name)\n")
        #expect(archive.checksumEntry(.sha256)?.rendered == "\(Self.digest)  \(archive.name)\n")
        #expect(archive.checksumEntry(.sha512)?.rendered == "\(Self.sha512)  \(archive.name)\n")
        // An archive hashed without SHA-512 has no SHA512SUMS line: the release refuses, not lists "".
        var plain = archive
        plain.sha512 = nil
        #expect(plain.checksumEntry(.sha512) == nil)
        #expect(plain.path == archive.path)
        // A digest that is not canonical hex is kept as its text, and listed as the list spells
        // digests (lowercase), as the manifest entry it replaced listed it.
        let odd = Artifact(name: "odd.zip", format: "zip", size: 1, sha256: "ABC")
        #expect(odd.sha256 == "ABC")
        #expect(odd.sha256Entry.rendered == "abc  odd.zip\n")
    }

    @Test func theReleaseListHoldsArchivesTheirSBOMsAndThePackages() throws {
        try withTemporaryDirectory { dir in
            let archive = Self.written()
            let sbom = Artifact(
                name: "velo-v1.0.0-x86_64-unknown-linux-musl.cdx.json", kind: .sbom, format: "cdx.json", size: 10,
                sha256: String(repeating: "1", count: 64), sha512: String(repeating: "2", count: 128))
            let deb = Artifact(
                name: "velo_1.0.0_amd64.deb", kind: .deb, target: "x86_64-unknown-linux-musl", format: "deb",
                size: 20, sha256: String(repeating: "3", count: 64), sha512: String(repeating: "4", count: 128),
                producedBy: .linuxPackage)
            let identity = ReleaseIdentity(
                project: "velo", tag: "v1.0.0", version: try SemanticVersion(parsing: "1.0.0"), commit: "c",
                commitTime: 0, environmentEpoch: nil, branch: nil, targets: [])
            let packaged = PackagedArtifact(artifact: archive, entries: 3, seconds: 0, sbom: sbom)
            let set = try ChecksumWriter.writeRelease(
                [packaged], identity: identity, algorithm: .sha256, in: dir.url,
                others: [ChecksumFile.Entry(name: "velo-installer.sh", digest: String(repeating: "5", count: 64), algorithm: .sha256)],
                packages: [deb])
            #expect(
                try dir.read("SHA256SUMS")
                    == """
                    \(String(repeating: "5", count: 64))  velo-installer.sh
                    \(String(repeating: "1", count: 64))  velo-v1.0.0-x86_64-unknown-linux-musl.cdx.json
                    \(Self.digest)  velo-v1.0.0-x86_64-unknown-linux-musl.tar.gz
                    \(String(repeating: "3", count: 64))  velo_1.0.0_amd64.deb

                    """, "sorted bytewise: `-` before `_`, `i` before `v`, `c` before `t`")
            // Only the archive is in manifest.json, as a manifest entry.
            #expect(set.manifest.artifacts == [archive.manifestEntry])
            _ = try ChecksumWriter.writeRelease([packaged], identity: identity, algorithm: .sha512, in: dir.url, packages: [deb])
            #expect(try dir.read("SHA512SUMS").contains("\(String(repeating: "4", count: 128))  velo_1.0.0_amd64.deb\n"))
            var unhashed = packaged
            unhashed.artifact.sha512 = nil
            #expect(throws: ChecksumError.self) {
                try ChecksumWriter.writeRelease([unhashed], identity: identity, algorithm: .sha512, in: dir.url)
            }
        }
    }

    /// `relctl package --json` and `relctl linux-package --json` keep the keys of the types the
    /// artifact replaced (PackagedArtifact, LinuxPackageArtifact, SBOMFile).
    @Test func commandReportsKeepTheirKeys() throws {
        let sbom = Artifact(
            name: "a.cdx.json", kind: .sbom, format: "cdx.json", size: 10, sha256: Self.digest,
            sha512: Self.sha512, path: "/tmp/dist/a.cdx.json")
        var archive = Self.written("a.tar.gz")
        archive.sha512 = nil
        let packaged = PackagedArtifact(artifact: archive, entries: 3, seconds: 0.5, sbom: sbom)
        #expect(
            try JSONOutput.encode(packaged) == """
                {
                  "entries" : 3,
                  "format" : "tar.gz",
                  "name" : "a.tar.gz",
                  "path" : "/tmp/dist/a.tar.gz",
                  "sbom" : {
                    "name" : "a.cdx.json",
                    "path" : "/tmp/dist/a.cdx.json",
                    "sha256" : "\(Self.digest)"
                  },
                  "seconds" : 0.5,
                  "sha256" : "\(Self.digest)",
                  "size" : 4096,
                  "target" : "x86_64-unknown-linux-musl"
                }

                """)
        let deb = Artifact(
            name: "velo_1.0.0_amd64.deb", kind: .deb, target: "x86_64-unknown-linux-gnu", format: "deb", size: 20,
            sha256: Self.digest, sha512: Self.sha512, path: "/tmp/dist/velo_1.0.0_amd64.deb")
        #expect(
            try JSONOutput.compact(deb.fileReport)
                == #"{"format":"deb","name":"velo_1.0.0_amd64.deb","path":"/tmp/dist/velo_1.0.0_amd64.deb","sha256":"\#(Self.digest)","sha512":"\#(Self.sha512)","size":20,"target":"x86_64-unknown-linux-gnu"}"#
        )
    }

    @Test func kindsFollowTheFilesARelease() {
        let names: [String: ArtifactKind] = [
            "velo-v1.0.0-x86_64-unknown-linux-musl.tar.gz": .archive, "velo.zip": .archive,
            "velo-v1.0.0-x86_64-unknown-linux-musl.cdx.json": .sbom, "velo_1.0.0_amd64.deb": .deb,
            "velo-1.0.0-1.x86_64.rpm": .rpm, "velo-installer.sh": .installer, "velo-installer.ps1": .installer,
            "SHA256SUMS": .checksums, "SHA512SUMS": .checksums, "velo.tar.gz.sha256": .checksums,
            "SHA256SUMS.sig": .signature, "SHA256SUMS.minisig": .signature, "velo-v1.0.0.intoto.jsonl": .provenance,
            "manifest.json": .manifest,
        ]
        for (name, kind) in names { #expect(ArtifactKind.of(fileName: name) == kind, "\(name)") }
        #expect(ArtifactKind(rawValue: "deb") == .deb && ArtifactKind.archive.rawValue == "archive")
        #expect(ArtifactProducer.linuxPackage.rawValue == "linux-package")
    }

    /// `checksum` over 100,000 archives holds 100,000 of these (issue 31): the path, SHA-512 and
    /// producer this run alone knows must not make each entry of a scanned folder larger than
    /// the five-fact entry was (96 bytes) by more than one reference.
    @Test func anEntryStaysCompact() {
        #expect(MemoryLayout<Artifact>.stride <= 104)
        let entry = Artifact(name: "a.zip", format: "zip", size: 1, sha256: SHA256Bytes(hex: Self.digest))
        #expect(entry.path == nil && entry.sha512 == nil && entry.sha256 == Self.digest)
    }

    /// A plugin channel reads each archive as the manifest entry plus `path` and, when the
    /// repository is known, `url` (protocol 1, as the ChannelArchive it replaced sent it).
    @Test func aPluginChannelSeesTheArchivesAsBefore() throws {
        let context = Context(workingDirectory: URL(fileURLWithPath: "/tmp"))
        let entry = Self.written().manifestEntry
        var config = RelctlConfig.defaults(root: URL(fileURLWithPath: "/tmp/project"))
        config.project.name = "velo"
        for base in ["https://example.com/releases/download/v1.0.0/", nil] as [String?] {
            let release = ChannelRelease(
                manifest: Self.manifest([entry]), time: 1, dist: URL(fileURLWithPath: "/tmp/dist"), dryRun: false,
                downloadBase: base, config: config, context: context)
            let text = String(decoding: try ChannelRequest(channel: "x", release: release).encoded(), as: UTF8.self)
            let url = base.map { #","url":"\#($0)velo-v1.0.0-x86_64-unknown-linux-musl.tar.gz""# } ?? ""
            #expect(
                text.contains(
                    #"{"format":"tar.gz","name":"velo-v1.0.0-x86_64-unknown-linux-musl.tar.gz","path":"/tmp/dist/velo-v1.0.0-x86_64-unknown-linux-musl.tar.gz","sha256":"\#(Self.digest)","size":4096,"target":"x86_64-unknown-linux-musl"\#(url)}"#
                ), "\(text)")
        }
    }
}
