import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs `npm_registry_standin.py` (a strict stand-in for the npm registry's publish and install
/// API) on a free loopback port for one test, and reads back what it received. Stop it with
/// `stop()`; it also exits on its own when this process goes away (its stdin closes).
public final class NpmRegistryStandIn: Sendable {
    public static let token = "npm_standin0123456789abcdef"
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "npm_registry_standin.py")

    public let port: Int
    private let process: Process
    private let stdin: FileHandle

    /// One request as the stand-in logged it.
    public struct Request: Decodable, Sendable {
        public var method: String
        public var path: String
        public var status: Int
        /// `none`, `good` or `bad`.
        public var authorization: String
    }

    public init() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path, "--token", Self.token]
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
            throw TestFailure("the npm registry stand-in did not start (said `\(line)`)")
        }
        self.process = process
        self.stdin = input.fileHandleForWriting
        self.port = port
    }

    public var url: String { "http://127.0.0.1:\(port)/" }

    public func stop() {
        try? stdin.close()
        process.waitUntilExit()
    }

    public func log() async throws -> [Request] {
        try JSONDecoder().decode([Request].self, from: try await control("GET", "log"))
    }

    /// Replaces the fault list (see the script's header).
    public func setFaults(_ json: String) async throws {
        _ = try await control("POST", "faults", body: json)
    }

    /// A version as if another build had published it.
    public func seed(name: String, version: String, integrity: String) async throws {
        let body = try JSONSerialization.data(withJSONObject: ["name": name, "version": version, "integrity": integrity])
        _ = try await control("POST", "seed", body: String(decoding: body, as: UTF8.self))
    }

    private func control(_ method: String, _ path: String, body: String? = nil) async throws -> Data {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/_standin/\(path)")!)
        request.httpMethod = method
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, _) = try await URLSession.shared.data(for: request)
        return data
    }
}
