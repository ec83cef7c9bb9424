import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Issue 48: a full disk, a file-size limit, a read-only mount or a failing disk under every
/// command that writes. Each case runs the built relctl under the fault (a watchdog kills it if
/// it does not end) and checks: exit 1 and no hang, one error line naming the file
/// and the error, no temporary left, and the files already there (an earlier step's archives,
/// checksums, manifest) unchanged or still whole. The full-disk cases size a tmpfs from what a
/// run without a fault wrote, so the fault lands in the writer each case names (the error line
/// proves it did).
@Suite("write faults", .serialized, .removesTemporaries, .timeLimit(.minutes(45)))
struct WriteFaultCLITests {
    static let full = "No space left on device"
    static let tooLarge = "File too large"
    static let readOnly = "Read-only file system"
    static let failing = "Input/output error"

    static let zip = "demo-v1.0.0-x86_64-pc-windows-msvc.zip"
    static let zst = "demo-v1.0.0-aarch64-unknown-linux-gnu.tar.zst"
    static let gz = "demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz"
    static let archives = [zip, zst, gz]
    /// The target of each of `archives`.
    static let triples = ["x86_64-pc-windows-msvc", "aarch64-unknown-linux-gnu", "x86_64-unknown-linux-gnu"]

    /// A project in a temporary folder, with a tmpfs mounted at its dist/, and a scratch folder
    /// outside both (the shim and its log).
    func projectWithSmallDist(
        bytes: Int64 = 256 << 20, payload: Int = 600_000
    ) throws -> (FaultProject, WriteFaults.Tmpfs, TemporaryDirectory) {
        let folder = try TemporaryDirectory(prefix: "relctl-write-faults")
        let project = try FaultProject(at: folder.url, bytes: payload)
        let tmpfs = try WriteFaults.Tmpfs(at: project.dist, bytes: bytes)
        return (project, tmpfs, try TemporaryDirectory(prefix: "relctl-write-faults-scratch"))
    }

    func emptyDist(_ project: FaultProject) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: project.dist.path) {
            try FileManager.default.removeItem(at: project.dist.appendingPathComponent(name))
        }
    }

    // MARK: package

    /// With `--jobs 1` the archives are written one after another (zip, tar.zst, tar.gz: slowest
    /// first), each followed by its `.sha256` and SBOM, then `manifest.json`: a disk with room
    /// for exactly some of them fills in the next one.
    @Test func aFullDiskEndsPackageInEveryWriterItReaches() throws {
        let (project, tmpfs, _) = try projectWithSmallDist()
        defer { tmpfs.unmount() }
        try project.succeed(["package", "--tag", "v1.0.0", "--jobs", "1"])
        func size(_ name: String) -> Int64 { WriteFaults.allocated(project.dist.appendingPathComponent(name)) }
        let zip = size(Self.zip), zst = size(Self.zst)
        let zipFiles = zip + size(Self.zip + ".sha256")
        let sbom = size("demo-v1.0.0-x86_64-pc-windows-msvc.cdx.json")
        let all =
            Self.archives.map { size($0) + size($0 + ".sha256") }.reduce(0, +)
            + ["x86_64-pc-windows-msvc", "aarch64-unknown-linux-gnu", "x86_64-unknown-linux-gnu"].map {
                size("demo-v1.0.0-\($0).cdx.json")
            }.reduce(0, +)
        #expect(zip > 1 << 20, "the zip is big enough to fill a small disk")
        try emptyDist(project)
        // Something earlier in dist/ that no fault may touch.
        try Data("an earlier file\n".utf8).write(to: project.dist.appendingPathComponent("earlier.txt"))
        let before = try WriteFaults.snapshot(project.dist)

        let cases: [(what: String, room: Int64, file: String)] = [
            ("the first chunk", 0, Self.zip),
            ("mid-archive", zip / 2, Self.zip),
            ("the archive's checksum", zip, Self.zip + ".sha256"),
            ("the SBOM", zipFiles, ".cdx.json"),
            ("the second archive (tar.zst, written by libarchive alone)", zipFiles + sbom + zst / 2, Self.zst),
            ("manifest.json", all, "manifest.json"),
        ]
        for (what, room, file) in cases {
            try tmpfs.leave(room: room)
            let outcome = try project.fault(["package", "--tag", "v1.0.0", "--jobs", "1"])
            WriteFaults.expectCleanFailure(outcome, reason: Self.full, naming: [file], "package, full at \(what)")
            #expect(
                WriteFaults.leftovers(under: [project.dist]).isEmpty,
                "\(what): \(WriteFaults.leftovers(under: [project.dist]))")
            // An archive is never left without its checksum and SBOM; the ones written whole stay.
            let names = try FileManager.default.contentsOfDirectory(atPath: project.dist.path)
            for archive in Self.archives where names.contains(archive) {
                #expect(names.contains(archive + ".sha256"), "\(what): \(archive) without its checksum: \(names)")
            }
            try WriteFaults.expectWhole(project.dist, what)
            try WriteFaults.expectIntact(before, project.dist, what)
            try tmpfs.leave(room: 64 << 20)
            try emptyDist(project)
            try Data("an earlier file\n".utf8).write(to: project.dist.appendingPathComponent("earlier.txt"))
        }
    }

    /// The shapes of the hang the issue reported: one archive after another, two at once, one with
    /// two compressing threads; each ends with the first archive's error. The archives are many
    /// chunks long (12 MB), so the fault lands while every chunk buffer is in flight (with a
    /// few chunks per archive the old pipeline had a spare wake-up and did not hang).
    @Test(arguments: [
        ["--jobs", "1"], ["--jobs", "2"], ["--jobs", "2", "--target", "x86_64-unknown-linux-gnu"],
        ["--jobs", "3"], ["--jobs", "4", "--target", "x86_64-pc-windows-msvc"],
    ])
    func aFullDiskOrAFileSizeLimitNeverHangsPackage(jobs: [String]) throws {
        let (project, tmpfs, _) = try projectWithSmallDist(bytes: 1 << 20, payload: 6_000_000)
        defer { tmpfs.unmount() }
        let full = try project.fault(["package", "--tag", "v1.0.0"] + jobs)
        WriteFaults.expectCleanFailure(full, reason: Self.full, naming: Self.archives, "package \(jobs) on a full disk")
        #expect(WriteFaults.leftovers(under: [project.dist]).isEmpty, "\(WriteFaults.leftovers(under: [project.dist]))")

        try tmpfs.leave(room: 64 << 20)
        let limited = try project.fault(["package", "--tag", "v1.0.0"] + jobs, fileSizeKiB: 512)
        WriteFaults.expectCleanFailure(
            limited, reason: Self.tooLarge, naming: Self.archives, "package \(jobs) under ulimit -f")
        #expect(WriteFaults.leftovers(under: [project.dist]).isEmpty, "\(WriteFaults.leftovers(under: [project.dist]))")
    }

    /// The same for `image`: its layers (6 MB each, two compressed at once) go through the same
    /// pipeline.
    @Test func aFullDiskOrAFileSizeLimitNeverHangsImage() throws {
        let (project, tmpfs, _) = try projectWithSmallDist(bytes: 1 << 20, payload: 6_000_000)
        defer { tmpfs.unmount() }
        let full = try project.fault(["image", "--tag", "v1.0.0"])
        WriteFaults.expectCleanFailure(full, reason: Self.full, naming: ["dist/oci/demo"], "image on a full disk")
        #expect(WriteFaults.leftovers(under: [project.dist]).isEmpty, "\(WriteFaults.leftovers(under: [project.dist]))")
        try tmpfs.leave(room: 64 << 20)
        let limited = try project.fault(["image", "--tag", "v1.0.0"], fileSizeKiB: 1024)
        WriteFaults.expectCleanFailure(
            limited, reason: Self.tooLarge, naming: ["dist/oci/demo"], "image under ulimit -f")
        #expect(WriteFaults.leftovers(under: [project.dist]).isEmpty, "\(WriteFaults.leftovers(under: [project.dist]))")
    }

    @Test func aReadOnlyOrFailingDiskEndsPackageNamingTheArchive() throws {
        let (project, tmpfs, scratch) = try projectWithSmallDist()
        defer { tmpfs.unmount() }
        try Data("an earlier file\n".utf8).write(to: project.dist.appendingPathComponent("earlier.txt"))
        let before = try WriteFaults.snapshot(project.dist)
        try tmpfs.makeReadOnly()
        let readOnly = try project.fault(["package", "--tag", "v1.0.0"])
        WriteFaults.expectCleanFailure(
            readOnly, reason: Self.readOnly, naming: Self.archives, "package, read-only dist/")
        try WriteFaults.expectIntact(before, project.dist, "read-only")
        tmpfs.unmount()

        // EIO from the shim: mid-archive, when the archive is linked into place, when its
        // checksum file is renamed into place.
        let log = scratch.url.appendingPathComponent("faults.log")
        let cases: [(what: String, settings: [String: String], file: String)] = [
            ("a write mid-archive", ["RELCTL_FAULT_WRITE_BYTES": "700000"], Self.zip),
            ("the archive's link into place", ["RELCTL_FAULT_RENAME_CALLS": "0"], Self.zip),
            ("its checksum's rename into place", ["RELCTL_FAULT_RENAME_CALLS": "1"], Self.zip + ".sha256"),
        ]
        for (what, settings, file) in cases {
            try? FileManager.default.removeItem(at: log)
            try? FileManager.default.removeItem(at: project.dist)
            try FileManager.default.createDirectory(at: project.dist, withIntermediateDirectories: true)
            try Data("an earlier file\n".utf8).write(to: project.dist.appendingPathComponent("earlier.txt"))
            let environment = try WriteFaults.shimEnvironment(under: project.dist, settings, log: log)
            let outcome = try project.fault(["package", "--tag", "v1.0.0", "--jobs", "1"], environment: environment)
            WriteFaults.expectCleanFailure(outcome, reason: Self.failing, naming: [file], "package, EIO at \(what)")
            #expect(FileManager.default.fileExists(atPath: log.path), "\(what): the shim failed no call")
            #expect(
                WriteFaults.leftovers(under: [project.dist]).isEmpty,
                "\(what): \(WriteFaults.leftovers(under: [project.dist]))")
            try WriteFaults.expectIntact(before, project.dist, what)
        }
    }

    // MARK: image, linux-package

    @Test func aFullOrFailingDiskEndsImageNamingTheLayout() throws {
        let (project, tmpfs, scratch) = try projectWithSmallDist(bytes: 256 << 20)
        defer { tmpfs.unmount() }
        // An earlier layout of the image: no fault may damage it.
        try project.succeed(["image", "--tag", "v1.0.0"])
        let layout = project.dist.appendingPathComponent("oci/demo")
        let layer =
            try FileManager.default.contentsOfDirectory(atPath: layout.appendingPathComponent("blobs/sha256").path)
            .map { WriteFaults.allocated(layout.appendingPathComponent("blobs/sha256/\($0)")) }.max() ?? 0
        #expect(layer > 500_000, "a layer is big enough to fill a small disk")
        let before = try WriteFaults.snapshot(project.dist)
        for (what, room) in [("the first chunk", Int64(0)), ("mid-layer", layer / 2), ("the last layer", layer * 2)] {
            try tmpfs.leave(room: room)
            let outcome = try project.fault(["image", "--tag", "v1.0.0"])
            WriteFaults.expectCleanFailure(
                outcome, reason: Self.full, naming: ["dist/oci/demo"], "image, full at \(what)")
            #expect(
                WriteFaults.leftovers(under: [project.dist]).isEmpty,
                "\(what): \(WriteFaults.leftovers(under: [project.dist]))")
            try WriteFaults.expectIntact(before, project.dist, what)
            try tmpfs.leave(room: 256 << 20)
        }
        let limited = try project.fault(["image", "--tag", "v1.0.0"], fileSizeKiB: 256)
        WriteFaults.expectCleanFailure(
            limited, reason: Self.tooLarge, naming: ["dist/oci/demo"], "image under ulimit -f")
        #expect(WriteFaults.leftovers(under: [project.dist]).isEmpty, "\(WriteFaults.leftovers(under: [project.dist]))")
        try WriteFaults.expectIntact(before, project.dist, "image under ulimit -f")

        let log = scratch.url.appendingPathComponent("faults.log")
        let failing = try project.fault(
            ["image", "--tag", "v1.0.0"],
            environment: try WriteFaults.shimEnvironment(
                under: project.dist, ["RELCTL_FAULT_WRITE_BYTES": "300000"], log: log))
        WriteFaults.expectCleanFailure(
            failing, reason: Self.failing, naming: ["dist/oci/demo"], "image on a failing disk")
        #expect(FileManager.default.fileExists(atPath: log.path), "the shim failed no call")
        #expect(WriteFaults.leftovers(under: [project.dist]).isEmpty, "\(WriteFaults.leftovers(under: [project.dist]))")
        try WriteFaults.expectIntact(before, project.dist, "image on a failing disk")

        try tmpfs.makeReadOnly()
        let readOnly = try project.fault(["image", "--tag", "v1.0.0"])
        WriteFaults.expectCleanFailure(readOnly, reason: Self.readOnly, naming: ["dist/oci/demo"], "image, read-only")
        try WriteFaults.expectIntact(before, project.dist, "image, read-only")
    }

    @Test func aFullOrFailingDiskEndsLinuxPackageNamingThePackage() throws {
        let (project, tmpfs, scratch) = try projectWithSmallDist(bytes: 256 << 20)
        defer { tmpfs.unmount() }
        try project.addRpmPackage()
        try Data("an earlier file\n".utf8).write(to: project.dist.appendingPathComponent("earlier.txt"))
        let before = try WriteFaults.snapshot(project.dist)
        let debs = ["_amd64.deb", "_arm64.deb"]
        let rpms = [".x86_64.rpm", ".aarch64.rpm"]
        let packages = debs + rpms
        try tmpfs.leave(room: 300_000)
        let full = try project.fault(["linux-package", "--tag", "v1.0.0"])
        WriteFaults.expectCleanFailure(full, reason: Self.full, naming: packages, "linux-package on a full disk")
        #expect(WriteFaults.leftovers(under: [project.dist]).isEmpty, "\(WriteFaults.leftovers(under: [project.dist]))")
        try WriteFaults.expectIntact(before, project.dist, "linux-package on a full disk")
        // The rpm writer alone: its payload is written before its header, both may meet the fault.
        let rpmFull = try project.fault(["linux-package", "--tag", "v1.0.0", "--format", "rpm"])
        WriteFaults.expectCleanFailure(rpmFull, reason: Self.full, naming: rpms, "rpm on a full disk")
        #expect(WriteFaults.leftovers(under: [project.dist]).isEmpty, "\(WriteFaults.leftovers(under: [project.dist]))")
        try WriteFaults.expectIntact(before, project.dist, "rpm on a full disk")
        try tmpfs.leave(room: 256 << 20)

        let limited = try project.fault(["linux-package", "--tag", "v1.0.0"], fileSizeKiB: 256)
        WriteFaults.expectCleanFailure(
            limited, reason: Self.tooLarge, naming: packages, "linux-package under ulimit -f")
        #expect(WriteFaults.leftovers(under: [project.dist]).isEmpty, "\(WriteFaults.leftovers(under: [project.dist]))")
        let rpmLimited = try project.fault(["linux-package", "--tag", "v1.0.0", "--format", "rpm"], fileSizeKiB: 256)
        WriteFaults.expectCleanFailure(rpmLimited, reason: Self.tooLarge, naming: rpms, "rpm under ulimit -f")
        #expect(WriteFaults.leftovers(under: [project.dist]).isEmpty, "\(WriteFaults.leftovers(under: [project.dist]))")

        let log = scratch.url.appendingPathComponent("faults.log")
        let failing = try project.fault(
            ["linux-package", "--tag", "v1.0.0"],
            environment: try WriteFaults.shimEnvironment(
                under: project.dist, ["RELCTL_FAULT_WRITE_CALLS": "0"], log: log))
        WriteFaults.expectCleanFailure(
            failing, reason: Self.failing, naming: packages, "linux-package on a failing disk")
        #expect(WriteFaults.leftovers(under: [project.dist]).isEmpty, "\(WriteFaults.leftovers(under: [project.dist]))")
        try WriteFaults.expectIntact(before, project.dist, "linux-package on a failing disk")

        try tmpfs.makeReadOnly()
        let readOnly = try project.fault(["linux-package", "--tag", "v1.0.0"])
        WriteFaults.expectCleanFailure(readOnly, reason: Self.readOnly, naming: packages, "linux-package, read-only")
        try WriteFaults.expectIntact(before, project.dist, "linux-package, read-only")
    }

    // MARK: checksum, chart, channel

    /// After package: `checksum` writes `SHA256SUMS`; `chart` its package and `SHA256SUMS` again;
    /// `channel homebrew` its formula. A full disk at each leaves the earlier files as they were.
    @Test func aFullOrFailingDiskEndsChecksumChartAndChannelLeavingTheEarlierFilesWhole() throws {
        let (project, tmpfs, scratch) = try projectWithSmallDist(bytes: 256 << 20)
        defer { tmpfs.unmount() }
        try project.succeed(["package", "--tag", "v1.0.0"])
        // The previous SHA256SUMS, which `checksum` replaces: the fault must leave it whole.
        try project.succeed(["checksum"])
        let sums = project.dist.appendingPathComponent("SHA256SUMS")
        let before = try WriteFaults.snapshot(project.dist)

        let steps: [(what: String, arguments: [String], files: [String], rewritten: Set<String>)] = [
            ("checksum", ["checksum"], ["SHA256SUMS", ".sha256"], ["SHA256SUMS", "manifest.json"]),
            (
                "chart", ["chart", "--tag", "v1.0.0"], ["demo-1.0.0.tgz", "SHA256SUMS"],
                ["SHA256SUMS", "manifest.json"]
            ),
            (
                "channel homebrew", ["channel", "homebrew", "--tag", "v1.0.0"],
                ["homebrew/Formula/demo.rb", "SHA256SUMS"],
                ["SHA256SUMS", "manifest.json"]
            ),
        ]
        for (what, arguments, files, rewritten) in steps {
            try tmpfs.leave(room: 0)
            let full = try project.fault(arguments)
            WriteFaults.expectCleanFailure(full, reason: Self.full, naming: files, "\(what) on a full disk")
            #expect(
                WriteFaults.leftovers(under: [project.dist]).isEmpty,
                "\(what): \(WriteFaults.leftovers(under: [project.dist]))")
            try WriteFaults.expectIntact(before, project.dist, rewritten: rewritten, "\(what) on a full disk")
            try WriteFaults.expectWhole(project.dist, "\(what) on a full disk")
            try tmpfs.leave(room: 256 << 20)

            let log = scratch.url.appendingPathComponent("faults-\(what).log")
            let failing = try project.fault(
                arguments,
                environment: try WriteFaults.shimEnvironment(
                    under: project.dist, ["RELCTL_FAULT_WRITE_CALLS": "0"], log: log))
            WriteFaults.expectCleanFailure(failing, reason: Self.failing, naming: files, "\(what) on a failing disk")
            #expect(FileManager.default.fileExists(atPath: log.path), "\(what): the shim failed no call")
            #expect(
                WriteFaults.leftovers(under: [project.dist]).isEmpty,
                "\(what): \(WriteFaults.leftovers(under: [project.dist]))")
            try WriteFaults.expectIntact(before, project.dist, rewritten: rewritten, "\(what) on a failing disk")
            try WriteFaults.expectWhole(project.dist, "\(what) on a failing disk")

            // No `ulimit -f` pass here: these files are smaller than the error line, so a limit below
            // them also stops relctl's own report when stderr is a file (as it is here); the full
            // disk and the failing disk reach the same writers.
            try tmpfs.makeReadOnly()
            let readOnly = try project.fault(arguments)
            try tmpfs.makeWritable()
            // A read-only dist/ refuses the first thing made there: a channel's staging folder.
            WriteFaults.expectCleanFailure(
                readOnly, reason: Self.readOnly, naming: files + [".relctl-channel"], "\(what), read-only")
            try WriteFaults.expectIntact(before, project.dist, rewritten: rewritten, "\(what), read-only")
            try WriteFaults.expectWhole(project.dist, "\(what), read-only")
        }
        #expect(try sh("sha256sum -c SHA256SUMS", in: project.dist).status == 0, "\(sums.path) still verifies")
    }

    // MARK: release, reproduce

    /// A release whose dist/ fills up (mid-archive in its staging folder, then under ulimit -f, then
    /// on a failing disk while it moves the files into dist/, after the tag exists) fails cleanly:
    /// no tag, no staging folder, no lock, dist/ as it was; the next run, with room, releases.
    @Test func aReleaseStoppedByAWriteFaultLeavesNothingAndTheNextRunReleases() throws {
        let (project, tmpfs, scratch) = try projectWithSmallDist(bytes: 256 << 20)
        defer { tmpfs.unmount() }
        try Data("an earlier file\n".utf8).write(to: project.dist.appendingPathComponent("earlier.txt"))
        let before = try WriteFaults.snapshot(project.dist)
        let gitFolder = project.url.appendingPathComponent(".git")

        try tmpfs.leave(room: 2 << 20)
        let full = try project.fault(["release", "v1.0.0"])
        WriteFaults.expectCleanFailure(full, reason: Self.full, naming: ["dist/"], "release on a full disk")
        #expect(try project.tags().isEmpty, "the tag was taken back")
        #expect(
            WriteFaults.leftovers(under: [project.dist, gitFolder]).isEmpty,
            "\(WriteFaults.leftovers(under: [project.dist, gitFolder]))")
        try WriteFaults.expectIntact(before, project.dist, "release on a full disk")
        try tmpfs.leave(room: 256 << 20)

        // Above the binaries the build writes (600 KB), below an archive (1.2 MB).
        let limited = try project.fault(["release", "v1.0.0"], fileSizeKiB: 900)
        WriteFaults.expectCleanFailure(limited, reason: Self.tooLarge, naming: ["dist/"], "release under ulimit -f")
        #expect(try project.tags().isEmpty, "the tag was taken back")
        #expect(
            WriteFaults.leftovers(under: [project.dist, gitFolder]).isEmpty,
            "\(WriteFaults.leftovers(under: [project.dist, gitFolder]))")

        // The files move into dist/ only after the tag exists: a rename failing there is a write
        // fault after the tag, which the release takes back like an interrupt.
        let log = scratch.url.appendingPathComponent("faults.log")
        let failing = try project.fault(
            ["release", "v1.0.0"],
            environment: try WriteFaults.shimEnvironment(
                under: project.dist, ["RELCTL_FAULT_RENAME_CALLS": "3"], log: log))
        #expect(FileManager.default.fileExists(atPath: log.path), "the shim failed no rename")
        WriteFaults.expectCleanFailure(
            failing, reason: Self.failing, naming: ["dist/"], "release, EIO moving into dist/")
        #expect(try project.tags().isEmpty, "the tag was taken back")
        #expect(
            WriteFaults.leftovers(under: [project.dist, gitFolder]).isEmpty,
            "\(WriteFaults.leftovers(under: [project.dist, gitFolder]))")
        try WriteFaults.expectIntact(before, project.dist, "release, EIO moving into dist/")

        // A read-only dist/ (a mount a runner left read-only): refused before anything stays.
        try tmpfs.makeReadOnly()
        let readOnly = try project.fault(["release", "v1.0.0"])
        try tmpfs.makeWritable()
        WriteFaults.expectCleanFailure(readOnly, reason: Self.readOnly, naming: ["dist/"], "release, read-only dist/")
        #expect(try project.tags().isEmpty, "the tag was taken back")
        #expect(
            WriteFaults.leftovers(under: [project.dist, gitFolder]).isEmpty,
            "\(WriteFaults.leftovers(under: [project.dist, gitFolder]))")
        try WriteFaults.expectIntact(before, project.dist, "release, read-only dist/")

        // With room again, the same command releases.
        let next = try project.fault(["release", "v1.0.0"])
        #expect(next.status == 0, "the next run: \(next)")
        #expect(try project.tags() == ["v1.0.0"])
        #expect(try sh("sha256sum -c SHA256SUMS", in: project.dist).status == 0)
        #expect(WriteFaults.leftovers(under: [project.dist, gitFolder]).isEmpty)
    }

    /// The whole repository on a disk that fills up, lock and all (a CI runner's disk): whatever
    /// the release was writing when it filled, the next run with room recovers and releases, as
    /// after a kill.
    @Test(arguments: [Int64(64 << 10), 1 << 20, 5 << 19, 9 << 19])
    func aReleaseOnADiskThatFillsUpRecoversOnTheNextRun(room: Int64) throws {
        let folder = try TemporaryDirectory(prefix: "relctl-write-faults-disk")
        let tmpfs = try WriteFaults.Tmpfs(at: folder.url.appendingPathComponent("disk"), bytes: 256 << 20)
        defer { tmpfs.unmount() }
        let root = tmpfs.url.appendingPathComponent("demo")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let project = try FaultProject(at: root)
        try tmpfs.leave(room: room)
        let full = try project.fault(["release", "v1.0.0"])
        #expect(!full.timedOut && full.status == 1, "room \(room): \(full)")
        #expect(full.errorLines.count == 1 && full.stderr.contains(Self.full), "room \(room): \(full)")

        try tmpfs.leave(room: 256 << 20)
        let next = try project.fault(["release", "v1.0.0"])
        #expect(next.status == 0, "room \(room), the next run: \(next)")
        #expect(try project.tags() == ["v1.0.0"])
        #expect(try sh("sha256sum -c SHA256SUMS", in: project.dist).status == 0)
        #expect(
            WriteFaults.leftovers(under: [project.dist, root.appendingPathComponent(".git")]).isEmpty,
            "\(WriteFaults.leftovers(under: [project.dist, root.appendingPathComponent(".git")]))")
    }

    /// `release --dry-run` and `reproduce` write only into a scratch clone in $TMPDIR: a full
    /// $TMPDIR, a failing one or a file-size limit ends them cleanly, the scratch folder goes, and
    /// the project is only read. Where git meets the fault (the clone's checkout) relctl passes on
    /// git's words; where relctl's own writer does (the archives), it says it in one line.
    @Test func aFullFailingOrLimitedTemporaryFolderEndsTheDryRunAndReproduceAndTheScratchFolderGoes() throws {
        let folder = try TemporaryDirectory(prefix: "relctl-write-faults")
        let project = try FaultProject(at: folder.url)
        let tmpfs = try WriteFaults.Tmpfs(at: folder.url.appendingPathComponent("tmp"), bytes: 256 << 20)
        defer { tmpfs.unmount() }
        let scratch = try TemporaryDirectory(prefix: "relctl-write-faults-scratch")
        let environment = ["TMPDIR": tmpfs.url.path]
        let archives = Self.archives

        /// Runs `arguments` under each fault; `check` judges what is left in the project. The
        /// checkouts and the build come first (`tree` bytes); half an archive more lands in `package`.
        func faults(_ arguments: [String], _ what: String, tree: Int64, check: (String) throws -> Void) throws {
            for room in [Int64(64 << 10), tree + 600_000] {
                try tmpfs.leave(room: room)
                let outcome = try project.fault(arguments, environment: environment)
                WriteFaults.report(outcome, "\(what), full $TMPDIR, room \(room)")
                if room == tree + 600_000 {
                    WriteFaults.expectCleanFailure(
                        outcome, reason: Self.full, naming: archives, "\(what), full at an archive")
                } else {
                    #expect(!outcome.timedOut && outcome.status == 1, "\(what), room \(room): \(outcome)")
                    // What git says when the clone's checkout fills the disk.
                    #expect(
                        outcome.stderr.contains(Self.full) || outcome.stderr.contains("Out of diskspace"),
                        "\(what), room \(room): \(outcome)")
                }
                #expect(
                    try FileManager.default.contentsOfDirectory(atPath: tmpfs.url.path).isEmpty, "\(what), room \(room)"
                )
                try check("\(what), room \(room)")
                try tmpfs.leave(room: 256 << 20)
            }

            // Above the files the checkout and the build write (600 KB), below an archive (1.2 MB);
            // relctl's error line goes to a file too, far below the limit.
            let limited = try project.fault(arguments, environment: environment, fileSizeKiB: 900)
            WriteFaults.report(limited, "\(what), ulimit -f 900")
            WriteFaults.expectCleanFailure(limited, reason: Self.tooLarge, naming: archives, "\(what) under ulimit -f")
            #expect(try FileManager.default.contentsOfDirectory(atPath: tmpfs.url.path).isEmpty, "\(what), ulimit -f")
            try check("\(what), ulimit -f")

            // EIO in the scratch folder: at once (git's clone meets it), and past the checkout
            // and the build (each child counts its own bytes), in relctl's archive writer.
            for bytes in [0, 2_000_000] {
                let log = scratch.url.appendingPathComponent("faults-\(arguments[0])-\(bytes).log")
                let shim = try WriteFaults.shimEnvironment(
                    under: tmpfs.url, ["RELCTL_FAULT_WRITE_BYTES": "\(bytes)"], log: log)
                let failing = try project.fault(arguments, environment: environment.merging(shim) { _, new in new })
                WriteFaults.report(failing, "\(what), EIO after \(bytes) bytes")
                #expect(FileManager.default.fileExists(atPath: log.path), "\(what), \(bytes): the shim failed no call")
                if bytes == 0 {
                    #expect(!failing.timedOut && failing.status == 1, "\(what), EIO in git: \(failing)")
                    #expect(failing.stderr.contains(Self.failing), "\(what), EIO in git: \(failing)")
                } else {
                    // Two targets are packaged at once, so which file's write crosses the 2 MB
                    // budget first is a race: an archive, or the SBOM written beside it.
                    let sboms = archives.map {
                        $0.replacingOccurrences(
                            of: #"\.(zip|tar\.zst|tar\.gz)$"#, with: ".cdx.json", options: .regularExpression)
                    }
                    WriteFaults.expectCleanFailure(
                        failing, reason: Self.failing, naming: archives + sboms,
                        "\(what), EIO at an archive or its SBOM")
                }
                #expect(
                    try FileManager.default.contentsOfDirectory(atPath: tmpfs.url.path).isEmpty,
                    "\(what), EIO after \(bytes) bytes")
                try check("\(what), EIO after \(bytes) bytes")
            }
        }

        try faults(["release", "v1.0.0", "--dry-run"], "dry run", tree: try project.builtTreeBytes()) {
            (what: String) throws in
            #expect(!FileManager.default.fileExists(atPath: project.dist.path), "\(what): dist/ was written")
            #expect(try project.tags().isEmpty, "\(what): a tag was made")
        }
        try project.succeed(["release", "v1.0.0"])
        let before = try WriteFaults.snapshot(project.dist)
        try faults(["reproduce", "v1.0.0"], "reproduce", tree: try project.builtTreeBytes(checkouts: 2)) {
            (what: String) throws in
            try WriteFaults.expectIntact(before, project.dist, what)
            #expect(try project.tags() == ["v1.0.0"], "\(what)")
        }
    }

    // MARK: repository

    /// `relctl repository` builds dist/apt and dist/dnf beside the earlier ones and swaps each in
    /// at once: a full, failing or read-only dist/ leaves the earlier repositories whole (they
    /// still verify), nothing half-written, and one line naming the repository's file.
    @Test func aFullFailingOrReadOnlyDiskLeavesTheEarlierRepositoryWhole() throws {
        let (project, tmpfs, scratch) = try projectWithSmallDist(bytes: 256 << 20)
        defer { tmpfs.unmount() }
        let key = try GPGKey()
        try project.addRepositories(key: key, keyFile: scratch.url.appendingPathComponent("repo.asc"))
        try project.succeed(["linux-package", "--tag", "v1.0.0"])
        try project.succeed(["repository", "--tag", "v1.0.0"])
        let verify = ["verify", "--repository-key", key.keyring.path]
        try project.succeed(verify)
        let before = try WriteFaults.snapshot(project.dist)
        let topLevel = Set(try FileManager.default.contentsOfDirectory(atPath: project.dist.path))
        let deb = WriteFaults.allocated(project.dist.appendingPathComponent("demo_1.0.0_amd64.deb"))
        #expect(deb > 500_000, "a package is big enough to fill a small disk")
        let apt = project.dist.appendingPathComponent("apt").path
        let dnf = project.dist.appendingPathComponent("dnf").path

        /// The checks after each fault: one line, nothing left, the earlier repositories whole.
        func expectEarlierRepositories(
            _ outcome: WriteFaults.Outcome, reason: String, naming files: [String], _ what: String
        ) throws {
            WriteFaults.report(outcome, "repository, \(what)")
            WriteFaults.expectCleanFailure(outcome, reason: reason, naming: files, "repository, \(what)")
            #expect(
                Set(try FileManager.default.contentsOfDirectory(atPath: project.dist.path)) == topLevel,
                "\(what): something was left in dist/")
            #expect(
                WriteFaults.leftovers(under: [project.dist]).isEmpty,
                "\(what): \(WriteFaults.leftovers(under: [project.dist]))")
            try WriteFaults.expectIntact(before, project.dist, what)
            let verified = try project.fault(verify)
            #expect(verified.status == 0, "\(what): the earlier repositories no longer verify: \(verified)")
        }

        // Full at the first package copied into the pool, and at the second.
        for (what, room) in [("the first package", Int64(0)), ("the second package", deb + deb / 2)] {
            try tmpfs.leave(room: room)
            let full = try project.fault(["repository", "--tag", "v1.0.0"])
            try expectEarlierRepositories(full, reason: Self.full, naming: [apt + "/pool/"], "full at \(what)")
            try tmpfs.leave(room: 256 << 20)
        }

        // EIO: at the first index written, at the swap of the new apt/ for the old one, at the
        // swap of dnf/ (the shim counts renames into dist/: apt's nine files, its swap, then
        // dnf's six files, its swap). The log shows where the fault landed.
        let cases: [(what: String, settings: [String: String], file: String, call: String?)] = [
            ("the first index", ["RELCTL_FAULT_WRITE_CALLS": "0"], apt + "/dists/", nil),
            ("the swap of apt/", ["RELCTL_FAULT_RENAME_CALLS": "21"], apt, apt),
            ("the swap of dnf/", ["RELCTL_FAULT_RENAME_CALLS": "22"], dnf, dnf),
        ]
        for (index, (what, settings, file, call)) in cases.enumerated() {
            let log = scratch.url.appendingPathComponent("faults-repository-\(index).log")
            let failing = try project.fault(
                ["repository", "--tag", "v1.0.0"],
                environment: try WriteFaults.shimEnvironment(under: project.dist, settings, log: log))
            let failed = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            #expect(!failed.isEmpty, "\(what): the shim failed no call")
            if let call {
                #expect(failed.hasSuffix(" \(call)\n"), "\(what): the fault landed elsewhere: \(failed)")
            }
            try expectEarlierRepositories(failing, reason: Self.failing, naming: [file], "EIO at \(what)")
        }

        try tmpfs.makeReadOnly()
        let readOnly = try project.fault(["repository", "--tag", "v1.0.0"])
        try tmpfs.makeWritable()
        try expectEarlierRepositories(readOnly, reason: Self.readOnly, naming: [apt], "read-only dist/")
    }

    // MARK: SBOM

    /// The SBOM writer (streamed, hashed on the way) under EIO mid-document and at its rename
    /// into place, and under a file-size limit only an SBOM exceeds (an archive of 4,000 small
    /// files compresses to far less than the SBOM that lists them).
    @Test func aFailingDiskOrAFileSizeLimitEndsPackageInTheSBOMWriter() throws {
        let (project, tmpfs, scratch) = try projectWithSmallDist()
        defer { tmpfs.unmount() }
        try project.succeed(["package", "--tag", "v1.0.0", "--jobs", "1"])
        func size(_ name: String) -> Int64 { WriteFaults.length(project.dist.appendingPathComponent(name)) }
        let sbomName = "demo-v1.0.0-x86_64-pc-windows-msvc.cdx.json"
        let zipBytes = size(Self.zip), sum = size(Self.zip + ".sha256"), sbom = size(sbomName)
        #expect(sbom > 2_000, "the SBOM is big enough to fail halfway: \(sbom)")
        try emptyDist(project)
        try Data("an earlier file\n".utf8).write(to: project.dist.appendingPathComponent("earlier.txt"))
        let before = try WriteFaults.snapshot(project.dist)

        /// An archive is never left without its checksum and its SBOM.
        func expectNoLoneArchive(_ folder: URL, _ what: String) throws {
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            for (archive, triple) in Swift.zip(Self.archives, Self.triples) where names.contains(archive) {
                #expect(names.contains(archive + ".sha256"), "\(what): \(archive) without its checksum: \(names)")
                #expect(
                    names.contains("demo-v1.0.0-\(triple).cdx.json"), "\(what): \(archive) without its SBOM: \(names)")
            }
        }

        // --jobs 1 writes the zip, its .sha256, then its SBOM: a byte budget past the first two
        // lands mid-SBOM; the third rename into dist/ is the SBOM's.
        let cases: [(what: String, settings: [String: String])] = [
            ("mid-SBOM", ["RELCTL_FAULT_WRITE_BYTES": "\(zipBytes + sum + sbom / 2)"]),
            ("the SBOM's rename into place", ["RELCTL_FAULT_RENAME_CALLS": "2"]),
        ]
        for (index, (what, settings)) in cases.enumerated() {
            let log = scratch.url.appendingPathComponent("faults-sbom-\(index).log")
            let outcome = try project.fault(
                ["package", "--tag", "v1.0.0", "--jobs", "1"],
                environment: try WriteFaults.shimEnvironment(under: project.dist, settings, log: log))
            WriteFaults.report(outcome, "package, EIO at \(what)")
            WriteFaults.expectCleanFailure(outcome, reason: Self.failing, naming: [sbomName], "package, EIO at \(what)")
            let failed = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            #expect(failed.contains(".cdx.json"), "\(what): the fault landed elsewhere: \(failed)")
            #expect(
                WriteFaults.leftovers(under: [project.dist]).isEmpty,
                "\(what): \(WriteFaults.leftovers(under: [project.dist]))")
            try expectNoLoneArchive(project.dist, what)
            try WriteFaults.expectWhole(project.dist, what)
            try WriteFaults.expectIntact(before, project.dist, what)
            try emptyDist(project)
            try Data("an earlier file\n".utf8).write(to: project.dist.appendingPathComponent("earlier.txt"))
        }
        tmpfs.unmount()

        // The limit: above the archive (and relctl's error line), below its SBOM.
        let (small, smallDist, _) = try projectWithSmallDist(payload: 1_000)
        defer { smallDist.unmount() }
        try small.addDocsTree(count: 4_000)
        let gz = ["package", "--tag", "v1.0.0", "--target", "x86_64-unknown-linux-gnu"]
        try small.succeed(gz)
        let archive = WriteFaults.length(small.dist.appendingPathComponent(Self.gz))
        let smallSBOM = WriteFaults.length(
            small.dist.appendingPathComponent("demo-v1.0.0-x86_64-unknown-linux-gnu.cdx.json"))
        #expect(archive * 2 < smallSBOM, "the archive \(archive) is far smaller than its SBOM \(smallSBOM)")
        try emptyDist(small)
        let limitKiB = Int((archive + smallSBOM) / 2 / 1024)
        let limited = try small.fault(gz, fileSizeKiB: limitKiB)
        WriteFaults.report(limited, "package, ulimit -f \(limitKiB) below the SBOM")
        WriteFaults.expectCleanFailure(
            limited, reason: Self.tooLarge, naming: ["demo-v1.0.0-x86_64-unknown-linux-gnu.cdx.json"],
            "package under ulimit -f below the SBOM")
        #expect(WriteFaults.leftovers(under: [small.dist]).isEmpty, "\(WriteFaults.leftovers(under: [small.dist]))")
        try expectNoLoneArchive(small.dist, "ulimit -f below the SBOM")
    }

    // MARK: signals

    /// SIGPIPE on stdout stays what it is for every filter: `relctl notes | head -1` ends relctl
    /// quietly, killed by the signal, with no error line.
    @Test func aClosedStdoutEndsNotesQuietly() throws {
        let folder = try TemporaryDirectory(prefix: "relctl-write-faults-pipe")
        try FaultProject.git(["init", "-q", "-b", "main"], in: folder.url)
        try Data("[project]\nname = \"x\"\n[[version]]\npath = \"VERSION\"\n".utf8).write(
            to: folder.url.appendingPathComponent("relctl.toml"))
        try Data("1.0.0\n".utf8).write(to: folder.url.appendingPathComponent("VERSION"))
        try FaultProject.git(["add", "-A"], in: folder.url)
        try FaultProject.git(["commit", "-q", "-m", "chore: start"], in: folder.url)
        // Enough commits that the notes outgrow the pipe's buffer.
        let commits = (0..<3000).map { index in
            let message = "fix: change number \(index) of many, long enough to fill a pipe"
            return
                "commit refs/heads/main\ncommitter T <t@example.com> \(1_700_000_000 + index) +0000\ndata \(message.utf8.count)\n\(message)\n"
                + (index == 0 ? "from refs/heads/main^0\n" : "")
        }.joined()
        try Data(commits.utf8).write(to: folder.url.appendingPathComponent("commits"))
        #expect(try sh("git fast-import --quiet < commits && rm commits", in: folder.url).status == 0)
        let piped = try sh(
            "timeout 60 bash -c '\"$0\" notes 2>stderr | head -1; echo \"status ${PIPESTATUS[0]}\"' '\(relctlBinary.path)'",
            in: folder.url)
        #expect(piped.stdout.hasPrefix("## "), "\(piped)")
        #expect(piped.stdout.contains("status 141"), "killed by SIGPIPE (128 + 13): \(piped)")
        let stderr = try String(contentsOf: folder.url.appendingPathComponent("stderr"), encoding: .utf8)
        #expect(!stderr.contains("error"), "\(stderr)")
    }
}
