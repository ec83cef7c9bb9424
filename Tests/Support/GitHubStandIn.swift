import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlChanges
import RelctlDistribution
import RelctlModel
import RelctlProject
import RelctlRelease

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs `github_standin.py` (a strict stand-in for GitHub's releases API) on a free loopback
/// port for one test, and reads back what it received. Stop it with `stop()`; it also exits on
/// its own when this process goes away (its stdin closes).
public final class GitHubStandIn: Sendable {
    public static let token = "ghp_standin0123456789"
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "github_standin.py")

    public let port: Int
    public let prefix: String
    private let process: Process
    private let stdin: FileHandle

    /// One request as the stand-in logged it.
    public struct Request: Decodable, Sendable {
        public struct Asset: Decodable, Sendable {
            public var name: String
            public var state: String
            public var digest: String?
        }
        /// When the stand-in began handling the request (its headers read).
        public var time: Double
        /// When its answer was ready, logged just before it left (the log is in this order).
        public var end: Double
        public var method: String
        public var path: String
        public var query: String
        public var status: Int
        public var kind: String?
        public var name: String?
        public var user_agent: String?
        public var accept: String?
        public var api_version: String?
        public var authorized: Bool
        public var fault: String?
        public var published: Bool?
        public var assets_at_publish: [Asset]?
        public var bytes: Int?
        /// The `x-ratelimit-reset` a rate-limit fault announced.
        public var reset: Double?
        public var fields: [String: StandInValue]?
        /// A write (upload, delete, edit) addressed to a release already published.
        public var to_published: Bool?
    }

    /// A JSON scalar from a logged request body.
    public enum StandInValue: Decodable, Sendable, Equatable {
        case bool(Bool), string(String), number(Double), null
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let bool = try? container.decode(Bool.self) {
                self = .bool(bool)
            } else if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else {
                self = .string(try container.decode(String.self))
            }
        }
    }

    public struct Release: Decodable, Sendable {
        public struct Asset: Decodable, Sendable {
            public var id: Int
            public var name: String
            public var state: String
            public var size: Int
            public var digest: String?
        }
        public var id: Int
        public var tag_name: String
        public var draft: Bool
        public var prerelease: Bool
        public var make_latest: String?
        public var name: String?
        public var body: String?
        public var assets: [Asset]
    }

    /// `tags` are the tags the repository holds (a release's tag must be pushed before it is published).
    /// `gitDirectory`: a bare repository whose tags the API reports (where `release --push` pushes).
    /// Published releases are immutable (GitHub's immutable releases) unless `mutable`.
    public init(
        repository: String = "acme/velostream", prefix: String = "", maxPerPage: Int = 100, tags: [String] = ["v1.0.0"],
        gitDirectory: URL? = nil, mutable: Bool = false
    ) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "python3", Self.script.path, "--token", Self.token, "--repo", repository, "--prefix", prefix,
                "--max-per-page", String(maxPerPage),
            ] + tags.flatMap { ["--tag", $0] }
            + (gitDirectory.map { ["--git-dir", $0.path] } ?? []) + (mutable ? ["--mutable"] : [])
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let line = Self.readLine(output.fileHandleForReading)
        guard line.hasPrefix("PORT "), let port = Int(line.dropFirst(5)) else {
            process.terminate()
            throw TestFailure("the GitHub stand-in did not start (said `\(line)`)")
        }
        self.process = process
        self.stdin = input.fileHandleForWriting
        self.port = port
        self.prefix = prefix
    }

    private static func readLine(_ handle: FileHandle) -> String {
        var bytes = Data()
        while let byte = try? handle.read(upToCount: 1), let first = byte.first, first != 0x0A { bytes.append(first) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// What `GITHUB_API_URL` should be.
    public var apiURL: String { "http://127.0.0.1:\(port)\(prefix)" }

    /// The environment for `relctl publish` against this stand-in.
    public func environment(
        token: String? = GitHubStandIn.token, repository: String? = "acme/velostream"
    ) -> [String: String] {
        var environment = ["GITHUB_API_URL": apiURL, "GITHUB_TOKEN": "", "GH_TOKEN": "", "GITHUB_REPOSITORY": ""]
        if let token { environment["GITHUB_TOKEN"] = token }
        if let repository { environment["GITHUB_REPOSITORY"] = repository }
        return environment
    }

    public func stop() {
        try? stdin.close()
        process.waitUntilExit()
    }

    public func log() async throws -> [Request] {
        try JSONDecoder().decode([Request].self, from: try await control("GET", "log"))
    }

    /// Requests to the API proper (not to the control endpoints).
    public func releases() async throws -> [Release] {
        try JSONDecoder().decode([Release].self, from: try await control("GET", "state"))
    }

    /// Replaces the injected faults, e.g. `[{"kind":"upload","action":"drop","after_bytes":1000}]`.
    public func setFaults(_ json: String) async throws {
        _ = try await control("POST", "faults", body: json)
    }

    /// Adds a release as if made earlier: `assets` maps names to contents.
    public func seed(
        tag: String, draft: Bool, prerelease: Bool = false, assets: [String: Data] = [:], state: String = "uploaded"
    ) async throws {
        struct Seed: Encodable {
            struct Asset: Encodable { var name: String, data: String, state: String }
            var tag_name: String, draft: Bool, prerelease: Bool, assets: [Asset]
        }
        let seed = Seed(
            tag_name: tag, draft: draft, prerelease: prerelease,
            assets: assets.sorted { $0.key < $1.key }.map {
                Seed.Asset(name: $0.key, data: $0.value.base64EncodedString(), state: state)
            })
        _ = try await control("POST", "seed", body: String(decoding: try JSONEncoder().encode(seed), as: UTF8.self))
    }

    /// Sends a raw request to the API (for tests of the stand-in's own strictness): status and body.
    public func send(
        _ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil
    ) async throws -> (Int, String) {
        guard let url = URL(string: apiURL + path) else { throw TestFailure("bad path \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body { request.httpBody = Data(body.utf8) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    /// Every pull request the stand-in holds; `seed` (`{"unrelated": N}`, `{"merge": NUMBER}`) changes them first.
    public func pulls(_ seed: String? = nil) async throws -> [StandInPull] {
        try JSONDecoder().decode(
            [StandInPull].self, from: try await control(seed == nil ? "GET" : "POST", "pulls", body: seed))
    }

    private func control(_ method: String, _ name: String, body: String? = nil) async throws -> Data {
        guard let url = URL(string: "http://127.0.0.1:\(port)/_standin/\(name)") else {
            throw TestFailure("bad stand-in URL")
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let body { request.httpBody = Data(body.utf8) }
        let (data, _) = try await URLSession.shared.data(for: request)
        return data
    }
}
