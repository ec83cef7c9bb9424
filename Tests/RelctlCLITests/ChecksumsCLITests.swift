import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@Suite(.timeLimit(.minutes(45)), .removesTemporaries) struct ChecksumsCLITests {
    typealias F = ChecksumFixtures

    @Test func checksumWritesFilesSha256sumAccepts() throws {
        try withTemporaryDirectory { dir in
            let dist = try F.makeDist(in: dir)
            let result = try relctl(["checksum"], in: dir.url)
            #expect(result.status == 0, "\(result)")

            let sums = try dir.read("dist/SHA256SUMS")
            let lines = sums.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(
                lines.count == 3 && lines.last == "", "one line per archive, newline-terminated, no blank line: \(sums)"
            )
            // Bytewise: "x86_64-pc-…" sorts before "x86_64-unknown-…".
            #expect(lines[0].hasSuffix("  \(F.windows)"))
            #expect(lines[1].hasSuffix("  \(F.linux)"))
            #expect(try dir.read("dist/\(F.linux).sha256") == String(lines[1]) + "\n")

            let check = try sh(
                "sha256sum -c SHA256SUMS && sha256sum -c \(F.linux).sha256 && sha256sum -c \(F.windows).sha256",
                in: dist)
            #expect(check.status == 0, "\(check)")
            #expect(check.stdout.components(separatedBy: ": OK").count == 5)

            // Same inputs, byte-identical outputs.
            let manifest = try dir.read("dist/manifest.json")
            #expect(try relctl(["checksum", "dist"], in: dir.url).status == 0)
            #expect(try dir.read("dist/SHA256SUMS") == sums)
            #expect(try dir.read("dist/manifest.json") == manifest)
        }
    }

    @Test func manifestRecoversProjectTagTargetsWithoutConfig() throws {
        try withTemporaryDirectory { dir in
            try F.makeDist(in: dir, size: 4321)
            #expect(try relctl(["checksum", "dist/"], in: dir.url).status == 0)
            let script = """
                import json, sys
                m = json.load(open('dist/manifest.json'))
                print(m['schema'], m['project'], m['tag'], m['version'], repr(m['commit']))
                for a in m['artifacts']: print(a['name'], a['target'], a['format'], a['size'], a['sha256'])
                """
            let out = try run("python3", ["-c", script], in: dir.url)
            let lines = out.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first == "1 velostream v1.0.0 1.0.0 ''", "\(out)")
            let linuxHash = try run("sha256sum", ["dist/\(F.linux)"], in: dir.url).stdout.prefix(64)
            #expect(lines.dropFirst(2).first == "\(F.linux) x86_64-unknown-linux-musl tar.gz 4321 \(linuxHash)")
            #expect(lines.dropFirst().first?.hasPrefix("\(F.windows) x86_64-pc-windows-msvc zip 4321 ") == true)
        }
    }

    @Test func manifestTakesCommitFromTheTagAndHonoursTheNameTemplate() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "relctl.toml",
            """
            [project]
            name = "demo"
            [archive]
            name = "{project}_{version}_{target}"
            """)
        let commit = try repo.commit("feat: first", files: ["a.txt": "a"])
        _ = try repo.git("tag", "v0.3.0")
        try F.makeDist(in: repo.directory, names: ["demo_0.3.0_aarch64-unknown-linux-gnu.tar.xz"])
        let result = try relctl(["checksum", "--json"], in: repo.url)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("\"commit\" : \"\(commit)\""), "\(result.stdout)")
        #expect(result.stdout.contains("\"target\" : \"aarch64-unknown-linux-gnu\""))
        #expect(result.stdout.contains("\"tag\" : \"v0.3.0\""))
    }

    @Test func oddNamesAreListedWithAWarningAndStaleSidecarsNamed() throws {
        try withTemporaryDirectory { dir in
            try F.makeDist(in: dir, names: [F.linux, "odd.zip"])
            _ = try dir.write("dist/gone.tar.gz.sha256", "x\n")
            let result = try relctl(["checksum"], in: dir.url)
            #expect(result.status == 0, "\(result)")
            #expect(
                result.stderr.contains(
                    "warning: dist/odd.zip: does not fit the archive name template `{project}-{tag}-{target}`"))
            #expect(result.stderr.contains("warning: dist/gone.tar.gz.sha256: its archive is gone"))
            let manifest = try dir.read("dist/manifest.json")
            #expect(manifest.contains("\"tag\" : \"v1.0.0\""))
            #expect(manifest.contains("\"target\" : \"\""), "odd.zip has no target: \(manifest)")
            // The extension still tells the format.
            #expect(!manifest.contains("\"format\" : \"\""), "odd.zip is a zip: \(manifest)")
            #expect(
                try sh("sha256sum -c SHA256SUMS odd.zip.sha256", in: dir.url.appendingPathComponent("dist")).status == 0
            )
        }
    }

    /// Thousands of names that fit no target are one mistake: the first few are named, the rest
    /// counted in one warning (and listed with -v), and every one is still listed.
    @Test func manyUnfitNamesAreOneCountedWarning() throws {
        try withTemporaryDirectory { dir in
            let odd = (0..<15).map { "odd\($0).zip" }
            try F.makeDist(in: dir, names: [F.linux] + odd)
            let result = try relctl(["checksum"], in: dir.url)
            #expect(result.status == 0, "\(result)")
            let named = result.stderr.split(separator: "\n").filter { $0.contains(": does not fit the archive name template") }
            #expect(named.count == 10, "\(result.stderr)")
            #expect(result.stderr.contains("warning: dist: 5 more archives like these (15 in all; `-v` lists them) do not fit the template either"), "\(result.stderr)")
            let verbose = try relctl(["checksum", "-v"], in: dir.url)
            #expect(verbose.stderr.contains("  dist/odd9.zip"), "\(verbose.stderr)")
            let sums = try dir.read("dist/SHA256SUMS")
            #expect(odd.allSatisfy { sums.contains("  \($0)\n") })
        }
    }

    @Test func sha512WritesSha512sumsThatCoreutilsAccepts() throws {
        try withTemporaryDirectory { dir in
            let dist = try F.makeDist(in: dir)
            #expect(try relctl(["checksum", "--algorithm", "sha512"], in: dir.url).status == 0)
            #expect(
                dir.exists("dist/SHA512SUMS") && dir.exists("dist/\(F.linux).sha512") && !dir.exists("dist/SHA256SUMS"))
            let check = try sh("sha512sum -c SHA512SUMS && sha512sum -c \(F.windows).sha512", in: dist)
            #expect(check.status == 0, "\(check)")
            // manifest.json still carries SHA-256, as its schema says.
            let sha256 = try run("sha256sum", [F.linux], in: dist).stdout.prefix(64)
            #expect(try dir.read("dist/manifest.json").contains(String(sha256)))
            let verify = try relctl(["verify"], in: dir.url)
            #expect(verify.status == 0, "\(verify)")
            #expect(verify.stderr.contains("SHA512SUMS: 2 files ok"))
        }
    }

    @Test func configChoosesTheAlgorithmAndTheFlagOverridesIt() throws {
        try withTemporaryDirectory { dir in
            try F.makeDist(in: dir)
            _ = try dir.write("relctl.toml", "[project]\nname = \"velostream\"\n[checksum]\nalgorithm = \"sha512\"\n")
            #expect(try relctl(["checksum", "--jobs", "1"], in: dir.url).status == 0)
            #expect(dir.exists("dist/SHA512SUMS") && !dir.exists("dist/SHA256SUMS"))
            #expect(try relctl(["checksum", "--algorithm", "sha256"], in: dir.url).status == 0)
            #expect(dir.exists("dist/SHA256SUMS"))
            #expect(try relctl(["verify"], in: dir.url).status == 0)
            #expect(try relctl(["verify", "dist/SHA512SUMS"], in: dir.url).status == 0)
        }
    }

    @Test func checksumRejectsMissingEmptyAndMixedInputs() throws {
        try withTemporaryDirectory { dir in
            let missing = try relctl(["checksum"], in: dir.url)
            #expect(missing.status == 2)
            #expect(missing.stderr.contains("relctl: error: dist: not found"))

            try FileManager.default.createDirectory(
                at: dir.url.appendingPathComponent("empty"), withIntermediateDirectories: true)
            let empty = try relctl(["checksum", "empty"], in: dir.url)
            #expect(empty.status == 2 && empty.stderr.contains("empty: no archives here"), "\(empty)")

            try F.makeDist(in: dir, names: [F.linux, "velostream-v0.9.0-x86_64-pc-windows-msvc.zip"])
            let mixed = try relctl(["checksum"], in: dir.url)
            #expect(mixed.status == 2 && mixed.stderr.contains("more than one release: v0.9.0"), "\(mixed)")
            #expect(!dir.exists("dist/SHA256SUMS"), "nothing written on bad input")

            let bad = try relctl(["checksum", "--algorithm", "md5"], in: dir.url)
            // A value outside --algorithm's list is a usage error (issue 46), listing the valid ones.
            #expect(bad.status == 64 && bad.stderr.contains("Please provide one of 'sha256' and 'sha512'."), "\(bad)")
        }
    }

    @Test func givenFilesMergeIntoTheExistingLists() throws {
        try withTemporaryDirectory { dir in
            let dist = try F.makeDist(in: dir)
            #expect(try relctl(["checksum"], in: dir.url).status == 0)
            // A re-packaged Windows archive, checksummed on its own.
            try F.bytes(999, seed: 42).write(to: dist.appendingPathComponent(F.windows))
            #expect(try relctl(["checksum", "dist/\(F.windows)"], in: dir.url).status == 0)
            let check = try sh("sha256sum -c SHA256SUMS", in: dist)
            #expect(check.status == 0 && check.stdout.contains(F.linux), "\(check)")
            #expect(try dir.read("dist/manifest.json").contains("\"size\" : 999"))
        }
    }

    @Test func verifyPassesThenCatchesFlippedByteDeletionAndStray() throws {
        try withTemporaryDirectory { dir in
            let dist = try F.makeDist(in: dir)
            #expect(try relctl(["checksum"], in: dir.url).status == 0)
            let ok = try relctl(["verify"], in: dir.url)
            #expect(ok.status == 0 && ok.stderr.contains("dist/SHA256SUMS: 2 files ok"), "\(ok)")

            // Flip one byte in the middle of the Linux archive.
            let linux = dist.appendingPathComponent(F.linux)
            var data = try Data(contentsOf: linux)
            data[data.count / 2] ^= 0x01
            try data.write(to: linux)
            let changed = try relctl(["verify"], in: dir.url)
            #expect(changed.status == 1)
            #expect(changed.stderr.contains("relctl: error: \(F.linux): checksum mismatch"), "\(changed)")
            #expect(changed.stderr.contains("dist/SHA256SUMS:2 lists"))

            try FileManager.default.removeItem(at: dist.appendingPathComponent(F.windows))
            let stray = "velostream-v1.0.0-aarch64-apple-darwin.tar.gz"
            try F.bytes(10, seed: 9).write(to: dist.appendingPathComponent(stray))
            let json = try relctl(["verify", "dist/SHA256SUMS", "--json"], in: dir.url)
            #expect(json.status == 1)
            #expect(json.stderr.contains("\(F.windows): missing: listed in dist/SHA256SUMS:1"), "\(json)")
            #expect(json.stderr.contains("\(stray): unlisted"))
            _ = try dir.write("verify.json", json.stdout)
            let statuses = try run(
                "python3",
                [
                    "-c",
                    "import json; print(' '.join(f['name'] + '=' + f['status'] for f in json.load(open('verify.json'))['files']))",
                ], in: dir.url)
            #expect(statuses.stdout == "\(F.windows)=missing \(F.linux)=changed \(stray)=unlisted\n", "\(statuses)")
        }
    }

    @Test func aFolderInPlaceOfAListedFileIsReportedNotFatal() throws {
        try withTemporaryDirectory { dir in
            let dist = try F.makeDist(in: dir)
            #expect(try relctl(["checksum"], in: dir.url).status == 0)
            try FileManager.default.removeItem(at: dist.appendingPathComponent(F.windows))
            try FileManager.default.createDirectory(
                at: dist.appendingPathComponent(F.windows), withIntermediateDirectories: false)
            let result = try relctl(["verify", "--json"], in: dir.url)
            // Exit 1 with every file's result, as for a deleted file; the other archive still checked.
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("\(F.windows): missing: listed in dist/SHA256SUMS:1"), "\(result)")
            #expect(result.stdout.contains("\"status\" : \"ok\""), "\(result.stdout)")
        }
    }

    @Test func verifyFindsTheListsOfTheConfigGiven() throws {
        try withTemporaryDirectory { dir in
            _ = try dir.write("sub/relctl.toml", "[project]\nname = \"velostream\"\n")
            let dist = dir.url.appendingPathComponent("sub/dist")
            try FileManager.default.createDirectory(at: dist, withIntermediateDirectories: true)
            for (index, name) in [F.linux, F.windows].enumerated() {
                try F.bytes(1000, seed: UInt64(index + 1)).write(to: dist.appendingPathComponent(name))
            }
            #expect(try relctl(["checksum", "--config", "sub/relctl.toml"], in: dir.url).status == 0)
            #expect(dir.exists("sub/dist/SHA256SUMS"))
            let result = try relctl(["verify", "--config", "sub/relctl.toml"], in: dir.url)
            #expect(result.status == 0 && result.stderr.contains("sub/dist/SHA256SUMS: 2 files ok"), "\(result)")
        }
    }

    @Test func unlistedAloneFailsUnlessAllowed() throws {
        try withTemporaryDirectory { dir in
            let dist = try F.makeDist(in: dir)
            #expect(try relctl(["checksum"], in: dir.url).status == 0)
            try F.bytes(10, seed: 9).write(to: dist.appendingPathComponent("extra.zip"))
            #expect(try relctl(["verify"], in: dir.url).status == 1)
            let allowed = try relctl(["verify", "--allow-unlisted"], in: dir.url)
            #expect(allowed.status == 0 && allowed.stderr.contains("warning: extra.zip: not listed"), "\(allowed)")
            // A stale per-archive file fails the check too.
            let sidecar = "dist/\(F.windows).sha256"
            let good = try dir.read(sidecar)
            _ = try dir.write(sidecar, String(repeating: "0", count: 64) + "  \(F.windows)\n")
            let stale = try relctl(["verify", "--allow-unlisted"], in: dir.url)
            #expect(
                stale.status == 1
                    && stale.stderr.contains("relctl: error: \(F.windows).sha256: does not match its archive"),
                "\(stale)")
            _ = try dir.write(sidecar, good)
            // A per-archive file checks just its archive.
            #expect(try relctl(["verify", "dist/\(F.linux).sha256"], in: dir.url).status == 0)
        }
    }

    @Test func verifyNamesTheMalformedLineWithExit2() throws {
        try withTemporaryDirectory { dir in
            try F.makeDist(in: dir)
            #expect(try relctl(["checksum"], in: dir.url).status == 0)
            let sums = try dir.read("dist/SHA256SUMS")
            _ = try dir.write("dist/SHA256SUMS", sums + "garbage line here\n")
            let result = try relctl(["verify"], in: dir.url)
            #expect(result.status == 2)
            #expect(
                result.stderr.contains("relctl: error: dist/SHA256SUMS:3: malformed checksum line `garbage line here`"),
                "\(result)")

            let absent = try relctl(["verify", "nope/SHA256SUMS"], in: dir.url)
            #expect(absent.status == 2 && absent.stderr.contains("nope/SHA256SUMS: checksum file not found"))

            let folder = try relctl(["verify", "dist"], in: dir.url)
            #expect(
                folder.status == 2
                    && folder.stderr.contains("dist: is a folder; pass the checksum file in it, e.g. dist/SHA256SUMS"),
                "\(folder)")
        }
    }

    @Test func verifyAcceptsBSDLinesFromRealTools() throws {
        try withTemporaryDirectory { dir in
            let dist = try F.makeDist(in: dir)
            let made = try sh(
                "shasum -a 256 --tag \(F.linux) > BSD256 && openssl dgst -sha512 \(F.windows) >> BSD256", in: dist)
            #expect(made.status == 0, "\(made)")
            let result = try relctl(["verify", "dist/BSD256"], in: dir.url)
            let listing = try dir.read("dist/BSD256")
            #expect(result.status == 0, "\(result)\n\(listing)")
            #expect(result.stderr.contains("2 files ok"))
        }
    }

    @Test(arguments: [SIGKILL, SIGTERM])
    func killedMidHashLeavesPreviousSumsIntact(signal: Int32) throws {
        try withTemporaryDirectory { dir in
            let dist = try F.makeDist(in: dir)
            #expect(try relctl(["checksum"], in: dir.url).status == 0)
            let before = try Data(contentsOf: dist.appendingPathComponent("SHA256SUMS"))
            let manifestBefore = try Data(contentsOf: dist.appendingPathComponent("manifest.json"))
            // A sparse 64 GiB archive: takes far longer to hash than the test waits, costs no disk.
            let big = dist.appendingPathComponent("velostream-v1.0.0-aarch64-apple-darwin.tar.gz")
            #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
            let handle = try FileHandle(forWritingTo: big)
            try handle.truncate(atOffset: 64 << 30)
            try handle.close()

            let process = Process()
            process.executableURL = relctlBinary
            process.arguments = ["checksum"]
            process.currentDirectoryURL = dir.url
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Signalled once it hashes the big archive (it holds it open), not after a guessed while.
            let hashing = MatrixFixtures.waitUntil(seconds: 300) {
                MatrixFixtures.openFiles(of: process.processIdentifier).contains(big.path) || !process.isRunning
            }
            #expect(hashing && process.isRunning, "still hashing the big archive when signalled")
            kill(process.processIdentifier, signal)
            try process.waitForExit()
            if signal == SIGTERM {
                #expect(process.terminationStatus == 128 + SIGTERM, "exits 143 as shells expect")
            }

            #expect(try Data(contentsOf: dist.appendingPathComponent("SHA256SUMS")) == before)
            #expect(try Data(contentsOf: dist.appendingPathComponent("manifest.json")) == manifestBefore)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: dist.path).filter {
                $0.contains("relctl-tmp")
            }
            #expect(leftovers.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: big.path + ".sha256"))
            #expect(try sh("sha256sum -c SHA256SUMS", in: dist).status == 0)
        }
    }
}
