import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlChanges
import RelctlDistribution
import RelctlModel
import RelctlProject

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs `gitlab_standin.py` or `gitea_standin.py` (strict stand-ins for GitLab's REST v4 and
/// Gitea's/Forgejo's API v1, sharing forge_standin.py) on a free loopback port for one test, and
/// reads back what they received. Stop it with `stop()`; it also exits when this process goes
/// away (its stdin closes).
public final class ForgeStandIn: Sendable {
    public enum Forge: String, Sendable {
        case gitlab, gitea
    }

    public static let gitlabToken = "glpat-standin0123456789"
    public static let jobToken = "glcbt-job0123456789"
    public static let giteaToken = "gitea0123456789abcdef"
    public static let gitlabProject = "acme/tools/velostream"
    public static let giteaRepository = "acme/velostream"

    public let forge: Forge
    public let port: Int
    private let process: Process
    private let stdin: FileHandle

    /// One request as the stand-in logged it.
    public struct Request: Decodable, Sendable {
        public struct Asset: Decodable, Sendable {
            public var name: String
            public var sha256: String?
            public var size: Int?
        }
        /// When the request arrived.
        public var time: Double
        /// When its answer was ready, logged just before it left (the log is in this order, so a
        /// client's next request is always logged after the answer it waited for).
        public var end: Double
        public var method: String
        public var path: String
        public var query: String
        public var status: Int
        public var index: Int?
        public var kind: String?
        public var name: String?
        public var user_agent: String?
        public var authorized: Bool
        /// The secret-carrying headers that arrived (names only).
        public var secrets: [String]
        public var fault: String?
        public var published: Bool?
        public var created: Bool?
        public var acted: Int?
        public var assets_at_publish: [Asset]?
    }

    /// `tags`: the tags the repository holds (`NAME` or `NAME=SHA`); `gitDirectory`: a bare
    /// repository whose tags the API reports too (where `release --push` pushes).
    public init(_ forge: Forge, tags: [String] = ["v1.0.0"], gitDirectory: URL? = nil) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "\(forge.rawValue)_standin.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let identity =
            switch forge {
            case .gitlab:
                ["--token", Self.gitlabToken, "--job-token", Self.jobToken, "--project", Self.gitlabProject]
            case .gitea: ["--token", Self.giteaToken, "--repo", Self.giteaRepository]
            }
        process.arguments =
            ["python3", script.path] + identity + tags.flatMap { ["--tag", $0] }
            + (gitDirectory.map { ["--git-dir", $0.path] } ?? [])
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var bytes = Data()
        while let byte = try? output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 0x0A {
            bytes.append(first)
        }
        let line = String(decoding: bytes, as: UTF8.self)
        guard line.hasPrefix("PORT "), let port = Int(line.dropFirst(5)) else {
            process.terminate()
            throw TestFailure("the \(forge) stand-in did not start (said `\(line)`)")
        }
        self.forge = forge
        self.process = process
        self.stdin = input.fileHandleForWriting
        self.port = port
    }

    public var origin: String { "http://127.0.0.1:\(port)" }

    /// The API base the forge's variables should name.
    public var apiURL: String { origin + (forge == .gitlab ? "/api/v4" : "/api/v1") }

    /// The environment for `relctl publish --forge …` against this stand-in: the forge's API
    /// variable and token, and every other forge's token cleared.
    public func environment(token: String? = nil, jobToken: String? = nil) -> [String: String] {
        var environment = [
            "GITHUB_TOKEN": "", "GH_TOKEN": "", "GITLAB_TOKEN": "", "CI_JOB_TOKEN": "", "GITEA_TOKEN": "",
            "GITLAB_API_URL": "", "CI_API_V4_URL": "", "CI_PROJECT_PATH": "", "GITEA_API_URL": "",
            "GITEA_SERVER_URL": "",
        ]
        switch forge {
        case .gitlab:
            environment["GITLAB_API_URL"] = apiURL
            environment["GITLAB_TOKEN"] = token ?? (jobToken == nil ? Self.gitlabToken : "")
            if let jobToken { environment["CI_JOB_TOKEN"] = jobToken }
        case .gitea:
            environment["GITEA_API_URL"] = apiURL
            environment["GITEA_TOKEN"] = token ?? Self.giteaToken
        }
        return environment
    }

    /// The `[publish]` line naming this stand-in's project.
    public var configLine: String {
        forge == .gitlab ? "gitlab = \"\(Self.gitlabProject)\"" : "gitea = \"\(Self.giteaRepository)\""
    }

    public func stop() {
        try? stdin.close()
        process.waitUntilExit()
    }

    public func log() async throws -> [Request] {
        try JSONDecoder().decode([Request].self, from: try await control("GET", "log"))
    }

    /// The stand-in's whole state as JSON (releases, attachments or packages, links).
    public func state() async throws -> Any {
        try JSONSerialization.jsonObject(with: try await control("GET", "state"))
    }

    public func setFaults(_ json: String) async throws { _ = try await control("POST", "faults", body: json) }

    /// Forgets every release, file, log entry and fault (between iterations of a loop).
    public func reset() async throws { _ = try await control("POST", "reset") }

    /// Adds state as if made earlier (see each stand-in's `seed`).
    public func seed(_ json: String) async throws { _ = try await control("POST", "seed", body: json) }

    /// Sends a raw request to the API (for tests of the stand-in's own strictness): status and body.
    public func send(
        _ method: String, _ path: String, headers: [String: String] = [:], body: Data? = nil
    ) async throws -> (Int, String) {
        guard let url = URL(string: apiURL + path) else { throw TestFailure("bad path \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    /// Every pull request the stand-in holds; `seed` (`{"unrelated": N}`, `{"merge": NUMBER}`) changes them first.
    public func pulls(_ seed: String? = nil) async throws -> [StandInPull] {
        try JSONDecoder().decode(
            [StandInPull].self, from: try await control(seed == nil ? "GET" : "POST", "pulls", body: seed))
    }

    private func control(_ method: String, _ name: String, body: String? = nil) async throws -> Data {
        guard let url = URL(string: "\(origin)/_standin/\(name)") else { throw TestFailure("bad stand-in URL") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let body { request.httpBody = Data(body.utf8) }
        let (data, _) = try await URLSession.shared.data(for: request)
        return data
    }
}
