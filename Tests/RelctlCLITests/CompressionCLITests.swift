import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// tar.gz and zip compressed in parallel chunks with libdeflate, and tar.zst with zstd's threads:
/// the same bytes for any --jobs, and every common reader takes them.
@Suite(.timeLimit(.minutes(60)), .removesTemporaries) struct CompressionCLITests {
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
        let suffix = triple.contains("windows") ? ".exe" : ""
        try writeBinary(release.appendingPathComponent("velo-sql" + suffix), megabytes: 9, seed: 1)
        try writeBinary(release.appendingPathComponent("velo-cli" + suffix), megabytes: 3, seed: 2)
        return fixture
    }

    @Test func tarGzIsTheSameForAnyJobsAndEveryReaderReadsIt() throws {
        let triple = PackagingFixture.linuxGNU
        let fixture = try Self.bigFixture(triple: triple)
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
        // Go's compress/gzip reads multi-member files too (its Reader.Multistream defaults to true).
        // Always run: Go is a test tool (`scripts/install-deps --test` installs golang-go), and a
        // missing `go` fails here (`run` throws) rather than skipping.
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

    /// The zip relctl writes itself: 9 MiB and 3 MiB binaries deflated in 1 MiB chunks joined into
    /// one stream per entry, the same bytes for any --jobs, read by unzip, bsdtar and Python with
    /// libarchive's entry metadata.
    @Test func zipIsTheSameForAnyJobsAndEveryReaderReadsIt() throws {
        let triple = PackagingFixture.windows
        let fixture = try Self.bigFixture(triple: triple)
        let name = fixture.archiveName(triple)
        for jobs in [1, 4, 2] {
            let result = try relctl(
                ["package", "--tag", "v1.0.0", "--target", triple, "--jobs", String(jobs), "--out", "dist-\(jobs)"],
                in: fixture.url, environment: Self.env)
            #expect(result.status == 0, "\(result)")
            #expect(
                try sh("cmp dist-1/\(name).zip dist-\(jobs)/\(name).zip", in: fixture.url).status == 0,
                "--jobs \(jobs) wrote other bytes")
        }
        let archive = "dist-4/\(name).zip"
        let test = try run("unzip", ["-t", archive], in: fixture.url)
        #expect(test.status == 0 && test.stdout.contains("No errors detected"), "\(test)")
        for (tool, command) in [("unzip", "unzip -q ../\(archive)"), ("bsd", "bsdtar -xf ../\(archive)")] {
            let extract = try sh(
                "mkdir x-\(tool) && cd x-\(tool) && \(command) && cmp \(name)/bin/velo-sql.exe ../target/\(triple)/release/velo-sql.exe && cmp \(name)/bin/velo-cli.exe ../target/\(triple)/release/velo-cli.exe && cmp \(name)/README.md ../README.md",
                in: fixture.url)
            #expect(extract.status == 0, "\(tool): \(extract)")
        }
        // Python's zipfile: every CRC checks, and each entry has the metadata libarchive's writer gave it.
        let python = try run(
            "python3",
            [
                "-c",
                """
                import sys, zipfile
                z = zipfile.ZipFile(sys.argv[1])
                assert z.testzip() is None
                for i in z.infolist():
                    mode = i.external_attr >> 16
                    assert i.create_system == 3 and i.create_version == 20 and i.extract_version == 20, i
                    assert i.date_time == (2023, 11, 14, 22, 13, 20), i.date_time
                    assert i.extra.hex() == '555405000100f1536575780b000104000000000400000000', i.extra.hex()
                    utf8 = 0 if i.filename.isascii() else 0x800
                    if i.is_dir():
                        assert (i.compress_type, i.flag_bits, i.file_size, mode) == (0, utf8, 0, 0o40755), i
                    else:
                        assert i.compress_type == 8 and i.flag_bits == 8 | utf8 and mode >> 12 == 0o10, i
                big = z.getinfo(sys.argv[2] + '/bin/velo-sql.exe')
                assert big.external_attr >> 16 == 0o100755 and big.file_size == 9 << 20
                print(len(z.infolist()))
                """, archive, name,
            ], in: fixture.url)
        #expect(
            python.status == 0 && Int(python.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 > 20,
            "\(python)")
        // Within 1% of Info-ZIP's `zip -6` over the same files (chunks restart without the previous 32 KiB).
        let sizes = try sh(
            "cd x-unzip && zip -X -r -q -6 ../info.zip \(name) && cd .. && stat -c %s \(archive) info.zip",
            in: fixture.url)
        let values = sizes.stdout.split(separator: "\n").compactMap { Int($0) }
        #expect(values.count == 2 && values[0] * 100 <= values[1] * 101, "relctl vs zip -6: \(sizes)")
    }

    /// A zip with links `copy` (the Windows default) holds each binary three times: `bin/`,
    /// `target/release/` and the root. relctl reads and compresses each binary once and writes its
    /// compressed data again for the copies (issue 45): every copy extracts to the binary's bytes,
    /// every CRC checks, the SBOM gives every copy the binary's SHA-256, and the binaries are read
    /// once, not three times.
    @Test func zipReadsAFileItHoldsSeveralTimesOnlyOnce() throws {
        let triple = PackagingFixture.windows
        let fixture = try PackagingFixture()
        let release = "target/\(triple)/release"
        // 8 MiB: 1 MiB of random bytes (about 1 MiB compressed, read back in several pieces), then
        // zeros; and an empty binary, whose data is the empty deflate stream.
        let made = try sh(
            "head -c 1048576 /dev/urandom > \(release)/velo-sql.exe && head -c 7340032 /dev/zero >> \(release)/velo-sql.exe && : > \(release)/velo-cli.exe",
            in: fixture.url)
        #expect(made.status == 0, "\(made)")
        let (result, bytesRead) = try runCountingReads(
            relctlBinary.path, ["package", "--tag", "v1.0.0", "--target", triple], in: fixture.url,
            environment: Self.env.merging(["NO_COLOR": "1"]) { $1 })
        #expect(result.status == 0, "\(result)")
        // Three reads of the 8 MiB binary would be 24 MiB; one read plus the compressed copies read
        // back is about 10 MiB.
        #expect(bytesRead < 16 << 20, "relctl read \(bytesRead) bytes: the copies were read again")

        let name = fixture.archiveName(triple)
        let archive = "dist/\(name).zip"
        let test = try run("unzip", ["-t", archive], in: fixture.url)
        #expect(test.status == 0 && test.stdout.contains("No errors detected"), "\(test)")
        let copies = ["bin", "target/release", "."].flatMap { folder in
            ["velo-sql.exe", "velo-cli.exe"].map { "\(name)/\(folder)/\($0)" }
        }
        for (tool, command) in [("unzip", "unzip -q ../\(archive)"), ("bsd", "bsdtar -xf ../\(archive)")] {
            let compare = copies.map { copy in
                "cmp \(copy) ../\(release)/\(copy.hasSuffix("velo-sql.exe") ? "velo-sql.exe" : "velo-cli.exe")"
            }
            let extract = try sh(
                "mkdir x-\(tool) && cd x-\(tool) && \(command) && " + compare.joined(separator: " && "), in: fixture.url
            )
            #expect(extract.status == 0, "\(tool): \(extract)")
        }
        // Python's zipfile: the copies' central directory records carry the binary's CRC and sizes.
        let python = try run(
            "python3",
            [
                "-c",
                """
                import sys, zipfile
                z = zipfile.ZipFile(sys.argv[1])
                assert z.testzip() is None
                for binary in ('velo-sql.exe', 'velo-cli.exe'):
                    infos = [z.getinfo(sys.argv[2] + '/' + f + binary) for f in ('bin/', 'target/release/', '')]
                    assert len({(i.CRC, i.compress_size, i.file_size) for i in infos}) == 1, infos
                print(z.getinfo(sys.argv[2] + '/velo-sql.exe').compress_size)
                """, archive, name,
            ], in: fixture.url)
        let compressed = Int(python.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(python.status == 0 && compressed > 1 << 20, "\(python)")
        // The SBOM's digests, against sha256sum's.
        let digest = try sh("sha256sum \(release)/velo-sql.exe | cut -d' ' -f1", in: fixture.url).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let sbom = try String(contentsOf: fixture.dist.appendingPathComponent(name + ".cdx.json"), encoding: .utf8)
        for copy in ["bin/velo-sql.exe", "target/release/velo-sql.exe", "velo-sql.exe"] {
            let listed = try run(
                "python3",
                [
                    "-c",
                    """
                    import json, sys
                    doc = json.load(open(sys.argv[1]))
                    hits = [c for c in doc['components'] if c.get('name') == sys.argv[2]]
                    print(' '.join(h['content'] for c in hits for h in c.get('hashes', []) if h['alg'] == 'SHA-256'))
                    """, fixture.dist.appendingPathComponent(name + ".cdx.json").path, "\(name)/\(copy)",
                ])
            #expect(
                listed.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == digest,
                "\(copy): \(listed) in \(sbom.prefix(2000))")
        }
    }

    /// A zip with links `keep` stores each link as libarchive did: a stored entry whose data is the
    /// target, mode 0120777; unzip recreates the links.
    @Test func zipKeepsLinksWhenAsked() throws {
        let fixture = try PackagingFixture()
        let config = fixture.url.appendingPathComponent("relctl.toml")
        let text = try String(contentsOf: config, encoding: .utf8)
        try text.replacingOccurrences(
            of: "triple = \"x86_64-pc-windows-msvc\"\n", with: "triple = \"x86_64-pc-windows-msvc\"\nlinks = \"keep\"\n"
        ).write(to: config, atomically: true, encoding: .utf8)
        let triple = PackagingFixture.windows
        let result = try relctl(
            ["package", "--tag", "v1.0.0", "--target", triple], in: fixture.url, environment: Self.env)
        #expect(result.status == 0, "\(result)")
        let name = fixture.archiveName(triple)
        let archive = "dist/\(name).zip"
        #expect(try run("unzip", ["-t", archive], in: fixture.url).status == 0)
        let python = try run(
            "python3",
            [
                "-c",
                """
                import sys, zipfile
                z = zipfile.ZipFile(sys.argv[1])
                i = z.getinfo(sys.argv[2] + '/target/release/velo-sql.exe')
                assert i.external_attr >> 16 == 0o120777 and i.compress_type == 0 and i.flag_bits == 0, i
                assert z.read(i) == b'../../bin/velo-sql.exe'
                print('ok')
                """, archive, name,
            ], in: fixture.url)
        #expect(python.stdout == "ok\n", "\(python)")
        let extract = try sh(
            "mkdir x && cd x && unzip -q ../\(archive) && readlink \(name)/velo-sql.exe", in: fixture.url)
        #expect(extract.stdout == "bin/velo-sql.exe\n", "\(extract)")
    }

    /// zip64 where libarchive used it: a file over 3.75 GiB (here 4 GiB + 1 MiB of a sparse file,
    /// no disk used) gets a zip64 local header, a 24-byte data descriptor and the 64-bit size in the
    /// central directory; zipinfo, unzip and Python read them.
    @Test func zipOfAFileOverFourGiBUsesZip64() throws {
        let triple = PackagingFixture.windows
        let fixture = try PackagingFixture()
        let binary = "target/\(triple)/release/velo-sql.exe"
        #expect(try sh("truncate -s \((4 << 30) + (1 << 20)) \(binary)", in: fixture.url).status == 0)
        let config = fixture.url.appendingPathComponent("relctl.toml")
        try String(contentsOf: config, encoding: .utf8).replacingOccurrences(
            of: "exclude = [\"*.tmp\"]\n", with: "exclude = [\"*.tmp\"]\ncompression-level = 1\n"
        ).appending("\n[sbom]\nenabled = false\n").write(to: config, atomically: true, encoding: .utf8)
        let result = try relctl(
            ["package", "--tag", "v1.0.0", "--target", triple], in: fixture.url, environment: Self.env)
        #expect(result.status == 0, "\(result)")
        let name = fixture.archiveName(triple)
        let archive = "dist/\(name).zip"
        let python = try run(
            "python3",
            [
                "-c",
                """
                import struct, sys, zipfile
                z = zipfile.ZipFile(sys.argv[1])
                i = z.getinfo(sys.argv[2] + '/bin/velo-sql.exe')
                assert i.file_size == (4 << 30) + (1 << 20) and i.extract_version == 45, (i.file_size, i.extract_version)
                raw = open(sys.argv[1], 'rb')
                raw.seek(i.header_offset)
                local = raw.read(30)
                assert struct.unpack('<4sHHH', local[:10]) == (b'PK\\3\\4', 45, 8, 8), local
                assert struct.unpack('<II', local[18:26]) == (0xFFFFFFFF, 0xFFFFFFFF), local
                raw.seek(i.header_offset + 30 + struct.unpack('<H', local[26:28])[0] + 24)
                assert struct.unpack('<HHQQ', raw.read(20)) == (1, 16, i.file_size, 0)
                raw.seek(i.header_offset + 30 + len(i.filename) + 44 + i.compress_size)
                assert struct.unpack('<4sIQQ', raw.read(24)) == (b'PK\\7\\10', i.CRC, i.compress_size, i.file_size)
                print('ok')
                """, archive, name,
            ], in: fixture.url)
        #expect(python.stdout == "ok\n", "\(python)")
        let zipinfo = try run("zipinfo", ["-v", archive, "\(name)/bin/velo-sql.exe"], in: fixture.url)
        #expect(
            zipinfo.stdout.contains("uncompressed size:                              4296015872 bytes")
                && zipinfo.stdout.contains("ID 0x0001 (PKWARE 64-bit sizes) and 8 data bytes"),
            "\(zipinfo.stdout.prefix(3000))")
        // The data itself: unzip -t would inflate 4 GiB (minutes on a loaded runner); chunks joined
        // into one stream are checked byte for byte on 12 MiB above. unzip lists the zip64 sizes.
        let listing = try run("unzip", ["-l", archive], in: fixture.url)
        #expect(listing.status == 0 && listing.stdout.contains("4296015872"), "\(listing)")
    }
}
