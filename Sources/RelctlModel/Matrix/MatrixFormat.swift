import Foundation
import RelctlBasics

/// How `relctl matrix` prints the expanded targets.
public enum MatrixFormat: String, Sendable, CaseIterable {
    /// Aligned columns for people.
    case table
    /// Every field of every target.
    case json
    /// `{"include":[{"target","runner","format","os","arch"}]}` for a GitHub Actions `fromJSON` matrix.
    case github
}
