import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlChanges
import RelctlDistribution
import RelctlModel
import RelctlProject
import RelctlRelease

/// A real CNCF distribution registry (Debian's `docker-registry`) on a loopback port it binds
/// itself (`127.0.0.1:0`, the port read back from its log, so no other process can take it in
/// between), ready once `GET /v2/` answers as a registry (`Docker-Distribution-Api-Version`), with
/// filesystem storage in a temporary folder and its access log in a file; optionally behind
/// htpasswd basic auth, or behind bearer tokens from a token server of its own (`token_server.py`
/// below: Python's standard library, JWTs signed RS256 by the `openssl` CLI with a key whose
/// self-signed certificate is the registry's `rootcertbundle`, sent in the JWT's `x5c` header,
/// which is how distribution 2.8 finds and trusts the signing key). Stopped by `stop()`.
public final class TestRegistry {
    public let directory: TemporaryDirectory
    public let port: Int
    public let process: Process
    /// The token server, for a registry behind bearer tokens.
    public private(set) var tokenServer: Process?
    public var host: String { "127.0.0.1:\(port)" }
    public var log: URL { directory.url.appendingPathComponent("registry.log") }
    /// One line per token request: `200 scope=… ` or `401 …` (bearer-token registries only).
    public var tokenLog: URL { directory.url.appendingPathComponent("token.log") }

    public enum Auth {
        /// htpasswd basic auth: every request needs the user and password.
        case basic(name: String, password: String)
        /// Bearer tokens: the registry sends clients to its token server, which hands a signed
        /// token granting the scopes asked for to this user and password, and 401 to anyone else.
        case token(name: String, password: String)
    }

    /// - Parameter user: with a user and password, every request needs them (htpasswd, bcrypt).
    public convenience init(user: (name: String, password: String)? = nil) throws {
        try self.init(auth: user.map { .basic(name: $0.name, password: $0.password) })
    }

    public init(auth authentication: Auth?) throws {
        directory = try TemporaryDirectory(prefix: "relctl-registry")
        let registryPath = try Tool.path("docker-registry")
        var auth = ""
        if case .token(let name, let password) = authentication {
            let made = try run(
                "openssl",
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "\(directory.path)/token.key", "-out",
                    "\(directory.path)/token.crt", "-days", "2", "-subj", "/CN=relctl-test-token-issuer",
                ])
            guard made.status == 0 else { throw TestFailure("openssl req failed: \(made)") }
            try directory.write("token_server.py", Self.tokenServerSource)
            let portFile = directory.url.appendingPathComponent("token.port")
            let server = Process()
            server.executableURL = URL(fileURLWithPath: try Tool.path("python3"))
            server.arguments = [
                "\(directory.path)/token_server.py", portFile.path, "\(directory.path)/token.key",
                "\(directory.path)/token.crt", name, password, "\(directory.path)/token.log",
            ]
            server.standardOutput = FileHandle.nullDevice
            server.standardError = FileHandle.nullDevice
            try server.run()
            tokenServer = server
            // The server binds port 0 and listens before it writes the port it got.
            var tokenPort: Int?
            do {
                try Self.waitUntil(what: "the token server to start", running: server) {
                    tokenPort = (try? String(contentsOf: portFile, encoding: .utf8)).flatMap { Int($0) }
                    return tokenPort != nil
                }
            } catch {
                kill(server.processIdentifier, SIGKILL)
                server.waitUntilExit()
                throw error
            }
            auth = """
                auth:
                  token:
                    realm: http://127.0.0.1:\(tokenPort ?? 0)/token
                    service: relctl-test-registry
                    issuer: relctl-test-token-issuer
                    rootcertbundle: \(directory.path)/token.crt

                """
        }
        if case .basic(let name, let password) = authentication {
            let user = (name: name, password: password)
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
              addr: 127.0.0.1:0
            \(auth)
            """)
        let logFile = directory.url.appendingPathComponent("registry.log")
        guard FileManager.default.createFile(atPath: logFile.path, contents: nil) else {
            throw TestFailure("cannot create \(logFile.path)")
        }
        let handle = try FileHandle(forWritingTo: logFile)
        let registry = Process()
        registry.executableURL = URL(fileURLWithPath: registryPath)
        registry.arguments = ["serve", directory.url.appendingPathComponent("config.yml").path]
        registry.standardOutput = handle
        registry.standardError = handle
        try registry.run()
        process = registry
        do {
            // distribution logs `listening on 127.0.0.1:PORT` once its listener is open.
            var found: Int?
            try Self.waitUntil(what: "docker-registry to listen", running: registry) {
                found = Self.listeningPort(in: (try? String(contentsOf: logFile, encoding: .utf8)) ?? "")
                return found != nil
            }
            let port = found ?? 0
            // Ready: `GET /v2/` answers as a registry does (401 behind auth, with the header all the same).
            let answer = try run(
                "curl",
                [
                    "-sS", "--noproxy", "*", "--max-time", "30", "-o", "/dev/null", "-D", "-",
                    "http://127.0.0.1:\(port)/v2/",
                ])
            let headers = answer.stdout.split(whereSeparator: \.isNewline).map { $0.lowercased() }
            guard answer.status == 0,
                headers.contains(where: { $0.hasPrefix("docker-distribution-api-version: registry/2.0") })
            else {
                throw TestFailure("127.0.0.1:\(port) does not answer GET /v2/ as a registry: \(answer)")
            }
            self.port = port
        } catch {
            for child in [registry, tokenServer].compactMap({ $0 }) where child.isRunning {
                kill(child.processIdentifier, SIGKILL)
                child.waitUntilExit()
            }
            throw TestFailure(
                "docker-registry did not start: \(error)\n\((try? String(contentsOf: logFile, encoding: .utf8)) ?? "")")
        }
    }

    /// The port of distribution's `listening on 127.0.0.1:PORT` log line.
    static func listeningPort(in log: String) -> Int? {
        guard let range = log.range(of: "listening on 127.0.0.1:") else { return nil }
        return Int(log[range.upperBound...].prefix { $0.isNumber })
    }

    /// Polls `condition` while `process` runs (a child that exits has failed to start); the
    /// test's time limit bounds the wait, and so does a generous deadline of its own.
    static func waitUntil(what: String, running process: Process, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(120)
        while !condition() {
            guard process.isRunning else { throw TestFailure("waiting for \(what): it exited") }
            guard !TestCancellation.isCancelled, Date() < deadline else {
                throw TestFailure("waiting for \(what): gave up")
            }
            usleep(20_000)
        }
    }

    public func stop() {
        // SIGKILL: a child of the test runner may inherit SIGTERM blocked.
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        // SIGKILL: python3 keeps the signal mask it inherits, in which SIGTERM may be blocked.
        if let tokenServer, tokenServer.isRunning {
            kill(tokenServer.processIdentifier, SIGKILL)
            tokenServer.waitUntilExit()
        }
        directory.remove()
    }

    /// The token server: `GET /token?service=S&scope=repository:NAME:ACTIONS` with Basic
    /// credentials answers `{"token": JWT}`; the JWT names the issuer and service the registry
    /// trusts and grants exactly the scopes asked for. Arguments: the file to write its port to,
    /// key, certificate, user, password, log file.
    static let tokenServerSource = #"""
        import base64, json, subprocess, sys, time
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        from urllib.parse import urlparse, parse_qs

        port_file, key, cert, user, password, log = sys.argv[1:7]
        pem = open(cert).read()
        der = "".join(l for l in pem.splitlines() if l and not l.startswith("-----"))
        expected = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()

        def b64(data):
            return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                url = urlparse(self.path)
                query = parse_qs(url.query)
                scopes = query.get("scope", [])
                if url.path != "/token" or self.headers.get("Authorization") != expected:
                    with open(log, "a") as f:
                        f.write(f"401 scope={' '.join(scopes)}\n")
                    body = b'{"errors":[{"code":"UNAUTHORIZED","message":"bad credentials"}]}'
                    self.send_response(401)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                access = []
                for scope in scopes:
                    kind, rest = scope.split(":", 1)
                    name, actions = rest.rsplit(":", 1)
                    access.append({"type": kind, "name": name, "actions": actions.split(",")})
                now = int(time.time())
                header = {"typ": "JWT", "alg": "RS256", "x5c": [der]}
                claims = {
                    "iss": "relctl-test-token-issuer", "sub": user, "aud": query.get("service", [""])[0],
                    "exp": now + 600, "nbf": now - 10, "iat": now, "jti": str(time.monotonic_ns()),
                    "access": access,
                }
                signing = b64(json.dumps(header).encode()) + "." + b64(json.dumps(claims).encode())
                signature = subprocess.run(
                    ["openssl", "dgst", "-sha256", "-sign", key], input=signing.encode(), capture_output=True,
                    check=True).stdout
                token = signing + "." + b64(signature)
                with open(log, "a") as f:
                    f.write(f"200 scope={' '.join(scopes)}\n")
                body = json.dumps({"token": token, "expires_in": 600}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        # Port 0: the system picks a free port and the server holds it from then on; it says
        # which through the file (written whole, then renamed), once it listens.
        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        with open(port_file + ".tmp", "w") as f:
            f.write(str(server.server_address[1]))
        import os
        os.rename(port_file + ".tmp", port_file)
        server.serve_forever()
        """#

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
}
