import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel
import RelctlProject

/// `relctl reproduce TAG`: rebuilds a published release from a fresh clone of its commit and
/// compares every file with the published checksums. The rebuild is the release pipeline itself
/// (a dry run of TAG in rebuild mode: the same stages, nothing tagged, signed or pushed), run in
/// a clone at another path under another umask, time zone and locale. The project's working
/// tree, its tags and its dist/ are only read.
public enum Reproducer {
    /// What the rebuild clone borrows from the project: its remotes and URL rewriting rules.
    static let remoteSettings = #"^(remote\..*\.url|url\..*\.(insteadof|pushinsteadof))$"#

    public struct Options: Sendable {
        public var tag: String
        /// A folder or an http(s) URL holding the published files; nil: the project's dist/.
        public var source: String?
        /// Keep the clone and the rebuild's files (their paths are reported).
        public var keep = false
        public init(tag: String) { self.tag = tag }
    }

    public static func run(
        _ options: Options, config: RelctlConfig, context: Context, http: (any HTTPClient)? = nil
    ) async throws -> ReproduceReport {
        let tag = options.tag
        let git = Git(directory: config.root, context: context)
        guard let topLevel = try await git.layout()?.topLevel else {
            throw ReleaseError.notInRepository(path: config.root.path)
        }
        let commit: String
        do { commit = try await git.commit(of: tag) } catch {
            throw ReproduceError.unknownTag(tag: tag, directory: topLevel.path)
        }
        let published = try await PublishedRelease.open(
            source: options.source, tag: tag, config: config, context: context, http: http)
        defer { published.close() }

        let variation = RebuildEnvironment.different(
            from: context.environment, currentUmask: RebuildEnvironment.currentUmask)
        var environment = variation.applied(to: context.environment)
        // The clock the release used, when its provenance says so and the caller does not.
        if environment["SOURCE_DATE_EPOCH"] == nil, let epoch = await recordedEpoch(published) {
            environment["SOURCE_DATE_EPOCH"] = String(epoch)
        }
        let part = ReleaseWorkspace.fileNamePart(tag)
        let scratch =
            options.keep
            ? FileSystem.temporaryDirectory.appendingPathComponent(
                "relctl-reproduce-\(part)-kept-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))")
            : Temporaries.scratchURL("reproduce-\(part)")
        try CleanupRegistry.shared.makeDirectory(scratch)
        var keptDryRun: URL?
        defer {
            CleanupRegistry.shared.unregister(scratch)
            if !options.keep {
                try? FileSystem.remove(scratch)
                if let keptDryRun { try? FileSystem.remove(keptDryRun) }
            }
        }
        let clone = scratch.appendingPathComponent(topLevel.lastPathComponent + "-rebuild")
        context.console.info("reproduce \(tag): cloning \(commit.prefix(12)) into \(clone.path) (\(variation.summary))")

        let outcome = try await variation.withUmask {
            var rebuildContext = context
            rebuildContext.environment = environment
            // The clone keeps the project's remotes (and URL rewriting): download URLs derived from
            // `origin` (installers, channels, notes) must come out as the release wrote them.
            let source = Git(directory: topLevel, context: rebuildContext)
            let remotes = await source.settings(matching: Self.remoteSettings).map {
                (
                    key: $0.key,
                    value: $0.key.hasPrefix("remote.") ? PushStage.absolute($0.value, base: topLevel) : $0.value
                )
            }
            _ = try await source.scratchClone(to: clone, commit: commit, settings: remotes)
            let relative = ReleaseWorkspace.relativePath(of: config.root, under: topLevel)
            let root = relative.isEmpty ? clone : clone.appendingPathComponent(relative)
            rebuildContext.workingDirectory = root
            let cloneConfig = try ConfigLoader.load(
                path: root.appendingPathComponent((config.path as NSString).lastPathComponent).path,
                context: rebuildContext)
            var release = ReleaseOptions(tag: tag)
            release.dryRun = true
            release.keep = true
            release.rebuild = true
            return try await ReleasePipeline().run(release, config: cloneConfig, context: rebuildContext)
        }
        keptDryRun = outcome.plan.scratch.flatMap { AbsolutePath(absolute: $0)?.url }
        if let error = outcome.error {
            throw ReproduceError.rebuildFailed(tag: tag, cause: error.diagnostics)
        }
        guard let dist = outcome.plan.dist.flatMap({ AbsolutePath(absolute: $0)?.url }) else {
            throw ReproduceError.rebuildFailed(tag: tag, cause: [Diagnostic("the rebuild wrote no files")])
        }
        let files = try await compare(published, rebuilt: dist, context: context)
        return ReproduceReport(
            tag: tag, commit: commit, reproducible: files.allSatisfy(\.isIdentical), source: published.shown,
            checksumFile: published.sumsName, clone: clone.path, environment: variation,
            keptDist: options.keep ? dist.path : nil, files: files,
            issueLine: ReproduceReport.issueLine(
                tag: tag, commit: commit, files: files, source: published.shown, environment: variation))
    }

    /// Every published entry against the rebuild's file of the same name, then the rebuild's
    /// listed files the published list lacks.
    static func compare(
        _ published: PublishedRelease, rebuilt dist: URL, context: Context
    ) async throws -> [FileComparison] {
        let diffoscope = await diffoscopeAvailable(context)
        var files: [FileComparison] = []
        for entry in published.sums.entries {
            let algorithm = entry.algorithm
            let mine = dist.appendingPathComponent(entry.name)
            guard FileKind.isRegularFile(mine.path) else {
                files.append(FileComparison(name: entry.name, status: .missing, published: entry.digest))
                continue
            }
            let rebuilt = try FileHasher.digest(of: mine, algorithms: [algorithm])[algorithm]
            var file = FileComparison(name: entry.name, status: .identical, published: entry.digest, rebuilt: rebuilt)
            // A local published file is re-hashed even when the rebuild matches its checksum: a
            // file altered after the release is then named too.
            let theirs: URL?
            if rebuilt != entry.digest {
                file.status = .differs
                theirs = try await published.file(entry.name)
            } else {
                theirs = published.isLocal ? try await published.file(entry.name) : nil
            }
            if let theirs {
                let actual = try FileHasher.digest(of: theirs, algorithms: [algorithm])[algorithm]
                if actual != entry.digest {
                    file.publishedFile = actual
                    if file.status == .identical { file.status = .altered }
                }
                if file.status != .identical, actual != rebuilt {
                    if ArchiveReader.isArchive(theirs), ArchiveReader.isArchive(mine) {
                        file.archive = try ArchiveComparison.compare(published: theirs, rebuilt: mine, name: entry.name)
                    } else {
                        file.firstDifference = TextDifference.firstLine(published: theirs, rebuilt: mine)
                    }
                    if diffoscope { file.diffoscope = await runDiffoscope(theirs, mine, context: context) }
                }
            }
            files.append(file)
        }
        let listed = Set(published.sums.entries.map(\.name))
        if let rebuiltSums = try? ChecksumFile.read(dist.appendingPathComponent(published.sumsName)) {
            for entry in rebuiltSums.entries where !listed.contains(entry.name) {
                files.append(FileComparison(name: entry.name, status: .extra, rebuilt: entry.digest))
            }
        }
        return files
    }

    /// `internalParameters.sourceDateEpoch` of the published provenance, read without trusting
    /// it: it only picks the clock, and a wrong one makes the rebuild differ, not pass.
    static func recordedEpoch(_ published: PublishedRelease) async -> Int? {
        guard let manifest = published.manifest, !manifest.tag.isEmpty,
            let url = try? await published.file(
                ProvenanceWriter.fileName(project: manifest.project, tag: manifest.tag)),
            case .whole(let text)? = FileSystem.contents(of: url, limit: StrictJSON.defaultSizeLimit),
            let line = String(decoding: text, as: UTF8.self).split(separator: "\n").first,
            StrictJSON.problem(in: Data(line.utf8)) == nil,
            let envelope = try? JSONDecoder().decode(DSSEEnvelope.self, from: Data(line.utf8)),
            let payload = envelope.payloadBytes, StrictJSON.problem(in: payload) == nil,
            let statement = try? JSONDecoder().decode(ProvenanceStatement.self, from: payload)
        else { return nil }
        return statement.predicate.buildDefinition.internalParameters.sourceDateEpoch
    }

    static func diffoscopeAvailable(_ context: Context) async -> Bool {
        let probe = Command.shell("command -v diffoscope", directory: nil, environment: context.environment)
        return (try? await context.processes.run(probe))?.succeeded ?? false
    }

    /// diffoscope's text report (at most 20,000 characters), or nil when it fails to run.
    static func runDiffoscope(_ published: URL, _ rebuilt: URL, context: Context) async -> String? {
        let command = Command(
            "diffoscope", ["--no-progress", "--text", "-", published.path, rebuilt.path],
            environment: context.environment)
        guard let result = try? await context.processes.run(command), result.status == 0 || result.status == 1 else {
            return nil
        }
        let text = result.stdoutText
        return text.count > 20_000 ? String(text.prefix(20_000)) + "\n[… cut at 20,000 characters]" : text
    }
}
