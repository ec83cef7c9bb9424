import Crypto
import Foundation
import RelctlBasics

/// A minisign public key (`minisign -G`'s `.pub`): "Ed", an 8-byte key id and the Ed25519 key.
package struct MinisignPublicKey: Sendable, Equatable {
    package var keyID: [UInt8]
    package var key: [UInt8]

    /// The key id as minisign prints it (hex of the little-endian number, upper case).
    package var keyIDText: String { keyID.reversed().map { String(format: "%02X", $0) }.joined() }

    /// Parses a `.pub` file's text (the base64 line after an optional `untrusted comment:`) or a bare base64 key, as `minisign -P` takes.
    package init(text: String, source: String) throws {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("untrusted comment:") }
        guard let line = lines.first, let data = Data(base64Encoded: line), data.count == 42,
            Array(data.prefix(2)) == Array("Ed".utf8)
        else {
            throw SigningError.badKey(
                source: source,
                reason: "not a minisign public key (expected the base64 line `minisign -G` writes to the .pub file)")
        }
        keyID = Array(data[2..<10])
        key = Array(data[10..<42])
    }

    package init(keyID: [UInt8], key: [UInt8]) {
        self.keyID = keyID
        self.key = key
    }

    /// The `.pub` file text.
    package var fileText: String {
        "untrusted comment: minisign public key \(keyIDText)\n\(Data(Array("Ed".utf8) + keyID + key).base64EncodedString())\n"
    }
}
