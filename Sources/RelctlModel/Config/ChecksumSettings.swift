import Foundation
import RelctlBasics

public struct ChecksumSettings: Sendable {
    /// `sha256` (default) or `sha512`.
    public var algorithm: String = "sha256"
    package init() {}
}
