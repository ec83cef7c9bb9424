import Foundation
import RelctlBasics

/// One `include` entry of the GitHub Actions matrix. Field order is the contract's.
package struct GitHubMatrixEntry: Sendable, Equatable, Codable {
    package var target: String
    package var runner: String
    package var format: String
    package var os: String
    package var arch: String

    package init(_ target: Target) {
        self.target = target.triple
        self.runner = target.runner
        self.format = target.format
        self.os = target.os
        self.arch = target.arch
    }
}
