import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// The layers docs/architecture.md draws, checked against what SwiftPM reads from Package.swift
/// and against the sources' imports: a lower layer never depends on a higher one.
@Suite("Layers", .timeLimit(.minutes(30)), .removesTemporaries)
struct LayerTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// Lowest first; a target may depend only on those before it.
    static let layers = [
        "RelctlBasics", "RelctlModel", "RelctlArtifacts", "RelctlChanges", "RelctlDistribution", "RelctlProject",
        "RelctlRelease",
    ]
    /// The domain layers, between the door and the release: one folder per area in each.
    static let domain = ["RelctlModel", "RelctlArtifacts", "RelctlChanges", "RelctlDistribution", "RelctlProject"]

    @Test func packageManifestDependsOnlyDownward() throws {
        let scratch = try TemporaryDirectory(prefix: "relctl-dump")
        let dump = try run(
            "swift", ["package", "--package-path", Self.root.path, "--scratch-path", scratch.path, "dump-package"])
        try #require(dump.status == 0, "\(dump)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        let targets = try #require(manifest["targets"] as? [[String: Any]])
        for (rank, layer) in Self.layers.enumerated() {
            let target = try #require(targets.first { $0["name"] as? String == layer }, "\(layer) is a target")
            // dump-package spells a dependency as {"byName": ["RelctlModel", null]} or {"product": [...]}.
            let names = ((target["dependencies"] as? [[String: Any]]) ?? []).compactMap {
                ($0["byName"] as? [Any])?.first as? String
            }
            let upward = names.filter { name in Self.layers.firstIndex(of: name).map { $0 >= rank } ?? false }
            #expect(upward.isEmpty, "\(layer) depends on \(upward)")
            #expect(Array(Self.layers.prefix(rank)).allSatisfy(names.contains), "\(layer) builds on \(names)")
        }
    }

    /// The compiler already refuses an import a target does not depend on; this names the file when
    /// someone adds the dependency to Package.swift too.
    @Test func noSourceImportsAHigherLayer() throws {
        var offenders: [String] = []
        for (rank, layer) in Self.layers.enumerated() {
            let folder = Self.root.appendingPathComponent("Sources/\(layer)")
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            #expect(files.count > 10, "\(layer) has its sources")
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for higher in Self.layers.suffix(from: rank + 1)
                where text.range(of: "import \(higher)\n") != nil {
                    offenders.append("\(layer)/\(file) imports \(higher)")
                }
            }
        }
        #expect(offenders.isEmpty, "\(offenders)")
    }

    /// Every top-level type the domain layers declare, by the folder (area) that declares it.
    static func coreTypeOwners() throws -> (
        owners: [String: String], files: [(area: String, path: String, text: String)]
    ) {
        let declaration =
            #/(?m)^(?:(?:public|package|internal|private|fileprivate|final|indirect) +)*(?:struct|enum|class|protocol|actor|typealias) +([A-Z]\w*)/#
        var owners: [String: String] = [:]
        var files: [(area: String, path: String, text: String)] = []
        for layer in Self.domain {
            let folder = Self.root.appendingPathComponent("Sources/\(layer)")
            let paths = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            for path in paths.sorted() where path.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
                let area = String(path.split(separator: "/")[0])
                files.append((area, "\(layer)/\(path)", text))
                for match in text.matches(of: declaration) where owners[String(match.1)] == nil {
                    owners[String(match.1)] = area
                }
            }
        }
        return (owners, files)
    }

    /// Source lines per target, for the rule that no layer is most of the code again (round 3's
    /// RelctlCore held 72% of it, one room for the compiler).
    static func sourceLines() throws -> [String: Int] {
        var lines: [String: Int] = [:]
        let sources = Self.root.appendingPathComponent("Sources")
        for target in try FileManager.default.contentsOfDirectory(atPath: sources.path) {
            let folder = sources.appendingPathComponent(target)
            let paths = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            for path in paths where path.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
                lines[target, default: 0] += text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
            }
        }
        return lines
    }

    @Test func noTargetHoldsMoreThanTwoFifthsOfTheSource() throws {
        let lines = try Self.sourceLines()
        let total = lines.values.reduce(0, +)
        #expect(total > 30_000, "counted the sources: \(lines)")
        for (target, count) in lines {
            #expect(count * 5 < total * 2, "\(target) holds \(count) of \(total) source lines (40% or more)")
        }
        #expect(Self.layers.count >= 7, "the door, five domain layers and the release")
    }

    /// libarchive, libdeflate and libsodium are linked by one target, so the unsafe pointers they
    /// bring stay in the layer that makes files, behind its Swift types.
    @Test func theCLibrariesAreLinkedByOneTarget() throws {
        let scratch = try TemporaryDirectory(prefix: "relctl-dump")
        let dump = try run(
            "swift", ["package", "--package-path", Self.root.path, "--scratch-path", scratch.path, "dump-package"])
        try #require(dump.status == 0, "\(dump)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        let targets = try #require(manifest["targets"] as? [[String: Any]])
        for library in ["CArchive", "CDeflate", "CSodium"] {
            let users = targets.filter { target in
                ((target["dependencies"] as? [[String: Any]]) ?? []).contains {
                    ($0["byName"] as? [Any])?.first as? String == library
                }
            }.compactMap { $0["name"] as? String }
            #expect(users == ["RelctlArtifacts"], "\(library) is linked by \(users)")
        }
        var importers: [String] = []
        let sources = Self.root.appendingPathComponent("Sources")
        for target in try FileManager.default.contentsOfDirectory(atPath: sources.path)
        where target != "RelctlArtifacts" {
            let folder = sources.appendingPathComponent(target)
            let paths = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            for path in paths where path.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
                if text.contains(#/(?m)^import C(Archive|Deflate|Sodium)$/#) { importers.append("\(target)/\(path)") }
            }
        }
        #expect(importers.isEmpty, "\(importers)")
    }

    /// `Config/` is the model of relctl.toml: the areas read it, so it names no area's type but
    /// the tag format's; reading and checking the file (which needs the registries) is
    /// `ConfigLoading/`, which only the project checks, the workspace (a member's own relctl.toml)
    /// and the layers above use.
    @Test func theConfigModelReachesIntoNoAreaAndNoAreaLoadsConfigs() throws {
        let (owners, files) = try Self.coreTypeOwners()
        // Simple (ASCII) boundaries: with the default Unicode ones this Swift's `\b` matches nothing here.
        let word = #/\b[A-Z]\w*\b/#.wordBoundaryKind(.simple)
        var offenders: Set<String> = []
        for file in files {
            // Comments and string literals name types without depending on them.
            let code = file.text.split(separator: "\n").map { line in
                line.replacing(#/\/\/.*/#, with: "").replacing(#/"(?:[^"\\]|\\.)*"/#, with: "\"\"")
            }.joined(separator: "\n")
            let named = Set(code.matches(of: word).map { String($0.output) })
            if file.area == "Config" {
                for type in named {
                    if let owner = owners[type], owner != "Config", owner != "Versioning" {
                        offenders.insert("\(file.path) names \(owner)'s \(type)")
                    }
                }
            } else if !["ConfigLoading", "Project", "Workspace"].contains(file.area) {
                for type in ["ConfigLoader", "TableReader"] where named.contains(type) {
                    offenders.insert("\(file.path) names \(type)")
                }
            }
        }
        #expect(offenders.isEmpty, "\(offenders.sorted())")
        #expect(owners["RelctlConfig"] == "Config" && owners["ConfigLoader"] == "ConfigLoading")
    }

    /// The filesystem door: above RelctlBasics nothing calls the file system's system calls
    /// itself (FileStatus, ReadableFile, AtomicFile, FileSystem do), so every path is handled,
    /// reported and made atomic one way.
    @Test func systemCallsGoThroughTheFilesystemDoor() throws {
        let call =
            #/(^|[^\w.])(lstat|fstat|stat|open|openat|link|linkat|unlink|rename|renameat|realpath|readlink|symlink|mkdir|rmdir|fsync|ftruncate|access|utimensat|futimens|fchmod|chmod)\(/#
        var offenders: Set<String> = []
        for layer in Self.layers.dropFirst() + ["RelctlCommands"] {
            let folder = Self.root.appendingPathComponent("Sources/\(layer)")
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                // Code lines, without string literals (`"link(s) added"`) or enum cases (`case symlink(`).
                let code = text.split(separator: "\n").map {
                    $0.replacing(#/"([^"\\]|\\.)*"/#, with: "\"\"")
                }.filter {
                    let line = $0.trimmingCharacters(in: .whitespaces)
                    return !line.hasPrefix("//") && !line.hasPrefix("case ") && !line.contains("func ")
                }
                if code.contains(where: { $0.contains(call) }) { offenders.insert("\(layer)/\(file)") }
            }
        }
        #expect(offenders.isEmpty, "call FileSystem/FileStatus/ReadableFile/AtomicFile instead: \(offenders.sorted())")
    }

    /// A tag is read in two places (issue 41): the identity resolver, where the tag a command is
    /// handed becomes the release's identity once, and `TagReader`, for the tags relctl finds (the
    /// history, a workspace's member tags, a forge's releases, archive names). Everything else takes
    /// the identity or its version; and only the resolver asks `TagValidator` about a tag.
    @Test func tagsAreReadInTwoPlaces() throws {
        let parser =
            #/\.(version|reading|respelling|inner)\(of:|tolerantVersion\(|[Ff]ormat\.matches\(|learningSpelling\(from:/#
        let validator = #/TagValidator\.(validate|checkName)\(/#
        var parsing: Set<String> = []
        var validating: Set<String> = []
        let sources = Self.root.appendingPathComponent("Sources")
        for target in try FileManager.default.contentsOfDirectory(atPath: sources.path) {
            let folder = sources.appendingPathComponent(target)
            let paths = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            for path in paths
            where path.hasSuffix(".swift") && "\(target)/\(path)" != "RelctlModel/Versioning/TagFormat.swift" {
                let text = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
                // Code only: doc comments name the parser without calling it.
                let code = text.split(separator: "\n").map { $0.replacing(#/\/\/.*/#, with: "") }
                if code.contains(where: { $0.contains(parser) }) { parsing.insert("\(target)/\(path)") }
                if code.contains(where: { $0.contains(validator) }) { validating.insert("\(target)/\(path)") }
            }
        }
        let resolver = "RelctlModel/Identity/ReleaseIdentity+Resolve.swift"
        let reader = "RelctlModel/Versioning/TagReader.swift"
        #expect(parsing == [resolver, reader], "TagFormat's parser is called from \(parsing.sorted())")
        #expect(validating == [resolver], "TagValidator is asked about a tag from \(validating.sorted())")
    }

    /// Foundation's FileManager is a second door to the file system (it follows links and reads
    /// without limits by default), so only RelctlBasics may use it.
    @Test func onlyTheDoorUsesFileManager() throws {
        var offenders: [String] = []
        for layer in Self.layers.dropFirst() + ["RelctlCommands", "relctl"] {
            let folder = Self.root.appendingPathComponent("Sources/\(layer)")
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                let code = text.split(separator: "\n").filter {
                    !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//")
                }
                if code.contains(where: { $0.contains("FileManager") }) { offenders.append("\(layer)/\(file)") }
            }
        }
        #expect(offenders.isEmpty, "use FileSystem (RelctlBasics) instead of FileManager: \(offenders.sorted())")
    }

    /// The read rule (issue 55): above the door, a file relctl reads from the project or from a
    /// `previous` source is opened only through `ProjectFile` (ConfinedPath against the
    /// repository, project or previous folder: a link leading outside is refused, exit 2). The raw
    /// ways to read a file (`FileSystem.contents`/`prefix`/`copy`, `TextFile.read`,
    /// `ReadableFile(path:)`, `FileHandle(forReadingAtPath:)`, `String`/`Data(contentsOf:)`) are
    /// left only where what is read is not a project file, each file with how many such calls it
    /// holds and why; a new raw read anywhere, an allowed file's count changing, or an entry no
    /// longer needed fails here, so each one is looked at.
    static let rawReads: [String: (count: Int, reason: String)] = [
        "RelctlArtifacts/WindowsInstaller/MSIBuilder.swift": (
            3, "the build's binaries (found as the archives' are) copied into relctl's scratch folder; the MSI wixl and osslsigncode wrote there"
        ),
        // relctl's own output: dist/, scratch copies it wrote, caches, its lock.
        "RelctlArtifacts/Provenance/ProvenanceVerifier.swift": (1, "the provenance document in dist/, relctl's output"),
        "RelctlArtifacts/Installer/InstallerWriter.swift": (1, "dist/SHA256SUMS, relctl's output"),
        "RelctlArtifacts/Checksums/DigestMemo.swift": (1, "relctl's digest memo in dist/"),
        "RelctlArtifacts/Checksums/FileHasher.swift": (1, "hashes files relctl built or a checked path names"),
        "RelctlArtifacts/Checksums/ReleaseManifest.swift": (2, "dist/manifest.json, relctl's output"),
        "RelctlArtifacts/Npm/NpmTarball.swift": (1, "an [npm] package in dist/, relctl's output, read to publish it"),
        "RelctlArtifacts/Checksums/ChecksumFile.swift": (
            2, "a SHA256SUMS list in dist/ (relctl's) or one `verify` is given"
        ),
        "RelctlArtifacts/Images/LayerCache.swift": (3, "the layer cache under ~/.cache/relctl, hashed again on use"),
        "RelctlArtifacts/Images/StreamedBlobUpload.swift": (1, "an image layer relctl wrote"),
        "RelctlArtifacts/Images/ELFInterpreter.swift": (1, "a built binary's ELF header"),
        "RelctlArtifacts/Packaging/BinaryHeader.swift": (
            1, "a built binary's header (ELF, Mach-O, PE), found by the packager's contained binary walk"
        ),
        "RelctlArtifacts/Signing/Authenticode/AuthenticodeKey.swift": (
            1, "the PKCS#12 file `RELCTL_WINDOWS_KEY` names (a CI secret's file; `signing-key` goes through ProjectFile)"
        ),
        "RelctlArtifacts/Signing/Authenticode/AuthenticodeSigner+Layout.swift": (
            2, "a built .exe the packager's contained layout holds, and the MSI builder's scratch copy of one, read to sign it"
        ),
        "RelctlArtifacts/Packaging/FatMachO.swift": (
            2, "the two built macOS slices it joins (read once to check, once to join)"
        ),
        "RelctlArtifacts/PythonWheels/ELFVersionNeeds.swift": (
            1, "a built binary's ELF section headers and .gnu.version_r"
        ),
        "RelctlArtifacts/PythonWheels/PythonWheelBuilder.swift": (1, "a built binary, hashed for the wheel's RECORD"),
        "RelctlDistribution/Publishing/PyPIPublisher.swift": (
            2, "the wheels relctl wrote in dist/ (hashed again, then sent), listed by its own manifest.json"
        ),
        "RelctlArtifacts/Images/OCILayoutWriter.swift": (1, "a base-image blob from relctl's cache"),
        "RelctlArtifacts/Images/BaseImageStore.swift": (2, "registry answers and blobs relctl downloaded"),
        "RelctlArtifacts/Images/ImagePusher.swift": (1, "the OCI layout relctl wrote"),
        "RelctlArtifacts/Images/DockerCredentials.swift": (1, "the user's Docker config (~/.docker/config.json)"),
        "RelctlArtifacts/Repositories/AptRepository.swift": (
            2, "this release's .debs in dist/ and the verified scratch copy of `previous` (RemoteRepository)"
        ),
        "RelctlArtifacts/Repositories/DnfRepository.swift": (
            1, "this release's .rpms in dist/ and the verified scratch copy of `previous`"
        ),
        "RelctlArtifacts/Repositories/RemoteRepository.swift": (
            2, "reads back the scratch copy it just verified (the folder itself is read through ProjectFile)"
        ),
        "RelctlArtifacts/Repositories/RepositoryBuilder.swift": (
            2, "the repository signing key the config names (a secret, never published) and dist/SHA256SUMS"
        ),
        "RelctlArtifacts/Repositories/RepositoryVerifier.swift": (
            7, "the repository relctl wrote in dist/, and its key"
        ),
        "RelctlArtifacts/Repositories/RpmHeaderReader.swift": (1, "an .rpm in dist/ or the verified scratch copy"),
        "RelctlArtifacts/LinuxPackages/PackagedFile.swift": (
            1, "streams a package's files: built binaries and `[[package]] files` opened through ProjectFile"
        ),
        "RelctlArtifacts/LinuxPackages/PackageFileWriter.swift": (1, "the package relctl is writing"),
        "RelctlArtifacts/Packaging/LibArchiveWriter.swift": (
            1, "streams archive entries Containment has held to the project through ProjectFile"
        ),
        "RelctlArtifacts/Packaging/ZipArchiveWriter.swift": (
            1, "streams archive entries Containment has held to the project through ProjectFile"
        ),
        "RelctlDistribution/Channels/TapRepository.swift": (2, "channel files relctl generated into dist/"),
        "RelctlDistribution/Channels/HelmChartPusher.swift": (1, "the chart package relctl wrote into dist/"),
        "RelctlDistribution/Channels/HelmDependencyFetcher.swift": (1, "a chart layer relctl downloaded and checks"),
        "RelctlRelease/Release/ReleaseLock.swift": (2, "git's own `.git` file and relctl's lock in the git directory"),
        "RelctlRelease/Release/ReleaseLock+Unreadable.swift": (2, "relctl's lock file"),
        "RelctlRelease/Release/ReleaseRecovery.swift": (1, "/proc/PID/cmdline"),
        "RelctlRelease/Reproduce/FileComparison.swift": (1, "two builds' outputs being compared"),
        "RelctlRelease/Reproduce/Reproducer.swift": (1, "the rebuilt dist/manifest.json"),
        "RelctlRelease/Reproduce/PublishedRelease.swift": (2, "files downloaded from the published release"),
        "RelctlCommands/Publish.swift": (1, "dist/RELEASE_NOTES.md, relctl's output"),
        // Secrets the configuration or environment names, often outside the project on purpose
        // (~/.config/relctl/…): only a signature or public half ever leaves the machine.
        "RelctlArtifacts/LinuxPackages/RpmSigningKey.swift": (1, "the rpm signing key (a secret the config names)"),
        "RelctlArtifacts/Signing/SigningKeys.swift": (1, "a [sign] key (a secret the config names)"),
        "RelctlArtifacts/Signing/MinisignSignature.swift": (1, "a minisign key or signature `verify` is given"),
        "RelctlArtifacts/Signing/Sodium.swift": (1, "hashes a file in dist/ for its signature"),
        "RelctlArtifacts/Signing/ReleaseSigner.swift": (1, "SHA256SUMS in dist/, the file it signs"),
        "RelctlArtifacts/Signing/SignatureVerifier.swift": (
            4, "`verify`'s inputs: dist/'s signatures and the allowed_signers it is given"
        ),
    ]

    /// `ProjectFile.open(location:)` holds a file only to its own folder; it is for a location the
    /// read rule (or `WriteTarget`) already resolved, or one found by walking up as a tool does.
    /// Each use, by file, with why no wider root applies.
    static let ownFolderReads: [String: (count: Int, reason: String)] = [
        "RelctlModel/Companions/CargoWorkspace.swift": (3, "walks up to the Cargo workspace root as cargo does"),
        "RelctlModel/Companions/CompanionFinder.swift": (4, "companions of a manifest the rule resolved; a lock above"),
        "RelctlModel/Manifests/CargoManifestReader.swift": (
            2, "the resolved manifest, and an inherited workspace root"
        ),
        "RelctlModel/Manifests/ManifestReaders.swift": (1, "ManifestText: the manifest `read` resolved in the project"),
        "RelctlModel/Manifests/PythonManifestReader.swift": (1, "the manifest `ManifestReaders.read` resolved"),
        "RelctlRelease/Train/Workspace.swift": (1, "the train's workspace file the command line names"),
        "RelctlRelease/Train/PinPlan.swift": (1, "WriteTarget's location, resolved in the pinned repository"),
        "RelctlChanges/Notes/VersionBump.swift": (2, "WriteTarget's location, resolved in the repository"),
        "RelctlProject/Workspace/WorkspaceDependencies.swift": (3, "member manifests in folders resolved as members"),
        "RelctlProject/Workspace/DependentRequirements.swift": (
            2, "member manifests, and the workspace lock above them"
        ),
        "RelctlProject/Workspace/WorkspaceMembers.swift": (
            1, "the workspace relctl.toml found walking up to git's top"
        ),
        "RelctlProject/ConfigLoading/ConfigLoader.swift": (1, "relctl.toml, held to the project folder it defines"),
        "RelctlProject/Project/StarterConfig.swift": (2, "init's detection of manifests in member folders"),
    ]

    @Test func projectFilesAreOpenedOnlyThroughProjectFile() throws {
        let raw =
            #/FileSystem\.contents\(|FileSystem\.prefix\(|FileSystem\.copy\(|TextFile\.read\(|ReadableFile\(path|FileHandle\(forReadingAt|String\(contentsOf|Data\(contentsOf|TOMLDocument\(contentsOf/#
        var found: [String: Int] = [:]
        for layer in Self.layers.dropFirst() + ["RelctlCommands", "relctl"] {
            let folder = Self.root.appendingPathComponent("Sources/\(layer)")
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                let count = text.split(separator: "\n").filter {
                    !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//")
                }.reduce(0) { $0 + $1.matches(of: raw).count }
                if count > 0 { found["\(layer)/\(file)"] = count }
            }
        }
        var offenders: [String] = []
        for (file, count) in found.sorted(by: { $0.key < $1.key }) {
            guard let allowed = Self.rawReads[file] else {
                offenders.append("\(file) reads \(count) file(s) without ProjectFile")
                continue
            }
            if allowed.count != count {
                offenders.append("\(file) holds \(count) raw reads, \(allowed.count) allowed (\(allowed.reason))")
            }
        }
        for file in Self.rawReads.keys.sorted() where found[file] == nil {
            offenders.append("\(file) no longer reads raw: drop it from LayerTests.rawReads")
        }
        #expect(offenders.isEmpty, "open project files through ProjectFile.open: \(offenders)")
        var ownFolder: [String] = []
        for layer in Self.layers.dropFirst() + ["RelctlCommands", "relctl"] {
            let folder = Self.root.appendingPathComponent("Sources/\(layer)")
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                let count = text.components(separatedBy: "ProjectFile.open(location:").count - 1
                let allowed = Self.ownFolderReads["\(layer)/\(file)"]?.count ?? 0
                if count != allowed { ownFolder.append("\(layer)/\(file): \(count), \(allowed) allowed") }
            }
        }
        #expect(ownFolder.isEmpty, "open through the project's root, not the file's own folder: \(ownFolder)")
        // The door itself: ProjectFile is made only by `open`, which goes through ConfinedPath.
        let door = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/RelctlBasics/Support/ProjectFile.swift"),
            encoding: .utf8)
        #expect(door.contains("private init(") && door.contains("ConfinedPath.resolveInside("))
        #expect(!door.contains(#/(?m)^\s*(public|package|internal)\s+init\(/#), "ProjectFile has one way in")
    }
}
