import Foundation
import RelctlBasics
import RelctlModel

/// Packages targets into reproducible archives in an output folder: the core of `relctl package`,
/// also called by `relctl release`.
public struct Packager: Sendable {
    package var context: Context

    public init(context: Context) {
        self.context = context
    }

    /// Computes and checks every layout, then writes the archives concurrently (at most `jobs` at a
    /// time), each with its `.sha256`, and updates `manifest.json` when `updateManifest`.
    /// `inputs` is the release's identity (`ReleaseIdentity.packagingInputs`), resolved once by
    /// `relctl package` (`.packaging`: the tag matches the manifests and names HEAD) or the release.
    /// With `updateManifest` false the caller writes `manifest.json` itself, from the returned
    /// artifacts, so it is written once per release.
    /// - Parameters:
    ///   - binaryRoot: read binaries from here instead of the project (prebuilt artifacts).
    ///   - jobs: concurrent archives; nil means one per core.
    ///   - clean: remove this tag's archives for these targets first; without it an existing archive is an error.
    ///   - keysRoot: where `[windows] signing-key` is found (the project, also when `config` is a
    ///     dry run's scratch clone that lacks git-ignored key folders); nil: the config's root.
    /// - Returns: the artifacts in target order.
    public func package(
        config: RelctlConfig, inputs: PackagingInputs, targets: [Target], outputDirectory: URL,
        binaryRoot: URL? = nil, jobs: Int? = nil, clean: Bool = false, keysRoot: URL? = nil,
        updateManifest: Bool, onArchive: @escaping @Sendable (PackagedArtifact) -> Void = { _ in }
    ) async throws -> [PackagedArtifact] {
        guard !targets.isEmpty else {
            throw PackagingError.noTargets(config: config.path)
        }
        // `[windows]`: the key is read before anything runs or is written (a wrong password is exit 2 here).
        let signer =
            targets.contains(where: { TargetTriple($0.triple).isWindows })
            ? try AuthenticodeSigner.load(config: config, keysRoot: keysRoot ?? config.root, context: context) : nil
        let placeholders = ReleaseNames(project: config.project.name, version: inputs.version, tag: inputs.tag)
            .placeholders()
        let staged = try await stage(config: config, targets: targets, placeholders: placeholders)
        let joined: [String: URL]
        do {
            joined = try joinUniversal(
                config: config, targets: targets, placeholders: placeholders, binaryRoot: binaryRoot)
        } catch {
            for folder in staged.values {
                try? FileSystem.remove(folder)
                CleanupRegistry.shared.unregister(folder)
            }
            throw error
        }
        defer {
            for folder in staged.values.map({ $0 }) + joined.values.map({ $0 }) {
                try? FileSystem.remove(folder)
                CleanupRegistry.shared.unregister(folder)
            }
        }
        var plans = try await plan(
            config: config, targets: targets, placeholders: placeholders, binaryRoot: binaryRoot,
            outputDirectory: outputDirectory, staged: staged, joined: joined)
        // Every `.exe` of a Windows target is signed before it is archived, so the archive, its
        // checksums and its SBOM carry the signed bytes.
        if let signer {
            var signed: [String: Data] = [:]
            for index in plans.indices where TargetTriple(plans[index].target.triple).isWindows {
                try await signer.signExecutables(
                    in: &plans[index].layout, target: plans[index].target.triple, signed: &signed)
            }
        }

        // `format = "artifactbundle"`: the one release-wide SwiftPM bundle, checked with the archives.
        let bundle = try bundleLayout(
            config: config, targets: targets, version: inputs.version, binaryRoot: binaryRoot, joined: joined)

        // Lockfiles are read before anything is written, so a broken one stops the run cleanly.
        let dependencies = config.sbom.enabled ? try LockfileDependencies.read(root: config.root) : []
        let package =
            config.sbom.enabled
            ? ProjectPackage.find(root: config.root, project: config.project.name, version: inputs.version) : nil
        // Every check that can refuse the run is done: only now may --clean delete anything.
        let existingManifest = try prepareOutputFolder(
            outputDirectory, for: plans.map(\.layout) + (bundle.map { [$0] } ?? []), clean: clean)

        let usesZip = plans.contains { $0.format.earliestTime > 0 } || bundle != nil
        if usesZip { UTCTimeZoneScope.enter() }
        defer { if usesZip { UTCTimeZoneScope.leave() } }

        let level = config.archive.compressionLevel
        if let level {
            for format in Set(plans.map(\.format.id)).sorted() {
                guard let writer = ArchiveWriterFormats.all[format], !writer.levels.contains(level) else { continue }
                let range = writer.levels, used = writer.effectiveLevel(level)
                context.console.warning(
                    "\(config.path): compression-level \(level) is outside \(format)'s \(range.lowerBound)-\(range.upperBound); \(format) archives use \(used)"
                )
            }
        }
        let sbomEnabled = config.sbom.enabled
        let project = config.project.name
        let version = inputs.version
        let tag = inputs.tag
        let context = self.context
        let mtime = inputs.mtime
        let limit = ParallelJobs.count(jobs)
        // Cores left over when there are fewer archives than `limit` (the CI case: one target per
        // runner) compress inside each archive; the total stays `limit`.
        let workers = max(1, limit / max(1, min(limit, plans.count)))
        let alsoSHA512 =
            config.checksum.algorithm.lowercased().replacingOccurrences(of: "-", with: "")
            == ChecksumAlgorithm.sha512.rawValue
        // ArchiveFile runs libarchive and libdeflate on threads of their own (BlockingWork), so
        // `limit` archives really are written at once and the cooperative pool stays free for progress.
        // Slowest formats first (xz compresses on one thread; zip, per byte, a little slower than
        // tar.gz: its chunks are also walked to join them), so the longest archive is not the last
        // to start and the wall time is the longest, not a sum.
        let order = plans.indices.sorted {
            Self.startOrder(plans[$0].format.id) < Self.startOrder(plans[$1].format.id)
                || (Self.startOrder(plans[$0].format.id) == Self.startOrder(plans[$1].format.id) && $0 < $1)
        }
        // The first storage fault (a full disk, a file-size limit, a read-only or failing disk)
        // stops the other archives: theirs would fail the same way, and a full disk must not
        // keep relctl busy for minutes. Archives already finished stay, with their checksums.
        var firstFault: Int?
        let started = await ParallelJobs.map(
            order.map { plans[$0] }, limit: limit,
            finished: { slot, result in
                switch result {
                case .success(let artifact):
                    report(artifact)
                    onArchive(artifact)
                case .failure(let error):
                    if firstFault == nil, StorageFault.code(of: error) != nil { firstFault = order[slot] }
                }
            },
            stopsTheRest: { result in
                if case .failure(let error) = result { return StorageFault.code(of: error) != nil }
                return false
            }
        ) { plan -> Result<PackagedArtifact, any Error> in
            do {
                context.console.detail("writing \(plan.layout.fileName)")
                let started = context.clock.now()
                let url = outputDirectory.appendingPathComponent(plan.layout.fileName)
                let sbomBox = SBOMBox()
                let written = try await ArchiveFile.write(
                    plan.layout, format: plan.format, level: level, mtime: mtime, workers: workers,
                    to: url, alsoSHA512: alsoSHA512, recordFiles: sbomEnabled
                ) { written in
                    try ChecksumWriter.writeSidecar(for: url, digest: written.sha256)
                    guard sbomEnabled else { return }
                    let subject = SBOMBuilder.Subject(
                        project: project, tag: tag, version: version, archiveName: plan.layout.fileName,
                        archiveSHA256: written.sha256,
                        time: min(max(mtime, plan.format.earliestTime), plan.format.latestTime), files: written.files,
                        package: package)
                    do {
                        sbomBox.set(
                            try SBOMBuilder.write(
                                subject, dependencies: dependencies, stem: plan.layout.sbomStem, in: outputDirectory))
                    } catch {
                        // The archive goes too (ArchiveFile removes it): no sidecar without its archive.
                        FileSystem.removeFile(atPath: url.path + ChecksumAlgorithm.sha256.fileExtension)
                        throw error
                    }
                }
                // The SBOM describes this target's archive: it carries the target too.
                var sbom = sbomBox.value
                sbom?.target = plan.target.triple
                let archive = Artifact(
                    name: plan.layout.fileName, kind: .archive, target: plan.target.triple, format: plan.format.id,
                    size: written.size, sha256: written.sha256, sha512: written.sha512, path: url.path,
                    producedBy: .package)
                return .success(
                    PackagedArtifact(
                        artifact: archive, entries: written.entries, seconds: context.clock.seconds(since: started),
                        sbom: sbom))
            } catch {
                return .failure(error)
            }
        }
        var results = started
        for (slot, index) in order.enumerated() { results[index] = started[slot] }

        var artifacts = results.compactMap { try? $0.get() }
        // After a storage fault: that one fault (the others' are the same disk saying the same),
        // the other failures of their own, and no word of the archives it cancelled.
        var failures = results.indices.compactMap { index -> (any RelctlError)? in
            guard case .failure(let error) = results[index] else { return nil }
            if firstFault != nil, index != firstFault, error is CancellationError || StorageFault.code(of: error) != nil
            {
                return nil
            }
            return error as? RelctlError
                ?? PackagingError.targetFailed(target: plans[index].target.triple, reason: "\(error)")
        }
        // The bundle holds every target's binaries: written once they all packaged.
        if let bundle, failures.isEmpty {
            do {
                let written = try await writeBundle(
                    bundle, level: level, mtime: mtime, workers: limit, alsoSHA512: alsoSHA512, in: outputDirectory)
                report(written)
                artifacts.append(written)
            } catch {
                failures.append(
                    error as? RelctlError
                        ?? PackagingError.targetFailed(target: ArtifactBundle.format, reason: "\(error)"))
            }
        }
        if updateManifest, !artifacts.isEmpty || (clean && existingManifest != nil) {
            let cleaned: Set<String> =
                clean
                ? Set(
                    (plans.map(\.layout) + (bundle.map { [$0] } ?? [])).flatMap { layout in
                        ArchiveFormats.ids.map { layout.name + ArchiveFormats.fileExtension($0) }
                    }) : []
            do {
                try self.updateManifest(
                    in: outputDirectory, cleaned: cleaned, config: config, inputs: inputs, artifacts: artifacts)
            } catch let error as RelctlError {
                // The manifest is written atomically: on a full disk the previous one stays whole.
                if firstFault == nil || StorageFault.code(of: error) == nil { failures.append(error) }
            }
        }
        if !failures.isEmpty { throw ProblemList(failures) }
        return artifacts
    }

    /// `format = "artifactbundle"` (issue 58, item 6): the layout of the one SwiftPM bundle holding
    /// the binaries of every Apple and Linux target that asks for it (a universal target's joined
    /// binaries); nil when none asks. A Windows target is left out with a warning; when only such
    /// targets ask, the run is refused (exit 2), and a missing binary is refused like an archive's.
    private func bundleLayout(
        config: RelctlConfig, targets: [Target], version: String, binaryRoot: URL?, joined: [String: URL]
    ) throws -> ArchiveLayout? {
        let asking = targets.filter { $0.formats.contains(ArtifactBundle.format) }
        guard !asking.isEmpty else { return nil }
        // A run of some targets (a per-target CI job) would write a partial bundle under the
        // release-wide name: the bundle is made only where every target asking for it is packaged.
        let configured = config.targets.filter {
            $0.format == ArtifactBundle.format || $0.extraFormats.contains(ArtifactBundle.format)
        }
        let left = configured.map(\.triple).filter { triple in !asking.contains { $0.triple == triple } }
        if !left.isEmpty {
            context.console.warning(
                "\(config.path): no artifact bundle written: it holds every target asking for it, and this run does not package \(left.joined(separator: ", ")) (package all targets, or use --artifacts DIR in the merge job)"
            )
            return nil
        }
        let served = asking.filter { ArtifactBundle.swiftTriples($0.triple) != nil }
        guard !served.isEmpty else {
            throw PackagingError.artifactBundleWithoutTargets(config: config.path, targets: asking.map(\.triple))
        }
        for target in asking where ArtifactBundle.swiftTriples(target.triple) == nil {
            context.console.warning(
                "\(config.path): \(target.triple) is left out of the artifact bundle (SwiftPM bundles hold Apple and Linux executables)"
            )
        }
        var missing: [PackagingError] = []
        var variants: [ArtifactBundle.Variant] = []
        for target in served {
            let built = ArchiveLayout.builtBinaries(config: config, target: target, override: binaryRoot).binaries
            var binaries: [(name: String, source: URL)] = []
            for (binary, file) in zip(config.build.binaries, built) {
                let source = joined[target.triple]?.appendingPathComponent(file.fileName) ?? file.source
                if FileKind.isRegularFile(source.path) {
                    binaries.append((binary, source))
                } else if !file.optional {
                    missing.append(.missingBinary(binary: binary, path: source.path, target: target.triple))
                }
            }
            variants.append(ArtifactBundle.Variant(triple: target.triple, binaries: binaries))
        }
        try LayoutProblems.raise(missing)
        return try ArtifactBundle.layout(
            project: config.project.name, version: version, binaries: config.build.binaries, variants: variants)
    }

    /// Writes the bundle with its `.sha256`; its SHA-256 is SwiftPM's `compute-checksum`.
    private func writeBundle(
        _ layout: ArchiveLayout, level: Int?, mtime: Int, workers: Int, alsoSHA512: Bool, in directory: URL
    ) async throws -> PackagedArtifact {
        context.console.detail("writing \(layout.fileName)")
        let started = context.clock.now()
        let url = directory.appendingPathComponent(layout.fileName)
        let written = try await ArchiveFile.write(
            layout, format: try ArchiveWriterFormats.format("zip"), level: level, mtime: mtime, workers: workers,
            to: url, alsoSHA512: alsoSHA512
        ) { written in
            try ChecksumWriter.writeSidecar(for: url, digest: written.sha256)
        }
        let artifact = Artifact(
            name: layout.fileName, kind: .archive, target: "", format: ArtifactBundle.format, size: written.size,
            sha256: written.sha256, sha512: written.sha512, path: url.path, producedBy: .package)
        return PackagedArtifact(
            artifact: artifact, entries: written.entries, seconds: context.clock.seconds(since: started), sbom: nil)
    }

    /// `[archive] stage`: runs the command once per target in an empty folder of its own (what it
    /// writes there goes to the archive's root), before any layout is computed, so its files are
    /// checked like every other entry. Returns the folders by triple.
    private func stage(
        config: RelctlConfig, targets: [Target], placeholders: [String: String]
    ) async throws -> [String: URL] {
        guard let command = config.archive.stage else { return [:] }
        var folders: [String: URL] = [:]
        do {
            for target in targets {
                var values = placeholders
                for (key, value) in target.placeholders { values[key] = value }
                let folder = Temporaries.scratchURL("stage-\(target.triple)")
                try CleanupRegistry.shared.makeDirectory(folder)
                folders[target.triple] = folder
                var environment = context.environment
                environment["RELCTL_TARGET"] = target.triple
                ReleaseNames(
                    project: values["project"] ?? "", version: values["version"] ?? "", tag: values["tag"] ?? ""
                )
                .export(into: &environment)
                environment["RELCTL_ROOT"] = config.root.path
                environment["RELCTL_ARCHIVE"] = config.archiveName(for: target).render(values)
                let line = command.renderForShell(values)
                let result = try await context.processes.run(.shell(line, directory: folder, environment: environment))
                guard result.succeeded else {
                    throw CommandError(
                        command: "[archive] stage for \(target.triple): \(line)", status: result.status,
                        output: result.stderrText + result.stdoutText)
                }
            }
        } catch {
            for folder in folders.values {
                try? FileSystem.remove(folder)
                CleanupRegistry.shared.unregister(folder)
            }
            throw error
        }
        return folders
    }

    /// `universal-apple-darwin`: each binary joined from the two macOS targets' binaries into one
    /// fat Mach-O, in a scratch folder per universal target (returned by triple), before any layout
    /// is computed. A slice that is missing or no thin Mach-O of its CPU stops the run.
    private func joinUniversal(
        config: RelctlConfig, targets: [Target], placeholders: [String: String], binaryRoot: URL?
    ) throws -> [String: URL] {
        var folders: [String: URL] = [:]
        do {
            for target in targets where target.isUniversal {
                let slices = try TargetTriple.universalSlices.map { triple -> Target in
                    guard let settings = config.targets.first(where: { $0.triple == triple }) else {
                        throw PackagingError.missingSource(path: triple, key: "[[target]] of \(target.triple)")
                    }
                    return try TargetResolver.resolve(settings)
                }
                let folder = Temporaries.scratchURL("universal-\(target.triple)")
                try CleanupRegistry.shared.makeDirectory(folder)
                folders[target.triple] = folder
                var missing: [PackagingError] = []
                for binary in config.build.binaries {
                    let sources = slices.map { slice -> URL in
                        var values = placeholders
                        for (key, value) in slice.placeholders { values[key] = value }
                        let settings = config.targets.first { $0.triple == slice.triple }
                        let directory = (settings?.binaryDirectory ?? config.build.binaryDirectory).render(values)
                        return ArchiveLayout.locateBinary(
                            slice.executableName(binary), directory: directory, root: config.root,
                            override: binaryRoot, triple: slice.triple)
                    }
                    let absent = sources.filter { !FileKind.isRegularFile($0.path) }
                    if absent.count == sources.count, config.build.optionalBinaries.contains(binary) { continue }
                    for (slice, source) in zip(slices, sources) where absent.contains(source) {
                        missing.append(.missingBinary(binary: binary, path: source.path, target: slice.triple))
                    }
                    guard absent.isEmpty else { continue }
                    var thin: [FatMachO.Slice] = []
                    for (slice, source) in zip(slices, sources) {
                        let header = try BinaryHeader.read(path: source.path)
                        if let header, let reason = header.mismatch(for: slice) {
                            throw PackagingError.wrongPlatform(
                                binary: binary, path: source.path, target: slice.triple, found: header.summary,
                                reason: reason)
                        }
                        thin.append(try FatMachO.slice(path: source.path, target: target.triple))
                    }
                    try AtomicFile.write(
                        try FatMachO.join(thin), to: folder.appendingPathComponent(target.executableName(binary)),
                        permissions: 0o755)
                }
                try LayoutProblems.raise(missing)
            }
        } catch {
            for folder in folders.values {
                try? FileSystem.remove(folder)
                CleanupRegistry.shared.unregister(folder)
            }
            throw error
        }
        return folders
    }

    /// When an archive of this format starts among others: the slowest per byte first.
    package static func startOrder(_ format: String) -> Int {
        switch format {
        case "tar.xz": return 0
        case "zip": return 1
        case "tar.zst": return 2
        default: return 3
        }
    }

    /// Foundation's own error here is "NSCocoaErrorDomain error 512"; say which path is in the way.
    private func createOutputFolder(_ url: URL) throws {
        do { try FileSystem.createDirectory(url) } catch {
            var probe = url
            while probe.path != "/" {
                if let kind = FileSystem.kind(of: probe) {
                    if kind != .directory { throw PackagingError.outputBlocked(file: probe.path, folder: url.path) }
                    break
                }
                probe = probe.deletingLastPathComponent()
            }
            let cause = FileSystemError.cause(of: error)
            let reason = (cause as NSError).localizedFailureReason ?? cause.localizedDescription
            throw PackagingError.outputUncreatable(path: url.path, reason: reason)
        }
    }

    private struct Plan: Sendable {
        var target: Target
        var layout: ArchiveLayout
        var format: ArchiveWriterFormat
    }

    /// Every target's layout, computed and checked before anything is written; bad input (exit 2)
    /// lists the problems of all targets at once.
    private func plan(
        config: RelctlConfig, targets: [Target], placeholders: [String: String], binaryRoot: URL?, outputDirectory: URL,
        staged: [String: URL], joined: [String: URL]
    ) async throws -> [Plan] {
        var plans: [Plan] = []
        var problems = TargetProblems()
        let ignored = await IgnoredPaths.load(root: config.root, context: context)
        if let binaryRoot {
            let shared = ArchiveLayout.sharedArtifacts(
                config: config, targets: targets, placeholders: placeholders, binaryRoot: binaryRoot)
            if !shared.isEmpty { throw ProblemList(exitCode: .badInput, diagnostics: shared.flatMap(\.diagnostics)) }
        }
        // Every target's layout holds the same trees: walked once (not kept for one archive).
        let walks = targets.reduce(0) { $0 + $1.formats.count } > 1 ? TreeWalks() : nil
        // A target shipping several formats is one archive per format, from one build.
        for configured in targets {
            // The artifact bundle is the release's, not this target's (`bundleLayout`).
            for format in configured.formats where format != ArtifactBundle.format {
                let target = configured.packaged(as: format)
                do {
                    var layout = try ArchiveLayout.compute(
                        config: config, target: target, placeholders: placeholders, binaryRoot: binaryRoot,
                        outputDirectory: outputDirectory, ignored: ignored, staged: staged[target.triple], walks: walks,
                        prepared: joined[target.triple])
                    layout.sharesName = configured.formats.count > 1
                    plans.append(
                        Plan(target: target, layout: layout, format: try ArchiveWriterFormats.format(target.format)))
                } catch let error as RelctlError {
                    for diagnostic in error.diagnostics { problems.add(diagnostic, target: target.triple) }
                }
            }
        }
        let level = config.archive.invalidCompressionLevel.map {
            PackagingError.compressionLevel(config: config.path, level: $0).diagnostics
        }
        if !problems.isEmpty || level != nil {
            throw ProblemList(
                exitCode: .badInput, diagnostics: (level ?? []) + problems.diagnostics(targetCount: targets.count))
        }
        try checkPlatforms(plans, targets: targets, config: config)
        var seen: [String: String] = [:]
        for plan in plans {
            if let other = seen[plan.layout.fileName] {
                throw PackagingError.collision(
                    archivePath: plan.layout.fileName, first: "target \(other)",
                    second: "target \(plan.target.triple) (add {target} to [archive] name)")
            }
            seen[plan.layout.fileName] = plan.target.triple
        }
        if !UTF8Locale.ensure() {
            for plan in plans {
                if let entry = plan.layout.entries.first(where: { !$0.path.utf8.allSatisfy { $0 < 0x80 } }) {
                    throw PackagingError.unsafePath(
                        path: entry.path,
                        reason:
                            "is not ASCII and this system has no UTF-8 locale (C.UTF-8) to store it with; install one or rename the file"
                    )
                }
            }
        }
        return plans
    }

    /// Every binary's header against its target (once per target, whatever its formats): a
    /// binary built for another platform stops the run (exit 1) before anything is written. A
    /// file with no binary header (a script, a stand-in) fits any target.
    private func checkPlatforms(_ plans: [Plan], targets: [Target], config: RelctlConfig) throws {
        var problems: [PackagingError] = []
        var checked: Set<String> = []
        for plan in plans where checked.insert(plan.target.triple).inserted {
            for binary in config.build.binaries {
                let name = plan.target.executableName(binary)
                guard let entry = plan.layout.entries.first(where: { $0.path == "bin/" + name }),
                    case .file(let source) = entry.content,
                    let header = try BinaryHeader.read(path: source.path),
                    let reason = header.mismatch(for: plan.target)
                else { continue }
                problems.append(
                    .wrongPlatform(
                        binary: name, path: source.path, target: plan.target.triple, found: header.summary,
                        reason: reason))
            }
        }
        if !problems.isEmpty { throw ProblemList(problems) }
    }

    /// Creates the folder, reads its manifest.json (a damaged one stops the run before anything is
    /// written), then either removes these layouts' artifacts (`clean`) or refuses existing ones.
    /// - Returns: the manifest to update, without the removed artifacts.
    private func prepareOutputFolder(
        _ directory: URL, for layouts: [ArchiveLayout], clean: Bool
    ) throws -> ReleaseManifest? {
        try createOutputFolder(directory)
        // What killed runs left here (partial archives, checksum files in the making) goes first.
        Temporaries.reclaim(in: directory, console: context.console)
        Temporaries.reclaimScratch(console: context.console)
        var manifest = try ReleaseManifest.read(in: directory)
        if clean {
            for layout in layouts {
                removeArtifacts(named: layout.name, in: directory)
                try? FileSystem.remove(directory.appendingPathComponent(layout.sbomStem + SBOMBuilder.fileExtension))
            }
            let removed = Set(
                layouts.flatMap { layout in
                    ArchiveFormats.ids.map { layout.name + ArchiveFormats.fileExtension($0) } + [
                        layout.name + SBOMBuilder.fileExtension, layout.sbomStem + SBOMBuilder.fileExtension,
                    ]
                })
            manifest?.artifacts.removeAll { removed.contains($0.name) }
            try dropSumsLines(for: removed, in: directory)
        } else {
            let existing = layouts.map { directory.appendingPathComponent($0.fileName) }
                .filter { FileSystem.exists($0) }
            if !existing.isEmpty { throw ProblemList(existing.map { PackagingError.archiveExists(path: $0.path) }) }
        }
        return manifest
    }

    private func report(_ artifact: PackagedArtifact) {
        context.console.info(
            "packaged \(artifact.name): \(ByteCount.format(artifact.size)), \(artifact.entries) entries, \(String(format: "%.2f", artifact.seconds)) s"
        )
        context.console.detail("  sha256 \(artifact.sha256)")
    }

    /// Removes `NAME.<ext>` and `NAME.<ext>.sha256` for every format, and leftover temporary files.
    private func removeArtifacts(named name: String, in directory: URL) {
        if (try? FileSystem.remove(directory.appendingPathComponent(name + SBOMBuilder.fileExtension)))
            != nil
        {
            context.console.detail("removed \(name)\(SBOMBuilder.fileExtension)")
        }
        for id in ArchiveFormats.ids {
            let file = name + ArchiveFormats.fileExtension(id)
            for candidate in [file, file + ".sha256"] {
                let url = directory.appendingPathComponent(candidate)
                if (try? FileSystem.remove(url)) != nil {
                    context.console.detail("removed \(url.path)")
                }
            }
            let prefix = ".\(file).relctl-tmp-"
            for leftover in (try? FileSystem.names(in: directory)) ?? []
            where leftover.hasPrefix(prefix) {
                try? FileSystem.remove(directory.appendingPathComponent(leftover))
            }
        }
    }

    /// A combined `SHA256SUMS` must not keep the digests of archives `--clean` removed: the new
    /// archives may differ, and a stale line fails every user's check. Their lines go (the file
    /// too when nothing is left); `relctl checksum` lists the new archives.
    private func dropSumsLines(for removed: Set<String>, in directory: URL) throws {
        for algorithm in ChecksumAlgorithm.allCases {
            let url = directory.appendingPathComponent(algorithm.sumsFileName)
            // A file relctl cannot parse is not relctl's to rewrite; `verify` reports it.
            guard FileSystem.exists(url), let sums = try? ChecksumFile.read(url) else {
                continue
            }
            let kept = sums.entries.filter { !removed.contains($0.name) }
            guard kept.count < sums.entries.count else { continue }
            if kept.isEmpty {
                try FileSystem.remove(url)
                context.console.detail("removed \(url.path)")
            } else {
                try AtomicFile.write(ChecksumFile(entries: kept).render(), to: url)
                context.console.warning(
                    "\(url.path) no longer lists the archives --clean removed; run `relctl checksum` once packaging is done"
                )
            }
        }
    }

    private func updateManifest(
        in directory: URL, cleaned: Set<String>, config: RelctlConfig, inputs: PackagingInputs,
        artifacts: [PackagedArtifact]
    ) throws {
        // `package` runs into one folder lock it, so none loses the others' manifest entries.
        try FileLock.withLock(directory) {
            // Read under the lock: another `package` may have added its archives meanwhile.
            var current = try ReleaseManifest.read(in: directory)
            // What --clean removed at the start stays removed.
            current?.artifacts.removeAll { cleaned.contains($0.name) }
            try writeManifest(current, in: directory, config: config, inputs: inputs, artifacts: artifacts)
        }
    }

    private func writeManifest(
        _ existing: ReleaseManifest?, in directory: URL, config: RelctlConfig, inputs: PackagingInputs,
        artifacts: [PackagedArtifact]
    ) throws {
        var manifest = existing
        if let existing = manifest, existing.tag != inputs.tag || existing.project != config.project.name {
            context.console.warning(
                "\(directory.appendingPathComponent(ReleaseManifest.fileName).path) described \(existing.project) \(existing.tag); starting a new one for \(inputs.tag)"
            )
            manifest = nil
        }
        var updated =
            manifest
            ?? ReleaseManifest(
                project: config.project.name, tag: inputs.tag, version: inputs.version, commit: inputs.commit)
        updated.version = inputs.version
        if !inputs.commit.isEmpty { updated.commit = inputs.commit }
        updated.upsert(artifacts.map(\.manifestEntry))
        try updated.write(in: directory)
    }
}

/// Layout problems of several targets, one line per distinct problem: an unsafe link in a shared
/// demo tree is one problem, not one per target.
package struct TargetProblems {
    private var problems: [(diagnostic: Diagnostic, targets: [String])] = []

    package var isEmpty: Bool { problems.isEmpty }

    package mutating func add(_ diagnostic: Diagnostic, target: String) {
        if let index = problems.firstIndex(where: { $0.diagnostic == diagnostic }) {
            problems[index].targets.append(target)
        } else {
            problems.append((diagnostic, [target]))
        }
    }

    /// Each problem prefixed with the targets it concerns, unless it names its target already or
    /// concerns every one of `targetCount` (> 1) targets.
    package func diagnostics(targetCount: Int) -> [Diagnostic] {
        problems.map { diagnostic, targets in
            let message = diagnostic.message
            if targets.contains(where: message.contains) || (targetCount > 1 && targets.count == targetCount) {
                return diagnostic
            }
            return Diagnostic(
                file: diagnostic.file, line: diagnostic.line, "\(targets.joined(separator: ", ")): \(message)")
        }
    }
}
