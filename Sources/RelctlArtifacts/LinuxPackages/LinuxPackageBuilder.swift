import Crypto
import Foundation
import RelctlBasics
import RelctlModel

/// Writes the `[[package]]` packages for the Linux targets: the core of `relctl linux-package`,
/// also the release's `linux-package` stage. The binaries come from the build's output (the
/// same files the archives hold); the metadata from `[project]` and each table's overrides.
public struct LinuxPackageBuilder: Sendable {
    package var context: Context

    package init(context: Context) { self.context = context }

    /// The Linux targets among `targets` a table packages, in the given order.
    package static func targets(of settings: LinuxPackageSettings, among targets: [Target]) -> [Target] {
        targets.filter { target in
            target.os == "linux" && LinuxArchitecture(triple: target.triple) != nil
                && (settings.targets.map { $0.contains(target.triple) } ?? true)
        }
    }

    /// Every package file name this release writes (for the preflight, `checksum` and the dist stage).
    package static func fileNames(config: RelctlConfig, version: String, targets: [Target]) -> [String] {
        var names: [String] = []
        for settings in config.linuxPackages {
            guard let format = LinuxPackageFormats.all[settings.format] else { continue }
            for target in Self.targets(of: settings, among: targets) {
                guard let architecture = LinuxArchitecture(triple: target.triple) else { continue }
                let spec = LinuxPackageSpec(
                    name: packageName(settings, config: config), version: LinuxPackageVersion(version),
                    architecture: architecture, metadata: PackageMetadata.placeholder, section: settings.section,
                    group: settings.group, depends: [], release: settings.release, mtime: 0, changes: [], files: [])
                names.append(format.fileName(spec))
            }
        }
        return names
    }

    /// For `relctl check`: files a `[[package]]` names that are not there, and a manifest version
    /// no package format can spell, found before anything is built.
    package static func problems(config: RelctlConfig, version: String?) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        for settings in config.linuxPackages {
            let paths =
                settings.files.map { ($0.from, "[[package]] files") }
                + (settings.licenseFile.map { [($0, "[[package]] license-file")] } ?? [])
            for (path, key) in paths {
                let url: URL
                do { url = try ConfinedPath.resolveInside(path, root: config.root, what: key) } catch {
                    problems +=
                        (error as? RelctlError)?.diagnostics.map {
                            Diagnostic(file: config.path, line: settings.line, $0.message)
                        } ?? []
                    continue
                }
                guard !FileKind.isRegularFile(url.path) else { continue }
                problems.append(
                    Diagnostic(
                        file: config.path, line: settings.line,
                        "[[package]] format = \"\(settings.format)\" names `\(path)`, which is not a file in the project"
                    ))
            }
        }
        if !config.linuxPackages.isEmpty, let version, let problem = LinuxPackageVersion.problem(in: version) {
            problems.append(
                Diagnostic(
                    file: config.path, "version `\(version)` \(problem); [[package]] cannot make a package of it"))
        }
        return problems
    }

    package static func packageName(_ settings: LinuxPackageSettings, config: RelctlConfig) -> String {
        settings.name ?? config.project.name.lowercased()
    }

    /// Writes every package into `directory`, atomically, and returns them in table then target order.
    /// - Parameters:
    ///   - changes: the release notes' entries, one line each.
    ///   - binaryRoot: prebuilt binaries, as for `relctl package`.
    ///   - keysRoot: where `signing-key` paths resolve (default: the config's root).
    package func write(
        config: RelctlConfig, inputs: PackagingInputs, targets: [Target], changes: [String], into directory: URL,
        binaryRoot: URL? = nil, keysRoot: URL? = nil
    ) async throws -> [Artifact] {
        if let problem = LinuxPackageVersion.problem(in: inputs.version) {
            throw LinuxPackageError.badVersion(version: inputs.version, reason: problem)
        }
        // As for archives: one prebuilt file never goes into two architectures' packages.
        if let binaryRoot {
            let shared = ArchiveLayout.sharedArtifacts(
                config: config, targets: targets, placeholders: ["project": config.project.name],
                binaryRoot: binaryRoot)
            if !shared.isEmpty { throw ProblemList(exitCode: .badInput, diagnostics: shared.flatMap(\.diagnostics)) }
        }
        var specs: [(format: any LinuxPackageFormat, spec: LinuxPackageSpec, target: String)] = []
        for settings in config.linuxPackages {
            let format = try LinuxPackageFormats.format(settings.format)
            let merged = config.project.metadata.overridden(by: settings.metadata)
            guard let metadata = PackageMetadata(merged, licenseText: try licenseText(settings, config: config)) else {
                throw LinuxPackageError.nothingToPackage(
                    config: config.path,
                    reason:
                        "[[package]] format = \"\(settings.format)\" needs \(PackageMetadata.missingKeys(merged).map { "`\($0)`" }.joined(separator: ", ")) in [project] or the table"
                )
            }
            let signer = try RpmSigningKey.load(
                settings, config: config, root: keysRoot ?? config.root, environment: context.environment)
            for target in Self.targets(of: settings, among: targets) {
                let name = Self.packageName(settings, config: config)
                var spec = LinuxPackageSpec(
                    name: name, version: LinuxPackageVersion(inputs.version),
                    architecture: LinuxArchitecture(triple: target.triple)!, metadata: metadata,
                    section: settings.section, group: settings.group, depends: settings.depends,
                    release: settings.release,
                    mtime: inputs.mtime, changes: changes, files: [], signer: signer)
                spec.files = try binaries(config: config, target: target, binaryRoot: binaryRoot)
                spec.files += try extraFiles(settings, config: config)
                spec.files.append(
                    PackagedFile(
                        path: spec.documentationFolder + "/copyright",
                        kind: .file(Data(DebianCopyright.render(spec).utf8)),
                        mode: 0o644, isDocumentation: true, isLicense: true))
                specs.append((format, spec, target.triple))
            }
        }
        // Each package compresses on a thread of its own (BlockingWork), one per core at most. The
        // first storage fault (a full disk) stops the packages not started and is the one reported,
        // as in `Packager`.
        var firstFault: Int?
        let results = await ParallelJobs.map(
            specs, limit: ParallelJobs.count(nil),
            finished: { index, result in
                if firstFault == nil, case .failure(let error) = result, StorageFault.code(of: error) != nil {
                    firstFault = index
                }
            },
            stopsTheRest: { result in
                if case .failure(let error) = result { return StorageFault.code(of: error) != nil }
                return false
            }
        ) { item -> Result<Artifact, any Error> in
            do {
                try Task.checkCancellation()
                return .success(
                    try await BlockingWork.run {
                        try Self.writeOne(item.spec, format: item.format, target: item.target, into: directory)
                    })
            } catch {
                return .failure(error)
            }
        }
        var written: [Artifact] = []
        var failures: [any RelctlError] = []
        for (index, result) in results.enumerated() {
            switch result {
            case .success(let artifact):
                context.console.info("packaged \(artifact.name): \(ByteCount.format(artifact.size))")
                written.append(artifact)
            case .failure(let error):
                if firstFault != nil, index != firstFault,
                    error is CancellationError || StorageFault.code(of: error) != nil
                {
                    continue
                }
                failures.append(
                    error as? RelctlError ?? LinuxPackageError.unreadable(path: directory.path, reason: "\(error)"))
            }
        }
        if !failures.isEmpty { throw ProblemList(failures) }
        return written
    }

    /// One package, written atomically, with its digests.
    private static func writeOne(
        _ spec: LinuxPackageSpec, format: any LinuxPackageFormat, target: String, into directory: URL
    ) throws -> Artifact {
        let name = format.fileName(spec)
        let url = directory.appendingPathComponent(name)
        let written = try format.write(spec, to: url)
        return Artifact(
            name: name, kind: format.id == "rpm" ? .rpm : .deb, target: target, format: format.id, size: written.size,
            sha256: written.sha256, sha512: written.sha512, path: url.path, producedBy: .linuxPackage)
    }

    /// `/usr/bin/NAME` for each configured binary the build made (an optional one may be missing).
    private func binaries(config: RelctlConfig, target: Target, binaryRoot: URL?) throws -> [PackagedFile] {
        var files: [PackagedFile] = []
        var wrong: [PackagingError] = []
        for binary in ArchiveLayout.builtBinaries(config: config, target: target, override: binaryRoot).binaries {
            guard binary.exists else {
                if binary.optional { continue }
                throw LinuxPackageError.missingBinary(
                    binary: binary.fileName, path: binary.source.path, target: target.triple)
            }
            let fileName = binary.fileName, source = binary.source
            // A binary built for another platform never goes into the package (as for archives).
            if let problem = try BinaryHeader.wrongPlatform(binary: fileName, path: source, target: target) {
                wrong.append(problem)
                continue
            }
            // Read while the package is written, never whole (issue 39, finding 10).
            files.append(PackagedFile(path: "/usr/bin/" + fileName, kind: .source(source.path), mode: 0o755))
        }
        if !wrong.isEmpty { throw ProblemList(wrong) }
        return files
    }

    /// `[[package]] files`: man pages (gzipped, as Debian Policy 12.1 asks, and marked as
    /// documentation) and any other file under /usr; executable sources stay executable.
    private func extraFiles(_ settings: LinuxPackageSettings, config: RelctlConfig) throws -> [PackagedFile] {
        try settings.files.map { from, to in
            // Read through the one path rule: a `from` that is (or passes through) a link out of
            // the project would put that file into the package.
            let source = try ProjectFile.open(from, in: config.root, what: "[[package]] files").location
            guard FileKind.isRegularFile(source.path) else {
                throw LinuxPackageError.unreadable(path: source.path, reason: "no such file ([[package]] files)")
            }
            var path = to
            var kind = PackagedFile.Kind.source(source.path)
            let isManual = to.hasPrefix("/usr/share/man/")
            if isManual, try PackagedFile(path: to, kind: kind, mode: 0o644).head(2) != Data([0x1F, 0x8B]) {
                kind = .file(try Gzip.compress(try Self.manualPage(source), destination: source.path))
                if !path.hasSuffix(".gz") { path += ".gz" }
            }
            let executable = (FileSystem.permissions(of: source) ?? 0) & 0o111 != 0
            return PackagedFile(
                path: path, kind: kind, mode: executable ? 0o755 : 0o644,
                isDocumentation: isManual || to.hasPrefix("/usr/share/doc/"))
        }
    }

    /// A manual page to gzip, read whole but bounded: manual pages are kilobytes, and a larger file is
    /// no manual page.
    private static func manualPage(_ source: URL) throws -> Data {
        let page = try PackagedFile(path: source.path, kind: .source(source.path), mode: 0o644).head(
            TextFile.sizeLimit + 1)
        guard page.count <= TextFile.sizeLimit else {
            throw LinuxPackageError.unreadable(
                path: source.path,
                reason:
                    "a manual page over the \(ByteCount.format(Int64(TextFile.sizeLimit))) relctl reads of one; gzip it yourself, or install it outside /usr/share/man"
            )
        }
        return page
    }

    /// The table's `license-file`, else the first of the usual names in the project root.
    private func licenseText(_ settings: LinuxPackageSettings, config: RelctlConfig) throws -> String? {
        let candidates = settings.licenseFile.map { [$0] } ?? ["LICENSE", "LICENSE.md", "LICENSE.txt", "COPYING"]
        for candidate in candidates {
            let file = try ProjectFile.open(
                candidate, in: config.root,
                what: settings.licenseFile == nil ? "the license file" : "[[package]] license-file")
            let url = file.location
            guard file.isRegularFile else {
                if settings.licenseFile != nil {
                    throw LinuxPackageError.unreadable(
                        path: url.path, reason: "no such file ([[package]] license-file)")
                }
                continue
            }
            guard let data = file.data(), let text = String(data: data, encoding: .utf8) else {
                throw LinuxPackageError.unreadable(path: url.path, reason: "not UTF-8 text")
            }
            return text
        }
        return nil
    }
}

extension LinuxPackageBuilder {
    /// `relctl linux-package --export-key FILE`: the armored OpenPGP public key of the rpm
    /// table's signing key, for `rpm --import`; returns its key ID.
    public static func exportKey(config: RelctlConfig, to url: URL, context: Context) throws -> String {
        let tables = config.linuxPackages.filter { $0.format == "rpm" }
        guard !tables.isEmpty else {
            throw LinuxPackageError.nothingToPackage(
                config: config.path, reason: "has no [[package]] with format = \"rpm\"; only rpm packages are signed")
        }
        var keys: [OpenPGPSigningKey] = []
        for settings in tables {
            if let key = try RpmSigningKey.load(
                settings, config: config, root: config.root, environment: context.environment)
            {
                keys.append(key)
            }
        }
        guard let key = keys.first else {
            throw LinuxPackageError.nothingToPackage(
                config: config.path,
                reason:
                    "has no rpm signing key: set `signing-key` in the [[package]] format = \"rpm\" table or $\(RpmSigningKey.variable) to an OpenSSH Ed25519 private key (`ssh-keygen -t ed25519 -N ''`)"
            )
        }
        // Two rpm tables with different keys would need two files; one key per project is the rule.
        if let other = keys.first(where: { $0.fingerprint != key.fingerprint || $0.userID != key.userID }) {
            throw LinuxPackageError.nothingToPackage(
                config: config.path,
                reason:
                    "its rpm tables sign with different keys or maintainers (\(key.keyIDText) \(key.userID), \(other.keyIDText) \(other.userID)); use one key and one maintainer for every rpm table"
            )
        }
        try AtomicFile.write(key.armoredPublicKey, to: url)
        return key.keyIDText
    }
}
