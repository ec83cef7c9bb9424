import Foundation

/// A strict stand-in for the blob-upload part of the OCI distribution API, written from the
/// distribution spec ("Pushing blobs": POST then PUT, and "Pushing a blob in chunks": POST, PATCH
/// with `Content-Range`, the closing PUT `?digest=`), with fault injection for what
/// docker-registry never does: refuse chunks. Every request is logged as one JSON line, with
/// whatever the spec forbids named in `violation` (answered 400), so a test proves relctl spoke
/// the protocol and not merely that a lenient server accepted it. Blobs are stored by digest in
/// a folder, checked against the closing `?digest=`. Stopped by `stop()`; it also exits when this
/// process goes away (its stdin closes).
public final class RegistryStandIn: Sendable {
    /// One request as the stand-in received it.
    public struct Request: Decodable, Sendable {
        public var method: String
        public var path: String
        public var status: Int
        public var content_range: String?
        public var bytes: Int
        public var violation: String?
        public var authorization: String?
    }

    /// What the stand-in does wrong on purpose.
    public enum Fault: String, Sendable {
        /// Every PATCH is answered 416 (a registry that wants no chunks, or lost the session's offset).
        case patch416 = "patch-416"
        /// Every PATCH is answered 405 (chunked uploads not supported).
        case patch405 = "patch-405"
        /// PATCH is accepted but answered without a `Location` (the spec says it MUST send one).
        case patchNoLocation = "patch-no-location"
        /// The first PATCH is answered 429 with `Retry-After: 1`, the rest normally.
        case patch429Once = "patch-429-once"
    }

    public let port: Int
    public var host: String { "127.0.0.1:\(port)" }
    private let process: Process
    private let stdin: FileHandle
    private let directory: TemporaryDirectory

    public init(faults: [Fault] = []) throws {
        directory = try TemporaryDirectory(prefix: "relctl-registry-standin")
        let script = try directory.write("registry_standin.py", Self.source)
        let portFile = directory.url.appendingPathComponent("port")
        let blobs = directory.url.appendingPathComponent("blobs")
        try FileManager.default.createDirectory(at: blobs, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", script.path, portFile.path, directory.url.appendingPathComponent("log").path, blobs.path,
            faults.map(\.rawValue).joined(separator: ","),
        ]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var port: Int?
        for _ in 0..<200 {
            if let text = try? String(contentsOf: portFile, encoding: .utf8), let number = Int(text) {
                port = number
                break
            }
            guard process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        guard let port else {
            process.terminate()
            throw TestFailure("registry_standin.py did not start")
        }
        self.port = port
        self.process = process
        stdin = input.fileHandleForWriting
    }

    /// Every request received so far, in order.
    public func requests() throws -> [Request] {
        let text = (try? String(contentsOf: directory.url.appendingPathComponent("log"), encoding: .utf8)) ?? ""
        return try text.split(separator: "\n").map { try JSONDecoder().decode(Request.self, from: Data($0.utf8)) }
    }

    /// A stored blob (`sha256:…`), as the closing PUT left it.
    public func blob(_ digest: String) -> Data? {
        FileManager.default.contents(
            atPath: directory.url.appendingPathComponent("blobs").appendingPathComponent(String(digest.dropFirst(7)))
                .path)
    }

    public func stop() {
        try? stdin.close()
        process.waitUntilExit()
        directory.remove()
    }

    static let source = #"""
        # A strict stand-in for the OCI distribution spec's blob uploads (and just enough manifests to
        # finish a push). Arguments: port file, log file, blob folder, faults (comma-separated).
        import hashlib, json, os, re, signal, sys, threading, uuid
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        from urllib.parse import urlparse, parse_qs

        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
        port_file, log_file, blobs, faults = sys.argv[1:5]
        faults = set(f for f in faults.split(",") if f)
        lock = threading.Lock()
        uploads = {}      # session id -> bytearray received so far
        manifests = {}    # (name, reference) -> (media type, body)
        state = {"patches": 0}
        RANGE = re.compile(r"^([0-9]+)-([0-9]+)$")
        NAME = r"(?P<name>[a-z0-9]+(?:[._-][a-z0-9]+)*(?:/[a-z0-9]+(?:[._-][a-z0-9]+)*)*)"

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # No 40 ms wait for the client's delayed ACK between the headers and the body.
            disable_nagle_algorithm = True

            def handle_any(self):
                length = self.headers.get("Content-Length")
                body = self.rfile.read(int(length)) if length else b""
                self.record = {"method": self.command, "path": self.path, "bytes": len(body),
                               "content_range": self.headers.get("Content-Range"),
                               "authorization": self.headers.get("Authorization"), "violation": None}
                try:
                    self.route(body, length)
                except Exception as error:  # a bug in the stand-in must show, not hang the client
                    self.fail(500, "UNKNOWN", f"stand-in error: {error}")

            def violation(self, text, status=400, code="BLOB_UPLOAD_INVALID"):
                self.record["violation"] = text
                self.fail(status, code, text)

            def fail(self, status, code, message, headers={}):
                self.answer(status, json.dumps({"errors": [{"code": code, "message": message}]}).encode(), headers)

            def route(self, body, length):
                url = urlparse(self.path)
                query = parse_qs(url.query)
                path = url.path
                if path == "/v2/":
                    return self.answer(200, b"{}")
                m = re.fullmatch(r"/v2/" + NAME + r"/blobs/uploads/", path)
                if m and self.command == "POST":
                    if length != "0":
                        return self.violation("POST to open an upload needs Content-Length: 0")
                    session = uuid.uuid4().hex
                    with lock:
                        uploads[session] = bytearray()
                    return self.answer(202, b"", {"Location": f"/v2/{m['name']}/blobs/uploads/{session}", "Range": "0-0"})
                m = re.fullmatch(r"/v2/" + NAME + r"/blobs/uploads/(?P<session>[0-9a-f]+)", path)
                if m:
                    with lock:
                        data = uploads.get(m["session"])
                    if data is None:
                        return self.fail(404, "BLOB_UPLOAD_UNKNOWN", "no such upload session")
                    if self.command == "DELETE":
                        with lock:
                            uploads.pop(m["session"], None)
                        return self.answer(204, b"")
                    if self.command == "PATCH":
                        return self.patch(m, data, body, length)
                    if self.command == "PUT":
                        return self.close(m, data, body, query)
                m = re.fullmatch(r"/v2/" + NAME + r"/blobs/(?P<digest>sha256:[0-9a-f]{64})", path)
                if m and self.command in ("HEAD", "GET"):
                    stored = os.path.join(blobs, m["digest"][7:])
                    if not os.path.isfile(stored):
                        return self.fail(404, "BLOB_UNKNOWN", "blob unknown")
                    content = open(stored, "rb").read()
                    return self.answer(200, content, {"Docker-Content-Digest": m["digest"]})
                m = re.fullmatch(r"/v2/" + NAME + r"/manifests/(?P<reference>[^/]+)", path)
                if m and self.command == "PUT":
                    with lock:
                        manifests[(m["name"], m["reference"])] = (self.headers.get("Content-Type"), body)
                    return self.answer(201, b"", {"Docker-Content-Digest": "sha256:" + hashlib.sha256(body).hexdigest()})
                if m and self.command in ("HEAD", "GET"):
                    with lock:
                        found = manifests.get((m["name"], m["reference"]))
                    if not found:
                        return self.fail(404, "MANIFEST_UNKNOWN", "manifest unknown")
                    return self.answer(200, found[1], {"Content-Type": found[0]})
                return self.fail(404, "NOT_FOUND", "no such route")

            def patch(self, m, data, body, length):
                with lock:
                    state["patches"] += 1
                    first = state["patches"] == 1
                if "patch-416" in faults:
                    return self.fail(416, "BLOB_UPLOAD_INVALID", "this registry takes no chunks", {"Range": "0-0"})
                if "patch-405" in faults:
                    return self.fail(405, "UNSUPPORTED", "chunked uploads are not supported")
                if "patch-429-once" in faults and first:
                    return self.fail(429, "TOOMANYREQUESTS", "slow down", {"Retry-After": "1"})
                if self.headers.get("Content-Type") != "application/octet-stream":
                    return self.violation("a chunk needs Content-Type: application/octet-stream")
                chunk_range = self.headers.get("Content-Range") or ""
                r = RANGE.match(chunk_range)
                if not r:
                    return self.violation(f"Content-Range `{chunk_range}` does not match ^[0-9]+-[0-9]+$")
                start, end = int(r[1]), int(r[2])
                if length is None or int(length) != len(body) or end - start + 1 != len(body):
                    return self.violation(f"Content-Range {chunk_range} and Content-Length {length} disagree with {len(body)} bytes")
                if start != len(data):
                    self.record["violation"] = f"chunk starts at {start}, the upload holds {len(data)}"
                    return self.fail(416, "BLOB_UPLOAD_INVALID", "out of order", {"Range": f"0-{len(data) - 1}"})
                data.extend(body)
                headers = {"Range": f"0-{len(data) - 1}"}
                if "patch-no-location" not in faults:
                    headers["Location"] = f"/v2/{m['name']}/blobs/uploads/{m['session']}"
                return self.answer(202, b"", headers)

            def close(self, m, data, body, query):
                digest = (query.get("digest") or [""])[0]
                if not re.fullmatch(r"sha256:[0-9a-f]{64}", digest):
                    return self.violation(f"the closing PUT names no digest ({digest!r})", 400, "DIGEST_INVALID")
                chunk_range = self.headers.get("Content-Range")
                if body and chunk_range is not None:
                    r = RANGE.match(chunk_range)
                    if not r or int(r[1]) != len(data) or int(r[2]) - int(r[1]) + 1 != len(body):
                        return self.violation(f"the final chunk's Content-Range {chunk_range} does not follow {len(data)} bytes")
                elif body and len(data) > 0:
                    return self.violation("a final chunk after PATCHes needs its Content-Range")
                data.extend(body)
                actual = "sha256:" + hashlib.sha256(bytes(data)).hexdigest()
                if actual != digest:
                    return self.violation(f"received {len(data)} bytes hashing to {actual}, not {digest}", 400, "DIGEST_INVALID")
                stored = os.path.join(blobs, digest[7:])
                with open(stored + ".tmp", "wb") as out:
                    out.write(bytes(data))
                os.rename(stored + ".tmp", stored)
                with lock:
                    uploads.pop(m["session"], None)
                return self.answer(201, b"", {"Location": f"/v2/{m['name']}/blobs/{digest}", "Docker-Content-Digest": digest})

            def answer(self, status, body, headers={}):
                self.record["status"] = status
                with lock, open(log_file, "a") as log:
                    log.write(json.dumps(self.record) + "\n")
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

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        with open(port_file + ".tmp", "w") as out:
            out.write(str(server.server_address[1]))
        os.rename(port_file + ".tmp", port_file)
        sys.stdin.read()
        os._exit(0)
        """#
}
