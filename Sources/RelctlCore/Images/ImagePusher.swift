import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Pushes an OCI image layout to its repository over the distribution API: every blob the
/// registry lacks (HEAD first; a cross-repository mount for base layers where it can), then each
/// platform manifest, then the index by digest, and only then the tags. Running it again uploads
/// nothing that is already there, so a failed push is finished by running it again.
public struct ImagePusher: Sendable {
    public var context: Context

    public init(context: Context) {
        self.context = context
    }

    /// What a push did, for the summary line and the tests.
    public struct Report: Sendable, Equatable {
        public var uploaded = 0
        public var uploadedBytes: Int64 = 0
        public var mounted = 0
        public var present = 0
    }

    /// Pushes `image`. With `dryRun`, only checks that the registry answers and accepts the
    /// credentials for push (nothing is written) and returns an empty report.
    @discardableResult
    public func push(_ image: BuiltImage, dryRun: Bool = false) async throws -> Report {
        let layout = URL(fileURLWithPath: image.layout)
        let credentials = try DockerCredentials(environment: context.environment).lookup(
            registry: image.reference.registry)
        let mountFrom = image.base.flatMap { $0.registry == image.reference.registry ? $0.repository : nil }
        let client = RegistryClient(
            reference: image.reference, credentials: credentials, push: true, alsoPull: mountFrom.map { [$0] } ?? [])
        try await client.ping()

        let blobs = layout.appendingPathComponent("blobs/sha256")
        let index = try OCIJSON.decode(
            OCIIndex.self, from: try read(blobs, image.digest),
            what: "the image index \(image.digest) in \(layout.path)")
        var manifests: [(descriptor: OCIDescriptor, body: Data, manifest: OCIManifest)] = []
        for descriptor in index.manifests {
            let body = try read(blobs, descriptor.digest)
            manifests.append(
                (
                    descriptor, body,
                    try OCIJSON.decode(
                        OCIManifest.self, from: body, what: "the manifest \(descriptor.digest) in \(layout.path)")
                ))
        }

        if dryRun {
            // A HEAD is a read: it proves the registry answers and the credentials are accepted.
            _ = try await blobExists(client, index.manifests.first?.digest ?? image.digest)
            if let actions = client.grantedActions, !actions.contains("push") {
                // Anonymous tokens grant pull at most: that is a missing login, not a missing permission.
                if credentials == nil {
                    throw ImageError.unauthorized(
                        registry: client.registry, repository: client.repository, detail: "no credentials stored for it"
                    )
                }
                throw ImageError.denied(
                    registry: client.registry, repository: client.repository,
                    detail: "the token grants \(actions.isEmpty ? "no access" : actions.joined(separator: ","))")
            }
            context.console.info(
                "image \(image.name): \(client.registry) accepts the credentials for \(client.repository); would push \(image.digest) as \(image.tags.joined(separator: ", "))"
            )
            return Report()
        }

        var report = Report()
        let baseLayers = Set(manifests.flatMap { $0.manifest.layers.dropLast().map(\.digest) })
        var seen: Set<String> = []
        for entry in manifests {
            for blob in entry.manifest.layers + [entry.manifest.config] where seen.insert(blob.digest).inserted {
                if try await blobExists(client, blob.digest) {
                    report.present += 1
                    continue
                }
                if let mountFrom, baseLayers.contains(blob.digest),
                    try await mount(client, blob.digest, from: mountFrom)
                {
                    report.mounted += 1
                    continue
                }
                try await upload(client, blob.digest, data: try read(blobs, blob.digest))
                report.uploaded += 1
                report.uploadedBytes += blob.size
            }
        }
        for entry in manifests {
            try await putManifest(
                client, reference: entry.descriptor.digest, body: entry.body, mediaType: OCIMediaType.manifest)
        }
        let indexBody = try read(blobs, image.digest)
        try await putManifest(client, reference: image.digest, body: indexBody, mediaType: OCIMediaType.index)
        // Tags last: a tag never points at an index whose parts the registry does not hold yet.
        for tag in image.tags {
            try await putManifest(client, reference: tag, body: indexBody, mediaType: OCIMediaType.index)
        }
        context.console.info(
            "pushed \(image.reference.name)@\(image.digest) as \(image.tags.joined(separator: ", ")): \(report.uploaded) blob(s) uploaded (\(ByteCount.format(report.uploadedBytes))), \(report.mounted) mounted, \(report.present) already there"
        )
        return report
    }

    private func read(_ blobs: URL, _ digest: String) throws -> Data {
        let url = blobs.appendingPathComponent(String(digest.dropFirst("sha256:".count)))
        guard let data = FileSystem.contents(of: url) else {
            throw ImageError.badContent(
                what: "the image layout \(blobs.deletingLastPathComponent().deletingLastPathComponent().path)",
                reason: "blob \(digest) is missing; run `relctl image` again to rebuild it")
        }
        return data
    }

    private func blobExists(_ client: RegistryClient, _ digest: String) async throws -> Bool {
        let (response, data) = try await client.send("HEAD", "blobs/\(digest)")
        switch response.statusCode {
        case 200: return true
        case 404: return false
        default:
            throw ImageError.registry(
                registry: client.registry, repository: client.repository, action: "HEAD blob \(digest)",
                status: response.statusCode, detail: RegistryClient.detail(data))
        }
    }

    /// `POST …/blobs/uploads/?mount=D&from=R`: 201 means the registry linked the blob without an
    /// upload; anything else (202 opens an upload session we cancel) means upload it.
    private func mount(_ client: RegistryClient, _ digest: String, from repository: String) async throws -> Bool {
        let (response, _) = try await client.send(
            "POST", "blobs/uploads/?mount=\(digest)&from=\(repository)", headers: ["Content-Length": "0"])
        if response.statusCode == 201 { return true }
        if response.statusCode == 202, let location = response.value(forHTTPHeaderField: "Location"),
            let url = client.url(location: location, adding: URLQueryItem(name: "cancel", value: "1"))
        {
            _ = try? await client.send("DELETE", "", absolute: url)
        }
        return false
    }

    /// A monolithic upload: POST opens the session, one PUT with `?digest=` sends the bytes and closes it.
    private func upload(_ client: RegistryClient, _ digest: String, data: Data) async throws {
        let (opened, openedBody) = try await client.send("POST", "blobs/uploads/", headers: ["Content-Length": "0"])
        guard opened.statusCode == 202, let location = opened.value(forHTTPHeaderField: "Location"),
            let url = client.url(location: location, adding: URLQueryItem(name: "digest", value: digest))
        else {
            throw ImageError.registry(
                registry: client.registry, repository: client.repository, action: "starting the upload of \(digest)",
                status: opened.statusCode, detail: RegistryClient.detail(openedBody))
        }
        let (response, body) = try await client.send(
            "PUT", "", absolute: url, headers: ["Content-Type": "application/octet-stream"], body: data)
        guard response.statusCode == 201 else {
            throw ImageError.registry(
                registry: client.registry, repository: client.repository, action: "uploading \(digest)",
                status: response.statusCode, detail: RegistryClient.detail(body))
        }
    }

    private func putManifest(_ client: RegistryClient, reference: String, body: Data, mediaType: String) async throws {
        let (response, answer) = try await client.send(
            "PUT", "manifests/\(reference)", headers: ["Content-Type": mediaType], body: body)
        guard response.statusCode == 201 || response.statusCode == 200 else {
            throw ImageError.registry(
                registry: client.registry, repository: client.repository, action: "PUT manifest \(reference)",
                status: response.statusCode, detail: RegistryClient.detail(answer))
        }
    }
}
