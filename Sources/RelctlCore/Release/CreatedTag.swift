import Foundation

/// The tag the tag stage created.
public struct CreatedTag: Sendable {
    public var name: String
    /// The annotated tag's message.
    public var message: String
    public var signed: Bool
}
