import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel

/// Publishes the `[npm]` packages of a release through the npm registry's publish API (issue
/// 61): for each package, `GET {registry}/{escaped-name}` (its packument), then, unless the
/// version is there, `PUT {registry}/{escaped-name}` with the package document (the version's
/// package.json with `_id` and `dist`, the dist-tag, the tarball base64 in `_attachments`), as
/// `npm publish` sends it. Platform packages go first, the main package last, so nobody installs
/// a main package whose platform packages are missing. Run again, it publishes nothing twice: a
/// version the registry holds with the same integrity is done, one with another is exit 1. The
/// token (`NPM_TOKEN`) is bound to the registry's origin and masked in every message.
package struct NpmPublisher: Sendable {
    package static let tokenVariable = "NPM_TOKEN"

    package var settings: NpmSettings
    package var http: any HTTPClient
    package var console: Console

    package init(settings: NpmSettings, http: any HTTPClient, console: Console) {
        self.settings = settings
        self.http = http
        self.console = console
    }

    /// What happened to one package.
    package enum Outcome: String, Sendable {
        case published, alreadyPublished = "already published", wouldPublish = "would publish"
    }

    /// `NPM_TOKEN`, or exit 2 before anything is sent.
    package static func token(environment: [String: String], settings: NpmSettings) throws -> String {
        guard let token = environment[tokenVariable], !token.isEmpty else {
            throw NpmError.noToken(registry: settings.registry)
        }
        return token
    }

    /// The release's npm packages in dist/, as manifest.json lists them (format `npm`): the
    /// platform packages by name, then the main package (the one of no target).
    package static func packages(in dist: URL, shownDist: String, tag: String) throws -> [(url: URL, shown: String)] {
        guard let manifest = try ReleaseManifest.read(in: dist) else {
            throw NpmError.missingPackage(path: shownDist + "/" + ReleaseManifest.fileName, tag: tag)
        }
        guard manifest.tag == tag else {
            throw PublishError.otherRelease(
                manifest: shownDist + "/" + ReleaseManifest.fileName, manifestTag: manifest.tag, tag: tag)
        }
        let packages = manifest.artifacts.filter { $0.format == "npm" }
        let ordered = packages.filter { !$0.target.isEmpty } + packages.filter { $0.target.isEmpty }
        return ordered.map { (dist.appendingPathComponent($0.name), shownDist + "/" + $0.name) }
    }

    /// `@acme/velostream` as the registry's path spells it: `@acme%2fvelostream`.
    package static func escapedName(_ name: String) -> String {
        name.replacingOccurrences(of: "/", with: "%2f")
    }

    /// The dist-tag of `version`: `latest`, or a prerelease's own line (`rc` for 1.2.0-rc.1,
    /// `next` when its first identifier is a number), so `npm install` without a tag never
    /// gets a prerelease.
    package static func distTag(_ version: SemanticVersion) -> String {
        guard version.isPrerelease else { return "latest" }
        let name = version.prereleaseName?.lowercased() ?? "next"
        return name == "latest" || name.isEmpty ? "next" : name
    }

    /// Publishes (or, with `dryRun`, checks) each package in order and returns what happened to each.
    package func publish(
        _ packages: [(url: URL, shown: String)], version: SemanticVersion, token: String, dryRun: Bool
    ) async throws -> [(name: String, outcome: Outcome)] {
        var results: [(name: String, outcome: Outcome)] = []
        for package in packages {
            let tarball = try NpmTarball.read(package.url, shown: package.shown)
            guard tarball.version == version.description else {
                throw NpmError.unreadablePackage(
                    path: package.shown,
                    reason: "its version is \(tarball.version), not this release's \(version.description)")
            }
            let outcome = try await publishOne(tarball, version: version, token: token, dryRun: dryRun)
            console.info("npm: \(tarball.name)@\(tarball.version): \(outcome.rawValue) (\(settings.registryBase))")
            results.append((tarball.name, outcome))
        }
        return results
    }

    private func publishOne(
        _ tarball: NpmTarball, version: SemanticVersion, token: String, dryRun: Bool
    ) async throws -> Outcome {
        guard let url = URL(string: settings.registryBase + "/" + Self.escapedName(tarball.name)) else {
            throw NpmError.unreadablePackage(path: tarball.name, reason: "its name makes no registry URL")
        }
        let credential = HTTPCredential(authorization: "Bearer " + token, for: url)
        if let published = try await publishedIntegrity(of: tarball, at: url, credential: credential, token: token) {
            return try same(published, tarball)
        }
        if dryRun { return .wouldPublish }
        var request = HTTPRequest(
            method: "PUT", url: url,
            headers: ["Content-Type": "application/json", "Accept": "application/json", "npm-command": "publish"],
            body: .data(try document(tarball, version: version)), timeout: 120)
        request.credential = credential
        let response = try await http.send(request)
        if (200..<300).contains(response.status) { return .published }
        // A conflict (the version is there: an earlier attempt whose answer was lost, or a
        // retried PUT that had landed) is decided by what the registry now holds.
        if [403, 409].contains(response.status),
            let published = try await publishedIntegrity(of: tarball, at: url, credential: credential, token: token)
        {
            return try same(published, tarball)
        }
        throw registryError(request, response, token: token)
    }

    /// Done when the registry's integrity is this package's; exit 1 naming it when not.
    private func same(_ published: String, _ tarball: NpmTarball) throws -> Outcome {
        guard published == tarball.integrity else {
            throw NpmError.versionDiffers(
                package: tarball.name, version: tarball.version, registry: settings.registryBase,
                published: published, local: tarball.integrity)
        }
        return .alreadyPublished
    }

    /// The integrity the registry holds for this package's version; nil when it holds no such
    /// version (or no such package).
    private func publishedIntegrity(
        of tarball: NpmTarball, at url: URL, credential: HTTPCredential?, token: String
    ) async throws -> String? {
        var request = HTTPRequest(method: "GET", url: url, headers: ["Accept": "application/json"])
        request.credential = credential
        let response = try await http.send(request)
        if response.status == 404 { return nil }
        guard response.status == 200 else { throw registryError(request, response, token: token) }
        guard let packument = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any] else {
            throw NpmError.registry(
                request: request.summary, status: response.status, message: "the answer is not a package document")
        }
        guard let versions = packument["versions"] as? [String: Any],
            let entry = versions[tarball.version] as? [String: Any]
        else { return nil }
        let dist = entry["dist"] as? [String: Any]
        return dist?["integrity"] as? String ?? "(none)"
    }

    /// The document `npm publish` PUTs (libnpmpublish's): the version's package.json with `_id`
    /// and `dist`, the dist-tag, and the tarball in `_attachments`.
    package func document(_ tarball: NpmTarball, version: SemanticVersion) throws -> Data {
        guard var manifest = try JSONSerialization.jsonObject(with: tarball.packageJSON) as? [String: Any] else {
            throw NpmError.unreadablePackage(path: tarball.name, reason: "package/package.json is not an object")
        }
        let fileName = tarball.name + "-" + tarball.version + ".tgz"
        manifest["_id"] = tarball.name + "@" + tarball.version
        manifest["dist"] = [
            "integrity": tarball.integrity, "shasum": tarball.shasum,
            "tarball": settings.registryBase + "/" + tarball.name + "/-/" + fileName,
        ]
        var root: [String: Any] = [
            "_id": tarball.name, "name": tarball.name,
            "dist-tags": [Self.distTag(version): tarball.version],
            "versions": [tarball.version: manifest],
            "_attachments": [
                fileName: [
                    "content_type": "application/octet-stream", "data": tarball.data.base64EncodedString(),
                    "length": tarball.data.count,
                ]
            ],
        ]
        if let description = manifest["description"] { root["description"] = description }
        return try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    private func registryError(_ request: HTTPRequest, _ response: HTTPResponse, token: String) -> NpmError {
        let masked = response.maskingSecrets([token])
        let text = String(decoding: masked.body.prefix(SecretMask.messageWindow), as: UTF8.self)
        var message = text
        if let object = try? JSONSerialization.jsonObject(with: masked.body) as? [String: Any],
            let error = object["error"] as? String ?? object["message"] as? String
        {
            message = error
        }
        return .registry(
            request: request.summary, status: response.status,
            message: String(SecretMask.mask(message, hiding: [token]).prefix(300)))
    }
}
