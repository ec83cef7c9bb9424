import Foundation
import RelctlCore

/// A real CNCF distribution registry (Debian's `docker-registry`) on a free loopback port, with
/// filesystem storage in a temporary folder and its access log in a file; optionally behind
/// htpasswd basic auth. Stopped by `stop()`.
public final class TestRegistry {
    public let directory: TemporaryDirectory
    public let port: Int
    public let process: Process
    public var host: String { "127.0.0.1:\(port)" }
    public var log: URL { directory.url.appendingPathComponent("registry.log") }

    /// - Parameter user: with a user and password, every request needs them (htpasswd, bcrypt).
    public init(user: (name: String, password: String)? = nil) throws {
        directory = try TemporaryDirectory(prefix: "relctl-registry")
        port = try Self.freePort()
        var auth = ""
        if let user {
            let htpasswd = try run("htpasswd", ["-Bbn", user.name, user.password])
            guard htpasswd.status == 0 else { throw TestFailure("htpasswd failed: \(htpasswd)") }
            try directory.write("htpasswd", htpasswd.stdout)
            auth = "auth:\n  htpasswd:\n    realm: relctl-test\n    path: \(directory.path)/htpasswd\n"
        }
        try directory.write(
            "config.yml",
            """
            version: 0.1
            log:
              level: info
              formatter: text
            storage:
              filesystem:
                rootdirectory: \(directory.path)/data
              delete:
                enabled: true
            http:
              addr: 127.0.0.1:\(port)
            \(auth)
            """)
        let logFile = directory.url.appendingPathComponent("registry.log")
        guard FileManager.default.createFile(atPath: logFile.path, contents: nil) else {
            throw TestFailure("cannot create \(logFile.path)")
        }
        let handle = try FileHandle(forWritingTo: logFile)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/docker-registry")
        process.arguments = ["serve", directory.url.appendingPathComponent("config.yml").path]
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        // Ready once the port accepts connections (at most ~10 s).
        for _ in 0..<200 {
            if Self.accepts(port) { return }
            usleep(50_000)
        }
        stop()
        throw TestFailure(
            "docker-registry did not start on \(host): \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }

    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        directory.remove()
    }

    /// The access log's request lines (`METHOD /v2/… `), in order.
    public func requests() -> [String] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let start = line.range(of: "\"")?.upperBound, let end = line[start...].range(of: " HTTP/")?.lowerBound
            else { return nil }
            let request = line[start..<end]
            return ["GET ", "HEAD ", "POST ", "PUT ", "PATCH ", "DELETE "].contains(where: request.hasPrefix)
                ? String(request) : nil
        }
    }

    public static func available() -> Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/docker-registry")
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw TestFailure("cannot find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
