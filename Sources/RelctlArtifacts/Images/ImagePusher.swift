import Foundation
import RelctlBasics
import RelctlModel
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Pushes an OCI image layout to its repository over the distribution API: every blob the
/// registry lacks (HEAD first; a cross-repository mount for base layers where it can), then each
/// platform manifest, then the index by digest, and only then the tags. Running it again uploads
/// nothing that is already there, so a failed push is finished by running it again.
public struct ImagePusher: Sendable {
    package var context: Context

    public init(context: Context) {
        self.context = context
    }

    /// What a push did, for the summary line and the tests.
    public struct Report: Sendable, Equatable {
        package var uploaded = 0
        package var uploadedBytes: Int64 = 0
        package var mounted = 0
        package var present = 0
        /// Of `uploaded`: sent in chunks while the layer was compressed.
        package var streamed = 0
    }

    /// A registry connection opened ahead of the push: the credentials looked up, the API checked
    /// (`GET /v2/`) and the login done (Basic, or a Bearer token), while the layers are still being
    /// compressed. `push` awaits it; an error surfaces there.
    public final class Connection: Sendable {
        package let reference: ImageReference
        package let base: ImageReference?
        package let opened: Task<Opened, any Error>
        /// Layers uploaded while they were compressed, by digest (`ImageBuilder` with `uploads`).
        private let streamed = Mutex<[String: StreamedBlobUpload]>([:])

        /// Records a streamed upload of the blob `digest`, which `push` then waits for.
        package func streamed(_ upload: StreamedBlobUpload, digest: String) {
            streamed.withLock { $0[digest] = upload }
        }

        package func streamedUpload(_ digest: String) -> StreamedBlobUpload? {
            streamed.withLock { $0[digest] }
        }

        package struct Opened: Sendable {
            package var client: RegistryClient
            package var credentials: RegistryCredentials?
            package var mountFrom: String?
        }

        package init(
            reference: ImageReference, base: ImageReference?, environment: [String: String], http: any HTTPClient
        ) {
            self.reference = reference
            self.base = base
            opened = Task {
                let credentials = try await DockerCredentials(environment: environment).lookup(
                    registry: reference.registry)
                let mountFrom = base.flatMap { $0.registry == reference.registry ? $0.repository : nil }
                let client = RegistryClient(
                    reference: reference, credentials: credentials, push: true,
                    alsoPull: mountFrom.map { [$0] } ?? [], http: http)
                try await client.ping()
                return Opened(client: client, credentials: credentials, mountFrom: mountFrom)
            }
        }
    }

    /// Starts connecting to `reference` (and logging in) now, for a push later.
    public func connect(to reference: ImageReference, base: ImageReference?) -> Connection {
        Connection(reference: reference, base: base, environment: context.environment, http: context.http)
    }

    /// At most this many blob requests at once: enough to overlap round trips and keep the
    /// registry busy, few enough not to look like abuse to a public registry.
    package static let concurrentBlobs = 4

    /// Pushes `image`. With `dryRun`, only checks that the registry answers and accepts the
    /// credentials for push (nothing is written) and returns an empty report.
    /// - Parameter connection: from `connect(to:base:)` for this image's repository, when the
    ///   caller opened it early; otherwise one is opened here.
    @discardableResult
    public func push(_ image: BuiltImage, dryRun: Bool = false, connection: Connection? = nil) async throws -> Report {
        // The builder records the layout's absolute path; a relative one would be relative to here.
        let layout = AbsolutePath(image.layout, relativeTo: AbsolutePath(FileSystem.currentDirectory)).url
        let connection =
            connection.flatMap { $0.reference == image.reference && $0.base == image.base ? $0 : nil }
            ?? connect(to: image.reference, base: image.base)
        let opened = try await connection.opened.value
        let client = opened.client
        let read = try readLayout(layout, image: image)

        if dryRun {
            try await rehearse(image, client: client, credentials: opened.credentials, index: read.index)
            return Report()
        }
        // An unchanged image: one manifest HEAD per tag instead of a HEAD per blob and five PUTs.
        if await Self.tagsAlreadyPoint(at: image.digest, tags: image.tags, client: client) {
            context.console.info(
                "pushed \(image.reference.name)@\(image.digest) as \(image.tags.joined(separator: ", ")): 0 blob(s) uploaded, every tag already points at this index"
            )
            return Report()
        }
        let report = try await pushBlobs(
            read.manifests.map(\.manifest), blobs: read.blobs, client: client, connection: connection,
            mountFrom: opened.mountFrom)
        // The platform manifests at once, then the index by digest, and only then the tags: a tag
        // never points at an index whose parts the registry does not hold yet.
        try await putAll(
            client, read.manifests.map { ($0.descriptor.digest, $0.body, OCIMediaType.manifest) })
        try await putManifest(client, reference: image.digest, body: read.indexBody, mediaType: OCIMediaType.index)
        try await putAll(client, image.tags.map { ($0, read.indexBody, OCIMediaType.index) })
        context.console.info(
            "pushed \(image.reference.name)@\(image.digest) as \(image.tags.joined(separator: ", ")): \(report.uploaded) blob(s) uploaded (\(ByteCount.format(report.uploadedBytes))\(report.streamed > 0 ? ", \(report.streamed) while compressed" : "")), \(report.mounted) mounted, \(report.present) already there"
        )
        return report
    }

    /// The image's index and platform manifests as the layout holds them (bytes and decoded).
    private struct LayoutRead {
        var blobs: URL
        var index: OCIIndex
        var indexBody: Data
        var manifests: [(descriptor: OCIDescriptor, body: Data, manifest: OCIManifest)]
    }

    private func readLayout(_ layout: URL, image: BuiltImage) throws -> LayoutRead {
        let blobs = layout.appendingPathComponent("blobs/sha256")
        let indexBody = try read(blobs, image.digest)
        let index = try OCIJSON.decode(
            OCIIndex.self, from: indexBody, what: "the image index \(image.digest) in \(layout.path)")
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
        return LayoutRead(blobs: blobs, index: index, indexBody: indexBody, manifests: manifests)
    }

    /// The dry run: a HEAD is a read, so it proves the registry answers and the credentials are
    /// accepted; a token that does not grant push is refused here, before the real run.
    private func rehearse(
        _ image: BuiltImage, client: RegistryClient, credentials: RegistryCredentials?, index: OCIIndex
    ) async throws {
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
    }

    /// Every distinct blob, HEAD first and then mounted or uploaded, several at once; each
    /// upload streams its file, so memory stays flat however large the layer. A layer already
    /// streamed while it was compressed counts as uploaded when the registry confirmed it.
    private func pushBlobs(
        _ manifests: [OCIManifest], blobs: URL, client: RegistryClient, connection: Connection, mountFrom: String?
    ) async throws -> Report {
        let baseLayers = Set(manifests.flatMap { $0.layers.dropLast().map(\.digest) })
        var seen: Set<String> = []
        let distinct = manifests.flatMap { $0.layers + [$0.config] }.filter { seen.insert($0.digest).inserted }
        enum Outcome: Sendable {
            case present, mounted, uploaded(Int64), streamed(Int64)
        }
        let console = context.console
        let outcomes = await ParallelJobs.map(distinct, limit: Self.concurrentBlobs) {
            blob -> Result<Outcome, any Error> in
            do {
                if let upload = connection.streamedUpload(blob.digest) {
                    switch await upload.outcome {
                    case .landed(let digest, let size) where digest == blob.digest && size == blob.size:
                        return .success(.streamed(size))
                    case .landed: break
                    case .refused(let reason):
                        // The ordinary way below is the fallback: HEAD, then one monolithic upload.
                        console.info(
                            "\(client.registry): chunked upload of \(blob.digest) not used (\(reason)); uploading it whole"
                        )
                    }
                }
                if try await blobExists(client, blob.digest) { return .success(.present) }
                if let mountFrom, baseLayers.contains(blob.digest),
                    try await mount(client, blob.digest, from: mountFrom)
                {
                    return .success(.mounted)
                }
                try await upload(client, blob, from: try file(blobs, blob.digest))
                return .success(.uploaded(blob.size))
            } catch {
                return .failure(error)
            }
        }
        var report = Report()
        for outcome in outcomes {
            switch try outcome.get() {
            case .present: report.present += 1
            case .mounted: report.mounted += 1
            case .uploaded(let size):
                report.uploaded += 1
                report.uploadedBytes += size
            case .streamed(let size):
                report.uploaded += 1
                report.streamed += 1
                report.uploadedBytes += size
            }
        }
        return report
    }

    /// True when the registry answers every tag with this index's digest. Any other answer (a 404,
    /// no `Docker-Content-Digest` header, an error) is false, and the push goes the whole way: the
    /// shortcut may only skip work, never decide that a push failed.
    package static func tagsAlreadyPoint(at digest: String, tags: [String], client: RegistryClient) async -> Bool {
        guard !tags.isEmpty else { return false }
        let accept = [OCIMediaType.index, "application/vnd.docker.distribution.manifest.list.v2+json"]
            .joined(separator: ", ")
        let answers = await ParallelJobs.map(tags, limit: concurrentBlobs) { tag -> Bool in
            guard let response = try? await client.send("HEAD", "manifests/\(tag)", headers: ["Accept": accept]) else {
                return false
            }
            return response.status == 200 && response.header("Docker-Content-Digest") == digest
        }
        return answers.allSatisfy { $0 }
    }

    /// PUTs several manifests at once; the first failure (in input order) is thrown.
    private func putAll(_ client: RegistryClient, _ puts: [(String, Data, String)]) async throws {
        let results = await ParallelJobs.map(puts, limit: Self.concurrentBlobs) {
            put -> Result<Void, any Error> in
            do {
                try await putManifest(client, reference: put.0, body: put.1, mediaType: put.2)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        for result in results { try result.get() }
    }

    /// A blob's file in the layout, checked to exist.
    private func file(_ blobs: URL, _ digest: String) throws -> URL {
        try checkDigest(blobs, digest)
        let url = blobs.appendingPathComponent(String(digest.dropFirst("sha256:".count)))
        guard FileKind.isRegularFile(url.path) else {
            throw ImageError.badContent(
                what: "the image layout \(blobs.deletingLastPathComponent().deletingLastPathComponent().path)",
                reason: "blob \(digest) is missing; run `relctl image` again to rebuild it")
        }
        return url
    }

    private func read(_ blobs: URL, _ digest: String) throws -> Data {
        try checkDigest(blobs, digest)
        let url = blobs.appendingPathComponent(String(digest.dropFirst("sha256:".count)))
        guard let data = FileSystem.contents(of: url) else {
            throw ImageError.badContent(
                what: "the image layout \(blobs.deletingLastPathComponent().deletingLastPathComponent().path)",
                reason: "blob \(digest) is missing; run `relctl image` again to rebuild it")
        }
        return data
    }

    /// A digest from the layout's JSON becomes a file name only when it is one (`sha256:` and 64 hex digits).
    private func checkDigest(_ blobs: URL, _ digest: String) throws {
        guard ImageReference.isDigest(digest) else {
            throw ImageError.badContent(
                what: "the image layout \(blobs.deletingLastPathComponent().deletingLastPathComponent().path)",
                reason:
                    "it names the blob `\(digest)`, which is not `sha256:` and 64 lowercase hex digits; run `relctl image` again to rebuild it"
            )
        }
    }

    package func blobExists(_ client: RegistryClient, _ digest: String) async throws -> Bool {
        try await Self.blobExists(client, digest)
    }

    package static func blobExists(_ client: RegistryClient, _ digest: String) async throws -> Bool {
        let response = try await client.send("HEAD", "blobs/\(digest)")
        switch response.status {
        case 200: return true
        case 404: return false
        default:
            throw ImageError.registry(
                registry: client.registry, repository: client.repository, action: "HEAD blob \(digest)",
                status: response.status, detail: client.maskedDetail(response.body))
        }
    }

    /// `POST …/blobs/uploads/?mount=D&from=R`: 201 means the registry linked the blob without an
    /// upload; anything else (202 opens an upload session we cancel) means upload it.
    private func mount(_ client: RegistryClient, _ digest: String, from repository: String) async throws -> Bool {
        let response = try await client.send(
            "POST", "blobs/uploads/?mount=\(digest)&from=\(repository)", headers: ["Content-Length": "0"])
        if response.status == 201 { return true }
        if response.status == 202, let location = response.header("Location"),
            let url = client.url(location: location, adding: URLQueryItem(name: "cancel", value: "1"))
        {
            _ = try? await client.send("DELETE", "", absolute: url)
        }
        return false
    }

    /// A monolithic upload: POST opens the session, one PUT with `?digest=` sends the bytes and
    /// closes it. The bytes are streamed from the blob's file in chunks, never held in memory whole.
    private func upload(_ client: RegistryClient, _ blob: OCIDescriptor, from file: URL) async throws {
        try await upload(client, blob, body: .file(file, size: blob.size))
    }

    /// The same upload with the bytes given (a Helm chart's small config blob, held in memory).
    package func upload(_ client: RegistryClient, _ blob: OCIDescriptor, body: HTTPRequest.Body) async throws {
        let digest = blob.digest
        let opened = try await client.send("POST", "blobs/uploads/", headers: ["Content-Length": "0"])
        guard opened.status == 202, let location = opened.header("Location"),
            let url = client.url(location: location, adding: URLQueryItem(name: "digest", value: digest))
        else {
            throw ImageError.registry(
                registry: client.registry, repository: client.repository, action: "starting the upload of \(digest)",
                status: opened.status, detail: client.maskedDetail(opened.body))
        }
        let response = try await client.send(
            "PUT", "", absolute: url, headers: ["Content-Type": "application/octet-stream"],
            body: body)
        guard response.status == 201 else {
            throw ImageError.registry(
                registry: client.registry, repository: client.repository, action: "uploading \(digest)",
                status: response.status, detail: client.maskedDetail(response.body))
        }
        try await Self.confirmLanded(client, digest, uploadedTo: url, status: response.status)
    }

    /// The upload `Location` may name another host (which gets no credentials): a 201 from there
    /// proves nothing. Only the registry saying it holds the blob does.
    package static func confirmLanded(
        _ client: RegistryClient, _ digest: String, uploadedTo url: URL, status: Int
    ) async throws {
        guard try await ImagePusher.blobExists(client, digest) else {
            throw ImageError.registry(
                registry: client.registry, repository: client.repository, action: "uploading \(digest)",
                status: status,
                detail:
                    "the upload to \(HTTPOrigin(url)?.description ?? url.absoluteString) answered 201, but the registry does not hold the blob afterwards (HEAD answers 404); nothing was tagged, run the push again or check the registry's storage"
            )
        }
    }

    package func putManifest(_ client: RegistryClient, reference: String, body: Data, mediaType: String) async throws {
        let response = try await client.send(
            "PUT", "manifests/\(reference)", headers: ["Content-Type": mediaType], body: .data(body))
        guard response.status == 201 || response.status == 200 else {
            throw ImageError.registry(
                registry: client.registry, repository: client.repository, action: "PUT manifest \(reference)",
                status: response.status, detail: client.maskedDetail(response.body))
        }
    }
}
