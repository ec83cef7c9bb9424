import Foundation
import RelctlArtifacts
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject

/// RSA repository keys as gpg exports them (issue 44): a short key is refused naming the source
/// and what to make instead; a good one signs what gpgv accepts and `relctl verify`'s checker
/// takes, and refuses the signature over other bytes.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct OpenPGPRSAKeyTests {
    @Test func anRSAKeyShorterThan2048BitsIsRefusedNamingTheSource() throws {
        let key = try GPGKey(algorithm: "rsa1024")
        #expect {
            try OpenPGPSecretKey(text: key.secretArmored, source: "keys/short.asc")
        } throws: { error in
            let text = "\(error)"
            return text.contains("keys/short.asc") && text.contains("1024 bits") && text.contains("rsa3072")
        }
    }

    @Test func anRSASignatureIsGpgvsAndTheVerifiersOnlyOverItsBytes() throws {
        let key = try GPGKey(algorithm: "rsa3072")
        let secret = try OpenPGPSecretKey(text: key.secretArmored, source: "repo.asc")
        #expect(secret.fingerprintText == key.fingerprint)
        let data = Array("Origin: acme\n".utf8)
        let signature = try secret.detachedSignature(of: data, time: 1_700_000_000)
        try withTemporaryDirectory { directory in
            let file = try directory.write("Release", "Origin: acme\n")
            let asc = try directory.write("Release.gpg", signature)
            let checked = try run("gpgv", ["--keyring", key.keyring.path, asc.path, file.path])
            #expect(checked.status == 0 && checked.stderr.contains("using RSA key"), "\(checked)")
        }
        let keys = try RepositoryVerifier.publicKeys(try Data(contentsOf: key.keyring), source: "keyring")
        try RepositoryVerifier.check(signature, over: data, keys: keys, source: "Release.gpg")
        #expect {
            try RepositoryVerifier.check(
                signature, over: Array("Origin: acm3\n".utf8), keys: keys, source: "Release.gpg")
        } throws: { "\($0)".contains("BAD signature") }
    }
}
