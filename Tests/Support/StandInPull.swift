import Foundation

/// A pull or merge request as a forge stand-in holds it (pulls_standin.py), whatever the forge.
public struct StandInPull: Decodable, Sendable {
    public var number: Int
    public var head: String
    public var base: String
    public var title: String
    public var body: String
    /// open or closed.
    public var state: String
    public var merged: Bool
    /// The head branch's commit when the request was opened.
    public var sha: String
    /// PATCH/PUT requests it received.
    public var edits: Int
    /// The fork's owner, for a request from a fork; nil for one from the repository itself.
    public var fork: String?
}
