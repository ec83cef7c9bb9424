import Foundation

/// Secrets never reach a message: a server whose error page echoes the request back (the token
/// in a reflected `Authorization` header) must not make relctl print the token. Each client
/// masks its own secrets in every error body before any message is built from it.
package enum SecretMask {
    package static let replacement = "***"

    /// `text` with every secret (and its base64 form, as it travels in a Basic header) replaced.
    /// Secrets shorter than 4 characters are not masked: they would hide ordinary words.
    package static func mask(_ text: String, hiding secrets: [String]) -> String {
        var masked = text
        for secret in forms(of: secrets) { masked = masked.replacingOccurrences(of: secret, with: replacement) }
        return masked
    }

    package static func forms(of secrets: [String]) -> [String] {
        let plain = secrets.filter { $0.count >= 4 }
        // Longest first, so a secret inside another is not half-masked.
        return Array(Set(plain + plain.map { Data($0.utf8).base64EncodedString() })).sorted {
            $0.count != $1.count ? $0.count > $1.count : $0 < $1
        }
    }
}

extension HTTPResponse {
    /// The response with `secrets` masked in its body when it is an error (status 400 and up):
    /// success bodies are data (a blob, a manifest) and are left byte for byte.
    package func maskingSecrets(_ secrets: [String]) -> HTTPResponse {
        guard status >= 400, !secrets.isEmpty else { return self }
        let text = String(decoding: body, as: UTF8.self)
        let masked = SecretMask.mask(text, hiding: secrets)
        guard masked != text else { return self }
        var copy = self
        copy.body = Data(masked.utf8)
        return copy
    }
}
