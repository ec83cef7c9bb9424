import Foundation
import RelctlBasics

public struct ReleaseSettings: Sendable {
    package var branches: [String] = ["main", "master"]
    public var remote: String = "origin"
    package var sign: Bool = false
    package var before: [String] = []
    package var after: [String] = []
    package init() {}
}
