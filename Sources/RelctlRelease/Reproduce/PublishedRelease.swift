import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel

/// The release `reproduce` compares against: its checksum file and, when needed, its files,
/// from a folder (`dist/` by default) or from the release's download URL (over HTTPS with the
/// client `publish` uses; plain HTTP only to a loopback host, as for registries).
final class PublishedRelease: Sendable {
    enum Location: Sendable {
        case folder(URL)
        case web(URL)
    }

    let location: Location
    /// Where it came from, as the user gave it (or `dist/`).
    let shown: String
    let sums: ChecksumFile
    let sumsName: String
    let manifest: ReleaseManifest?
    private let http: any HTTPClient
    /// Where downloaded files go (a scratch folder, removed by `close`).
    private let downloads: URL

    private init(
        location: Location, shown: String, sums: ChecksumFile, sumsName: String, manifest: ReleaseManifest?,
        http: any HTTPClient, downloads: URL
    ) {
        self.location = location
        self.shown = shown
        self.sums = sums
        self.sumsName = sumsName
        self.manifest = manifest
        self.http = http
        self.downloads = downloads
    }

    /// Reads the published checksum file (SHA256SUMS, else SHA512SUMS) from `source`, or from
    /// the project's dist/ when nil; a manifest.json there must describe `tag`.
    static func open(
        source: String?, tag: String, config: RelctlConfig, context: Context, http: (any HTTPClient)? = nil
    ) async throws -> PublishedRelease {
        let client =
            http ?? RetryingHTTPClient(base: context.http)
        let downloads = Temporaries.scratchURL("reproduce-published")
        let location: Location
        let shown: String
        if let source, source.hasPrefix("https://") || source.hasPrefix("http://") {
            guard var url = URL(string: source), let host = url.host, !host.isEmpty else {
                throw ReproduceError.badSource(source: source, reason: "not a valid URL")
            }
            if url.scheme == "http", HTTPOrigin(url)?.isLoopback != true {
                throw ReproduceError.badSource(
                    source: source,
                    reason: "plain http is only accepted for a loopback host; use the release's https:// download URL")
            }
            if !url.path.hasSuffix("/") { url = url.appendingPathComponent("") }
            location = .web(url)
            shown = source
        } else {
            let folder = source.map { context.resolve($0) } ?? config.distDirectory
            shown = source ?? "dist/"
            guard FileSystem.isDirectory(folder) else {
                throw ReproduceError.noPublishedSums(
                    source: shown,
                    reason:
                        "not a folder; pass the published release's files with --from DIR, or its download URL with --from URL"
                )
            }
            location = .folder(folder)
        }
        let probe = PublishedRelease(
            location: location, shown: shown, sums: ChecksumFile(entries: []), sumsName: "", manifest: nil,
            http: client, downloads: downloads)
        var found: (String, Data)?
        for algorithm in ChecksumAlgorithm.allCases {
            if let data = try await probe.contents(algorithm.sumsFileName) {
                found = (algorithm.sumsFileName, data)
                break
            }
        }
        guard let (sumsName, data) = found else {
            throw ReproduceError.noPublishedSums(
                source: shown,
                reason: "holds no SHA256SUMS (or SHA512SUMS); pass the published release's folder or URL with --from")
        }
        let sums = try ChecksumFile.parse(String(decoding: data, as: UTF8.self), path: "\(shown) \(sumsName)")
        if let outside = sums.entries.first(where: { !ChecksumVerifier.staysInside($0.name) }) {
            throw ReproduceError.badSource(
                source: shown, reason: "\(sumsName) names `\(outside.name)`, outside the release's folder")
        }
        var manifest: ReleaseManifest?
        if let manifestData = try await probe.contents(ReleaseManifest.fileName) {
            manifest = try? JSONDecoder().decode(ReleaseManifest.self, from: manifestData)
        }
        if let manifest, !manifest.tag.isEmpty, manifest.tag != tag {
            throw ReproduceError.otherRelease(source: shown, tag: tag, found: manifest.tag)
        }
        return PublishedRelease(
            location: location, shown: shown, sums: sums, sumsName: sumsName, manifest: manifest, http: client,
            downloads: downloads)
    }

    /// True when the published files are on this machine (a folder), so each can be re-hashed.
    var isLocal: Bool {
        if case .folder = location { return true }
        return false
    }

    /// The published file `name` on disk (downloaded first from a URL), or nil when absent.
    /// `name` comes from the release (SHA256SUMS, manifest.json): it is data, never a path, so
    /// anything but plain relative names (`..`, `.`, an absolute path, a backslash, a control
    /// character) is refused before a byte is read or written.
    func file(_ name: String) async throws -> URL? {
        guard Self.isPlainName(name) else {
            throw ReproduceError.unsafeName(
                name: name, source: shown)
        }
        switch location {
        case .folder(let folder):
            let url = folder.appendingPathComponent(name)
            return FileKind.isRegularFile(url.path) ? url : nil
        case .web(let base):
            if !FileSystem.exists(downloads) { try CleanupRegistry.shared.makeDirectory(downloads) }
            let url = downloads.appendingPathComponent(name)
            try FileSystem.createDirectory(url.deletingLastPathComponent())
            // Streamed to disk, never whole in memory; an archive larger than any release asset
            // (GitHub's cap is 2 GiB) is refused while it arrives.
            let source = name.split(separator: "/").reduce(base) { $0.appendingPathComponent(String($1)) }
            var request = HTTPRequest(method: "GET", url: source, timeout: 120)
            request.responseFile = url
            request.responseLimit = Self.downloadLimit
            let response = try await http.send(request)
            guard response.status == 200 else {
                let text = String(decoding: (FileSystem.contents(of: url) ?? Data()).prefix(200), as: UTF8.self)
                try? FileSystem.remove(url)
                if response.status == 404 { return nil }
                throw ReproduceError.downloadFailed(
                    url: source.absoluteString, reason: "HTTP \(response.status): \(text)")
            }
            return url
        }
    }

    /// A relative name of one or more plain components: what a release may name its files.
    static func isPlainName(_ name: String) -> Bool {
        ConfinedPath.isPlainRelative(name)
            && !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0 == "\\" }
    }

    /// The most a published file may be: 4 GiB, twice GitHub's limit for a release asset.
    static let downloadLimit: Int64 = 4 << 30

    /// The bytes of `name`, nil when the folder or server does not have it (404).
    private func contents(_ name: String) async throws -> Data? {
        switch location {
        case .folder(let folder):
            let url = folder.appendingPathComponent(name)
            return FileKind.isRegularFile(url.path) ? FileSystem.contents(of: url) : nil
        case .web(let base):
            let url = name.split(separator: "/").reduce(base) { $0.appendingPathComponent(String($1)) }
            let response = try await http.send(HTTPRequest(method: "GET", url: url, timeout: 120))
            if response.status == 404 { return nil }
            guard response.status == 200 else {
                throw ReproduceError.downloadFailed(
                    url: url.absoluteString, reason: "HTTP \(response.status): \(response.text.prefix(200))")
            }
            return response.body
        }
    }

    /// Removes what was downloaded.
    func close() {
        if FileSystem.exists(downloads) {
            try? FileSystem.remove(downloads)
            CleanupRegistry.shared.unregister(downloads)
        }
    }
}
