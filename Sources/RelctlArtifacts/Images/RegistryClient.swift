import Foundation
import RelctlBasics
import RelctlModel
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Talks the OCI distribution API to one repository of one registry: answers 401 challenges
/// (Basic, or a Bearer token from the realm) once per client and retries, and turns refusals into
/// messages that name the registry, the repository and what to do. Requests go through the
/// Network layer publishing uses (`URLSessionHTTPClient`, one session with reused connections,
/// under `RetryingHTTPClient`'s policy: 5xx and 429 retried for idempotent requests).
package final class RegistryClient: Sendable {
    package let reference: ImageReference
    package let credentials: RegistryCredentials?
    /// `repository:NAME:pull,push` and any other repositories read from (cross-repository mounts).
    package let scopes: [String]
    /// Without retries: the scheme probe of `ping`, where a failure means "try plain HTTP".
    private let transport: any HTTPClient
    private let http: any HTTPClient
    private let state = Mutex<State>(State())

    private struct State {
        var base: URL?
        var authorization: String?
        /// The Bearer token's claims, to tell "logged in" from "may push" without writing.
        var tokenActions: [String]?
    }

    package init(
        reference: ImageReference, credentials: RegistryCredentials?, push: Bool, alsoPull: [String] = [],
        http: any HTTPClient
    ) {
        self.reference = reference
        self.credentials = credentials
        scopes =
            ["repository:\(reference.repository):\(push ? "pull,push" : "pull")"]
            + alsoPull.filter { $0 != reference.repository }.map { "repository:\($0):pull" }
        transport = http
        self.http = RetryingHTTPClient(base: http)
    }

    package var registry: String { reference.registry }
    package var repository: String { reference.repository }

    /// `GET /v2/`: finds the scheme and learns how the registry wants to be authenticated. HTTPS,
    /// and plain HTTP only for loopback (as docker allows). On loopback plain HTTP is asked first:
    /// a registry on this machine (a CI service container, a test) nearly always serves it, and a
    /// TLS attempt first loaded the system's CA bundle only to be refused, most of an unchanged
    /// re-push's own CPU time. Plain HTTP is taken at once only when it answers as a registry
    /// (200 or 401); any other answer, or none, and HTTPS is asked, the HTTP answer being used when
    /// HTTPS gives none (what trying HTTPS first, then HTTP, did).
    package func ping() async throws {
        do {
            try await findScheme()
        } catch let error as ImageError {
            throw error
        } catch {
            throw ImageError.unreachable(registry: registry, reason: Self.reason(error))
        }
    }

    private func findScheme() async throws {
        guard reference.isLoopback else {
            try await use("https", try await probe("https"))
            return
        }
        let plain: HTTPResponse?
        var plainError: (any Error)?
        do { plain = try await probe("http") } catch {
            plain = nil
            plainError = error
        }
        if let plain, plain.status == 200 || plain.status == 401 {
            try await use("http", plain)
            return
        }
        do {
            try await use("https", try await probe("https"))
        } catch let error as ImageError {
            throw error
        } catch {
            guard let plain else { throw plainError ?? error }
            try await use("http", plain)
        }
    }

    /// One `GET /v2/` over `scheme`, without retries: a failure means "try the other scheme".
    private func probe(_ scheme: String) async throws -> HTTPResponse {
        guard let url = URL(string: "\(scheme)://\(reference.apiHost)/v2/") else {
            throw ImageError.unreachable(registry: registry, reason: "`\(reference.apiHost)` is not a host name")
        }
        return try await transport.send(HTTPRequest(method: "GET", url: url))
    }

    /// Takes `scheme` for every later request, after `response` to `GET /v2/` over it.
    private func use(_ scheme: String, _ response: HTTPResponse) async throws {
        state.withLock { $0.base = URL(string: "\(scheme)://\(reference.apiHost)") }
        if response.status == 401 {
            try await authenticate(AuthChallenge(header: response.header("WWW-Authenticate")))
        } else if response.status == 404 {
            throw ImageError.unreachable(
                registry: registry,
                reason: "\(scheme)://\(reference.apiHost)/v2/ answered 404: this host does not serve the registry API")
        }
    }

    /// A transport failure in words, without repeating the request the message names anyway.
    package static func reason(_ error: any Error) -> String {
        (error as? RelctlError)?.message ?? (error as NSError).localizedDescription
    }

    /// The push permission a Bearer token was granted, when the token says (nil: unknown).
    package var grantedActions: [String]? { state.withLock { $0.tokenActions } }

    /// Sends a request to `path` (under `/v2/<repository>/`) or an absolute URL, authenticating on a 401.
    /// A `.file` body is streamed from disk by the session, so a large layer never sits in memory.
    /// - Parameter download: a blob's answer goes into this file, up to `size` bytes (its descriptor's).
    package func send(
        _ method: String, _ path: String, absolute: URL? = nil, headers: [String: String] = [:],
        body: HTTPRequest.Body = .none, download: (file: URL, size: Int64)? = nil
    ) async throws -> HTTPResponse {
        guard let url = absolute ?? self.url(path) else {
            throw ImageError.registry(
                registry: registry, repository: repository, action: "\(method) \(path)", status: 0,
                detail: "cannot form the URL")
        }
        var request = HTTPRequest(method: method, url: url, headers: headers, body: body)
        if let download {
            request.responseFile = download.file
            request.responseLimit = max(0, download.size)
        }
        var response = try await authorized(request)
        if response.status == 401 {
            // Only the registry itself may ask for its credentials: a 401 from another origin (an
            // upload `Location` elsewhere) must not make us fetch a token from a realm it names.
            guard let origin = HTTPOrigin(url), origin == registryOrigin else {
                throw ImageError.unauthorized(
                    registry: registry, repository: repository,
                    detail:
                        "\(HTTPOrigin(url)?.description ?? url.absoluteString) asked for credentials; relctl sends the registry's credentials only to the registry (\(registryOrigin?.description ?? reference.apiHost))"
                )
            }
            try await authenticate(AuthChallenge(header: response.header("WWW-Authenticate")))
            response = try await authorized(request)
            if response.status == 401 {
                throw ImageError.unauthorized(
                    registry: registry, repository: repository, detail: maskedDetail(response.body))
            }
        }
        if response.status == 403 {
            throw ImageError.denied(registry: registry, repository: repository, detail: maskedDetail(response.body))
        }
        return response
    }

    /// What must never appear in a message: the stored password and the token in use.
    private var secrets: [String] {
        var secrets = credentials.map { [$0.password, $0.basicHeader, String($0.basicHeader.dropFirst(6))] } ?? []
        if let authorization = state.withLock({ $0.authorization }) {
            secrets.append(authorization)
            if authorization.hasPrefix("Bearer ") { secrets.append(String(authorization.dropFirst(7))) }
        }
        return secrets
    }

    /// The origin `ping` chose: the only one the stored credentials and tokens are sent to.
    package var registryOrigin: HTTPOrigin? {
        (state.withLock { $0.base } ?? URL(string: "https://\(reference.apiHost)")).flatMap(HTTPOrigin.init)
    }

    /// A URL under `/v2/<repository>/`, resolved against the scheme `ping` chose.
    package func url(_ path: String) -> URL? {
        let base = state.withLock { $0.base } ?? URL(string: "https://\(reference.apiHost)")
        return URL(string: "/v2/\(repository)/\(path)", relativeTo: base)?.absoluteURL
    }

    /// Resolves an upload `Location` (often relative) against the registry.
    package func url(location: String) -> URL? {
        URL(string: location, relativeTo: state.withLock { $0.base })?.absoluteURL
    }

    /// Resolves an upload `Location` (often relative) and adds a query item.
    package func url(location: String, adding item: URLQueryItem) -> URL? {
        let base = state.withLock { $0.base }
        guard let resolved = URL(string: location, relativeTo: base)?.absoluteURL,
            var components = URLComponents(url: resolved, resolvingAgainstBaseURL: true)
        else { return nil }
        components.queryItems = (components.queryItems ?? []) + [item]
        // `+` in a query means a space to some servers; digests never hold one, upload states might.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.url
    }

    private func authorized(_ request: HTTPRequest) async throws -> HTTPResponse {
        var request = request
        if let authorization = state.withLock({ $0.authorization }), let origin = registryOrigin {
            request.credential = HTTPCredential(authorization: authorization, origin: origin)
        }
        do { return try await http.send(request).maskingErrorBody(secrets) } catch {
            throw ImageError.unreachable(registry: registry, reason: Self.reason(error))
        }
    }

    private func authenticate(_ challenge: AuthChallenge?) async throws {
        guard let challenge else {
            throw ImageError.unauthorized(
                registry: registry, repository: repository, detail: "the registry sent no WWW-Authenticate challenge")
        }
        switch challenge.scheme {
        case "basic":
            guard let credentials else {
                throw ImageError.unauthorized(
                    registry: registry, repository: repository, detail: "no credentials stored for it")
            }
            state.withLock { $0.authorization = credentials.basicHeader }
        case "bearer":
            let token = try await fetchToken(challenge)
            state.withLock {
                $0.authorization = "Bearer " + token
                $0.tokenActions = Self.actions(inToken: token, repository: repository)
            }
        default:
            throw ImageError.unauthorized(
                registry: registry, repository: repository,
                detail: "unsupported authentication scheme `\(challenge.scheme)`")
        }
    }

    /// The token dance: GET the realm with service and scopes, with Basic credentials when we have them.
    private func fetchToken(_ challenge: AuthChallenge) async throws -> String {
        guard let realm = challenge.realm, var components = URLComponents(string: realm) else {
            throw ImageError.unauthorized(
                registry: registry, repository: repository, detail: "the Bearer challenge names no token realm")
        }
        if components.scheme != "https", !(ImageReference(registry: components.host ?? "", repository: "").isLoopback) {
            throw ImageError.unauthorized(
                registry: registry, repository: repository,
                detail: "the token realm \(realm) is not HTTPS; relctl sends credentials only over HTTPS")
        }
        var items = components.queryItems ?? []
        if let service = challenge.parameters["service"] { items.append(URLQueryItem(name: "service", value: service)) }
        for scope in scopes { items.append(URLQueryItem(name: "scope", value: scope)) }
        components.queryItems = items
        guard let url = components.url else {
            throw ImageError.unauthorized(
                registry: registry, repository: repository, detail: "cannot form the token URL from \(realm)")
        }
        var request = HTTPRequest(method: "GET", url: url)
        if let credentials { request.credential = HTTPCredential(authorization: credentials.basicHeader, for: url) }
        let response: HTTPResponse
        do { response = try await http.send(request).maskingErrorBody(secrets) } catch {
            throw ImageError.unreachable(registry: registry, reason: "token service \(realm): \(Self.reason(error))")
        }
        let data = response.body
        guard response.status == 200 else {
            if response.status == 401 || response.status == 403 {
                throw ImageError.unauthorized(
                    registry: registry, repository: repository,
                    detail: credentials == nil
                        ? "no credentials stored for it" : "the token service refused the stored credentials")
            }
            throw ImageError.registry(
                registry: registry, repository: repository, action: "a token request", status: response.status,
                detail: maskedDetail(data))
        }
        struct Answer: Decodable {
            var token: String?
            var access_token: String?
        }
        guard let answer = try? JSONDecoder().decode(Answer.self, from: data),
            let token = answer.token ?? answer.access_token, !token.isEmpty
        else {
            throw ImageError.registry(
                registry: registry, repository: repository, action: "a token request", status: response.status,
                detail: "the answer holds no token")
        }
        return token
    }

    /// The actions a JWT access token grants on `repository` (Docker's token format), or nil when
    /// the token is opaque.
    package static func actions(inToken token: String, repository: String) -> [String]? {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var payload = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while payload.count % 4 != 0 { payload += "=" }
        struct Claims: Decodable {
            struct Access: Decodable {
                var type: String?
                var name: String?
                var actions: [String]?
            }
            var access: [Access]?
        }
        guard let data = Data(base64Encoded: payload), let claims = try? JSONDecoder().decode(Claims.self, from: data),
            let access = claims.access
        else { return nil }
        return access.filter { $0.name == repository }.flatMap { $0.actions ?? [] }
    }

    /// `detail` with this client's secrets masked and on one line: a body of any status that
    /// reaches a message (an unexpected 2xx too) is read through here. Only the body's start is
    /// looked at, so a long body costs nothing.
    package func maskedDetail(_ data: Data) -> String {
        let start = String(decoding: data.prefix(SecretMask.messageWindow), as: UTF8.self)
        return Console.oneLine(Self.detail(Data(SecretMask.mask(start, hiding: secrets).utf8)))
    }

    /// The registry's own error text (`{"errors":[{"code","message"}]}`), else the body's start.
    package static func detail(_ data: Data) -> String {
        struct Errors: Decodable {
            struct Item: Decodable {
                var code: String?
                var message: String?
            }
            var errors: [Item]?
        }
        if let errors = try? JSONDecoder().decode(Errors.self, from: data).errors, !errors.isEmpty {
            return errors.map { [$0.code, $0.message].compactMap { $0 }.joined(separator: ": ") }.joined(
                separator: "; ")
        }
        return String(decoding: data.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
