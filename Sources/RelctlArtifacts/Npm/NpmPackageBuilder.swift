import Foundation
import RelctlBasics
import RelctlModel

/// Writes the `[npm]` packages into dist/ (issue 61): one tarball per target whose binaries npm
/// can name, then the main package. Each is laid out as `npm pack` lays out a folder: every
/// entry under `package/`, regular files only (no folder entries), sorted as npm sorts them,
/// dated 1985-10-26 08:15:00 UTC (npm's fixed time), uid and gid 0, modes 0644 and 0755 for the
/// binaries and launchers; gzipped. Written through the archives' own writer (libarchive's tar,
/// relctl's gzip), so the same release gives the same bytes.
public struct NpmPackageBuilder: Sendable {
    package var context: Context

    package init(context: Context) { self.context = context }

    /// The time `npm pack` gives every entry (`1985-10-26T08:15:00.000Z`).
    package static let packTime = 499_162_500

    /// One platform package of a release.
    package struct Platform: Sendable, Equatable {
        package var target: Target
        package var platform: NpmPlatform
        /// `@acme/velostream-linux-x64`.
        package var name: String
    }

    /// The platform packages for `targets`, in target order: the targets npm has no words for
    /// are left out; two targets npm would name alike are refused.
    package static func platforms(settings: NpmSettings, targets: [Target], config: String) throws -> [Platform] {
        var found: [Platform] = []
        for target in targets {
            guard let platform = NpmPlatform(triple: TargetTriple(target.triple)) else { continue }
            let name = settings.package + "-" + platform.suffix
            if let other = found.first(where: { $0.name == name }) {
                throw NpmError.samePlatform(config: config, name: name, targets: [other.target.triple, target.triple])
            }
            found.append(Platform(target: target, platform: platform, name: name))
        }
        guard !found.isEmpty else { throw NpmError.noPlatform(config: config, targets: targets.map(\.triple)) }
        return found
    }

    /// package.json's `libc` of a platform package. A musl build (static) runs on a glibc system
    /// too, and npm skips an optional dependency whose `libc` is not the system's: a musl package
    /// says `musl` only when the release has a glibc package for the same OS and CPU (which glibc
    /// systems then get); alone, it has no `libc`, so every Linux system of its CPU installs it.
    package static func libc(of platform: NpmPlatform, among platforms: [NpmPlatform]) -> [String]? {
        guard let libc = platform.libc else { return nil }
        if libc == "musl",
            !platforms.contains(where: { $0.os == platform.os && $0.cpu == platform.cpu && $0.libc == "glibc" })
        {
            return nil
        }
        return [libc]
    }

    /// `npm pack`'s file name: the name without `@`, `/` as `-`, then the version.
    package static func fileName(package name: String, version: String) -> String {
        var stem = name
        if stem.hasPrefix("@") { stem.removeFirst() }
        return stem.replacingOccurrences(of: "/", with: "-") + "-" + version + ".tgz"
    }

    /// Every file name this release writes into dist/ (the preflight and the dry run's plan).
    package static func fileNames(config: RelctlConfig, version: String, targets: [Target]) -> [String] {
        guard let settings = config.npm,
            let platforms = try? platforms(settings: settings, targets: targets, config: config.path)
        else { return [] }
        return platforms.map { fileName(package: $0.name, version: version) }
            + [fileName(package: settings.package, version: version)]
    }

    /// Entries sorted as npm's pack sorts its file list (`localeCompare` in English: letters
    /// before case, then case); relctl's entries are `bin/…` and `package.json`.
    package static func packOrder(_ paths: [String]) -> [String] {
        paths.sorted { lhs, rhs in
            let (a, b) = (lhs.lowercased(), rhs.lowercased())
            return a != b ? a < b : lhs > rhs
        }
    }

    /// Writes every package into `directory`, platform packages first (in target order), the
    /// main package last, and returns them in that order.
    /// - Parameters:
    ///   - remoteURL: the release remote's URL, for package.json's `repository` when GitHub or GitLab hosts it.
    ///   - binaryRoot: prebuilt binaries, as for `relctl package`.
    ///   - mainTargets: the targets the main package depends on, when more than `targets` (a CI
    ///     build job writes its own target's package and the same main package as every other job).
    package func write(
        config: RelctlConfig, inputs: PackagingInputs, targets: [Target], remoteURL: String?, into directory: URL,
        binaryRoot: URL? = nil, mainTargets: [Target]? = nil
    ) async throws -> [Artifact] {
        guard let settings = config.npm else { return [] }
        guard (try? SemanticVersion(parsing: inputs.version)) != nil else {
            throw NpmError.badVersion(version: inputs.version)
        }
        let platforms = try Self.platforms(settings: settings, targets: targets, config: config.path)
        let mainPlatforms = try mainTargets.map { try Self.platforms(settings: settings, targets: $0, config: config.path) }
        // relctl's own output folder (the staging folder, which a dry run's stages alongside may
        // not have made yet).
        try FileSystem.createDirectory(directory)
        let metadata = config.project.metadata
        let summary = metadata.description.flatMap { $0.split(separator: "\n").first.map(String.init) }
        let repository = NpmPackageDocument.repositoryURL(remoteURL: remoteURL).map {
            NpmPackageDocument.Repository(url: $0)
        }
        var written: [Artifact] = []
        var launched: [String: String] = [:]
        for item in platforms {
            var entries: [ArchiveEntry] = []
            for binary in config.build.binaries {
                let fileName = item.target.executableName(binary)
                guard let source = try binaryFile(fileName, binary: binary, config: config, target: item.target,
                    binaryRoot: binaryRoot)
                else { continue }
                entries.append(
                    ArchiveEntry(path: "bin/" + fileName, content: .file(source), mode: 0o755, origin: source.path))
            }
            let document = NpmPackageDocument(
                name: item.name, version: inputs.version,
                description: "The " + item.platform.suffix + " binary of " + settings.package
                    + (summary.map { ": " + $0 } ?? ""),
                license: metadata.license, homepage: metadata.homepage, repository: repository,
                os: [item.platform.os], cpu: [item.platform.cpu],
                libc: Self.libc(of: item.platform, among: (mainPlatforms ?? platforms).map(\.platform)),
                preferUnplugged: true)
            entries.append(
                ArchiveEntry(
                    path: "package.json", content: .generated(try document.encoded()), mode: 0o644, origin: "generated"))
            written.append(
                try await writeOne(
                    name: item.name, version: inputs.version, entries: entries, target: item.target.triple,
                    into: directory))
            launched[item.platform.suffix] = item.name
        }
        for item in mainPlatforms ?? [] { launched[item.platform.suffix] = item.name }
        var entries: [ArchiveEntry] = []
        var bin: [String: String] = [:]
        for binary in config.build.binaries {
            let path = NpmLauncher.path(binary: binary)
            bin[binary] = path
            entries.append(
                ArchiveEntry(
                    path: path,
                    content: .generated(try NpmLauncher.script(binary: binary, main: settings.package, packages: launched)),
                    mode: 0o755, origin: "generated"))
        }
        let main = NpmPackageDocument(
            name: settings.package, version: inputs.version, description: summary ?? config.project.name,
            license: metadata.license, homepage: metadata.homepage, repository: repository, bin: bin,
            optionalDependencies: Dictionary(
                uniqueKeysWithValues: (mainPlatforms ?? platforms).map { ($0.name, inputs.version) }))
        entries.append(
            ArchiveEntry(path: "package.json", content: .generated(try main.encoded()), mode: 0o644, origin: "generated"))
        written.append(
            try await writeOne(name: settings.package, version: inputs.version, entries: entries, target: "", into: directory))
        return written
    }

    /// The binary's file for `target`; nil for an optional binary the build did not make.
    private func binaryFile(
        _ fileName: String, binary: String, config: RelctlConfig, target: Target, binaryRoot: URL?
    ) throws -> URL? {
        var values = target.placeholders
        values["project"] = config.project.name  // as `relctl check` renders binary-dir: no version yet
        let settings = config.targets.first { $0.triple == target.triple }
        let folder = (settings?.binaryDirectory ?? config.build.binaryDirectory).render(values)
        let source = ArchiveLayout.locateBinary(
            fileName, directory: folder, root: config.root, override: binaryRoot, triple: target.triple)
        guard FileKind.isRegularFile(source.path) else {
            if config.build.optionalBinaries.contains(binary) { return nil }
            throw NpmError.missingBinary(binary: fileName, path: source.path, target: target.triple)
        }
        return source
    }

    /// One tarball, written atomically with its SHA-256 and SHA-512.
    private func writeOne(
        name: String, version: String, entries: [ArchiveEntry], target: String, into directory: URL
    ) async throws -> Artifact {
        let byPath = Dictionary(uniqueKeysWithValues: entries.map { ($0.path, $0) })
        let ordered = Self.packOrder(entries.map(\.path)).map { path in
            var entry = byPath[path]!
            entry = ArchiveEntry(path: "package/" + path, content: entry.content, mode: entry.mode, origin: entry.origin)
            return entry
        }
        let fileName = Self.fileName(package: name, version: version)
        let url = directory.appendingPathComponent(fileName)
        let layout = ArchiveLayout(
            name: "package", format: "tar.gz", links: .keep, entries: ordered, hasTopFolder: false)
        let written = try await ArchiveFile.write(
            layout, format: try ArchiveWriterFormats.format("tar.gz"), level: CompressionLevels.npmPackage,
            mtime: Self.packTime, to: url, alsoSHA512: true)
        context.console.info("packaged \(fileName): \(ByteCount.format(written.size))")
        return Artifact(
            name: fileName, kind: .npm, target: target, format: "npm", size: written.size, sha256: written.sha256,
            sha512: written.sha512, path: url.path, producedBy: .npm)
    }
}
