import Foundation

/// One `include` entry of the GitHub Actions matrix. Field order is the contract's.
public struct GitHubMatrixEntry: Sendable, Equatable, Codable {
    public var target: String
    public var runner: String
    public var format: String
    public var os: String
    public var arch: String

    public init(_ target: Target) {
        self.target = target.triple
        self.runner = target.runner
        self.format = target.format
        self.os = target.os
        self.arch = target.arch
    }
}
