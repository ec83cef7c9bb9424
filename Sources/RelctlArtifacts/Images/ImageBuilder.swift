import Foundation
import RelctlBasics
import RelctlModel

/// Builds the `[[image]]` container images from the built binaries, with no container engine:
/// one image per Linux target and one OCI index over them, as an OCI image layout in
/// `dist/oci/<name>/`. The core of `relctl image`.
public struct ImageBuilder: Sendable {
    package var context: Context

    public init(context: Context) {
        self.context = context
    }

    /// What an image records of the release `identity` names (`relctl image` resolves it with
    /// `.image`), and the repository it comes from.
    package func release(_ identity: ReleaseIdentity, config: RelctlConfig) async -> ImageRelease {
        let remote = await Git(directory: config.root, context: context).remoteURL(config.release.remote)
        return ImageRelease(
            tag: identity.tag, version: identity.version.description, commit: identity.commit,
            time: identity.sourceDateEpoch, source: remote.flatMap { RepositoryLinks(remoteURL: $0)?.baseURL })
    }

    /// Builds every configured image (or those named in `names`) for the selected targets.
    /// - Parameters:
    ///   - targets: the selected targets; each image uses those among its own Linux targets.
    ///   - outputDirectory: `dist/`; layouts go to `dist/oci/<name>/`.
    ///   - binaryRoot: read binaries from here instead of the project (prebuilt CI artifacts).
    ///   - uploads: per image name, the registry connection a push will use: each layer the
    ///     cache does not hold is uploaded to it while it is compressed (`StreamedBlobUpload`).
    public func build(
        config: RelctlConfig, release: ImageRelease, targets: [Target], outputDirectory: URL,
        binaryRoot: URL? = nil, names: [String] = [], uploads: [String: ImagePusher.Connection] = [:]
    ) async throws -> [BuiltImage] {
        guard !config.images.isEmpty else { throw ImageError.noImages(config: config.path) }
        let known = config.images.map(\.name)
        for name in names where !known.contains(name) { throw ImageError.unknownImage(name: name, known: known) }
        let images = names.isEmpty ? config.images : config.images.filter { names.contains($0.name) }
        let cache = try LayerCache.configured(
            environment: context.environment, workingDirectory: context.workingDirectory)
        var built: [BuiltImage] = []
        for image in images {
            built.append(
                try await build(
                    image, config: config, release: release, targets: targets, outputDirectory: outputDirectory,
                    binaryRoot: binaryRoot, cache: cache, upload: uploads[image.name]))
        }
        return built
    }

    private struct PlatformPlan: Sendable {
        var target: Target
        var platform: ImagePlatform
        var entries: [ArchiveEntry]
    }

    private func build(
        _ image: ImageSettings, config: RelctlConfig, release: ImageRelease, targets: [Target],
        outputDirectory: URL, binaryRoot: URL?, cache: LayerCache?, upload: ImagePusher.Connection?
    ) async throws -> BuiltImage {
        let started = context.clock.now()
        let chosen = image.selectTargets(targets)
        guard !chosen.isEmpty else { throw ImageError.noTargets(image: image.name) }
        // As for archives: one prebuilt file never goes into two platforms' images.
        if let binaryRoot {
            let placeholders = ReleaseNames(project: config.project.name, version: release.version, tag: release.tag)
                .placeholders()
            let shared = ArchiveLayout.sharedArtifacts(
                config: config, targets: chosen, placeholders: placeholders, binaryRoot: binaryRoot)
            if !shared.isEmpty { throw ProblemList(exitCode: .badInput, diagnostics: shared.flatMap(\.diagnostics)) }
        }
        let tags = try release.tags(image.tags, project: config.project.name, image: image.name)
        let plans = try chosen.map { target in
            guard let platform = ImagePlatform(target: target) else {
                throw ImageError.unsupportedPlatform(target: target.triple)
            }
            return PlatformPlan(
                target: target, platform: platform,
                entries: try layerEntries(
                    image, config: config, target: target, release: release, binaryRoot: binaryRoot))
        }
        if image.base == nil { try refuseDynamicBinaries(plans, image: image) }
        let bases = try await BaseImageStore(context: context).resolve(image.base, platforms: plans.map(\.platform))
        if !UTF8Locale.ensure(),
            let entry = plans.flatMap(\.entries).first(where: { !$0.path.utf8.allSatisfy { $0 < 0x80 } })
        {
            throw PackagingError.unsafePath(
                path: entry.path,
                reason:
                    "is not ASCII and this system has no UTF-8 locale (C.UTF-8) to store it with; install one or rename the file"
            )
        }

        let folder = outputDirectory.appendingPathComponent("oci")
        do { try FileSystem.createDirectory(folder) } catch {
            let cause = FileSystemError.cause(of: error)
            throw ImageError.writeFailed(
                path: folder.path, reason: (cause as NSError).localizedFailureReason ?? "\(cause)")
        }
        let writer = try OCILayoutWriter(destination: folder.appendingPathComponent(image.name))
        do {
            let level = config.archive.compressionLevel.map {
                CompressionLevels.clamped($0, to: CompressionLevels.deflateLevels)
            }
            let layers = try await writeLayers(
                plans.map(\.entries), mtime: release.time, level: level, into: writer.blobs, cache: cache,
                upload: upload)
            let annotations = release.annotations(labels: image.labels)
            var manifests: [OCIDescriptor] = []
            for (index, plan) in plans.enumerated() {
                manifests.append(
                    try writeManifest(
                        plan, layer: layers.written[index], base: bases[plan.platform], image: image, config: config,
                        release: release, annotations: annotations, into: writer))
            }
            let index = try writer.add(
                json: OCIIndex(manifests: manifests, annotations: annotations), mediaType: OCIMediaType.index)
            try writer.finish(index: index, tags: tags)
            context.console.info(
                "image \(image.name): \(index.digest) (\(plans.map(\.platform.description).joined(separator: ", "))), \(String(format: "%.2f", context.clock.seconds(since: started))) s, layers: \(layers.compressed) compressed, \(layers.cached) from the cache"
            )
            return BuiltImage(
                name: image.name, repository: image.repository.name, digest: index.digest, tags: tags,
                platforms: plans.map(\.platform.description), layout: writer.destination.path,
                base: image.base, reference: image.repository)
        } catch {
            writer.discard()
            // A layer or blob the storage refused is reported as the image's: the temporary it was
            // written to means nothing to the user, and it is gone with the staging folder.
            if let code = StorageFault.code(of: error) {
                throw ImageError.writeRefused(path: writer.destination.path, code: code)
            }
            throw error
        }
    }

    /// One platform's image: its config (the base's, else scratch, with our entrypoint, user,
    /// PATH, labels, the layer's diff_id and a history entry), the base's layers copied in, and the
    /// manifest over them; returns the manifest's descriptor for the index.
    private func writeManifest(
        _ plan: PlatformPlan, layer: ImageLayer.Written, base: BaseImage?, image: ImageSettings, config: RelctlConfig,
        release: ImageRelease, annotations: [String: String], into writer: OCILayoutWriter
    ) throws -> OCIDescriptor {
        var imageConfig = base?.config ?? .scratch(plan.platform)
        imageConfig.created = release.created
        var execution = imageConfig.config ?? OCIImageConfig.Execution()
        let entrypoint = image.entrypoint ?? Array(image.imageBinaries(config.build.binaries).prefix(1))
        execution.Entrypoint =
            ["/usr/local/bin/" + plan.target.executableName(entrypoint.first ?? "")] + entrypoint.dropFirst()
        // A base's CMD would become arguments of our entrypoint.
        execution.Cmd = nil
        execution.User = image.user
        if execution.Env?.contains(where: { $0.hasPrefix("PATH=") }) != true {
            execution.Env =
                (execution.Env ?? []) + ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"]
        }
        execution.Labels = (execution.Labels ?? [:]).merging(annotations) { _, ours in ours }
        imageConfig.config = execution
        imageConfig.rootfs.diff_ids.append(layer.diffID)
        // A base without history stays without: a history shorter than the layers confuses tools.
        if base == nil || imageConfig.history != nil {
            imageConfig.history =
                (imageConfig.history ?? []) + [
                    OCIImageConfig.History(
                        created: release.created, created_by: "relctl image", comment: nil, empty_layer: nil)
                ]
        }
        var manifestAnnotations = annotations
        if let base, let reference = image.base {
            manifestAnnotations["org.opencontainers.image.base.name"] = reference.name
            manifestAnnotations["org.opencontainers.image.base.digest"] = base.manifestDigest
            for layer in base.manifest.layers {
                try writer.add(cached: base.blob(layer.digest), digest: layer.digest)
            }
        }
        let configDescriptor = try writer.add(json: imageConfig, mediaType: OCIMediaType.config)
        let baseLayers =
            base?.manifest.layers.map {
                OCIDescriptor(
                    mediaType: OCIMediaType.ociLayer($0.mediaType), digest: $0.digest, size: $0.size,
                    annotations: $0.annotations)
            } ?? []
        let manifest = OCIManifest(
            config: configDescriptor, layers: baseLayers + [layer.descriptor], annotations: manifestAnnotations)
        return try writer.add(json: manifest, mediaType: OCIMediaType.manifest, platform: plan.platform)
    }

    /// The layers of one image, in the order of `entries`, and how many were compressed here.
    private struct Layers {
        var written: [ImageLayer.Written]
        var compressed = 0
        var cached = 0
    }

    /// Writes one layer per entry list into `blobs`. Lists with the same inputs (the same
    /// binaries for two platforms) share one layer, written once; a layer the cache holds is
    /// copied from it; the others are compressed concurrently, each allowed every core: deflate
    /// is the whole cost, the bytes do not depend on the split, and when one platform's layer is
    /// smaller (an arm64 binary rarely matches its amd64 twin), the other one's chunks take over
    /// the cores it leaves. With `upload`, each compressed layer is also streamed to the registry.
    private func writeLayers(
        _ lists: [[ArchiveEntry]], mtime: Int, level: Int?, into blobs: URL, cache: LayerCache?,
        upload: ImagePusher.Connection?
    ) async throws -> Layers {
        let effective = try ArchiveWriterFormats.format("tar.gz").effectiveLevel(level)
        var keys: [String] = []
        for entries in lists {
            keys.append(
                try await LayerCache.key(
                    entries, top: ImageLayer.top, mtime: mtime, level: effective,
                    chunkSize: ChunkedGzipCompressor.chunkSize, memo: cache?.inputDigests))
        }
        var layers = Layers(written: [])
        var distinct: [String: [ArchiveEntry]] = [:]
        var results: [String: ImageLayer.Written] = [:]
        for (key, entries) in zip(keys, lists) where distinct[key] == nil && results[key] == nil {
            if let hit = cache?.load(key, into: blobs) {
                results[key] = hit
                layers.cached += 1
            } else {
                distinct[key] = entries
            }
        }
        // The cores are shared among the layers compressed at once, as `Packager` shares them
        // among archives: each layer's pipeline holds 2 x workers + 1 chunks of 2 MiB, so two
        // layers with every core each were 17 MB of buffers and twice the threads there are
        // cores (`bench-image DISTINCT=1`: 65 MB peak RSS; issue 31).
        let workers = max(1, ParallelJobs.count(nil) / max(1, distinct.count))
        let console = context.console
        let fresh = try await withThrowingTaskGroup(of: (String, ImageLayer.Written).self) { group in
            for (key, entries) in distinct {
                group.addTask {
                    var streamed: StreamedBlobUpload?
                    if let upload {
                        streamed = StreamedBlobUpload(connection: upload)
                        streamed?.start()
                    }
                    let written = try await ImageLayer.write(
                        entries, mtime: mtime, level: level, workers: workers, into: blobs, upload: streamed)
                    if let streamed, let upload { upload.streamed(streamed, digest: written.descriptor.digest) }
                    if let cache, let problem = cache.store(key, layer: written, from: blobs) {
                        console.warning(problem)
                    }
                    return (key, written)
                }
            }
            var written: [String: ImageLayer.Written] = [:]
            for try await (key, layer) in group { written[key] = layer }
            return written
        }
        layers.compressed = fresh.count
        results.merge(fresh) { old, _ in old }
        layers.written = keys.map { results[$0]! }
        return layers
    }

    /// A `scratch` image holds only our files: a binary that needs a dynamic loader (glibc's
    /// `ld-linux`) would fail with "no such file or directory" the moment the container starts.
    private func refuseDynamicBinaries(_ plans: [PlatformPlan], image: ImageSettings) throws {
        for plan in plans {
            for entry in plan.entries where entry.path.hasPrefix("local/bin/") {
                guard case .file(let source) = entry.content, let interpreter = ELFInterpreter.of(path: source.path)
                else { continue }
                throw ImageError.dynamicOnScratch(
                    image: image.name, binary: String(entry.path.dropFirst("local/bin/".count)),
                    target: plan.target.triple, interpreter: interpreter)
            }
        }
    }

    /// Binaries in `usr/local/bin`, files in `usr/local/share/<name>` (paths relative to `/usr`).
    private func layerEntries(
        _ image: ImageSettings, config: RelctlConfig, target: Target, release: ImageRelease, binaryRoot: URL?
    ) throws -> [ArchiveEntry] {
        let values = ReleaseNames(project: config.project.name, version: release.version, tag: release.tag)
            .placeholders(for: target)
        let settings = config.targets.first { $0.triple == target.triple }
        let binaryDirectory = (settings?.binaryDirectory ?? config.build.binaryDirectory).render(values)
        var builder = LayoutBuilder()
        for binary in image.imageBinaries(config.build.binaries) {
            let fileName = target.executableName(binary)
            var source = ArchiveLayout.locateBinary(
                fileName, directory: binaryDirectory, root: config.root, override: binaryRoot, triple: target.triple)
            // CI hands each target's binaries over in a folder named after the target.
            if let binaryRoot, !FileKind.isRegularFile(source.path) {
                source = binaryRoot.appendingPathComponent(target.triple).appendingPathComponent(fileName)
            }
            guard FileKind.isRegularFile(source.path) else {
                throw PackagingError.missingBinary(binary: fileName, path: source.path, target: target.triple)
            }
            // A binary built for another platform never goes into the image (as for archives).
            if let problem = try BinaryHeader.wrongPlatform(binary: fileName, path: source, target: target) {
                throw problem
            }
            try builder.add(
                ArchiveEntry(path: "local/bin/" + fileName, content: .file(source), mode: 0o755, origin: source.path))
        }
        for mapping in image.files {
            let source = config.root.appendingPathComponent(mapping.from.render(values))
            let destination = try ArchivePath.normalize(mapping.to.render(values), what: "[[image]] files")
            guard let info = FileSystem.statusIfPresent(atPath: source.path), info.isRegularFile else {
                throw ImageError.notAFile(path: source.path, image: image.name)
            }
            try builder.add(
                ArchiveEntry(
                    path: "local/share/\(image.name)/\(destination)", content: .file(source),
                    mode: FileKind.normalizedMode(info.mode), origin: source.path))
        }
        return try builder.finish()
    }
}
