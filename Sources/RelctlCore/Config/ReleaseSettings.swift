import Foundation

public struct ReleaseSettings: Sendable {
    var branches: [String] = ["main", "master"]
    public var remote: String = "origin"
    var sign: Bool = false
    var before: [String] = []
    var after: [String] = []
    init() {}
}
