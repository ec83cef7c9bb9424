import Foundation

/// Two loopback origins (two ports of 127.0.0.1) for the shared HTTP policy tests: origin A
/// redirects, challenges and hands out upload locations; origin B is "somewhere else" (a CDN,
/// another host). Each request either receives is logged with the secret-carrying headers it
/// arrived with, so a test proves what reached which origin. Stopped by `stop()`; it also exits
/// when this process goes away (its stdin closes).
public final class TwoOrigins: Sendable {
    /// One request as an origin received it.
    public struct Received: Decodable, Sendable {
        public var origin: String
        public var method: String
        public var path: String
        public var authorization: String?
        public var cookie: String?
        public var bytes: Int
    }

    public let portA: Int
    public let portB: Int
    private let process: Process
    private let stdin: FileHandle
    private let directory: TemporaryDirectory

    public var baseA: String { "http://127.0.0.1:\(portA)" }
    public var baseB: String { "http://127.0.0.1:\(portB)" }

    /// - Parameter registryAuth: how A's `/v2/` routes challenge: "basic" or "bearer".
    public init(registryAuth: String = "basic") throws {
        directory = try TemporaryDirectory(prefix: "relctl-origins")
        let script = try directory.write("two_origins.py", Self.source)
        let portFile = directory.url.appendingPathComponent("ports")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let content = directory.url.appendingPathComponent("content")
        try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        process.arguments = [
            "python3", script.path, portFile.path, directory.url.appendingPathComponent("log").path, registryAuth,
            content.path,
        ]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var ports: [Int] = []
        for _ in 0..<200 {
            if let text = try? String(contentsOf: portFile, encoding: .utf8) {
                ports = text.split(separator: " ").compactMap { Int($0) }
                break
            }
            guard process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        guard ports.count == 2 else {
            process.terminate()
            throw TestFailure("two_origins.py did not start")
        }
        self.process = process
        stdin = input.fileHandleForWriting
        portA = ports[0]
        portB = ports[1]
    }

    /// Serves `data` as the manifest or blob `name` (a digest, or any text a test needs).
    public func serve(_ data: Data, as name: String) throws {
        try data.write(to: directory.url.appendingPathComponent("content").appendingPathComponent(name))
    }

    /// Every request received so far, in order.
    public func received() throws -> [Received] {
        let text = (try? String(contentsOf: directory.url.appendingPathComponent("log"), encoding: .utf8)) ?? ""
        return try text.split(separator: "\n").map { try JSONDecoder().decode(Received.self, from: Data($0.utf8)) }
    }

    public func stop() {
        try? stdin.close()
        process.waitUntilExit()
        directory.remove()
    }

    static let source = #"""
        # Two loopback origins (two ports of 127.0.0.1) for the shared HTTP policy tests: origin A plays
        # a server that redirects, challenges and hands out upload locations; origin B is "somewhere
        # else" (a CDN, another host). Every request on either port is logged as one JSON line, with the
        # secret-carrying headers it arrived with, so a test can prove what reached which origin.
        #
        # Arguments: port file, log file, auth mode for A's registry routes ("basic" or "bearer"),
        # content folder (files named by digest, served as manifests and as CDN blobs).
        # Routes (same handler on both ports; "other" means the other port):
        #   /r?status=S&to=URL              answers S with Location: URL (any method)
        #   /trickle                        200, then one body byte every 0.2 s for ever
        #   /endless                        200 without a length, then 64 KiB chunks every 2 ms, for ever
        #   .../reflect...                  403 (registry) or 422 whose body echoes the Authorization header
        #   /v2/                           registry ping: 401 with a challenge unless authorized (A only)
        #   /token                         on A: 302 to the other port's /token; on B: {"token": "registry-token"}
        #   /v2/NAME/blobs/uploads/        POST on A: 202, Location on the other port (/upload/1)
        #   /v2/NAME/manifests/DIGEST      on A: the content file named DIGEST, else 404
        #   /v2/NAME/blobs/DIGEST          GET on A: 307 to the other port's /cdn/DIGEST; HEAD on A: 404
        #   /cdn/DIGEST                    the content file named DIGEST, else 200 "ok"
        #   /upload/...                    PUT: 201 (a liar: it stores nothing)
        #   /limited?retry_after=X|reset=Y  429 with Retry-After: X, or 403 with x-ratelimit-reset: Y
        #   /repos/...                     on A: 307 to the same path on the other port; on B: 200 "[]"
        #   anything else                  200 "ok"
        import json, signal, sys, threading, os, time
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        from urllib.parse import urlparse, parse_qs

        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
        port_file, log_file, mode, content = sys.argv[1:5]
        lock = threading.Lock()
        ports = []

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # No 40 ms wait for the client's delayed ACK between the headers and the body.
            disable_nagle_algorithm = True

            def handle_any(self):
                length = int(self.headers.get("Content-Length") or 0)
                received = 0
                while received < length:
                    chunk = self.rfile.read(min(65536, length - received))
                    if not chunk:
                        break
                    received += len(chunk)
                mine = self.server.server_address[1]
                other = ports[1] if mine == ports[0] else ports[0]
                is_a = mine == ports[0]
                with lock, open(log_file, "a") as log:
                    log.write(json.dumps({
                        "origin": "A" if is_a else "B", "method": self.command, "path": self.path,
                        "authorization": self.headers.get("Authorization"), "cookie": self.headers.get("Cookie"),
                        "bytes": received}) + "\n")
                url = urlparse(self.path)
                query = parse_qs(url.query)
                auth = self.headers.get("Authorization") or ""
                if "/reflect" in url.path and (auth or not url.path.startswith("/v2/")):
                    body = json.dumps({"message": f"bad credentials: {auth}", "errors": [{"code": "DENIED", "message": auth}]})
                    return self.answer(403 if url.path.startswith("/v2/") else 422, body.encode())
                if url.path == "/trickle":
                    # Headers, then one byte every 0.2 s for ever: the idle timeout never fires.
                    self.send_response(200)
                    self.send_header("Content-Length", "1000000")
                    self.end_headers()
                    try:
                        while True:
                            self.wfile.write(b"x")
                            self.wfile.flush()
                            time.sleep(0.2)
                    except OSError:
                        return
                if url.path == "/endless":
                    # A body that never ends, sent as fast as the client reads it (issue 26, item 12).
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Connection", "close")
                    self.end_headers()
                    chunk = b"[" + b"0," * 32767
                    try:
                        while True:
                            self.wfile.write(chunk)
                            # About 32 MB/s: the 16 MiB limit is passed in half a second. Unthrottled
                            # on loopback, FoundationNetworking queues every chunk for the delegate
                            # without backpressure, and on a busy machine the queue outran the
                            # limit check: the test process held 3-20 GB of "0," (session 6).
                            time.sleep(0.002)
                    except OSError:
                        self.close_connection = True
                        return
                if url.path == "/r":
                    return self.answer(int(query["status"][0]), b"", {"Location": query["to"][0]})
                if url.path.startswith("/v2/") and is_a:
                    wanted = "Basic " if mode == "basic" else "Bearer registry-token"
                    if not auth.startswith(wanted):
                        challenge = ('Basic realm="two-origins"' if mode == "basic" else
                                     f'Bearer realm="http://127.0.0.1:{mine}/token",service="two-origins"')
                        return self.answer(401, b'{"errors":[{"code":"UNAUTHORIZED"}]}', {"WWW-Authenticate": challenge})
                    if url.path == "/v2/":
                        return self.answer(200, b"{}")
                    if url.path.endswith("/blobs/uploads/") and self.command == "POST":
                        return self.answer(202, b"", {"Location": f"http://127.0.0.1:{other}/upload/1"})
                    if "/manifests/" in url.path and self.command in ("GET", "HEAD"):
                        served = os.path.join(content, url.path.rsplit("/", 1)[1])
                        if os.path.isfile(served):
                            return self.answer(200, open(served, "rb").read(), {"Content-Type": "application/vnd.oci.image.manifest.v1+json"})
                        return self.answer(404, b'{"errors":[{"code":"MANIFEST_UNKNOWN"}]}')
                    if "/blobs/" in url.path:
                        digest = url.path.rsplit("/", 1)[1]
                        if self.command == "HEAD":
                            return self.answer(404, b"")
                        return self.answer(307, b"", {"Location": f"http://127.0.0.1:{other}/cdn/{digest}"})
                if url.path == "/limited":
                    headers = {}
                    if "retry_after" in query:
                        headers["Retry-After"] = query["retry_after"][0]
                    if "reset" in query:
                        headers["x-ratelimit-remaining"] = "0"
                        headers["x-ratelimit-reset"] = query["reset"][0]
                    return self.answer(429 if "retry_after" in query else 403, b"{}", headers)
                if url.path.startswith("/repos/"):
                    if is_a:
                        return self.answer(307, b"", {"Location": f"http://127.0.0.1:{other}{self.path}"})
                    return self.answer(200, b"[]")
                if url.path == "/token":
                    if is_a:
                        return self.answer(302, b"", {"Location": f"http://127.0.0.1:{other}/token?{url.query}"})
                    return self.answer(200, b'{"token": "registry-token"}')
                if url.path.startswith("/cdn/"):
                    served = os.path.join(content, url.path.rsplit("/", 1)[1])
                    if os.path.isfile(served):
                        return self.answer(200, open(served, "rb").read())
                if url.path.startswith("/upload/") and self.command == "PUT":
                    return self.answer(201, b"")
                return self.answer(200, b"ok")

            def answer(self, status, body, headers={}):
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)

            do_GET = do_POST = do_PUT = do_HEAD = do_PATCH = do_DELETE = handle_any

            def log_message(self, *args):
                pass

        servers = [ThreadingHTTPServer(("127.0.0.1", 0), Handler) for _ in range(2)]
        ports.extend(server.server_address[1] for server in servers)
        for server in servers:
            threading.Thread(target=server.serve_forever, daemon=True).start()
        with open(port_file + ".tmp", "w") as out:
            out.write(f"{ports[0]} {ports[1]}")
        os.rename(port_file + ".tmp", port_file)
        # Exit when the test process goes away (stdin closes).
        sys.stdin.read()
        os._exit(0)
        """#
}
