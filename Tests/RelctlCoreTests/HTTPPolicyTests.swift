import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Synchronization
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject
@testable import RelctlRelease

/// The shared HTTP policy (docs/security.md), tested once on the transport every client uses and
/// then through the GitHub and registry clients: credentials stay with their origin, whatever a
/// server answers. "Another origin" is a second loopback port.
@Suite("Shared HTTP policy", .timeLimit(.minutes(30)), .removesTemporaries)
struct HTTPPolicyTests {
    static let token = "Bearer secret-token-0123"

    static func redirect(_ origins: TwoOrigins, status: Int, to target: String) -> URL {
        var components = URLComponents(string: "\(origins.baseA)/r")!
        components.queryItems = [
            URLQueryItem(name: "status", value: String(status)), URLQueryItem(name: "to", value: target),
        ]
        return components.url!
    }

    @Test(
        "a credential and secret headers never follow a redirect to another origin",
        arguments: [301, 302, 303, 307, 308])
    func crossOriginRedirect(status: Int) async throws {
        let origins = try TwoOrigins()
        defer { origins.stop() }
        var request = HTTPRequest(
            method: "GET", url: Self.redirect(origins, status: status, to: "\(origins.baseB)/final"),
            headers: ["Cookie": "session=1", "Proxy-Authorization": "Basic eDp5"])
        request.credential = HTTPCredential(authorization: Self.token, for: request.url)
        let response = try await URLSessionHTTPClient().send(request)
        #expect(response.status == 200)
        let received = try origins.received()
        #expect(received.map(\.origin) == ["A", "B"])
        #expect(received.first?.authorization == Self.token)
        #expect(received.first?.cookie == "session=1")
        #expect(received.last?.authorization == nil)
        #expect(received.last?.cookie == nil)
    }

    @Test("a caller's own Authorization header is dropped at another origin too")
    func callerHeaderCrossOrigin() async throws {
        let origins = try TwoOrigins()
        defer { origins.stop() }
        let request = HTTPRequest(
            method: "GET", url: Self.redirect(origins, status: 302, to: "\(origins.baseB)/final"),
            headers: ["Authorization": Self.token])
        _ = try await URLSessionHTTPClient().send(request)
        let received = try origins.received()
        #expect(received.map(\.authorization) == [Self.token, nil])
    }

    @Test("a redirect on the same origin keeps the credential")
    func sameOriginRedirect() async throws {
        let origins = try TwoOrigins()
        defer { origins.stop() }
        var request = HTTPRequest(
            method: "GET", url: Self.redirect(origins, status: 307, to: "\(origins.baseA)/final"))
        request.credential = HTTPCredential(authorization: Self.token, for: request.url)
        _ = try await URLSessionHTTPClient().send(request)
        #expect(try origins.received().map(\.authorization) == [Self.token, Self.token])
    }

    @Test("a credential bound to one origin is not sent to a request for another")
    func credentialBoundToOrigin() async throws {
        let origins = try TwoOrigins()
        defer { origins.stop() }
        var request = HTTPRequest(method: "GET", url: URL(string: "\(origins.baseB)/final")!)
        request.credential = HTTPCredential(authorization: Self.token, for: URL(string: "\(origins.baseA)/")!)
        _ = try await URLSessionHTTPClient().send(request)
        #expect(try origins.received().map(\.authorization) == [nil])
    }

    @Test("a streamed upload redirected (307) to another origin keeps its body, not its credential")
    func uploadRedirect() async throws {
        let origins = try TwoOrigins()
        defer { origins.stop() }
        try await withTemporaryDirectory { directory in
            let file = try directory.write("asset.bin", String(repeating: "x", count: 5000))
            var request = HTTPRequest(
                method: "POST", url: Self.redirect(origins, status: 307, to: "\(origins.baseB)/final"),
                body: .file(file, size: 5000))
            request.credential = HTTPCredential(authorization: Self.token, for: request.url)
            request.progress = { _ in }
            let response = try await URLSessionHTTPClient().send(request)
            #expect(response.status == 200)
            let received = try origins.received()
            #expect(received.map(\.origin) == ["A", "B"])
            #expect(received.map(\.method) == ["POST", "POST"])
            #expect(received.last?.bytes == 5000)
            #expect(received.last?.authorization == nil)
        }
    }

    @Test("HTTPS to plain HTTP is never followed, and hops are bounded")
    func downgradeAndHops() throws {
        let request = HTTPRequest(method: "GET", url: URL(string: "https://api.example.test/x")!)
        let downgrade = HTTPResponse(status: 302, headers: ["Location": "http://api.example.test/x"], body: Data())
        #expect(throws: NetworkError.self) {
            try RedirectPolicy.next(after: downgrade, to: request, original: request, hops: 0)
        }
        let same = HTTPResponse(status: 302, headers: ["Location": "/y"], body: Data())
        #expect(
            try RedirectPolicy.next(after: same, to: request, original: request, hops: 0)?.url.absoluteString
                == "https://api.example.test/y")
        #expect(throws: NetworkError.self) {
            try RedirectPolicy.next(after: same, to: request, original: request, hops: RedirectPolicy.maxHops)
        }
        let file = HTTPResponse(status: 302, headers: ["Location": "file:///etc/passwd"], body: Data())
        #expect(throws: NetworkError.self) {
            try RedirectPolicy.next(after: file, to: request, original: request, hops: 0)
        }
    }

    @Test(
        "an absurd Retry-After or rate-limit reset is a clear refusal, not a crash (issue 26, item 11)",
        arguments: [
            "retry_after=1e300", "retry_after=inf", "retry_after=1e19", "retry_after=nan", "reset=1e300",
            "reset=99999999999999999999",
        ])
    func absurdWaits(query: String) async throws {
        let origins = try TwoOrigins()
        defer { origins.stop() }
        let client = RetryingHTTPClient(base: URLSessionHTTPClient())
        let request = HTTPRequest(method: "GET", url: URL(string: "\(origins.baseA)/limited?\(query)")!)
        let error = await #expect(throws: NetworkError.self) { try await client.send(request) }
        guard case .waitTooLong(_, let seconds, _) = error else {
            Issue.record("expected waitTooLong, got \(String(describing: error))")
            return
        }
        #expect(seconds > Int(RetryPolicy.standard.maxServerWait) && seconds <= Int(RetryAdvice.longestWait))
        #expect(error?.message.contains("run the same command again after that") == true)
    }

    @Test("an error body that echoes the token is printed masked (issue 26, item 19)")
    func reflectedSecretsAreMasked() async throws {
        let origins = try TwoOrigins(registryAuth: "basic")
        defer { origins.stop() }
        let api = GitHubReleaseAPI(
            baseURL: URL(string: "\(origins.baseA)/reflect")!, repository: GitHubRepository("acme/app")!,
            token: "ghp_secret0123", http: URLSessionHTTPClient())
        let error = await #expect(throws: PublishError.self) { try await api.listReleases() }
        let message = try #require(error?.message)
        #expect(!message.contains("ghp_secret0123") && message.contains("bad credentials: Bearer ***"), "\(message)")

        let client = RegistryClient(
            reference: ImageReference(registry: "127.0.0.1:\(origins.portA)", repository: "acme/reflect"),
            credentials: RegistryCredentials(username: "user", password: "registry-secret"), push: false,
            http: URLSessionHTTPClient.shared)
        try await client.ping()
        let denied = await #expect(throws: ImageError.self) { try await client.send("GET", "manifests/latest") }
        let text = try #require(denied?.message)
        let basic = Data("user:registry-secret".utf8).base64EncodedString()
        #expect(!text.contains(basic) && !text.contains("registry-secret") && text.contains("***"), "\(text)")
    }

    @Test("a server that trickles bytes for ever meets the overall deadline (issue 26, item 13)")
    func tricklingServer() async throws {
        let origins = try TwoOrigins()
        defer { origins.stop() }
        var request = HTTPRequest(method: "GET", url: URL(string: "\(origins.baseA)/trickle")!, timeout: 1)
        request.deadline = 2
        let error = await #expect(throws: NetworkError.self) { try await URLSessionHTTPClient().send(request) }
        #expect(error?.message.contains("no complete answer within 2 s") == true, "\(String(describing: error))")
    }

    @Test("GitHub: the token stays on the API's origin when the API redirects elsewhere")
    func gitHubRedirect() async throws {
        let origins = try TwoOrigins()
        defer { origins.stop() }
        let api = GitHubReleaseAPI(
            baseURL: URL(string: origins.baseA)!, repository: GitHubRepository("acme/app")!,
            token: "ghp_secret0123", http: URLSessionHTTPClient())
        let releases = try await api.listReleases()
        #expect(releases.isEmpty)
        let received = try origins.received()
        #expect(received.map(\.origin) == ["A", "B"])
        #expect(received.first?.authorization == "Bearer ghp_secret0123")
        #expect(received.last?.authorization == nil)
    }

    @Test("registry: Basic credentials are not sent to the CDN a blob download redirects to")
    func registryBlobRedirect() async throws {
        let origins = try TwoOrigins(registryAuth: "basic")
        defer { origins.stop() }
        let client = RegistryClient(
            reference: ImageReference(registry: "127.0.0.1:\(origins.portA)", repository: "acme/base"),
            credentials: RegistryCredentials(username: "user", password: "secret"), push: false,
            http: URLSessionHTTPClient.shared)
        try await client.ping()
        let response = try await client.send("GET", "blobs/sha256:" + String(repeating: "a", count: 64))
        #expect(response.status == 200)
        let received = try origins.received()
        let cdn = received.filter { $0.origin == "B" }
        #expect(cdn.map(\.path) == ["/cdn/sha256:" + String(repeating: "a", count: 64)])
        #expect(cdn.allSatisfy { $0.authorization == nil })
        #expect(received.contains { $0.origin == "A" && $0.authorization?.hasPrefix("Basic ") == true })
    }

    /// Every request a client sends, by URL, passed on to the real transport.
    final class RecordingHTTPClient: HTTPClient, Sendable {
        let urls = Mutex<[String]>([])
        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            urls.withLock { $0.append(request.url.absoluteString) }
            return try await URLSessionHTTPClient.shared.send(request)
        }
    }

    /// Issue 62.4: a registry on this machine that serves plain HTTP is asked over HTTP first;
    /// the TLS attempt before it loaded the CA bundle to be refused (most of an unchanged
    /// re-push's own CPU). Failed before the change: the first request was `https://…/v2/`.
    @Test("registry: a loopback registry is asked over plain HTTP first, and only once")
    func loopbackRegistryPlainHTTPFirst() async throws {
        let root = try TemporaryDirectory(prefix: "relctl-ping")
        try root.write("v2/index.html", "{}")
        let server = try LoopbackServer(serving: root.url)
        defer { server.stop() }
        let recorder = RecordingHTTPClient()
        let client = RegistryClient(
            reference: ImageReference(registry: "127.0.0.1:\(server.port)", repository: "acme/app"),
            credentials: nil, push: true, http: recorder)
        try await client.ping()
        #expect(recorder.urls.withLock { $0 } == ["http://127.0.0.1:\(server.port)/v2/"])
        #expect(client.url("tags/list")?.absoluteString == "http://127.0.0.1:\(server.port)/v2/acme/app/tags/list")
    }

    /// A loopback HTTP answer that is not a registry's (here 404) is not taken at once: HTTPS is
    /// asked too, and with no answer there, the HTTP answer decides as before.
    @Test("registry: a loopback host that is no registry is still refused with its answer")
    func loopbackNonRegistryStillRefused() async throws {
        let root = try TemporaryDirectory(prefix: "relctl-ping")
        let server = try LoopbackServer(serving: root.url)
        defer { server.stop() }
        let recorder = RecordingHTTPClient()
        let client = RegistryClient(
            reference: ImageReference(registry: "127.0.0.1:\(server.port)", repository: "acme/app"),
            credentials: nil, push: true, http: recorder)
        let error = await #expect(throws: ImageError.self) { try await client.ping() }
        #expect(
            error?.message.contains("http://127.0.0.1:\(server.port)/v2/ answered 404") == true,
            "\(String(describing: error))")
        #expect(
            recorder.urls.withLock { $0 }
                == ["http://127.0.0.1:\(server.port)/v2/", "https://127.0.0.1:\(server.port)/v2/"])
    }

    @Test("registry: Basic credentials are not sent where the token realm redirects")
    func registryRealmRedirect() async throws {
        let origins = try TwoOrigins(registryAuth: "bearer")
        defer { origins.stop() }
        let client = RegistryClient(
            reference: ImageReference(registry: "127.0.0.1:\(origins.portA)", repository: "acme/base"),
            credentials: RegistryCredentials(username: "user", password: "secret"), push: false,
            http: URLSessionHTTPClient.shared)
        try await client.ping()
        let received = try origins.received()
        let realm = received.filter { $0.path.hasPrefix("/token") }
        #expect(realm.map(\.origin) == ["A", "B"])
        #expect(realm.first?.authorization?.hasPrefix("Basic ") == true)
        #expect(realm.last?.authorization == nil)
        let cdn = received.filter { $0.origin == "B" }
        #expect(cdn.allSatisfy { $0.authorization == nil })
    }
}

/// Issue 26, item 12: an answer is read only up to a limit by kind, counted while it streams.
@Suite("HTTP body limits", .timeLimit(.minutes(30)), .removesTemporaries)
struct HTTPBodyLimitTests {
    @Test("an endless JSON answer stops at 16 MiB with an error naming the URL")
    func endlessDocument() async throws {
        let origins = try TwoOrigins()
        defer { origins.stop() }
        let request = HTTPRequest(method: "GET", url: URL(string: "\(origins.baseA)/endless")!)
        let error = await #expect(throws: NetworkError.self) { try await URLSessionHTTPClient().send(request) }
        let text = try #require(error?.message)
        #expect(text.contains("GET \(origins.baseA)/endless") && text.contains("16.0 MiB"), "\(text)")
    }

    @Test("a download streams into its file, and an endless one stops at its size and leaves no file")
    func streamedDownload() async throws {
        let origins = try TwoOrigins()
        defer { origins.stop() }
        try await withTemporaryDirectory { directory in
            let blob = Data((0..<300_000).map { UInt8($0 % 251) })
            try origins.serve(blob, as: "blob")
            var request = HTTPRequest(method: "GET", url: URL(string: "\(origins.baseA)/cdn/blob")!)
            request.responseFile = directory.url.appendingPathComponent("blob")
            request.responseLimit = Int64(blob.count)
            let response = try await URLSessionHTTPClient().send(request)
            #expect(response.status == 200 && response.body.isEmpty)
            #expect(try Data(contentsOf: directory.url.appendingPathComponent("blob")) == blob)

            var endless = HTTPRequest(method: "GET", url: URL(string: "\(origins.baseA)/endless")!)
            endless.responseFile = directory.url.appendingPathComponent("endless")
            endless.responseLimit = 1 << 20
            let error = await #expect(throws: NetworkError.self) { try await URLSessionHTTPClient().send(endless) }
            #expect(error?.message.contains("1.00 MiB") == true, "\(String(describing: error))")
            #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("endless").path))
        }
    }

    @Test("a base image layer longer than its descriptor says is cut off there and never cached")
    func layerPastItsSize() async throws {
        let origins = try TwoOrigins()
        defer { origins.stop() }
        try await withTemporaryDirectory { directory in
            // The manifest declares 5 bytes; the registry sends 200 000 (with the right digest).
            let layer = Data(String(repeating: "layer", count: 40_000).utf8)
            let layerDigest = try BaseImageDigestTests.sha256(layer, in: directory)
            try origins.serve(layer, as: layerDigest)
            let digest = try BaseImageDigestTests.serveBase(layer: layerDigest, origins: origins, in: directory)
            let store = BaseImageStore(
                context: Context(
                    workingDirectory: directory.url,
                    environment: try BaseImageDigestTests.environment(origins, in: directory)))
            let base = ImageReference(registry: "127.0.0.1:\(origins.portA)", repository: "acme/base", digest: digest)
            let error = await #expect(throws: (any Error).self) {
                try await store.resolve(base, platforms: [ImagePlatform(os: "linux", architecture: "amd64")])
            }
            let message = (error as? RelctlError)?.message ?? "\(String(describing: error))"
            #expect(message.contains("longer than 5 B"), "\(message)")
            let cached = directory.url.appendingPathComponent("cache/relctl/oci/blobs/sha256")
            let names = try folderNames(cached)  // an unlistable cache fails, not passes
            #expect(!names.contains(String(layerDigest.dropFirst(7))), "\(names)")
            #expect(!names.contains { $0.hasPrefix(".") }, "a partial download was left: \(names)")
        }
    }
}
