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

    public init(serving directory: URL) throws {
        let portFile = FileManager.default.temporaryDirectory.appendingPathComponent("relctl-http-\(UUID().uuidString)")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script, directory.path, portFile.path]
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
