import Foundation

/// One `include` entry of the GitHub Actions matrix. Field order is the contract's.
struct GitHubMatrixEntry: Sendable, Equatable, Codable {
    var target: String
    var runner: String
    var format: String
    var os: String
    var arch: String

    init(_ target: Target) {
        self.target = target.triple
        self.runner = target.runner
        self.format = target.format
        self.os = target.os
        self.arch = target.arch
    }
}
