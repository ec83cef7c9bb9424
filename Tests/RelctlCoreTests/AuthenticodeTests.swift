import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics

/// Authenticode signing of PE images built by mingw-w64, judged by osslsigncode: its `verify`
/// accepts every signed file with the test CA (and the TSA's CA when timestamped), and the digest
/// and checksum relctl computes are the ones osslsigncode computes.
@Suite(.serialized, .timeLimit(.minutes(30)), .removesTemporaries) struct AuthenticodeTests {
    func fixture() throws -> (AuthenticodeFixture, TemporaryDirectory) {
        let folder = try TemporaryDirectory(prefix: "relctl-authenticode")
        return (try AuthenticodeFixture(in: folder.url.appendingPathComponent("keys")), folder)
    }

    func key(_ fixture: AuthenticodeFixture, password: String = AuthenticodeFixture.password) throws -> AuthenticodeKey {
        try AuthenticodeKey(
            pkcs12: Array(try Data(contentsOf: fixture.signingKey)), password: password, source: "codesign.p12")
    }

    func sign(_ file: URL, with signer: AuthenticodeSigner, to output: URL) async throws {
        let signed = try await signer.sign(try PEImage(Array(try Data(contentsOf: file))))
        try Data(signed).write(to: output)
    }

    @Test func aSignedProgramVerifiesAndSigningTwiceGivesTheSameBytes() async throws {
        let (fixture, folder) = try fixture()
        let program = try fixture.program("hello")
        let signer = AuthenticodeSigner(key: try key(fixture), timestampURL: nil, http: URLSessionHTTPClient.shared)
        let first = folder.url.appendingPathComponent("first.exe")
        let second = folder.url.appendingPathComponent("second.exe")
        try await sign(program, with: signer, to: first)
        try await sign(program, with: signer, to: second)
        let verified = try fixture.verify(first)
        #expect(verified.status == 0, "\(verified)")
        #expect(verified.stdout.contains("Signature verification: ok"), "\(verified)")
        #expect(try Data(contentsOf: first) == Data(contentsOf: second))
        // Signing a signed file replaces its signature: the same bytes again.
        let again = folder.url.appendingPathComponent("again.exe")
        try await sign(first, with: signer, to: again)
        #expect(try Data(contentsOf: again) == Data(contentsOf: first))
        // The PE checksum osslsigncode computes is the one written (it prints the two only when they differ).
        let checksums = verified.stdout.split(separator: "\n").filter { $0.contains("PE checksum") }
        #expect(checksums.count == 1 && !verified.stdout.contains("MISMATCH"), "\(verified)")
    }

    @Test func theDigestIsTheOneOsslsigncodeComputes() throws {
        let (fixture, folder) = try fixture()
        let program = try fixture.program("digest", printing: "an odd length string to pad")
        let signed = folder.url.appendingPathComponent("ossl.exe")
        let made = try run(
            "osslsigncode",
            [
                "sign", "-pkcs12", fixture.signingKey.path, "-pass", AuthenticodeFixture.password, "-h", "sha256",
                "-in", program.path, "-out", signed.path,
            ])
        try #require(made.status == 0, "\(made)")
        let verified = try fixture.verify(signed)
        let line = verified.stdout.split(separator: "\n").first { $0.contains("Calculated message digest") }
        let expected = try #require(line?.split(separator: ":").last?.trimmingCharacters(in: .whitespaces))
        let ours = try PEImage(Array(try Data(contentsOf: signed))).digest
        #expect(ours.map { String(format: "%02X", $0) }.joined() == expected.uppercased(), "\(verified)")
    }

    @Test func aTimestampedSignatureVerifiesWithTheTSAsCA() async throws {
        let (fixture, folder) = try fixture()
        let program = try fixture.program("stamped")
        let authority = try fixture.timestampAuthority()
        defer { authority.stop() }
        let signer = AuthenticodeSigner(
            key: try key(fixture), timestampURL: URL(string: authority.baseURL), http: URLSessionHTTPClient.shared)
        let output = folder.url.appendingPathComponent("stamped.exe")
        try await sign(program, with: signer, to: output)
        let verified = try fixture.verify(output, timestamped: true)
        #expect(verified.status == 0, "\(verified)")
        #expect(verified.stdout.contains("Timestamp Server Signature verification: ok"), "\(verified)")
    }

    @Test func aWrongPasswordIsNamedAsSuch() throws {
        let (fixture, _) = try fixture()
        #expect(throws: AuthenticodeError.wrongPassword(source: "codesign.p12", passwordSet: true)) {
            try key(fixture, password: "not it")
        }
        #expect(throws: AuthenticodeError.wrongPassword(source: "codesign.p12", passwordSet: false)) {
            try key(fixture, password: "")
        }
    }

    @Test func aLegacyPKCS12IsRefusedWithHowToConvertIt() throws {
        let (fixture, folder) = try fixture()
        let legacy = folder.url.appendingPathComponent("legacy.p12")
        let made = try sh(
            "openssl pkcs12 -export -legacy -inkey codesign.key -in codesign.pem -out \(legacy.path) -passout pass:pw",
            in: fixture.directory)
        try #require(made.status == 0, "\(made)")
        do {
            _ = try AuthenticodeKey(pkcs12: Array(try Data(contentsOf: legacy)), password: "pw", source: "legacy.p12")
            Issue.record("a legacy PKCS#12 file was accepted")
        } catch let error as AuthenticodeError {
            #expect(error.exitCode == .badInput)
            #expect(error.message.contains("legacy") && error.message.contains("openssl pkcs12"), "\(error.message)")
        }
    }

    @Test func aFileThatIsNoPEImageIsRefused() throws {
        #expect(throws: PEImage.Malformed.self) { try PEImage(Array("#!/bin/sh\necho hi\n".utf8)) }
    }
}
