import Foundation

/// `python3`'s http.server serving a folder on 127.0.0.1, on a port the OS picks (written to a
/// file, so there is no race for a "free" port). Stopped by `stop()`.
public final class LoopbackServer: Sendable {
    public let port: Int
    private let process: Process

    public var baseURL: String { "http://127.0.0.1:\(port)/" }

    static let script = """
        import functools, http.server, signal, sys
        # The test runner's threads block signals and children inherit that mask: unblock SIGTERM.
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
        handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
        handler.func.log_message = lambda *args: None
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        with open(sys.argv[2] + ".tmp", "w") as out:
            out.write(str(server.server_address[1]))
        import os
        os.rename(sys.argv[2] + ".tmp", sys.argv[2])
        server.serve_forever()
        """

    /// Answers every GET with 302 to the same path under `target` (another origin), and logs
    /// each request as one JSON line (path, Authorization, Cookie) to `log`.
    static let redirector = """
        import json, http.server, signal, sys
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
        target, port_file, log_file = sys.argv[1:4]
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                with open(log_file, "a") as log:
                    log.write(json.dumps({"path": self.path, "authorization": self.headers.get("Authorization"),
                                          "cookie": self.headers.get("Cookie")}) + "\\n")
                self.send_response(302)
                self.send_header("Location", target.rstrip("/") + self.path)
                self.send_header("Content-Length", "0")
                self.end_headers()
            def log_message(self, *args):
                pass
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        with open(port_file + ".tmp", "w") as out:
            out.write(str(server.server_address[1]))
        import os
        os.rename(port_file + ".tmp", port_file)
        server.serve_forever()
        """

    /// Accepts every connection and never answers: a client's TLS handshake starts (it loads its
    /// trust store) and then waits.
    static let holder = """
        import os, signal, socket, sys
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen(128)
        with open(sys.argv[1] + ".tmp", "w") as out:
            out.write(str(server.getsockname()[1]))
        os.rename(sys.argv[1] + ".tmp", sys.argv[1])
        held = []
        while True:
            held.append(server.accept()[0])
        """

    /// A server that accepts connections and never answers them.
    public convenience init(holdingConnections: Void) throws {
        try self.init(script: Self.holder) { [$0] }
    }

    public convenience init(serving directory: URL) throws {
        try self.init(script: Self.script) { [directory.path, $0] }
    }

    /// A second origin that redirects every request to `target` (`http://127.0.0.1:PORT/`),
    /// logging what it received to `log`.
    public convenience init(redirectingTo target: String, log: URL) throws {
        try self.init(script: Self.redirector) { [target, $0, log.path] }
    }

    /// - Parameter arguments: the script's arguments, given the file it writes its port to.
    init(script: String, arguments: (String) -> [String]) throws {
        let portFile = FileManager.default.temporaryDirectory.appendingPathComponent("relctl-http-\(UUID().uuidString)")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments(portFile.path)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var found: Int?
        for _ in 0..<200 {
            if let text = try? String(contentsOf: portFile, encoding: .utf8), let number = Int(text) {
                found = number
                break
            }
            guard process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        try? FileManager.default.removeItem(at: portFile)
        guard let found else {
            process.terminate()
            throw CocoaError(
                .fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "python3 http.server did not start"])
        }
        port = found
    }

    /// SIGKILL, which no inherited signal mask can hold back, then reaps the process.
    public func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
