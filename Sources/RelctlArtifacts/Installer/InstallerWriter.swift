import Foundation
import RelctlBasics
import RelctlModel

/// `relctl installer`: writes `{project}-installer.sh` and `{project}-installer.ps1` into the
/// dist folder from its `manifest.json`.
public enum InstallerWriter {
    public struct Report: Codable, Sendable, Equatable {
        public var files: [String]
        /// Where the scripts download from by default; nil when only `INSTALLER_BASE_URL` works.
        package var baseURL: String?
        /// Machines (`os-arch`) the sh installer has an archive for.
        public var machines: [String]
        package var minisignKey: Bool
    }

    package static func shellFileName(project: String) -> String { "\(project)-installer.sh" }
    package static func powerShellFileName(project: String) -> String { "\(project)-installer.ps1" }

    /// `relctl installer`: from `DIR/manifest.json`. The scripts are added to the checksum files
    /// already in `DIR` (`SHA256SUMS`), so they are verified, signed and published with the archives.
    /// - Parameter repository: `OWNER/REPO` on GitHub (`--repository`); else `[publish] github`,
    ///   `GITHUB_REPOSITORY`, the release remote's URL.
    public static func write(
        dist shown: String, config: RelctlConfig, repository: String? = nil, context: Context
    ) async throws -> Report {
        let directory = context.resolve(shown)
        guard let manifest = try ReleaseManifest.read(in: directory) else {
            throw InstallerError.noManifest(path: "\(shown)/\(ReleaseManifest.fileName)")
        }
        let sums = ChecksumAlgorithm.sha256.sumsFileName
        if !FileSystem.exists(directory.appendingPathComponent(sums)) {
            context.console.warning(
                "\(shown)/\(sums) is missing: the installers download and check it; run `relctl checksum` (sha256), then `relctl installer` again, before publishing"
            )
        }
        // A failing command writes nothing: every checksum list the installers join is read before
        // either script is written, so a malformed one stops the command with dist/ as it was.
        try InstallerListing.readLists(in: directory, shown: shown)
        let remote = await Git(directory: config.root, context: context).configuredRemoteURL(config.release.remote)
        let report = try write(
            manifest: manifest, into: directory, shown: shown, config: config, keysRoot: config.root,
            repository: repository, remoteURL: remote, context: context)
        try await InstallerListing.list(
            report.files.map { directory.appendingPathComponent($0.lastPathComponent) }, in: directory, shown: shown,
            context: context)
        return report
    }

    /// The installers for `manifest`, written into `directory` (the release stage's staging
    /// folder, or dist/). `keysRoot` is where `[sign]` paths resolve: the project, also on a dry run.
    public static func write(
        manifest: ReleaseManifest, into directory: URL, shown: String, config: RelctlConfig, keysRoot: URL,
        repository: String?, remoteURL: String?, context: Context
    ) throws -> Report {
        guard !manifest.tag.isEmpty, !manifest.archives.isEmpty else {
            throw InstallerError.noTaggedArchives(path: "\(shown)/\(ReleaseManifest.fileName)")
        }
        for artifact in manifest.archives {
            if let bad = artifact.name.unicodeScalars.first(where: { !Self.isSafeInArchiveName($0) }) {
                throw InstallerError.unsafeArchiveName(
                    path: "\(shown)/\(ReleaseManifest.fileName)", name: artifact.name, character: bad)
            }
        }
        var key: String?
        if let path = config.sign.minisignPublicKey {
            let text = try SigningKeys.readFile(path, key: "minisign-public-key", root: keysRoot)
            let parsed = try MinisignPublicKey(text: text, source: path)
            key = Data(Array("Ed".utf8) + parsed.keyID + parsed.key).base64EncodedString()
        }
        // The repository the release is published to: the same one `relctl publish` uses first.
        let baseURL = downloadBase(
            tag: manifest.tag, repository: repository ?? config.publish.github, remoteURL: remoteURL, context: context)
        if baseURL == nil {
            context.console.warning(
                "the repository is unknown (no [publish] github, GITHUB_REPOSITORY or GitHub/GitLab remote): the installers will require INSTALLER_BASE_URL"
            )
        }
        let script = InstallerScript(manifest: manifest, baseURL: baseURL, minisignPublicKey: key)
        let machines = script.unixChoices.map(\.machine)
        if machines.isEmpty {
            context.console.warning(
                "no archive in \(shown) is for Linux, macOS or a BSD: \(shellFileName(project: manifest.project)) will refuse every machine"
            )
        }
        let sh = directory.appendingPathComponent(shellFileName(project: manifest.project))
        let ps1 = directory.appendingPathComponent(powerShellFileName(project: manifest.project))
        // Both texts first: a script that cannot be made leaves neither written.
        let (shellText, powerShellText) = (try script.shell(), try script.powerShell())
        try AtomicFile.write(shellText, to: sh, permissions: 0o755)
        try AtomicFile.write(powerShellText, to: ps1)
        return Report(
            files: [sh.lastPathComponent, ps1.lastPathComponent].map { "\(shown)/\($0)" }, baseURL: baseURL,
            machines: machines, minisignKey: key != nil)
    }

    /// Characters an archive name may hold for the installers: they go into download URLs
    /// unencoded and through sh word lists (a space splits a name, `*` globs, `%` and `#` change
    /// the URL). Letters of any script are kept; spaces, controls and shell or URL syntax are not.
    package static func isSafeInArchiveName(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            return CharacterSet.alphanumerics.contains(scalar) || "-._+~@,=".unicodeScalars.contains(scalar)
        }
        return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    /// The release's download folder URL, ending in `/`; nil when the repository is unknown.
    package static func downloadBase(tag: String, repository: String?, remoteURL: String?, context: Context) -> String?
    {
        let fromEnvironment = context.environment["GITHUB_REPOSITORY"].flatMap { $0.isEmpty ? nil : $0 }
        if let slug = repository ?? fromEnvironment {
            return "https://github.com/\(slug)/releases/download/\(tag)/"
        }
        guard let remoteURL, let links = RepositoryLinks(remoteURL: remoteURL) else { return nil }
        return links.downloadURL(tag: tag, file: "")
    }
}

/// Adds the installers `relctl installer` wrote to the checksum files of their folder. A file
/// users download from the release must be in `SHA256SUMS`: that list is what `relctl publish`
/// uploads and what the signatures cover.
package enum InstallerListing {
    /// Reads every `<ALG>SUMS` in `directory`, throwing (exit 2, naming file and line) on a
    /// malformed one: what `list` would fail on, found before anything is written.
    package static func readLists(in directory: URL, shown: String) throws {
        for algorithm in ChecksumAlgorithm.allCases {
            let sumsURL = directory.appendingPathComponent(algorithm.sumsFileName)
            guard FileSystem.exists(sumsURL) else { continue }
            _ = try ChecksumFile.read(sumsURL, displayPath: "\(shown)/\(algorithm.sumsFileName)")
        }
    }

    /// Upserts `files` (in `directory`) into every `<ALG>SUMS` there, each rewritten atomically;
    /// warns when a signature of a list it changed exists, since it no longer matches.
    package static func list(_ files: [URL], in directory: URL, shown: String, context: Context) async throws {
        for algorithm in ChecksumAlgorithm.allCases {
            let sumsURL = directory.appendingPathComponent(algorithm.sumsFileName)
            guard FileSystem.exists(sumsURL) else { continue }
            let shownSums = "\(shown)/\(algorithm.sumsFileName)"
            var sums = try ChecksumFile.read(sumsURL, displayPath: shownSums)
            let digests = try await FileHasher.digests(of: files, algorithms: [algorithm])
            let names = Set(files.map(\.lastPathComponent))
            let before = FileSystem.contents(of: sumsURL)
            sums.entries = sums.entries.filter { !names.contains($0.name) }
            sums.entries += digests.map {
                ChecksumFile.Entry(name: $0.url.lastPathComponent, digest: $0[algorithm], algorithm: algorithm)
            }
            sums = sums.sorted
            guard Data(sums.render().utf8) != before else { continue }
            try AtomicFile.write(sums.render(), to: sumsURL)
            context.console.detail("listed \(files.map(\.lastPathComponent).joined(separator: ", ")) in \(shownSums)")
            for signature in [ReleaseSigner.sshExtension, ReleaseSigner.minisignExtension]
            where FileSystem.exists(directory.appendingPathComponent(algorithm.sumsFileName + signature)) {
                context.console.warning(
                    "\(shownSums)\(signature) signed the list before the installers were added: sign it again (`relctl sign \(shownSums)`) before publishing"
                )
            }
        }
    }
}
