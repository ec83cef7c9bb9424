import Crypto
import Foundation
import RelctlBasics
import RelctlModel

/// Writes the `[pypi]` wheels: one per target PyPI has a platform tag for, holding the build's
/// binaries in `{name}-{version}.data/scripts/` (pip installs them on PATH, mode kept), an import
/// package with an `__init__.py`, and `{name}-{version}.dist-info/` (METADATA, WHEEL, RECORD last).
/// The zip is the archives' writer (`ZipArchiveWriter`): entries sorted (the dist-info last, RECORD
/// at its end), every time the release's `SOURCE_DATE_EPOCH`, so the same inputs give the same bytes.
package struct PythonWheelBuilder: Sendable {
    package var context: Context

    package init(context: Context) { self.context = context }

    /// The wheels one release writes, and what it does not.
    package struct Written: Sendable {
        package var wheels: [Artifact] = []
        /// One CycloneDX SBOM per wheel (`WHEEL.cdx.json`) when `[sbom] enabled`.
        package var sboms: [Artifact] = []
        /// Targets PyPI has no platform tag for (FreeBSD, WebAssembly…): no wheel.
        package var skipped: [String] = []
    }

    /// The targets a wheel is made for, with the tag they get before their binaries are read.
    package static func targets(among targets: [Target]) -> [Target] {
        targets.filter { WheelName.platformTag(triple: $0.triple) != nil }
    }

    /// For `relctl check` and the release preflight: a version with no PEP 440 spelling PyPI takes,
    /// and a `[pypi] readme` that is not a file in the project, found before anything is built.
    package static func problems(config: RelctlConfig, version: String?) -> [Diagnostic] {
        guard let settings = config.pypi else { return [] }
        var problems: [Diagnostic] = []
        if let version {
            do { _ = try WheelName.version(version) } catch let error as RelctlError {
                problems += error.diagnostics.map {
                    $0.file == nil ? Diagnostic(file: config.path, line: settings.line, $0.message) : $0
                }
            } catch {}
        }
        do { _ = try longDescription(settings, config: config) } catch let error as RelctlError {
            problems += error.diagnostics.map {
                $0.file == nil ? Diagnostic(file: config.path, line: settings.line, $0.message) : $0
            }
        } catch {}
        return problems
    }

    /// The long description: `[pypi] readme`, else the first README the project root holds, else
    /// the description's lines after the summary; with its content type from the file's extension.
    package static func longDescription(
        _ settings: PyPISettings, config: RelctlConfig
    ) throws -> (text: String, contentType: String)? {
        let candidates = settings.readme.map { [$0] } ?? ["README.md", "README.rst", "README.txt", "README"]
        for candidate in candidates {
            let file = try ProjectFile.open(
                candidate, in: config.root, what: settings.readme == nil ? "the readme" : "[pypi] readme")
            guard file.isRegularFile else {
                if settings.readme != nil {
                    throw PythonWheelError.unreadable(path: file.location.path, reason: "no such file ([pypi] readme)")
                }
                continue
            }
            guard let text = try file.text() else {
                throw PythonWheelError.unreadable(path: file.location.path, reason: "not readable")
            }
            let lower = candidate.lowercased()
            let type =
                lower.hasSuffix(".md") || lower.hasSuffix(".markdown")
                ? "text/markdown" : lower.hasSuffix(".rst") ? "text/x-rst" : "text/plain"
            return (text, type)
        }
        let lines = (config.project.metadata.description ?? "").split(separator: "\n", omittingEmptySubsequences: false)
        let rest = lines.dropFirst().joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        return rest.isEmpty ? nil : (rest, "text/plain")
    }

    /// METADATA's values from `[project]` and `[pypi]`.
    package static func metadata(
        _ settings: PyPISettings, config: RelctlConfig, version: String
    ) throws -> WheelContents.Metadata {
        let project = config.project.metadata
        var summary = (project.description ?? "").split(separator: "\n").first.map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        if summary?.isEmpty == true { summary = nil }
        return WheelContents.Metadata(
            name: settings.package, version: version, summary: summary, license: project.license,
            homepage: project.homepage, maintainer: project.maintainer, requiresPython: settings.requiresPython,
            description: try longDescription(settings, config: config))
    }

    /// Writes every wheel into `directory`, atomically, in target order.
    package func write(
        settings: PyPISettings, config: RelctlConfig, inputs: PackagingInputs, targets: [Target], into directory: URL,
        binaryRoot: URL? = nil
    ) async throws -> Written {
        let version = try WheelName.version(inputs.version)
        let metadata = try WheelContents.metadata(try Self.metadata(settings, config: config, version: version))
        let dependencies = config.sbom.enabled ? try LockfileDependencies.read(root: config.root) : []
        // The staging folder may not exist yet: this stage runs alongside the package stage.
        try FileSystem.createDirectory(directory)
        var written = Written()
        for target in targets {
            guard WheelName.platformTag(triple: target.triple) != nil else {
                written.skipped.append(target.triple)
                continue
            }
            try Task.checkCancellation()
            let binaries = try self.binaries(config: config, target: target, binaryRoot: binaryRoot)
            var glibc: (major: Int, minor: Int)?
            if TargetTriple(target.triple).isGlibcLinux {
                for binary in binaries {
                    if let needed = try ELFVersionNeeds.newestGlibc(path: binary.source.path),
                        glibc.map({ (needed.major, needed.minor) > ($0.major, $0.minor) }) ?? true
                    {
                        glibc = needed
                    }
                }
            }
            let platform = WheelName.platformTag(triple: target.triple, glibc: glibc)!
            let (wheel, sbom) = try await writeOne(
                settings: settings, version: version, platform: platform, metadata: metadata, binaries: binaries,
                target: target.triple, inputs: inputs, dependencies: dependencies,
                sbomPackage: config.sbom.enabled
                    ? ProjectPackage(
                        name: settings.package,
                        purl: "pkg:pypi/"
                            + LockfileDependencies.purlSegment(WheelName.normalized(settings.package)) + "@"
                            + LockfileDependencies.purlSegment(version)) : nil,
                into: directory)
            context.console.info("wheel \(wheel.name): \(ByteCount.format(wheel.size))")
            written.wheels.append(wheel)
            if let sbom { written.sboms.append(sbom) }
        }
        return written
    }

    /// The configured binaries the build made for `target` (an optional one may be missing).
    private func binaries(
        config: RelctlConfig, target: Target, binaryRoot: URL?
    ) throws -> [(name: String, source: URL)] {
        var values = target.placeholders
        values["project"] = config.project.name
        let settings = config.targets.first { $0.triple == target.triple }
        let folder = (settings?.binaryDirectory ?? config.build.binaryDirectory).render(values)
        var files: [(name: String, source: URL)] = []
        for binary in config.build.binaries {
            let fileName = target.executableName(binary)
            let source = ArchiveLayout.locateBinary(
                fileName, directory: folder, root: config.root, override: binaryRoot, triple: target.triple)
            guard FileKind.isRegularFile(source.path) else {
                if config.build.optionalBinaries.contains(binary) { continue }
                throw PythonWheelError.missingBinary(binary: fileName, path: source.path, target: target.triple)
            }
            files.append((fileName, source))
        }
        return files
    }

    /// The SHA-256 and size of a file, read in blocks.
    private static func digest(of url: URL) throws -> (SHA256.Digest, Int64) {
        let file: ReadableFile
        do { file = try ReadableFile(path: url.path) } catch {
            throw PythonWheelError.unreadable(path: url.path, reason: FileSystem.describe(errno: error.code))
        }
        var hasher = SHA256()
        var size: Int64 = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count: Int
            do { count = try file.read(into: buffer) } catch {
                throw PythonWheelError.unreadable(path: url.path, reason: FileSystem.describe(errno: error.code))
            }
            if count == 0 { break }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            size += Int64(count)
        }
        return (hasher.finalize(), size)
    }

    private func writeOne(
        settings: PyPISettings, version: String, platform: String, metadata: Data,
        binaries: [(name: String, source: URL)], target: String, inputs: PackagingInputs,
        dependencies: [SBOMDocument.Component], sbomPackage: ProjectPackage?, into directory: URL
    ) async throws -> (Artifact, Artifact?) {
        let stem = WheelName.escaped(settings.package) + "-" + version
        let dataFolder = stem + ".data/scripts/"
        let infoFolder = stem + ".dist-info/"
        let module = WheelName.module(settings.package) + "/__init__.py"
        // Everything but the dist-info, sorted bytewise; then METADATA, WHEEL and RECORD, last.
        var files: [(path: String, content: ArchiveEntry.Content, mode: UInt32, digest: SHA256.Digest, size: Int64)] =
            []
        for binary in binaries {
            let (digest, size) = try await BlockingWork.run { try Self.digest(of: binary.source) }
            files.append((dataFolder + binary.name, .file(binary.source), 0o755, digest, size))
        }
        files.append(
            (
                module, .generated(WheelContents.initModule), 0o644, SHA256.hash(data: WheelContents.initModule),
                Int64(WheelContents.initModule.count)
            ))
        files.sort { bytewiseLess($0.path, $1.path) }
        let wheelFile = try WheelContents.wheel(tag: "py3-none-" + platform)
        for (path, data) in [(infoFolder + "METADATA", metadata), (infoFolder + "WHEEL", wheelFile)] {
            files.append((path, .generated(data), 0o644, SHA256.hash(data: data), Int64(data.count)))
        }
        let recordPath = infoFolder + "RECORD"
        let record = WheelContents.record(files.map { ($0.path, $0.digest, $0.size) }, recordPath: recordPath)
        var entries = files.map { ArchiveEntry(path: $0.path, content: $0.content, mode: $0.mode, origin: $0.path) }
        entries.append(ArchiveEntry(path: recordPath, content: .generated(record), mode: 0o644, origin: "RECORD"))
        var layout = ArchiveLayout(name: stem, format: "zip", links: .keep, entries: entries)
        layout.hasTopFolder = false
        let name = WheelName.fileName(package: settings.package, version: version, platform: platform)
        let url = directory.appendingPathComponent(name)
        let format = try ArchiveWriterFormats.format("zip")
        let written = try await ArchiveFile.write(
            layout, format: format, level: nil, mtime: inputs.mtime, to: url, alsoSHA512: true,
            recordFiles: sbomPackage != nil)
        let wheel = Artifact(
            name: name, kind: .wheel, target: target, format: "whl", size: written.size, sha256: written.sha256,
            sha512: written.sha512, path: url.path, producedBy: .pythonWheel)
        guard let sbomPackage else { return (wheel, nil) }
        let subject = SBOMBuilder.Subject(
            project: settings.package, tag: inputs.tag, version: version, archiveName: name,
            archiveSHA256: written.sha256, time: max(inputs.mtime, format.earliestTime), files: written.files,
            package: sbomPackage)
        var sbom = try SBOMBuilder.write(subject, dependencies: dependencies, stem: name, in: directory)
        sbom.target = target
        return (wheel, sbom)
    }
}
