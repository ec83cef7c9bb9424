import Foundation
import RelctlBasics

/// `[sign]`: keys that sign `SHA256SUMS` and the public keys `verify` checks against. Paths are
/// relative to the project root; the environment variables in `SigningKeys` take precedence
/// for the secret keys (CI keeps them in secrets, not files).
public struct SignSettings: Sendable, Equatable {
    package var sshKey: String?
    package var minisignKey: String?
    package var allowedSigners: String?
    package var minisignPublicKey: String?
    package init(
        sshKey: String? = nil, minisignKey: String? = nil, allowedSigners: String? = nil,
        minisignPublicKey: String? = nil
    ) {
        self.sshKey = sshKey
        self.minisignKey = minisignKey
        self.allowedSigners = allowedSigners
        self.minisignPublicKey = minisignPublicKey
    }
}
