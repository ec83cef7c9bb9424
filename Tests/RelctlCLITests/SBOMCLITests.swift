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

/// CycloneDX SBOMs written by `relctl package`: schema-valid (cyclonedx-python-lib), listing
/// exactly the archive's files with the hashes the extracted files have, the lockfiles'
/// packages, byte-identical across runs, and listed in SHA256SUMS.
/// Serialized: each test blocks a thread for seconds (key generation, scrypt, servers), and
/// several at once would starve the cooperative pool the async tests of the suite need.
@Suite(.serialized, .timeLimit(.minutes(45)), .removesTemporaries) struct SBOMCLITests {
    static let env = ["SOURCE_DATE_EPOCH": "1700000000"]

    func fixtureWithLockfiles() throws -> PackagingFixture {
        let fixture = try PackagingFixture()
        try fixture.directory.write("Cargo.lock", LockfileFixtures.cargo)
        try fixture.directory.write("package-lock.json", LockfileFixtures.npm)
        try fixture.directory.write("uv.lock", LockfileFixtures.uv)
        try fixture.directory.write("Package.resolved", LockfileFixtures.swiftPM)
        return fixture
    }

    static let validator = """
        import sys
        from cyclonedx.schema import SchemaVersion
        from cyclonedx.validation.json import JsonStrictValidator
        validator = JsonStrictValidator(SchemaVersion.V1_6)
        failed = 0
        for path in sys.argv[1:]:
            with open(path) as handle:
                error = validator.validate_str(handle.read())
            if error is not None:
                print(path, error)
                failed = 1
        sys.exit(failed)
        """

    func sbom(_ fixture: PackagingFixture, _ triple: String) throws -> [String: Any] {
        let url = fixture.dist.appendingPathComponent(fixture.archiveName(triple) + ".cdx.json")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    @Test func everySBOMIsValidAndListsExactlyTheArchivesFilesAndTheLockfilePackages() throws {
        let fixture = try fixtureWithLockfiles()
        let packaged = try relctl(["package", "--tag", "v1.0.0"], in: fixture.url, environment: Self.env)
        #expect(packaged.status == 0, "\(packaged)")
        let sboms = PackagingFixture.triples.map {
            fixture.dist.appendingPathComponent(fixture.archiveName($0) + ".cdx.json").path
        }
        let validation = try run("python3", ["-c", Self.validator] + sboms)
        #expect(validation.status == 0, "\(validation)")
        // The validator does reject an invalid document (so the pass above means something).
        try fixture.directory.write(
            "invalid.cdx.json",
            #"{"bomFormat":"CycloneDX","specVersion":"1.6","version":1,"components":[{"type":"nonsense","name":"x"}]}"#)
        #expect(
            try run("python3", ["-c", Self.validator, fixture.url.appendingPathComponent("invalid.cdx.json").path])
                .status == 1)

        let manifest = try #require(try ReleaseManifest.read(in: fixture.dist))
        for triple in PackagingFixture.triples {
            let document = try sbom(fixture, triple)
            let archive = try #require(manifest.artifacts.first { $0.target == triple })
            let metadata = try #require(document["metadata"] as? [String: Any])
            // The subject is the project's own package (Cargo.toml's crate), as cargo-cyclonedx names it,
            // distributed as this archive; the archive itself is a file component with its hash.
            let subject = try #require(metadata["component"] as? [String: Any])
            #expect(subject["purl"] as? String == "pkg:cargo/velostream@1.0.0", "\(subject)")
            #expect(subject["bom-ref"] as? String == "pkg:cargo/velostream@1.0.0")
            #expect(subject["name"] as? String == "velostream" && subject["version"] as? String == "1.0.0")
            let distribution = try #require((subject["externalReferences"] as? [[String: Any]])?.first)
            #expect(distribution["type"] as? String == "distribution" && distribution["url"] as? String == archive.name)
            #expect((distribution["hashes"] as? [[String: String]])?.first?["content"] == archive.sha256)
            #expect(metadata["timestamp"] as? String == "2023-11-14T22:13:20Z")
            let serial = try #require(document["serialNumber"] as? String)
            #expect(
                serial.wholeMatch(of: /urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/)
                    != nil, "\(serial)")

            // The files relctl lists are the regular files an independent extractor finds, with their SHA-256.
            let components = try #require(document["components"] as? [[String: Any]])
            let archiveComponent = try #require(
                components.first { $0["bom-ref"] as? String == "archive:\(archive.name)" })
            #expect(archiveComponent["name"] as? String == archive.name)
            #expect((archiveComponent["hashes"] as? [[String: String]])?.first?["content"] == archive.sha256)
            var listed: [String: String] = [:]
            for component in components
            where component["type"] as? String == "file" && component["name"] as? String != archive.name {
                listed[component["name"] as? String ?? ""] =
                    (component["hashes"] as? [[String: String]])?.first?["content"]
            }
            let extracted = fixture.url.appendingPathComponent("extracted-\(triple)")
            try FileManager.default.createDirectory(at: extracted, withIntermediateDirectories: true)
            let unpack = try run(
                "bsdtar", ["-xf", fixture.dist.appendingPathComponent(archive.name).path, "-C", extracted.path])
            #expect(unpack.status == 0, "\(unpack)")
            let hashed = try sh(
                "find . -type f | sed 's|^\\./||' | LC_ALL=C sort | while IFS= read -r f; do printf '%s\\t' \"$f\"; sha256sum \"$f\" | cut -d' ' -f1; done",
                in: extracted)
            var expected: [String: String] = [:]
            for line in hashed.stdout.split(separator: "\n") {
                let parts = line.split(separator: "\t")
                expected[String(parts[0])] = String(parts[1])
            }
            #expect(expected.count > 10)
            #expect(listed == expected, "\(triple): SBOM and archive differ")

            // Lockfile packages: every third-party one, none of the project's own.
            let libraries = components.filter { $0["type"] as? String == "library" }
            #expect(libraries.compactMap { $0["purl"] as? String } == LockfileFixtures.purls)
            let types = try #require(libraries.first { $0["purl"] as? String == "pkg:npm/%40types/node@20.11.5" })
            #expect(
                (types["hashes"] as? [[String: String]]) == [
                    ["alg": "SHA-512", "content": LockfileFixtures.typesNodeSHA512]
                ])
            let cargo = try #require(libraries.first { ($0["purl"] as? String)?.hasPrefix("pkg:cargo/") == true })
            #expect(
                (cargo["hashes"] as? [[String: String]])?.first?["content"]
                    == "49f1f14873335454500d59611f1cf4a4b0f786f9ac11f4312a78e4cf2566695b")
            let pypi = try #require(libraries.first { ($0["purl"] as? String)?.hasPrefix("pkg:pypi/") == true })
            #expect((pypi["externalReferences"] as? [Any])?.count == 2)
            let dependencies = try #require(document["dependencies"] as? [[String: Any]])
            #expect(dependencies.first?["ref"] as? String == "pkg:cargo/velostream@1.0.0")
            #expect((dependencies.first?["dependsOn"] as? [String]) == LockfileFixtures.purls)
        }

        // Listed in SHA256SUMS (and so signed with it); sha256sum -c agrees.
        let summed = try relctl(["checksum"], in: fixture.url, environment: Self.env)
        #expect(summed.status == 0, "\(summed)")
        let sums = try fixture.directory.read("dist/SHA256SUMS")
        for triple in PackagingFixture.triples {
            #expect(sums.contains("  \(fixture.archiveName(triple)).cdx.json\n"), "\(sums)")
        }
        #expect(try run("sha256sum", ["-c", "SHA256SUMS"], in: fixture.dist).status == 0)
        // manifest.json still lists the archives only.
        #expect(try ReleaseManifest.read(in: fixture.dist)?.artifacts.count == 4)
        #expect(try relctl(["verify"], in: fixture.url).status == 0)
        // A changed SBOM is caught like a changed archive.
        try flipOneByte(
            fixture.dist.appendingPathComponent(fixture.archiveName(PackagingFixture.linuxGNU) + ".cdx.json"))
        let changed = try relctl(["verify"], in: fixture.url)
        #expect(changed.status == 1 && changed.stderr.contains(".cdx.json: checksum mismatch"), "\(changed)")
    }

    @Test func sbomsAreByteIdenticalAcrossRunsAndMachines() throws {
        let first = try fixtureWithLockfiles()
        let second = try fixtureWithLockfiles()
        #expect(try relctl(["package", "--tag", "v1.0.0"], in: first.url, environment: Self.env).status == 0)
        let name = first.archiveName(PackagingFixture.linuxMusl) + ".cdx.json"
        let original = try Data(contentsOf: first.dist.appendingPathComponent(name))
        #expect(
            try relctl(["package", "--tag", "v1.0.0", "--clean"], in: first.url, environment: Self.env).status == 0)
        #expect(try Data(contentsOf: first.dist.appendingPathComponent(name)) == original)
        #expect(
            try relctl(["package", "--tag", "v1.0.0", "--jobs", "1"], in: second.url, environment: Self.env).status == 0
        )
        for triple in PackagingFixture.triples {
            let file = first.archiveName(triple) + ".cdx.json"
            #expect(
                try Data(contentsOf: first.dist.appendingPathComponent(file))
                    == Data(contentsOf: second.dist.appendingPathComponent(file)), "\(file)")
        }
        // A different archive time is a different SBOM timestamp, not a wall-clock one.
        #expect(
            try relctl(
                ["package", "--tag", "v1.0.0", "--clean"], in: second.url,
                environment: ["SOURCE_DATE_EPOCH": "1700000060"]
            ).status == 0)
        let later = try String(contentsOf: second.dist.appendingPathComponent(name), encoding: .utf8)
        #expect(later.contains("\"timestamp\" : \"2023-11-14T22:14:20Z\""), "\(later.prefix(600))")
    }

    @Test func disabledOrBrokenLockfiles() throws {
        let fixture = try PackagingFixture(extraConfig: "\n[sbom]\nenabled = false\n")
        #expect(
            try relctl(["package", "--tag", "v1.0.0", "--target", "*gnu"], in: fixture.url, environment: Self.env)
                .status == 0)
        #expect(try !fixture.distContents().contains { $0.hasSuffix(".cdx.json") }, "\((try? fixture.distContents()) ?? [])")

        let broken = try PackagingFixture()
        try broken.directory.write("package-lock.json", "{ not json")
        let result = try relctl(["package", "--tag", "v1.0.0"], in: broken.url, environment: Self.env)
        #expect(result.status == 2 && result.stderr.contains("package-lock.json: is not a JSON object"), "\(result)")
        #expect(try broken.distContents().filter { $0 != "manifest.json" }.isEmpty, "\((try? broken.distContents()) ?? [])")
    }
}
