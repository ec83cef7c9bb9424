import Foundation

/// What Windows signing is tested with, made by the stock tools as a publisher would: a test CA
/// and a code-signing certificate (`openssl req`/`x509`), the PKCS#12 file `openssl pkcs12
/// -export` writes by default (OpenSSL 3: PBES2, PBKDF2-HMAC-SHA-256, AES-256-CBC, MAC SHA-256),
/// a time-stamping authority's CA and certificate (extendedKeyUsage critical timeStamping) with
/// the `openssl ts` configuration, and small Windows programs built with mingw-w64.
public struct AuthenticodeFixture: Sendable {
    public let directory: URL
    public static let password = "pfx pass 60"

    public var caCertificate: URL { directory.appendingPathComponent("ca.pem") }
    public var signingKey: URL { directory.appendingPathComponent("codesign.p12") }
    public var tsaCACertificate: URL { directory.appendingPathComponent("tsa-ca.pem") }
    public var tsaConfig: URL { directory.appendingPathComponent("tsa.cnf") }

    public init(in directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = """
            set -e
            cat > ext.cnf <<'CNF'
            [codesign]
            basicConstraints = CA:FALSE
            keyUsage = critical,digitalSignature
            extendedKeyUsage = codeSigning
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid
            [tsa]
            basicConstraints = CA:FALSE
            keyUsage = critical,digitalSignature
            extendedKeyUsage = critical,timeStamping
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid
            CNF
            openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 3650 -subj '/CN=relctl test CA' -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign
            openssl req -newkey rsa:2048 -nodes -keyout codesign.key -out codesign.csr -subj '/CN=Velostream Code Signing/O=Acme'
            openssl x509 -req -in codesign.csr -CA ca.pem -CAkey ca.key -set_serial 0x6001 -days 3650 -out codesign.pem -extfile ext.cnf -extensions codesign
            openssl pkcs12 -export -inkey codesign.key -in codesign.pem -certfile ca.pem -name codesign -out codesign.p12 -passout env:PFX_PASSWORD
            openssl req -x509 -newkey rsa:2048 -nodes -keyout tsa-ca.key -out tsa-ca.pem -days 3650 -subj '/CN=relctl test TSA CA' -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign
            openssl req -newkey rsa:2048 -nodes -keyout tsa.key -out tsa.csr -subj '/CN=relctl test TSA'
            openssl x509 -req -in tsa.csr -CA tsa-ca.pem -CAkey tsa-ca.key -set_serial 0x6002 -days 3650 -out tsa.pem -extfile ext.cnf -extensions tsa
            echo 01 > tsaserial
            cat > tsa.cnf <<CNF
            [tsa]
            default_tsa = tsa_config
            [tsa_config]
            dir = $PWD
            serial = \\$dir/tsaserial
            crypto_device = builtin
            signer_cert = \\$dir/tsa.pem
            certs = \\$dir/tsa-ca.pem
            signer_key = \\$dir/tsa.key
            signer_digest = sha256
            default_policy = 1.2.3.4.1
            digests = sha256
            accuracy = secs:1
            ordering = no
            tsa_name = no
            ess_cert_id_chain = no
            ess_cert_id_alg = sha256
            CNF
            """
        try Self.check(sh(script, in: directory, environment: ["PFX_PASSWORD": Self.password]))
    }

    /// A small console program built with mingw-w64 (`x86_64-w64-mingw32-gcc -O2 -s`), printing `text`.
    public func program(_ name: String, printing text: String = "hello from windows") throws -> URL {
        let source = directory.appendingPathComponent("\(name).c")
        try "#include <stdio.h>\nint main(void) { puts(\"\(text)\"); return 0; }\n".write(
            to: source, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("\(name).exe")
        try Self.check(run("x86_64-w64-mingw32-gcc", ["-O2", "-s", "-o", output.path, source.path]))
        return output
    }

    /// `osslsigncode verify` of `file` against the test CA (and the TSA's CA when timestamped).
    public func verify(_ file: URL, timestamped: Bool = false) throws -> RunResult {
        var arguments = ["verify", "-CAfile", caCertificate.path]
        if timestamped { arguments += ["-TSA-CAfile", tsaCACertificate.path] }
        return try run("osslsigncode", arguments + ["-in", file.path])
    }

    /// A time-stamping authority on 127.0.0.1: each POSTed RFC 3161 request is answered by
    /// `openssl ts -reply` with the fixture's TSA certificate. Stop it with `stop()`.
    public func timestampAuthority() throws -> LoopbackServer {
        try LoopbackServer(timestamping: tsaConfig)
    }

    static func check(_ result: RunResult) throws {
        guard result.status == 0 else { throw TestFailure("Authenticode fixture: \(result)") }
    }
}

extension LoopbackServer {
    static let timestamper = """
        import http.server, os, signal, subprocess, sys, tempfile
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
        config, port_file = sys.argv[1:3]
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                query = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with tempfile.TemporaryDirectory() as folder:
                    with open(os.path.join(folder, "q"), "wb") as out:
                        out.write(query)
                    done = subprocess.run(["openssl", "ts", "-reply", "-config", config, "-queryfile",
                                           os.path.join(folder, "q"), "-out", os.path.join(folder, "r")],
                                          capture_output=True)
                    if done.returncode != 0:
                        self.send_response(500); self.send_header("Content-Length", "0"); self.end_headers()
                        return
                    with open(os.path.join(folder, "r"), "rb") as reply:
                        body = reply.read()
                self.send_response(200)
                self.send_header("Content-Type", "application/timestamp-reply")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def log_message(self, *args):
                pass
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        with open(port_file + ".tmp", "w") as out:
            out.write(str(server.server_address[1]))
        os.rename(port_file + ".tmp", port_file)
        server.serve_forever()
        """

    /// An RFC 3161 time-stamping authority answering with `openssl ts -reply -config config`.
    public convenience init(timestamping config: URL) throws {
        try self.init(script: Self.timestamper) { [config.path, $0] }
    }
}
