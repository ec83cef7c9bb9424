import Crypto
import Foundation
import RelctlBasics

/// OpenSSH's key fingerprint, `SHA256:` and the unpadded base64 of the SHA-256 of the public
/// key's wire blob, as `ssh-keygen -lf KEY` prints it. DSSE envelopes name their signing key by it.
package enum SSHKeyFingerprint {
    package static func sha256(ofBlob blob: [UInt8]) -> String {
        var text = Data(SHA256.hash(data: Data(blob))).base64EncodedString()
        while text.hasSuffix("=") { text.removeLast() }
        return "SHA256:" + text
    }
}
