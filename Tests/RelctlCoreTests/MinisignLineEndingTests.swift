import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject
@testable import RelctlRelease

/// A `.minisig` with CRLF line endings, which minisign itself accepts (issue 26, item 20).
@Suite("minisign line endings", .timeLimit(.minutes(30)), .removesTemporaries)
struct MinisignLineEndingTests {
    @Test("a CRLF .minisig minisign verifies is read and verified by relctl too")
    func crlfSignature() throws {
        try withTemporaryDirectory { directory in
            let keys = try SigningKeysFixture(in: directory.url.appendingPathComponent("keys"))
            let file = try directory.write("SHA256SUMS", "00  a.tar.gz\n")
            let signed = try run(
                "minisign", ["-S", "-s", keys.minisignKey.path, "-m", file.path])
            #expect(signed.status == 0, "\(signed)")
            let signature = directory.url.appendingPathComponent("SHA256SUMS.minisig")
            let crlf = try String(contentsOf: signature, encoding: .utf8).replacingOccurrences(of: "\n", with: "\r\n")
            try Data(crlf.utf8).write(to: signature)
            let judge = try run("minisign", ["-V", "-p", keys.minisignPublicKey.path, "-m", file.path])
            #expect(judge.status == 0, "minisign accepts CRLF: \(judge)")
            let parsed = try MinisignSignature(text: crlf, file: "SHA256SUMS.minisig")
            let key = try MinisignPublicKey(
                text: try String(contentsOf: keys.minisignPublicKey, encoding: .utf8), source: "release.pub")
            #expect(try parsed.problem(verifying: file, with: key) == nil)
            #expect(!parsed.trustedComment.hasSuffix("\r"))
        }
    }
}
