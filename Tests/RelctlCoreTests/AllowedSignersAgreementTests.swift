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

/// relctl trusts an allowed-signers line exactly when `ssh-keygen -Y verify` does (issue 26,
/// item 8): a line whose options ssh-keygen cannot parse is refused, never read as "no options".
@Suite("Allowed signers agree with ssh-keygen", .timeLimit(.minutes(30)), .removesTemporaries)
struct AllowedSignersAgreementTests {
    static let table = [
        "",
        #"namespaces="file""#,
        #"NAMESPACES="git,file""#,
        #"namespaces="git""#,
        #"namespaces=file"#,
        #"valid-before="2020-01-01""#,
        #"valid-before="1700000000""#,
        #"valid-after="1700000000000000""#,
        #"valid-before="29991231""#,
        #"valid-before="29991231Z""#,
        #"valid-before="299912312359""#,
        #"valid-after="29991231""#,
        #"valid-before="20000101""#,
        #"valid-after="20000101",valid-before="29991231""#,
        #"valid-after="29991231",valid-before="20000101""#,
        #"namespace="git""#,
        #"no-touch-required"#,
        #"namespaces="file","#,
        #"namespaces="file",,valid-before="29991231""#,
        #"cert-authority"#,
        #"valid-before="""#,
        #"valid-before="2999123"#,
        #"valid-before="29991231UTC""#,
        #"valid-before="20231340""#,
    ]

    @Test("relctl trusts a line exactly when ssh-keygen -Y verify does")
    func agreement() throws {
        try withTemporaryDirectory { directory in
            let key = directory.url.appendingPathComponent("id")
            #expect(try run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "c", "-f", key.path]).status == 0)
            let data = try directory.write("data", "payload\n")
            #expect(try run("ssh-keygen", ["-Y", "sign", "-f", key.path, "-n", "file", data.path]).status == 0)
            let publicKey = try String(contentsOf: URL(fileURLWithPath: key.path + ".pub"), encoding: .utf8)
                .split(separator: " ").prefix(2).joined(separator: " ")
            let blob = try #require(Data(base64Encoded: String(publicKey.split(separator: " ")[1])))
            for options in Self.table {
                let line = "signer@example.org " + (options.isEmpty ? "" : options + " ") + publicKey + "\n"
                let signers = try directory.write("allowed_signers", line)
                let keygen = try run(
                    "sh",
                    [
                        "-c", "ssh-keygen -Y verify -f \"$1\" -I signer@example.org -n file -s \"$2.sig\" < \"$2\"",
                        "sh",
                        signers.path, data.path,
                    ])
                let relctlTrusts =
                    (try? AllowedSigners(text: line, file: "allowed_signers"))?.signer(
                        for: Array(blob), namespace: "file")
                    != nil
                #expect(relctlTrusts == (keygen.status == 0), "\(options): ssh-keygen \(keygen)")
            }
        }
    }

    @Test("a line ssh-keygen cannot parse is refused with its line number and the reason")
    func refusal() throws {
        let key = "AAAAC3NzaC1lZDI1NTE5AAAAIME1AUMyuu0uZ1WBG+e8nD2UgTFfXCAu4+jYR4SEz2cp"
        let text = "# keys\nsigner@example.org valid-before=\"2020-01-01\" ssh-ed25519 \(key)\n"
        let error = #expect(throws: SigningError.self) { try AllowedSigners(text: text, file: "allowed_signers") }
        #expect(error?.message.contains("allowed_signers:2") == true, "\(String(describing: error?.message))")
        #expect(error?.message.contains("valid-before") == true)
    }
}
