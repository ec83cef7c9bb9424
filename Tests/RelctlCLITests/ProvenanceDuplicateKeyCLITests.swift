import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Issue 39, finding 14: a signed document that can be read two ways is not verified. Each
/// envelope here carries a good signature (made by Python's `cryptography` with the release key,
/// over the document as written), and a key given twice, with the same value both times, so a
/// reader that keeps either copy sees a valid provenance.
extension ProvenanceCLITests {
    /// Signs `payload` as DSSE does (PAE of type and body) with the OpenSSH Ed25519 key: base64.
    static let pythonSigner = #"""
        import base64, sys
        from cryptography.hazmat.primitives.serialization import load_ssh_private_key
        key = load_ssh_private_key(open(sys.argv[1], "rb").read(), None)
        body = open(sys.argv[2], "rb").read()
        kind = sys.argv[3].encode()
        pae = b"DSSEv1 %d %s %d %s" % (len(kind), kind, len(body), body)
        print(base64.b64encode(key.sign(pae)).decode())
        """#

    @Test func verifyRefusesAKeyGivenTwiceInTheEnvelopeOrTheStatement() throws {
        let (fixture, keys) = try Self.releasedFixture()
        #expect(try relctl(["release", "v1.0.0"], in: fixture.url).status == 0)
        let provenance = fixture.url.appendingPathComponent("dist").appendingPathComponent(Self.provenanceName)
        let original = try String(contentsOf: provenance, encoding: .utf8)
        #expect(try relctl(["verify"], in: fixture.url).status == 0)

        let envelope = try #require(
            try JSONSerialization.jsonObject(with: Data(original.utf8)) as? [String: Any])
        let payloadType = try #require(envelope["payloadType"] as? String)
        let encodedPayload = try #require(envelope["payload"] as? String)
        let payload = try #require(Data(base64Encoded: encodedPayload))
        let keyid = try #require((envelope["signatures"] as? [[String: Any]])?.first?["keyid"] as? String)
        let statement = String(decoding: payload, as: UTF8.self)
        let subject = try #require(
            ((try JSONSerialization.jsonObject(with: payload) as? [String: Any])?["subject"] as? [[String: Any]])?
                .first?["name"] as? String)

        /// An envelope line for `body`, signed; `extra` goes into the envelope object first.
        func signed(_ body: String, extra: String = "") throws -> String {
            let file = fixture.url.appendingPathComponent("payload.json")
            try Data(body.utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let signature = try run("python3", ["-c", Self.pythonSigner, keys.sshKey.path, file.path, payloadType])
            guard signature.status == 0 else { throw TestFailure("signing failed: \(signature)") }
            let sig = signature.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let encoded = Data(body.utf8).base64EncodedString()
            return
                #"{\#(extra)"payload":"\#(encoded)","payloadType":"\#(payloadType)","signatures":[{"keyid":"\#(keyid)","sig":"\#(sig)"}]}"#
                + "\n"
        }

        // The control: the same statement re-signed this way verifies.
        try signed(statement).write(to: provenance, atomically: true, encoding: .utf8)
        let control = try relctl(["verify"], in: fixture.url)
        #expect(control.status == 0, "re-signing alone changes nothing: \(control)")

        let inStatement = try #require(statement.firstIndex(of: "{"))
        var twicePredicateType = statement
        twicePredicateType.insert(
            contentsOf: #""predicateType":"https://slsa.dev/provenance/v1","#,
            at: twicePredicateType.index(after: inStatement))
        let subjectStart = try #require(statement.range(of: #""subject":[{"#))
        var twiceSubjectName = statement
        twiceSubjectName.insert(contentsOf: #""name":"\#(subject)","#, at: subjectStart.upperBound)

        let cases: [(String, String, String)] = [
            ("payloadType", try signed(statement, extra: #""payloadType":"\#(payloadType)","#), "the DSSE envelope"),
            // Spelled with an escape: the same key once decoded.
            (
                "payload", try signed(statement, extra: #""pay\u006coad":"\#(payload.base64EncodedString())","#),
                "the DSSE envelope"
            ),
            ("predicateType", try signed(twicePredicateType), "the in-toto statement"),
            ("name", try signed(twiceSubjectName), "the in-toto statement"),
        ]
        for (key, line, document) in cases {
            try line.write(to: provenance, atomically: true, encoding: .utf8)
            let refused = try relctl(["verify"], in: fixture.url)
            #expect(refused.status == 1, "\(key): \(refused)")
            #expect(refused.stderr.contains("dist/\(Self.provenanceName): "), "\(key): \(refused)")
            #expect(refused.stderr.contains("\(document)"), "\(key): \(refused)")
            #expect(refused.stderr.contains("the key `\(key)` appears twice"), "\(key): \(refused)")
        }
        try original.write(to: provenance, atomically: true, encoding: .utf8)
        #expect(try relctl(["verify"], in: fixture.url).status == 0)
    }
}
