import Foundation
import RelctlTestSupport
import Testing

/// tar.gz compressed in parallel chunks with libdeflate, and tar.zst with zstd's threads: the same
/// bytes for any --jobs, and every common reader takes them.
@Suite struct CompressionCLITests {
    static let env = ["SOURCE_DATE_EPOCH": "1700000000"]

    /// Writes `megabytes` MiB of binary-like bytes (a vocabulary of random byte strings, as machine
    /// code repeats its idioms) to `path`, deterministic for a given seed.
    static func writeBinary(_ path: URL, megabytes: Int, seed: Int) throws {
        let script = """
            import random, sys
            r = random.Random(int(sys.argv[2]))
            vocab = [bytes(r.randrange(256) for _ in range(r.randrange(2, 48))) for _ in range(4000)]
            need = int(sys.argv[3]) * 1048576
            out = bytearray()
            while len(out) < need:
                out += b"".join(r.choices(vocab, k=4096))
            open(sys.argv[1], "wb").write(out[:need])
            """
        let result = try run("python3", ["-c", script, path.path, String(seed), String(megabytes)])
        #expect(result.status == 0, "\(result)")
    }

    /// The velostream fixture with a 9 MiB velo-sql and a 3 MiB velo-cli for `triple`: a tar stream
    /// of 12 MiB, so a dozen chunks.
    static func bigFixture(triple: String) throws -> PackagingFixture {
        let fixture = try PackagingFixture()
        let release = fixture.url.appendingPathComponent("target/\(triple)/release")
        try writeBinary(release.appendingPathComponent("velo-sql"), megabytes: 9, seed: 1)
        try writeBinary(release.appendingPathComponent("velo-cli"), megabytes: 3, seed: 2)
        return fixture
    }

    @Test func tarGzIsTheSameForAnyJobsAndEveryReaderReadsIt() throws {
        let triple = PackagingFixture.linuxGNU
        let fixture = try Self.bigFixture(triple: triple)
        defer { fixture.directory.remove() }
        var digests: [String] = []
        for jobs in [1, 4, 2] {
            let result = try relctl(
                ["package", "--tag", "v1.0.0", "--target", triple, "--jobs", String(jobs), "--out", "dist-\(jobs)"],
                in: fixture.url, environment: Self.env)
            #expect(result.status == 0, "\(result)")
            let name = fixture.archiveName(triple) + ".tar.gz"
            digests.append(
                try String(
                    contentsOf: fixture.url.appendingPathComponent("dist-\(jobs)/\(name).sha256"), encoding: .utf8))
            #expect(
                try sh("cmp dist-1/\(name) dist-\(jobs)/\(name)", in: fixture.url).status == 0,
                "--jobs \(jobs) wrote other bytes")
        }
        #expect(Set(digests).count == 1)

        let name = fixture.archiveName(triple)
        let archive = "dist-1/\(name).tar.gz"
        let source = "target/\(triple)/release/velo-sql"
        // Several gzip members (one per MiB of tar), each a complete, checked gzip stream.
        let members = try run(
            "python3",
            [
                "-c",
                """
                import sys, zlib
                data = open(sys.argv[1], 'rb').read()
                count, total = 0, 0
                while data:
                    d = zlib.decompressobj(31)
                    total += len(d.decompress(data))
                    assert d.eof, 'truncated member'
                    data = d.unused_data
                    count += 1
                print(count, total)
                """, archive,
            ], in: fixture.url)
        #expect(members.status == 0, "\(members)")
        let parts = members.stdout.split(separator: " ").compactMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(
            parts.count == 2 && parts[0] == (parts[1] + (1 << 20) - 1) / (1 << 20) && parts[0] >= 12,
            "members, bytes: \(members.stdout)")

        #expect(try run("gzip", ["-t", archive], in: fixture.url).status == 0)
        // zcat reads all members as one stream: the tar it gives lists every entry.
        let listing = try sh("zcat \(archive) | tar -tf -", in: fixture.url)
        #expect(listing.status == 0 && listing.stdout.contains("\(name)/bin/velo-sql\n"), "\(listing)")
        // GNU tar (through gzip), bsdtar (libarchive's own gzip reader) and Python's tarfile extract
        // the binaries byte for byte.
        for (tool, command) in [
            ("gnu", "tar -xzf ../\(archive)"), ("bsd", "bsdtar -xf ../\(archive)"),
            ("python", "python3 -c \"import tarfile; tarfile.open('../\(archive)').extractall('.')\""),
        ] {
            let out = "x-\(tool)"
            let extract = try sh(
                "mkdir \(out) && cd \(out) && \(command) && cmp \(name)/bin/velo-sql ../\(source) && cmp \(name)/bin/velo-cli ../target/\(triple)/release/velo-cli",
                in: fixture.url)
            #expect(extract.status == 0, "\(tool): \(extract)")
        }
        // Go's compress/gzip reads multi-member files too (its Reader.Multistream defaults to true);
        // run when a Go toolchain is installed.
        if try sh("command -v go", in: fixture.url).status == 0 {
            try """
            package main

            import ("archive/tar"; "compress/gzip"; "fmt"; "io"; "os")

            func main() {
                f, err := os.Open(os.Args[1]); if err != nil { panic(err) }
                z, err := gzip.NewReader(f); if err != nil { panic(err) }
                t := tar.NewReader(z)
                n := 0
                var size int64
                for { h, err := t.Next(); if err == io.EOF { break }; if err != nil { panic(err) }; w, err := io.Copy(io.Discard, t); if err != nil { panic(err) }; size += w; n++; _ = h }
                fmt.Println(n, size)
            }
            """.write(to: fixture.url.appendingPathComponent("read.go"), atomically: true, encoding: .utf8)
            let go = try run(
                "go", ["run", "read.go", archive], in: fixture.url,
                environment: ["GOCACHE": fixture.url.appendingPathComponent(".gocache").path])
            #expect(
                go.status == 0 && go.stdout.hasPrefix(String(listing.stdout.split(separator: "\n").count) + " "),
                "\(go)")
        }
        // At most 1% over the same tar stream through gzip -6. On real ELF bytes relctl is ~1% smaller
        // (BENCHMARKS.md); on this synthetic vocabulary it is 0.1% larger (each chunk restarts
        // without the previous 32 KiB).
        let sizes = try sh("stat -c %s \(archive); zcat \(archive) | gzip -6 -n | wc -c", in: fixture.url)
        let values = sizes.stdout.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        #expect(values.count == 2 && values[0] * 100 <= values[1] * 101, "relctl vs gzip -6: \(sizes.stdout)")
    }

    @Test func tarZstIsTheSameForAnyJobs() throws {
        let triple = PackagingFixture.linuxMusl
        let fixture = try Self.bigFixture(triple: triple)
        defer { fixture.directory.remove() }
        let name = fixture.archiveName(triple) + ".tar.zst"
        for jobs in [1, 4] {
            let result = try relctl(
                ["package", "--tag", "v1.0.0", "--target", triple, "--jobs", String(jobs), "--out", "dist-\(jobs)"],
                in: fixture.url, environment: Self.env)
            #expect(result.status == 0, "\(result)")
        }
        #expect(
            try sh("cmp dist-1/\(name) dist-4/\(name)", in: fixture.url).status == 0, "zstd threads changed the archive"
        )
        #expect(try run("zstd", ["-t", "-q", "dist-4/\(name)"], in: fixture.url).status == 0)
        let extract = try sh(
            "mkdir x && cd x && tar --zstd -xf ../dist-4/\(name) && cmp */bin/velo-sql ../target/\(triple)/release/velo-sql",
            in: fixture.url)
        #expect(extract.status == 0, "\(extract)")
    }
}
