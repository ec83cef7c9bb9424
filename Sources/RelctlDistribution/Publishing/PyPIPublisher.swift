import Crypto
import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel

/// Uploads a release's `[pypi]` wheels through the legacy upload API twine uses (a multipart
/// POST with `:action=file_upload`, `protocol_version=1`, the core metadata, `sha256_digest`,
/// `filetype=bdist_wheel`, `pyversion=py3` and the file as `content`), authenticated as the user
/// `__token__` with `PYPI_TOKEN` as its password, bound to the upload URL's origin.
///
/// An index never takes a file name twice, so it is asked first what it holds: the project's
/// page of the simple index (PEP 503, `#sha256=` on each link). A wheel listed with the same
/// SHA-256 is done, one with another is exit 1 naming it, and only the others are uploaded; an
/// upload answered "already exists" (a run alongside) is looked up again the same way.
package struct PyPIPublisher: Sendable {
    package static let tokenVariable = "PYPI_TOKEN"

    /// A wheel in dist/ with the digest the release recorded.
    package struct Wheel: Sendable, Equatable {
        package var name: String
        package var url: URL
        package var sha256: String
        package init(name: String, url: URL, sha256: String) {
            self.name = name
            self.url = url
            self.sha256 = sha256
        }
    }

    /// What a run did (or, rehearsed, would do).
    package struct Report: Sendable, Equatable, Codable {
        package var repository: String
        package var index: String
        package var uploaded: [String]
        package var unchanged: [String]
        package var rehearsed: Bool

        package var summary: String {
            let verb = rehearsed ? "would upload" : "uploaded"
            return "\(verb) \(uploaded.count) wheel(s) to \(repository), \(unchanged.count) already there"
        }
    }

    private let http: any HTTPClient

    package init(http: any HTTPClient) { self.http = http }

    /// The token, before anything is read or sent: exit 2 without it.
    package static func token(environment: [String: String]) throws -> String {
        guard let token = environment[tokenVariable], !token.isEmpty else {
            throw PyPIError.noToken(variable: tokenVariable)
        }
        return token
    }

    /// The simple index next to an upload URL: PyPI's and TestPyPI's own, else the upload
    /// server's `/simple/` (pypiserver, devpi, a private index that serves both from one origin).
    package static func indexURL(repository: String, configured: String?) -> URL? {
        if let configured { return URL(string: configured.hasSuffix("/") ? configured : configured + "/") }
        guard let url = URL(string: repository), let host = url.host?.lowercased() else { return nil }
        if host == "upload.pypi.org" { return URL(string: "https://pypi.org/simple/") }
        if host == "test.pypi.org" { return URL(string: "https://test.pypi.org/simple/") }
        var components = URLComponents()
        components.scheme = url.scheme
        components.host = url.host
        components.port = url.port
        components.path = "/simple/"
        return components.url
    }

    /// The wheels this release recorded in `dist/manifest.json` (`packages`), each present with
    /// that SHA-256; bad input naming the missing, a failure naming the changed.
    package static func wheels(in dist: URL, shownDist: String, tag: String) throws -> [Wheel] {
        guard let manifest = try ReleaseManifest.read(in: dist), manifest.tag == tag else {
            throw PyPIError.missingWheels(dist: shownDist, names: ["(\(shownDist)/manifest.json of \(tag))"])
        }
        let listed = (manifest.packages ?? []).filter { $0.name.hasSuffix(".whl") }
        guard !listed.isEmpty else {
            throw PyPIError.missingWheels(dist: shownDist, names: ["(none in \(shownDist)/manifest.json)"])
        }
        let missing = listed.filter { !FileKind.isRegularFile(dist.appendingPathComponent($0.name).path) }
        if !missing.isEmpty { throw PyPIError.missingWheels(dist: shownDist, names: missing.map(\.name)) }
        return listed.map { Wheel(name: $0.name, url: dist.appendingPathComponent($0.name), sha256: $0.sha256) }
    }

    /// `relctl publish TAG`: the wheels `dist/manifest.json` lists for this tag, uploaded where
    /// the index lacks them.
    package func publishRelease(
        _ settings: PyPISettings, config: RelctlConfig, tag: String, version: String, context: Context
    ) async throws -> Report {
        let token = try Self.token(environment: context.environment)
        let dist = ChecksumWriter.defaultFolder(config: config, context: context)
        let wheels = try Self.wheels(in: context.resolve(dist), shownDist: dist, tag: tag)
        let metadata = try PythonWheelBuilder.metadata(
            settings, config: config, version: try WheelName.version(version))
        let report = try await publish(wheels, settings: settings, metadata: metadata, token: token, context: context)
        context.console.info("pypi: \(report.summary)")
        return report
    }

    /// Uploads what the index lacks; `rehearse` only reads.
    package func publish(
        _ wheels: [Wheel], settings: PyPISettings, metadata: WheelContents.Metadata, token: String,
        context: Context, rehearse: Bool = false
    ) async throws -> Report {
        guard let repository = URL(string: settings.repositoryURL),
            let index = Self.indexURL(repository: settings.repositoryURL, configured: settings.indexURL)
        else {
            throw PyPIError.unreadable(request: settings.repositoryURL, reason: "not a URL relctl can send to")
        }
        let console = context.console
        let client = RetryingHTTPClient(
            base: http, policy: try GitHubPublisher.policy(.standard, environment: context.environment),
            onWait: { console.warning($0) })
        let authorization = "Basic " + Data("__token__:\(token)".utf8).base64EncodedString()
        let credential = HTTPCredential(authorization: authorization, for: repository)
        // The listing gets the token only where uploads go: never to another origin.
        let indexCredential = HTTPOrigin(index) == HTTPOrigin(repository) ? credential : nil
        let project = WheelName.normalized(settings.package)
        let page = index.appendingPathComponent(project + "/")

        var held = try await listing(page, credential: indexCredential, client: client, token: token)
        var report = Report(
            repository: settings.repositoryURL, index: page.absoluteString, uploaded: [], unchanged: [],
            rehearsed: rehearse)
        var differing: [String] = []
        var pending: [Wheel] = []
        for wheel in wheels {
            // The file is hashed again: the bytes sent are the ones the release listed.
            let now = try await BlockingWork.run { try Self.sha256(of: wheel.url) }
            guard now == wheel.sha256.lowercased() else {
                throw PyPIError.unreadable(
                    request: wheel.url.path,
                    reason:
                        "its SHA-256 is not the one manifest.json records; it changed since the release, so run the release again"
                )
            }
            switch held[wheel.name] {
            case .some(let digest?) where digest == now: report.unchanged.append(wheel.name)
            case .some(.some): differing.append(wheel.name)
            case .some(nil):
                throw PyPIError.unreadable(
                    request: "GET \(page.absoluteString)",
                    reason: "lists \(wheel.name) without a #sha256= digest, so relctl cannot tell it is this release's")
            case nil: pending.append(wheel)
            }
        }
        if !differing.isEmpty { throw PyPIError.differingFiles(index: page.absoluteString, names: differing) }
        if rehearse {
            report.uploaded = pending.map(\.name)
            return report
        }
        var raced: [Wheel] = []
        for wheel in pending {
            console.info("uploading \(wheel.name) to \(settings.repositoryURL)")
            let outcome = try await upload(
                wheel, to: repository, metadata: metadata, credential: credential, client: client, token: token)
            if outcome { report.uploaded.append(wheel.name) } else { raced.append(wheel) }
        }
        // An upload another run made meanwhile: done only when it holds the same bytes.
        if !raced.isEmpty {
            held = try await listing(page, credential: indexCredential, client: client, token: token)
            var problems: [String] = []
            for wheel in raced {
                if held[wheel.name] == .some(wheel.sha256.lowercased()) {
                    report.unchanged.append(wheel.name)
                } else {
                    problems.append(wheel.name)
                }
            }
            if !problems.isEmpty { throw PyPIError.differingFiles(index: page.absoluteString, names: problems) }
        }
        return report
    }

    /// The files the project's simple page links, with the SHA-256 of each link's fragment (nil
    /// when it has none); empty when the index has no such project (404).
    private func listing(
        _ page: URL, credential: HTTPCredential?, client: any HTTPClient, token: String
    ) async throws -> [String: String?] {
        var request = HTTPRequest(method: "GET", url: page, headers: ["Accept": "text/html"])
        request.credential = credential
        let response = try await client.send(request)
        if response.status == 404 { return [:] }
        guard (200..<300).contains(response.status) else {
            throw PyPIError.refused(
                request: "GET \(page.absoluteString)", status: response.status,
                message: Self.shown(response.text, token: token))
        }
        return Self.links(in: response.text)
    }

    /// `href` values of a PEP 503 page: file name (the URL's last segment, percent-decoded) and
    /// the `sha256=` fragment's digest.
    package static func links(in html: String) -> [String: String?] {
        var files: [String: String?] = [:]
        for match in html.matches(of: /href\s*=\s*(?:"([^"]*)"|'([^']*)')/.ignoresCase()) {
            let raw = String(match.output.1 ?? match.output.2 ?? "").replacingOccurrences(of: "&amp;", with: "&")
            let parts = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let path = String(parts[0]).split(separator: "?").first.map(String.init) ?? ""
            guard let last = path.split(separator: "/").last, let name = String(last).removingPercentEncoding,
                !name.isEmpty
            else { continue }
            var digest: String?
            if parts.count == 2 {
                for pair in parts[1].split(separator: "&") where pair.lowercased().hasPrefix("sha256=") {
                    digest = String(pair.dropFirst(7)).lowercased()
                }
            }
            files[name] = .some(digest)
        }
        return files
    }

    /// Sends one wheel; true when the index took it, false when it answered that the file
    /// already exists (400 from PyPI, 409 from pypiserver).
    private func upload(
        _ wheel: Wheel, to repository: URL, metadata: WheelContents.Metadata, credential: HTTPCredential?,
        client: any HTTPClient, token: String
    ) async throws -> Bool {
        let content: Data
        do { content = try Data(contentsOf: wheel.url) } catch {
            throw PyPIError.unreadable(request: wheel.url.path, reason: "\(error)")
        }
        let (body, boundary) = Self.form(wheel: wheel, metadata: metadata, content: content)
        var request = HTTPRequest(
            method: "POST", url: repository,
            headers: ["Content-Type": "multipart/form-data; boundary=" + boundary], body: .data(body), timeout: 120)
        request.credential = credential
        let response = try await client.send(request)
        if (200..<300).contains(response.status) { return true }
        let text = response.text
        if response.status == 400 || response.status == 409, text.lowercased().contains("already exist") {
            return false
        }
        throw PyPIError.refused(
            request: "POST \(repository.absoluteString) (\(wheel.name))", status: response.status,
            message: Self.shown(text, token: token))
    }

    /// The form twine sends for a wheel, with a boundary that is not in the content.
    package static func form(
        wheel: Wheel, metadata: WheelContents.Metadata, content: Data
    ) -> (body: Data, boundary: String) {
        var boundary = "relctl-" + wheel.sha256.prefix(32)
        while content.range(of: Data(boundary.utf8)) != nil { boundary += "-" + wheel.sha256.prefix(8) }
        var fields: [(String, String)] = [
            (":action", "file_upload"), ("protocol_version", "1"), ("metadata_version", "2.1"),
            ("name", metadata.name), ("version", metadata.version), ("filetype", "bdist_wheel"),
            ("pyversion", "py3"), ("sha256_digest", wheel.sha256.lowercased()),
            ("requires_python", metadata.requiresPython),
        ]
        if let summary = metadata.summary { fields.append(("summary", summary)) }
        if let homepage = metadata.homepage {
            fields.append(("home_page", homepage))
            fields.append(("project_urls", "Homepage, " + homepage))
        }
        if let license = metadata.license { fields.append(("license", license)) }
        if let maintainer = metadata.maintainer { fields.append(("maintainer_email", maintainer)) }
        if let description = metadata.description {
            fields.append(("description", description.text))
            fields.append(("description_content_type", description.contentType))
        }
        var body = Data()
        for (name, value) in fields {
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n".utf8))
            body.append(Data(value.utf8))
            body.append(Data("\r\n".utf8))
        }
        body.append(
            Data(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"content\"; filename=\"\(wheel.name)\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                    .utf8))
        body.append(content)
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        return (body, boundary)
    }

    /// An answer's text for a message: its first lines, the token masked should a server echo it.
    private static func shown(_ text: String, token: String) -> String {
        let short = text.split(separator: "\n").prefix(3).joined(separator: " ").prefix(300)
        return SecretMask.mask(String(short), hiding: [token, Data("__token__:\(token)".utf8).base64EncodedString()])
    }

    private static func sha256(of url: URL) throws -> String {
        let file: ReadableFile
        do { file = try ReadableFile(path: url.path) } catch {
            throw PyPIError.unreadable(request: url.path, reason: FileSystem.describe(errno: error.code))
        }
        var hasher = SHA256()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count: Int
            do { count = try file.read(into: buffer) } catch {
                throw PyPIError.unreadable(request: url.path, reason: FileSystem.describe(errno: error.code))
            }
            if count == 0 { break }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
