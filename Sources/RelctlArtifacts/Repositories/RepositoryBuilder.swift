import Foundation
import RelctlBasics
import RelctlModel

/// `relctl repository --tag TAG`: this release's packages in `dist/` added to the previous
/// repository and written, signed, into `dist/apt/` (and `dist/dnf/`).
package struct RepositoryBuilder {
    package static let keyVariable = "RELCTL_REPOSITORY_KEY"
    package static let aptFolder = "apt"
    package static let dnfFolder = "dnf"
    /// The rpm signing key's armored public key in `dist/dnf/`, when `[[package]] signing-key` signs the rpms.
    package static func rpmKeyName(project: String) -> String { "RPM-GPG-KEY-\(project)-packages" }

    package let context: Context

    package init(context: Context) { self.context = context }

    package struct Report: Sendable, Encodable, Equatable {
        package var apt: String?
        package var aptPackages: Int?
        package var dnf: String?
        package var dnfPackages: Int?
        package var fingerprint: String
        /// Where `--publish` pushed the repositories (empty: the branch already held them).
        package var published: [String]?
    }

    /// Writes the configured repositories into `dist` from this release's packages.
    /// - Parameter keysRoot: where `signing-key` and `previous` resolve (the project: a dry run's
    ///   scratch clone lacks git-ignored key folders).
    /// - Parameter packages: the packages `relctl release` just wrote; nil for `relctl repository`,
    ///   which takes the ones dist/'s `SHA256SUMS` lists.
    package func write(
        config: RelctlConfig, epoch: Int, dist: URL, keysRoot: URL, packages: [Artifact]? = nil
    ) async throws -> Report {
        let settings = config.repositories
        guard settings.isEnabled else {
            throw RepositoryError.badInput(
                path: config.path,
                reason: "has no [apt] or [dnf] table; add `[apt]` (suite = \"stable\") to write a signed APT repository"
            )
        }
        let key = try Self.loadKey(settings, root: keysRoot, environment: context.environment, config: config.path)
        var report = Report(fingerprint: key.fingerprintText)
        var previous: URL?
        var fetched: URL?
        // The fetched copy goes however the build ends; the registry removes it on Ctrl-C.
        defer {
            if let fetched {
                try? FileSystem.remove(fetched)
                CleanupRegistry.shared.unregister(fetched)
            }
        }
        if let location = settings.previous {
            // A URL or a folder, the same verified source: the signed indexes checked with the
            // repository key, every index and package with its signed size and SHA-256, copied
            // into a scratch folder; the builders extend only that copy (issue 55).
            let isURL = location.hasPrefix("http://") || location.hasPrefix("https://")
            let remote =
                isURL
                ? try RemoteRepository(location: location, key: key, http: RetryingHTTPClient(base: context.http))
                : try RemoteRepository(folder: try previousFolder(location, root: keysRoot), key: key)
            let folder = Temporaries.scratchURL("repository-previous")
            fetched = folder
            try CleanupRegistry.shared.makeDirectory(folder)
            try await remote.fetch(aptSuite: settings.aptSuite, dnf: settings.dnf, into: folder)
            context.console.detail(
                "\(isURL ? "fetched" : "read") and verified the previous repository from \(remote.shown)")
            previous = folder
        }
        // Both folders are built whole in one staging folder beside them and only then moved into
        // place together: a fault while writing either (a full disk, `ulimit -f`) leaves the old
        // `apt/` and `dnf/` as they were, never a new `apt/` beside an old or missing `dnf/`.
        let stage = AtomicFile.temporaryURL(for: dist.appendingPathComponent("repositories"))
        do {
            try CleanupRegistry.shared.makeDirectory(stage)
        } catch let error as FileSystemError {
            // Named as the first folder it was to become (a read-only dist/ refuses `apt/`).
            let first = settings.aptSuite != nil ? Self.aptFolder : Self.dnfFolder
            throw error.relocated(from: stage, to: dist.appendingPathComponent(first))
        }
        defer {
            try? FileSystem.remove(stage)
            CleanupRegistry.shared.unregister(stage)
        }
        var staged: [String] = []
        do {
            try stageRepositories(
                settings: settings, config: config, packages: packages, dist: dist, stage: stage, previous: previous,
                epoch: epoch, key: key, report: &report, staged: &staged)
        } catch let error as FileSystemError {
            throw error.relocated(from: stage, to: dist)
        }
        try Self.moveIntoPlace(staged, from: stage, to: dist)
        for name in staged {
            let folder = dist.appendingPathComponent(name)
            if name == Self.aptFolder {
                report.apt = folder.path
                context.console.info(
                    "wrote \(folder.path): \(report.aptPackages ?? 0) packages, suite \(settings.aptSuite ?? ""), signed by \(key.fingerprintText)"
                )
            } else {
                report.dnf = folder.path
                context.console.info(
                    "wrote \(folder.path): \(report.dnfPackages ?? 0) packages, repomd.xml signed by \(key.fingerprintText)"
                )
            }
        }
        return report
    }

    /// Swaps each staged folder for its place in `dist` (one atomic exchange each, as
    /// `AtomicFile.writeFolder` does). Every byte is written before the first swap, so a write
    /// fault (a full disk, `ulimit -f`) changes neither folder.
    private static func moveIntoPlace(_ names: [String], from stage: URL, to dist: URL) throws {
        for name in names {
            let destination = dist.appendingPathComponent(name)
            do { try AtomicFile.replaceFolder(stage.appendingPathComponent(name), at: destination) } catch {
                throw FileSystemError(
                    path: destination.path, action: "cannot move the finished folder into place", errno: error.code)
            }
        }
    }

    private func stageRepositories(
        settings: RepositorySettings, config: RelctlConfig, packages: [Artifact]?, dist: URL, stage: URL,
        previous: URL?, epoch: Int, key: OpenPGPSecretKey, report: inout Report, staged: inout [String]
    ) throws {
        if let suite = settings.aptSuite {
            let debs = try Self.releaseFiles(packages, kind: .deb, in: dist)
            let apt = AptRepository(suite: suite, origin: config.project.name, epoch: epoch, key: key)
            let folder = stage.appendingPathComponent(Self.aptFolder)
            report.aptPackages = try apt.write(
                debs: debs, previous: previous.map { $0.appendingPathComponent(Self.aptFolder) }, into: folder)
            staged.append(Self.aptFolder)
        }
        if settings.dnf {
            let rpms = try Self.releaseFiles(packages, kind: .rpm, in: dist)
            var extraKeys: [String: String] = [:]
            for table in config.linuxPackages where table.format == "rpm" {
                if let rpmKey = try RpmSigningKey.load(
                    table, config: config, root: config.root, environment: context.environment)
                {
                    extraKeys[Self.rpmKeyName(project: config.project.name)] = rpmKey.armoredPublicKey
                }
            }
            let dnf = DnfRepository(origin: config.project.name, epoch: epoch, key: key)
            let folder = stage.appendingPathComponent(Self.dnfFolder)
            report.dnfPackages = try dnf.write(
                rpms: rpms, previous: previous.map { $0.appendingPathComponent(Self.dnfFolder) }, into: folder,
                extraKeys: extraKeys)
            staged.append(Self.dnfFolder)
        }
    }

    /// The repository key: `$RELCTL_REPOSITORY_KEY` (the key's text), else `[repository] signing-key`.
    package static func loadKey(
        _ settings: RepositorySettings, root: URL, environment: [String: String], config: String
    ) throws -> OpenPGPSecretKey {
        if let text = environment[keyVariable], !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            return try OpenPGPSecretKey(text: text, source: "$\(keyVariable)")
        }
        guard let path = settings.signingKey else {
            throw SigningError.badKey(
                source: config,
                reason:
                    "no repository signing key: set `[repository] signing-key` to an armored OpenPGP secret key (`gpg --export-secret-keys --armor KEYID`), or put its text in \(keyVariable)"
            )
        }
        let url = RelctlConfig.resolve(path, root: root)
        guard FileSystem.kind(of: url) == .file, let data = FileSystem.contents(of: url), data.count < 1 << 20 else {
            throw SigningError.missingFile(
                path: path,
                reason:
                    "`[repository] signing-key` names this file but it cannot be read (paths are relative to \(root.path))"
            )
        }
        return try OpenPGPSecretKey(text: String(decoding: data, as: UTF8.self), source: path)
    }

    /// The previous repository's root given as a local folder.
    private func previousFolder(_ location: String, root: URL) throws -> URL {
        let url = RelctlConfig.resolve(location, root: root)
        guard FileSystem.isDirectory(url) else {
            throw RepositoryError.badInput(path: location, reason: "`[repository] previous` is not a folder")
        }
        return url
    }

    /// The packages of `kind` among `packages`, sorted by name; without them, those dist/ holds.
    package static func releaseFiles(_ packages: [Artifact]?, kind: ArtifactKind, in dist: URL) throws -> [URL] {
        guard let packages else { return try releaseFiles(in: dist, suffix: "." + kind.rawValue) }
        return packages.filter { $0.kind == kind }.sorted { $0.name < $1.name }.map {
            AbsolutePath($0.path ?? $0.name, relativeTo: AbsolutePath(dist)).url
        }
    }

    /// This release's files in dist/ ending in `suffix`: those SHA256SUMS lists when it exists
    /// (files of other tags lying in dist/ are not this release's), else every such file.
    package static func releaseFiles(in dist: URL, suffix: String) throws -> [URL] {
        let sums = dist.appendingPathComponent("SHA256SUMS")
        var names: [String]
        if let data = FileSystem.contents(of: sums) {
            names = String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
                guard let space = line.firstIndex(of: " ") else { return nil }
                return line[space...].trimmingCharacters(in: CharacterSet(charactersIn: " *"))
            }
        } else {
            names = (try? FileSystem.names(in: dist)) ?? []
        }
        names = names.filter { $0.hasSuffix(suffix) && !$0.contains("/") }.sorted()
        return names.map { dist.appendingPathComponent($0) }
    }
}
