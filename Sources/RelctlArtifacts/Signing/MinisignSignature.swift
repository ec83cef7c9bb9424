import Crypto
import Foundation
import RelctlBasics

/// A minisign signature file (`FILE.minisig`): an untrusted comment, the prehashed ("ED")
/// Ed25519 signature of the file's BLAKE2b-512, a trusted comment, and a global signature over
/// signature + trusted comment, so the comment cannot be altered either.
package struct MinisignSignature: Sendable, Equatable {
    package var algorithm: [UInt8]
    package var keyID: [UInt8]
    package var signature: [UInt8]
    package var trustedComment: String
    package var globalSignature: [UInt8]
    package var untrustedComment: String

    package static let prehashed = Array("ED".utf8)
    package static let legacy = Array("Ed".utf8)

    /// Signs the file at `url` (prehashed, like minisign ≥ 0.8 by default).
    package static func sign(file url: URL, key: MinisignSecretKey, trustedComment: String) throws -> MinisignSignature
    {
        let digest = try Sodium.blake2b512(file: url)
        let signature = Sodium.sign(digest, secretKey: key.secretKey)
        let global = Sodium.sign(signature + Array(trustedComment.utf8), secretKey: key.secretKey)
        return MinisignSignature(
            algorithm: prehashed, keyID: key.keyID, signature: signature, trustedComment: trustedComment,
            globalSignature: global, untrustedComment: "signature from relctl secret key \(key.publicKey.keyIDText)")
    }

    package init(
        algorithm: [UInt8], keyID: [UInt8], signature: [UInt8], trustedComment: String, globalSignature: [UInt8],
        untrustedComment: String
    ) {
        self.algorithm = algorithm
        self.keyID = keyID
        self.signature = signature
        self.trustedComment = trustedComment
        self.globalSignature = globalSignature
        self.untrustedComment = untrustedComment
    }

    package var fileText: String {
        """
        untrusted comment: \(untrustedComment)
        \(Data(algorithm + keyID + signature).base64EncodedString())
        trusted comment: \(trustedComment)
        \(Data(globalSignature).base64EncodedString())

        """
    }

    /// Parses a `.minisig`; a malformed one is a bad signature (exit 1) naming `file`.
    package init(text: String, file: String) throws {
        func bad(_ reason: String) -> SigningError { .badSignature(file: file, reason: reason) }
        // By scalars: as Characters, "\r\n" is one grapheme that a split on "\n" never finds, and a
        // CRLF file (which minisign accepts) would read as one line.
        let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map {
            String(String.UnicodeScalarView($0.last == "\r" ? $0.dropLast() : $0))
        }
        guard lines.count >= 4, lines[0].hasPrefix("untrusted comment:"), lines[2].hasPrefix("trusted comment: "),
            let main = Data(base64Encoded: lines[1]), main.count == 74,
            let global = Data(base64Encoded: lines[3]), global.count == 64
        else {
            throw bad(
                "not a minisign signature (expected untrusted comment, signature, trusted comment, global signature)")
        }
        algorithm = Array(main[0..<2])
        guard algorithm == Self.prehashed || algorithm == Self.legacy else {
            throw bad("unknown minisign signature algorithm")
        }
        keyID = Array(main[2..<10])
        signature = Array(main[10..<74])
        untrustedComment = String(lines[0].dropFirst("untrusted comment:".count)).trimmingCharacters(in: .whitespaces)
        trustedComment = String(lines[2].dropFirst("trusted comment: ".count))
        globalSignature = Array(global)
    }

    /// Nil when the signature of the file at `url` and its trusted comment verify with `key`; else why not.
    package func problem(verifying url: URL, with key: MinisignPublicKey) throws -> String? {
        guard keyID == key.keyID else {
            return
                "signed by key \(MinisignPublicKey(keyID: keyID, key: key.key).keyIDText), not by the given key \(key.keyIDText)"
        }
        let message: [UInt8]
        if algorithm == Self.prehashed {
            message = try Sodium.blake2b512(file: url)
        } else {
            guard let data = FileSystem.contents(of: url) else {
                throw SigningError.missingFile(path: url.path, reason: "cannot be read")
            }
            message = Array(data)
        }
        guard Sodium.verify(signature, message: message, publicKey: key.key) else {
            return "signature verification failed: the file or its signature was altered"
        }
        guard Sodium.verify(globalSignature, message: signature + Array(trustedComment.utf8), publicKey: key.key) else {
            return "the trusted comment was altered (its global signature does not verify)"
        }
        return nil
    }
}

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
