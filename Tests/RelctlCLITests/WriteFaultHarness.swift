import Foundation
import RelctlTestSupport
import Testing

/// The fault-injection harness of `WriteFaultCLITests`: small tmpfs mounts (a full disk at a
/// chosen byte), read-only mounts, `ulimit -f`, and an LD_PRELOAD shim (`Tests/Support/write_faults.c`,
/// compiled here with gcc) that fails writes and renames with EIO; a watchdog that kills a relctl
/// that does not end and reports it; and the checks every fault case makes.
enum WriteFaults {
    /// How a faulted run ended.
    struct Outcome: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String
        var seconds: Double
        /// The watchdog had to kill it: the hang issue 48 is about.
        var timedOut: Bool

        var errorLines: [Substring] {
            stderr.split(separator: "\n").filter { $0.hasPrefix("relctl: error: ") }
        }

        var description: String {
            "exit \(status) after \(String(format: "%.2f", seconds)) s\(timedOut ? " (KILLED BY THE WATCHDOG)" : "")\n--- stderr\n\(stderr)"
        }
    }

    /// The watchdog kills a run after this many seconds: the hang guard, as a time limit is, not a
    /// bound on how fast a fault case fails. A case takes seconds; no check decides on its wall
    /// time, which a loaded machine stretches (issue 62: a 20 s bound risked false reds).
    /// `RELCTL_FAULT_WATCHDOG` shortens it, to run the suite against a build that hangs.
    static let watchdog = ProcessInfo.processInfo.environment["RELCTL_FAULT_WATCHDOG"].flatMap(Double.init) ?? 600.0

    /// Runs the built relctl with `arguments`, killing it after `watchdog` seconds.
    /// - Parameter fileSizeKiB: `ulimit -f` for relctl (bash counts in KiB).
    static func relctl(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:], fileSizeKiB: Int? = nil
    ) throws -> Outcome {
        let capture = try TemporaryDirectory(prefix: "relctl-fault-run")
        let outURL = capture.url.appendingPathComponent("stdout"), errURL = capture.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        defer {
            try? out.close()
            try? err.close()
        }
        let process = Process()
        if let fileSizeKiB {
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", "ulimit -f \(fileSizeKiB) && exec \"$0\" \"$@\"", relctlBinary.path] + arguments
        } else {
            process.executableURL = relctlBinary
            process.arguments = arguments
        }
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        env["RELCTL_LAYER_CACHE"] = "off"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        let started = Date()
        try process.run()
        // The watchdog: polls the child, never decides the outcome by waiting a fixed time.
        var timedOut = false
        while process.isRunning {
            if Date().timeIntervalSince(started) > watchdog {
                timedOut = true
                kill(process.processIdentifier, SIGKILL)
                break
            }
            usleep(10_000)
        }
        try process.waitForExit()
        let seconds = Date().timeIntervalSince(started)
        return Outcome(
            status: process.terminationStatus,
            stdout: String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self),
            stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self),
            seconds: seconds, timedOut: timedOut)
    }

    /// The checks of every fault case: exit 1 (no hang), exactly one error line, naming
    /// one of `files` (a path suffix) and saying `reason`.
    static func expectCleanFailure(
        _ outcome: Outcome, reason: String, naming files: [String], _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(!outcome.timedOut, "\(what): relctl hung: \(outcome)", sourceLocation: sourceLocation)
        #expect(outcome.status == 1, "\(what): \(outcome)", sourceLocation: sourceLocation)
        let errors = outcome.errorLines
        #expect(errors.count == 1, "\(what): one error line expected: \(outcome)", sourceLocation: sourceLocation)
        guard let line = errors.first else { return }
        #expect(line.contains(reason), "\(what): the reason: \(outcome)", sourceLocation: sourceLocation)
        #expect(
            files.contains { file in line.contains(file) }, "\(what): the file (one of \(files)): \(outcome)",
            sourceLocation: sourceLocation)
    }

    /// Prints how long a faulted run took (the time to exit each case reports), whatever it asserts.
    static func report(_ outcome: Outcome, _ what: String) {
        print("write fault: \(what): exit \(outcome.status) after \(String(format: "%.2f", outcome.seconds)) s")
    }

    // MARK: what may be left

    /// relctl's temporaries anywhere under `folders` (files and folders named `….relctl-tmp-…`,
    /// staging folders), and a release lock under `.git`.
    static func leftovers(under folders: [URL]) -> [String] {
        var found: [String] = []
        for folder in folders {
            guard let walker = FileManager.default.enumerator(atPath: folder.path) else { continue }
            while let relative = walker.nextObject() as? String {
                let name = (relative as NSString).lastPathComponent
                if name.contains(".relctl-tmp-") || name.hasPrefix(".relctl-staging") || name == "relctl-release.lock" {
                    found.append(folder.appendingPathComponent(relative).path)
                }
            }
        }
        return found
    }

    /// Every file under `folder` (hidden ones too) with its SHA-256.
    static func snapshot(_ folder: URL) throws -> [String: String] {
        var files: [String: String] = [:]
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return files }
        while let relative = walker.nextObject() as? String {
            let url = folder.appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            let result = try run("sha256sum", [url.path])
            files[relative] = String(result.stdout.prefix(64))
        }
        return files
    }

    /// Every file of `before` is still there with the same bytes, except `rewritten` ones, which
    /// must still be whole (checked by the caller); nothing else appeared but `allowedNew`.
    static func expectIntact(
        _ before: [String: String], _ folder: URL, rewritten: Set<String> = [], _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let after = try snapshot(folder)
        for (name, digest) in before.sorted(by: { $0.key < $1.key }) where !rewritten.contains(name) {
            #expect(after[name] == digest, "\(what): \(name) was changed or removed", sourceLocation: sourceLocation)
        }
        for name in rewritten where before[name] != nil {
            #expect(after[name] != nil, "\(what): \(name) was removed", sourceLocation: sourceLocation)
        }
    }

    /// Every checksum file in `folder` still matches what it lists, and every JSON file parses.
    static func expectWhole(_ folder: URL, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for problem in try wholenessProblems(folder) {
            Issue.record("\(what): \(problem)", sourceLocation: sourceLocation)
        }
    }

    /// What is not whole in `folder`: a checksum file that does not match, or names a file that is
    /// gone (strict: no `--ignore-missing`), and JSON that does not parse. A folder that cannot be
    /// listed throws: it is not an empty one (issue 62).
    static func wholenessProblems(_ folder: URL) throws -> [String] {
        var problems: [String] = []
        for name in try folderNames(folder) where !name.hasPrefix(".") {
            if name == "SHA256SUMS" || name.hasSuffix(".sha256") {
                let check = try sh("sha256sum -c '\(name)'", in: folder)
                if check.status != 0 { problems.append("\(name) does not match: \(check)") }
            } else if name.hasSuffix(".json") {
                let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) ?? Data()
                if (try? JSONSerialization.jsonObject(with: data)) == nil { problems.append("\(name) is not whole") }
            }
        }
        return problems
    }

    // MARK: mounts

    /// A tmpfs mounted for one case: a disk that is full at a chosen byte, or read-only.
    final class Tmpfs {
        let url: URL
        private var mounted = true

        init(at url: URL, bytes: Int64) throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            let result = try run("mount", ["-t", "tmpfs", "-o", "size=\(Self.kib(bytes))k", "tmpfs", url.path])
            // Not a skip: CI runs as root on this machine kind; a case that cannot run fails.
            guard result.status == 0 else { throw TestFailure("cannot mount a tmpfs at \(url.path): \(result)") }
            self.url = url
        }

        deinit { unmount() }

        /// The bytes its files use now.
        var used: Int64 {
            var info = statvfs()
            guard statvfs(url.path, &info) == 0 else { return 0 }
            return Int64(info.f_blocks - info.f_bfree) * Int64(info.f_frsize)
        }

        /// Makes it hold exactly what it holds now plus `room` bytes (rounded to pages).
        func leave(room: Int64) throws {
            try remount("size=\(Self.kib(used + room))k")
        }

        func makeReadOnly() throws { try remount("ro") }

        func makeWritable() throws { try remount("rw") }

        private func remount(_ options: String) throws {
            let result = try run("mount", ["-o", "remount,\(options)", url.path])
            guard result.status == 0 else { throw TestFailure("cannot remount \(url.path) \(options): \(result)") }
        }

        func unmount() {
            guard mounted else { return }
            mounted = false
            _ = try? run("umount", [url.path])
        }

        /// Whole pages, at least one.
        private static func kib(_ bytes: Int64) -> Int64 { max(4, (bytes + 4095) / 4096 * 4) }
    }

    /// The bytes a file takes on its file system (whole pages on a tmpfs).
    static func allocated(_ url: URL) -> Int64 {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return 0 }
        return Int64(info.st_blocks) * 512
    }

    /// A file's length in bytes (what the shim's byte budget counts).
    static func length(_ url: URL) -> Int64 {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return 0 }
        return Int64(info.st_size)
    }

    // MARK: the EIO shim

    /// `Tests/Support/write_faults.c` built into `folder` (each test builds its own: a folder
    /// outlives only the test that made it).
    static func buildShim(in folder: URL) throws -> String {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Support/write_faults.c")
        let library = folder.appendingPathComponent("write_faults.so")
        let result = try run("gcc", ["-shared", "-fPIC", "-O2", "-Wall", "-o", library.path, source.path, "-ldl"])
        guard result.status == 0 else {
            throw TestFailure("cannot compile \(source.path) with gcc (scripts/install-deps --test): \(result)")
        }
        return library.path
    }

    /// The environment that loads the shim into relctl with `settings` (`RELCTL_FAULT_*`); the
    /// shim is built next to `log`. A test checks `log` exists afterwards: the shim did fail a call.
    static func shimEnvironment(under folder: URL, _ settings: [String: String], log: URL) throws -> [String: String] {
        var environment = settings
        let shim = log.deletingLastPathComponent().appendingPathComponent("write_faults.so")
        environment["LD_PRELOAD"] =
            FileManager.default.fileExists(atPath: shim.path)
            ? shim.path : try buildShim(in: log.deletingLastPathComponent())
        environment["RELCTL_FAULT_UNDER"] = folder.path
        environment["RELCTL_FAULT_LOG"] = log.path
        return environment
    }
}

/// A project with everything that writes: three archive formats through both writers (tar.gz
/// and zip through the chunk pipeline, tar.zst through libarchive alone), SBOMs, an image with a
/// layer per Linux target, a deb per Linux target, a Helm chart and a Homebrew formula. Its
/// binaries and payload are random bytes, so the files are about as big on disk as their inputs
/// (~1.2 MB per archive by default) and a small tmpfs fills where a test wants it to.
struct FaultProject {
    let url: URL
    var dist: URL { url.appendingPathComponent("dist") }
    static let triples = ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu", "x86_64-pc-windows-msvc"]
    static let environment = [
        "INSTALLER_BASE_URL": "https://downloads.example.com/demo/v1.0.0/", "SOURCE_DATE_EPOCH": "1700000000",
    ]

    static let config = """
        [project]
        name = "demo"
        description = \"\"\"A demo for the write-fault tests.
        It ships random bytes that do not compress.\"\"\"
        license = "MIT"
        homepage = "https://example.com/demo"
        maintainer = "Test User <test@example.com>"

        [[version]]
        path = "VERSION"

        [build]
        command = "sh build.sh {target}"
        binaries = ["demo"]
        binary-dir = "out/{target}"

        [[target]]
        triple = "x86_64-unknown-linux-gnu"
        [[target]]
        triple = "aarch64-unknown-linux-gnu"
        format = "tar.zst"
        [[target]]
        triple = "x86_64-pc-windows-msvc"

        [archive]
        files = ["README.md", "payload.bin"]

        [[image]]
        repository = "registry.example.com/acme/demo"
        entrypoint = ["demo"]

        [[package]]
        format = "deb"

        [[chart]]
        path = "charts/demo"

        [homebrew]
        tap = "/nonexistent/tap.git"
        description = "Demo"
        license = "MIT"

        """

    /// Creates the project in `folder` (which must exist) and builds it.
    /// - Parameter bytes: the size of the random binary and of the random payload; each archive
    ///   holds both.
    init(at folder: URL, bytes: Int = 600_000) throws {
        url = folder
        let files = [
            "relctl.toml": Self.config,
            "VERSION": "1.0.0\n",
            "README.md": "# demo\n",
            "LICENSE": "MIT\n",
            ".gitignore": "out/\ndist/\n",
            "build.sh": """
            set -eu
            mkdir -p "out/$1"
            case "$1" in *windows*) name=demo.exe ;; *) name=demo ;; esac
            { cat seed.bin; echo "$1"; } > "out/$1/$name"
            chmod +x "out/$1/$name"

            """,
            "charts/demo/Chart.yaml":
                "apiVersion: v2\nname: demo\ndescription: Demo\nversion: 1.0.0\nappVersion: \"1.0.0\"\n",
        ]
        for (path, text) in files {
            let file = url.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        // Random, so nothing compresses: `bytes` of binary and `bytes` of payload per archive.
        try Self.git(["init", "-q", "-b", "main"], in: url)
        for (name, size) in [("seed.bin", bytes), ("payload.bin", bytes)] {
            let result = try sh("head -c \(size) /dev/urandom > \(name)", in: url)
            guard result.status == 0 else { throw TestFailure("\(result)") }
        }
        try Self.git(["add", "-A"], in: url)
        try Self.git(["commit", "-q", "-m", "feat: start"], in: url)
        let build = try WriteFaults.relctl(["build"], in: url, environment: Self.environment)
        guard build.status == 0 else { throw TestFailure("the fixture's build failed: \(build)") }
    }

    @discardableResult
    static func git(_ arguments: [String], in directory: URL) throws -> String {
        let result = try run(
            "git",
            [
                "-c", "user.name=Test User", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false",
                "-c", "tag.gpgsign=false",
            ] + arguments,
            in: directory, environment: GitRepository.fixedEnvironment)
        guard result.status == 0 else { throw TestFailure("git \(arguments.joined(separator: " ")): \(result)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Adds an rpm `[[package]]` beside the deb one and commits it: the rpm writer (payload,
    /// header, signature) is another writer the faults must reach.
    func addRpmPackage() throws {
        let config = url.appendingPathComponent("relctl.toml")
        let text = try String(contentsOf: config, encoding: .utf8) + "\n[[package]]\nformat = \"rpm\"\n"
        try Data(text.utf8).write(to: config)
        try Self.git(["commit", "-q", "-am", "chore: an rpm too"], in: url)
    }

    /// Adds signed APT and DNF repositories (`relctl repository`) and an rpm beside the deb, signed
    /// with `key`, whose secret is written to `keyFile` (outside the project and dist/), and commits.
    func addRepositories(key: GPGKey, keyFile: URL) throws {
        try Data(key.secretArmored.utf8).write(to: keyFile)
        let config = url.appendingPathComponent("relctl.toml")
        let text =
            try String(contentsOf: config, encoding: .utf8)
            + "\n[[package]]\nformat = \"rpm\"\n\n[apt]\nsuite = \"stable\"\n\n[dnf]\nenabled = true\n\n"
            + "[repository]\nsigning-key = \"\(keyFile.path)\"\n"
        try Data(text.utf8).write(to: config)
        try Self.git(["commit", "-q", "-am", "chore: signed repositories"], in: url)
    }

    /// Adds `count` small files under `docs/` as an archive tree and commits them: the archive
    /// (their tar headers and texts compress well) stays far smaller than its SBOM, which lists
    /// every file with its SHA-256.
    func addDocsTree(count: Int) throws {
        let docs = url.appendingPathComponent("docs")
        try FileManager.default.createDirectory(at: docs, withIntermediateDirectories: true)
        for index in 0..<count {
            try Data("page \(index)\n".utf8).write(to: docs.appendingPathComponent("page-\(index).txt"))
        }
        let config = url.appendingPathComponent("relctl.toml")
        let text = try String(contentsOf: config, encoding: .utf8).replacingOccurrences(
            of: "[archive]\n", with: "[archive]\ntrees = [{ from = \"docs\", to = \"docs\" }]\n")
        try Data(text.utf8).write(to: config)
        try Self.git(["add", "-A"], in: url)
        try Self.git(["commit", "-q", "-m", "docs: many pages"], in: url)
    }

    /// The bytes scratch clones of the project take once built: `checkouts` times its tracked
    /// files, and the binaries the build writes (what a dry run, one checkout, or `reproduce`, a
    /// clone that the dry run within it clones again, writes before any archive).
    func builtTreeBytes(checkouts: Int64 = 1) throws -> Int64 {
        var total: Int64 = 0
        let tracked = try Self.git(["ls-files"], in: url).split(separator: "\n").map(String.init)
        for path in tracked { total += checkouts * WriteFaults.allocated(url.appendingPathComponent(path)) }
        let out = url.appendingPathComponent("out")
        if let walker = FileManager.default.enumerator(atPath: out.path) {
            while let relative = walker.nextObject() as? String {
                total += WriteFaults.allocated(out.appendingPathComponent(relative))
            }
        }
        return total
    }

    /// Runs relctl in the project; a step that must succeed.
    @discardableResult
    func succeed(_ arguments: [String], environment: [String: String] = [:]) throws -> WriteFaults.Outcome {
        let outcome = try WriteFaults.relctl(
            arguments, in: url, environment: Self.environment.merging(environment) { _, new in new })
        guard outcome.status == 0 else {
            throw TestFailure("relctl \(arguments.joined(separator: " ")) failed: \(outcome)")
        }
        return outcome
    }

    /// Runs relctl in the project, under a fault.
    func fault(
        _ arguments: [String], environment: [String: String] = [:], fileSizeKiB: Int? = nil
    ) throws -> WriteFaults.Outcome {
        try WriteFaults.relctl(
            arguments, in: url, environment: Self.environment.merging(environment) { _, new in new },
            fileSizeKiB: fileSizeKiB)
    }

    func tags() throws -> [String] {
        try Self.git(["tag", "--list"], in: url).split(separator: "\n").map(String.init)
    }
}
